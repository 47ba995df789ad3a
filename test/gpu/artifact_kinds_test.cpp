// Artifact kinds tcc writes beyond one cubin per kernel, loaded and run on the GPU:
// an sm_80 cubin with its PTX (on a Hopper GPU the cubin cannot run; the PTX is JIT-compiled
// by the driver), a PTX-only artifact (--emit=ptx -o, what a machine without ptxas makes),
// three architectures in one folder (the exact match is taken), and two kernels sharing one
// cubin. scripts/build-artifacts.sh makes them under DIR/kinds/.
#include "gpu_util.h"

#include <cmath>

namespace {

std::string kindDir(const std::string& kind) { return gputest::artifactsDir() + "/kinds/" + kind; }

class ArtifactKinds : public testing::Test {
protected:
  void SetUp() override {
    TCC_REQUIRE_GPU();
    if (!gputest::exists(kindDir("sm80")))
      GTEST_FAIL() << "no artifacts at " << kindDir("sm80") << " (run scripts/build-artifacts.sh)";
  }

  // Runs vector_add from `dir` on n elements and checks every sum; returns the variant used.
  const tcc::KernelMetadata* addAndCheck(const std::string& dir, int n) {
    tcc::Library lib(dir);
    tcc::Kernel& k = lib.kernel("vector_add");
    std::vector<float> x(n), y(n), out(n, 0.0f);
    gputest::fillRandom(x.data(), n, 1);
    gputest::fillRandom(y.data(), n, 2);
    tcc::bench::DeviceBuffer dx(n * sizeof(float)), dy(n * sizeof(float)), dout(n * sizeof(float));
    gputest::upload(dx.get(), x.data(), n * sizeof(float));
    gputest::upload(dy.get(), y.data(), n * sizeof(float));
    gputest::fill32(dout.get(), 0, n);
    const tcc::KernelMetadata* used = k.plan(dx.get(), dy.get(), dout.get(), int32_t(n)).variant;
    k.launch(nullptr, dx.get(), dy.get(), dout.get(), int32_t(n));
    gputest::synchronize();
    gputest::download(out.data(), dout.get(), n * sizeof(float));
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += out[i] != x[i] + y[i];
    EXPECT_EQ(bad, 0) << dir;
    return used;
  }
};

TEST_F(ArtifactKinds, OlderArchitectureRunsFromItsPtx) {
  int device = tcc::deviceComputeCapability();
  const tcc::KernelMetadata* used = addAndCheck(kindDir("sm80"), 100003);
  ASSERT_NE(used, nullptr);
  EXPECT_EQ(used->arch, "sm_80");
  // On the H200 (9.0) an sm_80 cubin cannot run: the variant goes through its PTX.
  if (device / 10 != 8) {
    EXPECT_EQ(tcc::loadRank(used->archNumber, used->archSpecific, !used->cubinPath.empty(),
                            !used->ptxPath.empty(), device),
              tcc::LoadRank::PtxJit);
  }
}

TEST_F(ArtifactKinds, PtxOnly) {
  const tcc::KernelMetadata* used = addAndCheck(kindDir("ptx_only"), 4097);
  ASSERT_NE(used, nullptr);
  EXPECT_TRUE(used->cubinPath.empty());
  EXPECT_FALSE(used->ptxPath.empty());
}

TEST_F(ArtifactKinds, SeveralArchitecturesTakeTheExactOne) {
  int device = tcc::deviceComputeCapability();
  const tcc::KernelMetadata* used = addAndCheck(kindDir("multi_arch"), 1 << 20);
  ASSERT_NE(used, nullptr);
  if (device == 90) {
    EXPECT_EQ(used->arch, "sm_90a"); // exact, and preferred to sm_90 on 9.0
  } else if (device == 80) {
    EXPECT_EQ(used->arch, "sm_80");
  }
}

TEST_F(ArtifactKinds, TwoKernelsInOneCubin) {
  tcc::Library lib(kindDir("two_kernels"));
  tcc::Kernel& scale = lib.kernel("scale");
  tcc::Kernel& fill = lib.kernel("fill");
  // The general variants share the one cubin (specialised ones hold one kernel each).
  EXPECT_EQ(scale.variants().back().cubinPath, fill.variants().back().cubinPath);
  EXPECT_NE(scale.variants().front().cubinPath, fill.variants().front().cubinPath);
  const int n = 5000;
  std::vector<float> x(n), out(n);
  gputest::fillRandom(x.data(), n, 3);
  tcc::bench::DeviceBuffer dx(n * 4), dout(n * 4), di(n * 4);
  gputest::upload(dx.get(), x.data(), n * 4);
  gputest::fill32(di.get(), 0, n);
  scale.launch(nullptr, dx.get(), dout.get(), int32_t(n));
  fill.launch(nullptr, di.get(), int32_t(-7), int32_t(n));
  gputest::synchronize();
  gputest::download(out.data(), dout.get(), n * 4);
  std::vector<int32_t> ints(n);
  gputest::download(ints.data(), di.get(), n * 4);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += out[i] != x[i] * 2.0f || ints[i] != -7;
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(fill.variants().front().numWarps, 8);
}

} // namespace

namespace {

// Fast by default: every course example built with plain `tcc K.tile --emit=cubin` carries
// its specialised variants, and a launch with aligned pointers and sizes divisible by 16
// takes one of them (plan() is what launch() runs, without launching).
TEST(DefaultBuild, AlignedArgumentsTakeASpecialisedVariant) {
  std::string root = kindDir("default");
  std::vector<std::string> examples = gputest::subdirs(root);
  if (examples.empty())
    TCC_REQUIRE_ARTIFACT_FILE(root + "/vector_add/vector_add.json");
  for (const std::string& dir : examples) {
    std::string ex = dir.substr(dir.find_last_of('/') + 1);
    tcc::Library lib(dir);
    std::vector<std::string> names = lib.kernelNames(); // autotune.tile's kernel is axpy
    ASSERT_EQ(names.size(), 1u) << ex;
    tcc::Kernel& k = lib.kernel(names.front());
    EXPECT_GT(k.variants().size(), 1u) << ex << ": the default build has one variant";
    // The arguments of a typical launch: aligned pointers, sizes and strides divisible by
    // 16, and 1 for the innermost strides where the most specialised variant assumes it
    // (a row-major matrix's), since no variant can cover a stride of 1 with d16.
    const tcc::KernelMetadata* best = &k.variants().front();
    for (const tcc::KernelMetadata& v : k.variants())
      if (v.specialisationScore() > best->specialisationScore())
        best = &v;
    std::vector<tcc::Arg> args;
    for (size_t i = 0; i < k.params().size(); ++i) {
      const tcc::ParamInfo& p = k.params()[i];
      if (p.isPointer)
        args.push_back(tcc::Arg::pointer(uint64_t(1) << 32)); // 16-byte aligned
      else if (p.elementKind == tcc::ScalarKind::Float)
        args.push_back(tcc::Arg(1.0f));
      else
        args.push_back(tcc::Arg(int32_t(best->params[i].equalToOne ? 1 : 1024)));
    }
    std::string noGpu;
    if (k.variants().front().grid[0].find("num_sms") != std::string::npos &&
        !gputest::gpuAvailable(&noGpu))
      continue; // a grid sized by the device needs one
    tcc::LaunchPlan plan = k.planArgs(args.data(), args.size());
    ASSERT_NE(plan.variant, nullptr) << ex;
    EXPECT_GT(plan.variant->specialisationScore(), 0)
        << ex << " took " << plan.variant->specialisationString();
  }
}

} // namespace
