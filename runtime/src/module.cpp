#include "internal.h"

#include "tcc/cubin.h"

#include <cstdlib>

namespace tcc {
namespace {

bool isArchError(CUresult r) {
  return r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE ||
         r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION ||
         r == CUDA_ERROR_INVALID_SOURCE;
}

} // namespace

std::shared_ptr<Module> Module::load(const void* image, size_t size, const std::string& label,
                                     int expectedArch, bool archSpecific, const std::string& kernel) {
  const std::string doing = "loading " + label;
  CUcontext ctx = ensureContext();
  const Driver& d = driver();
  ImageInfo info = inspectImage(image, size);
  int device = deviceComputeCapability();
  std::string builtFor = expectedArch ? archName(expectedArch) : std::string("another architecture");
  switch (info.kind) {
  case ImageKind::Cubin:
    if (expectedArch && info.arch && info.arch != expectedArch)
      throw Error(doing, "the metadata says " + archName(expectedArch) +
                             " but the cubin is built for " + archName(info.arch), kernel);
    if (info.arch) {
      builtFor = archName(info.arch) + (archSpecific ? "a" : "");
      if (!cubinRunsOn(info.arch, archSpecific, device))
        throw Error(doing, "the cubin is built for " + builtFor + " but the device is " +
                               deviceDescription() + ": recompile with --arch=" +
                               archName(device), kernel);
    }
    break;
  case ImageKind::Fatbin:
  case ImageKind::Ptx:
    break;
  case ImageKind::Unknown:
    throw Error(doing, size == 0 ? "the image is empty" : "not a cubin, fatbin or PTX image", kernel);
  }
  // PTX must be NUL-terminated for the driver.
  std::string ptxCopy;
  if (info.kind == ImageKind::Ptx) {
    ptxCopy.assign(static_cast<const char*>(image), size);
    image = ptxCopy.c_str();
  }
  CUmodule m = nullptr;
  CUresult r = d.cuModuleLoadData(&m, image);
  if (r != CUDA_SUCCESS && isArchError(r)) {
    const char* name = nullptr;
    d.cuGetErrorName(r, &name);
    throw Error(doing, std::string(name ? name : "CUDA error") + ": the image (built for " +
                           builtFor + ") cannot run on " + deviceDescription(),
                kernel, r, name ? name : "");
  }
  check(r, doing, kernel);
  return std::shared_ptr<Module>(new Module(m, ctx, label));
}

std::shared_ptr<Module> Module::loadFile(const std::string& path, int expectedArch,
                                         bool archSpecific, const std::string& kernel) {
  std::string bytes = readFile(path, "cubin");
  return load(bytes.data(), bytes.size(), path, expectedArch, archSpecific, kernel);
}

Module::~Module() {
  std::string why;
  if (module_ && driverAvailable(&why))
    driver().cuModuleUnload(module_); // errors at teardown have no one to report to
}

CUfunction Module::function(const std::string& entry, const std::string& kernel) const {
  CUfunction f = nullptr;
  CUresult r = driver().cuModuleGetFunction(&f, module_, entry.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    throw Error("looking up entry '" + entry + "' in " + label_,
                "the module has no such function (CUDA_ERROR_NOT_FOUND)", kernel, r,
                "CUDA_ERROR_NOT_FOUND");
  check(r, "looking up entry '" + entry + "' in " + label_, kernel);
  return f;
}

namespace detail {

void prepareFunction(CUfunction fn, int numWarps, int64_t sharedBytes, const std::string& kernel) {
  const Driver& d = driver();
  int maxThreads = 0;
  check(d.cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn),
        "querying the function's thread limit", kernel);
  if (maxThreads < 32 * numWarps)
    throw Error("preparing the launch",
                "num_warps " + std::to_string(numWarps) + " needs " +
                    std::to_string(32 * numWarps) +
                    " threads per block, but the compiled function allows at most " +
                    std::to_string(maxThreads) + " (too many registers per thread)",
                kernel);
  if (sharedBytes <= 48 * 1024)
    return;
  int staticShared = 0, optin = 0;
  check(d.cuFuncGetAttribute(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn),
        "querying the function's static shared memory", kernel);
  check(d.cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                               currentDevice()),
        "querying the device's shared memory limit", kernel);
  if (sharedBytes + staticShared > optin)
    throw Error("preparing the launch",
                "needs " + std::to_string(sharedBytes) + " bytes of dynamic shared memory (+" +
                    std::to_string(staticShared) + " static), the device allows " +
                    std::to_string(optin) + " per block",
                kernel);
  check(d.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(sharedBytes)),
        "raising the dynamic shared memory limit to " + std::to_string(sharedBytes) + " bytes",
        kernel);
}

bool checkGrid(const Dim3& g, const std::string& kernel) {
  const int64_t limits[3] = {2147483647, 65535, 65535};
  const int64_t dims[3] = {g.x, g.y, g.z};
  for (int i = 0; i < 3; ++i) {
    if (dims[i] < 0 || dims[i] > limits[i])
      throw Error("computing the grid",
                  "grid (" + std::to_string(g.x) + ", " + std::to_string(g.y) + ", " +
                      std::to_string(g.z) + "): dimension " + std::to_string(i) + " is " +
                      (dims[i] < 0 ? "negative" : "above the limit of " + std::to_string(limits[i])),
                  kernel);
  }
  return g.x != 0 && g.y != 0 && g.z != 0;
}

bool syncAfterLaunch() {
  static const bool on = [] {
    const char* e = std::getenv("TCC_LAUNCH_SYNC");
    return e && *e && *e != '0';
  }();
  return on;
}

void launchChecked(CUfunction fn, const Dim3& g, unsigned threads, unsigned shared,
                   CUstream stream, void** args, const std::string& kernel, CUcontext moduleCtx) {
  const Driver& d = driver();
  CUresult r = d.cuLaunchKernel(fn, static_cast<unsigned>(g.x), static_cast<unsigned>(g.y),
                                static_cast<unsigned>(g.z), threads, 1, 1, shared, stream, args,
                                nullptr);
  if (r != CUDA_SUCCESS) {
    std::string doing = "launching (grid " + std::to_string(g.x) + "x" + std::to_string(g.y) +
                        "x" + std::to_string(g.z) + ", " + std::to_string(threads) +
                        " threads, " + std::to_string(shared) + " bytes of shared memory)";
    CUcontext cur = nullptr;
    d.cuCtxGetCurrent(&cur);
    if (cur != moduleCtx)
      doing += " in a context other than the one the module was loaded in";
    check(r, doing, kernel);
  }
  if (syncAfterLaunch())
    check(d.cuStreamSynchronize(stream), "running (TCC_LAUNCH_SYNC)", kernel);
}

} // namespace detail
} // namespace tcc
