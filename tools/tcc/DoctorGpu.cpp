//===- DoctorGpu.cpp - tcc doctor's GPU side -----------------------------===//
//
// Through the runtime only (its tcc::Driver is the CUDA driver's entry points, not the
// compiler's Driver: the two halves of the doctor live in two files).
//
//===----------------------------------------------------------------------===//

#include "Doctor.h"

#ifndef TCC_DOCTOR_WITHOUT_RUNTIME
#include "tcc/driver.h"
#include "tcc/error.h"
#include "tcc/runtime.h"

#include <vector>

namespace tcc {
namespace {

constexpr int kElements = (1 << 20) | 7; // a ragged tail

/// Copies kElements floats through the kernel on the current context and compares; the
/// empty string when every element arrived.
std::string runVerifyKernel(Kernel &kernel) {
  const Driver &d = tcc::driver();
  const int n = kElements;
  std::vector<float> host(n), back(n, -1.0f);
  for (int i = 0; i < n; ++i)
    host[i] = float(i % 1000) * 0.5f - 17.0f;
  CUdeviceptr src = 0, dst = 0;
  size_t bytes = size_t(n) * sizeof(float);
  std::string result;
  try {
    check(d.cuMemAlloc(&src, bytes), "allocating the source");
    check(d.cuMemAlloc(&dst, bytes), "allocating the destination");
    check(d.cuMemcpyHtoD(src, host.data(), bytes), "copying to the device");
    check(d.cuMemsetD32(dst, 0, size_t(n)), "clearing the destination");
    kernel.launch(nullptr, src, dst, n);
    check(d.cuCtxSynchronize(), "running the verification kernel");
    check(d.cuMemcpyDtoH(back.data(), dst, bytes), "copying back");
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += back[i] != host[i];
    if (bad)
      result = std::to_string(bad) + " of " + std::to_string(n) + " elements differ";
  } catch (const Error &e) {
    result = e.what();
  }
  if (src)
    d.cuMemFree(src);
  if (dst)
    d.cuMemFree(dst);
  return result;
}

} // namespace

GpuReport checkGpus(const std::string &artifactDir) {
  GpuReport report;
  report.runtime = true;
  if (!driverAvailable(&report.why))
    return report;
  report.why.clear();
  try {
    report.driverOk = true;
    report.driverVersion = driverVersion();
    int count = deviceCount();
    const Driver &d = tcc::driver();
    for (int i = 0; i < count; ++i) {
      DeviceInfo info = deviceInfo(i);
      GpuReport::Gpu g;
      g.name = info.name;
      g.computeCapability = info.computeCapability;
      g.totalMemory = info.totalMemory;
      g.smCount = info.smCount;
      if (!artifactDir.empty()) {
        g.ran = true;
        g.elements = kElements;
        CUdevice dev = 0;
        CUcontext ctx = nullptr;
        try {
          check(d.cuDeviceGet(&dev, i), "getting device " + std::to_string(i));
          check(d.cuDevicePrimaryCtxRetain(&ctx, dev), "retaining the primary context");
          check(d.cuCtxSetCurrent(ctx), "making the context current");
          // A Library per device: a kernel's modules belong to the context it first ran in.
          Library library(artifactDir);
          g.error = runVerifyKernel(library.kernel("vector_copy"));
        } catch (const Error &e) {
          g.error = e.what();
        }
        d.cuCtxSetCurrent(nullptr);
        if (ctx)
          d.cuDevicePrimaryCtxRelease(dev);
      }
      report.gpus.push_back(g);
    }
  } catch (const Error &e) {
    report.why = e.what();
  }
  return report;
}

} // namespace tcc

#else

tcc::GpuReport tcc::checkGpus(const std::string &) { return GpuReport(); }

#endif
