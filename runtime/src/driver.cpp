#include "tcc/driver.h"

#include "tcc/error.h"

#include <dlfcn.h>

#define TCC_STRINGIFY_(x) #x
#define TCC_STRINGIFY(x) TCC_STRINGIFY_(x)

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace tcc {
using namespace cu;
namespace {

struct Loaded {
  Driver table;
  bool library = false; // libcuda loaded and every entry point resolved
  bool ok = false;      // ... and cuInit succeeded and a device exists
  int devices = 0;
  std::string why;
};

std::string cuName(const Driver& d, CUresult r) {
  const char* name = nullptr;
  if (d.cuGetErrorName && d.cuGetErrorName(r, &name) == CUDA_SUCCESS && name)
    return name;
  return "CUresult " + std::to_string(static_cast<int>(r));
}

// Symbols tried when the one named in the table is missing (older drivers); same signature.
const char* fallbackSymbol(const char* symbol) {
  if (std::strcmp(symbol, "cuEventElapsedTime_v2") == 0) // before CUDA 12.8
    return "cuEventElapsedTime";
  return nullptr;
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
  // Each entry point by the exact symbol of its X-macro entry (cuMemAlloc_v2, ...).
  auto resolve = [&](const char* symbol) -> void* {
    void* p = ::dlsym(h, symbol);
    if (!p)
      if (const char* alt = fallbackSymbol(symbol))
        p = ::dlsym(h, alt);
    if (!p)
      l.why = std::string("the CUDA driver ") + lib + " lacks " + symbol +
              " (tcc needs the driver of CUDA 11.4 or newer)";
    return p;
  };
#define TCC_DRIVER_RESOLVE(name, symbol)                                                        \
  d.name = reinterpret_cast<cu::name##_fn>(resolve(TCC_STRINGIFY(symbol)));                     \
  if (!d.name)                                                                                  \
    return l;
  TCC_DRIVER_ENTRY_POINTS(TCC_DRIVER_RESOLVE)
#undef TCC_DRIVER_RESOLVE
#define TCC_DRIVER_ALIAS(name, symbol) d.symbol = d.name;
  TCC_DRIVER_VERSIONED_ENTRY_POINTS(TCC_DRIVER_ALIAS)
#undef TCC_DRIVER_ALIAS
  // Those of newer drivers: null where missing (no error until a kernel needs one).
#define TCC_DRIVER_RESOLVE_OPTIONAL(name, symbol)                                               \
  d.name = reinterpret_cast<cu::name##_fn>(::dlsym(h, TCC_STRINGIFY(symbol)));
  TCC_DRIVER_OPTIONAL_ENTRY_POINTS(TCC_DRIVER_RESOLVE_OPTIONAL)
#undef TCC_DRIVER_RESOLVE_OPTIONAL
  l.library = true;
  CUresult r = d.cuInit(0);
  if (r == CUDA_ERROR_NO_DEVICE) {
    l.why = "the CUDA driver sees no device (cuInit: CUDA_ERROR_NO_DEVICE)";
    return l;
  }
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
  if (count <= 0) {
    l.why = "the CUDA driver sees no device";
    return l;
  }
  l.devices = count;
  l.ok = true;
  return l;
}

const Loaded& loaded() {
  // Never freed and never dlclose'd: modules and contexts may outlive static destructors.
  static const Loaded* l = new Loaded(load());
  return *l;
}

// Each device's primary context, retained on first use for the life of the process.
struct Primaries {
  std::mutex mutex;
  std::vector<CUcontext> contexts; // by ordinal; null: not retained yet
};

Primaries& primaries() {
  static Primaries* p = new Primaries(); // never destroyed: contexts outlive static destructors
  return *p;
}

// The device ordinal TCC_DEVICE names (0 when it is unset or empty); a value that is not a
// whole number, or names no device, is an error saying what the driver sees.
int defaultDeviceOrdinal(int devices) {
  const char* e = std::getenv("TCC_DEVICE");
  if (!e || !*e)
    return 0;
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(e, &end, 10);
  std::string sees = "the driver sees " + std::to_string(devices) +
                     (devices == 1 ? " device, ordinal 0" : " devices, ordinals 0.." +
                                                                std::to_string(devices - 1));
  if (errno != 0 || end == e || *end != '\0')
    throw Error("choosing the device", "TCC_DEVICE='" + std::string(e) +
                                           "' is not a device ordinal (" + sees + ")");
  if (v < 0 || v >= devices)
    throw Error("choosing the device",
                "TCC_DEVICE=" + std::string(e) + " names no device (" + sees + ")");
  return static_cast<int>(v);
}

// Device `ordinal`'s primary context, retained on first use.
CUcontext retainPrimary(int ordinal, int devices) {
  const Driver& d = driver();
  if (ordinal < 0 || ordinal >= devices)
    throw Error("choosing device " + std::to_string(ordinal),
                "no such device (the driver sees " + std::to_string(devices) +
                    (devices == 1 ? " device)" : " devices)"));
  Primaries& p = primaries();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (p.contexts.size() < static_cast<size_t>(devices))
    p.contexts.resize(static_cast<size_t>(devices), nullptr);
  CUcontext& ctx = p.contexts[static_cast<size_t>(ordinal)];
  if (!ctx) {
    CUdevice dev;
    check(d.cuDeviceGet(&dev, ordinal), "getting CUDA device " + std::to_string(ordinal));
    check(d.cuDevicePrimaryCtxRetain(&ctx, dev),
          "retaining the primary context of device " + std::to_string(ordinal));
  }
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
  const int devices = loaded().devices;
  CUcontext primary = retainPrimary(defaultDeviceOrdinal(devices), devices);
  check(d.cuCtxSetCurrent(primary), "making the primary context current");
  return primary;
}

CUcontext useDevice(int ordinal) {
  const Driver& d = driver();
  CUcontext primary = retainPrimary(ordinal, loaded().devices);
  check(d.cuCtxSetCurrent(primary),
        "making the primary context of device " + std::to_string(ordinal) + " current");
  return primary;
}

DeviceScope::DeviceScope(int ordinal) {
  check(driver().cuCtxGetCurrent(&previous_), "querying the current CUDA context");
  useDevice(ordinal);
}

DeviceScope::~DeviceScope() {
  // Never throws: the previous context (or none) is made current again where the driver
  // still answers.
  if (driverAvailable())
    driver().cuCtxSetCurrent(previous_);
}

bool enablePeerAccess(int device, int peer, std::string* why) {
  const Driver& d = driver();
  const int devices = loaded().devices;
  CUcontext peerContext = retainPrimary(peer, devices);
  CUcontext context = retainPrimary(device, devices);
  const std::string doing = "enabling access from device " + std::to_string(device) +
                            " to device " + std::to_string(peer) + "'s memory";
  if (device == peer) {
    if (why)
      *why = "a device reaches its own memory without peer access";
    return false;
  }
  CUdevice dev, peerDev;
  check(d.cuDeviceGet(&dev, device), doing);
  check(d.cuDeviceGet(&peerDev, peer), doing);
  int can = 0;
  check(d.cuDeviceCanAccessPeer(&can, dev, peerDev), doing);
  if (!can) {
    if (why)
      *why = "the driver says device " + std::to_string(device) + " cannot access device " +
             std::to_string(peer) + "'s memory (cuDeviceCanAccessPeer: no peer path)";
    return false;
  }
  CUcontext previous = nullptr;
  check(d.cuCtxGetCurrent(&previous), doing);
  check(d.cuCtxSetCurrent(context), doing);
  CUresult r = d.cuCtxEnablePeerAccess(peerContext, 0);
  d.cuCtxSetCurrent(previous);
  if (r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
    check(r, doing);
  return true;
}

int currentDeviceOrdinal() {
  const CUdevice dev = currentDevice();
  const Driver& d = driver();
  for (int i = 0; i < loaded().devices; ++i) {
    CUdevice di;
    if (d.cuDeviceGet(&di, i) == CUDA_SUCCESS && di == dev)
      return i;
  }
  throw Error("querying the current device", "the current context's device is none of the "
                                             "driver's devices");
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

int driverVersion() {
  const Loaded& l = loaded();
  if (!l.library)
    throw Error("querying the CUDA driver version", l.why);
  int v = 0;
  CUresult r = l.table.cuDriverGetVersion(&v);
  if (r != CUDA_SUCCESS) {
    std::string name = cuName(l.table, r);
    throw Error("querying the CUDA driver version", "cuDriverGetVersion failed: " + name, "", r,
                name);
  }
  return v;
}

int deviceCount() { return loaded().ok ? loaded().devices : 0; }

DeviceInfo deviceInfo(int ordinal) {
  const Driver& d = driver();
  const std::string doing = "querying CUDA device " + std::to_string(ordinal);
  if (ordinal < 0 || ordinal >= deviceCount())
    throw Error(doing, "no such device (the driver sees " + std::to_string(deviceCount()) +
                           (deviceCount() == 1 ? " device)" : " devices)"));
  CUdevice dev;
  check(d.cuDeviceGet(&dev, ordinal), doing);
  DeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {0};
  check(d.cuDeviceGetName(name, sizeof name - 1, dev), doing + " (its name)");
  info.name = name;
  int major = 0, minor = 0;
  check(d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
        doing + " (its compute capability)");
  check(d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
        doing + " (its compute capability)");
  info.computeCapability = major * 10 + minor;
  check(d.cuDeviceGetAttribute(&info.smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
        doing + " (its multiprocessor count)");
  check(d.cuDeviceTotalMem(&info.totalMemory, dev), doing + " (its memory)");
  return info;
}

} // namespace tcc
