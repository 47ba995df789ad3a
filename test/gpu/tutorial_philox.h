// Triton's random numbers on the host, for the tests of tcc's rand/randint/randn
// (compiler/Frontend/SemaRandom.cpp): Philox4x32 with Triton's constants, counter
// (offset low word, offset high word for 64-bit offsets else 0, 0, 0), key (seed low word,
// seed high word of the seed sign-extended to 64 bits), then Triton's uint_to_uniform_float.
// Written from the algorithm (Salmon et al., "Parallel Random Numbers: As Easy as 1, 2, 3",
// SC 2011) and Triton's python/triton/language/random.py; checked against Random123's
// known-answer vector for counter 0 and key 0 (tutorial_ports_test.cpp, tutorials_test.cpp).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace tutorial_philox {

inline std::array<uint32_t, 4> philox(uint64_t seed, uint64_t offset, bool wideOffset,
                                      int rounds = 10) {
  uint32_t c0 = uint32_t(offset), c1 = wideOffset ? uint32_t(offset >> 32) : 0, c2 = 0, c3 = 0;
  uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
  for (int r = 0; r < rounds; ++r) {
    uint64_t pa = uint64_t(0xD2511F53u) * c0, pb = uint64_t(0xCD9E8D57u) * c2;
    uint32_t n0 = uint32_t(pb >> 32) ^ c1 ^ k0, n2 = uint32_t(pa >> 32) ^ c3 ^ k1;
    c1 = uint32_t(pb);
    c3 = uint32_t(pa);
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {c0, c1, c2, c3};
}

/// A 32-bit seed as Triton takes it: sign-extended to 64 bits.
inline uint64_t seedOf(int32_t seed) { return uint64_t(int64_t(seed)); }

/// Triton's uint_to_uniform_float for 32 bits: in [0, 1), rounded as the GPU rounds
/// (i32 -> f32 to nearest even, one f32 product).
inline float uniform(uint32_t bits) {
  int32_t x = int32_t(bits);
  if (x < 0)
    x = ~x;
  return float(x) * 4.6566127342e-10f;
}

inline float rand(int32_t seed, int32_t offset) {
  return uniform(philox(seedOf(seed), uint64_t(uint32_t(offset)), false)[0]);
}

} // namespace tutorial_philox
