//===- SharedMemory.h - the kernel's scratch buffer --------------*- C++ -*-===//
//
// Ops that exchange data between threads (layout conversions, reductions across warps,
// dot) use one dynamic shared-memory buffer, `tcc_shared`, from offset 0; its size is
// the largest need (SharedMemoryPlan) and goes into the artifact metadata.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CONVERSION_SHAREDMEMORY_H
#define TCC_COMPILER_CONVERSION_SHAREDMEMORY_H

#include "mlir/IR/Builders.h"

namespace tcc {

/// The buffer's address, `!llvm.ptr<3>`.
mlir::Value sharedBase(mlir::OpBuilder &b, mlir::Location loc);
/// Address of element `index` (i32) of type `memType` from `base`.
mlir::Value sharedElementPtr(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                             mlir::Type memType, mlir::Value index);
/// Stores the memory-typed `elements` contiguously at `ptr` (one vector access if several).
void storeShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                 llvm::ArrayRef<mlir::Value> elements);
/// Loads `count` contiguous elements of `memType` from `ptr`.
llvm::SmallVector<mlir::Value> loadShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                                          mlir::Type memType, unsigned count);

/// Register value to what shared memory holds (i1 -> i8, pointers -> i64) and back.
mlir::Value toSharedMemory(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);
mlir::Value fromSharedMemory(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                             mlir::Type type);

} // namespace tcc

#endif // TCC_COMPILER_CONVERSION_SHAREDMEMORY_H
