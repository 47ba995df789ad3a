//===- LoopSlice.h - the ops of a loop body computing a value ----*- C++ -*-===//
//
// What tile-prefetch and tile-pipeline share: the address arithmetic of a load in a loop,
// collected so that it can be cloned for another iteration.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_TRANSFORMS_LOOPSLICE_H
#define TCC_COMPILER_TRANSFORMS_LOOPSLICE_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {

/// The ops of `loop`'s body computing `v`, added to `ops` after the ops they use (ops
/// already there are not visited again). `v` may use values from outside the loop and
/// the arguments of the body (the induction variable, loop-carried values) that
/// `acceptBodyArg` accepts; false if it needs another body argument, an argument of a
/// nested block, an op of a nested block, an op with effects or one with regions.
bool loopSliceOf(mlir::scf::ForOp loop, mlir::Value v, llvm::SetVector<mlir::Operation *> &ops,
                 llvm::function_ref<bool(mlir::BlockArgument)> acceptBodyArg);

/// The increment of `arg`, a value `loop` carries and advances by the same amount in every
/// iteration: a tile of pointers by `tile.addptr %arg, %inc`, an integer by `arith.addi`
/// (either operand; hints on `%arg` are the value itself, as `tl.multiple_of(p, ...)`
/// before `p += inc` in tutorial 08), `%inc` computed from values outside the loop only
/// (its ops in the body added to `incOps`, in order). Null otherwise. What tile-pipeline
/// advances to later iterations and tile-split-k to a rank's first.
mlir::Value loopIncrement(mlir::scf::ForOp loop, mlir::BlockArgument arg,
                          llvm::SetVector<mlir::Operation *> &incOps);

} // namespace tcc

#endif // TCC_COMPILER_TRANSFORMS_LOOPSLICE_H
