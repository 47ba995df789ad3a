#include "matrix.h"

#include "gpu_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace gputest {

DType dtypeOf(const std::string& paramType) {
  std::string t = !paramType.empty() && paramType[0] == '*' ? paramType.substr(1) : paramType;
  if (t == "f32")
    return DType::F32;
  if (t == "f16")
    return DType::F16;
  if (t == "bf16")
    return DType::BF16;
  throw std::invalid_argument("no test element type for '" + paramType + "'");
}

size_t bytesOf(DType t) {
  return t == DType::F32 ? 4 : 2;
}

const char* nameOf(DType t) {
  switch (t) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  }
  return "?";
}

uint16_t floatToHalf(float f) {
  uint32_t x = bitsOf(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t a = x & 0x7fffffffu;
  if (a > 0x7f800000u)
    return sign | 0x7e00u; // NaN
  if (a >= 0x47800000u)
    return sign | 0x7c00u; // 2^16 and above (and infinity): infinity
  if (a < 0x38800000u) {   // below 2^-14: a subnormal half, or zero
    if (a < 0x33000000u)   // at most 2^-25: rounds to zero
      return sign;
    const int e = static_cast<int>(a >> 23);
    const uint32_t m = (a & 0x7fffffu) | 0x800000u;
    const int shift = 126 - e; // the value is m * 2^(e - 150); the half unit is 2^-24
    uint32_t r = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u)))
      ++r;
    return static_cast<uint16_t>(sign | r);
  }
  uint32_t h = (a >> 13) - (112u << 10); // exponent re-biased from 127 to 15
  const uint32_t rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
    ++h; // a carry into the exponent is right, up to infinity
  return static_cast<uint16_t>(sign | h);
}

float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) {
    float v = std::ldexp(static_cast<float>(m), -24);
    return sign ? -v : v;
  }
  uint32_t bits =
      e == 31 ? (sign | 0x7f800000u | (m << 13)) : (sign | ((e + 112u) << 23) | (m << 13));
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t floatToBf16(float f) {
  uint32_t x = bitsOf(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((x >> 16) | 0x40u); // NaN stays NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

float bf16ToFloat(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

Layout Layout::rowMajor(int64_t rows, int64_t cols, int64_t pad, int64_t lead) {
  Layout l;
  l.rows = rows;
  l.cols = cols;
  l.rowStride = cols + pad;
  l.colStride = 1;
  l.lead = lead;
  return l;
}

Layout Layout::colMajor(int64_t rows, int64_t cols, int64_t pad, int64_t lead) {
  Layout l;
  l.rows = rows;
  l.cols = cols;
  l.rowStride = 1;
  l.colStride = rows + pad;
  l.lead = lead;
  return l;
}

Layout Layout::spread(int64_t rows, int64_t cols, int64_t cs, int64_t lead) {
  Layout l;
  l.rows = rows;
  l.cols = cols;
  l.rowStride = cs * cols;
  l.colStride = cs;
  l.lead = lead;
  return l;
}

int64_t Layout::total() const {
  int64_t last = rows > 0 && cols > 0 ? (rows - 1) * rowStride + (cols - 1) * colStride : 0;
  return lead + last + 1 + guard;
}

std::string Layout::describe() const {
  return std::to_string(rows) + "x" + std::to_string(cols) + " rs=" + std::to_string(rowStride) +
         " cs=" + std::to_string(colStride) + " lead=" + std::to_string(lead);
}

namespace {
// Poisons: NaNs that no arithmetic produces (it gives the canonical 0x7fffffff / 0x7fc00000).
uint32_t poisonFor(DType t, Matrix::Role role) {
  bool in = role == Matrix::Role::Input;
  switch (t) {
  case DType::F32:
    return in ? 0x7fdeadceu : 0x7fbadbadu;
  case DType::F16:
    return in ? 0x7d0du : 0x7e5bu;
  case DType::BF16:
    return in ? 0x7fd3u : 0x7fbau;
  }
  return 0;
}
} // namespace

Matrix::Matrix(DType type, Layout layout, Role role)
    : type_(type), layout_(layout), role_(role),
      host_(static_cast<size_t>(layout.total()) * bytesOf(type)),
      dev_(static_cast<size_t>(layout.total()) * bytesOf(type)) {
  const uint32_t p = poisonBits();
  const int64_t n = layout_.total();
  if (type_ == DType::F32) {
    auto* d = reinterpret_cast<uint32_t*>(host_.data());
    std::fill(d, d + n, p);
  } else {
    auto* d = reinterpret_cast<uint16_t*>(host_.data());
    std::fill(d, d + n, static_cast<uint16_t>(p));
  }
}

CUdeviceptr Matrix::ptr() const {
  return dev_.get() + layout_.lead * bytesOf(type_);
}

uint32_t Matrix::poisonBits() const {
  return poisonFor(type_, role_);
}

uint32_t Matrix::bitsAt(int64_t pos) const {
  if (type_ == DType::F32) {
    uint32_t u;
    std::memcpy(&u, host_.data() + pos * 4, 4);
    return u;
  }
  uint16_t u;
  std::memcpy(&u, host_.data() + pos * 2, 2);
  return u;
}

double Matrix::valueAt(int64_t pos) const {
  uint32_t b = bitsAt(pos);
  switch (type_) {
  case DType::F32: {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  case DType::F16:
    return halfToFloat(static_cast<uint16_t>(b));
  case DType::BF16:
    return bf16ToFloat(static_cast<uint16_t>(b));
  }
  return 0;
}

void Matrix::set(int64_t pos, double v) {
  float f = static_cast<float>(v);
  switch (type_) {
  case DType::F32:
    std::memcpy(host_.data() + pos * 4, &f, 4);
    break;
  case DType::F16: {
    uint16_t h = floatToHalf(f);
    std::memcpy(host_.data() + pos * 2, &h, 2);
    break;
  }
  case DType::BF16: {
    uint16_t h = floatToBf16(f);
    std::memcpy(host_.data() + pos * 2, &h, 2);
    break;
  }
  }
}

void Matrix::randomize(uint64_t seed, double lo, double hi) {
  const Layout& l = layout_;
  parallelFor(l.rows, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      // One stream per row, so that the values do not depend on the number of threads.
      uint64_t s =
          (seed * 0x9E3779B97F4A7C15ull) ^ (static_cast<uint64_t>(i + 1) * 0xD1B54A32D192ED03ull);
      s |= 1;
      for (int64_t j = 0; j < l.cols; ++j) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        double u = static_cast<double>(s >> 11) * (1.0 / 9007199254740992.0); // [0, 1)
        double v = lo + (hi - lo) * u;
        set(l.offset(i, j), (s & 1) ? v : -v);
      }
    }
  });
}

void Matrix::upload() {
  gputest::upload(dev_.get(), host_.data(), host_.size());
}

void Matrix::poison() {
  const uint32_t p = poisonBits();
  const int64_t n = layout_.total();
  if (type_ == DType::F32) {
    gputest::fill32(dev_.get(), p, static_cast<size_t>(n));
    auto* d = reinterpret_cast<uint32_t*>(host_.data());
    std::fill(d, d + n, p);
  } else {
    auto* d = reinterpret_cast<uint16_t*>(host_.data());
    std::fill(d, d + n, static_cast<uint16_t>(p));
    upload();
  }
}

void Matrix::download() {
  gputest::download(host_.data(), dev_.get(), host_.size());
}

int64_t Matrix::countWrittenOutside(int64_t* first) const {
  const Layout& l = layout_;
  std::vector<uint8_t> inside(static_cast<size_t>(l.total()), 0);
  for (int64_t i = 0; i < l.rows; ++i)
    for (int64_t j = 0; j < l.cols; ++j)
      inside[static_cast<size_t>(l.offset(i, j))] = 1;
  int64_t bad = 0;
  if (first)
    *first = -1;
  for (int64_t p = 0; p < l.total(); ++p) {
    if (!inside[static_cast<size_t>(p)] && !isPoison(p)) {
      if (first && *first < 0)
        *first = p;
      ++bad;
    }
  }
  return bad;
}

void parallelFor(int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0)
    return;
  int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, n);
  if (threads == 1) {
    fn(0, n);
    return;
  }
  std::vector<std::thread> pool;
  const int64_t chunk = (n + threads - 1) / threads;
  for (int64_t t = 0; t < threads; ++t) {
    int64_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e)
      pool.emplace_back(fn, b, e);
  }
  for (std::thread& th : pool)
    th.join();
}

} // namespace gputest

namespace gputest {

std::string CheckResult::describe() const {
  std::string s = std::to_string(bad) + " of " + std::to_string(checked) + " elements wrong";
  if (bad) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "; the first at (%lld, %lld): got %.9g, want %.9g (bound %.3g)",
                  static_cast<long long>(badI), static_cast<long long>(badJ), badGot, badWant,
                  badBound);
    s += buf;
  }
  if (worst > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "; worst error %.3g of its bound", worst);
    s += buf;
  }
  s += "; " + std::to_string(outside) + " elements written outside the view";
  if (outside)
    s += " (the first at element " + std::to_string(firstOutside) + " of the allocation)";
  return s;
}

CheckResult checkOutput(const Matrix& out,
                        const std::function<Expected(int64_t, int64_t)>& expected) {
  const Layout& l = out.layout();
  CheckResult r;
  std::mutex m;
  parallelFor(l.rows, [&](int64_t r0, int64_t r1) {
    CheckResult local;
    for (int64_t i = r0; i < r1; ++i) {
      for (int64_t j = 0; j < l.cols; ++j) {
        const int64_t pos = l.offset(i, j);
        const Expected e = expected(i, j);
        const double got = out.valueAt(pos);
        const double err = std::fabs(got - e.value);
        bool good = e.bound > 0 ? err <= e.bound : got == e.value;
        if (e.bound > 0 && err == err)
          local.worst = std::max(local.worst, err / e.bound);
        ++local.checked;
        if (!good) {
          if (local.bad == 0) {
            local.badI = i;
            local.badJ = j;
            local.badGot = got;
            local.badWant = e.value;
            local.badBound = e.bound;
          }
          ++local.bad;
        }
      }
    }
    std::lock_guard<std::mutex> lock(m);
    r.checked += local.checked;
    r.worst = std::max(r.worst, local.worst);
    if (local.bad && (r.bad == 0 || local.badI < r.badI)) {
      r.badI = local.badI;
      r.badJ = local.badJ;
      r.badGot = local.badGot;
      r.badWant = local.badWant;
      r.badBound = local.badBound;
    }
    r.bad += local.bad;
  });
  r.outside = out.countWrittenOutside(&r.firstOutside);
  return r;
}

} // namespace gputest
