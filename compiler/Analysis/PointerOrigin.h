//===- PointerOrigin.h - which kernel argument a pointer comes from -*- C++ -*-===//
//
// A pointer (or tile of pointers) in tile IR is a kernel argument moved by address
// arithmetic, splats, broadcasts and layout changes. Passes that reorder memory accesses
// (tile-prefetch) and the metadata (which arguments a kernel writes, for autotuning's
// restore) ask where it comes from.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_ANALYSIS_POINTERORIGIN_H
#define TCC_COMPILER_ANALYSIS_POINTERORIGIN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tcc {

/// The kernel argument `ptr` is derived from through tile.addptr, tile.splat,
/// tile.broadcast, tile.expand_dims, tile.convert_layout and tile.hint; null when it comes from
/// anything else (a loop-carried value, a select, a pointer loaded from memory).
mlir::Value pointerArgument(mlir::Value ptr);

/// The argument numbers of `kernel` that its stores and atomics write through, in order;
/// std::nullopt when one of them cannot be traced to an argument (every pointer argument
/// may then be written).
std::optional<llvm::SmallVector<unsigned>> writtenArguments(mlir::func::FuncOp kernel);

/// The integer arguments of `kernel` whose divisibility can matter to its code: those whose
/// value reaches an address offset, a load's or store's mask, a loop's bounds or anything
/// not understood here. One that only feeds values (a random seed through Philox's rounds
/// into the data stored) or nothing (an argument only the grid reads) is left out, so that a
/// specialisation on divisibility need not ask it of the caller.
llvm::SmallVector<unsigned> addressingArguments(mlir::func::FuncOp kernel);

} // namespace tcc

#endif // TCC_COMPILER_ANALYSIS_POINTERORIGIN_H
