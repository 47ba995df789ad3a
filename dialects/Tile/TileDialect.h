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
