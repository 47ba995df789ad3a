// Every lang-example, interpreted, against a C++ reference (in double precision) over the
// awkward shapes of issue 5: 1x1, 1xN, Mx1, sizes that are not multiples of the block,
// 2049x4097, strided (padded) views and transposed inputs. Each run also has the memory
// checker on: no out-of-bounds access, no read of unwritten memory, and nothing written
// outside the output view.
//
// Error bounds, per output type:
//   copies, transposes, f32 adds: exact (a correctly rounded f32 add is the reference
//     rounded to f32);
//   softmax, layernorm (f32, C library exp/rsqrt, pairwise sums): |d| <= 1e-6 + 1e-5 |ref|;
//   matmul (f16 inputs, f32 FMA accumulation, f16 output): per element,
//     acc = (K+1) 2^-24 sum_k |a_mk b_kn| (the f32 accumulation bound) and
//     |d| <= acc + 2^-11 (|ref| + acc) + 2^-25 (the f16 rounding of the result).
#include "example_harness.h"

#include "compiler/Interpreter/ArgSpec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <dirent.h>
#include <set>

using namespace tcc::examples;
using tcc::interp::Buffer;
using tcc::interp::DType;

namespace {

const char *kCovered[] = {"vector_copy", "vector_add", "copy2d",  "transpose",  "bias_add",
                          "softmax",     "layernorm",  "matmul",  "matmul_bias",
                          "softmax_persistent", "autotune"};

TEST(Examples, EveryExampleIsChecked) {
  std::set<std::string> covered(std::begin(kCovered), std::end(kCovered));
  DIR *dir = opendir(TCC_EXAMPLES_DIR);
  ASSERT_NE(dir, nullptr) << TCC_EXAMPLES_DIR;
  while (dirent *e = readdir(dir)) {
    std::string name = e->d_name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".tile") == 0) {
      EXPECT_TRUE(covered.count(name.substr(0, name.size() - 5)))
          << "lang-examples/" << name << " has no interpreter test in test/examples";
    }
  }
  closedir(dir);
}

struct Shape {
  int64_t m, n;
};
// 1x1, a row, a column, non-multiples of every block size, exact multiples.
const Shape kShapes[] = {{1, 1}, {1, 300}, {300, 1}, {37, 45}, {64, 64}, {129, 1000}};
const Shape kBig = {2049, 4097};

std::string describe(Shape s, Layout a, Layout b) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + " " + layoutName(a) + " -> " +
         layoutName(b);
}

//===----------------------------------------------------------------------===//
// 1-D
//===----------------------------------------------------------------------===//

const int64_t kLengths[] = {1, 1000, 1024, 1025, 4097, 2049 * 4097};

TEST(Examples, VectorCopy) {
  Example ex("vector_copy.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (int64_t n : kLengths) {
    SCOPED_TRACE("n = " + std::to_string(n));
    Launch l(ex.get());
    Buffer &src = l.random("src", DType::F32, n, 1);
    l.output("dst", DType::F32, n);
    l.scalar("n", n);
    auto r = l.run();
    ASSERT_TRUE(r.ok) << r.error;
    View v = makeView(1, n, Layout::Contiguous);
    EXPECT_EQ(compareView(l["dst"], v, [&](int64_t, int64_t j) { return src.get(j); }, 0, 0), "");
  }
}

TEST(Examples, VectorAdd) {
  Example ex("vector_add.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (int64_t n : kLengths) {
    SCOPED_TRACE("n = " + std::to_string(n));
    Launch l(ex.get());
    Buffer &x = l.random("x", DType::F32, n, 1);
    Buffer &y = l.random("y", DType::F32, n, 2);
    l.output("out", DType::F32, n);
    l.scalar("n", n);
    auto r = l.run();
    ASSERT_TRUE(r.ok) << r.error;
    View v = makeView(1, n, Layout::Contiguous);
    EXPECT_EQ(compareView(
                  l["out"], v,
                  [&](int64_t, int64_t j) { return double(float(x.get(j) + y.get(j))); }, 0, 0),
              "");
  }
}

// Every configuration of the search space computes the same in-place y = a * x + y; the
// pruned one (BLOCK=8192 on 4 warps: 64 elements per thread) cannot be asked for.
TEST(Examples, Autotune) {
  const int kept[] = {0, 1, 2, 3, 4, 6};
  for (int config : kept) {
    SCOPED_TRACE("configuration " + std::to_string(config));
    Example ex("autotune.tile", {}, config);
    ASSERT_TRUE(ex.ok()) << ex.error();
    for (int64_t n : {int64_t(1), int64_t(1000), int64_t(8193)}) {
      SCOPED_TRACE("n = " + std::to_string(n));
      Launch l(ex.get());
      Buffer &y = l.random("y", DType::F32, n, 1);
      std::vector<double> y0(n);
      for (int64_t j = 0; j < n; ++j)
        y0[j] = y.get(j);
      Buffer &x = l.random("x", DType::F32, n, 2);
      l.scalarF("a", 0.5);
      l.scalar("n", n);
      auto r = l.run();
      ASSERT_TRUE(r.ok) << r.error;
      View v = makeView(1, n, Layout::Contiguous);
      EXPECT_EQ(compareView(l["y"], v,
                            [&](int64_t, int64_t j) {
                              return double(float(0.5f * float(x.get(j))) + float(y0[j]));
                            },
                            1e-6, 1e-6),
                "");
    }
  }
  Example pruned("autotune.tile", {}, 5);
  EXPECT_FALSE(pruned.ok());
  EXPECT_NE(pruned.error().find("'axpy' has no configuration 5 (it is pruned)"), std::string::npos)
      << pruned.error();
}

//===----------------------------------------------------------------------===//
// 2-D copies
//===----------------------------------------------------------------------===//

void runCopy2d(Example &ex, Shape s, Layout from, Layout to) {
  SCOPED_TRACE(describe(s, from, to));
  View sv = makeView(s.m, s.n, from), dv = makeView(s.m, s.n, to);
  Launch l(ex.get());
  Buffer &src = l.random("src", DType::F32, sv.size, 3);
  l.output("dst", DType::F32, dv.size);
  l.scalar("M", s.m);
  l.scalar("N", s.n);
  l.scalar("stride_sm", sv.rowStride);
  l.scalar("stride_sn", sv.colStride);
  l.scalar("stride_dm", dv.rowStride);
  l.scalar("stride_dn", dv.colStride);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(compareView(l["dst"], dv, [&](int64_t i, int64_t j) { return src.get(sv.at(i, j)); },
                        0, 0),
            "");
}

TEST(Examples, Copy2d) {
  Example ex("copy2d.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (Shape s : kShapes)
    for (Layout from : {Layout::Contiguous, Layout::Padded, Layout::Transposed})
      for (Layout to : {Layout::Contiguous, Layout::Padded, Layout::Transposed})
        runCopy2d(ex, s, from, to);
  runCopy2d(ex, kBig, Layout::Transposed, Layout::Contiguous);
}

void runTranspose(Example &ex, Shape s, Layout from, Layout to) {
  SCOPED_TRACE(describe(s, from, to));
  View sv = makeView(s.m, s.n, from), dv = makeView(s.n, s.m, to);
  Launch l(ex.get());
  Buffer &src = l.random("src", DType::F32, sv.size, 4);
  l.output("dst", DType::F32, dv.size);
  l.scalar("M", s.m);
  l.scalar("N", s.n);
  l.scalar("stride_src", sv.rowStride);
  l.scalar("stride_dst", dv.rowStride);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(compareView(l["dst"], dv, [&](int64_t i, int64_t j) { return src.get(sv.at(j, i)); },
                        0, 0),
            "");
}

TEST(Examples, Transpose) {
  Example ex("transpose.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  // Rows are addressed with a stride and columns with 1: contiguous or padded views.
  for (Shape s : kShapes)
    for (Layout from : {Layout::Contiguous, Layout::Padded})
      for (Layout to : {Layout::Contiguous, Layout::Padded})
        runTranspose(ex, s, from, to);
  runTranspose(ex, kBig, Layout::Contiguous, Layout::Contiguous);
}

void runBiasAdd(Example &ex, Shape s, Layout layout) {
  SCOPED_TRACE(describe(s, layout, layout));
  View v = makeView(s.m, s.n, layout); // x and out share one stride
  Launch l(ex.get());
  Buffer &x = l.random("x", DType::F32, v.size, 5);
  Buffer &bias = l.random("bias", DType::F32, s.n, 6);
  l.output("out", DType::F32, v.size);
  l.scalar("M", s.m);
  l.scalar("N", s.n);
  l.scalar("stride", v.rowStride);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(compareView(
                l["out"], v,
                [&](int64_t i, int64_t j) { return double(float(x.get(v.at(i, j)) + bias.get(j))); },
                0, 0),
            "");
}

TEST(Examples, BiasAdd) {
  Example ex("bias_add.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (Shape s : kShapes)
    for (Layout layout : {Layout::Contiguous, Layout::Padded})
      runBiasAdd(ex, s, layout);
  runBiasAdd(ex, kBig, Layout::Padded);
}

//===----------------------------------------------------------------------===//
// Row-wise reductions
//===----------------------------------------------------------------------===//

void runSoftmax(Example &ex, Shape s, Layout from, Layout to, const char *rows = "M",
                const char *cols = "N") {
  SCOPED_TRACE(describe(s, from, to));
  View iv = makeView(s.m, s.n, from), ov = makeView(s.m, s.n, to);
  Launch l(ex.get());
  Buffer &in = l.random("inp", DType::F32, iv.size, 7);
  // Large magnitudes: without subtracting the row maximum, exp would overflow.
  for (int64_t k = 0; k < iv.size; ++k)
    in.set(k, in.get(k) * 100);
  l.output("out", DType::F32, ov.size);
  l.scalar(rows, s.m);
  l.scalar(cols, s.n);
  l.scalar("in_stride", iv.rowStride);
  l.scalar("out_stride", ov.rowStride);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<double> ref(size_t(s.m * s.n));
  for (int64_t i = 0; i < s.m; ++i) {
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < s.n; ++j)
      mx = std::max(mx, in.get(iv.at(i, j)));
    for (int64_t j = 0; j < s.n; ++j)
      sum += ref[size_t(i * s.n + j)] = std::exp(in.get(iv.at(i, j)) - mx);
    for (int64_t j = 0; j < s.n; ++j)
      ref[size_t(i * s.n + j)] /= sum;
  }
  EXPECT_EQ(compareView(l["out"], ov, [&](int64_t i, int64_t j) { return ref[size_t(i * s.n + j)]; },
                        1e-6, 1e-5),
            "");
}

TEST(Examples, Softmax) {
  Example ex("softmax.tile"); // rows of up to BLOCK = 1024 elements
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (Shape s : kShapes)
    for (Layout layout : {Layout::Contiguous, Layout::Padded})
      runSoftmax(ex, s, layout, layout == Layout::Padded ? Layout::Contiguous : layout);
  Example wide("softmax.tile", {"BLOCK=8192"});
  ASSERT_TRUE(wide.ok()) << wide.error();
  runSoftmax(wide, {3, 1025}, Layout::Padded, Layout::Padded);
  runSoftmax(wide, kBig, Layout::Contiguous, Layout::Contiguous);
}

// The persistent version (grid min(num_sms * occupancy, n_rows): one program on the
// interpreter, looping over every row with a step of num_programs(0)) computes the same.
TEST(Examples, SoftmaxPersistent) {
  Example ex("softmax_persistent.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (Shape s : kShapes)
    for (Layout layout : {Layout::Contiguous, Layout::Padded})
      runSoftmax(ex, s, layout, layout == Layout::Padded ? Layout::Contiguous : layout, "n_rows",
                 "n_cols");
}

void runLayernorm(Example &ex, Shape s, Layout layout) {
  SCOPED_TRACE(describe(s, layout, layout));
  View v = makeView(s.m, s.n, layout);
  const double eps = 1e-5;
  Launch l(ex.get());
  Buffer &x = l.random("x", DType::F32, v.size, 8);
  // An offset mean: a one-pass variance would lose digits here.
  for (int64_t k = 0; k < v.size; ++k)
    x.set(k, x.get(k) + 3);
  Buffer &w = l.random("w", DType::F32, s.n, 9);
  Buffer &b = l.random("b", DType::F32, s.n, 10);
  l.output("y", DType::F32, v.size);
  l.scalar("M", s.m);
  l.scalar("N", s.n);
  l.scalar("stride", v.rowStride);
  l.scalarF("eps", eps);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<double> ref(size_t(s.m * s.n));
  for (int64_t i = 0; i < s.m; ++i) {
    double mean = 0, var = 0;
    for (int64_t j = 0; j < s.n; ++j)
      mean += x.get(v.at(i, j));
    mean /= double(s.n);
    for (int64_t j = 0; j < s.n; ++j)
      var += (x.get(v.at(i, j)) - mean) * (x.get(v.at(i, j)) - mean);
    var /= double(s.n);
    double rstd = 1 / std::sqrt(var + double(float(eps)));
    for (int64_t j = 0; j < s.n; ++j)
      ref[size_t(i * s.n + j)] = (x.get(v.at(i, j)) - mean) * rstd * w.get(j) + b.get(j);
  }
  EXPECT_EQ(compareView(l["y"], v, [&](int64_t i, int64_t j) { return ref[size_t(i * s.n + j)]; },
                        1e-5, 1e-5),
            "");
}

TEST(Examples, Layernorm) {
  Example ex("layernorm.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (Shape s : kShapes)
    for (Layout layout : {Layout::Contiguous, Layout::Padded})
      runLayernorm(ex, s, layout);
  Example wide("layernorm.tile", {"BLOCK=8192"});
  ASSERT_TRUE(wide.ok()) << wide.error();
  runLayernorm(wide, kBig, Layout::Padded);
}

//===----------------------------------------------------------------------===//
// matmul: f16 inputs, f32 accumulation, f16 output
//===----------------------------------------------------------------------===//

struct MatmulCase {
  int64_t m, n, k;
  Layout a, b, c;
};

const MatmulCase kMatmuls[] = {
    {1, 1, 1, Layout::Contiguous, Layout::Contiguous, Layout::Contiguous},
    {1, 300, 70, Layout::Contiguous, Layout::Contiguous, Layout::Contiguous},
    {300, 1, 70, Layout::Contiguous, Layout::Contiguous, Layout::Contiguous},
    {37, 45, 29, Layout::Padded, Layout::Padded, Layout::Padded},
    {37, 45, 29, Layout::Transposed, Layout::Transposed, Layout::Contiguous},
    {128, 128, 64, Layout::Contiguous, Layout::Transposed, Layout::Transposed},
    {130, 200, 100, Layout::Transposed, Layout::Contiguous, Layout::Padded},
    {2049, 4097, 16, Layout::Contiguous, Layout::Contiguous, Layout::Contiguous},
};

void runMatmul(Example &ex, const MatmulCase &c, bool bias, bool relu) {
  SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) +
               " a " + layoutName(c.a) + ", b " + layoutName(c.b) + ", c " + layoutName(c.c));
  View av = makeView(c.m, c.k, c.a), bv = makeView(c.k, c.n, c.b), cv = makeView(c.m, c.n, c.c);
  Launch l(ex.get());
  Buffer &a = l.random("a", DType::F16, av.size, 11);
  Buffer &b = l.random("b", DType::F16, bv.size, 12);
  Buffer *bs = bias ? &l.random("bias", DType::F16, c.n, 13) : nullptr;
  l.output("c", DType::F16, cv.size);
  l.scalar("M", c.m);
  l.scalar("N", c.n);
  l.scalar("K", c.k);
  l.scalar("stride_am", av.rowStride);
  l.scalar("stride_ak", av.colStride);
  l.scalar("stride_bk", bv.rowStride);
  l.scalar("stride_bn", bv.colStride);
  l.scalar("stride_cm", cv.rowStride);
  l.scalar("stride_cn", cv.colStride);
  auto r = l.run();
  ASSERT_TRUE(r.ok) << r.error;
  // Inputs converted once to double, so the reference loop is cheap.
  std::vector<double> ad(size_t(c.m * c.k)), bd(size_t(c.k * c.n));
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t k = 0; k < c.k; ++k)
      ad[size_t(i * c.k + k)] = a.get(av.at(i, k));
  for (int64_t k = 0; k < c.k; ++k)
    for (int64_t j = 0; j < c.n; ++j)
      bd[size_t(k * c.n + j)] = b.get(bv.at(k, j));
  std::vector<double> ref(size_t(c.m * c.n), 0), mag(size_t(c.m * c.n), 0);
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t k = 0; k < c.k; ++k) {
      double x = ad[size_t(i * c.k + k)];
      double *row = &ref[size_t(i * c.n)], *mrow = &mag[size_t(i * c.n)];
      const double *brow = &bd[size_t(k * c.n)];
      for (int64_t j = 0; j < c.n; ++j) {
        row[j] += x * brow[j];
        mrow[j] += std::fabs(x * brow[j]);
      }
    }
  EXPECT_EQ(compareViewTol(l["c"], cv,
                           [&](int64_t i, int64_t j) {
                             double v = ref[size_t(i * c.n + j)];
                             double acc = double(c.k + 1) * 0x1p-24 * mag[size_t(i * c.n + j)];
                             if (bs) {
                               v += bs->get(j);
                               acc += 0x1p-24 * std::fabs(v); // the f32 bias add
                             }
                             if (relu)
                               v = std::max(v, 0.0);
                             return std::pair<double, double>(
                                 v, acc + 0x1p-11 * (std::fabs(v) + acc) + 0x1p-25);
                           }),
            "");
}

TEST(Examples, Matmul) {
  Example ex("matmul.tile");
  ASSERT_TRUE(ex.ok()) << ex.error();
  for (const MatmulCase &c : kMatmuls)
    runMatmul(ex, c, false, false);
}

TEST(Examples, MatmulBias) {
  Example relu("matmul_bias.tile"); // RELU = True by default
  ASSERT_TRUE(relu.ok()) << relu.error();
  for (const MatmulCase &c : kMatmuls)
    runMatmul(relu, c, true, true);
  Example plain("matmul_bias.tile", {"RELU=False", "BM=64", "BN=32", "BK=16"});
  ASSERT_TRUE(plain.ok()) << plain.error();
  for (const MatmulCase &c : kMatmuls)
    if (c.m * c.n < 100000)
      runMatmul(plain, c, true, false);
}

} // namespace
