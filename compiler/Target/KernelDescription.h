//===- KernelDescription.h - a kernel's metadata from its tile IR -*- C++ -*-===//
//
// What the artifact of a kernel says about it that its tile IR knows (docs/artifacts.md):
// the parameters with their types and the variant's assumptions, the constexprs, the grid,
// the stages, the cost of a launch, what an @autotune configuration restores and what
// --check-bounds checks. Read from the kernel's attributes (`tile.arg_names`,
// `tile.constexprs`, `tile.grid`, `tile.num_stages`: docs/ir.md) and, for cost and writes,
// from compiler/Analysis. What only compilation tells (warps and shared memory of the
// lowered kernel, ptxas's figures, the image) the Driver adds.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_TARGET_KERNELDESCRIPTION_H
#define TCC_TARGET_KERNELDESCRIPTION_H

#include "compiler/Target/ArtifactWriter.h"
#include "compiler/Transforms/SpecializeArguments.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>
#include <vector>

namespace tcc {

/// The TMA tensor maps of a lowered kernel, from its `tile.tensormaps` (KernelLowering.cpp),
/// in hidden-argument order.
std::vector<KernelTensorMap> tensorMapsOf(mlir::ArrayAttr lowered);

/// The parameters of `kernel` in call order (`tile.arg_names`), each with its metadata type
/// ("*f16", "i32"; "" for a type a parameter cannot have) and what `assumptions` assumes of
/// it.
std::vector<KernelParam> kernelParams(mlir::func::FuncOp kernel,
                                      const ArgumentAssumptions &assumptions);

struct KernelDescriptionOptions {
  /// --num-stages; 0: the kernel's `tile.num_stages`, else 3.
  int numStages = 0;
  /// --check-bounds: "check_bounds" with the pointer parameters as extents (the Driver adds
  /// what tile-check-bounds could not trace, `unchecked`).
  bool checkBounds = false;
  /// The kernel's @autotune configuration as the source declares it: space, index, count,
  /// key, and in `restore` the parameters restore_value and reset_to_zero name.
  /// describeKernel sets `writes` (the pointers the kernel stores through; all of them where
  /// a store cannot be traced) and puts them first in `restore`.
  std::optional<KernelAutotune> autotune;
  /// Provenance: the source file and the compiler.
  std::string source, compiler;
};

/// The artifact of `kernel` (a tile.kernel function of the module as the front end built
/// it) compiled under `assumptions`, as far as its IR tells.
KernelArtifact describeKernel(mlir::func::FuncOp kernel, const ArgumentAssumptions &assumptions,
                              const KernelDescriptionOptions &options);

} // namespace tcc

#endif // TCC_TARGET_KERNELDESCRIPTION_H
