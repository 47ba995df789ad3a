// fp8 (e4m3fn and e5m2): the conversion tables of dialects/Tile/Float8.h against LLVM's
// APFloat, for all 256 bit patterns and for the rounding of f32 values (ties to even,
// subnormals, saturation, NaN), and the interpreter's loads, stores and conversions of fp8
// tiles, bit for bit.
#include "interpreter_test_util.h"

#include "dialects/Tile/Float8.h"

#include "llvm/ADT/APFloat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace tcc::interp;
using namespace tcc::interp::testing;
namespace fp8 = mlir::tile::fp8;

namespace {

const llvm::fltSemantics &semantics(fp8::Format f) {
  return f == fp8::Format::E4M3FN ? llvm::APFloat::Float8E4M3FN() : llvm::APFloat::Float8E5M2();
}

/// APFloat's value of a bit pattern.
double apDecode(uint8_t bits, fp8::Format f) {
  return llvm::APFloat(semantics(f), llvm::APInt(8, bits)).convertToDouble();
}

/// APFloat's round to nearest even, then satfinite: out of range (inf included) gives the
/// largest finite value of that sign, NaN gives 0x7F.
uint8_t apEncode(double v, fp8::Format f) {
  if (std::isnan(v))
    return fp8::kNaN;
  fp8::FormatInfo fi = fp8::info(f);
  if (std::fabs(v) > fi.maxFinite)
    return uint8_t((std::signbit(v) ? 0x80 : 0) | fi.maxFiniteBits);
  llvm::APFloat a(v);
  bool lost = false;
  a.convert(semantics(f), llvm::APFloat::rmNearestTiesToEven, &lost);
  if (a.isInfinity() || a.isNaN()) // rounded up past the largest finite value
    return uint8_t((std::signbit(v) ? 0x80 : 0) | fi.maxFiniteBits);
  return uint8_t(a.bitcastToAPInt().getZExtValue());
}

class Fp8Formats : public ::testing::TestWithParam<fp8::Format> {};

TEST_P(Fp8Formats, EveryBitPatternDecodesAsAPFloatSays) {
  fp8::Format f = GetParam();
  for (int b = 0; b < 256; ++b) {
    double mine = fp8::decode(uint8_t(b), f), ref = apDecode(uint8_t(b), f);
    SCOPED_TRACE(b);
    if (std::isnan(ref)) {
      EXPECT_TRUE(std::isnan(mine));
      continue;
    }
    EXPECT_EQ(mine, ref);
    EXPECT_EQ(std::signbit(mine), std::signbit(ref)); // -0.0 too
  }
}

TEST_P(Fp8Formats, EveryFiniteValueRoundTrips) {
  fp8::Format f = GetParam();
  int nans = 0;
  for (int b = 0; b < 256; ++b) {
    double v = fp8::decode(uint8_t(b), f);
    if (std::isnan(v)) {
      ++nans;
      EXPECT_EQ(fp8::encode(v, f), fp8::kNaN);
      continue;
    }
    if (std::isinf(v)) { // e5m2's infinities saturate, as cvt.rn.satfinite does
      EXPECT_EQ(fp8::encode(v, f), (b & 0x80) | 0x7B);
      continue;
    }
    EXPECT_EQ(fp8::encode(v, f), b) << v;
  }
  EXPECT_EQ(nans, f == fp8::Format::E4M3FN ? 2 : 6);
}

TEST_P(Fp8Formats, RoundingMatchesAPFloatEverywhere) {
  fp8::Format f = GetParam();
  std::vector<double> values;
  // Every representable value, the midpoints between neighbours (ties), and a little
  // either side of each midpoint, with both signs.
  std::vector<double> finite;
  for (int b = 0; b < 128; ++b) {
    double v = fp8::decode(uint8_t(b), f);
    if (std::isfinite(v))
      finite.push_back(v);
  }
  std::sort(finite.begin(), finite.end());
  for (size_t i = 0; i + 1 < finite.size(); ++i) {
    double mid = (finite[i] + finite[i + 1]) / 2;
    for (double v : {finite[i], mid, std::nextafter(float(mid), 0.0f) + 0.0,
                     std::nextafter(float(mid), INFINITY) + 0.0})
      values.push_back(v);
  }
  double top = fp8::info(f).maxFinite;
  for (double v : {top, top * 1.0625, top * 1.25, top * 2, 1e30, double(INFINITY),
                   std::ldexp(1.0, -30), 0.0})
    values.push_back(v);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> exponent(-20, 17);
  for (int i = 0; i < 20000; ++i)
    values.push_back(double(float(std::ldexp(1.0 + double(rng() % 4096) / 4096, int(exponent(rng))))));
  for (double v : values)
    for (double s : {v, -v}) {
      SCOPED_TRACE(s);
      EXPECT_EQ(fp8::encode(s, f), apEncode(s, f));
    }
  EXPECT_EQ(fp8::encode(std::nan(""), f), fp8::kNaN);
}

INSTANTIATE_TEST_SUITE_P(Float8, Fp8Formats,
                         ::testing::Values(fp8::Format::E4M3FN, fp8::Format::E5M2),
                         [](const auto &info) {
                           return info.param == fp8::Format::E4M3FN ? "E4M3FN" : "E5M2";
                         });

TEST(Fp8Formats, KnownEncodings) {
  EXPECT_EQ(fp8::encode(1.0, fp8::Format::E4M3FN), 0x38);
  EXPECT_EQ(fp8::encode(448.0, fp8::Format::E4M3FN), 0x7E);
  EXPECT_EQ(fp8::encode(-1000.0, fp8::Format::E4M3FN), 0xFE);
  EXPECT_EQ(fp8::encode(std::ldexp(1.0, -9), fp8::Format::E4M3FN), 0x01);
  EXPECT_EQ(fp8::encode(std::ldexp(1.0, -10), fp8::Format::E4M3FN), 0x00); // a tie: to even
  EXPECT_EQ(fp8::encode(1.0, fp8::Format::E5M2), 0x3C);
  EXPECT_EQ(fp8::encode(57344.0, fp8::Format::E5M2), 0x7B);
  EXPECT_EQ(fp8::encode(INFINITY, fp8::Format::E5M2), 0x7B);
  EXPECT_EQ(fp8::encode(std::ldexp(1.0, -16), fp8::Format::E5M2), 0x01);
  EXPECT_TRUE(std::isinf(fp8::decode(0xFC, fp8::Format::E5M2)));
}

// Every f32 in `x` to both fp8 formats and back to f32, f16 and bf16; and fp8 values as
// stored in memory, loaded with a mask and `other` (inputs/interpreter/fp8_convert.mlir).
TEST(InterpreterFp8, ConvertsLoadsAndStoresBitForBit) {
  Compiled c = compileIRFile("fp8_convert.mlir");
  ASSERT_TRUE(c.kernel) << c.error;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {1.0f,  -1.0f,     0.0f,        -0.0f,     448.0f,    449.0f,
                          1e9f,  -INFINITY, INFINITY,    nan,       0x1p-9f,   0x1p-10f,
                          3 * 0x1p-10f, 0x1p-16f, 0x1p-17f, 57344.0f, 61440.0f, 1.0625f,
                          1.1875f, 0.3f, -123.456f, 3.0e-3f};
  int n = int(x.size());
  Memory mem;
  int64_t ix = addF32(mem, "x", x);
  int64_t q4 = addEmpty(mem, "q4", DType::F8E4NV, {64}), q5 = addEmpty(mem, "q5", DType::F8E5, {64});
  int64_t y4 = addEmpty(mem, "y4", DType::F32, {64}), y5 = addEmpty(mem, "y5", DType::F32, {64});
  int64_t h4 = addEmpty(mem, "h4", DType::F16, {64}), b5 = addEmpty(mem, "b5", DType::BF16, {64});
  RunOutput r = run(*c.kernel,
                    {ArgValue::ofBuffer(ix), ArgValue::ofBuffer(q4), ArgValue::ofBuffer(q5),
                     ArgValue::ofBuffer(y4), ArgValue::ofBuffer(y5), ArgValue::ofBuffer(h4),
                     ArgValue::ofBuffer(b5), ArgValue::ofInt(n)},
                    mem);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  const uint8_t *e4 = mem[q4].data<uint8_t>(), *e5 = mem[q5].data<uint8_t>();
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE(x[size_t(i)]);
    EXPECT_EQ(e4[i], apEncode(x[size_t(i)], fp8::Format::E4M3FN));
    EXPECT_EQ(e5[i], apEncode(x[size_t(i)], fp8::Format::E5M2));
    double w4 = apDecode(e4[i], fp8::Format::E4M3FN), w5 = apDecode(e5[i], fp8::Format::E5M2);
    if (std::isnan(w4)) {
      EXPECT_TRUE(std::isnan(mem[y4].get(i)) && std::isnan(mem[h4].get(i)));
    } else {
      EXPECT_EQ(mem[y4].get(i), w4);
      EXPECT_EQ(mem[h4].get(i), w4); // f16 holds every e4m3 value
    }
    if (std::isnan(w5)) {
      EXPECT_TRUE(std::isnan(mem[y5].get(i)) && std::isnan(mem[b5].get(i)));
    } else {
      EXPECT_EQ(mem[y5].get(i), w5);
      EXPECT_EQ(mem[b5].get(i), w5); // and bf16 every e5m2 value
    }
  }
  EXPECT_EQ(e4[0], 0x38);
  EXPECT_EQ(e4[5], 0x7E); // 449 saturates to 448
  EXPECT_EQ(e4[7], 0xFE); // -inf too
  EXPECT_EQ(e4[9], 0x7F); // NaN
  EXPECT_EQ(e5[8], 0x7B); // +inf saturates to 57344
  EXPECT_EQ(e4[11], 0x00); // 2^-10: a tie between 0 and 2^-9, to even
  EXPECT_EQ(e4[12], 0x02); // 3 * 2^-10: a tie between 2^-9 and 2^-8, to even
}

} // namespace
