//===- Format.cpp - printing elements and tiles ---------------------------===//

#include "compiler/Interpreter/Format.h"

#include <algorithm>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tcc::interp {

/// The shortest %g rendering of `v` that converts back to the same element of `dtype`.
static std::string shortestFloat(DType dtype, double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buf[40];
  unsigned char want[8] = {}, got[8] = {};
  elementFromDouble(dtype, v, want);
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    elementFromDouble(dtype, std::strtod(buf, nullptr), got);
    if (std::memcmp(want, got, dtypeSize(dtype)) == 0)
      break;
  }
  std::string s = buf;
  // %g switches to an exponent as soon as the digits run out ("1e+01" for 10): write
  // moderate magnitudes in fixed notation with the same digits.
  size_t e = s.find('e');
  if (e != std::string::npos) {
    int exp10 = std::atoi(s.c_str() + e + 1);
    if (exp10 >= -5 && exp10 < 16) {
      int digits = 0;
      for (size_t i = 0; i < e; ++i)
        digits += s[i] >= '0' && s[i] <= '9';
      int decimals = digits - 1 - exp10;
      std::snprintf(buf, sizeof buf, "%.*f", decimals > 0 ? decimals : 0, v);
      s = buf;
    }
  }
  // "1" reads as an integer; keep floats recognisable.
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s;
}

std::string formatElement(DType dtype, const void *p,
                          const std::function<std::string(const PtrVal &)> &pointer) {
  if (dtype == DType::Ptr) {
    PtrVal v;
    std::memcpy(&v, p, sizeof v);
    if (pointer)
      return pointer(v);
    return "<buffer " + std::to_string(v.buffer) + " + " + std::to_string(v.offset) + " bytes>";
  }
  if (dtype == DType::I1)
    return (*static_cast<const uint8_t *>(p) & 1) ? "true" : "false";
  if (isFloat(dtype))
    return shortestFloat(dtype, elementAsDouble(dtype, p));
  return std::to_string(elementAsInt(dtype, p));
}

namespace {
struct TilePrinter {
  DType dtype;
  const std::vector<int64_t> &shape;
  const unsigned char *data;
  bool elide;
  const std::function<std::string(const PtrVal &)> &pointer;
  std::vector<int64_t> strides;

  void print(size_t dim, int64_t offset, std::string &out) {
    if (dim == shape.size()) {
      out += formatElement(dtype, data + size_t(offset) * dtypeSize(dtype), pointer);
      return;
    }
    out += '[';
    int64_t n = shape[dim];
    for (int64_t i = 0; i < n; ++i) {
      if (i)
        out += ", ";
      if (elide && n > 6 && i == 3) {
        out += "..., ";
        i = n - 3;
      }
      print(dim + 1, offset + i * strides[dim], out);
    }
    out += ']';
  }
};
} // namespace

std::string formatTile(DType dtype, const std::vector<int64_t> &shape, const void *data,
                       int64_t limit, const std::function<std::string(const PtrVal &)> &pointer) {
  // An empty tile prints as NumPy prints one, "[]", whatever its other extents: nested
  // brackets for (10^10, 10, ..., 0) would be exponential in its rank even elided.
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    return "[]";
  int64_t numel = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(numel, d, &numel))
      numel = INT64_MAX;
  TilePrinter p{dtype, shape, static_cast<const unsigned char *>(data), limit > 0 && numel > limit,
                pointer, std::vector<int64_t>(shape.size(), 1)};
  for (size_t d = shape.size(); d-- > 1;)
    p.strides[d - 1] = p.strides[d] * shape[d];
  std::string out;
  p.print(0, 0, out);
  return out;
}

} // namespace tcc::interp
