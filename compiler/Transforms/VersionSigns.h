//===- VersionSigns.h - versioning a kernel on its divisions' signs -*- C++ -*-===//

#ifndef TCC_COMPILER_TRANSFORMS_VERSIONSIGNS_H
#define TCC_COMPILER_TRANSFORMS_VERSIONSIGNS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tcc {

/// tile-version-signs on one kernel (Passes.td): true if the kernel was versioned.
/// deriveArgumentVariants applies it to its probes too, so that the variants it derives
/// are those of the code the pipeline generates.
bool versionOnSigns(mlir::func::FuncOp kernel);

} // namespace tcc

#endif // TCC_COMPILER_TRANSFORMS_VERSIONSIGNS_H
