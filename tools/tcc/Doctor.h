//===- Doctor.h - tcc doctor: is this machine ready? ------------*- C++ -*-===//
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tcc {

/// What the GPU side found (DoctorGpu.cpp, through the runtime).
struct GpuReport {
  bool runtime = false;  // false: built without the runtime, nothing checked
  bool driverOk = false; // the CUDA driver loaded and initialised
  std::string why;       // why not, or a runtime problem once it did
  int driverVersion = 0; // e.g. 13000
  struct Gpu {
    std::string name;
    int computeCapability = 0; // 90 for an H200
    size_t totalMemory = 0;
    int smCount = 0;
    bool ran = false;  // the verification kernel was run
    int elements = 0;  // how many floats it copied
    std::string error; // empty: the copy arrived intact
  };
  std::vector<Gpu> gpus;
};

/// Queries the driver and every GPU and, when `artifactDir` holds the compiled verification
/// kernel (vector_copy), runs it on each. Never throws.
GpuReport checkGpus(const std::string &artifactDir);

/// `tcc doctor`: reports the compiler (version, LLVM/MLIR, ptxas), the CUDA driver and each
/// GPU, compiles the course's verification kernel (vector copy, embedded) and runs it on
/// every GPU, comparing the result. Prints one verdict line; returns the exit code (0: every
/// check that could run passed, a machine without a GPU included; 1: something is broken).
int runDoctor(bool verbose);

} // namespace tcc
