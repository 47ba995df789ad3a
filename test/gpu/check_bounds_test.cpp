// Kernels built with `tcc --check-bounds` on the GPU (scripts/build-artifacts.sh puts them in
// DIR/check_bounds/): in-bounds launches run and give exact results through every variant;
// an access past the end of its buffer is masked off (no fault) and reported after the
// launch as a tcc::Error naming the kernel, the source line, the program and the offset.

#include "gpu_util.h"

#include "tcc/bench.h"

#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

std::string dirOf(const std::string& kernel) {
  return gputest::artifactsDir() + "/check_bounds/" + kernel;
}

#define REQUIRE_ARTIFACT(kernel)                                                             \
  do {                                                                                       \
    TCC_REQUIRE_GPU();                                                                       \
    if (!gputest::exists(dirOf(kernel) + "/" kernel ".json"))                                \
      GTEST_SKIP() << "no --check-bounds artifact under " << dirOf(kernel);                  \
  } while (0)

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const tcc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(i % 100003) + 0.5f;
  return v;
}

class CheckBoundsCopy : public ::testing::TestWithParam<int32_t> {};

// shift = 0: every access in bounds; the result is the input.
TEST_P(CheckBoundsCopy, InBoundsIsExact) {
  REQUIRE_ARTIFACT("oob_copy");
  const int32_t n = GetParam();
  std::vector<float> x = iota(size_t(n));
  tcc::bench::DeviceBuffer bx(4 * size_t(n)), bout(4 * size_t(n));
  gputest::upload(bx.get(), x.data(), 4 * size_t(n));
  gputest::fill32(bout.get(), 0x7fc00001u, size_t(n));
  tcc::Library lib(dirOf("oob_copy"));
  EXPECT_EQ(errorOf([&] {
              lib.kernel("oob_copy").launch(nullptr, bx.get(), bout.get(), n, int32_t(0));
            }),
            "(no error)");
  std::vector<float> out(static_cast<size_t>(n));
  gputest::download(out.data(), bout.get(), 4 * size_t(n));
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(gputest::bitsOf(out[i]), gputest::bitsOf(x[i])) << "element " << i;
}

INSTANTIATE_TEST_SUITE_P(Sizes, CheckBoundsCopy,
                         ::testing::Values(1, 255, 256, 257, 1000003, 1 << 20));

// shift = 1 with x of exactly n elements: the last lane of the last program would read x[n].
// It is masked off (it yields `other`, -1) and reported; every other element is copied.
TEST(CheckBounds, ReadPastTheEndIsReported) {
  REQUIRE_ARTIFACT("oob_copy");
  const int32_t n = 1 << 20; // 4 MiB: a multiple of any allocation granularity
  std::vector<float> x = iota(size_t(n));
  tcc::bench::DeviceBuffer bx(4 * size_t(n)), bout(4 * size_t(n));
  gputest::upload(bx.get(), x.data(), 4 * size_t(n));
  gputest::fill32(bout.get(), 0x7fc00001u, size_t(n));
  tcc::Library lib(dirOf("oob_copy"));
  std::string e = errorOf(
      [&] { lib.kernel("oob_copy").launch(nullptr, bx.get(), bout.get(), n, int32_t(1)); });
  EXPECT_EQ(e, "tcc: kernel 'oob_copy': running (--check-bounds): out-of-bounds load at "
               "oob_copy.tile:10:9 by program (4095, 0, 0): byte offset 4194304 of 'x' "
               "(4194304 bytes valid; element 1048576 of *f32)");
  std::vector<float> out(static_cast<size_t>(n));
  gputest::download(out.data(), bout.get(), 4 * size_t(n));
  for (int32_t i = 0; i + 1 < n; ++i)
    ASSERT_EQ(gputest::bitsOf(out[i]), gputest::bitsOf(x[i + 1])) << "element " << i;
  EXPECT_EQ(out[n - 1], -1.0f) << "the out-of-bounds lane was not masked off";
  // The record is reset for the next launch: an in-bounds one passes.
  EXPECT_EQ(errorOf([&] {
              lib.kernel("oob_copy").launch(nullptr, bx.get(), bout.get(), n, int32_t(0));
            }),
            "(no error)");
}

// The extent counts from the pointer passed: `out` 4 bytes into a buffer of n floats has
// n - 1 elements; the last program's last store is reported at its byte offset.
TEST(CheckBounds, StorePastTheEndOfAnOffsetPointerIsReported) {
  REQUIRE_ARTIFACT("oob_copy");
  const int32_t n = 1 << 20;
  std::vector<float> x = iota(size_t(n));
  tcc::bench::DeviceBuffer bx(4 * size_t(n)), bout(4 * size_t(n));
  gputest::upload(bx.get(), x.data(), 4 * size_t(n));
  gputest::fill32(bout.get(), 0x7fc00001u, size_t(n));
  tcc::Library lib(dirOf("oob_copy"));
  std::string e = errorOf([&] {
    lib.kernel("oob_copy").launch(nullptr, bx.get(), bout.get() + 4, n, int32_t(0));
  });
  EXPECT_EQ(e, "tcc: kernel 'oob_copy': running (--check-bounds): out-of-bounds store at "
               "oob_copy.tile:11:5 by program (4095, 0, 0): byte offset 4194300 of 'out' "
               "(4194300 bytes valid; element 1048575 of *f32)");
  std::vector<float> out(static_cast<size_t>(n));
  gputest::download(out.data(), bout.get(), 4 * size_t(n));
  EXPECT_EQ(gputest::bitsOf(out[0]), 0x7fc00001u);
  for (int32_t i = 0; i + 1 < n; ++i)
    ASSERT_EQ(gputest::bitsOf(out[i + 1]), gputest::bitsOf(x[i])) << "element " << i;
}

// The course's vector add built with --check-bounds (the --variants=auto set, each checked):
// aligned pointers take the aligned variant, a misaligned one the general variant; both exact.
TEST(CheckBounds, VectorAddVariantsAreExact) {
  REQUIRE_ARTIFACT("vector_add");
  tcc::Library lib(dirOf("vector_add"));
  for (int32_t n : {1, 1023, 1024, 1025, 1000003}) {
    for (size_t misalign : {size_t(0), size_t(4)}) {
      std::vector<float> x = iota(size_t(n)), y(static_cast<size_t>(n));
      for (int32_t i = 0; i < n; ++i)
        y[i] = float(i % 7) * 0.25f;
      size_t bytes = 4 * size_t(n);
      tcc::bench::DeviceBuffer bx(bytes), by(bytes), bout(bytes + 16);
      gputest::upload(bx.get(), x.data(), bytes);
      gputest::upload(by.get(), y.data(), bytes);
      CUdeviceptr out = bout.get() + misalign;
      gputest::fill32(out, 0x7fc00001u, size_t(n));
      ASSERT_EQ(errorOf([&] { lib.kernel("vector_add").launch(nullptr, bx.get(), by.get(), out, n); }),
                "(no error)")
          << "n = " << n << ", out misaligned by " << misalign;
      std::vector<float> got(static_cast<size_t>(n));
      gputest::download(got.data(), out, bytes);
      for (int32_t i = 0; i < n; ++i)
        ASSERT_EQ(got[i], x[i] + y[i]) << "n = " << n << ", element " << i;
    }
  }
  // The same kernel told n is twice its buffers: one of the accesses past the end is
  // reported (the record keeps the first violation written; which one is up to the GPU).
  const int32_t n = 4096;
  tcc::bench::DeviceBuffer bx(4 * size_t(n)), by(4 * size_t(n)), bout(4 * size_t(n));
  std::string e = errorOf([&] {
    lib.kernel("vector_add").launch(nullptr, bx.get(), by.get(), bout.get(), int32_t(2 * n));
  });
  EXPECT_EQ(e.find("tcc: kernel 'vector_add': running (--check-bounds): out-of-bounds "), 0u)
      << e;
  EXPECT_NE(e.find(" at vector_add.tile:1"), std::string::npos) << e;
  EXPECT_NE(e.find(" (16384 bytes valid; element "), std::string::npos) << e;
}

} // namespace
