// TMA tensor maps on the fake driver (runtime_fake_cuda.cpp; main() is in
// runtime_driver_test.cpp): what a launch passes to cuTensorMapEncodeTiled, that the encoded
// 128-byte maps follow the parameters in kernelParams (after a bounds check's extents and
// record), the cache of encoded maps, the variant choice where TMA cannot take the
// arguments, the errors, and tcc::EmbeddedKernel's tensor maps. docs/artifacts.md
// ("tensormaps") is the contract.
#include "tcc/embedded.h"
#include "tcc/runtime.h"

#include <gtest/gtest.h>

#include "fake_driver.h"
#include "fake_elf.h"


#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

namespace {

using fakedriver::errorOf;
using fakedriver::fake;
using fakedriver::takeLog;




// The number of the map the fake encoded, from its log's k-th "-> map N" (-1: none).
std::string mapNumber(const std::string& log, int k = 0) {
  size_t at = 0;
  for (int i = 0; i <= k; ++i) {
    at = log.find("-> map ", at);
    if (at == std::string::npos)
      return "-1";
    at += 7;
  }
  return log.substr(at, log.find('\n', at) - at);
}

size_t count(const std::string& log, const std::string& what) {
  size_t n = 0;
  for (size_t at = log.find(what); at != std::string::npos; at = log.find(what, at + 1))
    ++n;
  return n;
}

// tma_copy(x: *f16, out: *f32, M: i32, K: i32, stride_xm: i32), BM = 128: a variant with
// `maps` ("tensormaps", empty: none), the divisibility `d` on x and stride_xm, and
// `extra` members.
std::string tmaJson(const std::string& arch, const std::string& maps, int d = 1,
                    const std::string& extra = "") {
  std::string div = d > 1 ? ", \"divisibility\": " + std::to_string(d) : "";
  return std::string("{\"format\": \"tcc-kernel\", \"version\": ") + (maps.empty() ? "1" : "2") +
         ", \"name\": \"tma_copy\", \"arch\": \"" + arch + "\", \"cubin\": \"k.cubin\", "
         "\"num_warps\": 4, \"grid\": [\"cdiv(M, BM)\", \"1\", \"1\"], \"params\": ["
         "{\"name\": \"x\", \"type\": \"*f16\"" + div + "}, {\"name\": \"out\", \"type\": \"*f32\"}, "
         "{\"name\": \"M\", \"type\": \"i32\"}, {\"name\": \"K\", \"type\": \"i32\"}, "
         "{\"name\": \"stride_xm\", \"type\": \"i32\"" + div + "}], \"constexprs\": {\"BM\": 128}" +
         (maps.empty() ? "" : ", \"tensormaps\": [" + maps + "]") + extra + "}";
}

const char* kMapX = "{\"param\": \"x\", \"dtype\": \"f16\", \"dims\": [\"K\", \"M\"], "
                    "\"strides_bytes\": [\"stride_xm * 2\"], \"box\": [64, 128], \"swizzle\": 128, "
                    "\"l2_promotion\": 128, \"oob_fill\": \"zero\"}";

std::string cubin(const std::string& body) {
  return faketest::cudaElf(8, 0x6000004u | (90u << 8), body);
}

tcc::Library tmaLibrary(const std::string& maps, const std::string& body,
                        const std::string& extra = "") {
  tcc::Library lib;
  lib.add(tcc::parseMetadata(tmaJson("sm_90a", maps, 1, extra), "tma.json", ""), cubin(body), "");
  return lib;
}

const CUdeviceptr kX = 0x7f0000001000ull, kOut = 0x7f0000100000ull;

class TensorMaps : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    ASSERT_TRUE(tcc::driverAvailable(&why)) << why;
    ASSERT_NE(fake().setEncodeResult, nullptr) << "TCC_LIBCUDA is not the fake driver";
    takeLog();
  }
  void TearDown() override { fake().setEncodeResult(tcc::cu::CUDA_SUCCESS); }
};

TEST_F(TensorMaps, EncodedWithTheLaunchsValuesAndPassedAfterTheParameters) {
  tcc::Library lib = tmaLibrary(kMapX, "FAKE_TMAP=5,1");
  lib.launch("tma_copy", nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(520));
  std::string log = takeLog();
  const std::string n = mapNumber(log);
  // f16: CU_TENSOR_MAP_DATA_TYPE_FLOAT16 (6); rank 2; dims innermost first (K, M); one byte
  // stride (520 * 2); box (64, 128); element strides 1; no interleave; 128-byte swizzle (3);
  // 128-byte L2 promotion (2); zero fill (0). The map is kernelParams[5], after x, out, M,
  // K and stride_xm: the bytes the encoder wrote.
  EXPECT_EQ(log, "load cubin sm_90\n"
                 "encode dtype 6 rank 2 address 0x7f0000001000 dims 512,1000 strides 1040 box "
                 "64,128 element_strides 1,1 interleave 0 swizzle 3 l2 2 oob 0 -> map " + n + "\n"
                 "launch tma_copy from cubin sm_90 grid 8x1x1 block 128\n"
                 "  params[5]: fake tensor map " + n + " of 0x7f0000001000\n");
}

TEST_F(TensorMaps, EveryFieldReachesTheDriverForEveryMap) {
  // Two maps, in order: x with a 64-byte swizzle, 256-byte L2 promotion and NaN fill; out
  // (f32) of rank 3 with neither swizzle nor promotion, a constexpr and a literal in dims.
  std::string mapX = "{\"param\": \"x\", \"dtype\": \"f16\", \"dims\": [\"K\", \"M\"], "
                     "\"strides_bytes\": [\"stride_xm * 2\"], \"box\": [32, 16], \"swizzle\": 64, "
                     "\"l2_promotion\": 256, \"oob_fill\": \"nan\"}";
  std::string mapOut = "{\"param\": \"out\", \"dtype\": \"f32\", \"dims\": [\"BM\", \"M\", \"3\"], "
                       "\"strides_bytes\": [\"BM * 4\", \"BM * M * 4\"], \"box\": [4, 8, 1], "
                       "\"swizzle\": 0, \"l2_promotion\": 0, \"oob_fill\": \"zero\"}";
  tcc::Library lib = tmaLibrary(mapX + ", " + mapOut, "FAKE_TMAP=5,2");
  lib.launch("tma_copy", nullptr, kX, kOut, int32_t(256), int32_t(64), int32_t(64));
  std::string log = takeLog();
  const std::string a = mapNumber(log, 0), b = mapNumber(log, 1);
  EXPECT_EQ(log, "load cubin sm_90\n"
                 "encode dtype 6 rank 2 address 0x7f0000001000 dims 64,256 strides 128 box 32,16 "
                 "element_strides 1,1 interleave 0 swizzle 2 l2 3 oob 1 -> map " + a + "\n"
                 "encode dtype 7 rank 3 address 0x7f0000100000 dims 128,256,3 strides 512,131072 "
                 "box 4,8,1 element_strides 1,1,1 interleave 0 swizzle 0 l2 0 oob 0 -> map " + b + "\n"
                 "launch tma_copy from cubin sm_90 grid 2x1x1 block 128\n"
                 "  params[5]: fake tensor map " + a + " of 0x7f0000001000\n"
                 "  params[6]: fake tensor map " + b + " of 0x7f0000100000\n");
}

TEST_F(TensorMaps, EncodedMapsAreCachedByPointerExtentsAndStrides) {
  tcc::Library lib = tmaLibrary(kMapX, "FAKE_TMAP=5,1");
  tcc::Kernel& k = lib.kernel("tma_copy");
  k.launch(nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(512));
  std::string first = takeLog();
  ASSERT_EQ(count(first, "encode "), 1u) << first;
  const std::string n = mapNumber(first);
  // The same arguments (out, not in the map, may differ): the map of the first launch.
  k.launch(nullptr, kX, kOut + 256, int32_t(1000), int32_t(512), int32_t(512));
  EXPECT_EQ(takeLog(), "launch tma_copy from cubin sm_90 grid 8x1x1 block 128\n"
                       "  params[5]: fake tensor map " + n + " of 0x7f0000001000\n");
  // Another pointer, another extent, another stride: each encoded once, then cached too.
  k.launch(nullptr, kX + 4096, kOut, int32_t(1000), int32_t(512), int32_t(512));
  std::string log = takeLog();
  EXPECT_EQ(count(log, "encode "), 1u) << log;
  EXPECT_NE(log.find("address 0x7f0000002000 dims 512,1000 strides 1024"), std::string::npos) << log;
  k.launch(nullptr, kX, kOut, int32_t(1000), int32_t(256), int32_t(512));
  log = takeLog();
  EXPECT_NE(log.find("encode dtype 6 rank 2 address 0x7f0000001000 dims 256,1000"), std::string::npos)
      << log;
  k.launch(nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(1024));
  EXPECT_EQ(count(takeLog(), "encode "), 1u);
  k.launch(nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(512));
  k.launch(nullptr, kX + 4096, kOut, int32_t(1000), int32_t(512), int32_t(512));
  log = takeLog();
  EXPECT_EQ(count(log, "encode "), 0u) << log;
  EXPECT_NE(log.find("params[5]: fake tensor map " + n + " of 0x7f0000001000\n"), std::string::npos)
      << log;
  // A bounded cache: 40 pointers later the first is encoded again.
  for (int i = 1; i <= 40; ++i)
    k.launch(nullptr, kX + 16 * static_cast<CUdeviceptr>(i), kOut, int32_t(1000), int32_t(512),
             int32_t(512));
  EXPECT_EQ(count(takeLog(), "encode "), 40u);
  k.launch(nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(512));
  EXPECT_EQ(count(takeLog(), "encode "), 1u);
}

TEST_F(TensorMaps, ABoundsCheckedKernelTakesTheMapsAfterItsRecord) {
  // x, out, M, K, stride_xm; the extents of x and out; the record; then the map.
  tcc::Library lib = tmaLibrary(kMapX, "FAKE_TMAP=8,1",
                                ", \"check_bounds\": {\"extents\": [\"x\", \"out\"], "
                                "\"record_bytes\": 40, \"unchecked\": 0}");
  lib.launch("tma_copy", nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(512));
  std::string log = takeLog();
  const std::string n = mapNumber(log);
  EXPECT_NE(log.find("launch tma_copy from cubin sm_90 grid 8x1x1 block 128\n"
                     "  params[8]: fake tensor map " + n + " of 0x7f0000001000\n"),
            std::string::npos)
      << log;
}

TEST_F(TensorMaps, AVariantWhoseMapsCannotTakeTheArgumentsIsSkipped) {
  // An sm_90a variant with a tensor map of x (assuming x and stride_xm divisible by 16) and
  // the general sm_90 one without: the first runs where TMA takes the arguments.
  tcc::Library lib;
  lib.add(tcc::parseMetadata(tmaJson("sm_90a", kMapX, 16), "tma.json", ""),
          cubin("FAKE_TMAP=5,1"), "");
  lib.add(tcc::parseMetadata(tmaJson("sm_90", ""), "general.json", ""), cubin("general"), "");
  tcc::Kernel& k = lib.kernel("tma_copy");
  EXPECT_EQ(k.plan(kX, kOut, int32_t(1000), int32_t(512), int32_t(512)).variant->arch, "sm_90a");
  k.launch(nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(512));
  std::string log = takeLog();
  EXPECT_EQ(count(log, "encode "), 1u) << log;
  EXPECT_NE(log.find("params[5]"), std::string::npos) << log;
  // K = 0: no extent of 0 in a tensor map, so the general variant (its grid is M's).
  EXPECT_EQ(k.plan(kX, kOut, int32_t(1000), int32_t(0), int32_t(512)).variant->arch, "sm_90");
  k.launch(nullptr, kX, kOut, int32_t(1000), int32_t(0), int32_t(512));
  log = takeLog();
  EXPECT_EQ(count(log, "encode "), 0u) << log;
  EXPECT_EQ(count(log, "params[5]"), 0u) << log;
  EXPECT_NE(log.find("launch tma_copy from cubin sm_90 grid 8x1x1"), std::string::npos) << log;
}

TEST_F(TensorMaps, AFailedEncodingNamesTheParameterAndTheValuesAndIsNotCached) {
  tcc::Library lib = tmaLibrary(kMapX, "FAKE_TMAP=5,1");
  fake().setEncodeResult(tcc::cu::CUDA_ERROR_INVALID_VALUE);
  tcc::Error error("", "");
  try {
    lib.launch("tma_copy", nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(512));
  } catch (const tcc::Error& e) {
    error = e;
  }
  EXPECT_EQ(std::string(error.what()),
            "tcc: kernel 'tma_copy': encoding the TMA tensor map of 'x': cuTensorMapEncodeTiled "
            "failed: CUDA_ERROR_INVALID_VALUE (a fake driver error) for tensor map 0 of 'x' (f16, "
            "box [64, 128]) with address 0x7f0000001000, dims [512, 1000], strides_bytes [1024], "
            "swizzle 128, l2_promotion 128, oob_fill zero");
  EXPECT_EQ(error.code(), tcc::cu::CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(error.cudaErrorName(), "CUDA_ERROR_INVALID_VALUE");
  std::string log = takeLog();
  EXPECT_NE(log.find(" -> error\n"), std::string::npos) << log;
  EXPECT_EQ(log.find("launch "), std::string::npos) << log;
  fake().setEncodeResult(tcc::cu::CUDA_SUCCESS);
  lib.launch("tma_copy", nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(512));
  log = takeLog();
  EXPECT_EQ(count(log, "encode "), 1u) << log;
  EXPECT_NE(log.find("params[5]: fake tensor map " + mapNumber(log)), std::string::npos) << log;
}

TEST_F(TensorMaps, WhatTmaCannotTakeIsAnErrorBeforeTheDriver) {
  // One variant, with a map: nothing to fall back on.
  tcc::Library lib = tmaLibrary(kMapX, "FAKE_TMAP=5,1");
  std::string e = errorOf([&] {
    lib.launch("tma_copy", nullptr, kX + 8, kOut, int32_t(1000), int32_t(512), int32_t(512));
  });
  EXPECT_EQ(e, "tcc: kernel 'tma_copy': checking the arguments against the TMA tensor maps: "
               "tensor map 0 of 'x' (f16, box [64, 128]): the address 0x7f0000001008 passed for "
               "'x' is not 16-byte aligned (TMA needs a 16-byte aligned base); address "
               "0x7f0000001008, dims [512, 1000], strides_bytes [1024]");
  e = errorOf([&] {
    lib.launch("tma_copy", nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(100));
  });
  EXPECT_EQ(e, "tcc: kernel 'tma_copy': checking the arguments against the TMA tensor maps: "
               "tensor map 0 of 'x' (f16, box [64, 128]): strides_bytes[0] ('stride_xm * 2') is "
               "200, not a multiple of 16 (TMA's strides are positive multiples of 16 bytes "
               "below 2^40); address 0x7f0000001000, dims [512, 1000], strides_bytes [200]");
  EXPECT_EQ(takeLog(), ""); // neither loaded nor encoded
  // An empty grid launches nothing, whatever the maps.
  EXPECT_EQ(errorOf([&] {
              lib.launch("tma_copy", nullptr, kX + 8, kOut, int32_t(0), int32_t(0), int32_t(1));
            }),
            "(no error)");
  EXPECT_EQ(takeLog(), "");
}

// ---- tcc::EmbeddedKernel (what generated headers launch) ----------------------------------

const char* kSpec =
    "{\"params\": [{\"name\": \"x\", \"type\": \"*f16\"}, {\"name\": \"out\", \"type\": \"*f32\"}, "
    "{\"name\": \"M\", \"type\": \"i32\"}, {\"name\": \"K\", \"type\": \"i16\"}, "
    "{\"name\": \"stride_xm\", \"type\": \"i64\"}, {\"name\": \"flag\", \"type\": \"i1\"}], "
    "\"constexprs\": {\"BM\": 128}, \"tensormaps\": [{\"param\": \"x\", \"dtype\": \"f16\", "
    "\"dims\": [\"K\", \"M + flag\"], \"strides_bytes\": [\"stride_xm * 2\"], \"box\": [64, BOX], "
    "\"swizzle\": 128, \"l2_promotion\": 128, \"oob_fill\": \"zero\"}]}";

std::string spec(int box) {
  std::string s = kSpec;
  return s.replace(s.find("BOX"), 3, std::to_string(box));
}

// The arguments of kSpec's kernel, each as the generated launcher declares it:
// CUdeviceptr, int32_t, int16_t, int64_t, bool.
struct SpecArgs {
  SpecArgs() = default;
  SpecArgs(const SpecArgs&) = delete; // `args` points into this object
  CUdeviceptr x = kX, out = kOut;
  int32_t m = 1000;
  int16_t kk = 512;
  int64_t stride = 512;
  bool flag = false;
  void* args[6] = {&x, &out, &m, &kk, &stride, &flag};
};

// An embedded kernel with kSpec's tensor map (box 64 x 128), from `image`.
std::unique_ptr<tcc::EmbeddedKernel> embeddedTmaKernel(const std::string& image) {
  auto k = std::make_unique<tcc::EmbeddedKernel>("tma_copy", "tma_copy", image.data(),
                                                 image.size(), "sm_90a", 4, 0);
  const std::string s = spec(128);
  k->setTensorMaps(s.c_str());
  return k;
}

TEST_F(TensorMaps, AnEmbeddedKernelEncodesFromItsArgumentsAndCaches) {
  std::string image = cubin("FAKE_TMAP=6,1");
  std::unique_ptr<tcc::EmbeddedKernel> kernel = embeddedTmaKernel(image);
  tcc::EmbeddedKernel& k = *kernel;
  SpecArgs a;
  a.stride = 520;
  a.flag = true;
  CUdeviceptr& x = a.x;
  int16_t& kk = a.kk;
  void** args = a.args;
  EXPECT_TRUE(k.tensorMapsAccept(args));
  k.launch(nullptr, 8, 1, 1, args);
  k.launch(nullptr, 8, 1, 1, args); // cached
  std::string log = takeLog();
  const std::string n = mapNumber(log);
  EXPECT_EQ(log, "load cubin sm_90\n"
                 "encode dtype 6 rank 2 address 0x7f0000001000 dims 512,1001 strides 1040 box "
                 "64,128 element_strides 1,1 interleave 0 swizzle 3 l2 2 oob 0 -> map " + n + "\n"
                 "launch tma_copy from cubin sm_90 grid 8x1x1 block 128\n"
                 "  params[6]: fake tensor map " + n + " of 0x7f0000001000\n"
                 "launch tma_copy from cubin sm_90 grid 8x1x1 block 128\n"
                 "  params[6]: fake tensor map " + n + " of 0x7f0000001000\n");
  // What TMA cannot take: false here, and the launch's error.
  x = kX + 2;
  EXPECT_FALSE(k.tensorMapsAccept(args));
  EXPECT_EQ(errorOf([&] { k.launch(nullptr, 8, 1, 1, args); }),
            "tcc: kernel 'tma_copy': checking the arguments against the TMA tensor maps: "
            "tensor map 0 of 'x' (f16, box [64, 128]): the address 0x7f0000001002 passed for "
            "'x' is not 16-byte aligned (TMA needs a 16-byte aligned base); address "
            "0x7f0000001002, dims [512, 1001], strides_bytes [1040]");
  x = kX;
  kk = -1;
  EXPECT_FALSE(k.tensorMapsAccept(args));
  EXPECT_EQ(takeLog(), "");
  // Without tensor maps every argument is accepted; a malformed spec is refused.
  tcc::EmbeddedKernel plain("tma_copy", "tma_copy", image.data(), image.size(), "sm_90a", 4, 0);
  EXPECT_TRUE(plain.tensorMapsAccept(args));
  EXPECT_NE(errorOf([&] { plain.setTensorMaps(spec(300).c_str()); })
                .find("reading kernel metadata the tensor maps embedded for tma_copy: "
                      "\"tensormaps\"[0].\"box\"[1] 300 is outside 1..256"),
            std::string::npos);
}

// On a driver older than CUDA 12 (the fake without cuTensorMapEncodeTiled, run by the ctest
// runtime-tensor-maps-old-driver): kernels without tensor maps run, those with say why not.
TEST(TensorMapOldDriver, SaysTheDriverIsTooOld) {
  if (!std::getenv("TCC_EXPECT_NO_TENSOR_MAP"))
    GTEST_SKIP() << "run by ctest runtime-tensor-maps-old-driver (TCC_LIBCUDA without "
                    "cuTensorMapEncodeTiled)";
  std::string why;
  ASSERT_TRUE(tcc::driverAvailable(&why)) << why;
  EXPECT_EQ(tcc::driver().cuTensorMapEncodeTiled, nullptr);
  EXPECT_EQ(tcc::driverVersion(), 11080);
  tcc::Library plain;
  plain.add(tcc::parseMetadata(tmaJson("sm_90", ""), "general.json", ""), cubin("general"), "");
  EXPECT_EQ(errorOf([&] {
              plain.launch("tma_copy", nullptr, kX, kOut, int32_t(1000), int32_t(512),
                           int32_t(512));
            }),
            "(no error)");
  const std::string expected =
      "tcc: kernel 'tma_copy': encoding the TMA tensor map of 'x': the CUDA driver lacks "
      "cuTensorMapEncodeTiled: kernels with TMA tensor maps need the driver of CUDA 12.0 or "
      "newer (this one is CUDA 11.8)";
  tcc::Library lib = tmaLibrary(kMapX, "FAKE_TMAP=5,1");
  EXPECT_EQ(errorOf([&] {
              lib.launch("tma_copy", nullptr, kX, kOut, int32_t(1000), int32_t(512), int32_t(512));
            }),
            expected);
  std::string image = cubin("FAKE_TMAP=6,1");
  std::unique_ptr<tcc::EmbeddedKernel> k = embeddedTmaKernel(image);
  SpecArgs a;
  EXPECT_EQ(errorOf([&] { k->launch(nullptr, 8, 1, 1, a.args); }), expected);
}

} // namespace
