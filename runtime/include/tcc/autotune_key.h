// How autotuning buckets a key argument's value, shared by the runtime's tuner and the
// compiler's check of tuning tables (tcc --tuning). Header-only and exception-free.
#pragma once

#include <cstdint>
#include <limits>

namespace tcc {

// A key argument's value as autotuning buckets it: the next power of two at or above it for
// values of 1 and more (1000 and 1024 give 1024), 0 and negative values as they are; values
// above 2^62 all give INT64_MAX.
inline int64_t autotuneBucket(int64_t value) {
  if (value <= 1)
    return value;
  if (value > (int64_t(1) << 62))
    return std::numeric_limits<int64_t>::max();
  int64_t p = 1;
  while (p < value)
    p <<= 1;
  return p;
}

} // namespace tcc
