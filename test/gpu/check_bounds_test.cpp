// Kernels built with `tcc --check-bounds` on the GPU (scripts/build-artifacts.sh puts them in
// DIR/check_bounds/): in-bounds launches run and give exact results through every variant;
// an access past the end of its buffer is masked off (no fault) and reported after the
// launch as a tcc::Error naming the kernel, the source line, the program and the offset.

#include "gpu_util.h"
#include "matrix.h"

#include "tcc/bench.h"

#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

namespace {

std::string dirOf(const std::string& folder) {
  return gputest::artifactsDir() + "/check_bounds/" + folder;
}

// DIR/check_bounds/<folder>/<kernel>.json: matmul_f32/ holds the kernel matmul.
#define REQUIRE_ARTIFACT_IN(folder, kernel)                                                  \
  do {                                                                                       \
    TCC_REQUIRE_GPU();                                                                       \
    TCC_REQUIRE_ARTIFACT_FILE(dirOf(folder) + "/" kernel ".json");                           \
  } while (0)
#define REQUIRE_ARTIFACT(kernel) REQUIRE_ARTIFACT_IN(kernel, kernel)

// "FILE.tile:LINE:COLUMN" of the load of A in lang-examples/FILE.tile, the source the
// artifact was built from, so that the expected message follows the example when its lines
// move.
std::string loadOfA(const std::string& file) {
  std::ifstream in(std::string(TCC_SOURCE_DIR) + "/lang-examples/" + file + ".tile");
  std::string line;
  for (int number = 1; std::getline(in, line); ++number)
    if (size_t at = line.find("load(a + "); at != std::string::npos)
      return file + ".tile:" + std::to_string(number) + ":" + std::to_string(at + 1);
  ADD_FAILURE() << "no `load(a + ` in lang-examples/" << file << ".tile";
  return file + ".tile:?";
}

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
  EXPECT_NE(e.find(" at vector_add.tile:2"), std::string::npos) << e;
  EXPECT_NE(e.find(" (16384 bytes valid; element "), std::string::npos) << e;
}

// The course's matmul built with --check-bounds (every variant: sm_90 mma.sync and, on an
// H200, the sm_90a wgmma ones): small-integer f16 operands give exact products, so the
// checked build must match the CPU exactly; A one row short of M is reported at the load of
// a, by the program of the last block row.
struct Matmul {
  int32_t m, n, k;
  std::vector<uint16_t> a, b;
  std::vector<float> expected;
  Matmul(int32_t m_, int32_t n_, int32_t k_) : m(m_), n(n_), k(k_) {
    a.resize(size_t(m) * size_t(k));
    b.resize(size_t(k) * size_t(n));
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = gputest::floatToHalf(float(int(i * 7 % 5) - 2)); // -2..2
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = gputest::floatToHalf(float(int(i * 3 % 4) - 1)); // -1..2
    expected.assign(size_t(m) * size_t(n), 0.0f);
    for (int32_t i = 0; i < m; ++i)
      for (int32_t j = 0; j < n; ++j) {
        float acc = 0;
        for (int32_t p = 0; p < k; ++p)
          acc += gputest::halfToFloat(a[size_t(i) * k + p]) * gputest::halfToFloat(b[size_t(p) * n + j]);
        expected[size_t(i) * n + j] = acc;
      }
  }
};

TEST(CheckBounds, MatmulIsExactThroughEveryVariant) {
  REQUIRE_ARTIFACT("matmul");
  tcc::Library lib(dirOf("matmul"));
  for (const std::tuple<int32_t, int32_t, int32_t>& shape :
       {std::tuple{130, 70, 45}, std::tuple{128, 128, 64}, std::tuple{1, 1, 1}}) {
    const int32_t m = std::get<0>(shape), n = std::get<1>(shape), k = std::get<2>(shape);
    Matmul mm(m, n, k);
    tcc::bench::DeviceBuffer ba(2 * mm.a.size()), bb(2 * mm.b.size()), bc(2 * size_t(m) * n);
    gputest::upload(ba.get(), mm.a.data(), 2 * mm.a.size());
    gputest::upload(bb.get(), mm.b.data(), 2 * mm.b.size());
    ASSERT_EQ(errorOf([&] {
                lib.kernel("matmul").launch(nullptr, ba.get(), bb.get(), bc.get(), m, n, k, k,
                                            int32_t(1), n, int32_t(1), n, int32_t(1));
              }),
              "(no error)")
        << m << "x" << n << "x" << k;
    std::vector<uint16_t> c(size_t(m) * n);
    gputest::download(c.data(), bc.get(), 2 * c.size());
    for (size_t i = 0; i < c.size(); ++i)
      ASSERT_EQ(gputest::halfToFloat(c[i]), mm.expected[i])
          << m << "x" << n << "x" << k << ", element " << i;
  }
}

TEST(CheckBounds, MatmulReadingPastAIsReported) {
  REQUIRE_ARTIFACT("matmul");
  tcc::Library lib(dirOf("matmul"));
  const int32_t m = 130, n = 64, k = 45; // one column of blocks: program id = block row
  Matmul mm(m, n, k);
  size_t aBytes = 2 * size_t(m - 1) * k; // A lacks its last row
  tcc::bench::DeviceBuffer ba(aBytes), bb(2 * mm.b.size()), bc(2 * size_t(m) * n);
  gputest::upload(ba.get(), mm.a.data(), aBytes);
  gputest::upload(bb.get(), mm.b.data(), 2 * mm.b.size());
  CUdeviceptr base = 0;
  size_t size = 0;
  ASSERT_EQ(tcc::driver().cuMemGetAddressRange(&base, &size, ba.get()), tcc::cu::CUDA_SUCCESS);
  std::string e = errorOf([&] {
    lib.kernel("matmul").launch(nullptr, ba.get(), bb.get(), bc.get(), m, n, k, k, int32_t(1), n,
                                int32_t(1), n, int32_t(1));
  });
  // Which element of row 129 comes first is up to the GPU: its offset is in
  // [2 * 129 * 45, 2 * 130 * 45) = [11610, 11700), element 5805..5849.
  EXPECT_EQ(e.find("tcc: kernel 'matmul': running (--check-bounds): out-of-bounds load at " +
                   loadOfA("matmul") + " by program (2, 0, 0): byte offset 116"),
            0u)
      << e;
  EXPECT_NE(e.find(" of 'a' (" + std::to_string(size) + " bytes valid; element 58"),
            std::string::npos)
      << e;
  // Everything but the last row of C is right (the missing row read as 0: masked off).
  std::vector<uint16_t> c(size_t(m) * n);
  gputest::download(c.data(), bc.get(), 2 * c.size());
  for (size_t i = 0; i < size_t(m - 1) * n; ++i)
    ASSERT_EQ(gputest::halfToFloat(c[i]), mm.expected[i]) << "element " << i;
  for (int32_t j = 0; j < n; ++j)
    EXPECT_EQ(gputest::halfToFloat(c[size_t(m - 1) * n + j]), 0.0f) << "column " << j;
}

// matmul with f32 operands (tf32 mma.sync; matmul.tile built with -D DTYPE=f32 into
// DIR/check_bounds/matmul_f32/, test/gpu/artifacts.cmake): its operand loads become cp.async
// copies in every variant of the checked build, so this checks that the copies keep the
// checked masks. Small integers are exact in tf32.
TEST(CheckBounds, AsynchronousCopiesAreCheckedToo) {
  REQUIRE_ARTIFACT_IN("matmul_f32", "matmul");
  tcc::Library lib(dirOf("matmul_f32"));
  auto run = [&](int32_t m, int32_t n, int32_t k, int32_t aRows, std::vector<float>* c,
                 std::vector<float>* expected, CUdeviceptr* aBase, size_t* aSize) {
    std::vector<float> a(size_t(m) * k), b(size_t(k) * n);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = float(int(i * 7 % 5) - 2);
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = float(int(i * 3 % 4) - 1);
    expected->assign(size_t(m) * n, 0.0f);
    for (int32_t i = 0; i < aRows; ++i)
      for (int32_t j = 0; j < n; ++j) {
        float acc = 0;
        for (int32_t p = 0; p < k; ++p)
          acc += a[size_t(i) * k + p] * b[size_t(p) * n + j];
        (*expected)[size_t(i) * n + j] = acc;
      }
    tcc::bench::DeviceBuffer ba(4 * size_t(aRows) * k), bb(4 * b.size()), bc(4 * size_t(m) * n);
    gputest::upload(ba.get(), a.data(), 4 * size_t(aRows) * k);
    gputest::upload(bb.get(), b.data(), 4 * b.size());
    *aBase = 0;
    *aSize = 0;
    tcc::driver().cuMemGetAddressRange(aBase, aSize, ba.get());
    std::string e = errorOf([&] {
      lib.kernel("matmul").launch(nullptr, ba.get(), bb.get(), bc.get(), m, n, k, k, int32_t(1),
                                  n, int32_t(1), n, int32_t(1));
    });
    c->resize(size_t(m) * n);
    gputest::download(c->data(), bc.get(), 4 * c->size());
    return e;
  };
  std::vector<float> c, expected;
  CUdeviceptr base = 0;
  size_t size = 0;
  for (const std::tuple<int32_t, int32_t, int32_t>& shape :
       {std::tuple{130, 70, 45}, std::tuple{128, 128, 64}}) {
    const int32_t m = std::get<0>(shape), n = std::get<1>(shape), k = std::get<2>(shape);
    ASSERT_EQ(run(m, n, k, m, &c, &expected, &base, &size), "(no error)") << m << "x" << n;
    for (size_t i = 0; i < c.size(); ++i)
      ASSERT_EQ(c[i], expected[i]) << m << "x" << n << "x" << k << ", element " << i;
  }
  // 128 x 64 x 64 (the aligned, unit-stride variant) with A one row short: row 127 is read
  // by program 1 at byte offsets [4 * 127 * 64, 4 * 128 * 64) = [32512, 32768).
  std::string e = run(128, 64, 64, 127, &c, &expected, &base, &size);
  EXPECT_EQ(e.find("tcc: kernel 'matmul': running (--check-bounds): out-of-bounds load at " +
                   loadOfA("matmul") + " by program (1, 0, 0): byte offset 32"),
            0u)
      << e;
  EXPECT_NE(e.find(" of 'a' (" + std::to_string(size) + " bytes valid; element 81"),
            std::string::npos)
      << e;
  for (size_t i = 0; i < c.size(); ++i)
    ASSERT_EQ(c[i], expected[i]) << "element " << i; // row 127: zeros (masked off)
}

} // namespace
