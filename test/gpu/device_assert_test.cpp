// device_assert on the GPU (issue 13 item 10; docs/language.md section 12): assertions that
// hold leave the result as it is; one that fails makes the launch's wait fail with
// CUDA_ERROR_ASSERT, which the runtime's error names, after the device printed the message,
// the source file and line; built with --no-device-assert the same kernel never fires. The
// failing case runs in a child process (a death test, re-executed: after a device assert the
// context cannot launch again).
#include "gpu_util.h"

#include <unistd.h>

#include <cstdio>

namespace {

std::string dirOf(bool off) {
  return gputest::artifactsDir() + "/tcc/checked_scale/" + (off ? "off_" : "") + "BLOCK256_W4";
}

// checked_scale over n elements x[i] = i + 1, with x[bad] = -1 where bad >= 0; returns out.
std::vector<float> runScale(const std::string& dir, int n, int bad) {
  std::vector<float> x(n), out(n, 0.0f);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>(i + 1);
  if (bad >= 0)
    x[bad] = -1.0f;
  const size_t bytes = n * sizeof(float);
  tcc::bench::DeviceBuffer bx(bytes), bo(bytes);
  gputest::upload(bx.get(), x.data(), bytes);
  gputest::fill32(bo.get(), 0xffffffffu, n);
  tcc::Library lib(dir);
  lib.kernel("checked_scale").launch(nullptr, bx.get(), bo.get(), n);
  gputest::synchronize();
  gputest::download(out.data(), bo.get(), bytes);
  return out;
}

size_t wrongScale(const std::vector<float>& out, int bad) {
  size_t wrong = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    float x = static_cast<int>(i) == bad ? -1.0f : static_cast<float>(i + 1);
    wrong += out[i] != 2.0f * x;
  }
  return wrong;
}

TEST(DeviceAssert, AssertionsThatHoldLeaveTheResult) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(dirOf(false) + "/checked_scale.json");
  // A ragged size: the masked-off lanes of the last program (x = 1.0 there) never assert.
  EXPECT_EQ(wrongScale(runScale(dirOf(false), 5000, -1), -1), 0u);
}

TEST(DeviceAssert, CompiledOutTheyNeverFire) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(dirOf(true) + "/checked_scale.json");
  EXPECT_EQ(wrongScale(runScale(dirOf(true), 5000, 4321), 4321), 0u);
}

TEST(DeviceAssertDeathTest, AFailingAssertionNamesItselfAndItsLine) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(dirOf(false) + "/checked_scale.json");
  GTEST_FLAG_SET(death_test_style, "threadsafe"); // a fresh process: its own CUDA context
  EXPECT_EXIT(
      {
        // The device's message goes to standard output: into what the death test reads.
        std::fflush(stdout);
        ::dup2(2, 1);
        try {
          runScale(dirOf(false), 5000, 4321);
        } catch (const tcc::Error& e) {
          std::fprintf(stderr, "\nerror: %s\n", e.what());
          std::fflush(stderr);
          ::_exit(3);
        }
        ::_exit(0);
      },
      testing::ExitedWithCode(3),
      "checked_scale.tile:8.*x must be positive.*error: .*CUDA_ERROR_ASSERT.*a device_assert "
      "failed");
}

} // namespace
