// fp8 (f8e4nv = e4m3fn, f8e5 = e5m2) on the GPU: test/gpu/kernels/fp8_convert.tile built
// for sm_90 (PTX's cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 and cvt.rn.f16x2.{e4m3x2,e5m2x2})
// and for sm_80 (tcc's integer arithmetic, run from its PTX), each bit for bit against
// dialects/Tile/Float8.h: all 256 patterns of both formats widened, f32/f16/bf16 narrowed
// (ties, subnormals, saturation, NaN), and a masked load with `other`. The interpreter
// runs the same kernel in test/examples/tutorials_test.cpp (Tutorials.Fp8Conversions).

#include "gpu_util.h"

#include "fp8_reference.h"

#include "tcc/bench.h"

namespace {

class Fp8 : public ::testing::TestWithParam<const char *> {};

TEST_P(Fp8, ConversionsAreBitExact) {
  TCC_REQUIRE_GPU();
  std::string dir = gputest::artifactsDir() + "/tcc/fp8_convert/" + GetParam();
  TCC_REQUIRE_ARTIFACT_FILE(dir + "/fp8_convert.json");
  const size_t n = 1 << 16;
  std::vector<float> x = fp8ref::inputs(n);
  std::vector<uint8_t> pattern(256);
  for (int i = 0; i < 256; ++i)
    pattern[size_t(i)] = uint8_t(i);
  using Buf = tcc::bench::DeviceBuffer;
  Buf bits4(256), bits5(256), wide4(4 * 256), wide5(4 * 256), half4(2 * 256), bhalf5(2 * 256),
      bx(4 * n), q4(n), q5(n), h(2 * n), qh4(n), b(2 * n), qb5(n), other4(256);
  gputest::upload(bits4.get(), pattern.data(), 256);
  gputest::upload(bits5.get(), pattern.data(), 256);
  gputest::upload(bx.get(), x.data(), 4 * n);
  tcc::Library lib(dir);
  lib.kernel("fp8_convert")
      .launch(nullptr, bits4.get(), bits5.get(), wide4.get(), wide5.get(), half4.get(),
              bhalf5.get(), bx.get(), q4.get(), q5.get(), h.get(), qh4.get(), b.get(), qb5.get(),
              other4.get(), int32_t(n));
  gputest::synchronize();
  std::vector<float> w4(256), w5(256);
  std::vector<uint16_t> hh4(256), bb5(256), hv(n), bv(n);
  std::vector<uint8_t> r4(n), r5(n), rh4(n), rb5(n), o4(256);
  gputest::download(w4.data(), wide4.get(), 4 * 256);
  gputest::download(w5.data(), wide5.get(), 4 * 256);
  gputest::download(hh4.data(), half4.get(), 2 * 256);
  gputest::download(bb5.data(), bhalf5.get(), 2 * 256);
  gputest::download(o4.data(), other4.get(), 256);
  gputest::download(r4.data(), q4.get(), n);
  gputest::download(r5.data(), q5.get(), n);
  gputest::download(hv.data(), h.get(), 2 * n);
  gputest::download(rh4.data(), qh4.get(), n);
  gputest::download(bv.data(), b.get(), 2 * n);
  gputest::download(rb5.data(), qb5.get(), n);
  fp8ref::Outputs o{pattern.data(), pattern.data(), w4.data(), w5.data(), hh4.data(),
                    bb5.data(),     x.data(),       r4.data(), r5.data(), hv.data(),
                    rh4.data(),     bv.data(),      rb5.data(), o4.data(), n};
  EXPECT_EQ(fp8ref::check(o), "");
}

INSTANTIATE_TEST_SUITE_P(Targets, Fp8, ::testing::Values("sm90_BLOCK256_W4", "sm80_BLOCK256_W4"),
                         [](const auto &info) {
                           return std::string(info.param).substr(0, 4);
                         });

} // namespace
