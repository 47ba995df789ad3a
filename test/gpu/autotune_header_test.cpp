// An autotuned kernel in a generated header with a tuning table (docs/autotuning.md):
// lang-examples/autotune.tile (the in-place axpy) built by scripts/build-artifacts.sh as
// `tcc autotune.tile --emit=header --namespace tuned_axpy --tuning T.json` into
// <artifacts>/headers/tcc_kernels/axpy_tuned.h, with a table choosing configuration 3
// (BLOCK=2048, num_warps=8) for n = 2^20 and n = 1000 (bucket 1024) on an H200 and, by compute
// capability, any sm_90 GPU. A launch of a key in the table measures nothing: the choice is
// the table's, nothing is written to the disk cache, and y is a * x + y exactly once; a key
// outside it is benchmarked (restoring y) and still exact.
#include "gpu_util.h"

#include "tcc/bench.h"
#include "tcc/runtime.h"

#include <cstdlib>
#include <filesystem>

#if __has_include(<tcc_kernels/axpy_tuned.h>)
#include <tcc_kernels/axpy_tuned.h>
#define TCC_HAVE_TUNED_HEADER 1
#else
#define TCC_HAVE_TUNED_HEADER 0
#endif

namespace {

#if TCC_HAVE_TUNED_HEADER
// Elements of y that are not a * x + y0 (one rounding or two: both kept).
int64_t wrongAxpy(const std::vector<float>& x, const std::vector<float>& y0, CUdeviceptr y,
                  float a) {
  std::vector<float> out(x.size());
  gputest::download(out.data(), y, out.size() * sizeof(float));
  int64_t bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    float twice = a * x[i] + y0[i];
    float fused = float(double(a) * double(x[i]) + double(y0[i]));
    bad += out[i] != twice && out[i] != fused;
  }
  return bad;
}
#endif

TEST(AutotunedHeader, TheTableChoosesWithoutBenchmarking) {
  TCC_REQUIRE_GPU();
#if !TCC_HAVE_TUNED_HEADER
  GTEST_FAIL() << "built without <tcc_kernels/axpy_tuned.h>: run scripts/build-artifacts.sh "
                  "before configuring, with -DTCC_ARTIFACTS=<dir>";
#else
  if (tcc::deviceComputeCapability() != 90)
    GTEST_SKIP() << "the header's table is for sm_90 GPUs; this one is sm_"
                 << tcc::deviceComputeCapability();
  // A disk cache of this test's own, empty: the cache comes before the table.
  char pattern[] = "/tmp/tcc-tuned-header.XXXXXX";
  const char* cache = mkdtemp(pattern);
  ASSERT_NE(cache, nullptr);
  const char* previous = std::getenv("TCC_CACHE_DIR");
  const std::string kept = previous ? previous : "";
  ::setenv("TCC_CACHE_DIR", cache, 1);
  ::unsetenv("TCC_AUTOTUNE");
  ::tcc::EmbeddedTuning& tuning = tuned_axpy::tcc_embedded_axpy::tuning();
  ASSERT_EQ(tuning.tunings().size(), 0u);

  const float a = 1.5f;
  for (int64_t n : {int64_t(1) << 20, int64_t(1000)}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<float> x(n), y0(n);
    gputest::fillRandom(x.data(), n, 21);
    gputest::fillRandom(y0.data(), n, 22);
    tcc::bench::DeviceBuffer dx(n * sizeof(float)), dy(n * sizeof(float));
    gputest::upload(dx.get(), x.data(), n * sizeof(float));
    gputest::upload(dy.get(), y0.data(), n * sizeof(float));
    size_t before = tuning.tunings().size();
    tuned_axpy::axpy(nullptr, dy.get(), dx.get(), a, int32_t(n));
    gputest::synchronize();
    EXPECT_EQ(wrongAxpy(x, y0, dy.get(), a), 0);
    std::vector<tcc::TuningReport> reports = tuning.tunings();
    ASSERT_EQ(reports.size(), before + 1);
    const tcc::TuningReport& r = reports.back();
    EXPECT_EQ(r.source, tcc::TuningReport::Source::TuningTable) << r.origin;
    EXPECT_EQ(r.key, n == 1000 ? "n=1024" : "n=1048576");
    EXPECT_EQ(r.chosenIndex, 3);
    EXPECT_EQ(r.chosenConfig, "BLOCK=2048, num_warps=8, num_stages=3");
    for (const tcc::TuningTrial& t : r.trials)
      EXPECT_EQ(t.reps, 0) << "configuration " << t.index << " was measured";
    // A second launch of the key is one lookup: no new choice.
    tuned_axpy::axpy(nullptr, dy.get(), dx.get(), a, int32_t(n));
    gputest::synchronize();
    EXPECT_EQ(tuning.tunings().size(), before + 1);
  }
  // Nothing was measured, so nothing was written to the disk cache.
  EXPECT_TRUE(std::filesystem::is_empty(cache)) << cache;

  // A key the table lacks is tuned here: benchmarked with y restored around the trials.
  const int64_t n = 3 << 20;
  std::vector<float> x(n), y0(n);
  gputest::fillRandom(x.data(), n, 23);
  gputest::fillRandom(y0.data(), n, 24);
  tcc::bench::DeviceBuffer dx(n * sizeof(float)), dy(n * sizeof(float));
  gputest::upload(dx.get(), x.data(), n * sizeof(float));
  gputest::upload(dy.get(), y0.data(), n * sizeof(float));
  tuned_axpy::axpy(nullptr, dy.get(), dx.get(), a, int32_t(n));
  gputest::synchronize();
  EXPECT_EQ(wrongAxpy(x, y0, dy.get(), a), 0);
  const tcc::TuningReport r = tuning.tunings().back();
  EXPECT_EQ(r.source, tcc::TuningReport::Source::Benchmark);
  EXPECT_EQ(r.key, "n=4194304");
  EXPECT_EQ(r.trials.size(), tuning.numConfigurations());
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
  if (previous)
    ::setenv("TCC_CACHE_DIR", kept.c_str(), 1);
  else
    ::unsetenv("TCC_CACHE_DIR");
#endif
}

} // namespace
