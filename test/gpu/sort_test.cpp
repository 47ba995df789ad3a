// sort and flip on the GPU (issue 13 item 9) of test/gpu/kernels/sort_flip.tile against
// std::sort and reversed copies, on ragged sizes: a 1-D tile of 1024 sorted up and down
// (bitonic steps across registers, lanes and warps), rows of i32 sorted along the last
// dimension and columns along the first, flips of one and of both axes. Sorting keeps the
// bits of every element, so the results are exact.

#include "gpu_util.h"

#include "tcc/bench.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

namespace {

std::string sortDir() { return gputest::artifactsDir() + "/tcc/sort_flip/W4"; }

constexpr int kL = 1024, kBM = 8, kBN = 64;

struct SortSizes {
  int n, M, N;
};

class SortFlip : public ::testing::TestWithParam<SortSizes> {};

TEST_P(SortFlip, MatchesStdSort) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(sortDir() + "/sort_flip.json");
  const SortSizes sz = GetParam();
  const size_t n = size_t(sz.n), m2 = size_t(sz.M) * size_t(sz.N);
  std::vector<float> x(std::max<size_t>(std::max<size_t>(n, m2), 1));
  gputest::fillRandom(x.data(), x.size(), 99 + n);
  if (x.size() > 8) { // ties, signed zeros
    x[1] = x[5];
    x[2] = 0.0f;
    x[3] = -0.0f;
  }
  std::mt19937 gen(uint32_t(n + 3 * m2));
  std::uniform_int_distribution<int32_t> any(-1000, 1000);
  std::vector<int32_t> xi(std::max<size_t>(m2, 1));
  for (auto &v : xi)
    v = any(gen);
  tcc::bench::DeviceBuffer bx(4 * x.size()), bxi(4 * xi.size()), bup(4 * kL), bdown(4 * kL),
      bflip(4 * kL), brows(4 * xi.size()), bcols(4 * xi.size()), bflip2(4 * kBM * kBN);
  gputest::upload(bx.get(), x.data(), 4 * x.size());
  gputest::upload(bxi.get(), xi.data(), 4 * xi.size());
  for (CUdeviceptr p : {bup.get(), bdown.get(), bflip.get()})
    gputest::fill32(p, 0x7fbadbadu, kL);
  gputest::fill32(bflip2.get(), 0x7fbadbadu, kBM * kBN);
  tcc::Library lib(sortDir());
  lib.kernel("sort_flip").launch(nullptr, bx.get(), bxi.get(), bup.get(), bdown.get(),
                                 bflip.get(), brows.get(), bcols.get(), bflip2.get(), sz.n, sz.M,
                                 sz.N);
  gputest::synchronize();
  std::vector<float> up(kL), down(kL), flipped(kL), flip2(kBM * kBN);
  std::vector<int32_t> rows(xi.size()), cols(xi.size());
  gputest::download(up.data(), bup.get(), 4 * kL);
  gputest::download(down.data(), bdown.get(), 4 * kL);
  gputest::download(flipped.data(), bflip.get(), 4 * kL);
  gputest::download(flip2.data(), bflip2.get(), 4 * flip2.size());
  gputest::download(rows.data(), brows.get(), 4 * rows.size());
  gputest::download(cols.data(), bcols.get(), 4 * cols.size());

  std::vector<float> want(x.begin(), x.begin() + long(n));
  std::sort(want.begin(), want.end());
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(up[i], want[i]) << "ascending at " << i;
  std::sort(want.begin(), want.end(), std::greater<float>());
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(down[i], want[i]) << "descending at " << i;
  for (int i = 0; i < kL; ++i) {
    int from = kL - 1 - i;
    float w = from < sz.n ? x[size_t(from)] : 0.0f;
    ASSERT_EQ(gputest::bitsOf(flipped[size_t(i)]), gputest::bitsOf(w)) << "flip at " << i;
  }
  for (int i = 0; i < sz.M; ++i) {
    std::vector<int32_t> row(xi.begin() + long(i) * sz.N, xi.begin() + long(i + 1) * sz.N);
    std::sort(row.begin(), row.end());
    for (int j = 0; j < sz.N; ++j)
      ASSERT_EQ(rows[size_t(i * sz.N + j)], row[size_t(j)]) << "row " << i << " at " << j;
  }
  for (int j = 0; j < sz.N; ++j) {
    std::vector<int32_t> col;
    for (int i = 0; i < sz.M; ++i)
      col.push_back(xi[size_t(i * sz.N + j)]);
    std::sort(col.begin(), col.end());
    for (int i = 0; i < sz.M; ++i)
      ASSERT_EQ(cols[size_t(i * sz.N + j)], col[size_t(i)]) << "column " << j << " at " << i;
  }
  for (int i = 0; i < kBM; ++i)
    for (int j = 0; j < kBN; ++j) {
      int si = kBM - 1 - i, sj = kBN - 1 - j;
      float w = si < sz.M && sj < sz.N ? x[size_t(si * sz.N + sj)] : 0.0f;
      ASSERT_EQ(gputest::bitsOf(flip2[size_t(i * kBN + j)]), gputest::bitsOf(w))
          << "2-D flip at " << i << ", " << j;
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SortFlip,
                         ::testing::Values(SortSizes{kL, kBM, kBN}, SortSizes{1, 1, 1},
                                           SortSizes{1000, 3, 37}, SortSizes{513, 8, 63},
                                           SortSizes{64, 5, 64}));

} // namespace
