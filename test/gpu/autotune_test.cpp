// Autotuning on the GPU (docs/autotuning.md): lang-examples/autotune.tile (an in-place axpy
// over six configurations kept of seven), built as a new user builds it -- `tcc
// autotune.tile --emit=cubin`, the whole space in one folder (scripts/build-artifacts.sh,
// DIR/kinds/default/autotune) -- then launched through tcc::Library: the first launch for a
// key benchmarks the configurations with the launch's own arguments, restoring y around the
// trials, so the result is a * x + y exactly once; the choice is within the noise of the
// best an exhaustive sweep finds; keys are bucketed; and a second process reads the choice
// from the disk cache instead of tuning again.
#include "gpu_util.h"

#include "tcc/bench.h"

#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace {

std::string spaceDir() { return gputest::artifactsDir() + "/kinds/default/autotune"; }

// A cache folder of this test's own, set before any Library is made.
std::string cacheDir() {
  static std::string dir = [] {
    char pattern[] = "/tmp/tcc-autotune-test.XXXXXX";
    const char* made = mkdtemp(pattern);
    return std::string(made ? made : "/tmp");
  }();
  return dir;
}

struct Axpy {
  int64_t n;
  std::vector<float> x, y0, out;
  tcc::bench::DeviceBuffer dx, dy;
  explicit Axpy(int64_t n)
      : n(n), x(n), y0(n), out(n), dx(n * sizeof(float)), dy(n * sizeof(float)) {
    gputest::fillRandom(x.data(), n, 11);
    gputest::fillRandom(y0.data(), n, 12);
    gputest::upload(dx.get(), x.data(), n * sizeof(float));
    reset();
  }
  void reset() { gputest::upload(dy.get(), y0.data(), n * sizeof(float)); }
  // Elements of y that are not a * x + y0 (the kernel's single rounding or two: both kept).
  int64_t wrong(float a) {
    gputest::download(out.data(), dy.get(), n * sizeof(float));
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) {
      float twice = a * x[i] + y0[i];
      float fused = float(double(a) * double(x[i]) + double(y0[i]));
      bad += out[i] != twice && out[i] != fused;
    }
    return bad;
  }
};

class Autotune : public testing::Test {
protected:
  void SetUp() override {
    TCC_REQUIRE_GPU();
    if (!gputest::exists(spaceDir()))
      GTEST_FAIL() << "no autotuned artifact at " << spaceDir() << " (scripts/build-artifacts.sh)";
    setenv("TCC_CACHE_DIR", cacheDir().c_str(), 1);
  }
};

TEST_F(Autotune, InPlaceResultIsComputedOnceAndTheSpaceIsWhole) {
  tcc::Library lib(spaceDir());
  tcc::Kernel& k = lib.kernel("axpy");
  ASSERT_TRUE(k.isTuned());
  EXPECT_EQ(k.numConfigurations(), 6u) << "seven declared, one pruned";
  Axpy p(3 * 1000 * 1000 + 7);
  k.launch(nullptr, p.dy.get(), p.dx.get(), 0.5f, int32_t(p.n));
  gputest::synchronize();
  EXPECT_EQ(p.wrong(0.5f), 0) << "y must be a * x + y once, whatever the trials did";
  std::optional<tcc::TuningReport> r = k.lastTuning();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->key, "n=4194304");
  EXPECT_EQ(r->trials.size(), 6u);
  for (const tcc::TuningTrial& t : r->trials)
    EXPECT_TRUE(t.ok) << t.config << ": " << t.error;
  const tcc::KernelMetadata& chosen = k.chosen(nullptr, p.dy.get(), p.dx.get(), 0.5f, int32_t(p.n));
  ASSERT_TRUE(chosen.autotune.has_value());
  EXPECT_EQ(chosen.autotune->index, r->chosenIndex);
  std::printf("[ autotune ] n = %lld: chose configuration %d (%s) of %zu in %.1f ms\n",
              static_cast<long long>(p.n), r->chosenIndex, r->chosenConfig.c_str(),
              r->trials.size(), r->elapsedMs);
}

TEST_F(Autotune, KeysAreBucketedAndRemembered) {
  tcc::Library lib(spaceDir());
  tcc::Kernel& k = lib.kernel("axpy");
  Axpy p(1 << 20);
  k.launch(nullptr, p.dy.get(), p.dx.get(), 2.0f, int32_t(1000 * 1000)); // bucket 2^20
  size_t tuned = k.tunings().size();
  p.reset();
  k.launch(nullptr, p.dy.get(), p.dx.get(), 2.0f, int32_t(p.n)); // the same bucket
  gputest::synchronize();
  EXPECT_EQ(k.tunings().size(), tuned) << "n = 10^6 and 2^20 share a choice";
  EXPECT_EQ(p.wrong(2.0f), 0);
}

// The choice against an exhaustive sweep timed with a larger budget: at most 5% slower than
// the best configuration (the two measurements are separate runs of the same kernels).
TEST_F(Autotune, ChoiceIsWithinTheNoiseOfTheBestOfASweep) {
  tcc::Library lib(spaceDir());
  tcc::Kernel& k = lib.kernel("axpy");
  Axpy p(int64_t(1) << 26);
  const tcc::KernelMetadata& chosen = k.chosen(nullptr, p.dy.get(), p.dx.get(), 0.25f, int32_t(p.n));
  tcc::bench::Options o;
  o.budgetMs = 150;
  double best = 1e30, chosenMs = 0;
  std::string bestConfig;
  for (size_t i = 0; i < k.numConfigurations(); ++i) {
    tcc::Kernel& c = k.configuration(i);
    tcc::bench::Result r = tcc::bench::run(
        [&](CUstream s) { c.launch(s, p.dy.get(), p.dx.get(), 0.25f, int32_t(p.n)); }, o);
    if (r.median < best) {
      best = r.median;
      bestConfig = c.configString();
    }
    if (c.variants().front().autotune->index == chosen.autotune->index)
      chosenMs = r.median;
  }
  ASSERT_GT(chosenMs, 0);
  std::printf("[ autotune ] 2^26: chosen %.4f ms, best of the sweep %.4f ms (%s)\n", chosenMs,
              best, bestConfig.c_str());
  EXPECT_LE(chosenMs, best * 1.05) << "the best was " << bestConfig;
}

// The choice of the tests above is on disk: another process reads it and measures nothing.
TEST_F(Autotune, ASecondProcessReadsTheDiskCache) {
  {
    tcc::Library lib(spaceDir());
    Axpy p(1 << 22);
    lib.kernel("axpy").launch(nullptr, p.dy.get(), p.dx.get(), 1.0f, int32_t(p.n));
    gputest::synchronize();
  }
  std::string self = "/proc/self/exe";
  char path[4096];
  ssize_t len = readlink(self.c_str(), path, sizeof path - 1);
  ASSERT_GT(len, 0);
  path[len] = 0;
  std::string cmd = "TCC_AUTOTUNE_CHILD=1 TCC_CACHE_DIR='" + cacheDir() + "' TCC_ARTIFACTS='" +
                    gputest::artifactsDir() + "' '" + std::string(path) +
                    "' --gtest_filter=AutotuneChild.* > '" + cacheDir() + "/child.log' 2>&1";
  int code = std::system(cmd.c_str());
  std::ifstream log(cacheDir() + "/child.log");
  std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(code, 0) << text;
  EXPECT_NE(text.find("[  PASSED  ] 1 test"), std::string::npos) << text;
}

// Run by the test above in a process of its own.
TEST(AutotuneChild, ChoiceComesFromTheDiskCache) {
  if (!std::getenv("TCC_AUTOTUNE_CHILD"))
    GTEST_SKIP() << "run by Autotune.ASecondProcessReadsTheDiskCache";
  tcc::Library lib(spaceDir());
  tcc::Kernel& k = lib.kernel("axpy");
  Axpy p(1 << 22);
  k.launch(nullptr, p.dy.get(), p.dx.get(), 1.0f, int32_t(p.n));
  gputest::synchronize();
  std::optional<tcc::TuningReport> r = k.lastTuning();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->source, tcc::TuningReport::Source::DiskCache);
  EXPECT_EQ(p.wrong(1.0f), 0);
}

} // namespace
