//===- Values.cpp - element types, narrow-float rounding ------------------===//

#include "compiler/Interpreter/Values.h"

#include <cmath>

namespace tcc::interp {

size_t dtypeSize(DType t) {
  switch (t) {
  case DType::I1:
  case DType::I8:
  case DType::F8E4NV:
  case DType::F8E5:
    return 1;
  case DType::I16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I32:
  case DType::F32:
    return 4;
  case DType::I64:
  case DType::F64:
    return 8;
  case DType::Ptr:
    return sizeof(PtrVal);
  }
  return 0;
}

const char *dtypeName(DType t) {
  switch (t) {
  case DType::I1:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F8E4NV:
    return "f8e4nv";
  case DType::F8E5:
    return "f8e5";
  case DType::Ptr:
    return "ptr";
  }
  return "?";
}

bool parseDType(const std::string &s, DType *out) {
  static const DType all[] = {DType::I1,  DType::I8,   DType::I16, DType::I32,
                              DType::I64, DType::F16,  DType::BF16, DType::F32,
                              DType::F64, DType::F8E4NV, DType::F8E5};
  for (DType t : all)
    if (s == dtypeName(t)) {
      *out = t;
      return true;
    }
  return false;
}

unsigned intWidth(DType t) {
  switch (t) {
  case DType::I1:
    return 1;
  case DType::I8:
    return 8;
  case DType::I16:
    return 16;
  case DType::I32:
    return 32;
  default:
    return 64;
  }
}

//===----------------------------------------------------------------------===//
// Rounding to a narrow IEEE format
//===----------------------------------------------------------------------===//

namespace {
/// An IEEE binary format with `ebits` exponent and `mbits` fraction bits.
struct Format {
  int ebits, mbits;
  uint16_t quietNaN;
};
constexpr Format kHalf{5, 10, 0x7e00};
constexpr Format kBHalf{8, 7, 0x7fc0};

int highestBit(uint64_t m) { return 63 - __builtin_clzll(m); }

/// Rounds the exact value (-1)^neg * m * 2^e to nearest, ties to even.
uint16_t roundExact(bool neg, uint64_t m, int e, Format f) {
  uint16_t sign = neg ? uint16_t(1u << (f.ebits + f.mbits)) : 0;
  if (m == 0)
    return sign;
  const int bias = (1 << (f.ebits - 1)) - 1;
  const int emin = 1 - bias;
  const uint16_t inf = uint16_t(((1u << f.ebits) - 1) << f.mbits);
  int E = highestBit(m) + e;
  if (E > bias + 1)
    return sign | inf;
  // Exponent of the last kept bit: normals keep mbits fraction bits, subnormals stop at
  // the smallest subnormal's quantum.
  int q = (E > emin ? E : emin) - f.mbits;
  int drop = q - e;
  uint64_t M;
  if (drop <= 0) {
    M = m << -drop;
  } else if (drop > 64) {
    M = 0; // below half of the smallest quantum: rounds to zero
  } else {
    uint64_t rem, half;
    if (drop == 64) {
      M = 0;
      rem = m;
      half = uint64_t(1) << 63;
    } else {
      M = m >> drop;
      rem = m & ((uint64_t(1) << drop) - 1);
      half = uint64_t(1) << (drop - 1);
    }
    if (rem > half || (rem == half && (M & 1)))
      ++M;
  }
  if (M >> (f.mbits + 1)) { // rounding carried into a new binade
    M >>= 1;
    ++q;
  }
  if (M < (uint64_t(1) << f.mbits)) // subnormal (or zero)
    return sign | uint16_t(M);
  int biased = q + f.mbits + bias;
  if (biased >= (1 << f.ebits) - 1)
    return sign | inf;
  return sign | uint16_t(uint64_t(biased) << f.mbits) |
         uint16_t(M & ((uint64_t(1) << f.mbits) - 1));
}

uint16_t roundDouble(double v, Format f) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  bool neg = bits >> 63;
  int exp = int((bits >> 52) & 0x7ff);
  uint64_t frac = bits & ((uint64_t(1) << 52) - 1);
  uint16_t sign = neg ? uint16_t(1u << (f.ebits + f.mbits)) : 0;
  if (exp == 0x7ff) {
    if (frac)
      return sign | f.quietNaN;
    return sign | uint16_t(((1u << f.ebits) - 1) << f.mbits);
  }
  if (exp == 0)
    return roundExact(neg, frac, -1074, f);
  return roundExact(neg, frac | (uint64_t(1) << 52), exp - 1075, f);
}

uint16_t roundInt(int64_t v, Format f) {
  bool neg = v < 0;
  uint64_t m = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  return roundExact(neg, m, 0, f);
}
} // namespace

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t frac = h & 0x3ff;
  uint32_t w;
  if (exp == 0x1f) {
    w = sign | 0x7f800000u | (frac << 13);
  } else if (exp == 0) {
    if (frac == 0) {
      w = sign;
    } else { // subnormal: renormalise
      int shift = __builtin_clz(frac) - 21; // leading zeros within the 10-bit field, +1
      frac = (frac << shift) & 0x3ff;
      w = sign | uint32_t(127 - 15 - shift + 1) << 23 | (frac << 13);
    }
  } else {
    w = sign | (exp + 112) << 23 | (frac << 13);
  }
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

uint16_t doubleToHalf(double v) { return roundDouble(v, kHalf); }
uint16_t doubleToBHalf(double v) { return roundDouble(v, kBHalf); }
uint16_t floatToHalf(float v) { return roundDouble(double(v), kHalf); }
uint16_t floatToBHalf(float v) {
  // The common case directly on the bits: round the low 16 bits away, ties to even.
  uint32_t w;
  std::memcpy(&w, &v, 4);
  if ((w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffff))
    return uint16_t((w >> 16) | 0x40); // quiet NaN, sign kept
  uint32_t lsb = (w >> 16) & 1;
  return uint16_t((w + 0x7fffu + lsb) >> 16);
}
uint16_t int64ToHalf(int64_t v) { return roundInt(v, kHalf); }
uint16_t int64ToBHalf(int64_t v) { return roundInt(v, kBHalf); }
uint16_t uint64ToHalf(uint64_t v) { return roundExact(false, v, 0, kHalf); }
uint16_t uint64ToBHalf(uint64_t v) { return roundExact(false, v, 0, kBHalf); }

//===----------------------------------------------------------------------===//
// Single elements through double / int64 (for printing, arguments and constants)
//===----------------------------------------------------------------------===//

double elementAsDouble(DType t, const void *p) {
  if (t == DType::Ptr)
    return 0;
  return visitScalar(t, [&](auto tag) -> double {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (isFloatStorageType<T>)
      return double(FloatOps<T>::get(v));
    else if constexpr (std::is_same_v<T, uint8_t>)
      return double(v & 1);
    else
      return double(v);
  });
}

void elementFromDouble(DType t, double v, void *p) {
  if (t == DType::Ptr)
    return;
  visitScalar(t, [&](auto tag) {
    using T = decltype(tag);
    T r;
    if constexpr (isFloatStorageType<T>) {
      r = FloatOps<T>::fromDouble(v);
    } else {
      double tr = std::trunc(v);
      int64_t i = std::isnan(tr) ? 0
                  : tr >= 9.2233720368547758e18 ? INT64_MAX
                  : tr <= -9.2233720368547758e18 ? INT64_MIN
                                                  : int64_t(tr);
      r = IntOps<T>::wrap(uint64_t(i));
    }
    std::memcpy(p, &r, sizeof(T));
  });
}

int64_t elementAsInt(DType t, const void *p) {
  if (isFloat(t) || t == DType::Ptr)
    return int64_t(elementAsDouble(t, p));
  return visitInt(t, [&](auto tag) -> int64_t {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (std::is_same_v<T, uint8_t>)
      return v & 1;
    else
      return int64_t(v);
  });
}

void elementFromInt(DType t, int64_t v, void *p) {
  if (isFloat(t)) {
    if (t == DType::F16) {
      uint16_t h = int64ToHalf(v);
      std::memcpy(p, &h, 2);
    } else if (t == DType::BF16) {
      uint16_t h = int64ToBHalf(v);
      std::memcpy(p, &h, 2);
    } else {
      elementFromDouble(t, double(v), p);
    }
    return;
  }
  if (t == DType::Ptr)
    return;
  visitInt(t, [&](auto tag) {
    using T = decltype(tag);
    T r = IntOps<T>::wrap(uint64_t(v));
    std::memcpy(p, &r, sizeof(T));
  });
}

} // namespace tcc::interp
