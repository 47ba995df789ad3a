//===- PersistentLoop.h - a persistent kernel's tile loop ---------*- C++ -*-===//
//
// tile-persistent wraps a kernel's body in a loop over its tiles and marks the kernel
// `tile.persistent`. Passes after it treat that loop apart: tile-version-signs versions
// its body, tile-pipeline rotates a K loop's prologue out of it, tile-allocate-shared lets
// its tiles' buffers share space. This says which loop it is, once, and which values
// follow from the program id (tile-persistent's self-scheduling test, tile-pipeline's
// multicast).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_ANALYSIS_PERSISTENTLOOP_H
#define TCC_COMPILER_ANALYSIS_PERSISTENTLOOP_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tcc {

/// Whether `op` is a tile loop of a kernel tile-persistent made: an scf.for of a
/// `tile.persistent` kernel with no loop around it (a warp-specialised kernel has two,
/// the producer's and the consumers').
bool isPersistentTileLoop(mlir::Operation *op);

/// The tile loop of a `tile.persistent` kernel before warp specialisation (the last op
/// of its body before the return, as tile-persistent left it); null otherwise.
mlir::scf::ForOp persistentTileLoop(mlir::func::FuncOp func);

/// Whether `v` may be computed from tile.program_id (through any ops and the loops around
/// it; true where that cannot be told): a tile's own work, or tile-persistent's tile
/// loop, differs between programs in what follows from it.
bool fromProgramId(mlir::Value v);

} // namespace tcc

#endif // TCC_COMPILER_ANALYSIS_PERSISTENTLOOP_H
