#include "internal.h"

#include "tcc/cubin.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tcc {
namespace {

bool isArchError(CUresult r) {
  return r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE ||
         r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION ||
         r == CUDA_ERROR_INVALID_SOURCE;
}

std::string describeArch(int arch, bool archSpecific) {
  return archName(arch) + (archSpecific ? "a" : "");
}

} // namespace

std::shared_ptr<Module> Module::load(const void* image, size_t size, const std::string& label,
                                     int expectedArch, bool archSpecific, const std::string& kernel) {
  const std::string doing = "loading " + label;
  ImageInfo info = inspectImage(image, size);
  if (info.kind == ImageKind::Ptx)
    return loadPtx(image, size, label, expectedArch, archSpecific, kernel);
  CUcontext ctx = ensureContext();
  const Driver& d = driver();
  int device = deviceComputeCapability();
  std::string builtFor = expectedArch ? describeArch(expectedArch, archSpecific)
                                      : std::string("another architecture");
  switch (info.kind) {
  case ImageKind::Cubin:
    if (expectedArch && info.arch && info.arch != expectedArch)
      throw Error(doing, "the metadata says " + archName(expectedArch) +
                             " but the cubin is built for " + archName(info.arch), kernel);
    if (info.arch) {
      builtFor = describeArch(info.arch, archSpecific);
      if (!cubinRunsOn(info.arch, archSpecific, device))
        throw Error(doing, "the cubin is built for " + builtFor + " but the device is " +
                               deviceDescription() + ": recompile with --arch=" +
                               archName(device) +
                               (!archSpecific && info.arch < device
                                    ? " (or keep its PTX with it: the driver JIT-compiles PTX "
                                      "for newer architectures)"
                                    : ""),
                    kernel);
    }
    break;
  case ImageKind::Fatbin:
  case ImageKind::Ptx:
    break;
  case ImageKind::Unknown:
    throw Error(doing, size == 0 ? "the image is empty" : "not a cubin, fatbin or PTX image", kernel);
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

std::shared_ptr<Module> Module::loadPtx(const void* ptx, size_t size, const std::string& label,
                                        int expectedArch, bool archSpecific,
                                        const std::string& kernel) {
  const std::string doing = "JIT-compiling " + label;
  CUcontext ctx = ensureContext();
  const Driver& d = driver();
  int device = deviceComputeCapability();
  // The PTX must be NUL-terminated for the driver; a NUL inside ends it.
  std::string text(static_cast<const char*>(ptx), size);
  if (size_t nul = text.find('\0'); nul != std::string::npos)
    text.resize(nul);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(doing, "the PTX is empty", kernel);
  bool targetSpecific = false;
  int target = ptxTarget(text.data(), text.size(), &targetSpecific);
  if (expectedArch && target && target != expectedArch)
    throw Error(doing, "the metadata says " + archName(expectedArch) + " but the PTX targets " +
                           describeArch(target, targetSpecific), kernel);
  int arch = target ? target : expectedArch;
  bool specific = targetSpecific || archSpecific;
  if (arch && !ptxRunsOn(arch, specific, device)) {
    std::string why = specific ? "architecture-specific PTX runs only on exactly its own "
                                 "architecture"
                               : "the driver JIT-compiles PTX for its own architecture or a "
                                 "newer one only";
    throw Error(doing, "the PTX is for " + describeArch(arch, specific) + " but the device is " +
                           deviceDescription() + " (" + why + "): recompile with --arch=" +
                           archName(device), kernel);
  }
  // The JIT's logs, into buffers the driver fills (sizes in, lengths out).
  static constexpr size_t kLog = 16384;
  std::string errorLog(kLog, '\0'), infoLog(kLog, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {&errorLog[0], reinterpret_cast<void*>(static_cast<uintptr_t>(kLog)),
                    &infoLog[0], reinterpret_cast<void*>(static_cast<uintptr_t>(kLog))};
  CUmodule m = nullptr;
  CUresult r = d.cuModuleLoadDataEx(&m, text.c_str(), 4, options, values);
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    const char* what = nullptr;
    if (d.cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
      name = "CUDA_ERROR_UNKNOWN";
    if (d.cuGetErrorString(r, &what) != CUDA_SUCCESS || !what)
      what = "unknown error";
    std::string detail = std::string(name) + " (" + what + ")";
    if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION) {
      int v = 0;
      d.cuDriverGetVersion(&v);
      detail += ": the PTX's ISA version is newer than this driver (CUDA " +
                std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) +
                ") supports; update the driver or load a cubin";
    }
    errorLog.resize(std::strlen(errorLog.c_str()));
    while (!errorLog.empty() && (errorLog.back() == '\n' || errorLog.back() == ' '))
      errorLog.pop_back();
    if (!errorLog.empty())
      detail += "; JIT log:\n" + errorLog;
    throw Error(doing + " for " + deviceDescription(), detail, kernel, r, name);
  }
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

LoadRank rankOnDevice(int arch, bool archSpecific, bool hasCubin, bool hasPtx, int device) {
  if (arch == 0) // unknown: the image says (the loader checks it)
    return hasCubin ? LoadRank::ExactCubin : hasPtx ? LoadRank::PtxJit : LoadRank::CannotRun;
  return loadRank(arch, archSpecific, hasCubin, hasPtx, device);
}

std::shared_ptr<Module> loadVariant(const VariantImages& im, int arch, bool archSpecific,
                                    const std::string& kernel) {
  ensureContext();
  bool hasCubin = static_cast<bool>(im.cubin), hasPtx = static_cast<bool>(im.ptx);
  if (!hasCubin && !hasPtx)
    throw Error("loading " + kernel, "neither a cubin nor PTX", kernel);
  LoadRank rank = rankOnDevice(arch, archSpecific, hasCubin, hasPtx, deviceComputeCapability());
  // The cubin where it runs; where nothing runs, the cubin too if there is one, for its
  // error ("built for sm_80 but the device is ...: recompile").
  if (hasCubin && (rank != LoadRank::PtxJit)) {
    std::string_view c = im.cubin();
    try {
      return Module::load(c.data(), c.size(), im.cubinLabel, arch, archSpecific, kernel);
    } catch (const Error& e) {
      // The driver refused a cubin thought to run: its PTX, if that can run.
      if (rank == LoadRank::CannotRun || !hasPtx || !isArchError(e.code()))
        throw;
    }
  }
  std::string_view p = im.ptx();
  return Module::loadPtx(p.data(), p.size(), im.ptxLabel, arch, archSpecific, kernel);
}

void prepareFunction(CUfunction fn, int numWarps, int64_t sharedBytes, const std::string& kernel) {
  const Driver& d = driver();
  int maxThreads = 0;
  check(d.cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn),
        "querying the function's thread limit", kernel);
  if (maxThreads < 32 * numWarps)
    throw Error("preparing the launch",
                std::to_string(numWarps) + " warps need " +
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
