#include "tcc/error.h"

#include "tcc/driver.h"

namespace tcc {
using namespace cu;
namespace {

std::string compose(const std::string& doing, const std::string& detail, const std::string& kernel) {
  std::string m = "tcc: ";
  if (!kernel.empty())
    m += "kernel '" + kernel + "': ";
  m += doing;
  if (!detail.empty())
    m += ": " + detail;
  return m;
}

// Which device a lost context was on, as far as the driver still says.
std::string lostDevice(const Driver& d) {
  CUcontext ctx = nullptr;
  CUdevice dev = 0;
  if (d.cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx || d.cuCtxGetDevice(&dev) != CUDA_SUCCESS)
    return "the current context's device";
  char name[256] = {0};
  std::string n = d.cuDeviceGetName(name, sizeof name - 1, dev) == CUDA_SUCCESS ? name : "?";
  return "device " + std::to_string(dev) + ", " + n;
}

} // namespace

Error::Error(const std::string& doing, const std::string& detail, const std::string& kernel,
             CUresult code, const std::string& cudaErrorName)
    : std::runtime_error(compose(doing, detail, kernel)), kernel_(kernel),
      cudaErrorName_(cudaErrorName), doing_(doing), code_(code) {}

void check(CUresult result, const std::string& doing, const std::string& kernel) {
  if (result == CUDA_SUCCESS)
    return;
  // The driver table is loaded here, since a CUresult came from it.
  const Driver& d = driver();
  const char* name = nullptr;
  const char* text = nullptr;
  if (d.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "CUDA_ERROR_UNKNOWN";
  if (d.cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "unknown error";
  std::string detail = std::string(name) + " (" + text + ")";
  if (std::string(name) == "CUDA_ERROR_ASSERT")
    detail += ": a device_assert failed; the device printed its message, file and line (and "
              "the program and thread) on standard output. The context cannot launch again";
  if (result == CUDA_ERROR_DEVICE_UNAVAILABLE || result == CUDA_ERROR_ECC_UNCORRECTABLE ||
      result == CUDA_ERROR_NVLINK_UNCORRECTABLE || result == CUDA_ERROR_CONTEXT_IS_DESTROYED)
    detail += ": the device was lost or reset (" + lostDevice(d) +
              "); its context cannot be used again: its memory, modules and streams are gone";
  throw Error(doing, detail, kernel, result, name);
}

} // namespace tcc
