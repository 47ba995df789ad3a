// Timing GPU work the way Triton's do_bench does, from C++: warm-up, CUDA events around
// each repetition, repetitions until a time budget, the L2 cache flushed between them, and
// the median with its spread. Bytes and FLOPs turn into GB/s and TFLOP/s, and a measured
// device-to-device copy gives the bandwidth to compare against.
#pragma once

#include "tcc/cuda_api.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tcc {
namespace bench {

struct Options {
  double warmupMs = 25;     // time spent on warm-up runs (after a first estimate)
  double budgetMs = 100;    // time spent on measured repetitions
  int minReps = 10;
  int maxReps = 10000;
  bool flushL2 = true;      // overwrite a buffer larger than L2 before each repetition
  size_t flushBytes = 0;    // 0: max(256 MiB, 4 x the device's L2)
  CUstream stream = nullptr;
};

struct Result {
  std::vector<double> ms;   // every repetition, in order
  double median = 0, min = 0, max = 0, mean = 0;
  double p20 = 0, p80 = 0;  // spread: 20th and 80th percentiles
  int reps = 0;
  // Achieved rates at the median time.
  double gbps(double bytes) const { return median > 0 ? bytes / (median * 1e-3) / 1e9 : 0; }
  double tflops(double flops) const { return median > 0 ? flops / (median * 1e-3) / 1e12 : 0; }
};

// Times `fn(stream)` (which enqueues work on the stream). Needs a current context (made if
// absent). Checks every CUDA call; throws tcc::Error.
Result run(const std::function<void(CUstream)>& fn, const Options& options = {});

// Device-to-device copy bandwidth for `bytes` bytes, counting bytes read plus written (the
// convention of PERFORMANCE.md), in GB/s at the median.
double copyBandwidth(size_t bytes, const Options& options = {});

// Host-side cost of back-to-back launches: calls `launch()` `count` times, then synchronises;
// returns microseconds per launch (the median of `trials` such loops).
double launchOverheadUs(const std::function<void()>& launch, int count = 10000, int trials = 5,
                        CUstream stream = nullptr);

// Device memory owned by an object (freed in the destructor). Needs a current context.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = 0; o.bytes_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  CUdeviceptr get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

private:
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

// The device's L2 size in bytes.
size_t l2Bytes();

} // namespace bench
} // namespace tcc
