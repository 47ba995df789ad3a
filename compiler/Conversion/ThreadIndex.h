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

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"

namespace tcc {

using mlir::tile::Distribution;

/// An i32 constant.
mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t value);

/// i1: threadIdx.x == 0, the thread that acts alone on a value every thread holds (a
/// scalar stored, printed or updated once per program).
mlir::Value emitIsThreadZero(mlir::OpBuilder &b, mlir::Location loc, unsigned numThreads);

/// threadIdx.x % 32 and threadIdx.x / 32.
mlir::Value emitLaneId(mlir::OpBuilder &b, mlir::Location loc, unsigned numThreads);
mlir::Value emitWarpId(mlir::OpBuilder &b, mlir::Location loc, unsigned numThreads);

/// The thread's position along tile dimension `dim` among the distinct positions the
/// threads take there: the lane and warp bits along `dim`, packed in the order of the
/// coordinate bits they select (for a blocked layout, warp part * lanes + lane part).
mlir::Value emitThreadPosition(mlir::OpBuilder &b, mlir::Location loc, const Distribution &dist,
                               unsigned dim);

/// The warp's position along tile dimension `dim` among the distinct warps there: its
/// warp bits along `dim`, packed in the order of the coordinate bits they select.
mlir::Value emitWarpPosition(mlir::OpBuilder &b, mlir::Location loc, const Distribution &dist,
                             unsigned dim);

/// The part of the thread's base coordinate along `dim` that its warp selects (its lane
/// taken as 0), from threadIdx.x or, when given, from the i32 warp id `warpId` (e.g.
/// emitUniformWarpId's, so that the result is known to be the same in the whole warp).
mlir::Value emitWarpBase(mlir::OpBuilder &b, mlir::Location loc, const Distribution &dist,
                         unsigned dim, mlir::Value warpId = {});

/// threadIdx.x / 32 broadcast from lane 0 (shfl.sync.idx): the same value, but one ptxas
/// knows to be uniform across the warp, so that what is computed from it stays in uniform
/// registers (wgmma descriptors).
mlir::Value emitUniformWarpId(mlir::OpBuilder &b, mlir::Location loc, unsigned numThreads);

/// The thread's base coordinate along tile dimension `dim` (Distribution::getThreadBase).
mlir::Value emitThreadBase(mlir::OpBuilder &b, mlir::Location loc, const Distribution &dist,
                           unsigned dim);

/// i1: the thread holds the first copy of its elements (its lane and warp bits that
/// select nothing are 0); null when the distribution has no replicas.
mlir::Value emitOwnerPredicate(mlir::OpBuilder &b, mlir::Location loc, const Distribution &dist);

} // namespace tcc

#endif // TCC_COMPILER_CONVERSION_THREADINDEX_H
