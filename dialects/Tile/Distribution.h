//===- Distribution.h - which thread holds which tile element ----*- C++ -*-===//
//
// The meaning of a distributed layout (docs/layouts.md): for a tile of a given shape, which
// register of which lane of which warp holds each element. Every layout of the dialect
// (blocked, slice, mma, dot_operand) describes itself through the
// DistributedLayoutInterface as *bits*: each bit of a thread's register index, lane id
// and warp id selects one bit of one coordinate of the element, or none (threads that
// differ only in that bit hold copies). Tile dimensions are powers of two, and no two
// index bits select the same coordinate bit, so an element's coordinate is the OR (equally
// the sum) of what its register bits and its thread's lane and warp bits select:
//
//   coordinate[d] = getThreadBase(d, lane, warp) + getRegOffset(reg, d)
//
// Blocked layouts give runs of consecutive lane bits along each dimension; MMA
// accumulators interleave them (a register bit sits between lane bits and warp bits along
// M), which this representation expresses without special cases. Everything here is
// compile-time arithmetic on the layout: the lowering emits the run-time half (thread
// ids) from it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TILE_DISTRIBUTION_H
#define TCC_DIALECTS_TILE_DISTRIBUTION_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tile {

/// Where one bit of a register index, lane id or warp id takes its element: bit `bit` of
/// the coordinate along tile dimension `dim`, or nowhere (`dim < 0`): threads that differ
/// only in that bit hold the same elements.
struct BitTarget {
  int dim = -1;
  unsigned bit = 0;

  bool isNone() const { return dim < 0; }
  static BitTarget none() { return {}; }
  static BitTarget of(unsigned dim, unsigned bit) { return {int(dim), bit}; }
  bool operator==(const BitTarget &o) const { return dim == o.dim && bit == o.bit; }
};

/// A layout's bits over one tile shape: what DistributedLayoutInterface::getLayoutBits
/// gives. `lanes` has log2(threads per warp) entries and `warps` log2(warps) entries;
/// register bits never point nowhere. `order` is the dimensions from the fastest-varying
/// (the one along which a thread's registers and the lanes run first) to the slowest.
struct LayoutBits {
  llvm::SmallVector<BitTarget> regs, lanes, warps;
  llvm::SmallVector<unsigned> order;
};

class Distribution {
public:
  /// The distribution of a tile of `shape` laid out by `layout` (any attribute
  /// implementing DistributedLayoutInterface); std::nullopt for anything else, or for a
  /// shape the layout cannot lay out.
  static std::optional<Distribution> get(llvm::ArrayRef<int64_t> shape, Attribute layout);
  static std::optional<Distribution> get(RankedTensorType type);
  /// From bits; std::nullopt (and `why` set) unless every coordinate bit of every
  /// dimension is selected exactly once, and registers only by registers and threads.
  static std::optional<Distribution> fromBits(llvm::ArrayRef<int64_t> shape, LayoutBits bits,
                                              std::string *why = nullptr);

  unsigned getRank() const { return shape.size(); }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumRegs() const { return int64_t(1) << bits.regs.size(); }
  unsigned getNumWarps() const { return 1u << bits.warps.size(); }
  unsigned getThreadsPerWarp() const { return 1u << bits.lanes.size(); }
  unsigned getNumThreads() const { return getThreadsPerWarp() * getNumWarps(); }
  const LayoutBits &getBits() const { return bits; }

  /// The coordinate, along tile dimension `dim`, of register `reg` relative to the
  /// thread's base coordinate (see getThreadBase): a compile-time constant.
  int64_t getRegOffset(int64_t reg, unsigned dim) const;
  llvm::SmallVector<int64_t> getRegOffsets(int64_t reg) const;

  /// The register holding the element at `offsets` (relative to the thread base);
  /// std::nullopt if this thread's registers do not cover it.
  std::optional<int64_t> findReg(llvm::ArrayRef<int64_t> offsets) const;

  /// A thread's base coordinate along tile dimension `dim`: register r of the thread
  /// holds the element at base + getRegOffset(r, dim) in every dimension.
  int64_t getThreadBase(unsigned dim, unsigned lane, unsigned warp) const;

  /// The lane (warp) id bits that select coordinate bits along `dim`, as
  /// (id bit, coordinate bit) pairs in increasing id bit order.
  llvm::SmallVector<std::pair<unsigned, unsigned>> getLaneBitsAlong(unsigned dim) const;
  llvm::SmallVector<std::pair<unsigned, unsigned>> getWarpBitsAlong(unsigned dim) const;
  /// Lane (warp) id bits that select nothing: threads differing in them hold copies.
  unsigned getReplicaLaneMask() const;
  unsigned getReplicaWarpMask() const;

  /// True when several threads hold copies of the same elements.
  bool hasReplicas() const { return getReplicaLaneMask() || getReplicaWarpMask(); }
  /// Whether the thread (lane, warp) holds the first copy of its elements.
  bool isOwner(unsigned lane, unsigned warp) const;

  /// The tile dimension along which consecutive registers hold consecutive elements,
  /// and how many of them do; (dimension of register 1, 1) when registers are never
  /// contiguous, (0, 1) with a single register.
  unsigned getContigDim() const { return contigDim; }
  int64_t getContigRun() const { return contigRun; }
  /// Consecutive elements a thread holds along tile dimension `dim` from its base: the
  /// low coordinate bits of `dim` that registers select.
  int64_t getRunAlong(unsigned dim) const;

  /// Distinct positions along tile dimension `dim` among the lanes, respectively the
  /// warps, of a program: the lane and warp counts that hold different elements.
  unsigned getDistinctLanes(unsigned dim) const { return 1u << getLaneBitsAlong(dim).size(); }
  unsigned getDistinctWarps(unsigned dim) const { return 1u << getWarpBitsAlong(dim).size(); }

  /// The layout's order over tile dimensions (fastest first).
  llvm::ArrayRef<unsigned> getTileOrder() const { return bits.order; }

  /// True when both distributions put every element in the same register of the same
  /// thread (same shape assumed).
  bool isSameAs(const Distribution &other) const;

private:
  llvm::SmallVector<int64_t> shape;
  LayoutBits bits;
  unsigned contigDim = 0;
  int64_t contigRun = 1;
};

/// Bits of the blocked layout `sizePerThread`/`threadsPerWarp`/`warpsPerCTA`/`order` over a
/// tile of `shape` (docs/layouts.md): in-thread runs, then lanes and warps along each
/// dimension, registers again for repetitions; lanes and warps beyond a small dimension
/// hold copies.
LayoutBits blockedLayoutBits(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<unsigned> sizePerThread,
                             llvm::ArrayRef<unsigned> threadsPerWarp,
                             llvm::ArrayRef<unsigned> warpsPerCTA, llvm::ArrayRef<unsigned> order);

} // namespace mlir::tile

#endif // TCC_DIALECTS_TILE_DISTRIBUTION_H
