//===- SharedLayout.h - how a tile sits in shared memory ---------*- C++ -*-===//
//
// A tile staged through shared memory is stored as rows along its fastest dimension
// (`order[0]`), every other dimension flattened into the row index. Within a row,
// chunks of `vec` elements (one vector access) may be XOR-swizzled by the row, and rows
// may be padded: both spread the accesses of a warp over the 32 banks. Rows may also be
// cut into atoms `atom` elements wide, each atom holding its slice of every row in turn:
// the tensor cores' swizzled layouts (#tile.nvmma_shared) are such layouts. Scratch
// buffers pick the parameters by simulating, at compile time, the bank conflicts of the
// exact accesses the writing and reading threads will make (chooseSharedLayout).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TILE_SHAREDLAYOUT_H
#define TCC_DIALECTS_TILE_SHAREDLAYOUT_H

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::tile {

struct SharedLayout {
  llvm::SmallVector<int64_t> shape;  // the tile's shape
  llvm::SmallVector<unsigned> order; // tile dims, fastest first
  int64_t vec = 1;                   // elements per swizzled chunk
  int64_t perPhase = 1, maxPhase = 1; // chunk ^= (row / perPhase) % maxPhase
  int64_t pad = 0;                   // elements after each row
  int64_t atom = 0;                  // row elements per atom (0: the whole row)

  int64_t rowLength() const { return shape[order[0]]; }
  /// Elements of a row stored together: an atom's width, or the whole row.
  int64_t atomWidth() const { return atom ? atom : rowLength(); }
  int64_t numRows() const;
  int64_t sizeInElements() const { return numRows() * (rowLength() + pad); }
  /// Element offset of the element at `coords` (compile time).
  int64_t offset(llvm::ArrayRef<int64_t> coords) const;
  /// The same at run time, from i32 coordinates.
  mlir::Value emitOffset(mlir::OpBuilder &b, mlir::Location loc,
                         llvm::ArrayRef<mlir::Value> coords) const;
};

/// Address reuse between the accesses a thread makes to a staged tile: access `a` may
/// take the address of access `ref` plus `delta` elements when, for every thread, its
/// offset is exactly that one's plus `delta` (checked at compile time over all threads),
/// so that one per-thread address serves many accesses as `[%r+imm]`; `ref == a` for
/// an access whose offset is computed.
struct OffsetReuse {
  int64_t ref = 0;
  int64_t delta = 0;
};
/// `numAccesses` accesses whose coordinates, for the thread (lane, warp), are
/// `coordsOf(access, lane, warp)`, made by `numWarps` warps.
llvm::SmallVector<OffsetReuse> planOffsetReuse(
    const SharedLayout &layout, int64_t numAccesses, unsigned numWarps,
    llvm::function_ref<llvm::SmallVector<int64_t>(int64_t access, unsigned lane,
                                                  unsigned warp)>
        coordsOf);

/// One warp's accesses to a staged tile: per instruction, per lane, the coordinates of
/// the first of `width` elements contiguous along the shared layout's order[0] (none for
/// an idle lane).
struct WarpAccesses {
  unsigned width = 1;
  int64_t repeat = 1; // how many times the instructions run per staging (a dot's k loop)
  std::vector<std::vector<std::optional<llvm::SmallVector<int64_t>>>> instructions;
};

/// Warp 0's accesses when a thread of `dist` reads or writes all its registers, in
/// groups of consecutive registers along `contigDim` of at most `maxWidth`.
WarpAccesses distributionAccesses(const Distribution &dist, unsigned contigDim,
                                  unsigned maxWidth);

/// How many elements of `dist` one access can cover when the shared rows run along
/// `rowDim` (vector width in elements, at most `maxWidth`).
unsigned accessWidth(const Distribution &dist, unsigned rowDim, unsigned maxWidth);

/// Shared-memory wavefronts the accesses cost under `layout` (bank-conflict model: per
/// warp instruction, the most distinct 4-byte words any bank must serve, and at least
/// the distinct bytes over 128; lanes reading the same word share it).
/// Wavefronts of all instructions of `accesses` (times their repeat count); stops
/// counting (returning more than `limit`) once the count exceeds a non-negative `limit`.
int64_t countWavefronts(const SharedLayout &layout, const WarpAccesses &accesses,
                        unsigned elementBytes, int64_t limit = -1);

/// The cheapest layout over `orders` (candidate dimension orders), vector widths up to
/// 16 bytes, swizzles and paddings, for the accesses `patterns(order, maxWidth)` yields
/// (accesses of at most maxWidth elements). The chosen layout's `vec` is the widest
/// access it was chosen for: accesses must use accessWidth(..., layout.vec).
SharedLayout chooseSharedLayout(
    llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<llvm::SmallVector<unsigned>> orders,
    unsigned elementBytes,
    llvm::function_ref<std::vector<WarpAccesses>(llvm::ArrayRef<unsigned> order,
                                                 unsigned maxWidth)>
        patterns);

/// Warp 0's stores of a tile held in `dist` into shared memory whose rows run along
/// `rowDim`, in vectors of up to 16 bytes of `elementBytes`-byte elements.
WarpAccesses storeAccesses(const Distribution &dist, unsigned rowDim, unsigned elementBytes);

/// The layout of one tile of `type` (a !tile.smem buffer) as SharedLayout says it.
SharedLayout getSharedLayout(SharedMemType type);

/// The 2-D #tile.nvmma_shared tile `type` seen transposed: the shape and the order
/// reversed, the same swizzle, so the same bytes (what tile.memdesc_trans gives).
SharedMemType transposedSharedTile(SharedMemType type);

} // namespace mlir::tile

namespace tcc {
using mlir::tile::accessWidth;
using mlir::tile::chooseSharedLayout;
using mlir::tile::countWavefronts;
using mlir::tile::distributionAccesses;
using mlir::tile::OffsetReuse;
using mlir::tile::planOffsetReuse;
using mlir::tile::SharedLayout;
using mlir::tile::storeAccesses;
using mlir::tile::transposedSharedTile;
using mlir::tile::WarpAccesses;
} // namespace tcc

#endif // TCC_COMPILER_CONVERSION_SHAREDLAYOUT_H
