//===- Exec.h - the compiled form of a kernel and its execution state -*- C++ -*-===//
//
// A compiled kernel is a list of instructions: closures that read and write value slots
// (pre-allocated typed arrays, one per SSA value, captured by address) and receive the
// state of the running program instance. Structured control flow nests instruction lists
// inside instructions. Errors set `failed`; every list stops at the first failure, as
// the compiler is built without exceptions. Plain C++: no MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_EXEC_H
#define TCC_INTERPRETER_EXEC_H

#include "compiler/Interpreter/Interpreter.h"

#include <functional>
#include <string>
#include <vector>

namespace tcc::interp {

/// Where an op came from, for diagnostics: captured when compiling, so that running needs
/// no MLIR.
struct OpSite {
  std::string file; // empty when the op has no file location
  unsigned line = 0, col = 0;
  std::string opName; // "tile.store"
  std::string kernel;
  /// For ops of inlined helpers: the call sites, innermost first ("file:line:col").
  std::vector<std::string> calledFrom;
  bool warned = false; // a warning about this op was already given
  /// "file:line:col" or "<unknown location>".
  std::string where() const;
};

/// The view of a buffer the checks use.
struct BufferView {
  uint8_t *data;
  uint8_t *init;
  int64_t bytes;
  int64_t elementSize;
  const std::string *name;
};

struct ExecState {
  int32_t pid[3] = {0, 0, 0};
  int32_t nprog[3] = {1, 1, 1};
  std::vector<BufferView> buffers;
  Memory *memory = nullptr;
  const RunOptions *options = nullptr;
  bool failed = false;
  std::string error;
  int64_t warnings = 0;

  /// Records the first error; the formatted message names `site`, the program id and,
  /// when readable, quotes the source line. `notes` are extra lines ("note: ...").
  void fail(const OpSite *site, const std::string &message,
            const std::vector<std::string> &notes = {});
  /// A warning (once per op) through options->warningSink.
  void warn(OpSite *site, const std::string &message);
  void print(const std::string &line);
  std::string pidString() const;
};

using Inst = std::function<void(ExecState &)>;
using InstList = std::vector<Inst>;

inline void runList(const InstList &list, ExecState &state) {
  for (const Inst &inst : list) {
    inst(state);
    if (state.failed)
      return;
  }
}

/// "file:line:col: error: message" plus the quoted source line and a caret.
std::string formatDiagnostic(const OpSite *site, const char *severity, const std::string &message,
                             bool showSource);

} // namespace tcc::interp

#endif // TCC_INTERPRETER_EXEC_H
