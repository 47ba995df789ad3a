// Scans on the GPU (issue 13 item 9): cumsum, cumprod and associative_scan of
// test/gpu/kernels/scans.tile against CPU references, on ragged sizes: along the rows of an
// 8x256 tile (registers, lanes and warps along the axis), down the columns of a 256x4 tile
// (warps along the axis), a non-commutative scan of i32 pairs (exact, wrapping) forward and
// reversed over 1024 elements, and i8 sums in i32 over a tile smaller than the program.

#include "gpu_util.h"

#include "tcc/bench.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace {

std::string scanDir() { return gputest::artifactsDir() + "/tcc/scans/W4"; }

constexpr int kBM = 8, kBN = 256, kCM = 256, kCN = 4, kL = 1024, kS = 64;

struct Sizes {
  int M, N, P, Q, n;
};

class Scans : public ::testing::TestWithParam<Sizes> {};

TEST_P(Scans, MatchCpuReferences) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(scanDir() + "/scans.json");
  const Sizes sz = GetParam();
  const size_t nx = size_t(std::max(sz.M * sz.N, sz.P * sz.Q));
  std::vector<float> x(std::max<size_t>(nx, 1));
  gputest::fillRandom(x.data(), x.size(), 1234 + uint64_t(sz.n));
  std::mt19937 gen(uint32_t(sz.n) * 7 + 1);
  std::uniform_int_distribution<int32_t> any(std::numeric_limits<int32_t>::min(),
                                             std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int> small(-128, 127);
  const size_t n = size_t(sz.n);
  std::vector<int32_t> xi(std::max<size_t>(2 * n, 1));
  for (auto &v : xi)
    v = any(gen);
  std::vector<int8_t> xb(std::max<size_t>(n, 1));
  for (auto &v : xb)
    v = int8_t(small(gen));

  const size_t plane = size_t(sz.M) * size_t(sz.N), cplane = size_t(sz.P) * size_t(sz.Q);
  tcc::bench::DeviceBuffer bx(4 * x.size()), bxi(4 * xi.size()), bxb(xb.size()),
      brows(4 * std::max<size_t>(4 * plane, 1)), bcounts(4 * std::max<size_t>(plane, 1)),
      bcols(4 * std::max<size_t>(2 * cplane, 1)), brec(4 * std::max<size_t>(4 * n, 1)),
      bsmall(4 * 2 * kS);
  gputest::upload(bx.get(), x.data(), 4 * x.size());
  gputest::upload(bxi.get(), xi.data(), 4 * xi.size());
  gputest::upload(bxb.get(), xb.data(), xb.size());
  gputest::fill32(brows.get(), 0x7fbadbadu, std::max<size_t>(4 * plane, 1));
  gputest::fill32(bcounts.get(), 0xdeadbeefu, std::max<size_t>(plane, 1));
  gputest::fill32(bcols.get(), 0x7fbadbadu, std::max<size_t>(2 * cplane, 1));
  gputest::fill32(brec.get(), 0xdeadbeefu, std::max<size_t>(4 * n, 1));
  gputest::fill32(bsmall.get(), 0xdeadbeefu, 2 * kS);
  tcc::Library lib(scanDir());
  lib.kernel("scans").launch(nullptr, bx.get(), bxi.get(), bxb.get(), brows.get(),
                             bcounts.get(), bcols.get(), brec.get(), bsmall.get(), sz.M, sz.N,
                             sz.P, sz.Q, sz.n);
  gputest::synchronize();
  std::vector<float> rows(4 * plane), cols(2 * cplane);
  std::vector<int32_t> counts(plane), rec(4 * n), smallOut(2 * kS);
  gputest::download(rows.data(), brows.get(), 4 * rows.size());
  gputest::download(counts.data(), bcounts.get(), 4 * counts.size());
  gputest::download(cols.data(), bcols.get(), 4 * cols.size());
  gputest::download(rec.data(), brec.get(), 4 * rec.size());
  gputest::download(smallOut.data(), bsmall.get(), 4 * smallOut.size());

  // Sums in double, compared at a tolerance that grows with the magnitudes summed (the GPU
  // adds in another order than a running sum).
  auto close = [](double got, double want, double scale) {
    return std::fabs(got - want) <= 1e-5 * scale + 1e-6;
  };
  for (int i = 0; i < sz.M; ++i) {
    const float *row = &x[size_t(i) * size_t(sz.N)];
    double sum = 0, mag = 0, mx = -INFINITY;
    int32_t count = 0;
    for (int j = 0; j < sz.N; ++j) {
      sum += row[j];
      mag += std::fabs(row[j]);
      mx = std::max<double>(mx, row[j]);
      count += row[j] > 0;
      size_t at = size_t(i) * size_t(sz.N) + size_t(j);
      ASSERT_TRUE(close(rows[at], sum, mag)) << "cumsum row " << i << " col " << j << ": "
                                             << rows[at] << " vs " << sum;
      ASSERT_EQ(rows[3 * plane + at], float(mx)) << "running max row " << i << " col " << j;
      ASSERT_EQ(counts[at], count) << "cumsum(x > 0) row " << i << " col " << j;
    }
    double rsum = 0, rmag = 0, prod = 1;
    for (int j = sz.N - 1; j >= 0; --j) {
      rsum += row[j];
      rmag += std::fabs(row[j]);
      prod *= double(1.0f + row[j] * 0.01f);
      size_t at = size_t(i) * size_t(sz.N) + size_t(j);
      ASSERT_TRUE(close(rows[plane + at], rsum, rmag))
          << "reverse cumsum row " << i << " col " << j << ": " << rows[plane + at] << " vs "
          << rsum;
      // f32: a product beyond FLT_MAX is an infinity of its sign on the GPU.
      const double tol = 1e-5 * std::fabs(prod) * (sz.N - j);
      const float got = rows[2 * plane + at];
      if (std::fabs(prod) + tol >= double(std::numeric_limits<float>::max()) && std::isinf(got))
        ASSERT_EQ(got > 0, prod > 0) << "reverse cumprod row " << i << " col " << j;
      else
        ASSERT_NEAR(got, prod, tol) << "reverse cumprod row " << i << " col " << j;
    }
  }
  for (int j = 0; j < sz.Q; ++j) {
    double sum = 0, mag = 0;
    for (int i = 0; i < sz.P; ++i) {
      size_t at = size_t(i) * size_t(sz.Q) + size_t(j);
      sum += x[at];
      mag += std::fabs(x[at]);
      ASSERT_TRUE(close(cols[at], sum, mag)) << "column cumsum " << i << ", " << j;
    }
    sum = mag = 0;
    for (int i = sz.P - 1; i >= 0; --i) {
      size_t at = size_t(i) * size_t(sz.Q) + size_t(j);
      sum += x[at];
      mag += std::fabs(x[at]);
      ASSERT_TRUE(close(cols[cplane + at], sum, mag)) << "reverse column cumsum " << i << ", " << j;
    }
  }
  // (m1, c1) then (m2, c2) is (m1 m2, c1 m2 + c2), in wrapping 32-bit arithmetic.
  uint32_t fm = 1, fc = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t m = uint32_t(xi[i]), c = uint32_t(xi[n + i]);
    fc = fc * m + c;
    fm = fm * m;
    ASSERT_EQ(uint32_t(rec[i]), fm) << "forward m at " << i;
    ASSERT_EQ(uint32_t(rec[n + i]), fc) << "forward c at " << i;
  }
  uint32_t bm = 1, bc = 0;
  for (size_t i = n; i-- > 0;) {
    uint32_t m = uint32_t(xi[i]), c = uint32_t(xi[n + i]);
    bc = bc * m + c;
    bm = bm * m;
    ASSERT_EQ(uint32_t(rec[2 * n + i]), bm) << "reversed m at " << i;
    ASSERT_EQ(uint32_t(rec[3 * n + i]), bc) << "reversed c at " << i;
  }
  int32_t s = 0;
  const int ns = std::min(sz.n, kS);
  for (int i = 0; i < ns; ++i) {
    s += xb[size_t(i)];
    ASSERT_EQ(smallOut[size_t(i)], s) << "i8 cumsum at " << i;
  }
  s = 0;
  for (int i = ns - 1; i >= 0; --i) {
    s += xb[size_t(i)];
    ASSERT_EQ(smallOut[size_t(kS + i)], s) << "i8 reverse cumsum at " << i;
  }
}

// Full tiles, one element, and ragged sizes that end inside a thread's run, a lane and a warp.
INSTANTIATE_TEST_SUITE_P(Sizes, Scans,
                         ::testing::Values(Sizes{kBM, kBN, kCM, kCN, kL}, Sizes{1, 1, 1, 1, 1},
                                           Sizes{3, 129, 130, 3, 1000}, Sizes{8, 37, 255, 4, 63},
                                           Sizes{5, 255, 64, 2, 513}));

} // namespace
