//===- Passes.h - tcc's conversion passes ------------------------*- C++ -*-===//

#ifndef TCC_COMPILER_CONVERSION_PASSES_H
#define TCC_COMPILER_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "compiler/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversion/Passes.h.inc"

} // namespace tcc

#endif // TCC_COMPILER_CONVERSION_PASSES_H
