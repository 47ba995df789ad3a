#include "gpu_util.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace gputest {

std::string artifactsDir() {
  const char* e = std::getenv("TCC_ARTIFACTS");
  if (e && *e)
    return e;
  return TCC_DEFAULT_ARTIFACTS;
}

bool gpuAvailable(std::string* why) { return tcc::driverAvailable(why); }

std::vector<std::string> subdirs(const std::string& dir) {
  std::vector<std::string> r;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return r;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_directory())
      r.push_back(e.path().string());
  std::sort(r.begin(), r.end());
  return r;
}

bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

void fillRandom(float* data, size_t count, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (size_t i = 0; i < count; ++i) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    float u = static_cast<float>(s >> 40) * (1.0f / 16777216.0f); // [0, 1)
    float v = 1.0f + 999.0f * u;
    data[i] = (s & 1) ? v : -v;
  }
}

void upload(CUdeviceptr dst, const void* src, size_t bytes) {
  tcc::check(tcc::driver().cuMemcpyHtoD(dst, src, bytes), "copying to the device");
}
void download(void* dst, CUdeviceptr src, size_t bytes) {
  tcc::check(tcc::driver().cuMemcpyDtoH(dst, src, bytes), "copying from the device");
}
void fill32(CUdeviceptr dst, uint32_t value, size_t count) {
  tcc::check(tcc::driver().cuMemsetD32(dst, value, count), "filling device memory");
}
void synchronize() {
  tcc::check(tcc::driver().cuCtxSynchronize(), "waiting for the device");
}

} // namespace gputest
