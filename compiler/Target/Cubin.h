//===- Cubin.h - PTX to cubin through ptxas ----------------------*- C++ -*-===//
//
// ptxas is NVIDIA's assembler; tcc runs it as a child process. It is $TCC_PTXAS when set,
// otherwise looked up in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH. No LLVM/MLIR types in this interface.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_TARGET_CUBIN_H
#define TCC_COMPILER_TARGET_CUBIN_H

#include <cstdint>
#include <map>
#include <string>

namespace tcc {

/// The ptxas to use, or "" when none is installed.
std::string findPtxas();

struct CubinOptions {
  std::string arch = "sm_90";
  unsigned optLevel = 3; // ptxas -O level
  bool verbose = false;  // ptxas -v: registers, spills, shared memory into *log
};

/// What ptxas -v says about one entry function.
struct PtxasFunctionInfo {
  int registers = 0;
  int64_t stackBytes = 0, spillStores = 0, spillLoads = 0, staticSharedBytes = 0;
};

/// The per-entry figures in a ptxas -v log (by entry name); entries it does not mention are
/// absent.
std::map<std::string, PtxasFunctionInfo> parsePtxasLog(const std::string &log);

/// Assembles `ptx` into a cubin. On failure returns false with *error saying why
/// (ptxas missing, or its diagnostics). *log receives ptxas's messages when non-null.
bool assembleCubin(const std::string &ptx, const CubinOptions &options, std::string *cubin,
                   std::string *error, std::string *log = nullptr);

} // namespace tcc

#endif // TCC_COMPILER_TARGET_CUBIN_H
