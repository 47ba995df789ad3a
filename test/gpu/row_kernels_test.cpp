// softmax, softmax_persistent and layernorm (lang-examples: rows of up to BLOCK columns)
// on the GPU, for every configuration found, over row counts and lengths around BLOCK
// (1 x N, M x 1, N = BLOCK, BLOCK - 1, BLOCK/2 + 1, 2049 x 4097 with BLOCK 8192), strided
// and misaligned rows, against a CPU reference in double precision.
//
// Error bounds (f32):
// - softmax: |got - ref| <= 1e-5 |ref| for inputs in +-[0.01, 4]. For the "wide" inputs in
//   +-[1, 60] (where subtracting the row maximum matters), exp of an f32 argument x - max
//   carries a relative error that grows with |x - max| (the argument's own rounding), so
//   the bound is 1e-5 |ref| max(1, |x - max| / 8), plus FLT_MIN for results flushed to zero.
// - layernorm: |got - ref| <= 1e-5 s with s = |w| rstd (|x| + mean|x|) + |b|, the magnitude
//   of the terms the result is made of (a result that cancels to near zero is held to the
//   error of its terms, not to its own tiny size).
#include "configs.h"
#include "gpu_util.h"
#include "matrix.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <map>
#include <memory>

namespace {

using gputest::DType;
using gputest::Layout;
using gputest::Matrix;

// softmax_persistent (a grid sized by the device, rows strided by num_programs(0)) has
// softmax's signature and results.
bool isSoftmax(const std::string& k) { return k == "softmax" || k == "softmax_persistent"; }
bool isRowKernel(const std::string& k) {
  return isSoftmax(k) || k == "layernorm";
}

struct Case {
  gputest::KernelConfig cfg;
  int64_t M = 0, N = 0;
  // dense; strided (rows longer than N; softmax: different input and output strides);
  // aligned (strides a multiple of 16, with gaps); offset (pointers one element past 16-byte
  // alignment); wide (softmax: inputs in +-[1, 60]).
  std::string view;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

struct Operands {
  Layout in, out, w, b;
};

Operands operandsOf(const Case& c) {
  const int64_t lead = c.view == "offset" ? 65 : 64;
  int64_t padIn = 0, padOut = 0;
  if (c.view == "strided") {
    padIn = 5;
    padOut = isSoftmax(c.cfg.kernel) ? 11 : 5; // layernorm has one stride
  } else if (c.view == "aligned") {
    padIn = padOut = (c.N + 15) / 16 * 16 + 16 - c.N;
  }
  Operands o;
  o.in = Layout::rowMajor(c.M, c.N, padIn, lead);
  o.out = Layout::rowMajor(c.M, c.N, padOut, lead);
  o.w = o.b = Layout::vector(c.N, lead);
  return o;
}

constexpr float kEps = 1e-5f;

std::vector<tcc::Arg> argsOf(const Case& c, const Operands& o, CUdeviceptr in, CUdeviceptr out,
                             CUdeviceptr w, CUdeviceptr b) {
  if (isSoftmax(c.cfg.kernel))
    return {out, in, o.in.rowStride, o.out.rowStride, c.M, c.N};
  return {in, w, b, out, o.in.rowStride, c.M, c.N, kEps};
}

std::vector<Case> cases() {
  std::vector<Case> r;
  for (const gputest::KernelConfig& cfg : gputest::findConfigs(isRowKernel)) {
    const int64_t block = cfg.constexprOr("BLOCK", 1024);
    std::vector<int64_t> ns = {block, block - 1, block / 2 + 1, 7, 1};
    std::vector<std::string> views = {"dense", "strided", "aligned", "offset"};
    if (isSoftmax(cfg.kernel))
      views.push_back("wide");
    if (!cfg.loadError.empty()) {
      ns = {1};
      views = {"dense"};
    }
    std::sort(ns.begin(), ns.end());
    ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
    for (int64_t n : ns) {
      if (n < 1 || n > block)
        continue;
      // 1 x N; 144 rows (a multiple of 16, so that with N = BLOCK the specialised variants
      // run); 2049 rows where N is the odd half-block length (2049 x 4097 for BLOCK = 8192);
      // M x 1 as 4097 x 1.
      std::vector<int64_t> ms = {1, 144};
      if (n == block / 2 + 1 && n > 1)
        ms.push_back(2049);
      if (n == 1)
        ms.push_back(4097);
      for (int64_t m : ms) {
        for (const std::string& v : views) {
          if (m == 2049 && v != "dense" && v != "strided")
            continue;
          Case c;
          c.cfg = cfg;
          c.M = m;
          c.N = n;
          c.view = v;
          c.name = cfg.label() + "_" + std::to_string(m) + "x" + std::to_string(n) + "_" + v;
          r.push_back(c);
        }
      }
    }
  }
  return r;
}

uint64_t seedOf(const Case& c) {
  return std::hash<std::string>()(c.name) | 1;
}

// The CPU reference of one row, in double.
struct RowRef {
  std::vector<double> value, bound;
};

RowRef softmaxRow(const Matrix& x, int64_t i, int64_t n) {
  RowRef r;
  r.value.resize(n);
  r.bound.resize(n);
  double mx = -INFINITY;
  for (int64_t j = 0; j < n; ++j)
    mx = std::max(mx, x.at(i, j));
  double sum = 0;
  for (int64_t j = 0; j < n; ++j)
    sum += r.value[j] = std::exp(x.at(i, j) - mx);
  for (int64_t j = 0; j < n; ++j) {
    r.value[j] /= sum;
    r.bound[j] = 1e-5 * r.value[j] * std::max(1.0, (mx - x.at(i, j)) / 8) + FLT_MIN;
  }
  return r;
}

RowRef layernormRow(const Matrix& x, const Matrix& w, const Matrix& b, int64_t i, int64_t n) {
  RowRef r;
  r.value.resize(n);
  r.bound.resize(n);
  double mean = 0, meanAbs = 0;
  for (int64_t j = 0; j < n; ++j) {
    mean += x.at(i, j);
    meanAbs += std::fabs(x.at(i, j));
  }
  mean /= n;
  meanAbs /= n;
  double var = 0;
  for (int64_t j = 0; j < n; ++j)
    var += (x.at(i, j) - mean) * (x.at(i, j) - mean);
  var /= n;
  const double rstd = 1 / std::sqrt(var + static_cast<double>(kEps));
  for (int64_t j = 0; j < n; ++j) {
    const double wj = w.at(0, j), bj = b.at(0, j);
    r.value[j] = (x.at(i, j) - mean) * rstd * wj + bj;
    r.bound[j] = 1e-5 * (std::fabs(wj) * rstd * (std::fabs(x.at(i, j)) + meanAbs) + std::fabs(bj));
  }
  return r;
}

class RowKernels : public testing::TestWithParam<Case> {};

TEST_P(RowKernels, MatchesCpuReference) {
  TCC_REQUIRE_GPU();
  const Case& c = GetParam();
  ASSERT_TRUE(c.cfg.loadError.empty()) << c.cfg.loadError;
  tcc::Kernel& k = gputest::kernelOf(c.cfg);
  const Operands o = operandsOf(c);
  const bool softmax = isSoftmax(c.cfg.kernel);
  Matrix in(DType::F32, o.in, Matrix::Role::Input);
  Matrix out(DType::F32, o.out, Matrix::Role::Output);
  Matrix w(DType::F32, o.w, Matrix::Role::Input), b(DType::F32, o.b, Matrix::Role::Input);
  if (softmax && c.view == "wide")
    in.randomize(seedOf(c), 1, 60);
  else if (softmax)
    in.randomize(seedOf(c), 0.01, 4);
  else
    in.randomize(seedOf(c), 0.5, 8);
  w.randomize(seedOf(c) + 1, 0.5, 2);
  b.randomize(seedOf(c) + 2, 0.5, 2);
  in.upload();
  w.upload();
  b.upload();
  out.poison();
  std::vector<tcc::Arg> args = argsOf(c, o, in.ptr(), out.ptr(), w.ptr(), b.ptr());
  const tcc::LaunchPlan plan = k.planArgs(args.data(), args.size());
  k.launchArgs(nullptr, args.data(), args.size());
  gputest::synchronize();
  out.download();

  // The reference row by row (each row computed once, by the thread that checks it).
  std::vector<RowRef> refs(static_cast<size_t>(c.M));
  gputest::parallelFor(c.M, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i)
      refs[i] = softmax ? softmaxRow(in, i, c.N) : layernormRow(in, w, b, i, c.N);
  });
  gputest::CheckResult r = gputest::checkOutput(out, [&](int64_t i, int64_t j) {
    return gputest::Expected{refs[i].value[j], refs[i].bound[j]};
  });
  EXPECT_TRUE(r.ok()) << r.describe() << "\n  variant " << plan.variant->specialisationString()
                      << ", grid " << plan.grid.x << ", in " << o.in.describe() << ", out "
                      << o.out.describe();
}

std::string caseName(const testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RowKernels);
INSTANTIATE_TEST_SUITE_P(Artifacts, RowKernels, testing::ValuesIn(cases()), caseName);

TEST(Plans, RowKernels) {
  std::vector<Case> all = cases();
  if (all.empty())
    TCC_REQUIRE_ARTIFACT_FILE("tcc/softmax/BLOCK1024_W4/softmax.json");
  std::map<std::string, std::pair<bool, bool>> specialised; // dir -> (has one, chosen once)
  for (const Case& c : all) {
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(c.cfg.loadError.empty()) << c.cfg.loadError;
    tcc::Library lib(c.cfg.dir);
    tcc::Kernel& k = lib.kernel(c.cfg.kernel);
    const Operands o = operandsOf(c);
    auto at = [](int base, const Layout& l) {
      return CUdeviceptr((uint64_t(base) << 32) + uint64_t(l.lead) * 4);
    };
    std::vector<tcc::Arg> args = argsOf(c, o, at(1, o.in), at(2, o.out), at(3, o.w), at(4, o.b));
    std::string noGpu;
    if (c.cfg.kernel == "softmax_persistent" && !gputest::gpuAvailable(&noGpu))
      continue; // its grid needs the device (num_sms, occupancy)
    tcc::LaunchPlan p = k.planArgs(args.data(), args.size());
    auto& sp = specialised[c.cfg.dir];
    // Rows shorter than 16 (BLOCK < 16) can never meet N % 16 == 0.
    sp.first = k.variants().size() > 1 && c.cfg.constexprOr("BLOCK", 1) >= 16;
    sp.second = sp.second || p.variant->specialisationScore() > 0;
    if (c.cfg.kernel == "softmax_persistent") {
      // As many programs as fit on the device at once, never more than rows.
      {
        const int64_t sms = tcc::deviceInfo(0).smCount;
        EXPECT_LE(p.grid.x, c.M);
        EXPECT_GE(p.grid.x, std::min<int64_t>(c.M, sms));
        if (p.grid.x < c.M) { // capped by the device: num_sms * occupancy
          EXPECT_EQ(p.grid.x % sms, 0);
        }
      }
    } else {
      EXPECT_EQ(p.grid.x, c.M);
    }
    EXPECT_EQ(p.grid.y, 1);
    EXPECT_EQ(p.grid.z, 1);
  }
  // Every specialised variant is chosen by some case, so the GPU run tests it too.
  for (const auto& [dir, sp] : specialised)
    EXPECT_TRUE(!sp.first || sp.second) << "no case selects the specialised variant in " << dir;
}

} // namespace
