// The GPU tests' main: says once, in a line ctest recognises, when every test will skip
// because there is no GPU.
#include "gpu_util.h"

#include <cstdio>

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  std::string why;
  if (!gputest::gpuAvailable(&why))
    std::printf("tcc-gpu: SKIPPED: no usable GPU (%s); every GPU test skips\n", why.c_str());
  else
    std::printf("tcc-gpu: device %s, artifacts from %s\n", tcc::deviceDescription().c_str(),
                gputest::artifactsDir().c_str());
  std::fflush(stdout);
  return RUN_ALL_TESTS();
}
