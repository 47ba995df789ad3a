// copy2d, transpose and bias_add (lang-examples) on the GPU, for every configuration tcc
// built (test/gpu/artifacts.cmake), over awkward shapes and strided, transposed and misaligned
// views, against a CPU reference. Error bound: exact (bit for bit). Copies and transposes
// move values; bias_add's f32 sum of two floats of magnitude <= 1000 is exact in double, so
// rounding the double sum to float is the correctly rounded f32 addition the GPU does.
#include "configs.h"
#include "gpu_util.h"
#include "matrix.h"

#include <algorithm>
#include <map>
#include <memory>

namespace {

using gputest::DType;
using gputest::Layout;
using gputest::Matrix;

bool isMatrixKernel(const std::string& k) {
  return k == "copy2d" || k == "transpose" || k == "bias_add";
}

struct Case {
  gputest::KernelConfig cfg;
  int64_t M = 0, N = 0;
  // dense: contiguous rows; strided: rows longer than the view (odd pads); aligned: row
  // strides padded to a multiple of 16 (the specialised variants' assumption) with gaps;
  // offset: every pointer one element past 16-byte alignment; src_t / dst_t (copy2d): a
  // column-major (transposed) source or destination; cs16 (copy2d): every 16th column, so
  // that all strides are multiples of 16 (--specialize-all assumes so of every integer).
  std::string view;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

struct Operands {
  Layout in, out, bias;
};

int64_t alignedPad(int64_t cols) {
  return (cols + 15) / 16 * 16 + 16 - cols;
}

Operands operandsOf(const Case& c) {
  const int64_t lead = c.view == "offset" ? 65 : 64;
  const bool t = c.cfg.kernel == "transpose";
  const int64_t outRows = t ? c.N : c.M, outCols = t ? c.M : c.N;
  int64_t padIn = 0, padOut = 0;
  if (c.view == "strided") {
    padIn = 13;
    padOut = 7;
  } else if (c.view == "aligned") {
    padIn = alignedPad(c.N);
    padOut = alignedPad(outCols);
  }
  Operands o;
  o.in = c.view == "src_t" ? Layout::colMajor(c.M, c.N, 3, lead)
                           : Layout::rowMajor(c.M, c.N, padIn, lead);
  o.out = c.view == "dst_t" ? Layout::colMajor(outRows, outCols, 0, lead)
                            : Layout::rowMajor(outRows, outCols, padOut, lead);
  if (c.view == "cs16") {
    o.in = Layout::spread(c.M, c.N, 16, lead);
    o.out = Layout::spread(outRows, outCols, 16, lead);
  }
  if (c.cfg.kernel == "bias_add")
    o.out = o.in; // one stride for x and out
  o.bias = Layout::vector(c.N, lead);
  return o;
}

std::vector<tcc::Arg> argsOf(const Case& c, const Operands& o, CUdeviceptr in, CUdeviceptr out,
                             CUdeviceptr bias) {
  if (c.cfg.kernel == "copy2d")
    return {in, out, c.M, c.N, o.in.rowStride, o.in.colStride, o.out.rowStride, o.out.colStride};
  if (c.cfg.kernel == "transpose")
    return {in, out, c.M, c.N, o.in.rowStride, o.out.rowStride};
  return {in, bias, out, c.M, c.N, o.in.rowStride};
}

tcc::Dim3 expectedGrid(const Case& c) {
  int64_t bm = c.cfg.constexprOr("BM", 1), bn = c.cfg.constexprOr("BN", 1);
  return {gputest::cdiv(c.M, bm), gputest::cdiv(c.N, bn), 1};
}

std::vector<Case> cases() {
  std::vector<Case> r;
  for (const gputest::KernelConfig& cfg : gputest::findConfigs(isMatrixKernel)) {
    const int64_t bm = cfg.constexprOr("BM", 32), bn = cfg.constexprOr("BN", 32);
    std::vector<std::pair<int64_t, int64_t>> shapes = {{1, 1},
                                                       {1, 1000},
                                                       {1000, 1},
                                                       {bm - 1, bn + 1},
                                                       {bm, bn},
                                                       {bm + 1, 2 * bn - 1},
                                                       {3 * bm + 5, 5 * bn + 3},
                                                       {1024, 1024},
                                                       {2049, 4097}};
    std::vector<std::string> views = {"dense", "strided", "aligned", "offset"};
    if (cfg.kernel == "copy2d") {
      views.push_back("src_t");
      views.push_back("dst_t");
      views.push_back("cs16");
    }
    if (!cfg.loadError.empty()) {
      shapes = {{1, 1}};
      views = {"dense"};
    }
    std::sort(shapes.begin(), shapes.end()); // unique names: small blocks could repeat a shape
    shapes.erase(std::unique(shapes.begin(), shapes.end()), shapes.end());
    for (auto [m, n] : shapes) {
      for (const std::string& v : views) {
        if (m * n > (int64_t(1) << 22) && v != "dense" && v != "strided" && v != "src_t")
          continue; // the big shape: enough views to cover it, few enough to stay quick
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
  return r;
}

uint64_t seedOf(const Case& c) {
  return std::hash<std::string>()(c.name) | 1;
}

class MatrixKernels : public testing::TestWithParam<Case> {};

TEST_P(MatrixKernels, MatchesCpuReference) {
  TCC_REQUIRE_GPU();
  const Case& c = GetParam();
  ASSERT_TRUE(c.cfg.loadError.empty()) << c.cfg.loadError;
  tcc::Kernel& k = gputest::kernelOf(c.cfg);
  const Operands o = operandsOf(c);
  Matrix in(DType::F32, o.in, Matrix::Role::Input);
  Matrix out(DType::F32, o.out, Matrix::Role::Output);
  std::unique_ptr<Matrix> bias;
  in.randomize(seedOf(c), 1, 1000);
  in.upload();
  out.poison();
  if (c.cfg.kernel == "bias_add") {
    bias = std::make_unique<Matrix>(DType::F32, o.bias, Matrix::Role::Input);
    bias->randomize(seedOf(c) + 1, 1, 1000);
    bias->upload();
  }
  std::vector<tcc::Arg> args = argsOf(c, o, in.ptr(), out.ptr(), bias ? bias->ptr() : 0);
  const tcc::LaunchPlan plan = k.planArgs(args.data(), args.size());
  k.launchArgs(nullptr, args.data(), args.size());
  gputest::synchronize();
  out.download();

  gputest::CheckResult r;
  if (c.cfg.kernel == "transpose")
    r = gputest::checkOutput(out,
                             [&](int64_t i, int64_t j) { return gputest::Expected{in.at(j, i)}; });
  else if (c.cfg.kernel == "copy2d")
    r = gputest::checkOutput(out,
                             [&](int64_t i, int64_t j) { return gputest::Expected{in.at(i, j)}; });
  else
    r = gputest::checkOutput(out, [&](int64_t i, int64_t j) {
      return gputest::Expected{static_cast<float>(in.at(i, j) + bias->at(0, j))};
    });
  EXPECT_TRUE(r.ok()) << r.describe() << "\n  variant " << plan.variant->specialisationString()
                      << ", grid " << plan.grid.x << "x" << plan.grid.y << ", in "
                      << o.in.describe() << ", out " << o.out.describe();
}

std::string caseName(const testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MatrixKernels);
INSTANTIATE_TEST_SUITE_P(Artifacts, MatrixKernels, testing::ValuesIn(cases()), caseName);

// Every case's arguments against the kernel's metadata (count, types, ranges) and its grid,
// without a GPU: what the GPU run will launch is checked wherever the artifacts are.
TEST(Plans, MatrixKernels) {
  std::vector<Case> all = cases();
  if (all.empty())
    TCC_REQUIRE_ARTIFACT_FILE("tcc/copy2d/BM32_BN32_W4/copy2d.json");
  gputest::VariantCoverage coverage;
  for (const Case& c : all) {
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(c.cfg.loadError.empty()) << c.cfg.loadError;
    tcc::Library lib(c.cfg.dir);
    tcc::Kernel& k = lib.kernel(c.cfg.kernel);
    const Operands o = operandsOf(c);
    // Addresses as the device allocates them: 256-byte aligned bases.
    auto at = [](int base, const Layout& l) {
      return CUdeviceptr((uint64_t(base) << 32) + uint64_t(l.lead) * 4);
    };
    std::vector<tcc::Arg> args = argsOf(c, o, at(1, o.in), at(2, o.out), at(3, o.bias));
    tcc::LaunchPlan p = k.planArgs(args.data(), args.size());
    coverage.record(c.cfg, k, p);
    tcc::Dim3 g = expectedGrid(c);
    EXPECT_EQ(p.grid.x, g.x);
    EXPECT_EQ(p.grid.y, g.y);
    EXPECT_EQ(p.grid.z, g.z);
  }
  // Every specialised variant (aligned; unit inner strides) is chosen by some case, so the
  // GPU run tests it too.
  for (const std::string& m : coverage.missed())
    ADD_FAILURE() << "no case selects the specialised variant " << m;
}

} // namespace
