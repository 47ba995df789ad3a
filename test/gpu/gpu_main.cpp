// The GPU tests' main: says once, in a line ctest recognises, when every test will skip
// because there is no GPU; arms a per-test time limit (watchdog.h).
#include "gpu_util.h"
#include "watchdog.h"

#include <cstdio>
#include <memory>

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  std::string why;
  if (!gputest::gpuAvailable(&why))
    std::printf("tcc-gpu: SKIPPED: no usable GPU (%s); every GPU test skips\n", why.c_str());
  else
    std::printf("tcc-gpu: device %s, artifacts from %s\n", tcc::deviceDescription().c_str(),
                gputest::artifactsDir().c_str());
  std::fflush(stdout);
  std::unique_ptr<gputest::Watchdog> dog;
  if (double limit = gputest::watchdogLimitFromEnv(); limit > 0) {
    dog = std::make_unique<gputest::Watchdog>(limit);
    testing::UnitTest::GetInstance()->listeners().Append(new gputest::WatchdogListener(*dog));
  }
  return RUN_ALL_TESTS();
}
