// fp8 conversion checks shared by the GPU test (test/gpu/fp8_test.cpp) and the
// interpreter's (test/examples/tutorials_test.cpp) of test/gpu/kernels/fp8_convert.tile:
// the inputs, and what every output must hold by dialects/Tile/Float8.h.
#pragma once

#include "dialects/Tile/Float8.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fp8ref {

namespace fp8 = mlir::tile::fp8;

/// f32 inputs: ties between neighbouring fp8 values of both formats, values just off the
/// ties, subnormals, saturation, infinities, NaN, then values over all magnitudes.
inline std::vector<float> inputs(size_t n) {
  std::vector<float> x;
  for (fp8::Format f : {fp8::Format::E4M3FN, fp8::Format::E5M2})
    for (int b = 0; b + 1 < 127; ++b) {
      double lo = fp8::decode(uint8_t(b), f), hi = fp8::decode(uint8_t(b + 1), f);
      if (!std::isfinite(hi))
        continue;
      float mid = float((lo + hi) / 2);
      for (float v : {float(lo), mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)})
        x.push_back(b % 2 ? v : -v);
    }
  for (float v : {448.0f, 449.0f, 464.0f, 480.0f, 57344.0f, 61439.0f, 61440.0f, 1e30f,
                  INFINITY, -INFINITY, NAN, -0.0f, 0x1p-24f, 0x1p-126f})
    x.push_back(v);
  uint32_t s = 12345;
  while (x.size() < n) {
    s = s * 1664525u + 1013904223u;
    // exponents 2^-20 .. 2^17, any mantissa, either sign
    uint32_t bits = (s & 0x807FFFFFu) | (uint32_t(127 - 20 + (s >> 8) % 38) << 23);
    float v;
    std::memcpy(&v, &bits, 4);
    x.push_back(v);
  }
  x.resize(n);
  return x;
}

inline double half(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double s = h & 0x8000 ? -1 : 1;
  if (e == 31)
    return m ? NAN : s * INFINITY;
  return e ? s * std::ldexp(1024.0 + m, e - 25) : s * std::ldexp(double(m), -24);
}
inline double bhalf(uint16_t b) {
  uint32_t w = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

inline bool same(double got, double want) {
  return std::isnan(want) ? std::isnan(got) : got == want && std::signbit(got) == std::signbit(want);
}

/// The first mismatch of the kernel's outputs, or "".
struct Outputs {
  const uint8_t *bits4, *bits5; // inputs: 0..255
  const float *wide4, *wide5;
  const uint16_t *half4, *bhalf5;
  const float *x;
  const uint8_t *q4, *q5;
  const uint16_t *h;
  const uint8_t *qh4;
  const uint16_t *b;
  const uint8_t *qb5, *other4;
  size_t n;
};

inline std::string check(const Outputs &o) {
  auto hex = [](unsigned v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%02X", v);
    return std::string(buf);
  };
  for (int i = 0; i < 256; ++i) {
    double w4 = fp8::decode(o.bits4[i], fp8::Format::E4M3FN);
    double w5 = fp8::decode(o.bits5[i], fp8::Format::E5M2);
    std::string at = " of bit pattern " + hex(unsigned(i));
    if (!same(o.wide4[i], w4))
      return "e4m3 -> f32" + at + ": " + std::to_string(o.wide4[i]) + ", want " + std::to_string(w4);
    if (!same(o.wide5[i], w5))
      return "e5m2 -> f32" + at + ": " + std::to_string(o.wide5[i]) + ", want " + std::to_string(w5);
    if (!same(half(o.half4[i]), w4))
      return "e4m3 -> f16" + at + ": " + std::to_string(half(o.half4[i])) + ", want " + std::to_string(w4);
    if (!same(bhalf(o.bhalf5[i]), w5))
      return "e5m2 -> bf16" + at + ": " + std::to_string(bhalf(o.bhalf5[i])) + ", want " + std::to_string(w5);
    uint8_t want = i < 128 ? o.bits4[i] : fp8::encode(-2.0, fp8::Format::E4M3FN);
    if (o.other4[i] != want)
      return "masked load with other" + at + ": " + hex(o.other4[i]) + ", want " + hex(want);
  }
  for (size_t i = 0; i < o.n; ++i) {
    std::string at = " of " + std::to_string(o.x[i]) + " (input " + std::to_string(i) + ")";
    uint8_t w4 = fp8::encode(o.x[i], fp8::Format::E4M3FN), w5 = fp8::encode(o.x[i], fp8::Format::E5M2);
    if (o.q4[i] != w4)
      return "f32 -> e4m3" + at + ": " + hex(o.q4[i]) + ", want " + hex(w4);
    if (o.q5[i] != w5)
      return "f32 -> e5m2" + at + ": " + hex(o.q5[i]) + ", want " + hex(w5);
    uint8_t wh = fp8::encode(half(o.h[i]), fp8::Format::E4M3FN);
    if (o.qh4[i] != wh)
      return "f16 -> e4m3" + at + ": " + hex(o.qh4[i]) + ", want " + hex(wh);
    uint8_t wb = fp8::encode(bhalf(o.b[i]), fp8::Format::E5M2);
    if (o.qb5[i] != wb)
      return "bf16 -> e5m2" + at + ": " + hex(o.qb5[i]) + ", want " + hex(wb);
  }
  return "";
}

} // namespace fp8ref
