// Kernels built with --check-bounds on the fake driver (runtime_fake_cuda.cpp; main() is in
// runtime_driver_test.cpp): the hidden arguments (the extent of each pointer from its
// allocation, the error record) and the report of a violation the launch records (the
// fake's FAKE_OOB writes one as tile.record_oob would). docs/runtime.md is the contract.
#include "tcc/embedded.h"
#include "tcc/runtime.h"
#include <gtest/gtest.h>

#include "fake_driver.h"
#include "fake_elf.h"
#include <cstdlib>
#include <functional>
#include <string>

namespace {

using fakedriver::errorOf;



// copy(x: *f32, out: *f32, n: i32), BLOCK 256, built with --check-bounds: at launch the
// params are x, out, n, the extents of x and out, then the record.
std::string copyJson(const std::string& checkBounds) {
  return "{\"format\": \"tcc-kernel\", \"version\": 1, \"name\": \"copy\", \"arch\": \"sm_90\", "
         "\"cubin\": \"copy.cubin\", \"num_warps\": 4, "
         "\"grid\": [\"cdiv(n, 256)\", \"1\", \"1\"], \"params\": ["
         "{\"name\": \"x\", \"type\": \"*f32\"}, {\"name\": \"out\", \"type\": \"*f32\"}, "
         "{\"name\": \"n\", \"type\": \"i32\"}], \"constexprs\": {\"BLOCK\": 256}, "
         "\"check_bounds\": " + checkBounds + ", \"source\": \"lang-examples/copy.tile\"}";
}

const char* kCheck = "{\"extents\": [\"x\", \"out\"], \"record_bytes\": 40, \"unchecked\": 0}";

// A library with the copy kernel whose image does `behaviour` (FAKE_OOB=5,4,1: records a
// store through 'out' at the byte offset of out's extent, by the last program).
tcc::Library copyLibrary(const std::string& behaviour) {
  tcc::Library lib;
  lib.add(tcc::parseMetadata(copyJson(kCheck), "copy.json", ""),
          faketest::cudaElf(8, 0x6000004u | (90u << 8), behaviour), "");
  return lib;
}

struct Buffer {
  CUdeviceptr p = 0;
  explicit Buffer(size_t bytes) {
    tcc::ensureContext();
    EXPECT_EQ(tcc::driver().cuMemAlloc(&p, bytes), tcc::cu::CUDA_SUCCESS);
  }
  ~Buffer() { tcc::driver().cuMemFree(p); }
};

TEST(CheckBounds, MetadataIsParsed) {
  tcc::KernelMetadata m = tcc::parseMetadata(copyJson(kCheck), "copy.json", "");
  ASSERT_TRUE(m.checkBounds.has_value());
  EXPECT_EQ(m.checkBounds->extents, (std::vector<std::string>{"x", "out"}));
  EXPECT_EQ(m.checkBounds->extentParams, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(m.checkBounds->recordBytes, 40);
  EXPECT_EQ(m.params.size(), 3u); // the hidden parameters are not parameters
  EXPECT_FALSE(tcc::parseMetadata(copyJson(kCheck), "copy.json", "").autotune.has_value());
}

TEST(CheckBounds, MalformedMetadataIsAnError) {
  auto parse = [](const std::string& cb) {
    return errorOf([&] { tcc::parseMetadata(copyJson(cb), "copy.json", ""); });
  };
  EXPECT_NE(parse("{\"extents\": [\"out\", \"x\"], \"record_bytes\": 40}")
                .find("\"check_bounds\".\"extents\"[0] is 'out'; the extents must name the "
                      "pointer parameters in order"),
            std::string::npos);
  EXPECT_NE(parse("{\"extents\": [\"x\"], \"record_bytes\": 40}")
                .find("names 1 parameters; the kernel has 2 pointer parameters"),
            std::string::npos);
  EXPECT_NE(parse("{\"extents\": [\"x\", \"out\"], \"record_bytes\": 8}")
                .find("\"record_bytes\" 8 is outside 40..4096"),
            std::string::npos);
  EXPECT_NE(parse("{\"extents\": [\"x\", \"out\"]}").find("record_bytes"), std::string::npos);
  EXPECT_NE(parse("{\"extents\": [\"x\", \"out\"], \"record_bytes\": 40, \"unchecked\": -1}")
                .find("\"unchecked\" -1 is outside"),
            std::string::npos);
}

TEST(CheckBounds, AViolationIsReportedWithLineProgramOffsetAndExtent) {
  tcc::Library lib = copyLibrary("FAKE_OOB=5,4,1");
  tcc::Kernel& k = lib.kernel("copy");
  Buffer x(4096), out(4096);
  fakedriver::takeLog();
  std::string e = errorOf([&] { k.launch(nullptr, x.p, out.p, int32_t(1000)); });
  EXPECT_EQ(e, "tcc: kernel 'copy': running (--check-bounds): out-of-bounds store at "
               "copy.tile:12:5 by program (3, 0, 0): byte offset 4096 of 'out' (4096 bytes "
               "valid; element 1024 of *f32)");
  // The extent is from the pointer passed to the end of its allocation; the record is
  // zeroed before each launch, so the second launch's violation is reported, not the first.
  e = errorOf([&] { k.launch(nullptr, x.p, out.p + 1024, int32_t(1000)); });
  EXPECT_NE(e.find("byte offset 3072 of 'out' (3072 bytes valid; element 768 of *f32)"),
            std::string::npos)
      << e;
  std::string log = fakedriver::takeLog();
  EXPECT_NE(log.find("launch copy from cubin sm_90 grid 4x1x1 block 128"), std::string::npos);
  EXPECT_NE(log.find("extent 3072"), std::string::npos) << log;
}

TEST(CheckBounds, APointerOutsideEveryAllocationHasNoValidByte) {
  tcc::Library lib = copyLibrary("FAKE_OOB=5,4,1");
  tcc::Kernel& k = lib.kernel("copy");
  Buffer x(4096);
  std::string e = errorOf([&] { k.launch(nullptr, x.p, CUdeviceptr(0x10), int32_t(1)); });
  EXPECT_NE(e.find("by program (0, 0, 0): byte offset 0 of 'out' (0 bytes valid: the pointer "
                   "is in no device allocation; element 0 of *f32)"),
            std::string::npos)
      << e;
}

TEST(CheckBounds, ACleanLaunchPasses) {
  tcc::Library lib = copyLibrary("");
  tcc::Kernel& k = lib.kernel("copy");
  Buffer x(4096), out(4096);
  fakedriver::takeLog();
  EXPECT_EQ(errorOf([&] { k.launch(nullptr, x.p, out.p, int32_t(1000)); }), "(no error)");
  EXPECT_EQ(errorOf([&] { k.launch(nullptr, x.p, out.p, int32_t(0)); }), "(no error)");
  std::string log = fakedriver::takeLog();
  // One launch: an empty grid launches nothing.
  EXPECT_EQ(log.find("launch copy"), log.rfind("launch copy")) << log;
}

// A header's kernel (tcc --emit=header --check-bounds): setBoundsCheck tells it its
// parameters; launches then pass the extents and the record and report the same way.
TEST(CheckBounds, EmbeddedKernelsReportTheSameWay) {
  std::string cubin = faketest::cudaElf(8, 0x6000004u | (90u << 8), "FAKE_OOB=5,4,1");
  tcc::EmbeddedKernel k("copy", "copy", cubin.data(), cubin.size(), "sm_90", 4, 0);
  k.setBoundsCheck("x:*f32,out:*f32,n:i32", "copy.tile", 40);
  Buffer x(4096), out(2048);
  CUdeviceptr px = x.p, pout = out.p;
  int32_t n = 1000;
  void* args[] = {&px, &pout, &n};
  EXPECT_EQ(errorOf([&] { k.launch(nullptr, 4, 1, 1, args); }),
            "tcc: kernel 'copy': running (--check-bounds): out-of-bounds store at copy.tile:12:5 "
            "by program (3, 0, 0): byte offset 2048 of 'out' (2048 bytes valid; element 512 of "
            "*f32)");
  tcc::EmbeddedKernel bad("copy", "copy", cubin.data(), cubin.size(), "sm_90", 4, 0);
  EXPECT_EQ(errorOf([&] { bad.setBoundsCheck("x:*f32,out", "copy.tile", 40); }),
            "tcc: kernel 'copy': setting up the bounds check: parameter 'out' is not NAME:TYPE "
            "with a parameter type");
  EXPECT_NE(errorOf([&] { bad.setBoundsCheck("x:*f32", "copy.tile", 8); })
                .find("record size 8 is outside 40..4096"),
            std::string::npos);
}

} // namespace
