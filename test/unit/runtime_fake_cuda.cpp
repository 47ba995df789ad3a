// A fake CUDA driver (libtcc-fake-cuda.so) for the runtime's tests on machines without a
// GPU: every entry point tcc::Driver resolves, by the same symbol, over an in-memory model of
// devices, contexts and modules. tcc-runtime-driver-tests points TCC_LIBCUDA at it.
//
// Configured at cuInit from the environment:
//   TCC_FAKE_CC              compute capability of each device, comma-separated ("90,80");
//                            default "90"; "" means no device (cuInit: CUDA_ERROR_NO_DEVICE)
//   TCC_FAKE_DRIVER_VERSION  what cuDriverGetVersion says (default 13000)
// and by the tests through the extern "C" tcc_fake_* functions at the end. It records what
// the runtime asked of it (module loads, JIT compilations, launches) in a log.
//
// Images: a CUDA ELF (e_machine 190) is a cubin; its SM is read as the runtime does. PTX is
// text; containing FAKE_JIT_FAIL makes the JIT fail with a log, FAKE_NO_BINARY in a cubin
// makes cuModuleLoadData answer CUDA_ERROR_NO_BINARY_FOR_GPU. The text of an image (a
// cubin's body after its headers, or the PTX) also says what its functions do when launched:
//   FAKE_MS=<ms>       each launch takes that long on its stream's clock (default 1 ms), which
//                      the events recorded on the stream measure (cuEventElapsedTime)
//   FAKE_LAUNCH_FAIL   every launch fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
//   FAKE_DEVICE_LOST   every launch fails with CUDA_ERROR_DEVICE_UNAVAILABLE (the device fell
//                      off the bus or was reset)
//   FAKE_INC           the kernel (out: *i32, n: i32) adds 1 to out[0..n) in fake memory
//   FAKE_OOB=r,e,a     a --check-bounds kernel whose launch params[r] is the error record and
//                      params[e] an i64 extent: it records an out-of-bounds store (line 12,
//                      column 5) through argument a at that extent's byte offset, by program
//                      (grid x - 1, 0, 0), as tile.record_oob would
//   FAKE_TMAP=f,n      a kernel whose launch params[f..f+n) are 128-byte tensor maps: the
//                      launch logs the text cuTensorMapEncodeTiled wrote into each
// Tensor maps: cuTensorMapEncodeTiled logs every argument it gets ("... -> map <n>") and
// writes "fake tensor map <n> of <address>" into the map (n counts the encodings);
// tcc_fake_set_encode_result makes it fail ("... -> error"). Built with TCC_FAKE_NO_TENSOR_MAP (libtcc-fake-cuda-11.so), the library
// lacks that symbol and says it is CUDA 11.8, as a driver older than CUDA 12 does.
// Contexts: each device's primary context; a module belongs to the context current when it
// was loaded, and launching its functions from another fails (CUDA_ERROR_INVALID_HANDLE).
// Memory: cuMemAlloc gives addresses with host memory behind them (up to 64 MiB each; larger
// allocations, e.g. the benchmark harness's L2 flush buffer, are addresses only), which the
// cuMemcpy*, cuMemset* and FAKE_INC launches read and write; cuMemGetAddressRange finds the
// allocation holding an address. Device-to-device copies are logged ("copy DST <- SRC N").
#include "tcc/cuda_api.h"
#include <memory>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

using namespace tcc::cu;

struct CUctx_st {
  int device;
};
struct CUfunc_st;
struct CUmod_st {
  std::string kind; // "cubin sm_90" or "ptx sm_90"
  CUctx_st* context = nullptr; // where it was loaded: its functions launch only there
  double ms = 1.0;  // FAKE_MS: the time each launch of its functions takes
  bool fail = false; // FAKE_LAUNCH_FAIL
  bool lost = false; // FAKE_DEVICE_LOST
  bool inc = false;  // FAKE_INC
  int oobRecord = -1, oobExtent = -1, oobArg = -1; // FAKE_OOB=r,e,a
  int tmapFirst = -1, tmapCount = 0;               // FAKE_TMAP=f,n
  // Its functions, owned as a real driver owns them: freed with the module.
  std::vector<std::unique_ptr<CUfunc_st>> functions;
};
struct CUfunc_st {
  CUmod_st* module;
  std::string name;
};
struct CUstream_st {
  int unused;
};
struct CUevent_st {
  double t; // the stream's clock when recorded, in ms
};
struct CUgraph_st {
  int unused;
};
struct CUgraphExec_st {
  int unused;
};

namespace {

std::mutex mu;
std::vector<int> ccs;            // per device
std::vector<CUctx_st*> primaries; // per device
#ifdef TCC_FAKE_NO_TENSOR_MAP
int driverVersion = 11080;
#else
int driverVersion = 13000;
#endif
CUresult encodeResult = CUDA_SUCCESS; // what cuTensorMapEncodeTiled answers
int encodings = 0;                    // how many maps it encoded
#ifdef TCC_FAKE_NO_TENSOR_MAP
[[maybe_unused]] const int* unusedWithoutTensorMaps = &encodings;
#endif
bool initialised = false;
std::string log;
thread_local CUcontext current = nullptr;
CUdeviceptr nextAddress = 0x7f0000000000ull;

// Fake device memory: base -> allocation.
struct Allocation {
  size_t size = 0;
  std::vector<unsigned char> bytes; // empty for allocations too large to back
};
constexpr size_t kBackedLimit = size_t(64) << 20;
std::map<CUdeviceptr, Allocation> allocations;
std::map<CUstream, double> clocks; // each stream's time in ms (the legacy stream is null)
std::atomic<long> launches{0};

// The allocation holding [p, p + n), with its host bytes, or nullptr. Under mu.
unsigned char* hostBytes(CUdeviceptr p, size_t n) {
  auto it = allocations.upper_bound(p);
  if (it == allocations.begin())
    return nullptr;
  --it;
  if (p + n > it->first + it->second.size || it->second.bytes.empty())
    return nullptr;
  return it->second.bytes.data() + (p - it->first);
}

std::string hex(unsigned long long v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", v);
  return b;
}

// What an image's text says its functions do (FAKE_MS=, FAKE_LAUNCH_FAIL, FAKE_DEVICE_LOST,
// FAKE_INC).
void readBehaviour(CUmod_st* m, const char* text) {
  if (const char* t = std::strstr(text, "FAKE_MS="))
    m->ms = std::atof(t + 8);
  m->fail = std::strstr(text, "FAKE_LAUNCH_FAIL") != nullptr;
  m->lost = std::strstr(text, "FAKE_DEVICE_LOST") != nullptr;
  m->inc = std::strstr(text, "FAKE_INC") != nullptr;
  if (const char* t = std::strstr(text, "FAKE_OOB="))
    std::sscanf(t + 9, "%d,%d,%d", &m->oobRecord, &m->oobExtent, &m->oobArg);
  if (const char* t = std::strstr(text, "FAKE_TMAP="))
    std::sscanf(t + 10, "%d,%d", &m->tmapFirst, &m->tmapCount);
}

template <typename T>
std::string joined(const T* v, unsigned n) {
  std::string s;
  for (unsigned i = 0; i < n; ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

void record(const std::string& line) {
  std::lock_guard<std::mutex> lock(mu);
  log += line + "\n";
}

int elfArch(const unsigned char* p) {
  uint32_t flags = static_cast<uint32_t>(p[48]) | (static_cast<uint32_t>(p[49]) << 8) |
                   (static_cast<uint32_t>(p[50]) << 16) | (static_cast<uint32_t>(p[51]) << 24);
  return static_cast<int>(p[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff);
}

bool isCubin(const void* image) {
  const unsigned char* p = static_cast<const unsigned char*>(image);
  return std::memcmp(p, "\x7f" "ELF", 4) == 0 && p[18] == 190 && p[19] == 0;
}

// The ".target sm_NN" of PTX text, as written.
std::string ptxTarget(const char* text) {
  const char* t = std::strstr(text, ".target ");
  if (!t)
    return "?";
  t += 8;
  std::string s;
  while (*t && *t != '\n' && *t != ' ' && *t != ',')
    s += *t++;
  return s;
}

bool validDevice(CUdevice d) { return d >= 0 && d < static_cast<int>(ccs.size()); }

} // namespace

extern "C" {

CUresult cuInit(unsigned int) {
  std::lock_guard<std::mutex> lock(mu);
  if (!initialised) {
    const char* cc = std::getenv("TCC_FAKE_CC");
    std::string list = cc ? cc : "90";
    size_t i = 0;
    while (i < list.size()) {
      size_t j = list.find(',', i);
      if (j == std::string::npos)
        j = list.size();
      if (j > i)
        ccs.push_back(std::atoi(list.substr(i, j - i).c_str()));
      i = j + 1;
    }
    primaries.assign(ccs.size(), nullptr);
    if (const char* v = std::getenv("TCC_FAKE_DRIVER_VERSION"))
      driverVersion = std::atoi(v);
    initialised = true;
  }
  return ccs.empty() ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int* v) {
  if (!v)
    return CUDA_ERROR_INVALID_VALUE;
  *v = driverVersion;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult e, const char** name) {
  switch (e) {
  case CUDA_SUCCESS: *name = "CUDA_SUCCESS"; break;
  case CUDA_ERROR_INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; break;
  case CUDA_ERROR_NO_DEVICE: *name = "CUDA_ERROR_NO_DEVICE"; break;
  case CUDA_ERROR_INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; break;
  case CUDA_ERROR_NO_BINARY_FOR_GPU: *name = "CUDA_ERROR_NO_BINARY_FOR_GPU"; break;
  case CUDA_ERROR_INVALID_PTX: *name = "CUDA_ERROR_INVALID_PTX"; break;
  case CUDA_ERROR_NOT_FOUND: *name = "CUDA_ERROR_NOT_FOUND"; break;
  case CUDA_ERROR_INVALID_CONTEXT: *name = "CUDA_ERROR_INVALID_CONTEXT"; break;
  case CUDA_ERROR_DEVICE_UNAVAILABLE: *name = "CUDA_ERROR_DEVICE_UNAVAILABLE"; break;
  default: *name = "CUDA_ERROR_UNKNOWN"; break;
  }
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult e, const char** text) {
  *text = e == CUDA_SUCCESS ? "no error" : "a fake driver error";
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* d, int ordinal) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!validDevice(ordinal))
    return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
  if (!initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  *count = static_cast<int>(ccs.size());
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* name, int len, CUdevice d) {
  if (!validDevice(d))
    return CUDA_ERROR_INVALID_DEVICE;
  std::string n = "tcc fake GPU " + std::to_string(d);
  std::strncpy(name, n.c_str(), static_cast<size_t>(len));
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* v, CUdevice_attribute a, CUdevice d) {
  if (!validDevice(d))
    return CUDA_ERROR_INVALID_DEVICE;
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = ccs[d] / 10; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = ccs[d] % 10; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 232448; break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 50 << 20; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice d) {
  if (!validDevice(d))
    return CUDA_ERROR_INVALID_DEVICE;
  *bytes = (size_t(140) << 30) + size_t(d) * (size_t(1) << 30);
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* ctx, CUdevice d) {
  if (!validDevice(d))
    return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard<std::mutex> lock(mu);
  if (!primaries[d])
    primaries[d] = new CUctx_st{d};
  *ctx = primaries[d];
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }

CUresult cuCtxGetCurrent(CUcontext* ctx) {
  *ctx = current;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  current = ctx;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice* d) {
  if (!current)
    return CUDA_ERROR_INVALID_CONTEXT;
  *d = current->device;
  return CUDA_SUCCESS;
}

CUresult cuDeviceCanAccessPeer(int* can, CUdevice d, CUdevice peer) {
  if (!validDevice(d) || !validDevice(peer))
    return CUDA_ERROR_INVALID_DEVICE;
  // Devices of the same compute capability are peers (as GPUs of one NVLink board are).
  *can = d != peer && ccs[d] == ccs[peer];
  return CUDA_SUCCESS;
}

CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int) {
  if (!current || !peer)
    return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard<std::mutex> lock(mu);
  static std::set<std::pair<CUctx_st*, CUctx_st*>> enabled;
  if (!enabled.insert({current, peer}).second)
    return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  log += "peer access " + std::to_string(current->device) + " -> " +
         std::to_string(peer->device) + "\n";
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize() { return current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT; }

CUresult cuModuleLoadData(CUmodule* m, const void* image) {
  if (!current)
    return CUDA_ERROR_INVALID_CONTEXT;
  std::string kind;
  if (isCubin(image)) {
    const unsigned char* p = static_cast<const unsigned char*>(image);
    if (std::strstr(reinterpret_cast<const char*>(p + 128), "FAKE_NO_BINARY")) { // after fake_elf.h's headers
      record("refused cubin sm_" + std::to_string(elfArch(p)));
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    kind = "cubin sm_" + std::to_string(elfArch(p));
  } else {
    kind = "ptx " + ptxTarget(static_cast<const char*>(image)) + " (without JIT options)";
  }
  record("load " + kind);
  *m = new CUmod_st;
  (*m)->kind = kind;
  (*m)->context = current;
  const char* text = static_cast<const char*>(image);
  readBehaviour(*m, isCubin(image) ? text + 128 : text);
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule* m, const void* image, unsigned int n, CUjit_option* options,
                            void** values) {
  if (!current)
    return CUDA_ERROR_INVALID_CONTEXT;
  const char* text = static_cast<const char*>(image);
  if (isCubin(image))
    return cuModuleLoadData(m, image);
  char* errorLog = nullptr;
  size_t errorLogSize = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      errorLog = static_cast<char*>(values[i]);
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      errorLogSize = static_cast<size_t>(reinterpret_cast<uintptr_t>(values[i]));
  }
  std::string target = ptxTarget(text);
  if (std::strstr(text, "FAKE_JIT_FAIL")) {
    record("jit failed ptx " + target);
    const char* msg = "ptxas application ptx input, line 3; fatal   : fake JIT failure\n";
    if (errorLog && errorLogSize > std::strlen(msg))
      std::strcpy(errorLog, msg);
    return CUDA_ERROR_INVALID_PTX;
  }
  std::string kind = "ptx " + target;
  record("jit " + kind + (errorLog && errorLogSize ? "" : " (no error log buffer)") + " for sm_" +
         std::to_string(ccs[current->device]));
  *m = new CUmod_st;
  (*m)->kind = kind;
  (*m)->context = current;
  readBehaviour(*m, text);
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule m) {
  delete m;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction* f, CUmodule m, const char* name) {
  if (std::strcmp(name, "missing") == 0)
    return CUDA_ERROR_NOT_FOUND;
  m->functions.push_back(std::make_unique<CUfunc_st>(CUfunc_st{m, name}));
  *f = m->functions.back().get();
  return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int* v, CUfunction_attribute a, CUfunction) {
  switch (a) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *v = 0; break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS: *v = 32; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }

// Two programs of 256 threads or fewer fit on a fake SM, one of more.
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, CUfunction, int blockSize, size_t) {
  *n = blockSize <= 256 ? 2 : 1;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned,
                        unsigned, unsigned, CUstream stream, void** params, void**) {
  if (!current)
    return CUDA_ERROR_INVALID_CONTEXT;
  const CUmod_st& m = *f->module;
  if (m.context != current) {
    // A real driver answers so for a function of a module loaded in another context.
    record("launch " + f->name + " from another context's module");
    return CUDA_ERROR_INVALID_HANDLE;
  }
  if (m.fail) {
    record("failed launch " + f->name + " from " + m.kind);
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  }
  if (m.lost) {
    record("lost device at launch " + f->name);
    return CUDA_ERROR_DEVICE_UNAVAILABLE;
  }
  record("launch " + f->name + " from " + m.kind + " grid " + std::to_string(gx) + "x" +
         std::to_string(gy) + "x" + std::to_string(gz) + " block " + std::to_string(bx));
  std::lock_guard<std::mutex> lock(mu);
  ++launches;
  clocks[stream] += m.ms;
  if (m.oobRecord >= 0 && params) {
    CUdeviceptr rec;
    int64_t extent;
    std::memcpy(&rec, params[m.oobRecord], sizeof rec);
    std::memcpy(&extent, params[m.oobExtent], sizeof extent);
    uint32_t words[8] = {1, 12, 5, 1, uint32_t(m.oobArg), gx - 1, 0, 0};
    if (unsigned char* p = hostBytes(rec, 40)) {
      uint32_t flag;
      std::memcpy(&flag, p, 4);
      if (flag == 0) {
        std::memcpy(p, words, sizeof words);
        std::memcpy(p + 32, &extent, sizeof extent);
      }
    }
    log += "oob record " + hex(rec) + " extent " + std::to_string(extent) + "\n";
  }
  for (int i = 0; params && i < m.tmapCount; ++i) {
    const char* map = static_cast<const char*>(params[m.tmapFirst + i]);
    log += "  params[" + std::to_string(m.tmapFirst + i) + "]: " +
           std::string(map, strnlen(map, 128)) + "\n";
  }
  if (m.inc && params) {
    CUdeviceptr out;
    int32_t n;
    std::memcpy(&out, params[0], sizeof out);
    std::memcpy(&n, params[1], sizeof n);
    if (unsigned char* p = n > 0 ? hostBytes(out, size_t(n) * 4) : nullptr)
      for (int32_t i = 0; i < n; ++i) {
        int32_t v;
        std::memcpy(&v, p + 4 * size_t(i), 4);
        ++v;
        std::memcpy(p + 4 * size_t(i), &v, 4);
      }
  }
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr* p, size_t bytes) {
  std::lock_guard<std::mutex> lock(mu);
  *p = nextAddress;
  nextAddress += (bytes + 255) / 256 * 256 + 256;
  Allocation& a = allocations[*p];
  a.size = bytes;
  if (bytes <= kBackedLimit)
    a.bytes.assign(bytes, 0xee); // uninitialised memory: neither zeros nor the test's data
  return CUDA_SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  std::lock_guard<std::mutex> lock(mu);
  allocations.erase(p);
  return CUDA_SUCCESS;
}
CUresult cuMemGetInfo_v2(size_t* free, size_t* total) {
  *free = size_t(100) << 30;
  *total = size_t(140) << 30;
  return CUDA_SUCCESS;
}
CUresult cuMemGetAddressRange_v2(CUdeviceptr* base, size_t* size, CUdeviceptr p) {
  std::lock_guard<std::mutex> lock(mu);
  auto it = allocations.upper_bound(p);
  if (it == allocations.begin() || p >= std::prev(it)->first + std::prev(it)->second.size)
    return CUDA_ERROR_NOT_FOUND;
  --it;
  if (base)
    *base = it->first;
  if (size)
    *size = it->second.size;
  return CUDA_SUCCESS;
}
// Copies and sets act on fake memory where it is backed, and do nothing elsewhere (the tests
// pass made-up addresses to kernels that never touch them).
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  if (unsigned char* d = hostBytes(dst, n))
    std::memcpy(d, src, n);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  if (unsigned char* s = hostBytes(src, n))
    std::memcpy(dst, s, n);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  log += "copy " + hex(dst) + " <- " + hex(src) + " " + std::to_string(n) + "\n";
  unsigned char* d = hostBytes(dst, n);
  unsigned char* s = hostBytes(src, n);
  if (d && s)
    std::memmove(d, s, n);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream) {
  return cuMemcpyDtoD_v2(dst, src, n);
}
CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  if (unsigned char* d = hostBytes(dst, n))
    std::memset(d, v, n);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int v, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  if (unsigned char* d = hostBytes(dst, 4 * n))
    for (size_t i = 0; i < n; ++i)
      std::memcpy(d + 4 * i, &v, 4);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream) {
  return cuMemsetD8_v2(dst, v, n);
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int v, size_t n, CUstream) {
  return cuMemsetD32_v2(dst, v, n);
}

CUresult cuStreamCreate(CUstream* s, unsigned int) {
  *s = new CUstream_st{0};
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy_v2(CUstream s) {
  delete s;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
CUresult cuEventCreate(CUevent* e, unsigned int) {
  *e = new CUevent_st{0.0};
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(CUevent e) {
  delete e;
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
  std::lock_guard<std::mutex> lock(mu);
  e->t = clocks[s];
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime_v2(float* ms, CUevent start, CUevent end) {
  std::lock_guard<std::mutex> lock(mu);
  *ms = static_cast<float>(end->t - start->t);
  return CUDA_SUCCESS;
}
CUresult cuStreamBeginCapture_v2(CUstream, CUstreamCaptureMode) { return CUDA_SUCCESS; }
CUresult cuStreamEndCapture(CUstream, CUgraph* g) {
  *g = new CUgraph_st{0};
  return CUDA_SUCCESS;
}
CUresult cuGraphInstantiateWithFlags(CUgraphExec* e, CUgraph, unsigned long long) {
  *e = new CUgraphExec_st{0};
  return CUDA_SUCCESS;
}
CUresult cuGraphLaunch(CUgraphExec, CUstream) { return CUDA_SUCCESS; }
CUresult cuGraphExecDestroy(CUgraphExec e) {
  delete e;
  return CUDA_SUCCESS;
}
CUresult cuGraphDestroy(CUgraph g) {
  delete g;
  return CUDA_SUCCESS;
}

#ifndef TCC_FAKE_NO_TENSOR_MAP
CUresult cuTensorMapEncodeTiled(void* map, CUtensorMapDataType type, cuuint32_t rank,
                                void* address, const cuuint64_t* dims, const cuuint64_t* strides,
                                const cuuint32_t* box, const cuuint32_t* elementStrides,
                                CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  std::lock_guard<std::mutex> lock(mu);
  if (reinterpret_cast<uintptr_t>(map) % 64 != 0) { // as the driver requires
    log += "encode into a misaligned tensor map\n";
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (rank < 1 || rank > 5)
    return CUDA_ERROR_INVALID_VALUE;
  log += "encode dtype " + std::to_string(type) + " rank " + std::to_string(rank) + " address " +
         hex(reinterpret_cast<uintptr_t>(address)) + " dims " + joined(dims, rank) +
         " strides " + joined(strides, rank - 1) + " box " + joined(box, rank) +
         " element_strides " + joined(elementStrides, rank) + " interleave " +
         std::to_string(interleave) + " swizzle " + std::to_string(swizzle) + " l2 " +
         std::to_string(l2) + " oob " + std::to_string(oob);
  if (encodeResult != CUDA_SUCCESS) {
    log += " -> error\n";
    return encodeResult;
  }
  log += " -> map " + std::to_string(++encodings) + "\n";
  std::string text = "fake tensor map " + std::to_string(encodings) + " of " +
                     hex(reinterpret_cast<uintptr_t>(address));
  std::memset(map, 0, 128);
  std::memcpy(map, text.c_str(), text.size());
  return CUDA_SUCCESS;
}
#endif

// ---- For the tests ------------------------------------------------------------------------

// Everything recorded since the last call, one line per event; clears the log.
const char* tcc_fake_take_log() {
  static thread_local std::string taken;
  std::lock_guard<std::mutex> lock(mu);
  taken.swap(log);
  log.clear();
  return taken.c_str();
}

// How many kernels were launched successfully since the library was loaded.
long tcc_fake_launch_count() { return launches.load(); }

// What cuTensorMapEncodeTiled answers from now on (CUDA_SUCCESS: it encodes).
void tcc_fake_set_encode_result(CUresult r) {
  std::lock_guard<std::mutex> lock(mu);
  encodeResult = r;
}

// Changes the compute capability of `device` (e.g. 100); false if there is no such device.
bool tcc_fake_set_cc(int device, int cc) {
  std::lock_guard<std::mutex> lock(mu);
  if (device < 0 || device >= static_cast<int>(ccs.size()))
    return false;
  ccs[device] = cc;
  return true;
}

} // extern "C"
