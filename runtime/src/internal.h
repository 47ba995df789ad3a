// Pieces shared by the Library's kernels and the kernels embedded in generated headers.
#pragma once

#include "tcc/runtime.h"

#include "tcc/cuda_api.h"

#include "tcc/cubin.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tcc {
// The runtime's sources name the driver's constants as <cuda.h> does (CUDA_SUCCESS, ...).
using namespace cu;

namespace detail {

// The slot of `name` in the values a variant's grid and tensor-map expressions read: its
// parameters in order, then its constexprs; -1 for any other name.
int expressionSlot(const KernelMetadata& m, const std::string& name);

// loadRank for the runtime's variants; arch 0 (not known) trusts the image.
LoadRank rankOnDevice(int arch, bool archSpecific, bool hasCubin, bool hasPtx, int device);

// A variant's images, read only if used (an empty function: none).
struct VariantImages {
  std::function<std::string_view()> cubin;
  std::string cubinLabel; // "the cubin embedded for vector_add", a file name, ...
  std::function<std::string_view()> ptx;
  std::string ptxLabel;
};

// Loads a variant in the current context the best way the device allows (loadRank): its
// cubin, or its PTX through the driver's JIT; a cubin the driver refuses as built for
// another architecture falls back to the PTX. Where neither runs, the error says why.
std::shared_ptr<Module> loadVariant(const VariantImages& images, int arch, bool archSpecific,
                                    const std::string& kernel);

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

// A launch of a kernel built with --check-bounds (check_bounds.cpp): `args` holds the
// parameters' values (params.size() of them); the extent of each pointer of
// info.extentParams and the error record of this context and stream are appended; after the
// launch the stream is synchronised and a recorded violation throws a tcc::Error naming the
// access, its source line (`source`: the file, shown by its base name), the program, the
// offset and the argument.
// `trailing`: what goes after the record (the TMA tensor maps: docs/artifacts.md).
void launchBoundsChecked(CUfunction fn, const Dim3& g, unsigned threads, unsigned shared,
                         CUstream stream, void** args, const std::vector<ParamInfo>& params,
                         const BoundsCheckInfo& info, const std::string& source,
                         const std::string& kernel, CUcontext moduleCtx,
                         const std::vector<void*>& trailing = {});

// The message for a violation in `record` (its first 40 bytes, as tile.record_oob writes
// them); extents and inAllocation are per entry of info.extentParams.
std::string describeBoundsViolation(const unsigned char* record,
                                    const std::vector<ParamInfo>& params,
                                    const BoundsCheckInfo& info, const int64_t* extents,
                                    const bool* inAllocation, const std::string& source);

// True when $TCC_LAUNCH_SYNC is set: every launch is followed by a stream synchronisation,
// so that faults surface with the kernel's name.
bool syncAfterLaunch();

} // namespace detail
} // namespace tcc
