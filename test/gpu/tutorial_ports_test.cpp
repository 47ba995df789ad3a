// The ports of Triton's tutorials (lang-examples/triton/NN_*.tile, issue 13) on the GPU,
// against references computed on the host in double precision (test/examples/tutorials_test.cpp
// checks the same ports in the interpreter). Artifacts: scripts/build-artifacts.sh, under
// tcc/triton_NN/<config>/.
#include "gpu_util.h"
#include "matrix.h"

#include "tcc/bench.h"

#include <cmath>
#include <random>

namespace {

std::string portDir(const std::string &name, const std::string &config) {
  return gputest::artifactsDir() + "/tcc/" + name + "/" + config;
}

#define TCC_REQUIRE_ARTIFACT(dir, kernel)                                                      \
  do {                                                                                          \
    if (!gputest::exists(std::string(dir) + "/" kernel ".json"))                                \
      GTEST_SKIP() << "no " kernel " artifact under " << (dir);                                \
  } while (0)

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
    ::testing::Values(MatmulCase{512, 512, 512, "c3_W4_S4", false},
                      MatmulCase{512, 512, 512, "c3_leaky_W4_S4", true},
                      MatmulCase{1000, 333, 77, "c3_leaky_W4_S4", true},
                      MatmulCase{512, 512, 512, "c0_leaky_W8_S3", true},
                      MatmulCase{1000, 333, 77, "c15_leaky_W4_S4", true},
                      MatmulCase{1, 1, 1, "c15_leaky_W4_S4", true}));

} // namespace
