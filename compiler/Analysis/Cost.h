//===- Cost.h - bytes moved and FLOPs of a kernel, as grid expressions -*- C++ -*-===//
//
// What one launch of a kernel costs, counted on its tile IR (as the front end builds it,
// before the GPU passes): the global-memory bytes its loads, stores and atomics move and
// the floating-point operations it performs, per program instance, multiplied by the grid.
// Both are expressions in the grid-expression language (docs/ir.md) over the kernel's
// integer parameters (constexprs are literals by then), so that the runtime evaluates them
// for a launch's arguments: the performance report's GB/s, TFLOP/s and roofline
// (docs/autotuning.md). What is counted is in docs/artifacts.md ("cost").
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_ANALYSIS_COST_H
#define TCC_COMPILER_ANALYSIS_COST_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>

namespace tcc {

struct KernelCost {
  /// Global bytes read plus written by one launch; nullopt where it is not expressible
  /// (a while loop or a loop whose trip count depends on data or the program id around
  /// a load or store).
  std::optional<std::string> bytes;
  /// Floating-point operations of one launch; nullopt where not expressible.
  std::optional<std::string> flops;
};

/// Counts `kernel` (a tile.kernel function with its tile.grid and tile.arg_names).
KernelCost kernelCost(mlir::func::FuncOp kernel);

} // namespace tcc

#endif // TCC_COMPILER_ANALYSIS_COST_H
