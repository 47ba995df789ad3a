//===- Distribution.h - which thread holds which tile element ----*- C++ -*-===//
//
// The lowering's reading of a layout (docs/lowering.md, "Distribution"): for a tile type
// with a `#tile.blocked` or `#tile.slice` encoding, the number of registers each thread
// holds, the element each register holds, and how a thread's position is derived from its
// lane and warp. Everything here is compile-time arithmetic on the layout; emitting the
// run-time part (thread ids) lives in ThreadIndex.h.
//
// A slice layout is read as its root blocked layout over the tile's shape with a 1
// inserted at every sliced dimension, so a reduced tile keeps its parent's registers.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CONVERSION_DISTRIBUTION_H
#define TCC_COMPILER_CONVERSION_DISTRIBUTION_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tcc {

class Distribution {
public:
  /// The distribution of a tile of `shape` laid out by `layout` (a blocked or slice
  /// encoding); std::nullopt for anything else.
  static std::optional<Distribution> get(llvm::ArrayRef<int64_t> shape, mlir::Attribute layout);
  static std::optional<Distribution> get(mlir::RankedTensorType type);

  unsigned getRank() const { return tileToRoot.size(); }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumRegs() const { return numRegs; }
  unsigned getNumWarps() const;
  unsigned getNumThreads() const { return 32 * getNumWarps(); }

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

  /// How the lane and warp ids encode the position along tile dimension `dim`:
  /// position = ((warp >> warpShift) & (warps - 1)) * lanes + ((lane >> laneShift) &
  /// (lanes - 1)); base = (position * sizePerThread) mod shape.
  struct DimThreads {
    unsigned laneShift, lanes, warpShift, warps, sizePerThread;
  };
  DimThreads getDimThreads(unsigned dim) const;

  /// True when several threads hold copies of the same elements (the tile is smaller
  /// than one repetition of the layout along some dimension, or a slice).
  bool hasReplicas() const;
  /// Whether the thread (lane, warp) holds the first copy of its elements.
  bool isOwner(unsigned lane, unsigned warp) const;

  /// The tile dimension along which consecutive registers hold consecutive elements,
  /// and how many of them do; (0, 1) when registers are never contiguous.
  unsigned getContigDim() const { return contigDim; }
  /// Consecutive elements a thread holds along tile dimension `dim` (sizePerThread,
  /// clipped to the tile).
  int64_t getRunAlong(unsigned dim) const { return runAlong[tileToRoot[dim]]; }
  int64_t getContigRun() const { return contigRun; }

  /// Distinct positions along tile dimension `dim` among the lanes, respectively the
  /// warps, of a program: the lane and warp counts that hold different elements.
  unsigned getDistinctLanes(unsigned dim) const;
  unsigned getDistinctWarps(unsigned dim) const;

  /// The layout's order over tile dimensions (fastest first); sliced dimensions dropped.
  llvm::SmallVector<unsigned> getTileOrder() const;

  /// True when both distributions put every element in the same register of the same
  /// thread (same shape assumed).
  bool isSameAs(const Distribution &other) const;

private:
  // The root blocked layout and its shape (tile shape with 1 at sliced dimensions).
  llvm::SmallVector<unsigned> spt, tpw, wpc, order;
  llvm::SmallVector<int64_t> rootShape;
  llvm::SmallVector<unsigned> tileToRoot;     // tile dim -> root dim
  llvm::SmallVector<int64_t> shape;           // the tile's shape
  llvm::SmallVector<int64_t> regsAlong;       // per root dim: registers along it
  llvm::SmallVector<int64_t> runAlong;        // per root dim: contiguous in-thread run
  int64_t numRegs = 1;
  unsigned contigDim = 0;
  int64_t contigRun = 1;

  int64_t ctaTile(unsigned rootDim) const { return int64_t(spt[rootDim]) * tpw[rootDim] * wpc[rootDim]; }
  int64_t rootRegOffset(int64_t reg, unsigned rootDim) const;
  int64_t rootThreadPosition(unsigned rootDim, unsigned lane, unsigned warp) const;
};

} // namespace tcc

#endif // TCC_COMPILER_CONVERSION_DISTRIBUTION_H
