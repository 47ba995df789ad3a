//===- Float8.h - the two 8-bit float formats, bit for bit -------*- C++ -*-===//
//
// fp8 e4m3fn (Triton's float8e4nv: 4 exponent bits of bias 7, 3 mantissa bits, no
// infinities, NaN = S.1111.111, largest finite 448) and fp8 e5m2 (float8e5: 5 exponent bits
// of bias 15, 2 mantissa bits, IEEE infinities and NaNs, largest finite 57344).
//
// Encoding rounds to nearest, ties to even, and saturates as PTX's
// `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32` does (Triton's conversion on sm_89 and later): a
// magnitude above the largest finite value, infinity included, gives the largest finite
// value of that sign; NaN gives 0x7F. Decoding is exact. The compiler folds constants with
// these functions, the interpreter converts with them, and the GPU's software path (targets
// without the cvt instructions) computes the same bits (compiler/Conversion/Fp8Lowering.cpp).
// Plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FLOAT8_H
#define TILE_FLOAT8_H

#include <cmath>
#include <cstdint>

namespace mlir::tile::fp8 {

enum class Format : uint8_t { E4M3FN, E5M2 };

struct FormatInfo {
  int mantissaBits, bias;
  double maxFinite;
  uint8_t maxFiniteBits; // without the sign
};

inline FormatInfo info(Format f) {
  if (f == Format::E4M3FN)
    return {3, 7, 448.0, 0x7E};
  return {2, 15, 57344.0, 0x7B};
}

/// The canonical NaN both formats produce.
constexpr uint8_t kNaN = 0x7F;

/// Rounds `v` to the format (nearest, ties to even; saturating; NaN -> 0x7F).
inline uint8_t encode(double v, Format f) {
  FormatInfo fi = info(f);
  if (std::isnan(v))
    return kNaN;
  uint8_t sign = std::signbit(v) ? 0x80 : 0;
  double a = std::fabs(v);
  if (a >= fi.maxFinite)
    return sign | fi.maxFiniteBits;
  if (a == 0.0)
    return sign;
  int emin = 1 - fi.bias; // the exponent of the smallest normal number
  int e;
  (void)std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  int exponent = e - 1 < emin ? emin : e - 1;
  // Count quanta of 2^(exponent - mantissaBits) and round that count to an even integer
  // on a tie (the scaling by a power of two is exact in double).
  double n = std::ldexp(a, fi.mantissaBits - exponent);
  double fl = std::floor(n);
  double rest = n - fl;
  if (rest > 0.5 || (rest == 0.5 && std::fmod(fl, 2.0) != 0.0))
    fl += 1.0;
  // fl quanta: below 2^mantissaBits in the subnormal range; reaching 2^(mantissaBits + 1)
  // carries into the next binade. The bits are then exponent field << m | mantissa, and
  // a subnormal's count is its bits directly (exponent field 0, or 1 once it reaches
  // 2^mantissaBits, which is the smallest normal number).
  int64_t count = int64_t(fl);
  int64_t bits;
  if (exponent == emin && count < (int64_t(1) << fi.mantissaBits))
    bits = count;
  else
    bits = (int64_t(exponent - emin + 1) << fi.mantissaBits) + (count - (int64_t(1) << fi.mantissaBits));
  if (bits > fi.maxFiniteBits) // cannot happen below maxFinite; kept as a guard
    bits = fi.maxFiniteBits;
  return sign | uint8_t(bits);
}

/// The exact value of an fp8 bit pattern (NaN for the NaN patterns, +-inf for e5m2's).
inline double decode(uint8_t bits, Format f) {
  FormatInfo fi = info(f);
  int expBits = 7 - fi.mantissaBits;
  int exp = (bits >> fi.mantissaBits) & ((1 << expBits) - 1);
  int mant = bits & ((1 << fi.mantissaBits) - 1);
  double sign = bits & 0x80 ? -1.0 : 1.0;
  if (f == Format::E4M3FN) {
    if (exp == 15 && mant == 7)
      return std::nan("");
  } else if (exp == 31) {
    return mant ? std::nan("") : sign * INFINITY;
  }
  if (exp == 0)
    return sign * std::ldexp(double(mant), 1 - fi.bias - fi.mantissaBits);
  return sign * std::ldexp(double(mant + (1 << fi.mantissaBits)), exp - fi.bias - fi.mantissaBits);
}

/// The value `v` takes once stored in the format (what a folded constant becomes).
inline double round(double v, Format f) { return decode(encode(v, f), f); }

} // namespace mlir::tile::fp8

#endif // TILE_FLOAT8_H
