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
