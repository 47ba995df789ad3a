// TMA on the GPU: test/gpu/kernels/tma_copy.mlir, hand-written tile IR in which each
// program copies a 64 x 128 f16 block of `a` into shared memory with tile.tma_load (two
// 64 x 64 boxes into a 128-byte-swizzled tile, completing on an mbarrier), reads it back
// and stores it, masked, into `out`. The runtime encodes the kernel's tensor map
// (cuTensorMapEncodeTiled, from the metadata's "tensormaps") at the launch. Checked bit for
// bit on ragged shapes (boxes past M and K read zeros, which the mask keeps out), with
// row strides above K, the output poisoned first: a wrong box coordinate, swizzle or
// destination offset moves elements, a wrong mbarrier phase or byte count hangs (the
// watchdog ends it). A stride TMA cannot take is refused, naming the parameter.
// tma_copy_sw64.mlir does the same with a 64-byte swizzle (64 x 64 blocks, 64 x 32 boxes),
// the slots of K steps of 32 f16, which tile-pipeline copies by TMA once this passes.

#include "gpu_util.h"

#include "tcc/bench.h"

#include <ostream>
#include <string>
#include <tuple>

namespace {

struct Shape {
  int M, K, stride;
};

void PrintTo(const Shape &s, std::ostream *os) {
  *os << s.M << "x" << s.K << " (row stride " << s.stride << ")";
}

std::string dir(const std::string &folder = "W4") {
  return gputest::artifactsDir() + "/tcc/tma_copy/" + folder;
}

class TmaCopy : public ::testing::TestWithParam<std::tuple<std::string, Shape>> {};

TEST_P(TmaCopy, CopiesBitForBit) {
  TCC_REQUIRE_GPU();
  const std::string folder = dir(std::get<0>(GetParam()));
  TCC_REQUIRE_ARTIFACT_FILE(folder + "/tma_copy.json");
  const Shape s = std::get<1>(GetParam());
  const size_t elems = size_t(s.M) * size_t(s.stride);
  std::vector<uint16_t> a(elems), out(elems);
  // Distinct finite f16 values (exponent below 31), so a moved element shows.
  for (size_t i = 0; i < elems; ++i)
    a[i] = uint16_t(((i * 2654435761u) >> 7) & 0x7bff);
  using Buf = tcc::bench::DeviceBuffer;
  Buf da(2 * elems), dout(2 * elems + 4);
  gputest::upload(da.get(), a.data(), 2 * elems);
  gputest::fill32(dout.get(), 0xffffffffu, (2 * elems + 3) / 4);
  tcc::Library lib(folder);
  lib.kernel("tma_copy").launch(nullptr, da.get(), dout.get(), int32_t(s.M), int32_t(s.K),
                                int32_t(s.stride));
  gputest::synchronize();
  gputest::download(out.data(), dout.get(), 2 * elems);
  size_t wrong = 0, first = elems;
  for (size_t r = 0; r < size_t(s.M); ++r)
    for (size_t c = 0; c < size_t(s.stride); ++c) {
      size_t i = r * size_t(s.stride) + c;
      uint16_t want = c < size_t(s.K) ? a[i] : uint16_t(0xffff);
      if (out[i] != want) {
        if (!wrong)
          first = i;
        ++wrong;
      }
    }
  EXPECT_EQ(wrong, 0u) << "first at row " << first / size_t(s.stride) << ", column "
                       << first % size_t(s.stride) << ": got 0x" << std::hex
                       << (first < elems ? out[first] : 0) << ", want 0x"
                       << (first < elems ? a[first] : 0);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, TmaCopy,
    ::testing::Combine(::testing::Values(std::string("W4"), std::string("SW64_W4")),
                       ::testing::Values(Shape{64, 128, 128}, Shape{100, 200, 208},
                                         Shape{1, 8, 8}, Shape{130, 72, 136},
                                         Shape{512, 1024, 1024}, Shape{33, 1000, 1024})),
    [](const auto &info) {
      const Shape &s = std::get<1>(info.param);
      return std::get<0>(info.param) + "_" + std::to_string(s.M) + "x" + std::to_string(s.K) +
             "_stride" + std::to_string(s.stride);
    });

// A row stride of 130 f16 is 260 bytes, not a multiple of 16: no variant's tensor map can
// be encoded, and the launch says which and why instead of faulting.
TEST(TmaCopyErrors, UnalignedStrideIsRefused) {
  TCC_REQUIRE_GPU();
  TCC_REQUIRE_ARTIFACT_FILE(dir() + "/tma_copy.json");
  tcc::bench::DeviceBuffer da(2 * 64 * 130), dout(2 * 64 * 130);
  tcc::Library lib(dir());
  try {
    lib.kernel("tma_copy").launch(nullptr, da.get(), dout.get(), int32_t(64), int32_t(128),
                                  int32_t(130));
    gputest::synchronize();
    FAIL() << "a stride of 260 bytes was accepted";
  } catch (const tcc::Error &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("'a'"), std::string::npos) << what;
    EXPECT_NE(what.find("multiple of 16"), std::string::npos) << what;
  }
}

} // namespace
