//===- Sema.h - Semantic analysis: syntax tree to typed AST --------------===//
//
// Checks a parsed file and elaborates each kernel into the typed AST: types
// and shapes of every expression (promotion and NumPy broadcasting as in
// Triton), compile-time evaluation of constexprs, `-D` overrides, helper
// inlining, loop-carried values. All errors of the language are found here,
// with locations and notes; MLIRGen sees only valid programs.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_SEMA_H
#define TCC_FRONTEND_SEMA_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/TypedAST.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc {

class DiagnosticEngine;

/// `-D NAME=VALUE`: VALUE parsed as an expression (in its own buffer, so that
/// errors in it point at the command line).
struct Define {
  std::string name;
  const ast::Expr *value = nullptr;
};

struct SemaOptions {
  std::vector<Define> defines;
  /// Elaborate only this kernel (empty: all kernels of the file).
  std::string kernelName;
  /// For a kernel with @autotune: the configuration to elaborate (its declared index);
  /// negative: the first one not pruned.
  int autotuneConfig = -1;
  /// What on the command line fixes the configuration (e.g. "--num-warps"): a kernel with
  /// @autotune is then compiled as that one configuration, not tuned (so is one whose
  /// space sets a name -D sets). Empty: nothing.
  std::string autotuneOverride;
  /// device_assert(...) compiled in (false: `tcc --no-device-assert`, like C's -DNDEBUG:
  /// the condition is still elaborated, and its errors reported, but nothing is emitted).
  bool deviceAsserts = true;
};

/// Returns the elaborated kernels, or null after reporting errors.
std::unique_ptr<typed::Program> analyze(DiagnosticEngine &diags, const ast::Module &module,
                                        const SemaOptions &options);

} // namespace tcc

#endif // TCC_FRONTEND_SEMA_H
