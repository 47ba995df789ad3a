// The ports of Triton's tutorials (lang-examples/triton/NN_*.tile, issue 13), interpreted,
// against C++ references in double precision, with the memory checker on (no out-of-bounds
// access, no read of unwritten memory, nothing written outside the output view). The GPU
// runs the same ports in test/gpu/tutorial_ports_test.cpp.
#include "example_harness.h"

#include "../gpu/tutorial_philox.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tcc::examples;
using tcc::interp::Buffer;
using tcc::interp::DType;

namespace {

TEST(Tutorials, VectorAdd01) {
  for (int block : {1024, 128}) {
    Example ex("triton/01_vector_add.tile", {"BLOCK_SIZE=" + std::to_string(block)});
    ASSERT_TRUE(ex.ok()) << ex.error();
    // The tutorial's 98432, and lengths around the block.
    for (int64_t n : {int64_t(98432), int64_t(1), int64_t(block - 1), int64_t(block + 1)}) {
      SCOPED_TRACE("BLOCK_SIZE " + std::to_string(block) + ", n = " + std::to_string(n));
      Launch l(ex.get());
      Buffer &x = l.random("x_ptr", DType::F32, n, 1);
      Buffer &y = l.random("y_ptr", DType::F32, n, 2);
      l.output("output_ptr", DType::F32, n);
      l.scalar("n_elements", n);
      auto r = l.run();
      ASSERT_TRUE(r.ok) << r.error;
      // A correctly rounded f32 add is the exact sum rounded once: exact against f32(x + y).
      EXPECT_EQ(compareView(l["output_ptr"], makeView(1, n, Layout::Contiguous),
                            [&](int64_t, int64_t j) { return double(float(x.get(j) + y.get(j))); },
                            0, 0),
                "");
    }
  }
}

void runSoftmax(Example &ex, int64_t m, int64_t n, int64_t inStride, int64_t outStride) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " strides " +
               std::to_string(inStride) + ", " + std::to_string(outStride));
  View iv{m, n, inStride, 1, (m - 1) * inStride + n};
  View ov{m, n, outStride, 1, (m - 1) * outStride + n};
  Launch l(ex.get());
  Buffer &in = l.random("input_ptr", DType::F32, iv.size, 3);
  for (int64_t k = 0; k < iv.size; ++k) // magnitudes where exp overflows without the max
    in.set(k, in.get(k) * 100);
  l.output("output_ptr", DType::F32, ov.size);
  l.scalar("input_row_stride", inStride);
  l.scalar("output_row_stride", outStride);
  l.scalar("n_rows", m);
  l.scalar("n_cols", n);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<double> ref(size_t(m * n));
  for (int64_t i = 0; i < m; ++i) {
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < n; ++j)
      mx = std::max(mx, in.get(iv.at(i, j)));
    for (int64_t j = 0; j < n; ++j)
      sum += ref[size_t(i * n + j)] = std::exp(in.get(iv.at(i, j)) - mx);
    for (int64_t j = 0; j < n; ++j)
      ref[size_t(i * n + j)] /= sum;
  }
  EXPECT_EQ(compareView(l["output_ptr"], ov, [&](int64_t i, int64_t j) { return ref[size_t(i * n + j)]; },
                        1e-6, 1e-5),
            "");
}

TEST(Tutorials, FusedSoftmax02) {
  // BLOCK_SIZE is the next power of two >= n_cols, as the tutorial's launcher computes.
  Example ex("triton/02_fused_softmax.tile", {"BLOCK_SIZE=1024"});
  ASSERT_TRUE(ex.ok()) << ex.error();
  runSoftmax(ex, 1823, 781, 781, 781); // the tutorial's test shape
  runSoftmax(ex, 3, 1024, 1100, 1024);
  runSoftmax(ex, 1, 513, 513, 600);
  Example small("triton/02_fused_softmax.tile", {"BLOCK_SIZE=1"});
  ASSERT_TRUE(small.ok()) << small.error();
  runSoftmax(small, 5, 1, 1, 1);
}

void runMatmul(Example &ex, int64_t m, int64_t n, int64_t k, bool leaky) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
               (leaky ? " leaky_relu" : ""));
  Launch l(ex.get());
  Buffer &a = l.random("a_ptr", DType::F16, m * k, 11);
  Buffer &b = l.random("b_ptr", DType::F16, k * n, 12);
  l.output("c_ptr", DType::F16, m * n);
  l.scalar("M", m);
  l.scalar("N", n);
  l.scalar("K", k);
  l.scalar("stride_am", k);
  l.scalar("stride_ak", 1);
  l.scalar("stride_bk", n);
  l.scalar("stride_bn", 1);
  l.scalar("stride_cm", n);
  l.scalar("stride_cn", 1);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<double> ref(size_t(m * n), 0), mag(size_t(m * n), 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t kk = 0; kk < k; ++kk) {
      double x = a.get(i * k + kk);
      for (int64_t j = 0; j < n; ++j) {
        double p = x * b.get(kk * n + j);
        ref[size_t(i * n + j)] += p;
        mag[size_t(i * n + j)] += std::fabs(p);
      }
    }
  EXPECT_EQ(compareViewTol(l["c_ptr"], makeView(m, n, Layout::Contiguous),
                           [&](int64_t i, int64_t j) {
                             double v = ref[size_t(i * n + j)];
                             // f32 accumulation over k (and the 0.01 * x product, rounded in f32)
                             double acc = double(k + 1) * 0x1p-24 * mag[size_t(i * n + j)];
                             if (leaky && v < 0) {
                               v *= 0.01;
                               acc = 0.01 * acc + 0x1p-24 * std::fabs(v);
                             }
                             // f16 rounding of the result
                             return std::pair<double, double>(
                                 v, acc + 0x1p-11 * (std::fabs(v) + acc) + 0x1p-25 + 0x1p-24);
                           }),
            "");
}

TEST(Tutorials, MatrixMultiplication03) {
  // Two of the tutorial's configurations (the first and the last of its list), plain and
  // with the fused leaky ReLU; shapes that are and are not multiples of the blocks (the
  // kernel wraps its row and column offsets modulo M and N, as the tutorial's does).
  for (int config : {0, 15})
    for (bool leaky : {false, true}) {
      std::vector<std::string> defines;
      if (leaky)
        defines.push_back("ACTIVATION=\"leaky_relu\"");
      Example ex("triton/03_matrix_multiplication.tile", defines, config);
      ASSERT_TRUE(ex.ok()) << ex.error();
      SCOPED_TRACE("configuration " + std::to_string(config));
      runMatmul(ex, 128, 256, 64, leaky);
      runMatmul(ex, 37, 45, 70, leaky);
      runMatmul(ex, 1, 1, 1, leaky);
    }
}

TEST(Tutorials, PhiloxKnownAnswer) {
  // Random123's known-answer vector for Philox4x32-10, counter 0 and key 0, checks the
  // host reference the tests below (and the GPU tests) use.
  std::array<uint32_t, 4> w = tutorial_philox::philox(0, 0, false);
  EXPECT_EQ(w[0], 0x6627e8d5u);
  EXPECT_EQ(w[1], 0xe169c58du);
  EXPECT_EQ(w[2], 0xbc57ac4cu);
  EXPECT_EQ(w[3], 0x9b00dbd8u);
}

TEST(Tutorials, LowMemoryDropout04) {
  Example seeded("triton/04_low_memory_dropout.tile", {}, -1, "_seeded_dropout");
  ASSERT_TRUE(seeded.ok()) << seeded.error();
  Example plain("triton/04_low_memory_dropout.tile", {}, -1, "_dropout");
  ASSERT_TRUE(plain.ok()) << plain.error();
  for (int64_t n : {int64_t(10), int64_t(1), int64_t(1025), int64_t(100003)})
    for (float p : {0.5f, 0.3f})
      for (int32_t seed : {123, 512, -7}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", p = " + std::to_string(p) + ", seed " +
                     std::to_string(seed));
        Launch l(seeded.get());
        Buffer &x = l.random("x_ptr", DType::F32, n, 5);
        l.output("output_ptr", DType::F32, n);
        l.scalar("n_elements", n);
        l.scalarF("p", p);
        l.scalar("seed", seed);
        auto r = l.run();
        ASSERT_TRUE(r.ok) << r.error;
        int64_t kept = 0;
        // Exact: Triton's Philox bits, its uniform float, an IEEE f32 division.
        EXPECT_EQ(compareView(l["output_ptr"], makeView(1, n, Layout::Contiguous),
                              [&](int64_t, int64_t j) {
                                bool keep = tutorial_philox::rand(seed, int32_t(j)) > p;
                                kept += keep;
                                return keep ? double(float(x.get(j)) / (1.0f - p)) : 0.0;
                              },
                              0, 0),
                  "");
        if (n > 10000) // about 1 - p of the elements are kept
          EXPECT_NEAR(double(kept) / double(n), 1.0 - p, 0.01);
      }
  // The baseline kernel with an explicit int32 keep mask (non-zero keeps, as in Triton).
  const int64_t n = 3000;
  Launch l(plain.get());
  Buffer &x = l.random("x_ptr", DType::F32, n, 6);
  Buffer &keep = l.random("x_keep_ptr", DType::I32, n, 7); // integers in [-8, 8]
  l.output("output_ptr", DType::F32, n);
  l.scalar("n_elements", n);
  l.scalarF("p", 0.25);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(compareView(l["output_ptr"], makeView(1, n, Layout::Contiguous),
                        [&](int64_t, int64_t j) {
                          return keep.get(j) != 0 ? double(float(x.get(j)) / 0.75f) : 0.0;
                        },
                        0, 0),
            "");
}

} // namespace
