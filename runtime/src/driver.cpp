#include "tcc/driver.h"

#include "tcc/error.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace tcc {
namespace {

#define TCC_STRINGIFY_(x) #x
#define TCC_STRINGIFY(x) TCC_STRINGIFY_(x)

struct Loaded {
  Driver table;
  bool ok = false;
  std::string why;
};

std::string cuName(const Driver& d, CUresult r) {
  const char* name = nullptr;
  if (d.cuGetErrorName && d.cuGetErrorName(r, &name) == CUDA_SUCCESS && name)
    return name;
  return "CUresult " + std::to_string(static_cast<int>(r));
}

Loaded load() {
  Loaded l;
  // $TCC_LIBCUDA names another driver library (for testing); the default is the real
  // driver's soname, which only a machine with an NVIDIA driver has.
  const char* override = std::getenv("TCC_LIBCUDA");
  const char* lib = (override && *override) ? override : "libcuda.so.1";
  void* h = ::dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = ::dlerror();
    l.why = std::string("no CUDA driver: cannot load ") + lib + " (" + (e ? e : "?") + ")";
    return l;
  }
  Driver& d = l.table;
  // The stringified name is the symbol after <cuda.h>'s macros (cuMemAlloc_v2, ...).
#define TCC_DRIVER_RESOLVE(fn)                                                                  \
  d.fn = reinterpret_cast<decltype(d.fn)>(::dlsym(h, TCC_STRINGIFY(fn)));                       \
  if (!d.fn) {                                                                                  \
    l.why = std::string("the CUDA driver ") + lib + " lacks " + TCC_STRINGIFY(fn) +              \
            " (driver too old for CUDA " + std::to_string(CUDA_VERSION / 1000) + ")";           \
    return l;                                                                                   \
  }
  TCC_DRIVER_ENTRY_POINTS(TCC_DRIVER_RESOLVE)
#undef TCC_DRIVER_RESOLVE
  CUresult r = d.cuInit(0);
  if (r != CUDA_SUCCESS) {
    l.why = "cuInit failed: " + cuName(d, r) +
            (r == CUDA_ERROR_STUB_LIBRARY ? " (the toolkit's stub libcuda, not a real driver)" : "");
    return l;
  }
  int count = 0;
  r = d.cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS) {
    l.why = "cuDeviceGetCount failed: " + cuName(d, r);
    return l;
  }
  if (count == 0) {
    l.why = "the CUDA driver sees no device";
    return l;
  }
  l.ok = true;
  return l;
}

const Loaded& loaded() {
  // Never freed and never dlclose'd: modules and contexts may outlive static destructors.
  static const Loaded* l = new Loaded(load());
  return *l;
}

CUcontext& primaryContext() {
  static CUcontext ctx = nullptr;
  return ctx;
}

} // namespace

bool driverAvailable(std::string* why) {
  const Loaded& l = loaded();
  if (!l.ok && why)
    *why = l.why;
  return l.ok;
}

const Driver& driver() {
  const Loaded& l = loaded();
  if (!l.ok)
    throw Error("initialising CUDA", l.why);
  return l.table;
}

CUcontext ensureContext() {
  const Driver& d = driver();
  CUcontext cur = nullptr;
  check(d.cuCtxGetCurrent(&cur), "querying the current CUDA context");
  if (cur)
    return cur;
  static std::mutex m;
  std::lock_guard<std::mutex> lock(m);
  CUcontext& primary = primaryContext();
  if (!primary) {
    int ordinal = 0;
    if (const char* e = std::getenv("TCC_DEVICE"))
      ordinal = std::atoi(e);
    CUdevice dev;
    check(d.cuDeviceGet(&dev, ordinal), "getting CUDA device " + std::to_string(ordinal));
    check(d.cuDevicePrimaryCtxRetain(&primary, dev),
          "retaining the primary context of device " + std::to_string(ordinal));
  }
  check(d.cuCtxSetCurrent(primary), "making the primary context current");
  return primary;
}

CUdevice currentDevice() {
  ensureContext();
  CUdevice dev;
  check(driver().cuCtxGetDevice(&dev), "querying the current device");
  return dev;
}

int deviceComputeCapability() {
  CUdevice dev = currentDevice();
  const Driver& d = driver();
  int major = 0, minor = 0;
  check(d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
        "querying the compute capability");
  check(d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
        "querying the compute capability");
  return major * 10 + minor;
}

std::string deviceDescription() {
  CUdevice dev = currentDevice();
  char name[256] = {0};
  check(driver().cuDeviceGetName(name, sizeof name - 1, dev), "querying the device name");
  return std::string(name) + " (sm_" + std::to_string(deviceComputeCapability()) + ")";
}

} // namespace tcc
