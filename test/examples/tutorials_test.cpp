// The ports of Triton's tutorials (lang-examples/triton/NN_*.tile, issue 13), interpreted,
// against C++ references in double precision, with the memory checker on (no out-of-bounds
// access, no read of unwritten memory, nothing written outside the output view). The GPU
// runs the same ports in test/gpu/tutorial_ports_test.cpp.
#include "example_harness.h"

#include "../gpu/fp8_reference.h"
#include "../gpu/tutorial_philox.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <set>

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
        if (n > 10000) { // about 1 - p of the elements are kept
          EXPECT_NEAR(double(kept) / double(n), 1.0 - p, 0.01);
        }
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

/// Tutorial 05 forward, backward (dx with the spin-locked partial dw/db), dw/db reduction,
/// chained as the tutorial's LayerNorm.apply does, against double precision.
void runLayerNorm(int64_t m, int64_t n, int64_t block, int64_t groups) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + ", BLOCK " + std::to_string(block) +
               ", GROUP_SIZE_M " + std::to_string(groups));
  const std::string file = "triton/05_layer_norm.tile";
  Example fwd(file, {"BLOCK_SIZE=" + std::to_string(block)}, -1, "_layer_norm_fwd_fused");
  ASSERT_TRUE(fwd.ok()) << fwd.error();
  int64_t blockN = 1;
  while (blockN < n)
    blockN *= 2;
  Example bwd(file, {"BLOCK_SIZE_N=" + std::to_string(blockN), "GROUP_SIZE_M=" + std::to_string(groups)},
              -1, "_layer_norm_bwd_dx_fused");
  ASSERT_TRUE(bwd.ok()) << bwd.error();
  Example dwdb(file, {}, -1, "_layer_norm_bwd_dwdb");
  ASSERT_TRUE(dwdb.ok()) << dwdb.error();
  const double eps = 1e-5;
  const int64_t stride = n + 5;

  Launch lf(fwd.get());
  Buffer &x = lf.random("X", DType::F16, m * stride, 31);
  for (int64_t k = 0; k < m * stride; ++k) // -2.3 + 0.5 N(0, 1)-like, as the tutorial's data
    x.set(k, -2.3 + 0.5 * x.get(k));
  Buffer &w = lf.random("W", DType::F16, n, 32);
  Buffer &b = lf.random("B", DType::F16, n, 33);
  lf.output("Y", DType::F16, m * stride);
  lf.output("Mean", DType::F32, m);
  lf.output("Rstd", DType::F32, m);
  lf.scalar("stride", stride);
  lf.scalar("N", n);
  lf.scalarF("eps", eps);
  lf.scalar("M", m);
  auto r = lf.run();
  ASSERT_TRUE(r.ok) << r.error;

  std::vector<double> mean(static_cast<size_t>(m)), rstd(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) {
    double s = 0, v = 0;
    for (int64_t j = 0; j < n; ++j)
      s += x.get(i * stride + j);
    mean[size_t(i)] = s / double(n);
    for (int64_t j = 0; j < n; ++j) {
      double d = x.get(i * stride + j) - mean[size_t(i)];
      v += d * d;
    }
    rstd[size_t(i)] = 1 / std::sqrt(v / double(n) + eps);
  }
  View rows{m, n, stride, 1, m * stride};
  EXPECT_EQ(compareView(lf["Y"], rows,
                        [&](int64_t i, int64_t j) {
                          return (x.get(i * stride + j) - mean[size_t(i)]) * rstd[size_t(i)] *
                                     w.get(j) + b.get(j);
                        },
                        1e-4, 0x1p-10),
            "");
  for (int64_t i = 0; i < m; ++i) {
    EXPECT_NEAR(lf["Mean"].get(i), mean[size_t(i)], 1e-5 * (1 + std::fabs(mean[size_t(i)])));
    EXPECT_NEAR(lf["Rstd"].get(i), rstd[size_t(i)], 1e-5 * rstd[size_t(i)]);
  }

  Launch lb(bwd.get());
  lb.output("DX", DType::F16, m * stride);
  Buffer &dy = lb.random("DY", DType::F16, m * stride, 34);
  for (int64_t k = 0; k < m * stride; ++k)
    dy.set(k, 0.1 * dy.get(k));
  Buffer &pdw = lb.random("DW", DType::F16, groups * n, 0);
  Buffer &pdb = lb.random("DB", DType::F16, groups * n, 0);
  for (int64_t k = 0; k < groups * n; ++k) { // torch.zeros, as the tutorial allocates them
    pdw.set(k, 0);
    pdb.set(k, 0);
  }
  Buffer &bx = lb.random("X", DType::F16, m * stride, 0);
  Buffer &bw = lb.random("W", DType::F16, n, 0);
  Buffer &bm = lb.random("Mean", DType::F32, m, 0);
  Buffer &br = lb.random("Rstd", DType::F32, m, 0);
  Buffer &lock = lb.random("Lock", DType::I32, 2 * groups, 0);
  for (int64_t k = 0; k < m * stride; ++k)
    bx.set(k, x.get(k));
  for (int64_t j = 0; j < n; ++j)
    bw.set(j, w.get(j));
  for (int64_t i = 0; i < m; ++i) {
    bm.set(i, lf["Mean"].get(i));
    br.set(i, lf["Rstd"].get(i));
  }
  for (int64_t k = 0; k < 2 * groups; ++k)
    lock.set(k, 0);
  lb.scalar("stride", stride);
  lb.scalar("N", n);
  lb.scalar("M", m);
  r = lb.run();
  ASSERT_TRUE(r.ok) << r.error;
  // Every lock released; the counts of the groups that got rows set.
  for (int64_t g = 0; g < groups; ++g) {
    EXPECT_EQ(lb["Lock"].get(g), 0) << "lock " << g;
    EXPECT_EQ(lb["Lock"].get(groups + g), g < m ? 1 : 0) << "count " << g;
  }
  std::vector<double> dwRef(static_cast<size_t>(n), 0), dbRef(static_cast<size_t>(n), 0),
      dwMag(static_cast<size_t>(n), 0);
  std::vector<double> dxRef(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    double c1 = 0, c2 = 0;
    std::vector<double> xhat(static_cast<size_t>(n)), wdy(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
      xhat[size_t(j)] = (x.get(i * stride + j) - mean[size_t(i)]) * rstd[size_t(i)];
      wdy[size_t(j)] = w.get(j) * dy.get(i * stride + j);
      c1 += xhat[size_t(j)] * wdy[size_t(j)];
      c2 += wdy[size_t(j)];
    }
    c1 /= double(n);
    c2 /= double(n);
    for (int64_t j = 0; j < n; ++j) {
      dxRef[size_t(i * n + j)] = (wdy[size_t(j)] - (xhat[size_t(j)] * c1 + c2)) * rstd[size_t(i)];
      dwRef[size_t(j)] += dy.get(i * stride + j) * xhat[size_t(j)];
      dwMag[size_t(j)] += std::fabs(dy.get(i * stride + j) * xhat[size_t(j)]);
      dbRef[size_t(j)] += dy.get(i * stride + j);
    }
  }
  EXPECT_EQ(compareView(lb["DX"], rows, [&](int64_t i, int64_t j) { return dxRef[size_t(i * n + j)]; },
                        1e-4, 0x1p-10),
            "");

  Launch ld(dwdb.get());
  Buffer &fdw = ld.random("DW", DType::F16, groups * n, 0);
  Buffer &fdb = ld.random("DB", DType::F16, groups * n, 0);
  for (int64_t k = 0; k < groups * n; ++k) {
    fdw.set(k, lb["DW"].get(k));
    fdb.set(k, lb["DB"].get(k));
  }
  ld.output("FINAL_DW", DType::F16, n);
  ld.output("FINAL_DB", DType::F16, n);
  ld.scalar("M", std::min(groups, m));
  ld.scalar("N", n);
  r = ld.run();
  ASSERT_TRUE(r.ok) << r.error;
  // The partial sums are rounded to f16 after every row of their group.
  const double perGroup = double((m + groups - 1) / groups + 1);
  EXPECT_EQ(compareViewTol(ld["FINAL_DW"], makeView(1, n, Layout::Contiguous),
                           [&](int64_t, int64_t j) {
                             return std::pair<double, double>(
                                 dwRef[size_t(j)],
                                 perGroup * 0x1p-10 * (dwMag[size_t(j)] + std::fabs(dwRef[size_t(j)])) + 1e-4);
                           }),
            "");
  EXPECT_EQ(compareViewTol(ld["FINAL_DB"], makeView(1, n, Layout::Contiguous),
                           [&](int64_t, int64_t j) {
                             return std::pair<double, double>(dbRef[size_t(j)],
                                                              perGroup * 0x1p-10 * 0.1 * double(m) + 1e-4);
                           }),
            "");
}

TEST(Tutorials, LayerNorm05) {
  runLayerNorm(37, 300, 128, 8);   // three column blocks in the forward pass; 8 locks
  runLayerNorm(5, 1000, 1024, 16); // fewer rows than locks
  runLayerNorm(1, 1, 1, 1);
}

TEST(Tutorials, ExternFunctions07) {
  Example ex("triton/07_extern_functions.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (int64_t n : {int64_t(98432), int64_t(1), int64_t(1025)}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    Launch l(ex.get());
    Buffer &x = l.random("x_ptr", DType::F32, n, 9); // in [-1, 1): asin is defined
    l.output("y_ptr", DType::F32, n);
    l.scalar("n_elements", n);
    auto r = l.run();
    ASSERT_TRUE(r.ok) << r.error;
    // The C library's asinf: within a few ulp of the double-precision arc sine.
    EXPECT_EQ(compareView(l["y_ptr"], makeView(1, n, Layout::Contiguous),
                          [&](int64_t, int64_t j) { return std::asin(x.get(j)); }, 1e-7, 4e-7),
              "");
  }
}

// 08 grouped GEMM: a small group of unequal GEMMs (multiples of the 64x64x32 blocks, as the
// tutorial assumes) with padded leading dimensions; the matrices' addresses are passed in
// i64 arrays, as the tutorial's launcher does with data_ptr().
TEST(Tutorials, GroupedGemm08) {
  Example ex("triton/08_grouped_gemm.tile", {}, /*config=*/2);
  ASSERT_TRUE(ex.ok()) << ex.error();
  const std::vector<std::array<int64_t, 3>> mnk = {{64, 128, 32}, {128, 64, 96}, {192, 64, 64}};
  const int64_t g = int64_t(mnk.size()), pad = 8;
  Launch l(ex.get());
  Buffer &pa = l.random("group_a_ptrs", DType::I64, g, 1);
  Buffer &pb = l.random("group_b_ptrs", DType::I64, g, 2);
  Buffer &pc = l.random("group_c_ptrs", DType::I64, g, 3);
  Buffer &sizes = l.random("group_gemm_sizes", DType::I32, 3 * g, 4);
  Buffer &lds = l.random("g_lds", DType::I32, 3 * g, 5);
  for (int64_t i = 0; i < g; ++i) {
    auto [m, n, k] = mnk[size_t(i)];
    int64_t lda = k + pad, ldb = n + pad, ldc = n + 2 * pad;
    std::string s = std::to_string(i);
    l.random("A" + s, DType::F16, m * lda, 10 + uint64_t(i));
    l.random("B" + s, DType::F16, k * ldb, 20 + uint64_t(i));
    l.output("C" + s, DType::F16, m * ldc);
    pa.data<int64_t>()[i] = l.address("A" + s);
    pb.data<int64_t>()[i] = l.address("B" + s);
    pc.data<int64_t>()[i] = l.address("C" + s);
    for (int j = 0; j < 3; ++j) {
      sizes.data<int32_t>()[3 * i + j] = int32_t(mnk[size_t(i)][size_t(j)]);
      lds.data<int32_t>()[3 * i + j] = int32_t(std::array<int64_t, 3>{lda, ldb, ldc}[size_t(j)]);
    }
  }
  l.scalar("group_size", g);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  for (int64_t i = 0; i < g; ++i) {
    SCOPED_TRACE("gemm " + std::to_string(i));
    int64_t m = mnk[size_t(i)][0], n = mnk[size_t(i)][1], k = mnk[size_t(i)][2];
    int64_t lda = k + pad, ldb = n + pad, ldc = n + 2 * pad;
    std::string s = std::to_string(i);
    Buffer &a = l["A" + s], &b = l["B" + s];
    View cv{m, n, ldc, 1, m * ldc};
    // f32 products and sums (exact for these f16 inputs up to rounding of the sum), then f16.
    EXPECT_EQ(compareView(l["C" + s], cv,
                          [&](int64_t r0, int64_t c0) {
                            double v = 0;
                            for (int64_t e = 0; e < k; ++e)
                              v += a.get(r0 * lda + e) * b.get(e * ldb + c0);
                            return v;
                          },
                          1e-3, 1e-3),
              "");
  }
}

// Floating-point atomic_max / atomic_min (Triton's: on the bits, signed where the value is
// >= 0, unsigned where negative): test/gpu/kernels/float_atomics.tile, interpreted.
TEST(Tutorials, FloatAtomicMaxMin) {
  Example ex("../test/gpu/kernels/float_atomics.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  const int64_t n = 3000, bins = 7;
  Launch l(ex.get());
  Buffer &x = l.random("x", DType::F32, n, 5);
  for (int64_t i = 0; i < n; ++i) // magnitudes far apart, both signs
    x.set(i, x.get(i) * std::ldexp(1.0, int(i % 41) - 20));
  Buffer &mx = l.random("mx", DType::F32, bins, 1), &mn = l.random("mn", DType::F32, bins, 2);
  Buffer &dmx = l.random("dmx", DType::F64, bins, 3);
  for (int64_t b = 0; b < bins; ++b) {
    mx.set(b, -INFINITY);
    mn.set(b, INFINITY);
    dmx.set(b, -INFINITY);
  }
  l.output("oldmx", DType::F32, n);
  l.scalar("n", n);
  l.scalar("n_bins", bins);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<double> wantMax(size_t(bins), -INFINITY), wantMin(size_t(bins), INFINITY);
  std::vector<std::set<double>> seen(size_t(bins), std::set<double>{-INFINITY});
  for (int64_t i = 0; i < n; ++i) {
    double v = x.get(i);
    size_t b = size_t(i % bins);
    wantMax[b] = std::max(wantMax[b], v);
    wantMin[b] = std::min(wantMin[b], v);
    seen[b].insert(v);
  }
  // Each old value is one the bin held: its initial value or an element of it, at most the
  // final maximum (the non-negative lanes of a program go before its negative ones: two
  // atomics, as in Triton).
  for (int64_t i = 0; i < n; ++i) {
    double old = l["oldmx"].get(i);
    EXPECT_TRUE(seen[size_t(i % bins)].count(old) && old <= wantMax[size_t(i % bins)])
        << "element " << i << ": old value " << old;
  }
  for (int64_t b = 0; b < bins; ++b) {
    EXPECT_EQ(mx.get(b), wantMax[size_t(b)]) << "bin " << b;
    EXPECT_EQ(mn.get(b), wantMin[size_t(b)]) << "bin " << b;
    EXPECT_EQ(dmx.get(b), wantMax[size_t(b)]) << "bin " << b;
  }
}

// fp8 (needed by tutorials 03, 06 and 09): the GPU test's kernel, interpreted, bit for bit
// against dialects/Tile/Float8.h (test/gpu/fp8_test.cpp runs it on the GPU).
TEST(Tutorials, Fp8Conversions) {
  Example ex("../test/gpu/kernels/fp8_convert.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  const int64_t n = 5000;
  std::vector<float> x = fp8ref::inputs(size_t(n));
  Launch l(ex.get());
  Buffer &b4 = l.random("bits4", DType::F8E4NV, 256, 1);
  Buffer &b5 = l.random("bits5", DType::F8E5, 256, 2);
  for (int i = 0; i < 256; ++i)
    b4.bytes[size_t(i)] = b5.bytes[size_t(i)] = uint8_t(i);
  Buffer &bx = l.random("x", DType::F32, n, 3);
  std::memcpy(bx.bytes.data(), x.data(), 4 * size_t(n));
  l.output("wide4", DType::F32, 256);
  l.output("wide5", DType::F32, 256);
  l.output("half4", DType::F16, 256);
  l.output("bhalf5", DType::BF16, 256);
  l.output("other4", DType::F8E4NV, 256);
  for (const char *name : {"q4", "qh4"})
    l.output(name, DType::F8E4NV, n);
  for (const char *name : {"q5", "qb5"})
    l.output(name, DType::F8E5, n);
  l.output("h", DType::F16, n);
  l.output("b", DType::BF16, n);
  l.scalar("n", n);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  auto u8 = [&](const char *name) { return l[name].data<uint8_t>(); };
  auto u16 = [&](const char *name) { return l[name].data<uint16_t>(); };
  fp8ref::Outputs o{u8("bits4"), u8("bits5"), l["wide4"].data<float>(), l["wide5"].data<float>(),
                    u16("half4"), u16("bhalf5"), x.data(), u8("q4"), u8("q5"), u16("h"),
                    u8("qh4"), u16("b"), u8("qb5"), u8("other4"), size_t(n)};
  EXPECT_EQ(fp8ref::check(o), "");
}

// Tutorial 06: softmax(Q K^T * sm_scale) V per (batch, head), causal or not, and M = the
// log2 of each row's softmax denominator (what the backward pass reads), against double
// precision. q, k, v are fp16 in [-1, 1); the kernel multiplies in f32, rounds P to fp16
// for the second product and the output to fp16.
void runAttention(Example &ex, int64_t z, int64_t h, int64_t nCtx, int64_t headDim, bool causal) {
  SCOPED_TRACE("Z " + std::to_string(z) + ", H " + std::to_string(h) + ", N_CTX " +
               std::to_string(nCtx) + ", HEAD_DIM " + std::to_string(headDim) +
               (causal ? ", causal" : ""));
  const int64_t rows = z * h * nCtx, n = rows * headDim;
  const double smScale = 0.5;
  Launch l(ex.get());
  Buffer &q = l.random("desc_q", DType::F16, n, 21);
  Buffer &k = l.random("desc_k", DType::F16, n, 22);
  Buffer &v = l.random("desc_v", DType::F16, n, 23);
  l.output("desc_o", DType::F16, n);
  l.output("M", DType::F32, rows);
  l.scalarF("sm_scale", smScale);
  l.scalar("Z", z);
  l.scalar("H", h);
  l.scalar("N_CTX", nCtx);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<double> out(static_cast<size_t>(n)), lse(static_cast<size_t>(rows)),
      s(static_cast<size_t>(nCtx));
  for (int64_t bh = 0; bh < z * h; ++bh)
    for (int64_t i = 0; i < nCtx; ++i) {
      int64_t row = bh * nCtx + i;
      double mx = -INFINITY;
      for (int64_t j = 0; j < nCtx; ++j) {
        double dotqk = 0;
        for (int64_t d = 0; d < headDim; ++d)
          dotqk += q.get(row * headDim + d) * k.get((bh * nCtx + j) * headDim + d);
        s[size_t(j)] = (causal && j > i) ? -INFINITY : dotqk * smScale;
        mx = std::max(mx, s[size_t(j)]);
      }
      double sum = 0;
      for (int64_t j = 0; j < nCtx; ++j)
        sum += s[size_t(j)] = std::exp(s[size_t(j)] - mx);
      lse[size_t(row)] = (mx + std::log(sum)) / std::log(2.0);
      for (int64_t d = 0; d < headDim; ++d) {
        double acc = 0;
        for (int64_t j = 0; j < nCtx; ++j)
          acc += s[size_t(j)] * v.get((bh * nCtx + j) * headDim + d);
        out[size_t(row * headDim + d)] = acc / sum;
      }
    }
  // P rounded to fp16 (2^-11 relative) before P V, the output to fp16: a few 1e-3 at most
  // for outputs of magnitude below 1 (the tutorial's own test uses atol 1e-2).
  EXPECT_EQ(compareView(l["desc_o"], makeView(rows, headDim, Layout::Contiguous),
                        [&](int64_t i, int64_t j) { return out[size_t(i * headDim + j)]; },
                        3e-3, 1e-2),
            "");
  EXPECT_EQ(compareView(l["M"], makeView(1, rows, Layout::Contiguous),
                        [&](int64_t, int64_t j) { return lse[size_t(j)]; }, 1e-4, 1e-5),
            "");
}

TEST(Tutorials, FusedAttention06) {
  // Configuration 0 (BLOCK_M 64, BLOCK_N 32) keeps the interpreter quick; the causal
  // version runs the off-band and on-band loops, the non-causal one the whole row.
  for (int64_t headDim : {int64_t(64), int64_t(128)})
    for (bool causal : {false, true}) {
      Example ex("triton/06_fused_attention.tile",
                 {"HEAD_DIM=" + std::to_string(headDim), causal ? "STAGE=3" : "STAGE=1"}, 0);
      ASSERT_TRUE(ex.ok()) << ex.error();
      runAttention(ex, 1, 2, 128, headDim, causal);
    }
  // More than one batch: the rows of (z, h) are at (z * H + h) * N_CTX.
  Example ex("triton/06_fused_attention.tile", {"STAGE=3"}, 0);
  ASSERT_TRUE(ex.ok()) << ex.error();
  runAttention(ex, 2, 1, 64, 64, true);
}

// Tutorial 09: C = A B with the persistent kernels (grid min(NUM_SMS, tiles), each program
// looping over tiles NUM_SMS apart); NUM_SMS = 3 so that programs take several tiles. The
// pointer kernel reads B as K x N, the descriptor kernel as N x K (the tutorial's b.T).
void runPersistent(Example &ex, bool descriptor, int64_t m, int64_t n, int64_t k) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
               (descriptor ? " descriptor" : " pointers"));
  Launch l(ex.get());
  Buffer &a = l.random("a_ptr", DType::F16, m * k, 31);
  Buffer &b = l.random("b_ptr", DType::F16, k * n, 32);
  l.output("c_ptr", DType::F16, m * n);
  l.scalar("M", m);
  l.scalar("N", n);
  l.scalar("K", k);
  if (!descriptor) {
    l.scalar("stride_am", k);
    l.scalar("stride_ak", 1);
    l.scalar("stride_bk", n);
    l.scalar("stride_bn", 1);
    l.scalar("stride_cm", n);
    l.scalar("stride_cn", 1);
  }
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  auto bAt = [&](int64_t kk, int64_t j) { return descriptor ? b.get(j * k + kk) : b.get(kk * n + j); };
  EXPECT_EQ(compareViewTol(l["c_ptr"], makeView(m, n, Layout::Contiguous),
                           [&](int64_t i, int64_t j) {
                             double v = 0, mag = 0;
                             for (int64_t kk = 0; kk < k; ++kk) {
                               double p = a.get(i * k + kk) * bAt(kk, j);
                               v += p;
                               mag += std::fabs(p);
                             }
                             double acc = double(k + 1) * 0x1p-24 * mag;
                             return std::pair<double, double>(
                                 v, acc + 0x1p-11 * (std::fabs(v) + acc) + 0x1p-25 + 0x1p-24);
                           }),
            "");
}

TEST(Tutorials, PersistentMatmul09) {
  // Configuration 1 of each list (128x128x64; for the descriptor kernel the first without
  // epilogue subtiling), and the descriptor kernel's configuration 0, which subtiles it
  // (reshape to (128, 2, 64), permute, split); shapes with 2x3 tiles, partial tiles in M, N
  // and K, and one element.
  Example pointers("triton/09_persistent_matmul.tile", {"NUM_SMS=3"}, 1, "matmul_kernel_persistent");
  ASSERT_TRUE(pointers.ok()) << pointers.error();
  Example descriptors("triton/09_persistent_matmul.tile", {"NUM_SMS=3"}, 1,
                      "matmul_kernel_descriptor_persistent");
  ASSERT_TRUE(descriptors.ok()) << descriptors.error();
  Example subtiled("triton/09_persistent_matmul.tile", {"NUM_SMS=3"}, 0,
                   "matmul_kernel_descriptor_persistent");
  ASSERT_TRUE(subtiled.ok()) << subtiled.error();
  for (Example *ex : {&pointers, &descriptors, &subtiled}) {
    bool descriptor = ex != &pointers;
    runPersistent(*ex, descriptor, 256, 384, 128);
    runPersistent(*ex, descriptor, 200, 300, 70);
    runPersistent(*ex, descriptor, 1, 1, 1);
  }
}

// Block pointers and tensor descriptors (test/gpu/kernels/block_pointers.tile, also run on
// the GPU): loads and stores checked in both dimensions, a block pointer advanced in a loop,
// a descriptor read at a negative row offset (zeros there), on padded rows.
TEST(Tutorials, BlockPointers) {
  Example ex("../test/gpu/kernels/block_pointers.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (std::pair<int64_t, int64_t> shape : {std::pair<int64_t, int64_t>{50, 70}, {64, 64}, {1, 1}, {33, 100}}) {
    const int64_t m = shape.first, n = shape.second;
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
    const int64_t ss = n + 5, ds = n + 3;
    View sv{m, n, ss, 1, (m - 1) * ss + n}, dv{m, n, ds, 1, (m - 1) * ds + n};
    Launch l(ex.get());
    Buffer &src = l.random("src", DType::F32, sv.size, 41);
    l.output("twice", DType::F32, dv.size);
    l.output("rowsum", DType::F32, m);
    l.output("shifted", DType::F32, dv.size);
    l.scalar("M", m);
    l.scalar("N", n);
    l.scalar("src_stride", ss);
    l.scalar("dst_stride", ds);
    auto r = l.run();
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(compareView(l["twice"], dv,
                          [&](int64_t i, int64_t j) { return 2.0 * src.get(sv.at(i, j)); }, 0, 0),
              "");
    EXPECT_EQ(compareView(l["shifted"], dv,
                          [&](int64_t i, int64_t j) { return i >= 3 ? src.get(sv.at(i - 3, j)) : 0.0; },
                          0, 0),
              "");
    EXPECT_EQ(compareView(l["rowsum"], makeView(1, m, Layout::Contiguous),
                          [&](int64_t, int64_t i) {
                            double t = 0;
                            for (int64_t j = 0; j < n; ++j)
                              t += src.get(sv.at(i, j));
                            return t;
                          },
                          1e-5, 1e-5),
              "");
  }
}

} // namespace
