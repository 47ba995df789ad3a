#include "tcc/bench.h"

#include "tcc/driver.h"
#include "tcc/error.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace tcc {
using namespace cu;
namespace bench {
namespace {

class Event {
public:
  Event() { check(driver().cuEventCreate(&e_, CU_EVENT_DEFAULT), "creating a CUDA event"); }
  ~Event() {
    if (e_)
      driver().cuEventDestroy(e_);
  }
  Event(Event&& o) noexcept : e_(o.e_) { o.e_ = nullptr; }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  CUevent get() const { return e_; }

private:
  CUevent e_ = nullptr;
};

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  if (v.empty())
    return 0;
  double pos = q * static_cast<double>(v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, v.size() - 1);
  double f = pos - static_cast<double>(lo);
  return v[lo] * (1 - f) + v[hi] * f;
}

float elapsed(const Event& a, const Event& b) {
  float ms = 0;
  check(driver().cuEventElapsedTime(&ms, a.get(), b.get()), "reading CUDA event times");
  return ms;
}

} // namespace

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  ensureContext();
  if (bytes)
    check(driver().cuMemAlloc(&ptr_, bytes), "allocating " + std::to_string(bytes) + " bytes");
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_)
    driver().cuMemFree(ptr_);
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (ptr_)
      driver().cuMemFree(ptr_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = 0;
    o.bytes_ = 0;
  }
  return *this;
}

size_t l2Bytes() {
  int l2 = 0;
  check(driver().cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, currentDevice()),
        "querying the L2 size");
  return static_cast<size_t>(l2);
}

Result run(const std::function<void(CUstream)>& fn, const Options& o) {
  ensureContext();
  const Driver& d = driver();
  CUstream s = o.stream;
  DeviceBuffer flush;
  if (o.flushL2) {
    size_t bytes = o.flushBytes ? o.flushBytes : std::max<size_t>(size_t(256) << 20, 4 * l2Bytes());
    flush = DeviceBuffer(bytes);
  }
  auto flushL2 = [&] {
    if (o.flushL2)
      check(d.cuMemsetD32Async(flush.get(), 0, flush.bytes() / 4, s), "flushing L2");
  };

  // First estimate: a few runs back to back (flushes included, like do_bench).
  Event e0, e1;
  fn(s);
  check(d.cuStreamSynchronize(s), "running the benchmarked work");
  check(d.cuEventRecord(e0.get(), s), "recording an event");
  const int estimateRuns = 5;
  for (int i = 0; i < estimateRuns; ++i) {
    flushL2();
    fn(s);
  }
  check(d.cuEventRecord(e1.get(), s), "recording an event");
  check(d.cuEventSynchronize(e1.get()), "waiting for an event");
  double estimate = std::max(1e-3, static_cast<double>(elapsed(e0, e1)) / estimateRuns);

  int warmup = std::max(1, static_cast<int>(o.warmupMs / estimate));
  int reps = std::clamp(static_cast<int>(o.budgetMs / estimate), o.minReps, o.maxReps);
  for (int i = 0; i < warmup; ++i) {
    flushL2();
    fn(s);
  }
  std::vector<Event> starts(static_cast<size_t>(reps)), ends(static_cast<size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    flushL2();
    check(d.cuEventRecord(starts[static_cast<size_t>(i)].get(), s), "recording an event");
    fn(s);
    check(d.cuEventRecord(ends[static_cast<size_t>(i)].get(), s), "recording an event");
  }
  check(d.cuStreamSynchronize(s), "running the benchmarked work");

  Result r;
  r.reps = reps;
  for (int i = 0; i < reps; ++i)
    r.ms.push_back(elapsed(starts[static_cast<size_t>(i)], ends[static_cast<size_t>(i)]));
  r.median = percentile(r.ms, 0.5);
  r.p20 = percentile(r.ms, 0.2);
  r.p80 = percentile(r.ms, 0.8);
  r.min = *std::min_element(r.ms.begin(), r.ms.end());
  r.max = *std::max_element(r.ms.begin(), r.ms.end());
  double sum = 0;
  for (double x : r.ms)
    sum += x;
  r.mean = sum / reps;
  return r;
}

double copyBandwidth(size_t bytes, const Options& o) {
  DeviceBuffer src(bytes), dst(bytes);
  const Driver& d = driver();
  check(d.cuMemsetD8(src.get(), 0x5a, bytes), "filling the copy source");
  Result r = run(
      [&](CUstream s) {
        check(d.cuMemcpyDtoDAsync(dst.get(), src.get(), bytes, s), "copying device to device");
      },
      o);
  return r.gbps(2.0 * static_cast<double>(bytes));
}

double launchOverheadUs(const std::function<void()>& launch, int count, int trials, CUstream stream) {
  ensureContext();
  const Driver& d = driver();
  // One untimed round so that lazy loading and first-launch costs are out of the way.
  for (int i = 0; i < 100; ++i)
    launch();
  check(d.cuStreamSynchronize(stream), "synchronising");
  std::vector<double> us;
  for (int t = 0; t < trials; ++t) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i)
      launch();
    check(d.cuStreamSynchronize(stream), "synchronising");
    auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / count);
  }
  return percentile(us, 0.5);
}

} // namespace bench
} // namespace tcc
