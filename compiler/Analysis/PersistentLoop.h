//===- PersistentLoop.h - a persistent kernel's tile loop ---------*- C++ -*-===//
//
// tile-persistent wraps a kernel's body in a loop over its tiles and marks the kernel
// `tile.persistent`. Passes after it treat that loop apart: tile-version-signs versions
// its body, tile-pipeline rotates a K loop's prologue out of it, tile-allocate-shared lets
// its tiles' buffers share space. This says which loop it is, once.
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

} // namespace tcc

#endif // TCC_COMPILER_ANALYSIS_PERSISTENTLOOP_H
