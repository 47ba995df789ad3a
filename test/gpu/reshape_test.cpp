// Reshapes that move elements between threads on the GPU (issue 13 item 6), of
// test/gpu/kernels/reshape.tile against the row-major order computed here: tutorial 09's
// EPILOGUE_SUBTILE (reshape, permute, split into the two column halves), ravel, and view of
// a masked 1-D tile as a 2-D one, for several runtime n. Elements move bit for bit.

#include "gpu_util.h"

#include "tcc/bench.h"

namespace {

std::string reshapeDir() { return gputest::artifactsDir() + "/tcc/reshape/W4"; }

constexpr int kBM = 64, kBN = 64, kN = kBM * kBN;

class Reshapes : public ::testing::TestWithParam<int> {};

TEST_P(Reshapes, KeepRowMajorOrder) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(reshapeDir() + "/reshape.json");
  const int n = GetParam();
  std::vector<float> x(kN);
  gputest::fillRandom(x.data(), x.size(), 17 + uint64_t(n));
  tcc::bench::DeviceBuffer bx(4 * kN), blo(4 * kN / 2), bhi(4 * kN / 2), bflat(4 * kN),
      brows(4 * kN);
  gputest::upload(bx.get(), x.data(), 4 * kN);
  gputest::fill32(brows.get(), 0x7fbadbadu, kN);
  tcc::Library lib(reshapeDir());
  lib.kernel("reshapes").launch(nullptr, bx.get(), blo.get(), bhi.get(), bflat.get(),
                                brows.get(), n);
  gputest::synchronize();
  std::vector<float> lo(kN / 2), hi(kN / 2), flat(kN), rows(kN);
  gputest::download(lo.data(), blo.get(), 4 * lo.size());
  gputest::download(hi.data(), bhi.get(), 4 * hi.size());
  gputest::download(flat.data(), bflat.get(), 4 * flat.size());
  gputest::download(rows.data(), brows.get(), 4 * rows.size());
  for (int i = 0; i < kBM; ++i)
    for (int j = 0; j < kBN / 2; ++j) {
      ASSERT_EQ(lo[size_t(i * kBN / 2 + j)], x[size_t(i * kBN + j)]) << i << ", " << j;
      ASSERT_EQ(hi[size_t(i * kBN / 2 + j)], x[size_t(i * kBN + kBN / 2 + j)]) << i << ", " << j;
    }
  for (int i = 0; i < kN; ++i) {
    ASSERT_EQ(flat[size_t(i)], 2.0f * x[size_t(i)]) << i;
    if (i < n)
      ASSERT_EQ(rows[size_t(i)], x[size_t(i)] + 1.0f) << i;
    else
      ASSERT_EQ(gputest::bitsOf(rows[size_t(i)]), 0x7fbadbadu) << "written past n at " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, Reshapes, ::testing::Values(kN, 1, 1000, 4095));

} // namespace
