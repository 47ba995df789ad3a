// Compiled with no CUDA include path and, first on the path, a <cuda.h> that stops the build
// (runtime/src/no_cuda_h): tcc's public headers must not need the CUDA toolkit. Also uses
// what a program or a generated header needs from them, then runs (without a GPU it reports
// why nothing can run and succeeds).
#include <tcc/embedded.h>
#include <tcc/runtime.h>
#include <tcc/tcc.h>

#include <cstdio>
#include <type_traits>

#ifdef CUDA_VERSION
#error "<cuda.h> was included"
#endif

static_assert(sizeof(CUdeviceptr) == sizeof(void*), "CUdeviceptr is pointer-sized");
static_assert(std::is_same_v<CUdevice, int>, "CUdevice is an int, as in <cuda.h>");
static_assert(std::is_pointer_v<CUstream> && std::is_pointer_v<CUcontext> &&
                  std::is_pointer_v<CUmodule> && std::is_pointer_v<CUfunction> &&
                  std::is_pointer_v<CUevent>,
              "handles are pointers to incomplete structs, as in <cuda.h>");
static_assert(tcc::cu::CUDA_SUCCESS == 0, "");

// What a generated header's launcher does, in miniature.
inline void launchLike(CUstream stream, CUdeviceptr x, int32_t n) {
  static const char ptx[] = ".version 8.0\n.target sm_80\n";
  static tcc::EmbeddedKernel kernel("k", "k", nullptr, 0, "sm_80", 4, 0, ptx, sizeof ptx - 1);
  void* args[] = {&x, &n};
  if (kernel.runsOnCurrentDevice())
    kernel.launch(stream, 0, 1, 1, args); // an empty grid: nothing is launched
}

int main() {
  using namespace tcc; // no ambiguity with anything of the driver API
  std::string why;
  if (!driverAvailable(&why)) {
    std::printf("no-cuda.h check: built; no GPU here (%s); deviceCount() = %d\n", why.c_str(),
                deviceCount());
    return deviceCount() == 0 ? 0 : 1;
  }
  const Driver& d = driver();
  ensureContext(); // a real driver allocates only in a current context
  CUdeviceptr p = 0;
  check(d.cuMemAlloc(&p, 256), "allocating");
  check(d.cuMemFree(p), "freeing");
  launchLike(nullptr, p, 0);
  DeviceInfo info = deviceInfo(0);
  std::printf("no-cuda.h check: built; %s, sm_%d, driver %d\n", info.name.c_str(),
              info.computeCapability, driverVersion());
  return 0;
}
