//===- Run.h - `tcc run`: compile to tile IR, then execute ----------------===//
//
// The entry point behind `tcc run --interpret KERNEL.tile --arg x=rand:1000 ...`
// (docs/interpreter.md): the Driver builds the tile module (or parses tile IR
// from a .mlir file) and the interpreter runs the kernel. Free of MLIR, like
// Driver.h.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_DRIVER_RUN_H
#define TCC_DRIVER_RUN_H

#include "compiler/Driver/Driver.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {

/// `tcc run` options, as the command line gives them.
struct RunCommandOptions {
  bool interpret = false;              // --interpret (the only way to run, for now)
  std::vector<std::string> args;       // --arg NAME=SPEC
  std::string grid;                    // --grid X[,Y[,Z]]; empty: the kernel's grid=
  uint64_t seed = 0;                   // --seed
  std::vector<std::string> print;      // --print NAME
  bool noPrint = false;                // --no-print
  std::vector<std::string> save;       // --save NAME=PATH.npy
  int64_t printLimit = 64;             // --print-limit
  bool allowUninit = false;            // --allow-uninit
  bool verbose = false;                // -v
};

/// Compiles `compile.inputPath` (a .tile file; a .mlir file is read as tile IR) up to tile
/// IR and runs the kernel (`compile.kernelName`, or the only one). Returns the exit code.
int runKernel(const DriverOptions &compile, const RunCommandOptions &run);

} // namespace tcc

#endif // TCC_DRIVER_RUN_H
