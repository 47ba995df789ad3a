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
/// verifyRegionArgAttribute; docs/ir.md, "Attributes"). On a kernel (func.func, then
/// llvm.func): `tile.kernel` (unit), `tile.num_warps` (i32, a power of two 1..32),
/// `tile.num_stages` (integer >= 1; also on a loop), `tile.shared_bytes` (integer >= 0),
/// `tile.grid` (three strings), `tile.arg_names` (strings), `tile.constexprs`
/// (dictionary). On a kernel argument: `tile.divisibility` (a positive power of two),
/// `tile.equal_to` (an integer argument's value). On tile.load / tile.store: `tile.vec`
/// (i32, a positive power of two).
inline constexpr llvm::StringLiteral kKernelAttrName = "tile.kernel";
inline constexpr llvm::StringLiteral kNumWarpsAttrName = "tile.num_warps";
inline constexpr llvm::StringLiteral kNumStagesAttrName = "tile.num_stages";
inline constexpr llvm::StringLiteral kSharedBytesAttrName = "tile.shared_bytes";
inline constexpr llvm::StringLiteral kGridAttrName = "tile.grid";
inline constexpr llvm::StringLiteral kArgNamesAttrName = "tile.arg_names";
inline constexpr llvm::StringLiteral kConstexprsAttrName = "tile.constexprs";
inline constexpr llvm::StringLiteral kDivisibilityAttrName = "tile.divisibility";
inline constexpr llvm::StringLiteral kEqualToAttrName = "tile.equal_to";
inline constexpr llvm::StringLiteral kVecAttrName = "tile.vec";

/// Warps per program of the kernel around `op` (or `op` itself): `tile.num_warps` of the
/// nearest op that has it, else 4. The one place it is read.
unsigned getNumWarps(Operation *op);
/// Threads of a warp on the module's target (#tile.target).
unsigned getThreadsPerWarp(Operation *op);
/// Threads per program: getNumWarps(op) * getThreadsPerWarp(op).
unsigned getNumThreads(Operation *op);

/// `tile.vec` of a load or store (elements per vector access), 1 where absent.
unsigned getVectorWidth(Operation *op);
void setVectorWidth(Operation *op, unsigned width);

/// The target of the module around `op` (`tile.target`), or the default (sm_90).
TargetAttr getTarget(Operation *op);
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
