// Helpers shared by the GPU tests: where the artifacts are, whether a GPU is there, device
// buffers, random inputs.
#pragma once

#include <gtest/gtest.h>

#include "tcc/tcc.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gputest {

// $TCC_ARTIFACTS, else the folder configured at build time (CMake's TCC_ARTIFACTS).
std::string artifactsDir();

// True when a CUDA driver and a device are usable (the reason otherwise).
bool gpuAvailable(std::string* why);

// The files the artifacts table (test/gpu/artifacts.cmake) promises, relative to the
// artifacts folder, as the build configured them (for the examples the folder was built with).
const std::vector<std::string>& promisedArtifacts();
// Whether the file `path` (under artifactsDir(), absolute or relative to it) exists; if not,
// *message says so and *fail is true where that is a failure: on a GPU, for a file the
// table promises. Without a GPU, or for a file outside this folder's subset of the table
// (TCC_ARTIFACT_EXAMPLES), the test skips.
bool artifactPresent(const std::string& path, std::string* message, bool* fail);

// Sub-folders of `dir` (sorted), empty if `dir` does not exist.
std::vector<std::string> subdirs(const std::string& dir);
bool exists(const std::string& path);

// Deterministic random floats in ±[1, 1000] (never zero, never denormal).
void fillRandom(float* data, size_t count, uint64_t seed);

void upload(CUdeviceptr dst, const void* src, size_t bytes);
void download(void* dst, CUdeviceptr src, size_t bytes);
void fill32(CUdeviceptr dst, uint32_t value, size_t count);
void synchronize();

inline uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

} // namespace gputest

#define TCC_REQUIRE_GPU()                                                                       \
  do {                                                                                          \
    std::string tcc_why_;                                                                       \
    if (!::gputest::gpuAvailable(&tcc_why_))                                                    \
      GTEST_SKIP() << "no GPU: " << tcc_why_;                                                   \
  } while (0)

// Fails (or skips: see artifactPresent) unless the artifact file `path` exists.
#define TCC_REQUIRE_ARTIFACT_FILE(path)                                                         \
  do {                                                                                          \
    std::string tcc_msg_;                                                                       \
    bool tcc_fail_ = false;                                                                     \
    if (!::gputest::artifactPresent((path), &tcc_msg_, &tcc_fail_)) {                           \
      if (tcc_fail_)                                                                            \
        FAIL() << tcc_msg_;                                                                     \
      GTEST_SKIP() << tcc_msg_;                                                                 \
    }                                                                                           \
  } while (0)

// Expects `statement` to throw tcc::Error whose message contains every one of the strings.
#define TCC_EXPECT_ERROR(statement, ...)                                                        \
  do {                                                                                          \
    bool tcc_threw_ = false;                                                                    \
    try {                                                                                       \
      statement;                                                                                \
    } catch (const tcc::Error& tcc_e_) {                                                        \
      tcc_threw_ = true;                                                                        \
      for (const char* tcc_s_ : {__VA_ARGS__})                                                  \
        EXPECT_NE(std::string(tcc_e_.what()).find(tcc_s_), std::string::npos)                   \
            << "message: " << tcc_e_.what() << "\nlacks: " << tcc_s_;                            \
    }                                                                                           \
    EXPECT_TRUE(tcc_threw_) << #statement " did not throw tcc::Error";                          \
  } while (0)
