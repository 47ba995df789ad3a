//===- NVVMBuilders.h - the few NVVM ops the lowering emits ------*- C++ -*-===//
//
// The only place that includes NVVMDialect.h (it is expensive to compile): thread and
// program ids, barriers and warp shuffles, built through plain OpBuilder calls.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CONVERSION_NVVMBUILDERS_H
#define TCC_COMPILER_CONVERSION_NVVMBUILDERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"

namespace tcc::nvvm {

/// Registers the LLVM and NVVM dialects (what the lowering produces).
void registerTargetDialects(mlir::DialectRegistry &registry);

/// threadIdx.x as i32, known to lie in [0, numThreads).
mlir::Value threadIdX(mlir::OpBuilder &b, mlir::Location loc, unsigned numThreads);
/// blockIdx along `axis` (0..2) as i32.
mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, unsigned axis);
/// gridDim along `axis` (0..2) as i32.
mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, unsigned axis);
/// bar.sync 0: every thread of the program waits, shared memory writes become visible.
void barrier(mlir::OpBuilder &b, mlir::Location loc);
/// shfl.sync.bfly over the full warp: the i32 or f32 `value` of lane (lane ^ laneMask).
mlir::Value shuffleXor32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                         unsigned laneMask);

} // namespace tcc::nvvm

#endif // TCC_COMPILER_CONVERSION_NVVMBUILDERS_H
