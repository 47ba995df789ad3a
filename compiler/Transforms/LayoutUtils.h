//===- LayoutUtils.h - building and reading distribution layouts -*- C++ -*-===//
//
// What the layout passes share: how many warps a kernel has, how a blocked layout is
// built for a shape, and how a tile type gets another layout. docs/layouts.md says what
// the layouts mean.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_TRANSFORMS_LAYOUTUTILS_H
#define TCC_COMPILER_TRANSFORMS_LAYOUTUTILS_H

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace mlir {
class ModuleOp;
namespace scf {
class ForOp;
} // namespace scf
} // namespace mlir

namespace tcc {

/// True for a null value (a load without `other`) and for a zero constant or splat of
/// one: what cp.async's zero-fill gives masked-off elements.
bool isZeroOrAbsent(mlir::Value v);

/// `tile.num_warps` of the kernel around `op`, else 4 (tile::getNumWarps).
unsigned getNumWarps(mlir::Operation *op);

/// The encoding of a tile type; null for scalars and tiles without one.
mlir::Attribute getLayout(mlir::Type type);

/// `type` with its encoding replaced by `layout`; scalars are returned unchanged.
mlir::Type withLayout(mlir::Type type, mlir::Attribute layout);

/// The layout builders below take the threads of a warp from their caller, which reads
/// them with tile::getThreadsPerWarp (the module's #tile.target).

/// A blocked layout for a tile of `shape`: `sizePerThread` elements per thread, then
/// `threadsPerWarp` lanes and then warps assigned along the dimensions in `order` (fastest first), each
/// dimension taking as many as it can use without replication; lanes or warps left over
/// (a tile smaller than the threads) go to order[0] and order[rank-1] respectively.
mlir::tile::BlockedEncodingAttr makeBlockedLayout(mlir::MLIRContext *ctx,
                                                  llvm::ArrayRef<int64_t> shape,
                                                  llvm::ArrayRef<unsigned> sizePerThread,
                                                  llvm::ArrayRef<unsigned> order,
                                                  unsigned numWarps, unsigned threadsPerWarp);

/// One element per thread, the last dimension fastest.
mlir::tile::BlockedEncodingAttr getDefaultLayout(mlir::MLIRContext *ctx,
                                                 llvm::ArrayRef<int64_t> shape,
                                                 unsigned numWarps, unsigned threadsPerWarp);

/// The accumulator (and result) layout of a `tile.dot` of shape M x N on CUDA cores: the
/// threads form a grid over the tile and each holds a tm x tn block, chosen as square as
/// the thread count allows (tn >= tm), so that the tm values of a and tn values of b it
/// reads per k feed tm * tn FMAs. sizePerThread is at most 4 x 4 (16-byte accesses of
/// f32), further elements of the block being repetitions; lanes run along N first, order
/// [1, 0] as a row-major store wants. Falls back to the default layout for tiles too
/// small to give each thread a distinct element.
mlir::tile::BlockedEncodingAttr getDotLayout(mlir::MLIRContext *ctx,
                                             llvm::ArrayRef<int64_t> shape, unsigned numWarps,
                                             unsigned threadsPerWarp);

/// `value` in `layout`: a new tile.convert_layout right after its definition (at the
/// start of its block for block arguments), or `value` itself if already so laid out.
mlir::Value convertAfterDef(mlir::OpBuilder &builder, mlir::Value value,
                            mlir::Attribute layout);

/// `value` in `layout`, converted right before `user`.
mlir::Value convertBefore(mlir::OpBuilder &builder, mlir::Operation *user, mlir::Value value,
                          mlir::Attribute layout);

/// A tile constant (`arith.constant dense<...>`) given a new layout in place; fails for
/// constants whose value is not a DenseElementsAttr.
mlir::LogicalResult setConstantLayout(mlir::Operation *constant, mlir::Attribute layout);

/// Calls `f` on every scf.for of every kernel of `module` with its number of stages: the
/// loop's `tile.num_stages` (range(..., num_stages=)), else its kernel's, else
/// `defaultStages` (tile-prefetch and tile-pipeline read stages the same way).
void forEachLoopWithStages(mlir::ModuleOp module, unsigned defaultStages,
                           llvm::function_ref<void(mlir::scf::ForOp, unsigned)> f);

/// `v` under any tile.hint ops on it: a hint is the value itself, with promises attached.
mlir::Value stripHints(mlir::Value v);

} // namespace tcc

#endif // TCC_COMPILER_TRANSFORMS_LAYOUTUTILS_H
