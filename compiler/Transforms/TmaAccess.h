//===- TmaAccess.h - loads a TMA tensor map can describe ----------*- C++ -*-===//
//
// A tile load whose pointers are `base + sum_d (o_d + arange_d) * s_d` (`base` a pointer
// argument of the kernel, one term per dimension of the tile, the last with stride 1) and
// whose mask is `and_d (o_d + arange_d < E_d)` (the same indices, one bound per dimension;
// a dimension indexed by `arange_d` alone may be unbounded, its extent the tile's size;
// `o_d + arange_d >= 0` may be and-ed in, as tensor descriptors do: a box's coordinates
// below zero read zeros) reads exactly the box at [o_0, ..., o_n] of the array of extents
// E_d and strides s_d, with zeros outside it: what a TMA bulk tensor copy reads. tile-split-masked-loops keeps
// such loops whole (their masks cost a bulk copy nothing) and tile-pipeline copies them
// with tile.tma_load, when TMA is on (tcc's default; --no-tma turns it off).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_TRANSFORMS_TMAACCESS_H
#define TCC_COMPILER_TRANSFORMS_TMAACCESS_H

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace tcc {

struct TmaDim {
  llvm::SmallVector<mlir::Value> origin; // i32 scalars whose sum is the first index
  mlir::Value stride;                    // i32 scalar, elements; null: strideConstant
  int64_t strideConstant = 1;            // the stride where it is a constant tile
  mlir::Value bound;                     // i32 scalar, the extent; null: `extent`
  /// A dimension the mask does not bound, whose index is `arange` itself (origin 0): the
  /// tile's size along it (the kernel reads it whole, as a box of that extent does).
  int64_t extent = 0;
};

struct TmaAccess {
  mlir::BlockArgument base;        // the kernel's pointer argument
  llvm::SmallVector<TmaDim> dims;  // tile order, outermost first
};

/// The TMA view of `load`, if its pointers and mask have the form above (the other
/// conditions, alignment and the shared layout, are the caller's).
std::optional<TmaAccess> matchTmaAccess(mlir::tile::LoadOp load);
/// The same of a store (`tile.store ptr, value, mask`), whose copy writes only the
/// elements within the extents, as the mask does.
std::optional<TmaAccess> matchTmaAccess(mlir::tile::StoreOp store);

/// The one swizzle tile-pipeline copies into by TMA: 128 bytes (rows of 128 bytes or more).
/// The boxes of 32- and 64-byte swizzles (BK = 32 at f16) have not run on a GPU yet
/// (test/gpu/kernels/tma_copy_sw64.mlir is the test that would allow them), so such slots
/// keep cp.async; tile-split-masked-loops keeps loops whole only for the slots TMA takes.
inline constexpr int64_t kTmaSwizzleBytes = 128;

/// A tensor map of `access` as grid expressions over the kernel's arguments: the extents
/// `dims`, innermost first, and the byte strides of every dimension but the innermost,
/// innermost first (`stride_am * 2`).
struct TmaDescription {
  llvm::SmallVector<std::string> dims, stridesBytes;
};

/// The tensor map of `access` in `kernel` (`elementBytes` per element), if TMA can take it
/// in this variant: the base 16-byte aligned (`tile.divisibility`), every outer stride a
/// multiple of 16 bytes, every extent and stride made of arguments and constants by
/// products and sums (`Z * H * N_CTX`). tile-pipeline
/// adds the map; tile-split-masked-loops keeps whole only loops whose loads all have one.
std::optional<TmaDescription> describeTmaAccess(const TmaAccess &access,
                                                mlir::func::FuncOp kernel,
                                                int64_t elementBytes);

/// The coordinates of `access`'s box, outermost first: each dimension's origins summed
/// (0 where it has none), each origin taken through `mapping` (the values of a clone).
llvm::SmallVector<mlir::Value> boxCoordinates(mlir::OpBuilder &b, mlir::Location loc,
                                              const TmaAccess &access,
                                              const mlir::IRMapping &mapping);

/// A tensor map to add to a kernel: its type (box, element, swizzle) and the argument's
/// `tile.tensormap` attribute (its pointer argument, extents and byte strides).
struct TmaMap {
  mlir::tile::TensorMapType type;
  mlir::DictionaryAttr attrs;
};

/// The tensor map through which bulk copies move `access` to or from `slot`, a row-major
/// `#tile.nvmma_shared` tile swizzled by kTmaSwizzleBytes (boxes: whole rows of one
/// swizzle atom, up to 256 rows), if TMA can take it in this variant (describeTmaAccess).
std::optional<TmaMap> planTensorMap(const TmaAccess &access, mlir::func::FuncOp kernel,
                                    mlir::tile::SharedMemType slot);

/// The kernel's argument holding `map`: an existing one with the same type and attribute,
/// else a new last argument named after its pointer (`a_tma12`); null if it cannot be added.
mlir::BlockArgument tensorMapArgument(mlir::func::FuncOp kernel, const TmaMap &map,
                                      mlir::Location loc);

/// The loops around a dot loop whose operands TMA copies, outermost first (none for a
/// loop in the kernel's body, a persistent kernel's tile loop for its K loop), if
/// tile-pipeline can keep one mbarrier ring across their iterations: each an scf.for
/// counting in i32 (the ring's count of iterations is carried through them), each
/// directly in the next (an scf.if may hold the outermost), and the loop itself, when
/// nested, stepping by a positive constant (its trip count advances the count).
std::optional<llvm::SmallVector<mlir::scf::ForOp>> ringEnclosingLoops(mlir::scf::ForOp loop);

} // namespace tcc

#endif // TCC_COMPILER_TRANSFORMS_TMAACCESS_H
