//===- Passes.h - tcc's tile-level passes ------------------------*- C++ -*-===//

#ifndef TCC_COMPILER_TRANSFORMS_PASSES_H
#define TCC_COMPILER_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "compiler/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/Passes.h.inc"

} // namespace tcc

#endif // TCC_COMPILER_TRANSFORMS_PASSES_H
