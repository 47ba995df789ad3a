// matmul and matmul_bias (lang-examples) on the GPU, matmul also with bf16 and f32 operands
// (its constexpr DTYPE: the artifacts table's DTYPEbf16_* and DTYPEf32_* configurations; a
// case takes the element type from the metadata's parameters), for every configuration found,
// over awkward shapes (1x1x1, 1xN, Mx1, one off the block sizes, K not a multiple of BK,
// 2049x4097), strided, transposed (column-major A and B, or C) and misaligned operands,
// against a CPU reference accumulated in double from the exact operand values.
//
// Error bounds, with s = sum_k |a_ik| |b_kj| + |bias_j| (the magnitude of the terms of
// element ij, so that cancellation is held to the error of the terms):
// - f16 and bf16 operands (f32 accumulation, result rounded to f16/bf16):
//   |got - ref| <= 1e-2 s per element, and ||got - ref||_F <= 1e-2 ||ref||_F;
// - f32 operands, multiplied as tf32 on tensor cores (Triton's default; 10-bit mantissas,
//   so each product is off by up to about 2 x 2^-10 of its magnitude):
//   |got - ref| <= 4e-3 s per element, and ||got - ref||_F <= 4e-3 ||ref||_F.
// Configurations with sm_90a variants run twice: as chosen (wgmma on an H200) and with the
// portable sm_90 variants alone (mma.sync).
#include "configs.h"
#include "gpu_util.h"
#include "matrix.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>

namespace {

using gputest::DType;
using gputest::Layout;
using gputest::Matrix;

bool isMatmul(const std::string& k) {
  return k.rfind("matmul", 0) == 0;
}

struct Case {
  gputest::KernelConfig cfg;
  int64_t M = 0, N = 0, K = 0;
  // dense; strided (rows longer than the view); aligned (strides multiples of 16, with gaps);
  // transposed (A and B column-major); c_t (C column-major); offset (every pointer one
  // element past 16-byte alignment); cs16 (every 16th column of A, B and C, so that all
  // strides are multiples of 16, as --specialize-all assumes of every integer).
  std::string view;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

struct Operands {
  Layout a, b, c, bias;
};

int64_t alignedPad(int64_t cols) {
  return (cols + 15) / 16 * 16 + 16 - cols;
}

Operands operandsOf(const Case& c) {
  const int64_t lead = c.view == "offset" ? 65 : 64;
  Operands o;
  if (c.view == "strided") {
    o.a = Layout::rowMajor(c.M, c.K, 5, lead);
    o.b = Layout::rowMajor(c.K, c.N, 3, lead);
    o.c = Layout::rowMajor(c.M, c.N, 7, lead);
  } else if (c.view == "aligned") {
    o.a = Layout::rowMajor(c.M, c.K, alignedPad(c.K), lead);
    o.b = Layout::rowMajor(c.K, c.N, alignedPad(c.N), lead);
    o.c = Layout::rowMajor(c.M, c.N, alignedPad(c.N), lead);
  } else if (c.view == "cs16") {
    o.a = Layout::spread(c.M, c.K, 16, lead);
    o.b = Layout::spread(c.K, c.N, 16, lead);
    o.c = Layout::spread(c.M, c.N, 16, lead);
  } else if (c.view == "transposed") {
    o.a = Layout::colMajor(c.M, c.K, 2, lead);
    o.b = Layout::colMajor(c.K, c.N, 1, lead);
    o.c = Layout::rowMajor(c.M, c.N, 0, lead);
  } else {
    o.a = Layout::rowMajor(c.M, c.K, 0, lead);
    o.b = Layout::rowMajor(c.K, c.N, 0, lead);
    o.c =
        c.view == "c_t" ? Layout::colMajor(c.M, c.N, 0, lead) : Layout::rowMajor(c.M, c.N, 0, lead);
  }
  o.bias = Layout::vector(c.N, lead);
  return o;
}

std::vector<tcc::Arg> argsOf(const Case& c, const Operands& o, CUdeviceptr a, CUdeviceptr b,
                             CUdeviceptr bias, CUdeviceptr out) {
  std::vector<tcc::Arg> r = {a, b};
  if (c.cfg.hasParam("bias"))
    r.push_back(bias);
  for (tcc::Arg x :
       std::initializer_list<tcc::Arg>{out, c.M, c.N, c.K, o.a.rowStride, o.a.colStride,
                                       o.b.rowStride, o.b.colStride, o.c.rowStride, o.c.colStride})
    r.push_back(x);
  return r;
}

std::vector<Case> cases() {
  std::vector<Case> r;
  for (const gputest::KernelConfig& cfg : gputest::findConfigs(isMatmul)) {
    const int64_t bm = cfg.constexprOr("BM", 32), bn = cfg.constexprOr("BN", 32),
                  bk = cfg.constexprOr("BK", 32);
    // Tiny and row/column shapes, one off the blocks, K below BK, ragged, large.
    std::vector<std::array<int64_t, 3>> shapes = {
        {1, 1, 1},        {1, 300, 70},
        {300, 1, 70},     {bm - 1, bn + 1, bk + 1},
        {bm, bn, bk},     {2 * bm + 3, 3 * bn + 5, 5 * bk - 1},
        {256, 256, 1024}, {2049, 4097, 40},
        {bm / 2 + 1, bn / 4 + 3, std::max<int64_t>(1, bk / 2 - 1)},
        {1000, 1001, 999}, {1024, 1024, 1024}};
    std::vector<std::string> views = {"dense", "strided", "aligned", "transposed",
                                      "c_t",   "offset",  "cs16"};
    // The ping-pong schedule (PINGPONG_ folders: --ping-pong) alternates a program's tiles
    // between two consumer groups: more tiles than programs, several ragged K steps each.
    if (cfg.config.find("PINGPONG_") != std::string::npos)
      shapes.push_back({2049, 1100, 130});
    // Multicast (MULTICAST_, WS_MULTICAST_: --multicast) with more tiles than programs and
    // the rows of tiles even: the pairs multicast across several tiles each, their rings'
    // hand-backs carried from tile to tile.
    if (cfg.config.find("MULTICAST_") != std::string::npos)
      shapes.push_back({2048, 2304, 130});
    if (!cfg.loadError.empty()) {
      shapes = {{1, 1, 1}};
      views = {"dense"};
    }
    std::sort(shapes.begin(), shapes.end()); // unique names: small blocks could repeat a shape
    shapes.erase(std::unique(shapes.begin(), shapes.end()), shapes.end());
    for (auto [m, n, k] : shapes) {
      for (const std::string& v : views) {
        if (m * n > (int64_t(1) << 22) && v != "dense" && v != "transposed")
          continue;
        if (m * n * k >= (int64_t(1) << 29) && v != "dense")
          continue; // the large cube: row-major, as the benchmark's (the fast variant)
        Case c;
        c.cfg = cfg;
        c.M = m;
        c.N = n;
        c.K = k;
        c.view = v;
        c.name = cfg.label() + "_" + std::to_string(m) + "x" + std::to_string(n) + "x" +
                 std::to_string(k) + "_" + v;
        r.push_back(c);
      }
    }
  }
  return r;
}

uint64_t seedOf(const Case& c) {
  return std::hash<std::string>()(c.name) | 1;
}

class Matmul : public testing::TestWithParam<Case> {};

TEST_P(Matmul, MatchesCpuReference) {
  TCC_REQUIRE_GPU();
  const Case& c = GetParam();
  ASSERT_TRUE(c.cfg.loadError.empty()) << c.cfg.loadError;
  tcc::Kernel& k = gputest::kernelOf(c.cfg);
  const Operands o = operandsOf(c);
  const DType t = gputest::dtypeOf(c.cfg.elementOf("a"));
  const bool hasBias = c.cfg.hasParam("bias");
  const bool relu = hasBias && c.cfg.constexprOr("RELU", 0) != 0;
  Matrix a(t, o.a, Matrix::Role::Input), b(t, o.b, Matrix::Role::Input);
  Matrix out(gputest::dtypeOf(c.cfg.elementOf("c")), o.c, Matrix::Role::Output);
  std::unique_ptr<Matrix> bias;
  a.randomize(seedOf(c), 0.1, 1);
  b.randomize(seedOf(c) + 1, 0.1, 1);
  a.upload();
  b.upload();
  out.poison();
  if (hasBias) {
    bias = std::make_unique<Matrix>(gputest::dtypeOf(c.cfg.elementOf("bias")), o.bias,
                                    Matrix::Role::Input);
    bias->randomize(seedOf(c) + 2, 0.1, 1);
    bias->upload();
  }
  std::vector<tcc::Arg> args = argsOf(c, o, a.ptr(), b.ptr(), bias ? bias->ptr() : 0, out.ptr());
  const tcc::LaunchPlan plan = k.planArgs(args.data(), args.size());
  k.launchArgs(nullptr, args.data(), args.size());
  gputest::synchronize();
  out.download();

  // Reference: A and B as dense doubles, then i-k-j loops over rows in parallel.
  const int64_t M = c.M, N = c.N, K = c.K;
  std::vector<double> A(M * K), B(K * N), C(M * N, 0.0), S(M * N, 0.0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t kk = 0; kk < K; ++kk)
      A[i * K + kk] = a.at(i, kk);
  for (int64_t kk = 0; kk < K; ++kk)
    for (int64_t j = 0; j < N; ++j)
      B[kk * N + j] = b.at(kk, j);
  gputest::parallelFor(M, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      double* ci = &C[i * N];
      double* si = &S[i * N];
      for (int64_t kk = 0; kk < K; ++kk) {
        const double x = A[i * K + kk], ax = std::fabs(x);
        const double* bk = &B[kk * N];
        for (int64_t j = 0; j < N; ++j) {
          ci[j] += x * bk[j];
          si[j] += ax * std::fabs(bk[j]);
        }
      }
      for (int64_t j = 0; j < N; ++j) {
        if (hasBias) {
          ci[j] += bias->at(0, j);
          si[j] += std::fabs(bias->at(0, j));
        }
        if (relu)
          ci[j] = std::max(ci[j], 0.0);
      }
    }
  });
  const double tol = t == DType::F32 ? 4e-3 : 1e-2;
  gputest::CheckResult r = gputest::checkOutput(out, [&](int64_t i, int64_t j) {
    return gputest::Expected{C[i * N + j], tol * S[i * N + j]};
  });
  double err2 = 0, ref2 = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double d = out.at(i, j) - C[i * N + j];
      err2 += d * d;
      ref2 += C[i * N + j] * C[i * N + j];
    }
  const std::string where = "\n  variant " + plan.variant->specialisationString() + ", grid " +
                            std::to_string(plan.grid.x) + ", A " + o.a.describe() + ", B " +
                            o.b.describe() + ", C " + o.c.describe();
  EXPECT_TRUE(r.ok()) << r.describe() << where;
  EXPECT_LE(std::sqrt(err2), tol * std::sqrt(ref2))
      << "relative error of the Frobenius norm " << std::sqrt(err2 / ref2) << where;
}

std::string caseName(const testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Matmul);
INSTANTIATE_TEST_SUITE_P(Artifacts, Matmul, testing::ValuesIn(cases()), caseName);

TEST(Plans, Matmul) {
  std::vector<Case> all = cases();
  if (all.empty())
    TCC_REQUIRE_ARTIFACT_FILE("tcc/matmul/BM32_BN32_BK32_W4/matmul.json");
  gputest::VariantCoverage coverage;
  for (const Case& c : all) {
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(c.cfg.loadError.empty()) << c.cfg.loadError;
    tcc::Kernel& k = gputest::kernelOf(c.cfg);
    const Operands o = operandsOf(c);
    const size_t bytes = gputest::bytesOf(gputest::dtypeOf(c.cfg.elementOf("a")));
    auto at = [&](int base, const Layout& l) {
      return CUdeviceptr((uint64_t(base) << 32) + uint64_t(l.lead) * bytes);
    };
    std::vector<tcc::Arg> args = argsOf(c, o, at(1, o.a), at(2, o.b), at(3, o.bias), at(4, o.c));
    // A persistent folder's grid needs the device (num_sms, occupancy).
    std::string noGpu;
    bool deviceGrid = false;
    for (const auto& v : k.variants())
      deviceGrid |= v.grid[0].find("num_sms") != std::string::npos;
    if (deviceGrid && !gputest::gpuAvailable(&noGpu))
      continue;
    tcc::LaunchPlan p = k.planArgs(args.data(), args.size());
    coverage.record(c.cfg, k, p);
    const int64_t bm = c.cfg.constexprOr("BM", 1), bn = c.cfg.constexprOr("BN", 1);
    const int64_t tiles = gputest::cdiv(c.M, bm) * gputest::cdiv(c.N, bn);
    // A persistent variant (sm_90a by default; not NOPERSISTENT_ folders) launches as many programs as
    // the GPU holds at once, a multiple of its SMs, never more than one per tile:
    // min(num_sms * occupancy, tiles); in clusters of two (MULTICAST_: --multicast, its
    // variant that multicasts) rounded up to even.
    if (p.variant && p.variant->grid[0].find("num_sms") != std::string::npos) {
      const int64_t sms = tcc::deviceInfo(0).smCount;
      const bool pairs = p.variant->grid[0].rfind("cdiv(min(num_sms", 0) == 0;
      if (pairs)
        EXPECT_EQ(int64_t(p.grid.x) % 2, 0);
      EXPECT_LE(int64_t(p.grid.x), pairs ? (tiles + 1) / 2 * 2 : tiles);
      EXPECT_GE(int64_t(p.grid.x), std::min<int64_t>(tiles, sms));
      if (int64_t(p.grid.x) < tiles) // capped by the device
        EXPECT_EQ(int64_t(p.grid.x) % sms, 0);
    } else {
      // Split over K (SPLITK<N>_: --split-k N): N programs a tile, `(<tiles>) * N`.
      const std::string& g = p.variant ? p.variant->grid[0] : std::string();
      const size_t times = g.rfind(") * ");
      const int64_t splits =
          !g.empty() && g.front() == '(' && times != std::string::npos ? std::stoll(g.substr(times + 4)) : 1;
      EXPECT_EQ(int64_t(p.grid.x), tiles * splits);
    }
    EXPECT_EQ(p.grid.y, 1);
    EXPECT_EQ(p.grid.z, 1);
  }
  // Every specialised variant (aligned; unit inner strides) is chosen by some case, so the
  // GPU run tests it too.
  for (const std::string& m : coverage.missed())
    ADD_FAILURE() << "no case selects the specialised variant " << m;
}

} // namespace
