//===- ThreadIndex.cpp - a thread's place in a distribution ---------------===//

#include "compiler/Conversion/ThreadIndex.h"

#include "compiler/Conversion/NVVMBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tcc {

Value i32Const(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

Value emitLaneId(OpBuilder &b, Location loc, unsigned numThreads) {
  Value tid = nvvm::threadIdX(b, loc, numThreads);
  return arith::AndIOp::create(b, loc, tid, i32Const(b, loc, 31));
}

Value emitWarpId(OpBuilder &b, Location loc, unsigned numThreads) {
  Value tid = nvvm::threadIdX(b, loc, numThreads);
  return arith::ShRUIOp::create(b, loc, tid, i32Const(b, loc, 5));
}

/// (x >> shift) & (count - 1), skipping what is not needed.
static Value extractField(OpBuilder &b, Location loc, Value x, unsigned shift, unsigned count) {
  if (count == 1)
    return i32Const(b, loc, 0);
  if (shift == 0 && count == 32)
    return x; // a whole lane id: already below 32
  if (shift)
    x = arith::ShRUIOp::create(b, loc, x, i32Const(b, loc, shift));
  return arith::AndIOp::create(b, loc, x, i32Const(b, loc, count - 1));
}

Value emitThreadPosition(OpBuilder &b, Location loc, const Distribution &dist, unsigned dim) {
  Distribution::DimThreads t = dist.getDimThreads(dim);
  unsigned numThreads = dist.getNumThreads();
  Value lanePart, warpPart;
  if (t.lanes > 1)
    lanePart = extractField(b, loc, emitLaneId(b, loc, numThreads), t.laneShift, t.lanes);
  if (t.warps > 1) {
    Value warp = extractField(b, loc, emitWarpId(b, loc, numThreads), t.warpShift, t.warps);
    warpPart = t.lanes > 1
                   ? arith::ShLIOp::create(b, loc, warp, i32Const(b, loc, llvm::Log2_32(t.lanes)))
                   : warp;
  }
  if (lanePart && warpPart)
    return arith::OrIOp::create(b, loc, warpPart, lanePart);
  if (lanePart)
    return lanePart;
  if (warpPart)
    return warpPart;
  return i32Const(b, loc, 0);
}

Value emitThreadBase(OpBuilder &b, Location loc, const Distribution &dist, unsigned dim) {
  int64_t size = dist.getShape()[dim];
  Distribution::DimThreads t = dist.getDimThreads(dim);
  if (size <= int64_t(t.sizePerThread) || t.lanes * t.warps == 1)
    return i32Const(b, loc, 0);
  Value pos = emitThreadPosition(b, loc, dist, dim);
  if (t.sizePerThread > 1)
    pos = arith::ShLIOp::create(b, loc, pos, i32Const(b, loc, llvm::Log2_32(t.sizePerThread)));
  if (size < int64_t(t.sizePerThread) * t.lanes * t.warps)
    pos = arith::AndIOp::create(b, loc, pos, i32Const(b, loc, size - 1));
  return pos;
}

Value emitOwnerPredicate(OpBuilder &b, Location loc, const Distribution &dist) {
  if (!dist.hasReplicas())
    return {};
  // Replicas arise along tile dimensions smaller than a layout repetition, and along
  // sliced dimensions (size 1 in the root). Rather than special-casing slices, test the
  // threads' root positions through the simulated predicate: a thread owns its elements
  // iff every root position times sizePerThread is below the root size. For tile
  // dimensions that is emitThreadPosition * spt < size; sliced root dimensions are
  // covered by building the predicate from the lane/warp bits that no tile dimension uses.
  unsigned numThreads = dist.getNumThreads();
  Value owner;
  auto conjoin = [&](Value cond) {
    owner = owner ? arith::AndIOp::create(b, loc, owner, cond).getResult() : cond;
  };
  unsigned usedLaneBits = 0, usedWarpBits = 0;
  for (unsigned d = 0; d < dist.getRank(); ++d) {
    Distribution::DimThreads t = dist.getDimThreads(d);
    usedLaneBits |= (t.lanes - 1) << t.laneShift;
    usedWarpBits |= (t.warps - 1) << t.warpShift;
    int64_t size = dist.getShape()[d];
    int64_t threadsNeeded = std::max<int64_t>(1, size / t.sizePerThread);
    if (threadsNeeded >= int64_t(t.lanes) * t.warps)
      continue;
    Value pos = emitThreadPosition(b, loc, dist, d);
    conjoin(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pos,
                                  i32Const(b, loc, threadsNeeded)));
  }
  unsigned warpBits = numThreads / 32 - 1;
  unsigned unusedLane = 31 & ~usedLaneBits, unusedWarp = warpBits & ~usedWarpBits;
  Value zero = i32Const(b, loc, 0);
  if (unusedLane) {
    Value lane = emitLaneId(b, loc, numThreads);
    Value bits = arith::AndIOp::create(b, loc, lane, i32Const(b, loc, unusedLane));
    conjoin(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits, zero));
  }
  if (unusedWarp) {
    Value warp = emitWarpId(b, loc, numThreads);
    Value bits = arith::AndIOp::create(b, loc, warp, i32Const(b, loc, unusedWarp));
    conjoin(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits, zero));
  }
  return owner;
}

} // namespace tcc
