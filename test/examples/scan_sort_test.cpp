// Scans, sort and flip (issue 13 item 9) in the interpreter: the GPU tests' kernels
// (test/gpu/kernels/scans.tile, sort_flip.tile) run through the front end and the
// interpreter on ragged sizes, against references computed here (the GPU runs the same
// kernels in test/gpu/scan_test.cpp and sort_test.cpp).
#include "example_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

using namespace tcc::examples;
using tcc::interp::Buffer;
using tcc::interp::DType;

namespace {

TEST(ScanSort, Scans) {
  Example ex("../test/gpu/kernels/scans.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  const int M = 3, N = 129, P = 130, Q = 3, n = 1000, S = 64;
  Launch l(ex.get());
  Buffer &x = l.random("x", DType::F32, P * Q, 1);
  Buffer &xi = l.random("xi", DType::I32, 2 * n, 2);
  Buffer &xb = l.random("xb", DType::I8, S, 3);
  std::mt19937 gen(5);
  std::uniform_int_distribution<int32_t> any(-100000, 100000);
  std::uniform_int_distribution<int> small(-128, 127);
  for (int64_t i = 0; i < 2 * n; ++i)
    xi.set(i, any(gen));
  for (int64_t i = 0; i < S; ++i)
    xb.set(i, small(gen));
  l.output("rows", DType::F32, 4 * M * N);
  l.output("counts", DType::I32, M * N);
  l.output("cols", DType::F32, 2 * P * Q);
  l.output("rec", DType::I32, 4 * n);
  l.output("small", DType::I32, 2 * S);
  for (auto [name, v] : {std::pair{"M", M}, {"N", N}, {"P", P}, {"Q", Q}, {"n", n}})
    l.scalar(name, v);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  const int plane = M * N;
  for (int i = 0; i < M; ++i) {
    double sum = 0, mx = -INFINITY;
    int count = 0;
    for (int j = 0; j < N; ++j) {
      double v = x.get(i * N + j);
      sum += v;
      mx = std::max(mx, v);
      count += v > 0;
      EXPECT_NEAR(l["rows"].get(i * N + j), sum, 1e-4) << i << ", " << j;
      EXPECT_EQ(l["rows"].get(3 * plane + i * N + j), mx) << i << ", " << j;
      EXPECT_EQ(l["counts"].get(i * N + j), count) << i << ", " << j;
    }
    double rsum = 0, prod = 1;
    for (int j = N - 1; j >= 0; --j) {
      float v = float(x.get(i * N + j));
      rsum += v;
      prod *= double(1.0f + v * 0.01f);
      EXPECT_NEAR(l["rows"].get(plane + i * N + j), rsum, 1e-4) << i << ", " << j;
      EXPECT_NEAR(l["rows"].get(2 * plane + i * N + j), prod, 1e-5 * prod * (N - j));
    }
  }
  for (int j = 0; j < Q; ++j) {
    double sum = 0;
    for (int i = 0; i < P; ++i) {
      sum += x.get(i * Q + j);
      EXPECT_NEAR(l["cols"].get(i * Q + j), sum, 1e-4) << i << ", " << j;
    }
    sum = 0;
    for (int i = P - 1; i >= 0; --i) {
      sum += x.get(i * Q + j);
      EXPECT_NEAR(l["cols"].get(P * Q + i * Q + j), sum, 1e-4) << i << ", " << j;
    }
  }
  // (m1, c1) then (m2, c2) is (m1 m2, c1 m2 + c2), wrapping.
  uint32_t fm = 1, fc = 0, bm = 1, bc = 0;
  for (int i = 0; i < n; ++i) {
    uint32_t m = uint32_t(int32_t(xi.get(i))), c = uint32_t(int32_t(xi.get(n + i)));
    fc = fc * m + c;
    fm *= m;
    ASSERT_EQ(int32_t(l["rec"].get(i)), int32_t(fm)) << i;
    ASSERT_EQ(int32_t(l["rec"].get(n + i)), int32_t(fc)) << i;
  }
  for (int i = n - 1; i >= 0; --i) {
    uint32_t m = uint32_t(int32_t(xi.get(i))), c = uint32_t(int32_t(xi.get(n + i)));
    bc = bc * m + c;
    bm *= m;
    ASSERT_EQ(int32_t(l["rec"].get(2 * n + i)), int32_t(bm)) << i;
    ASSERT_EQ(int32_t(l["rec"].get(3 * n + i)), int32_t(bc)) << i;
  }
  int s = 0;
  for (int i = 0; i < S; ++i) {
    s += int(xb.get(i));
    EXPECT_EQ(l["small"].get(i), s) << i;
  }
  s = 0;
  for (int i = S - 1; i >= 0; --i) {
    s += int(xb.get(i));
    EXPECT_EQ(l["small"].get(S + i), s) << i;
  }
}

TEST(ScanSort, SortFlip) {
  Example ex("../test/gpu/kernels/sort_flip.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  const int n = 1000, M = 5, N = 37, L = 1024, BM = 8, BN = 64;
  Launch l(ex.get());
  Buffer &x = l.random("x", DType::F32, n, 11);
  x.set(1, x.get(5)); // a tie
  Buffer &xi = l.random("xi", DType::I32, M * N, 12);
  std::mt19937 gen(13);
  std::uniform_int_distribution<int32_t> any(-1000, 1000);
  for (int64_t i = 0; i < M * N; ++i)
    xi.set(i, any(gen));
  l.output("up", DType::F32, L);
  l.output("down", DType::F32, L);
  l.output("flipped", DType::F32, L);
  l.output("rows", DType::I32, M * N);
  l.output("cols", DType::I32, M * N);
  l.output("flip2", DType::F32, BM * BN);
  l.scalar("n", n);
  l.scalar("M", M);
  l.scalar("N", N);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<double> want;
  for (int i = 0; i < n; ++i)
    want.push_back(x.get(i));
  std::sort(want.begin(), want.end());
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(l["up"].get(i), want[size_t(i)]) << i;
  std::sort(want.begin(), want.end(), std::greater<double>());
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(l["down"].get(i), want[size_t(i)]) << i;
  for (int i = 0; i < L; ++i)
    ASSERT_EQ(l["flipped"].get(i), L - 1 - i < n ? x.get(L - 1 - i) : 0.0) << i;
  for (int i = 0; i < M; ++i) {
    std::vector<double> row;
    for (int j = 0; j < N; ++j)
      row.push_back(xi.get(i * N + j));
    std::sort(row.begin(), row.end());
    for (int j = 0; j < N; ++j)
      ASSERT_EQ(l["rows"].get(i * N + j), row[size_t(j)]) << i << ", " << j;
  }
  for (int j = 0; j < N; ++j) {
    std::vector<double> col;
    for (int i = 0; i < M; ++i)
      col.push_back(xi.get(i * N + j));
    std::sort(col.begin(), col.end());
    for (int i = 0; i < M; ++i)
      ASSERT_EQ(l["cols"].get(i * N + j), col[size_t(i)]) << i << ", " << j;
  }
  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN; ++j) {
      int si = BM - 1 - i, sj = BN - 1 - j;
      double w = si < M && sj < N ? x.get(si * N + sj) : 0.0;
      ASSERT_EQ(l["flip2"].get(i * BN + j), w) << i << ", " << j;
    }
}

} // namespace

namespace {

TEST(ScanSort, Reshape) {
  Example ex("../test/gpu/kernels/reshape.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  const int BM = 64, BN = 64, N = BM * BN, n = 1000;
  Launch l(ex.get());
  Buffer &x = l.random("x", DType::F32, N, 21);
  l.output("lo", DType::F32, N / 2);
  l.output("hi", DType::F32, N / 2);
  l.output("flat", DType::F32, N);
  l.output("rows", DType::F32, N);
  l.scalar("n", n);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN / 2; ++j) {
      ASSERT_EQ(l["lo"].get(i * BN / 2 + j), x.get(i * BN + j)) << i << ", " << j;
      ASSERT_EQ(l["hi"].get(i * BN / 2 + j), x.get(i * BN + BN / 2 + j)) << i << ", " << j;
    }
  for (int i = 0; i < N; ++i)
    ASSERT_EQ(l["flat"].get(i), 2.0 * x.get(i)) << i;
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(l["rows"].get(i), double(float(x.get(i)) + 1.0f)) << i;
}

} // namespace
