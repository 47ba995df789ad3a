// Shared by the interpreter's unit tests: parse tile IR from a string, compile a kernel,
// make buffers, run.
#pragma once

#include "compiler/Interpreter/Interpreter.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc::interp::testing {

/// A parsed module and the interpreter's compiled kernel (null on failure, with `error`).
struct Compiled {
  struct State;
  std::shared_ptr<State> state; // MLIR context and module
  std::unique_ptr<Kernel> kernel;
  std::string error;
};

/// Parses `ir` (as the file "kernel.mlir") and compiles the kernel `name` (or the only one).
Compiled compileIR(const std::string &ir, const std::string &name = "",
                   const std::string &bufferName = "kernel.mlir");
/// compileIR on test/unit/inputs/interpreter/`file` (its locations name `file`).
Compiled compileIRFile(const std::string &file, const std::string &name = "");

/// Runs `k` over `grid`, collecting tile.print lines and warnings.
struct RunOutput {
  RunResult result;
  std::vector<std::string> printed, warnings;
};
RunOutput run(Kernel &k, const std::vector<ArgValue> &args, Memory &mem,
        std::array<int64_t, 3> grid = {1, 1, 1}, UninitPolicy uninit = UninitPolicy::Error);

/// A buffer of f32 with values `v`.
int64_t addF32(Memory &mem, const std::string &name, const std::vector<float> &v);
/// An uninitialised buffer.
int64_t addEmpty(Memory &mem, const std::string &name, DType t, std::vector<int64_t> shape);

} // namespace tcc::interp::testing
