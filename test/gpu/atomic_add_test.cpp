// atomic_add on the GPU: a histogram where many programs add into the same eight bins.
// The bins must count exactly, the old values returned for one bin must be 0..count-1
// each exactly once (every addition saw a distinct predecessor), masked lanes add nothing,
// and the scalar form adds each program's sum once (checked to f32 rounding).

#include "gpu_util.h"

#include "tcc/bench.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace {

std::string histogramDir() { return gputest::artifactsDir() + "/tcc/histogram/BLOCK64_W2"; }

class AtomicAdd : public ::testing::TestWithParam<int32_t> {};

TEST_P(AtomicAdd, HistogramCountsAndOldValues) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(histogramDir() + "/histogram.json");
  const int32_t n = GetParam();
  std::vector<int32_t> x(n);
  std::mt19937 rng(n);
  for (auto& v : x)
    v = int32_t(rng() & 0xfffff);
  const size_t olds_count = size_t(n) + 64; // the last program may write past n: no mask
  tcc::bench::DeviceBuffer bx(std::max<size_t>(4, 4 * size_t(n))), bhist(32),
      bolds(4 * olds_count), btotal(4);
  CUdeviceptr dx = bx.get(), dhist = bhist.get(), dolds = bolds.get(), dtotal = btotal.get();
  if (n)
    gputest::upload(dx, x.data(), 4 * size_t(n));
  gputest::fill32(dhist, 0, 8);
  gputest::fill32(dolds, 0xdeadbeef, olds_count);
  gputest::fill32(dtotal, 0, 1);

  tcc::Library lib(histogramDir());
  lib.kernel("histogram").launch(nullptr, dx, dhist, dolds, dtotal, n);
  gputest::synchronize();

  std::vector<int32_t> hist(8), olds(olds_count);
  float total = 0;
  gputest::download(hist.data(), dhist, 32);
  gputest::download(olds.data(), dolds, 4 * olds_count);
  gputest::download(&total, dtotal, 4);
  std::vector<int32_t> bins(8, 0);
  double sum = 0;
  for (int32_t v : x) {
    bins[v % 8]++;
    sum += v;
  }
  EXPECT_EQ(hist, bins);
  for (int b = 0; b < 8; ++b) {
    std::vector<int32_t> seen;
    for (int32_t i = 0; i < n; ++i)
      if (x[i] % 8 == b)
        seen.push_back(olds[i]);
    std::sort(seen.begin(), seen.end());
    for (size_t k = 0; k < seen.size(); ++k)
      ASSERT_EQ(seen[k], int32_t(k)) << "bin " << b << ": old values are not 0..count-1";
  }
  // Masked-off lanes of the last program add nothing and return 0.
  for (size_t i = size_t(n); i < size_t((n + 63) / 64 * 64); ++i)
    EXPECT_EQ(olds[i], 0) << "masked lane " << i;
  EXPECT_NEAR(total, sum, 1e-4 * sum + 1);
}

INSTANTIATE_TEST_SUITE_P(Sizes, AtomicAdd, ::testing::Values(0, 1, 63, 64, 200, 1000003));

} // namespace
