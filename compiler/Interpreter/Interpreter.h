//===- Interpreter.h - runs tile IR kernels on the host ----------*- C++ -*-===//
//
// The interpreter executes a kernel (a `func.func` with `tile.kernel`, as MLIRGen produces
// it) over host buffers with the GPU's grid semantics: every program instance of the grid
// runs the kernel's block-level ops in turn, x fastest, then y, then z.
//
// `Kernel::compile` turns the function into a flat program of typed closures over
// pre-allocated value slots once; `Kernel::run` then executes it for every program
// instance without looking at MLIR again (the module may be destroyed after compiling).
// Every memory access is checked: a load or store through an active lane outside its
// buffer, or a read of memory nothing has written, is reported with the kernel's source
// location and the program id.
//
// This header is free of MLIR: the function comes in as an opaque `mlir::Operation *`.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_INTERPRETER_H
#define TCC_INTERPRETER_INTERPRETER_H

#include "compiler/Interpreter/Memory.h"

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace tcc::interp {

/// One runtime parameter of a kernel.
struct Param {
  std::string name;
  DType type = DType::I32; // DType::Ptr for pointers
  DType pointee = DType::F32; // what a pointer points to
};

/// A value bound to a parameter: a buffer (for a pointer), an integer or a float.
struct ArgValue {
  enum class Kind { Buffer, Int, Float } kind = Kind::Int;
  int64_t buffer = -1; // index into Memory
  int64_t i = 0;
  double f = 0;
  static ArgValue ofBuffer(int64_t index) { return {Kind::Buffer, index, 0, 0}; }
  static ArgValue ofInt(int64_t v) { return {Kind::Int, -1, v, double(v)}; }
  /// The integer view of a float is its truncation where that fits in int64, else 0 (NaN,
  /// infinities and huge values have none).
  static ArgValue ofFloat(double v) {
    bool fits = v > -9223372036854775808.0 && v < 9223372036854775808.0; // false for NaN
    return {Kind::Float, -1, fits ? int64_t(v) : 0, v};
  }
};

/// What to do when a kernel reads an element nothing has written.
enum class UninitPolicy { Error, Warn, Ignore };

struct RunOptions {
  std::array<int64_t, 3> grid = {1, 1, 1};
  UninitPolicy uninitReads = UninitPolicy::Error;
  /// Quote the kernel's source line (when the file is readable) under a memory error.
  bool showSource = true;
  /// tile.print elides the middle of tiles with more elements than this (0: never).
  int64_t printLimit = 64;
  /// Where tile.print lines and warnings go (one line per call, without the newline);
  /// stdout / stderr when empty.
  std::function<void(const std::string &)> printSink;
  std::function<void(const std::string &)> warningSink;
};

struct RunResult {
  bool ok = true;
  /// The error, formatted like a compiler's: "file:line:col: error: ...", then notes.
  std::string error;
  int64_t programsRun = 0;
  int64_t warnings = 0;
};

class Kernel {
public:
  ~Kernel();
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  /// Compiles `func` (a func.func, normally carrying tile.kernel; functions it calls are
  /// inlined). On failure returns null and sets *error ("file:line:col: error: ...").
  static std::unique_ptr<Kernel> compile(mlir::Operation *func, std::string *error);

  const std::string &name() const;
  const std::vector<Param> &params() const;
  /// The kernel's grid expressions (tile.grid), "1" where absent.
  const std::array<std::string, 3> &gridExprs() const;
  /// Evaluates the grid expressions over the integer arguments.
  bool computeGrid(const std::vector<ArgValue> &args, std::array<int64_t, 3> *grid,
                   std::string *error) const;

  /// Runs every program instance of `options.grid`. Stops at the first error. One launch
  /// at a time: the compiled instructions share their value slots.
  RunResult run(const std::vector<ArgValue> &args, Memory &memory, const RunOptions &options);

  struct Impl;

private:
  explicit Kernel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// The kernel called `name` in `module` (any func.func with that name), or, when `name`
/// is empty, the only function carrying tile.kernel. Null with *error set otherwise.
mlir::Operation *findKernel(mlir::Operation *module, const std::string &name,
                            std::string *error);

} // namespace tcc::interp

#endif // TCC_INTERPRETER_INTERPRETER_H
