// The consumer program. Without a GPU: checks that the two configurations of fill.tile
// embed different code (and that the default-namespace ones are two functions), says that it
// skips the launches, exits 0. With a GPU: launches every configuration and kernel and checks
// what each wrote. Exit status 1 on any failed check.
#include "kernels.h"
#include "probe.h"

#include <tcc/tcc.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::printf("tcc-integration: %s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  if (!ok)
    ++failures;
}

bool sameBytes(const void* a, size_t na, const void* b, size_t nb) {
  return na == nb && (na == 0 || std::memcmp(a, b, na) == 0);
}

void cpuChecks() {
  Embedded a = value1Image(), b = value2Image();
  expect(a.cubin || a.ptx, "namespace value1 embeds a cubin or PTX (" +
                               std::to_string(a.cubinSize) + " + " + std::to_string(a.ptxSize) +
                               " bytes)");
  expect(b.cubin || b.ptx, "namespace value2 embeds a cubin or PTX (" +
                               std::to_string(b.cubinSize) + " + " + std::to_string(b.ptxSize) +
                               " bytes)");
  expect((a.cubin == nullptr || a.cubin != b.cubin) && (a.ptx == nullptr || a.ptx != b.ptx),
         "value1 and value2 have images of their own (different addresses)");
  expect(!(sameBytes(a.cubin, a.cubinSize, b.cubin, b.cubinSize) &&
           sameBytes(a.ptx, a.ptxSize, b.ptx, b.ptxSize)),
         "the VALUE=1 and VALUE=2 images differ");
  Embedded c = sm80Image(), d = ptxOnlyImage();
  expect(c.cubin && c.ptx, "namespace sm80 embeds an sm_80 cubin and its PTX (" +
                               std::to_string(c.cubinSize) + " + " + std::to_string(c.ptxSize) +
                               " bytes)");
  expect(!d.cubin && d.ptx, "namespace ptxonly embeds PTX only (" + std::to_string(d.ptxSize) +
                                " bytes)");
  expect(default3Fill() != default4Fill(),
         "the default-namespace fill of VALUE=3 and of VALUE=4 are two functions");
}

void download(void* dst, CUdeviceptr src, size_t bytes) {
  tcc::check(tcc::driver().cuCtxSynchronize(), "synchronising");
  tcc::check(tcc::driver().cuMemcpyDtoH(dst, src, bytes), "reading results");
}

void upload(CUdeviceptr dst, const void* src, size_t bytes) {
  tcc::check(tcc::driver().cuMemcpyHtoD(dst, src, bytes), "writing inputs");
}

void gpuChecks() {
  tcc::ensureContext();
  std::printf("tcc-integration: GPU: %s\n", tcc::deviceDescription().c_str());
  const int32_t n = 100003; // not a multiple of any block
  tcc::bench::DeviceBuffer buf(size_t(n + 64) * 4), other(size_t(n + 64) * 4);
  std::vector<int32_t> r(n + 64);

  auto fillCheck = [&](const char* what, FillFn f, int32_t value) {
    tcc::check(tcc::driver().cuMemsetD32(buf.get(), 0x7fbadbad, n + 64), "clearing");
    f(nullptr, buf.get(), n);
    download(r.data(), buf.get(), r.size() * 4);
    int64_t bad = 0;
    for (int32_t i = 0; i < n + 64; ++i)
      bad += r[i] != (i < n ? value : 0x7fbadbad);
    expect(bad == 0, std::string(what) + " wrote " + std::to_string(value) + " to the " +
                         std::to_string(n) + " elements and nothing past them (" +
                         std::to_string(bad) + " wrong)");
  };
  fillCheck("value1::fill", value1Fill, 1);
  fillCheck("value2::fill", value2Fill, 2);
  fillCheck("fill (VALUE=3, default namespace)", default3Fill(), 3);
  fillCheck("fill (VALUE=4, default namespace)", default4Fill(), 4);
  fillCheck("sm80::fill (an sm_80 cubin, else its PTX)", sm80Fill, 5);
  fillCheck("ptxonly::fill (PTX, JIT-compiled by the driver)", ptxOnlyFill, 6);

  // two_kernels.tile: x = (x + 1) * 3.
  std::vector<float> x(n), y(n), out(n);
  for (int32_t i = 0; i < n; ++i) {
    x[i] = float(i % 1000) * 0.25f;
    y[i] = float(i % 7) - 3.0f;
  }
  upload(buf.get(), x.data(), n * 4);
  twoAddOne(nullptr, buf.get(), n);
  twoScale(nullptr, buf.get(), n, 3.0f);
  download(out.data(), buf.get(), n * 4);
  int64_t bad = 0;
  for (int32_t i = 0; i < n; ++i)
    bad += out[i] != (x[i] + 1.0f) * 3.0f;
  expect(bad == 0, "two::add_one then two::scale (" + std::to_string(bad) + " wrong)");

  // axpy.tile for three architectures: y = 2 x + y, from the variant this GPU runs.
  upload(buf.get(), x.data(), n * 4);
  upload(other.get(), y.data(), n * 4);
  multiAxpy(nullptr, 2.0f, buf.get(), other.get(), n);
  download(out.data(), other.get(), n * 4);
  bad = 0;
  for (int32_t i = 0; i < n; ++i)
    bad += std::fabs(out[i] - (2.0f * x[i] + y[i])) > 1e-6f * (1.0f + std::fabs(out[i]));
  expect(bad == 0, "multi::axpy, sm_80/sm_90/sm_90a header (" + std::to_string(bad) + " wrong)");
}

} // namespace

int main() {
  cpuChecks();
  std::string why;
  if (!tcc::driverAvailable(&why)) {
    std::printf("tcc-integration: no GPU (%s): skipping the launches\n", why.c_str());
  } else {
    try {
      gpuChecks();
    } catch (const std::exception& e) {
      expect(false, std::string("tcc::Error: ") + e.what());
    }
  }
  std::printf("tcc-integration: %s\n", failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}
