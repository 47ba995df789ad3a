// Pieces shared by the Library's kernels and the kernels embedded in generated headers.
#pragma once

#include "tcc/runtime.h"

#include <cuda.h>

#include <string>

namespace tcc {
namespace detail {

// Checks that `fn` can run with 32*numWarps threads and `sharedBytes` of dynamic shared
// memory on the current device, raising its dynamic shared memory limit above 48 KiB.
void prepareFunction(CUfunction fn, int numWarps, int64_t sharedBytes, const std::string& kernel);

// Throws if a dimension is negative or beyond the hardware's limit; false if the grid is
// empty (some dimension 0: nothing to launch).
bool checkGrid(const Dim3& g, const std::string& kernel);

// cuLaunchKernel with an error that names the kernel, the grid and, where it explains the
// failure, a context mismatch.
void launchChecked(CUfunction fn, const Dim3& g, unsigned threads, unsigned shared,
                   CUstream stream, void** args, const std::string& kernel, CUcontext moduleCtx);

// True when $TCC_LAUNCH_SYNC is set: every launch is followed by a stream synchronisation,
// so that faults surface with the kernel's name.
bool syncAfterLaunch();

} // namespace detail
} // namespace tcc
