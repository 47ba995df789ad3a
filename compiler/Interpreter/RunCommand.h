//===- RunCommand.h - `tcc run --interpret` behind the command line -*- C++ -*-===//
//
// Everything `tcc run --interpret` does once the kernel is tile IR: pick the kernel, make
// its arguments from NAME=SPEC strings (ArgSpec.h), compute the grid from the kernel's
// tile.grid unless one is given, run, then print and save the outputs. The Driver loads
// the file (a .tile through the front end, or tile IR) and calls runInterpreted.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_RUNCOMMAND_H
#define TCC_INTERPRETER_RUNCOMMAND_H

#include "compiler/Interpreter/Interpreter.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tcc::interp {

struct RunRequest {
  std::string kernel;                          // empty: the only kernel
  std::vector<std::string> args;               // "NAME=SPEC"
  std::optional<std::array<int64_t, 3>> grid;  // default: the kernel's tile.grid
  uint64_t seed = 0;
  std::vector<std::string> print;              // buffers to print; default: the outputs
  bool printNothing = false;
  std::vector<std::pair<std::string, std::string>> save; // buffer name, .npy path
  UninitPolicy uninit = UninitPolicy::Error;
  int64_t printLimit = 64;                     // 0: print whole tiles and buffers
  bool verbose = false;                        // grid, timing on `err`
};

/// Parses "4", "4,2" or "4,2,1" (also with 'x' between) into a grid padded with 1s.
bool parseGrid(const std::string &text, std::array<int64_t, 3> *grid, std::string *error);

/// Runs `request` against the kernels of `module`. Prints outputs and tile.print lines on
/// `out`, diagnostics on `err`. Returns the process exit code (0: success).
int runInterpreted(mlir::Operation *module, const RunRequest &request, llvm::raw_ostream &out,
                   llvm::raw_ostream &err);

} // namespace tcc::interp

#endif // TCC_INTERPRETER_RUNCOMMAND_H
