//===- ThreadIndex.h - a thread's place in a distribution --------*- C++ -*-===//
//
// Emits, as i32 arithmetic on threadIdx.x, the run-time half of a Distribution: the
// lane and warp ids, a thread's base coordinate along a tile dimension and whether it
// holds the first copy of replicated elements. Everything is shifts and masks because
// every layout parameter is a power of two.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CONVERSION_THREADINDEX_H
#define TCC_COMPILER_CONVERSION_THREADINDEX_H

#include "compiler/Conversion/Distribution.h"

#include "mlir/IR/Builders.h"

namespace tcc {

/// An i32 constant.
mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t value);

/// threadIdx.x % 32 and threadIdx.x / 32.
mlir::Value emitLaneId(mlir::OpBuilder &b, mlir::Location loc, unsigned numThreads);
mlir::Value emitWarpId(mlir::OpBuilder &b, mlir::Location loc, unsigned numThreads);

/// The thread's position along tile dimension `dim` in units of threads (before
/// multiplying by sizePerThread): warp part * lanes + lane part.
mlir::Value emitThreadPosition(mlir::OpBuilder &b, mlir::Location loc, const Distribution &dist,
                               unsigned dim);

/// The thread's base coordinate along tile dimension `dim` (Distribution::getThreadBase).
mlir::Value emitThreadBase(mlir::OpBuilder &b, mlir::Location loc, const Distribution &dist,
                           unsigned dim);

/// i1: the thread holds the first copy of its elements; null when the distribution has
/// no replicas (every thread owns what it holds).
mlir::Value emitOwnerPredicate(mlir::OpBuilder &b, mlir::Location loc, const Distribution &dist);

} // namespace tcc

#endif // TCC_COMPILER_CONVERSION_THREADINDEX_H
