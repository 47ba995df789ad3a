// Launches that must fail, and fail saying why: wrong argument count or types, a kernel name
// that does not exist, a cubin for another architecture, metadata that lies about it, an
// entry symbol the cubin lacks.
#include "gpu_util.h"

#include <cstdlib>

namespace {

std::string addDir() { return gputest::artifactsDir() + "/fixture/vector_add/BLOCK1024_W4"; }

class LaunchErrors : public testing::Test {
protected:
  void SetUp() override {
    TCC_REQUIRE_GPU();
    if (!gputest::exists(addDir()))
      GTEST_FAIL() << "no artifacts at " << addDir() << " (run scripts/build-artifacts.sh)";
    buf_ = tcc::bench::DeviceBuffer(3 * 4096 * sizeof(float));
    x_ = buf_.get();
    y_ = x_ + 4096 * sizeof(float);
    out_ = y_ + 4096 * sizeof(float);
  }
  tcc::bench::DeviceBuffer buf_;
  CUdeviceptr x_ = 0, y_ = 0, out_ = 0;
};

TEST_F(LaunchErrors, WrongArgumentCount) {
  tcc::Library lib(addDir());
  tcc::Kernel& k = lib.kernel("vector_add");
  TCC_EXPECT_ERROR(k.launch(nullptr, x_, y_, int32_t(16)), "vector_add", "expects 4 arguments",
                   "got 3");
  TCC_EXPECT_ERROR(k.launch(nullptr, x_, y_, out_, int32_t(16), int32_t(1)), "vector_add",
                   "got 5");
  TCC_EXPECT_ERROR(k.launch(nullptr), "vector_add", "got 0");
}

TEST_F(LaunchErrors, WrongArgumentType) {
  tcc::Library lib(addDir());
  tcc::Kernel& k = lib.kernel("vector_add");
  TCC_EXPECT_ERROR(k.launch(nullptr, x_, 1.5f, out_, int32_t(16)), "vector_add", "'y'",
                   "pointer");
  TCC_EXPECT_ERROR(k.launch(nullptr, x_, y_, out_, 16.0), "vector_add", "'n'", "integer");
  TCC_EXPECT_ERROR(k.launch(nullptr, x_, y_, out_, int64_t(1) << 40), "vector_add", "'n'",
                   "out of range");
}

TEST_F(LaunchErrors, MissingKernelName) {
  tcc::Library lib(addDir());
  TCC_EXPECT_ERROR(lib.kernel("vector_sub"), "vector_sub", "no such kernel", "vector_add");
  TCC_EXPECT_ERROR(lib.launch("vector_sub", nullptr, x_, y_, out_, int32_t(16)), "vector_add");
}

TEST_F(LaunchErrors, WrongArchitecture) {
  int device = tcc::deviceComputeCapability();
  int tried = 0;
  for (int arch : {80, 100}) {
    std::string dir = gputest::artifactsDir() + "/fixture/errors/sm_" + std::to_string(arch);
    if (!gputest::exists(dir) || tcc::cubinRunsOn(arch, false, device))
      continue;
    ++tried;
    tcc::Library lib(dir);
    std::string built = "sm_" + std::to_string(arch);
    std::string dev = "sm_" + std::to_string(device);
    TCC_EXPECT_ERROR(lib.launch("vector_add", nullptr, x_, y_, out_, int32_t(4096)), "vector_add",
                     built.c_str(), dev.c_str());
  }
  EXPECT_GT(tried, 0) << "no wrong-architecture artifact for this device";
}

TEST_F(LaunchErrors, MetadataArchitectureDisagreesWithCubin) {
  tcc::Library lib(gputest::artifactsDir() + "/fixture/errors/mismatch");
  TCC_EXPECT_ERROR(lib.launch("vector_add", nullptr, x_, y_, out_, int32_t(4096)), "vector_add",
                   "metadata says sm_90", "built for sm_80");
}

TEST_F(LaunchErrors, EntrySymbolMissing) {
  tcc::KernelMetadata m = tcc::loadMetadataFile(addDir() + "/vector_add.json");
  m.entry = "no_such_entry";
  tcc::Library lib;
  lib.add(m);
  TCC_EXPECT_ERROR(lib.launch("vector_add", nullptr, x_, y_, out_, int32_t(4096)), "vector_add",
                   "no_such_entry", "CUDA_ERROR_NOT_FOUND");
}

TEST_F(LaunchErrors, EmptyGridLaunchesNothing) {
  tcc::Library lib(addDir());
  gputest::fill32(out_, 0x7fbadbadu, 4096);
  lib.launch("vector_add", nullptr, x_, y_, out_, int32_t(0));
  gputest::synchronize();
  std::vector<uint32_t> r(4096);
  gputest::download(r.data(), out_, r.size() * sizeof(float));
  for (uint32_t v : r)
    ASSERT_EQ(v, 0x7fbadbadu);
}

TEST_F(LaunchErrors, AsyncFaultIsReportedWithTheKernelName) {
  // The specialised variant is chosen for 16-byte aligned arguments; hand it an address
  // that is aligned but unmapped, with TCC_LAUNCH_SYNC semantics requested by a direct
  // synchronisation. (A fault poisons the context, so this test only runs when asked.)
  if (!std::getenv("TCC_TEST_FAULTS"))
    GTEST_SKIP() << "set TCC_TEST_FAULTS=1 to run (a fault ends the context for later tests)";
  tcc::Library lib(addDir());
  lib.launch("vector_add", nullptr, CUdeviceptr(16), CUdeviceptr(16), CUdeviceptr(16), int32_t(4096));
  EXPECT_THROW(tcc::check(tcc::driver().cuCtxSynchronize(), "running vector_add"), tcc::Error);
}

} // namespace
