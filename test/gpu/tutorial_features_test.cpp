// Language features of Triton's tutorials on the GPU (issue 13): the math builtins
// (tanh and erf are tcc's own polynomial lowerings, so their accuracy is measured here
// against double precision), bitcasts and assume, and a while loop whose condition
// reduces a tile, join and split of interleaved pairs, and transposes (of a dot operand,
// of a dot result, of a loaded tile), against CPU references.

#include "gpu_util.h"

#include "tcc/bench.h"

#include <cmath>
#include <limits>

namespace {

std::string mathDir() { return gputest::artifactsDir() + "/tcc/tutorial_math/BLOCK256_W4"; }
std::string whileDir() { return gputest::artifactsDir() + "/tcc/collatz_while/BLOCK128_W4"; }
std::string complexDir() { return gputest::artifactsDir() + "/tcc/complex_mul/BLOCK256_W4"; }
std::string transDir() { return gputest::artifactsDir() + "/tcc/trans_dot/M64_D64_W4"; }

/// The distance from the f32 nearest `want` to the next f32 away from zero.
double ulpOf(double want) {
  float w = std::fabs(float(want));
  if (w == 0)
    return std::numeric_limits<float>::denorm_min();
  return double(std::nextafter(w, std::numeric_limits<float>::infinity())) - double(w);
}

std::vector<float> inputs(size_t n) {
  std::vector<float> x(n);
  // Dense over [-10, 10], then tiny and huge magnitudes and the special values.
  for (size_t i = 0; i < n; ++i)
    x[i] = float(-10.0 + 20.0 * double(i) / double(n));
  const float special[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 1e-7f, -3e-5f, 0.5f, -0.5f,
                           1.0f, 2.5f, -2.5f, 7.9f, 8.0f, 50.0f, -50.0f, 1e30f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()};
  for (size_t i = 0; i < sizeof special / sizeof special[0] && i < n; ++i)
    x[i * 7919 % n] = special[i];
  return x;
}

class TutorialMath : public ::testing::TestWithParam<int32_t> {};

TEST_P(TutorialMath, MatchesDoublePrecision) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(mathDir() + "/tutorial_math.json");
  const int32_t n = GetParam();
  std::vector<float> x = inputs(size_t(n));
  const size_t rows = 9;
  tcc::bench::DeviceBuffer bx(4 * size_t(n)), bout(4 * rows * size_t(n)), bbits(4 * size_t(n));
  gputest::upload(bx.get(), x.data(), 4 * size_t(n));
  gputest::fill32(bout.get(), 0x7fbadbadu, rows * size_t(n));
  gputest::fill32(bbits.get(), 0xdeadbeefu, size_t(n));
  tcc::Library lib(mathDir());
  lib.kernel("tutorial_math").launch(nullptr, bx.get(), bout.get(), bbits.get(), n);
  gputest::synchronize();
  std::vector<float> out(rows * size_t(n));
  std::vector<int32_t> bits(static_cast<size_t>(n));
  gputest::download(out.data(), bout.get(), 4 * rows * size_t(n));
  gputest::download(bits.data(), bbits.get(), 4 * size_t(n));

  auto row = [&](size_t r, size_t i) { return out[r * size_t(n) + i]; };
  double worstTanh = 0, worstErf = 0;
  for (size_t i = 0; i < size_t(n); ++i) {
    const float v = x[i];
    SCOPED_TRACE("x = " + std::to_string(v) + " (element " + std::to_string(i) + ")");
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(row(0, i)));
      EXPECT_TRUE(std::isnan(row(1, i)));
      EXPECT_EQ(row(5, i), -1.0f) << "clamp ignores a NaN by default (gives min)";
      EXPECT_TRUE(std::isnan(row(6, i))) << "maximum with PropagateNan.ALL";
      EXPECT_EQ(row(7, i), 0.0f) << "maximum ignores a NaN by default";
    } else {
      double t = std::tanh(double(v)), e = std::erf(double(v));
      double dt = std::fabs(row(0, i) - t) / ulpOf(t), de = std::fabs(row(1, i) - e) / ulpOf(e);
      worstTanh = std::max(worstTanh, dt);
      worstErf = std::max(worstErf, de);
      EXPECT_LE(dt, 8.0) << "tanh: " << row(0, i) << " for " << t;
      EXPECT_LE(de, 8.0) << "erf: " << row(1, i) << " for " << e;
      EXPECT_EQ(row(2, i), std::floor(v));
      EXPECT_EQ(row(3, i), std::ceil(v));
      EXPECT_EQ(gputest::bitsOf(row(4, i)), gputest::bitsOf(std::fma(v, v, -1.0f)));
      EXPECT_EQ(row(5, i), std::fmin(std::fmax(v, -1.0f), 1.5f));
      EXPECT_EQ(row(6, i), std::fmax(v, 0.0f));
      EXPECT_EQ(row(7, i), std::fmax(v, 0.0f));
      // ex2.approx of x * log2(e) and div.full, as Triton's: relative error grows with |x|.
      double s = 1.0 / (1.0 + std::exp(-double(v)));
      if (std::isinf(v))
        EXPECT_EQ(row(8, i), float(s)) << "sigmoid of an infinity is exact";
      else
        EXPECT_LE(std::fabs(row(8, i) - s), s * (4e-6 + 4e-7 * std::fabs(v)) + 1e-37)
            << "sigmoid: " << row(8, i) << " for " << s;
    }
    EXPECT_EQ(uint32_t(bits[i]), gputest::bitsOf(v)) << "bitcast";
  }
  std::printf("tanh: worst %.2f ulp, erf: worst %.2f ulp over %d inputs\n", worstTanh,
              worstErf, n);
}

INSTANTIATE_TEST_SUITE_P(Sizes, TutorialMath, ::testing::Values(1000, 1 << 20));

class CollatzWhile : public ::testing::TestWithParam<int32_t> {};

TEST_P(CollatzWhile, StepsMatch) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(whileDir() + "/collatz_while.json");
  const int32_t n = GetParam();
  // Starting values below 50 000 stay below 2^31 on the way to 1.
  std::vector<int32_t> start(static_cast<size_t>(n)), want(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) {
    start[size_t(i)] = 1 + int32_t((int64_t(i) * 7919) % 49999);
    int64_t v = start[size_t(i)];
    int32_t steps = 0;
    while (v != 1) {
      v = v % 2 == 0 ? v / 2 : 3 * v + 1;
      ASSERT_LE(v, int64_t(INT32_MAX));
      ++steps;
    }
    want[size_t(i)] = steps;
  }
  tcc::bench::DeviceBuffer bstart(std::max<size_t>(4, 4 * size_t(n))),
      bsteps(std::max<size_t>(4, 4 * size_t(n) + 4 * 128));
  if (n)
    gputest::upload(bstart.get(), start.data(), 4 * size_t(n));
  gputest::fill32(bsteps.get(), 0xdeadbeefu, size_t(n) + 128);
  tcc::Library lib(whileDir());
  lib.kernel("collatz_while").launch(nullptr, bstart.get(), bsteps.get(), n);
  gputest::synchronize();
  std::vector<int32_t> steps(size_t(n) + 128);
  gputest::download(steps.data(), bsteps.get(), 4 * steps.size());
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(steps[size_t(i)], want[size_t(i)]) << "start " << start[size_t(i)];
  for (size_t i = size_t(n); i < steps.size(); ++i)
    EXPECT_EQ(uint32_t(steps[i]), 0xdeadbeefu) << "masked lane " << i << " was written";
}

INSTANTIATE_TEST_SUITE_P(Sizes, CollatzWhile, ::testing::Values(1, 127, 128, 1000, 100003));

class ComplexMul : public ::testing::TestWithParam<int32_t> {};

TEST_P(ComplexMul, JoinAndSplitPairs) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(complexDir() + "/complex_mul.json");
  const int32_t n = GetParam();
  const size_t count = 2 * size_t(n), guard = 512;
  std::vector<float> a(count), b(count);
  gputest::fillRandom(a.data(), count, 1);
  gputest::fillRandom(b.data(), count, 2);
  tcc::bench::DeviceBuffer ba(4 * count), bb(4 * count), bout(4 * (count + guard));
  gputest::upload(ba.get(), a.data(), 4 * count);
  gputest::upload(bb.get(), b.data(), 4 * count);
  gputest::fill32(bout.get(), 0x7fbadbadu, count + guard);
  tcc::Library lib(complexDir());
  lib.kernel("complex_mul").launch(nullptr, ba.get(), bb.get(), bout.get(), n);
  gputest::synchronize();
  std::vector<float> out(count + guard);
  gputest::download(out.data(), bout.get(), 4 * out.size());
  for (size_t k = 0; k < size_t(n); ++k) {
    float ar = a[2 * k], ai = a[2 * k + 1], br = b[2 * k], bi = b[2 * k + 1];
    // The products and sums in f32 as written; ptxas may contract them into FMAs, so
    // compare within the rounding of one product.
    double re = double(ar) * br - double(ai) * bi, im = double(ar) * bi + double(ai) * br;
    double tol = 4e-7 * (std::fabs(double(ar) * br) + std::fabs(double(ai) * bi) +
                         std::fabs(double(ar) * bi) + std::fabs(double(ai) * br)) + 1e-30;
    ASSERT_NEAR(out[2 * k], re, tol) << "re of pair " << k;
    ASSERT_NEAR(out[2 * k + 1], im, tol) << "im of pair " << k;
  }
  for (size_t i = count; i < out.size(); ++i)
    EXPECT_EQ(gputest::bitsOf(out[i]), 0x7fbadbadu) << "element " << i << " past the end";
}

INSTANTIATE_TEST_SUITE_P(Sizes, ComplexMul, ::testing::Values(1, 255, 256, 1000, 1 << 20));

/// The f16 encoding of a small integer (|v| <= 2048: exact).
uint16_t halfOf(int v) {
  if (v == 0)
    return 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  unsigned m = unsigned(v < 0 ? -v : v);
  int e = 0;
  while ((m >> e) > 1)
    ++e;
  return uint16_t(sign | uint16_t((e + 15) << 10) | uint16_t(((m << 10) >> e) & 0x3ff));
}

TEST(TransDot, QKTransposedExact) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(transDir() + "/trans_dot.json");
  const int M = 64, D = 64;
  // Small integers: every product and sum is exact in f16 inputs and f32 accumulation.
  std::vector<int> q(M * D), k(M * D);
  for (int i = 0; i < M * D; ++i) {
    q[i] = (i * 7 + 3) % 9 - 4;
    k[i] = (i * 5 + 1) % 7 - 3;
  }
  std::vector<uint16_t> qh(M * D), kh(M * D);
  for (int i = 0; i < M * D; ++i) {
    qh[i] = halfOf(q[i]);
    kh[i] = halfOf(k[i]);
  }
  tcc::bench::DeviceBuffer bq(2 * M * D), bk(2 * M * D), bs(4 * M * M), bt(4 * D * M);
  gputest::upload(bq.get(), qh.data(), 2 * M * D);
  gputest::upload(bk.get(), kh.data(), 2 * M * D);
  gputest::fill32(bs.get(), 0x7fbadbadu, M * M);
  gputest::fill32(bt.get(), 0x7fbadbadu, D * M);
  tcc::Library lib(transDir());
  lib.kernel("trans_dot").launch(nullptr, bq.get(), bk.get(), bs.get(), bt.get());
  gputest::synchronize();
  std::vector<float> s(M * M), t(D * M);
  gputest::download(s.data(), bs.get(), 4 * M * M);
  gputest::download(t.data(), bt.get(), 4 * D * M);
  auto qk = [&](int i, int j) {
    int acc = 0;
    for (int d = 0; d < D; ++d)
      acc += q[i * D + d] * k[j * D + d];
    return acc;
  };
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < M; ++j)
      ASSERT_EQ(s[i * M + j], float(qk(i, j) + qk(j, i))) << "s[" << i << "][" << j << "]";
  for (int d = 0; d < D; ++d)
    for (int i = 0; i < M; ++i)
      ASSERT_EQ(t[d * M + i], float(q[i * D + d])) << "t[" << d << "][" << i << "]";
}

// Floating-point atomic_max / atomic_min from many programs at once (Triton's: on the bits,
// signed where the value is >= 0, unsigned where negative), against the host's max and min.
TEST(FloatAtomics, MaxAndMinOfEveryBin) {
  TCC_REQUIRE_GPU();
  const std::string dir = gputest::artifactsDir() + "/tcc/float_atomics/BLOCK256_W4";
  TCC_REQUIRE_ARTIFACT_FILE(dir + "/float_atomics.json");
  const int32_t n = 1 << 20, bins = 37;
  std::vector<float> x(static_cast<size_t>(n));
  uint32_t s = 99;
  for (float &v : x) { // both signs, magnitudes 2^-20 .. 2^20, no -0.0 or NaN
    s = s * 1664525u + 1013904223u;
    v = std::ldexp(float(s >> 9) / float(1 << 23) + 0.5f, int(s % 41) - 20) * (s & 256 ? -1.0f : 1.0f);
  }
  std::vector<float> mx(static_cast<size_t>(bins), -INFINITY), mn(static_cast<size_t>(bins), INFINITY);
  std::vector<double> dmx(static_cast<size_t>(bins), -INFINITY);
  tcc::bench::DeviceBuffer bx(4 * size_t(n)), bmx(4 * size_t(bins)), bmn(4 * size_t(bins)),
      bold(4 * size_t(n)), bdmx(8 * size_t(bins));
  gputest::upload(bx.get(), x.data(), 4 * size_t(n));
  gputest::upload(bmx.get(), mx.data(), 4 * size_t(bins));
  gputest::upload(bmn.get(), mn.data(), 4 * size_t(bins));
  gputest::upload(bdmx.get(), dmx.data(), 8 * size_t(bins));
  tcc::Library lib(dir);
  lib.kernel("float_atomics")
      .launch(nullptr, bx.get(), bmx.get(), bmn.get(), bold.get(), bdmx.get(), n, bins);
  gputest::synchronize();
  std::vector<float> gotMax(static_cast<size_t>(bins)), gotMin(static_cast<size_t>(bins)),
      old(static_cast<size_t>(n));
  std::vector<double> gotD(static_cast<size_t>(bins));
  gputest::download(gotMax.data(), bmx.get(), 4 * size_t(bins));
  gputest::download(gotMin.data(), bmn.get(), 4 * size_t(bins));
  gputest::download(gotD.data(), bdmx.get(), 8 * size_t(bins));
  gputest::download(old.data(), bold.get(), 4 * size_t(n));
  for (int32_t i = 0; i < n; ++i) {
    size_t b = size_t(i % bins);
    mx[b] = std::max(mx[b], x[size_t(i)]);
    mn[b] = std::min(mn[b], x[size_t(i)]);
  }
  for (int32_t b = 0; b < bins; ++b) {
    EXPECT_EQ(gotMax[size_t(b)], mx[size_t(b)]) << "bin " << b;
    EXPECT_EQ(gotMin[size_t(b)], mn[size_t(b)]) << "bin " << b;
    EXPECT_EQ(gotD[size_t(b)], double(mx[size_t(b)])) << "bin " << b;
  }
  for (int32_t i = 0; i < n; ++i) // an old value is one the bin held: at most its maximum
    ASSERT_LE(old[size_t(i)], mx[size_t(i % bins)]) << "element " << i;
}

} // namespace
