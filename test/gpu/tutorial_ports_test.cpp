// The ports of Triton's tutorials (lang-examples/triton/NN_*.tile, issue 13) on the GPU,
// against references computed on the host in double precision (test/examples/tutorials_test.cpp
// checks the same ports in the interpreter). Artifacts: scripts/build-artifacts.sh, under
// tcc/triton_NN/<config>/.
#include "gpu_util.h"
#include "matrix.h"
#include "tutorial_philox.h"

#include "tcc/bench.h"

#include <array>
#include <cmath>
#include <random>

namespace {

std::string portDir(const std::string &name, const std::string &config) {
  return gputest::artifactsDir() + "/tcc/" + name + "/" + config;
}

#define TCC_REQUIRE_ARTIFACT(dir, kernel)                                                      \
  TCC_REQUIRE_ARTIFACT_FILE(std::string(dir) + "/" kernel ".json")

std::vector<float> uniform(size_t n, uint32_t seed, float lo = -1, float hi = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(gen);
  return v;
}

//===----------------------------------------------------------------------===//
// 01 vector add
//===----------------------------------------------------------------------===//

class VectorAdd01 : public ::testing::TestWithParam<int32_t> {};

TEST_P(VectorAdd01, ExactF32Sum) {
  TCC_REQUIRE_GPU();
  const std::string dir = portDir("triton_01_vector_add", "BLOCK_SIZE1024_W4");
  TCC_REQUIRE_ARTIFACT(dir, "add_kernel");
  const int32_t n = GetParam();
  std::vector<float> x = uniform(size_t(n), 1), y = uniform(size_t(n), 2);
  tcc::bench::DeviceBuffer bx(4 * size_t(n)), by(4 * size_t(n)), bo(4 * size_t(n) + 64);
  gputest::upload(bx.get(), x.data(), 4 * size_t(n));
  gputest::upload(by.get(), y.data(), 4 * size_t(n));
  gputest::fill32(bo.get(), 0x7fbadbadu, size_t(n) + 16);
  tcc::Library lib(dir);
  lib.kernel("add_kernel").launch(nullptr, bx.get(), by.get(), bo.get(), n);
  gputest::synchronize();
  std::vector<float> out(size_t(n) + 16);
  gputest::download(out.data(), bo.get(), 4 * out.size());
  for (size_t i = 0; i < size_t(n); ++i)
    ASSERT_EQ(gputest::bitsOf(out[i]), gputest::bitsOf(float(double(x[i]) + double(y[i]))))
        << "element " << i;
  for (size_t i = size_t(n); i < out.size(); ++i)
    ASSERT_EQ(gputest::bitsOf(out[i]), 0x7fbadbadu) << "written past the end at " << i;
}

INSTANTIATE_TEST_SUITE_P(Sizes, VectorAdd01, ::testing::Values(1, 1023, 98432, 1 << 22));

//===----------------------------------------------------------------------===//
// 02 fused softmax (persistent: grid min(num_sms * occupancy, n_rows))
//===----------------------------------------------------------------------===//

struct SoftmaxCase {
  int32_t rows, cols;
  const char *config;
};

class FusedSoftmax02 : public ::testing::TestWithParam<SoftmaxCase> {};

TEST_P(FusedSoftmax02, MatchesDoublePrecision) {
  TCC_REQUIRE_GPU();
  const SoftmaxCase c = GetParam();
  const std::string dir = portDir("triton_02_fused_softmax", c.config);
  TCC_REQUIRE_ARTIFACT(dir, "softmax_kernel");
  const int32_t inStride = c.cols + 3, outStride = c.cols;
  const size_t inN = size_t(c.rows) * size_t(inStride), outN = size_t(c.rows) * size_t(outStride);
  std::vector<float> x = uniform(inN, 3, -100, 100);
  tcc::bench::DeviceBuffer bx(4 * inN), bo(4 * outN);
  gputest::upload(bx.get(), x.data(), 4 * inN);
  gputest::fill32(bo.get(), 0x7fbadbadu, outN);
  tcc::Library lib(dir);
  lib.kernel("softmax_kernel").launch(nullptr, bo.get(), bx.get(), inStride, outStride, c.rows, c.cols);
  gputest::synchronize();
  std::vector<float> out(outN);
  gputest::download(out.data(), bo.get(), 4 * outN);
  double worst = 0;
  for (int32_t i = 0; i < c.rows; ++i) {
    const float *row = &x[size_t(i) * size_t(inStride)];
    double mx = -INFINITY, sum = 0;
    for (int32_t j = 0; j < c.cols; ++j)
      mx = std::max(mx, double(row[j]));
    for (int32_t j = 0; j < c.cols; ++j)
      sum += std::exp(double(row[j]) - mx);
    for (int32_t j = 0; j < c.cols; ++j) {
      double want = std::exp(double(row[j]) - mx) / sum;
      double got = out[size_t(i) * size_t(outStride) + size_t(j)];
      double err = std::fabs(got - want);
      worst = std::max(worst, err / (1e-6 + 1e-4 * want));
      ASSERT_LE(err, 1e-6 + 1e-4 * want) << "row " << i << ", column " << j;
    }
  }
  std::printf("tutorial 02 %dx%d: worst error %.3g of the tolerance\n", c.rows, c.cols, worst);
}

INSTANTIATE_TEST_SUITE_P(Shapes, FusedSoftmax02,
                         ::testing::Values(SoftmaxCase{1823, 781, "BLOCK_SIZE1024_W8"},
                                           SoftmaxCase{4096, 1024, "BLOCK_SIZE1024_W8"},
                                           SoftmaxCase{1, 1, "BLOCK_SIZE1024_W8"},
                                           SoftmaxCase{4096, 4000, "BLOCK_SIZE4096_W8"}));

//===----------------------------------------------------------------------===//
// 03 matrix multiplication (grouped ordering, fused leaky ReLU)
//===----------------------------------------------------------------------===//

struct MatmulCase {
  int32_t m, n, k;
  const char *config;
  bool leaky;
};

class MatrixMultiplication03 : public ::testing::TestWithParam<MatmulCase> {};

TEST_P(MatrixMultiplication03, MatchesDoublePrecision) {
  TCC_REQUIRE_GPU();
  const MatmulCase c = GetParam();
  const std::string dir = portDir("triton_03_matrix_multiplication", c.config);
  TCC_REQUIRE_ARTIFACT(dir, "matmul_kernel");
  const size_t am = size_t(c.m) * size_t(c.k), bm = size_t(c.k) * size_t(c.n),
               cm = size_t(c.m) * size_t(c.n);
  std::vector<float> a = uniform(am, 11), b = uniform(bm, 12);
  std::vector<uint16_t> ah(am), bh(bm);
  for (size_t i = 0; i < am; ++i)
    a[i] = gputest::halfToFloat(ah[i] = gputest::floatToHalf(a[i]));
  for (size_t i = 0; i < bm; ++i)
    b[i] = gputest::halfToFloat(bh[i] = gputest::floatToHalf(b[i]));
  tcc::bench::DeviceBuffer ba(2 * am), bb(2 * bm), bc(2 * cm + 64);
  gputest::upload(ba.get(), ah.data(), 2 * am);
  gputest::upload(bb.get(), bh.data(), 2 * bm);
  tcc::Library lib(dir);
  lib.kernel("matmul_kernel")
      .launch(nullptr, ba.get(), bb.get(), bc.get(), c.m, c.n, c.k, c.k, 1, c.n, 1, c.n, 1);
  gputest::synchronize();
  std::vector<uint16_t> out(cm);
  gputest::download(out.data(), bc.get(), 2 * cm);
  for (int32_t i = 0; i < c.m; ++i)
    for (int32_t j = 0; j < c.n; ++j) {
      double v = 0, mag = 0;
      for (int32_t k = 0; k < c.k; ++k) {
        double p = double(a[size_t(i) * size_t(c.k) + size_t(k)]) * b[size_t(k) * size_t(c.n) + size_t(j)];
        v += p;
        mag += std::fabs(p);
      }
      if (c.leaky && v < 0) {
        v *= 0.01;
        mag *= 0.01;
      }
      // f32 accumulation in any order (tensor cores), then the f16 rounding of C.
      double tol = double(c.k + 1) * 0x1p-23 * mag + 0x1p-11 * std::fabs(v) + 0x1p-24;
      double got = gputest::halfToFloat(out[size_t(i) * size_t(c.n) + size_t(j)]);
      ASSERT_LE(std::fabs(got - v), tol) << "C[" << i << ", " << j << "]";
    }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, MatrixMultiplication03,
    // 272 x 400 x 96: multiples of 16 (the aligned variant, versioned by tile-version-signs)
    // whose `% M` and `% N` wrap inside a tile.
    ::testing::Values(MatmulCase{512, 512, 512, "c3_W4_S4", false},
                      MatmulCase{272, 400, 96, "c3_W4_S4", false},
                      MatmulCase{512, 512, 512, "c0_W8_S3", false},
                      MatmulCase{272, 400, 96, "c0_W8_S3", false},
                      MatmulCase{512, 512, 512, "c3_leaky_W4_S4", true},
                      MatmulCase{1000, 333, 77, "c3_leaky_W4_S4", true},
                      MatmulCase{512, 512, 512, "c0_leaky_W8_S3", true},
                      MatmulCase{1000, 333, 77, "c15_leaky_W4_S4", true},
                      MatmulCase{1, 1, 1, "c15_leaky_W4_S4", true}));

//===----------------------------------------------------------------------===//
// 04 low-memory dropout: Triton's Philox, bit for bit
//===----------------------------------------------------------------------===//

/// The distance from `f` to the next float away from zero.
double ulp(float f) {
  f = std::fabs(f);
  return double(std::nextafter(f, INFINITY)) - double(f);
}

struct RandomCase {
  int64_t seed;
  int32_t base;
  int64_t base64;
  int32_t n;
};

class TutorialRandom : public ::testing::TestWithParam<RandomCase> {};

TEST_P(TutorialRandom, PhiloxBitsMatchTriton) {
  TCC_REQUIRE_GPU();
  const RandomCase c = GetParam();
  const std::string dir = portDir("tutorial_random", "BLOCK256_W4");
  TCC_REQUIRE_ARTIFACT(dir, "tutorial_random");
  const size_t n = size_t(c.n);
  tcc::bench::DeviceBuffer bw(16 * n), bu(4 * n), bn(4 * n), bwide(4 * n);
  tcc::Library lib(dir);
  lib.kernel("tutorial_random")
      .launch(nullptr, bw.get(), bu.get(), bn.get(), bwide.get(), c.seed, c.base, c.base64, c.n);
  gputest::synchronize();
  std::vector<uint32_t> words(4 * n), wide(n);
  std::vector<float> uni(n), nrm(n);
  gputest::download(words.data(), bw.get(), 16 * n);
  gputest::download(uni.data(), bu.get(), 4 * n);
  gputest::download(nrm.data(), bn.get(), 4 * n);
  gputest::download(wide.data(), bwide.get(), 4 * n);
  double worstNormal = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t off = uint32_t(c.base) + uint32_t(i);
    std::array<uint32_t, 4> w = tutorial_philox::philox(uint64_t(c.seed), off, false);
    for (size_t k = 0; k < 4; ++k)
      ASSERT_EQ(words[4 * i + k], w[k]) << "randint4x word " << k << " at offset " << off;
    float u = tutorial_philox::uniform(w[0]);
    ASSERT_EQ(gputest::bitsOf(uni[i]), gputest::bitsOf(u)) << "rand at offset " << off;
    ASSERT_TRUE(u >= 0.0f && u < 1.0f);
    double u1 = std::max(double(tutorial_philox::uniform(w[0])), 1e-7);
    double u2 = tutorial_philox::uniform(w[1]);
    const double radius = std::sqrt(-2.0 * std::log(u1));
    double want = radius * std::cos(6.283185307179586 * u2);
    // The GPU's lg2.approx, sqrt and cos.approx in f32 (as Triton's). Two terms: cos's error
    // times the radius (up to 5.7), and lg2.approx's absolute error (about 2^-22 near 1, so
    // ln u1 is off by up to ~1.7e-7) through r = sqrt(-2 ln u1), which moves r by that over
    // r: for u1 near 1 the radius is small and relatively inexact (at offset 151982 of seed
    // 123 a value of 0.0009 was 2.4e-5 off).
    double err = std::fabs(nrm[i] - want);
    worstNormal = std::max(worstNormal, err);
    ASSERT_LE(err, 2e-5 * (1 + radius) + 2e-7 / radius) << "randn at offset " << off;
    const uint64_t off64 = uint64_t(c.base64) + i;
    ASSERT_EQ(wide[i], tutorial_philox::philox(uint64_t(c.seed), off64, true)[0])
        << "randint of the 64-bit offset " << off64;
  }
  std::printf("randn: worst absolute error %.3g\n", worstNormal);
}

INSTANTIATE_TEST_SUITE_P(
    Seeds, TutorialRandom,
    ::testing::Values(RandomCase{0, 0, 0, 1000}, RandomCase{123, 0, int64_t(1) << 32, 1 << 20},
                      RandomCase{-7, 1000000, -5, 4097},
                      RandomCase{int64_t(0x123456789abcdefll), -100, int64_t(0x7fffffff), 3000}));

struct DropoutCase {
  int32_t n;
  float p;
  int32_t seed;
};

class LowMemoryDropout04 : public ::testing::TestWithParam<DropoutCase> {};

TEST_P(LowMemoryDropout04, SameMaskAsTriton) {
  TCC_REQUIRE_GPU();
  const DropoutCase c = GetParam();
  const std::string dir = portDir("triton_04_low_memory_dropout", "seeded_BLOCK_SIZE1024_W4");
  TCC_REQUIRE_ARTIFACT(dir, "_seeded_dropout");
  const size_t n = size_t(c.n);
  std::vector<float> x = uniform(n, 21, 0.5f, 2.0f); // never 0: a dropped element is 0
  tcc::bench::DeviceBuffer bx(4 * n), bo(4 * n + 64);
  gputest::upload(bx.get(), x.data(), 4 * n);
  gputest::fill32(bo.get(), 0x7fbadbadu, n + 16);
  tcc::Library lib(dir);
  lib.kernel("_seeded_dropout").launch(nullptr, bx.get(), bo.get(), c.n, c.p, c.seed);
  gputest::synchronize();
  std::vector<float> out(n + 16);
  gputest::download(out.data(), bo.get(), 4 * out.size());
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    bool keep = tutorial_philox::rand(c.seed, int32_t(i)) > c.p;
    kept += keep;
    if (!keep) {
      ASSERT_EQ(out[i], 0.0f) << "element " << i << " should be dropped";
      continue;
    }
    float want = x[i] / (1.0f - c.p);
    // f32 division on the GPU is div.full.f32 (as Triton's): within 2 ulp.
    ASSERT_LE(std::fabs(double(out[i]) - double(want)), 2 * ulp(want)) << "element " << i;
  }
  for (size_t i = n; i < out.size(); ++i)
    ASSERT_EQ(gputest::bitsOf(out[i]), 0x7fbadbadu) << "written past the end at " << i;
  if (n >= 100000) {
    EXPECT_NEAR(double(kept) / double(n), 1.0 - c.p, 0.01);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, LowMemoryDropout04,
                         ::testing::Values(DropoutCase{10, 0.5f, 123}, DropoutCase{10, 0.5f, 512},
                                           DropoutCase{1 << 20, 0.5f, 123},
                                           DropoutCase{1000003, 0.1f, -1}));

TEST(LowMemoryDropout04Baseline, KeepMask) {
  TCC_REQUIRE_GPU();
  const std::string dir = portDir("triton_04_low_memory_dropout", "plain_BLOCK_SIZE1024_W4");
  TCC_REQUIRE_ARTIFACT(dir, "_dropout");
  const int32_t n = 100000;
  std::vector<float> x = uniform(size_t(n), 22, 0.5f, 2.0f);
  std::vector<int32_t> keep(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i)
    keep[size_t(i)] = (i * 7919) % 3 == 0 ? 0 : ((i % 5) - 2); // non-zero (negative too) keeps
  tcc::bench::DeviceBuffer bx(4 * size_t(n)), bk(4 * size_t(n)), bo(4 * size_t(n));
  gputest::upload(bx.get(), x.data(), 4 * size_t(n));
  gputest::upload(bk.get(), keep.data(), 4 * size_t(n));
  tcc::Library lib(dir);
  lib.kernel("_dropout").launch(nullptr, bx.get(), bk.get(), bo.get(), n, 0.5f);
  gputest::synchronize();
  std::vector<float> out(static_cast<size_t>(n));
  gputest::download(out.data(), bo.get(), 4 * size_t(n));
  for (size_t i = 0; i < size_t(n); ++i)
    ASSERT_EQ(out[i], keep[i] != 0 ? x[i] * 2.0f : 0.0f) << "element " << i;
}

//===----------------------------------------------------------------------===//
// 05 layer norm: forward, backward with the spin-locked partial sums, dw/db
//===----------------------------------------------------------------------===//

struct LayerNormCase {
  int32_t m, n, groups;
  const char *config; // folder suffix of the three kernels' artifacts
};

class LayerNorm05 : public ::testing::TestWithParam<LayerNormCase> {};

std::vector<uint16_t> toHalf(const std::vector<float> &v, std::vector<float> &rounded) {
  std::vector<uint16_t> h(v.size());
  rounded.resize(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    rounded[i] = gputest::halfToFloat(h[i] = gputest::floatToHalf(v[i]));
  return h;
}

TEST_P(LayerNorm05, ForwardAndBackwardMatchDoublePrecision) {
  TCC_REQUIRE_GPU();
  const LayerNormCase c = GetParam();
  const std::string base = std::string("triton_05_layer_norm");
  const std::string fwdDir = portDir(base, std::string("fwd_") + c.config);
  const std::string bwdDir = portDir(base, std::string("bwd_") + c.config);
  const std::string dwdbDir = portDir(base, "dwdb_BLOCK_SIZE_M32_BLOCK_SIZE_N128_W4");
  TCC_REQUIRE_ARTIFACT(fwdDir, "_layer_norm_fwd_fused");
  TCC_REQUIRE_ARTIFACT(bwdDir, "_layer_norm_bwd_dx_fused");
  TCC_REQUIRE_ARTIFACT(dwdbDir, "_layer_norm_bwd_dwdb");
  const int32_t m = c.m, n = c.n, g = c.groups, stride = n;
  const size_t mn = size_t(m) * size_t(n);
  std::vector<float> x, w, b, dy;
  std::vector<float> x0 = uniform(mn, 41, -1, 1), w0 = uniform(size_t(n), 42, 0, 1),
                     b0 = uniform(size_t(n), 43, 0, 1), dy0 = uniform(mn, 44, -0.1f, 0.1f);
  for (float &v : x0)
    v = -2.3f + 0.5f * v;
  std::vector<uint16_t> xh = toHalf(x0, x), wh = toHalf(w0, w), bh = toHalf(b0, b),
                        dyh = toHalf(dy0, dy);
  tcc::bench::DeviceBuffer dX(2 * mn), dY(2 * mn), dW(2 * size_t(n)), dB(2 * size_t(n)),
      dMean(4 * size_t(m)), dRstd(4 * size_t(m)), dDY(2 * mn), dDX(2 * mn),
      dPW(2 * size_t(g) * size_t(n) + 4), dPB(2 * size_t(g) * size_t(n) + 4), dLock(4 * 2 * size_t(g)),
      dFW(2 * size_t(n)), dFB(2 * size_t(n));
  gputest::upload(dX.get(), xh.data(), 2 * mn);
  gputest::upload(dW.get(), wh.data(), 2 * size_t(n));
  gputest::upload(dB.get(), bh.data(), 2 * size_t(n));
  gputest::upload(dDY.get(), dyh.data(), 2 * mn);
  gputest::fill32(dPW.get(), 0, (size_t(g) * size_t(n) + 1) / 2); // torch.zeros
  gputest::fill32(dPB.get(), 0, (size_t(g) * size_t(n) + 1) / 2);
  gputest::fill32(dLock.get(), 0, 2 * size_t(g));
  tcc::Library fwd(fwdDir), bwd(bwdDir), dwdb(dwdbDir);
  fwd.kernel("_layer_norm_fwd_fused")
      .launch(nullptr, dX.get(), dY.get(), dW.get(), dB.get(), dMean.get(), dRstd.get(), stride, n,
              1e-5f, m);
  bwd.kernel("_layer_norm_bwd_dx_fused")
      .launch(nullptr, dDX.get(), dDY.get(), dPW.get(), dPB.get(), dX.get(), dW.get(), dMean.get(),
              dRstd.get(), dLock.get(), stride, n, m);
  dwdb.kernel("_layer_norm_bwd_dwdb")
      .launch(nullptr, dPW.get(), dPB.get(), dFW.get(), dFB.get(), std::min(g, m), n);
  gputest::synchronize();
  std::vector<uint16_t> y(mn), dx(mn), fw(static_cast<size_t>(n)), fb(static_cast<size_t>(n));
  std::vector<int32_t> locks(2 * size_t(g));
  gputest::download(y.data(), dY.get(), 2 * mn);
  gputest::download(dx.data(), dDX.get(), 2 * mn);
  gputest::download(fw.data(), dFW.get(), 2 * size_t(n));
  gputest::download(fb.data(), dFB.get(), 2 * size_t(n));
  gputest::download(locks.data(), dLock.get(), 4 * 2 * size_t(g));
  for (int32_t k = 0; k < g; ++k) {
    ASSERT_EQ(locks[size_t(k)], 0) << "lock " << k << " still held";
    ASSERT_EQ(locks[size_t(g + k)], k < m ? 1 : 0) << "count " << k;
  }
  std::vector<double> dwRef(static_cast<size_t>(n), 0), dwMag(static_cast<size_t>(n), 0),
      dbRef(static_cast<size_t>(n), 0);
  double worstY = 0, worstDx = 0;
  for (int32_t i = 0; i < m; ++i) {
    const size_t row = size_t(i) * size_t(stride);
    double s = 0, v = 0;
    for (int32_t j = 0; j < n; ++j)
      s += x[row + size_t(j)];
    double mean = s / n;
    for (int32_t j = 0; j < n; ++j)
      v += (x[row + size_t(j)] - mean) * (x[row + size_t(j)] - mean);
    double rstd = 1 / std::sqrt(v / n + 1e-5), c1 = 0, c2 = 0;
    for (int32_t j = 0; j < n; ++j) {
      double xhat = (x[row + size_t(j)] - mean) * rstd, wdy = double(w[size_t(j)]) * dy[row + size_t(j)];
      double want = xhat * w[size_t(j)] + b[size_t(j)];
      double err = std::fabs(gputest::halfToFloat(y[row + size_t(j)]) - want);
      worstY = std::max(worstY, err);
      ASSERT_LE(err, 1e-3 + 0x1p-10 * std::fabs(want)) << "y[" << i << ", " << j << "]";
      c1 += xhat * wdy;
      c2 += wdy;
      dwRef[size_t(j)] += dy[row + size_t(j)] * xhat;
      dwMag[size_t(j)] += std::fabs(dy[row + size_t(j)] * xhat);
      dbRef[size_t(j)] += dy[row + size_t(j)];
    }
    c1 /= n;
    c2 /= n;
    for (int32_t j = 0; j < n; ++j) {
      double xhat = (x[row + size_t(j)] - mean) * rstd, wdy = double(w[size_t(j)]) * dy[row + size_t(j)];
      double want = (wdy - (xhat * c1 + c2)) * rstd;
      double err = std::fabs(gputest::halfToFloat(dx[row + size_t(j)]) - want);
      worstDx = std::max(worstDx, err);
      ASSERT_LE(err, 1e-3 + 0x1p-10 * std::fabs(want)) << "dx[" << i << ", " << j << "]";
    }
  }
  // Each group's partial sum is rounded to f16 after each of its rows.
  const double perGroup = double((m + g - 1) / g + 1);
  for (int32_t j = 0; j < n; ++j) {
    double tw = perGroup * 0x1p-10 * (dwMag[size_t(j)] + std::fabs(dwRef[size_t(j)])) + 1e-3;
    ASSERT_LE(std::fabs(gputest::halfToFloat(fw[size_t(j)]) - dwRef[size_t(j)]), tw) << "dw[" << j << "]";
    double tb = perGroup * 0x1p-10 * 0.1 * m + 1e-3;
    ASSERT_LE(std::fabs(gputest::halfToFloat(fb[size_t(j)]) - dbRef[size_t(j)]), tb) << "db[" << j << "]";
  }
  std::printf("tutorial 05 %dx%d: worst |y - ref| %.3g, |dx - ref| %.3g\n", m, n, worstY, worstDx);
}

INSTANTIATE_TEST_SUITE_P(Shapes, LayerNorm05,
                         ::testing::Values(LayerNormCase{1151, 8192, 96, "BLOCK8192_W8"},
                                           LayerNormCase{4096, 1000, 256, "BLOCK1024_W4"},
                                           LayerNormCase{3, 1000, 256, "BLOCK1024_W4"}));

//===----------------------------------------------------------------------===//
// 07 extern functions: libdevice's asinf, linked from libdevice.10.bc
//===----------------------------------------------------------------------===//

class ExternFunctions07 : public ::testing::TestWithParam<int32_t> {};

TEST_P(ExternFunctions07, LibdeviceAsinMatchesDoublePrecision) {
  TCC_REQUIRE_GPU();
  const std::string dir = portDir("triton_07_extern_functions", "BLOCK_SIZE1024_W4");
  TCC_REQUIRE_ARTIFACT(dir, "asin_kernel");
  const int32_t n = GetParam();
  std::vector<float> x = uniform(size_t(n), 51, -1, 1);
  x[0] = 1.0f;
  if (n > 2) {
    x[1] = -1.0f;
    x[2] = 0.0f;
  }
  tcc::bench::DeviceBuffer bx(4 * size_t(n)), by(4 * size_t(n));
  gputest::upload(bx.get(), x.data(), 4 * size_t(n));
  tcc::Library lib(dir);
  lib.kernel("asin_kernel").launch(nullptr, bx.get(), by.get(), n);
  gputest::synchronize();
  std::vector<float> y(static_cast<size_t>(n));
  gputest::download(y.data(), by.get(), 4 * size_t(n));
  double worst = 0;
  for (size_t i = 0; i < size_t(n); ++i) {
    double want = std::asin(double(x[i]));
    double err = std::fabs(double(y[i]) - want) / ulp(float(want));
    worst = std::max(worst, err);
    // libdevice's __nv_asinf is within 4 ulp (CUDA's documented bound for asinf).
    ASSERT_LE(err, 4.0) << "asin(" << x[i] << ")";
  }
  std::printf("tutorial 07: asinf worst %.2f ulp\n", worst);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ExternFunctions07, ::testing::Values(1, 98432, 1 << 20));

//===----------------------------------------------------------------------===//
// 08 grouped GEMM: arrays of matrix addresses, loaded as i64 and converted to pointers
//===----------------------------------------------------------------------===//

struct GroupedCase {
  std::vector<std::array<int32_t, 3>> mnk; // multiples of the configuration's blocks
  int32_t pad;                             // extra leading-dimension elements
  const char *config;
};

class GroupedGemm08 : public ::testing::TestWithParam<GroupedCase> {};

TEST_P(GroupedGemm08, MatchesDoublePrecision) {
  TCC_REQUIRE_GPU();
  const GroupedCase c = GetParam();
  const std::string dir = portDir("triton_08_grouped_gemm", c.config);
  TCC_REQUIRE_ARTIFACT(dir, "grouped_matmul_kernel");
  const size_t g = c.mnk.size();
  std::vector<std::vector<float>> as(g), bs(g);
  std::vector<tcc::bench::DeviceBuffer> da, db, dc;
  std::vector<int64_t> aAddr, bAddr, cAddr;
  std::vector<int32_t> sizes, lds;
  for (size_t i = 0; i < g; ++i) {
    auto [m, n, k] = c.mnk[i];
    int32_t lda = k + c.pad, ldb = n + c.pad, ldc = n + 2 * c.pad;
    size_t an = size_t(m) * size_t(lda), bn = size_t(k) * size_t(ldb), cn = size_t(m) * size_t(ldc);
    as[i] = uniform(an, 80 + uint32_t(i));
    bs[i] = uniform(bn, 90 + uint32_t(i));
    std::vector<uint16_t> ah(an), bh(bn);
    for (size_t e = 0; e < an; ++e)
      as[i][e] = gputest::halfToFloat(ah[e] = gputest::floatToHalf(as[i][e]));
    for (size_t e = 0; e < bn; ++e)
      bs[i][e] = gputest::halfToFloat(bh[e] = gputest::floatToHalf(bs[i][e]));
    da.emplace_back(2 * an);
    db.emplace_back(2 * bn);
    dc.emplace_back(2 * cn);
    gputest::upload(da.back().get(), ah.data(), 2 * an);
    gputest::upload(db.back().get(), bh.data(), 2 * bn);
    gputest::fill32(dc.back().get(), 0x7e007e00u, cn / 2); // f16 NaNs: every tile is written
    aAddr.push_back(int64_t(da.back().get()));
    bAddr.push_back(int64_t(db.back().get()));
    cAddr.push_back(int64_t(dc.back().get()));
    sizes.insert(sizes.end(), {m, n, k});
    lds.insert(lds.end(), {lda, ldb, ldc});
  }
  tcc::bench::DeviceBuffer pa(8 * g), pb(8 * g), pc(8 * g), ps(12 * g), pl(12 * g);
  gputest::upload(pa.get(), aAddr.data(), 8 * g);
  gputest::upload(pb.get(), bAddr.data(), 8 * g);
  gputest::upload(pc.get(), cAddr.data(), 8 * g);
  gputest::upload(ps.get(), sizes.data(), 12 * g);
  gputest::upload(pl.get(), lds.data(), 12 * g);
  tcc::Library lib(dir);
  lib.kernel("grouped_matmul_kernel")
      .launch(nullptr, pa.get(), pb.get(), pc.get(), ps.get(), pl.get(), int32_t(g));
  gputest::synchronize();
  for (size_t i = 0; i < g; ++i) {
    auto [m, n, k] = c.mnk[i];
    int32_t lda = lds[3 * i], ldb = lds[3 * i + 1], ldc = lds[3 * i + 2];
    std::vector<uint16_t> out(size_t(m) * size_t(ldc));
    gputest::download(out.data(), dc[i].get(), 2 * out.size());
    for (int32_t r = 0; r < m; ++r)
      for (int32_t col = 0; col < n; ++col) {
        double v = 0, mag = 0;
        for (int32_t e = 0; e < k; ++e) {
          double p = double(as[i][size_t(r) * size_t(lda) + size_t(e)]) *
                     bs[i][size_t(e) * size_t(ldb) + size_t(col)];
          v += p;
          mag += std::fabs(p);
        }
        // f32 accumulation in any order (tensor cores), then the f16 rounding of C.
        double tol = double(k + 1) * 0x1p-23 * mag + 0x1p-11 * std::fabs(v) + 0x1p-24;
        double got = gputest::halfToFloat(out[size_t(r) * size_t(ldc) + size_t(col)]);
        ASSERT_LE(std::fabs(got - v), tol) << "gemm " << i << ": C[" << r << ", " << col << "]";
      }
  }
}

// The tutorial's group (1024, 512, 256, 128 square), and one of unequal shapes with padded
// leading dimensions; more tiles than programs, so programs take several.
INSTANTIATE_TEST_SUITE_P(
    Groups, GroupedGemm08,
    ::testing::Values(
        GroupedCase{{{1024, 1024, 1024}, {512, 512, 512}, {256, 256, 256}, {128, 128, 128}}, 0,
                    "c2_W4"},
        GroupedCase{{{192, 64, 96}, {64, 320, 32}, {640, 128, 256}}, 8,
                    "c2_W4"},
        GroupedCase{{{1024, 1024, 1024}, {512, 512, 512}, {256, 256, 256}, {128, 128, 128}}, 0,
                    "c3_W4"}));

//===----------------------------------------------------------------------===//
// 06 fused attention forward (tensor descriptors made in the kernel)
//===----------------------------------------------------------------------===//

/// `n` uniform fp16 values in [-1, 1): the bits in `bits`, their values returned.
std::vector<float> uniformHalf(size_t n, uint32_t seed, std::vector<uint16_t> &bits) {
  std::vector<float> v = uniform(n, seed);
  bits.resize(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = gputest::halfToFloat(bits[i] = gputest::floatToHalf(v[i]));
  return v;
}

struct AttentionCase {
  int32_t z, h, nCtx, headDim;
  bool causal;
  const char *config;
};

class FusedAttention06 : public ::testing::TestWithParam<AttentionCase> {};

TEST_P(FusedAttention06, MatchesDoublePrecision) {
  TCC_REQUIRE_GPU();
  const AttentionCase c = GetParam();
  const std::string dir = portDir("triton_06_fused_attention", c.config);
  TCC_REQUIRE_ARTIFACT(dir, "_attn_fwd");
  const size_t rows = size_t(c.z) * size_t(c.h) * size_t(c.nCtx), n = rows * size_t(c.headDim);
  std::vector<uint16_t> qh, kh, vh;
  std::vector<float> q = uniformHalf(n, 61, qh), k = uniformHalf(n, 62, kh),
                     v = uniformHalf(n, 63, vh);
  tcc::bench::DeviceBuffer bq(2 * n), bk(2 * n), bv(2 * n), bo(2 * n), bm(4 * rows);
  gputest::upload(bq.get(), qh.data(), 2 * n);
  gputest::upload(bk.get(), kh.data(), 2 * n);
  gputest::upload(bv.get(), vh.data(), 2 * n);
  const float smScale = 0.5f;
  tcc::Library lib(dir);
  // _attn_fwd(sm_scale, M, Z, H, desc_q, desc_k, desc_v, desc_o, N_CTX)
  lib.kernel("_attn_fwd")
      .launch(nullptr, smScale, bm.get(), c.z, c.h, bq.get(), bk.get(), bv.get(), bo.get(),
              c.nCtx);
  gputest::synchronize();
  std::vector<uint16_t> out(n);
  std::vector<float> lse(rows);
  gputest::download(out.data(), bo.get(), 2 * n);
  gputest::download(lse.data(), bm.get(), 4 * rows);
  const size_t d = size_t(c.headDim), nc = size_t(c.nCtx);
  std::vector<double> s(nc);
  double worst = 0;
  for (size_t bh = 0; bh < size_t(c.z) * size_t(c.h); ++bh)
    for (size_t i = 0; i < nc; ++i) {
      const size_t row = bh * nc + i;
      double mx = -INFINITY;
      for (size_t j = 0; j < nc; ++j) {
        double dot = 0;
        for (size_t e = 0; e < d; ++e)
          dot += double(q[row * d + e]) * k[(bh * nc + j) * d + e];
        s[j] = (c.causal && j > i) ? -INFINITY : dot * smScale;
        mx = std::max(mx, s[j]);
      }
      double sum = 0;
      for (size_t j = 0; j < nc; ++j)
        sum += s[j] = std::exp(s[j] - mx);
      double wantLse = (mx + std::log(sum)) / std::log(2.0);
      ASSERT_LE(std::fabs(lse[row] - wantLse), 1e-3 + 1e-4 * std::fabs(wantLse)) << "M[" << row << "]";
      for (size_t e = 0; e < d; ++e) {
        double acc = 0;
        for (size_t j = 0; j < nc; ++j)
          acc += s[j] * v[(bh * nc + j) * d + e];
        double want = acc / sum;
        double got = gputest::halfToFloat(out[row * d + e]);
        // P in fp16 before P V, exp2 on the special-function unit, O in fp16 (the
        // tutorial's test: atol 1e-2).
        double err = std::fabs(got - want);
        worst = std::max(worst, err);
        ASSERT_LE(err, 5e-3 + 1e-2 * std::fabs(want)) << "O[" << row << ", " << e << "]";
      }
    }
  std::printf("tutorial 06 Z=%d H=%d N_CTX=%d HEAD_DIM=%d%s: worst |error| %.3g\n", c.z, c.h,
              c.nCtx, c.headDim, c.causal ? " causal" : "", worst);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, FusedAttention06,
    ::testing::Values(AttentionCase{1, 2, 1024, 64, false, "hd64_c4_W4_S3"},
                      AttentionCase{1, 2, 1024, 64, true, "hd64_causal_c4_W4_S3"},
                      AttentionCase{2, 3, 256, 128, false, "hd128_c4_W4_S3"},
                      AttentionCase{2, 3, 256, 128, true, "hd128_causal_c4_W4_S3"},
                      // Every shape runs the aligned variant (N_CTX a multiple of 16; Z and
                      // H are not asked: they only scale Z * H * N_CTX), whose K and V go
                      // through tile-pipeline's cp.async rings; Z = H = 16 as well.
                      AttentionCase{16, 16, 256, 64, false, "hd64_c4_W4_S3"},
                      AttentionCase{16, 16, 256, 64, true, "hd64_causal_c4_W4_S3"},
                      AttentionCase{16, 16, 128, 128, false, "hd128_c4_W4_S3"},
                      AttentionCase{16, 16, 128, 128, true, "hd128_causal_c4_W4_S3"},
                      // Head dimension 128 also in configuration 16 (128 x 128 blocks, 8
                      // warps, 2 stages), the fastest of tcc's there.
                      AttentionCase{1, 2, 256, 128, false, "hd128_c16_W8_S2"},
                      AttentionCase{1, 2, 256, 128, true, "hd128_causal_c16_W8_S2"},
                      // Head dimension 64 also in configuration 13 (128 x 64 blocks, 4
                      // warps, 3 stages).
                      AttentionCase{1, 2, 1024, 64, false, "hd64_c13_W4_S3"},
                      AttentionCase{1, 2, 1024, 64, true, "hd64_causal_c13_W4_S3"},
                      AttentionCase{16, 16, 256, 64, true, "hd64_causal_c13_W4_S3"},
                      // Warp-specialised (--warp-specialize): a producer warpgroup copies K
                      // and V (the causal kernel's first loop).
                      AttentionCase{1, 2, 1024, 64, false, "WS_hd64_c13_W4_S3"},
                      AttentionCase{16, 16, 256, 64, false, "WS_hd64_c13_W4_S3"},
                      AttentionCase{1, 2, 1024, 64, true, "WS_hd64_causal_c13_W4_S3"},
                      AttentionCase{16, 16, 256, 64, true, "WS_hd64_causal_c13_W4_S3"},
                      AttentionCase{1, 2, 256, 128, false, "WS_hd128_c16_W8_S2"},
                      // Persistent (--persistent, not the default on a 2-D grid: one loop
                      // over the grid's tiles, a ring per K/V loop kept across them), plain
                      // and warp-specialised.
                      AttentionCase{1, 2, 1024, 64, false, "PERSISTENT_hd64_c13_W4_S3"},
                      AttentionCase{16, 16, 256, 64, false, "PERSISTENT_hd64_c13_W4_S3"},
                      AttentionCase{1, 2, 1024, 64, true, "PERSISTENT_hd64_causal_c13_W4_S3"},
                      AttentionCase{16, 16, 256, 64, true, "PERSISTENT_hd64_causal_c13_W4_S3"},
                      AttentionCase{1, 2, 1024, 64, false, "WS_PERSISTENT_hd64_c13_W4_S3"},
                      AttentionCase{16, 16, 256, 64, false, "WS_PERSISTENT_hd64_c13_W4_S3"},
                      AttentionCase{16, 16, 256, 64, true, "WS_PERSISTENT_hd64_causal_c13_W4_S3"}));
// (N_CTX a multiple of the blocks, as the tutorial assumes: its loops do not mask the keys
// of the next head, only the end of the whole Z * H * N_CTX tensor.)

//===----------------------------------------------------------------------===//
// 09 persistent matmul (grid min(NUM_SMS, tiles); pointers and tensor descriptors)
//===----------------------------------------------------------------------===//

struct PersistentCase {
  int32_t m, n, k;
  bool descriptor; // matmul_kernel_descriptor_persistent (B given as N x K)
  const char *config;
};

class PersistentMatmul09 : public ::testing::TestWithParam<PersistentCase> {};

TEST_P(PersistentMatmul09, MatchesDoublePrecision) {
  TCC_REQUIRE_GPU();
  const PersistentCase c = GetParam();
  const char *kernel = c.descriptor ? "matmul_kernel_descriptor_persistent" : "matmul_kernel_persistent";
  const std::string dir = portDir("triton_09_persistent_matmul", c.config);
  TCC_REQUIRE_ARTIFACT_FILE(dir + "/" + kernel + ".json");
  const size_t am = size_t(c.m) * size_t(c.k), bm = size_t(c.k) * size_t(c.n),
               cm = size_t(c.m) * size_t(c.n);
  std::vector<uint16_t> ah, bh;
  std::vector<float> a = uniformHalf(am, 91, ah), b = uniformHalf(bm, 92, bh); // b: K x N
  std::vector<uint16_t> bt(bm); // N x K for the descriptor kernel (the tutorial's b.T)
  for (int32_t kk = 0; kk < c.k; ++kk)
    for (int32_t j = 0; j < c.n; ++j)
      bt[size_t(j) * size_t(c.k) + size_t(kk)] = bh[size_t(kk) * size_t(c.n) + size_t(j)];
  tcc::bench::DeviceBuffer ba(2 * am), bb(2 * bm), bc(2 * cm);
  gputest::upload(ba.get(), ah.data(), 2 * am);
  gputest::upload(bb.get(), c.descriptor ? bt.data() : bh.data(), 2 * bm);
  tcc::Library lib(dir);
  if (c.descriptor)
    lib.kernel(kernel).launch(nullptr, ba.get(), bb.get(), bc.get(), c.m, c.n, c.k);
  else
    lib.kernel(kernel).launch(nullptr, ba.get(), bb.get(), bc.get(), c.m, c.n, c.k, c.k, 1, c.n,
                              1, c.n, 1);
  gputest::synchronize();
  std::vector<uint16_t> out(cm);
  gputest::download(out.data(), bc.get(), 2 * cm);
  for (int32_t i = 0; i < c.m; ++i)
    for (int32_t j = 0; j < c.n; ++j) {
      double v = 0, mag = 0;
      for (int32_t kk = 0; kk < c.k; ++kk) {
        double p = double(a[size_t(i) * size_t(c.k) + size_t(kk)]) * b[size_t(kk) * size_t(c.n) + size_t(j)];
        v += p;
        mag += std::fabs(p);
      }
      double tol = double(c.k + 1) * 0x1p-23 * mag + 0x1p-11 * std::fabs(v) + 0x1p-24;
      double got = gputest::halfToFloat(out[size_t(i) * size_t(c.n) + size_t(j)]);
      ASSERT_LE(std::fabs(got - v), tol) << kernel << " C[" << i << ", " << j << "]";
    }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, PersistentMatmul09,
    ::testing::Values(PersistentCase{1024, 1024, 512, false, "persistent_c0_W4_S3"},
                      // more tiles than 132 programs; edges in M, N and K
                      PersistentCase{2000, 1500, 200, false, "persistent_c0_W4_S3"},
                      PersistentCase{1024, 1024, 512, true, "descriptor_c7_W8_S3"},
                      PersistentCase{2000, 1500, 200, true, "descriptor_c7_W8_S3"},
                      PersistentCase{1, 1, 1, true, "descriptor_c7_W8_S3"}));

//===----------------------------------------------------------------------===//
// Block pointers and tensor descriptors (test/gpu/kernels/block_pointers.tile)
//===----------------------------------------------------------------------===//

class BlockPointers : public ::testing::TestWithParam<std::pair<int32_t, int32_t>> {};

TEST_P(BlockPointers, MatchHost) {
  TCC_REQUIRE_GPU();
  const std::string dir = portDir("block_pointers", "BM32_BN32_W4");
  TCC_REQUIRE_ARTIFACT(dir, "block_pointers");
  const int32_t m = GetParam().first, n = GetParam().second, ss = n + 5, ds = n + 3;
  const size_t sn = size_t(m - 1) * size_t(ss) + size_t(n), dn = size_t(m - 1) * size_t(ds) + size_t(n);
  std::vector<float> src = uniform(sn, 71);
  tcc::bench::DeviceBuffer bs(4 * sn), bt(4 * dn), br(4 * size_t(m)), bsh(4 * dn);
  gputest::upload(bs.get(), src.data(), 4 * sn);
  gputest::fill32(bt.get(), 0x7fbadbadu, dn);
  gputest::fill32(bsh.get(), 0x7fbadbadu, dn);
  tcc::Library lib(dir);
  lib.kernel("block_pointers")
      .launch(nullptr, bs.get(), bt.get(), br.get(), bsh.get(), m, n, ss, ds);
  gputest::synchronize();
  std::vector<float> twice(dn), rowsum(static_cast<size_t>(m)), shifted(dn);
  gputest::download(twice.data(), bt.get(), 4 * dn);
  gputest::download(rowsum.data(), br.get(), 4 * size_t(m));
  gputest::download(shifted.data(), bsh.get(), 4 * dn);
  for (int32_t i = 0; i < m; ++i) {
    double t = 0;
    for (int32_t j = 0; j < n; ++j) {
      const size_t s = size_t(i) * size_t(ss) + size_t(j), d = size_t(i) * size_t(ds) + size_t(j);
      t += src[s];
      ASSERT_EQ(gputest::bitsOf(twice[d]), gputest::bitsOf(2.0f * src[s])) << "twice " << i << ", " << j;
      float want = i >= 3 ? src[s - 3 * size_t(ss)] : 0.0f;
      ASSERT_EQ(gputest::bitsOf(shifted[d]), gputest::bitsOf(want)) << "shifted " << i << ", " << j;
    }
    ASSERT_LE(std::fabs(rowsum[size_t(i)] - t), 1e-5 * (1 + std::fabs(t))) << "rowsum " << i;
  }
  // The padding between rows is never written (the bounds masks of the stores).
  for (int32_t i = 0; i + 1 < m; ++i)
    for (int32_t j = n; j < ds; ++j) {
      const size_t d = size_t(i) * size_t(ds) + size_t(j);
      ASSERT_EQ(gputest::bitsOf(twice[d]), 0x7fbadbadu) << "written between rows at " << d;
      ASSERT_EQ(gputest::bitsOf(shifted[d]), 0x7fbadbadu) << "written between rows at " << d;
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, BlockPointers,
                         ::testing::Values(std::pair<int32_t, int32_t>{50, 70},
                                           std::pair<int32_t, int32_t>{1024, 1000},
                                           std::pair<int32_t, int32_t>{1, 1}));

} // namespace
