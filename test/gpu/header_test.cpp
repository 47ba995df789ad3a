// The headers the HeaderWriter generated (scripts/build-artifacts.sh puts them in
// <artifacts>/fixture/headers): typed launch functions with the cubin embedded.
#include "gpu_util.h"

#if __has_include(<vector_add.h>) && __has_include(<vector_copy.h>)
#include <vector_add.h>
#include <vector_copy.h>
#define TCC_HAVE_HEADERS 1
#else
#define TCC_HAVE_HEADERS 0
#endif

namespace {

TEST(GeneratedHeader, VectorAddAndCopy) {
  TCC_REQUIRE_GPU();
#if !TCC_HAVE_HEADERS
  GTEST_FAIL() << "built without the generated headers: run scripts/build-artifacts.sh before "
                  "configuring, with -DTCC_ARTIFACTS=<dir>";
#else
  const int64_t cap = (1 << 20) + 8192;
  tcc::bench::DeviceBuffer x(cap * 4), y(cap * 4), out(cap * 4);
  std::vector<float> hx(cap), hy(cap);
  gputest::fillRandom(hx.data(), cap, 3);
  gputest::fillRandom(hy.data(), cap, 4);
  gputest::upload(x.get(), hx.data(), cap * 4);
  gputest::upload(y.get(), hy.data(), cap * 4);
  for (int64_t off : {0, 1}) {          // 16-byte aligned (specialised variant) and not
    for (int32_t n : {0, 1, 1023, 1024, 1025, 1000003, 1 << 20}) {
      for (bool add : {true, false}) {
        SCOPED_TRACE(std::string(add ? "add" : "copy") + " n=" + std::to_string(n) +
                     " offset=" + std::to_string(off));
        gputest::fill32(out.get(), 0x7fbadbadu, cap);
        CUdeviceptr px = x.get() + off * 4, py = y.get() + off * 4, po = out.get() + off * 4;
        if (add)
          fixture::vector_add(nullptr, px, py, po, n);
        else
          fixture::vector_copy(nullptr, px, po, n);
        gputest::synchronize();
        std::vector<uint32_t> r(off + n + 4096);
        gputest::download(r.data(), out.get(), r.size() * 4);
        int64_t bad = 0;
        for (int64_t i = 0; i < off; ++i)
          bad += r[i] != 0x7fbadbadu;
        for (int64_t i = 0; i < n; ++i) {
          float ref = add ? hx[off + i] + hy[off + i] : hx[off + i];
          bad += r[off + i] != gputest::bitsOf(ref);
        }
        for (size_t i = off + n; i < r.size(); ++i)
          bad += r[i] != 0x7fbadbadu;
        EXPECT_EQ(bad, 0);
      }
    }
  }
#endif
}

} // namespace
