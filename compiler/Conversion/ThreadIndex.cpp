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

Value emitIsThreadZero(OpBuilder &b, Location loc, unsigned numThreads) {
  Value tid = nvvm::threadIdX(b, loc, numThreads);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, i32Const(b, loc, 0));
}

Value emitLaneId(OpBuilder &b, Location loc, unsigned numThreads) {
  Value tid = nvvm::threadIdX(b, loc, numThreads);
  return arith::AndIOp::create(b, loc, tid, i32Const(b, loc, 31));
}

Value emitWarpId(OpBuilder &b, Location loc, unsigned numThreads) {
  Value tid = nvvm::threadIdX(b, loc, numThreads);
  return arith::ShRUIOp::create(b, loc, tid, i32Const(b, loc, 5));
}

/// Places id bits on coordinate bits: the sum over (id bit j, coordinate bit b) of
/// ((id >> j) & 1) << b, emitted as one mask and shift per run of consecutive bits that
/// keep their distance. `idBits` is the width of the id (bits above are known zero).
static Value scatterBits(OpBuilder &b, Location loc, Value id, unsigned idBits,
                         ArrayRef<std::pair<unsigned, unsigned>> bits) {
  Value result;
  for (size_t i = 0; i < bits.size();) {
    size_t j = i + 1;
    while (j < bits.size() && bits[j].first == bits[j - 1].first + 1 &&
           bits[j].second == bits[j - 1].second + 1)
      ++j;
    unsigned from = bits[i].first, to = bits[i].second, count = unsigned(j - i);
    Value piece = id;
    // No mask for a run that reaches the top of the id and starts at bit 0, or lands on
    // coordinate bit 0 (the right shift drops the bits under it).
    bool top = from + count == idBits;
    if (!(top && (from == 0 || to == 0)))
      piece = arith::AndIOp::create(b, loc, piece,
                                    i32Const(b, loc, int64_t(((1u << count) - 1) << from)));
    if (to > from)
      piece = arith::ShLIOp::create(b, loc, piece, i32Const(b, loc, to - from));
    else if (from > to)
      piece = arith::ShRUIOp::create(b, loc, piece, i32Const(b, loc, from - to));
    result = result ? arith::OrIOp::create(b, loc, result, piece).getResult() : piece;
    i = j;
  }
  return result;
}

/// The lane and warp bits along `dim`, with the coordinate bits they select.
static void threadBitsAlong(const Distribution &dist, unsigned dim,
                            SmallVectorImpl<std::pair<unsigned, unsigned>> &lanes,
                            SmallVectorImpl<std::pair<unsigned, unsigned>> &warps) {
  lanes = dist.getLaneBitsAlong(dim);
  warps = dist.getWarpBitsAlong(dim);
}

/// The coordinate selected by lane bits `lanes` and warp bits `warps`, from threadIdx.x
/// (lane bits are its low bits, warp bits the ones above), so that runs crossing from the
/// lane id into the warp id cost one shift.
static Value emitFromBits(OpBuilder &b, Location loc, const Distribution &dist,
                          ArrayRef<std::pair<unsigned, unsigned>> lanes,
                          ArrayRef<std::pair<unsigned, unsigned>> warps) {
  unsigned laneBits = llvm::Log2_32(dist.getThreadsPerWarp());
  unsigned tidBits = llvm::Log2_32(dist.getNumThreads());
  SmallVector<std::pair<unsigned, unsigned>> bits(lanes.begin(), lanes.end());
  for (auto [w, c] : warps)
    bits.push_back({laneBits + w, c});
  if (bits.empty())
    return i32Const(b, loc, 0);
  llvm::sort(bits);
  return scatterBits(b, loc, nvvm::threadIdX(b, loc, dist.getNumThreads()), tidBits, bits);
}

/// Replaces the coordinate bits of `lanes` and `warps` by their ranks among all of them.
static void packTargets(SmallVectorImpl<std::pair<unsigned, unsigned>> &lanes,
                        SmallVectorImpl<std::pair<unsigned, unsigned>> &warps) {  // Rank of each selected coordinate bit among all the threads' bits along `dim`.
  SmallVector<unsigned> targets;
  for (auto [id, bit] : lanes)
    targets.push_back(bit);
  for (auto [id, bit] : warps)
    targets.push_back(bit);
  llvm::sort(targets);
  auto rank = [&](unsigned bit) { return unsigned(llvm::find(targets, bit) - targets.begin()); };
  for (auto &l : lanes)
    l.second = rank(l.second);
  for (auto &w : warps)
    w.second = rank(w.second);
}

Value emitThreadPosition(OpBuilder &b, Location loc, const Distribution &dist, unsigned dim) {
  SmallVector<std::pair<unsigned, unsigned>> lanes, warps;
  threadBitsAlong(dist, dim, lanes, warps);
  packTargets(lanes, warps);
  return emitFromBits(b, loc, dist, lanes, warps);
}

Value emitWarpPosition(OpBuilder &b, Location loc, const Distribution &dist, unsigned dim) {
  SmallVector<std::pair<unsigned, unsigned>> lanes, warps = dist.getWarpBitsAlong(dim);
  packTargets(lanes, warps);
  return emitFromBits(b, loc, dist, lanes, warps);
}

Value emitWarpBase(OpBuilder &b, Location loc, const Distribution &dist, unsigned dim,
                   Value warpId) {
  if (!warpId)
    return emitFromBits(b, loc, dist, {}, dist.getWarpBitsAlong(dim));
  SmallVector<std::pair<unsigned, unsigned>> bits = dist.getWarpBitsAlong(dim);
  if (bits.empty())
    return i32Const(b, loc, 0);
  return scatterBits(b, loc, warpId, llvm::Log2_32(dist.getNumWarps()), bits);
}

Value emitUniformWarpId(OpBuilder &b, Location loc, unsigned numThreads) {
  return nvvm::shuffleIdx32(b, loc, emitWarpId(b, loc, numThreads), 0);
}

Value emitThreadBase(OpBuilder &b, Location loc, const Distribution &dist, unsigned dim) {
  SmallVector<std::pair<unsigned, unsigned>> lanes, warps;
  threadBitsAlong(dist, dim, lanes, warps);
  return emitFromBits(b, loc, dist, lanes, warps);
}

Value emitOwnerPredicate(OpBuilder &b, Location loc, const Distribution &dist) {
  if (!dist.hasReplicas())
    return {};
  unsigned numThreads = dist.getNumThreads();
  Value owner;
  Value zero = i32Const(b, loc, 0);
  auto require = [&](Value id, unsigned mask) {
    if (!mask)
      return;
    Value bits = arith::AndIOp::create(b, loc, id, i32Const(b, loc, mask));
    Value cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits, zero);
    owner = owner ? arith::AndIOp::create(b, loc, owner, cond).getResult() : cond;
  };
  require(emitLaneId(b, loc, numThreads), dist.getReplicaLaneMask());
  require(emitWarpId(b, loc, numThreads), dist.getReplicaWarpMask());
  return owner;
}

} // namespace tcc
