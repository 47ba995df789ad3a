#include "gpu_util.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace gputest {

std::string artifactsDir() {
  const char* e = std::getenv("TCC_ARTIFACTS");
  if (e && *e)
    return e;
  return TCC_DEFAULT_ARTIFACTS;
}

bool gpuAvailable(std::string* why) { return tcc::driverAvailable(why); }

const std::vector<std::string>& promisedArtifacts() {
  static const std::vector<std::string> files = [] {
    std::vector<std::string> r;
    std::ifstream in(TCC_EXPECTED_ARTIFACTS);
    for (std::string line; std::getline(in, line);)
      if (!line.empty())
        r.push_back(line);
    return r;
  }();
  return files;
}

bool artifactPresent(const std::string& path, std::string* message, bool* fail) {
  const std::string art = artifactsDir();
  std::string rel = path;
  if (rel.compare(0, art.size() + 1, art + "/") == 0)
    rel = rel.substr(art.size() + 1);
  if (exists(art + "/" + rel))
    return true;
  const std::vector<std::string>& promised = promisedArtifacts();
  std::string why;
  if (!gpuAvailable(&why)) {
    *fail = false;
    *message = "no GPU (" + why + "), and no " + rel + " in " + art;
  } else if (std::find(promised.begin(), promised.end(), rel) != promised.end()) {
    *fail = true;
    *message = rel + " is missing from " + art + ", and test/gpu/artifacts.cmake promises it "
               "(rebuild the folder: scripts/build-artifacts.sh)";
  } else {
    *fail = false;
    *message = "no " + rel + " in " + art + ": not in this folder's part of the artifacts table "
               "(TCC_ARTIFACT_EXAMPLES)";
  }
  return false;
}

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
