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
  throw Error(doing, detail, kernel, result, name);
}

} // namespace tcc
