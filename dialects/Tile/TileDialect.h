//===- TileDialect.h - the tile dialect --------------------------*- C++ -*-===//
//
// One header for the whole dialect: the dialect, its types, attributes and ops.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TILE_TILEDIALECT_H
#define TCC_DIALECTS_TILE_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/TensorEncoding.h"

#include "dialects/Tile/Distribution.h"

#include "dialects/Tile/TileOpsDialect.h.inc"
#include "dialects/Tile/TileAttrInterfaces.h.inc"
#include "dialects/Tile/TileOpsEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/TileOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/TileOpsAttrs.h.inc"

namespace mlir::tile {

/// Threads of a warp on every NVIDIA GPU; layouts are built for it, and the target
/// description (#tile.target) states it.
inline constexpr unsigned kThreadsPerWarp = 32;

/// Module attribute holding the #tile.target description.
inline constexpr llvm::StringLiteral kTargetAttrName = "tile.target";

/// Discardable attribute (#tile.predicated_access) of the lowering's inline asm for a
/// predicated global load or store; read by the tile dialect's LLVM IR translation.
inline constexpr llvm::StringLiteral kPredicatedAccessAttrName = "tile.predicated_access";

/// The discardable attributes the tile dialect owns and verifies (verifyOperationAttribute,
/// verifyRegionArgAttribute, verifyRegionResultAttribute; docs/ir.md, "Attributes"). A
/// `tile.*` name not listed here is a verifier error. Passes, the front end and the driver
/// spell them through these constants, never as string literals.
///
/// On a kernel (func.func, then llvm.func): `tile.kernel` (unit), `tile.num_warps` (i32, a
/// power of two 1..32), `tile.num_stages` (integer >= 1; also on an scf.for),
/// `tile.shared_bytes` (integer >= 0), `tile.grid` (three strings), `tile.arg_names`
/// (strings), `tile.constexprs` (dictionary), `tile.check_bounds` (unit) and
/// `tile.check_bounds_unchecked` (integer >= 0) once tile-check-bounds instrumented it.
/// On a kernel argument: `tile.divisibility` (a positive power of two), `tile.equal_to` (an
/// integer argument's value). On a memory access tile-check-bounds could not trace to an
/// argument: `tile.unchecked` (unit). On an op exchanging data through shared memory:
/// `tile.shared_offset` (integer >= 0). The vector width of tile.load / tile.store is
/// their inherent `vec` (ODS), not a discardable attribute.
inline constexpr llvm::StringLiteral kKernelAttrName = "tile.kernel";
inline constexpr llvm::StringLiteral kNumWarpsAttrName = "tile.num_warps";
inline constexpr llvm::StringLiteral kNumStagesAttrName = "tile.num_stages";
/// On a kernel whose body is a tile.warp_specialize: the producer's warps (4), launched
/// beside its `tile.num_warps` consumer warps.
inline constexpr llvm::StringLiteral kProducerWarpsAttrName = "tile.producer_warps";
/// On a warp-specialised kernel whose consumers are this many groups of `tile.num_warps`
/// warps each (tile-pipeline's ping-pong schedule: 2), every group running the consumer
/// region on its own tiles with its own thread ids, barriers and scratch.
inline constexpr llvm::StringLiteral kConsumerGroupsAttrName = "tile.consumer_groups";
inline constexpr llvm::StringLiteral kSharedBytesAttrName = "tile.shared_bytes";
inline constexpr llvm::StringLiteral kGridAttrName = "tile.grid";
/// On an scf.for whose source asked for warp specialisation (`range(..., warp_specialize=
/// True)`): tile-pipeline gives the dot loop it is or holds a producer warpgroup.
inline constexpr llvm::StringLiteral kSpecializeWarpsAttrName = "tile.specialize_warps";
/// On a kernel tile-persistent made persistent (its body a loop over the grid's tiles).
inline constexpr llvm::StringLiteral kPersistentAttrName = "tile.persistent";
/// On a kernel launched in clusters of this many programs along x (tile-pipeline's
/// multicast of a persistent GEMM's shared operand: 2; tile-split-k: 2, 4 or 8): its
/// programs' cluster ranks are
/// their program ids modulo it, and its grid's x is a multiple of it.
inline constexpr llvm::StringLiteral kClusterSizeAttrName = "tile.cluster_size";
/// On a kernel tile-split-k split over K (tcc --split-k N): the programs of a cluster of
/// N, each computing a part of the K loop, whose sum rank 0 finishes.
inline constexpr llvm::StringLiteral kSplitKAttrName = "tile.split_k";
/// On the `t % X` of a persistent kernel's tile loop whose index tile-persistent put in
/// grouped order (groups of rows, rows fastest): the tile's column. Tiles 2j and 2j + 1
/// share it where the rows are even in number (tile-pipeline's multicast relies on it).
inline constexpr llvm::StringLiteral kTileColumnAttrName = "tile.tile_column";
inline constexpr llvm::StringLiteral kArgNamesAttrName = "tile.arg_names";
inline constexpr llvm::StringLiteral kConstexprsAttrName = "tile.constexprs";
/// On a `!tile.tensormap` kernel argument: {param = "a", dims = [...], strides_bytes = [...]},
/// the pointer argument that is its base and its extents (innermost first) and outer byte
/// strides as grid expressions (KernelDescription.cpp copies them into the metadata).
inline constexpr llvm::StringLiteral kTensorMapAttrName = "tile.tensormap";
/// On a lowered kernel (llvm.func), its tensor maps in argument order: each argument's
/// `tile.tensormap` with the type's `box` (innermost first), `swizzle` and `element`
/// added (KernelLowering.cpp), for the metadata.
inline constexpr llvm::StringLiteral kTensorMapsAttrName = "tile.tensormaps";
inline constexpr llvm::StringLiteral kCheckBoundsAttrName = "tile.check_bounds";
inline constexpr llvm::StringLiteral kCheckBoundsUncheckedAttrName = "tile.check_bounds_unchecked";
inline constexpr llvm::StringLiteral kUncheckedAttrName = "tile.unchecked";
inline constexpr llvm::StringLiteral kSharedOffsetAttrName = "tile.shared_offset";
/// On a buffer's owner (a tile.local_alloc, an op's scratch) in the consumer region of a
/// kernel of several consumer groups: the bytes between the groups' copies of it, which
/// tile-allocate-shared placed one after another from its offset.
inline constexpr llvm::StringLiteral kGroupStrideAttrName = "tile.group_stride";
inline constexpr llvm::StringLiteral kDivisibilityAttrName = "tile.divisibility";
inline constexpr llvm::StringLiteral kEqualToAttrName = "tile.equal_to";

/// Whether `op` is a kernel (a function marked `tile.kernel`).
bool isKernel(Operation *op);

/// Warps per program of the kernel around `op` (or `op` itself): `tile.num_warps` of the
/// nearest op that has it, else 4. The one place it is read.
unsigned getNumWarps(Operation *op);
/// Warps a program of the kernel around `op` is launched with: getNumWarps(op) for each
/// consumer group (getConsumerGroups) and, for a warp-specialised kernel, its producer's
/// `tile.producer_warps`.
unsigned getLaunchWarps(Operation *op);
/// The consumer groups of a warp-specialised kernel (`tile.consumer_groups`, 1 without).
unsigned getConsumerGroups(Operation *op);
/// Threads of a warp on the module's target (#tile.target).
unsigned getThreadsPerWarp(Operation *op);
/// Threads per program: getNumWarps(op) * getThreadsPerWarp(op).
unsigned getNumThreads(Operation *op);

/// The `vec` of a tile.load or tile.store (elements per vector access), 1 where absent or
/// for another op.
unsigned getVectorWidth(Operation *op);
/// Sets the `vec` of a tile.load or tile.store.
void setVectorWidth(Operation *op, unsigned width);

/// Rewrites a tile.load or tile.store whose mask `known` says is the same everywhere (true
/// or false; nullopt: not known): true, the access is unmasked (a load loses its `other`);
/// false, a store is erased and a load with `other` is replaced by it (one without `other`
/// stays: its result is undefined). Failure where nothing changes. The canonicalisation of
/// constant masks and tile-mask (masks AxisInfo proves constant) both rewrite through it.
LogicalResult rewriteKnownMask(RewriterBase &rewriter, Operation *access,
                               llvm::function_ref<std::optional<bool>(Value mask)> known);

/// The target of the module around `op` (`tile.target`), or the default (sm_90).
TargetAttr getTarget(Operation *op);
/// The `!tile.tensormap` arguments of the function `func`, in order, as the metadata
/// describes them: each argument's `tile.tensormap` dictionary with the type's `box`
/// (innermost first), `swizzle` and `element` added; empty if it has none.
ArrayAttr getTensorMapsDescription(Operation *func);
/// The description of `arch` (sm_80, sm_90, sm_90a, ...) with its shared-memory limit.
TargetAttr getTargetFor(MLIRContext *ctx, StringRef arch);

/// The type a load through `ptrLike` yields: the pointee for a pointer, a tile of
/// pointees (same shape and encoding) for a tile of pointers; null otherwise.
Type getPointeeType(Type ptrLike);

/// `i1` for a scalar, a tile of `i1` with the same shape and encoding for a tile.
Type getI1SameShape(Type type);

/// True for a positive power of two.
inline bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

} // namespace mlir::tile

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.h.inc"

#endif // TCC_DIALECTS_TILE_TILEDIALECT_H
