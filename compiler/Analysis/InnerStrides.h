//===- InnerStrides.h - integer arguments that are inner strides --*- C++ -*-===//
//
// Which integer arguments of a kernel are inner strides: multiplied by a tile contiguous
// along its last dimension into the address of an access that is otherwise contiguous
// along no dimension (`rn[None, :] * stride_n`). --variants=auto compiles a variant with
// those equal to 1 (row-major operands), which the runtime selects when they are.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ANALYSIS_INNERSTRIDES_H
#define TCC_ANALYSIS_INNERSTRIDES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

namespace tcc {

/// An integer type an argument specialisation applies to: i8 to i64 (not i1).
bool isSpecialisableInteger(mlir::Type type);

/// The positions of `kernel`'s inner-stride arguments, in order. Row strides (multiplying
/// scalars, or tiles contiguous along another dimension) are not listed, nor are strides
/// whose access is contiguous anyway (transpose's destination).
llvm::SmallVector<unsigned> innerStrideArguments(mlir::func::FuncOp kernel);

} // namespace tcc

#endif // TCC_ANALYSIS_INNERSTRIDES_H
