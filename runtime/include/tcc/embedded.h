// Support for the headers `tcc --emit=header` generates: a kernel whose cubin is compiled
// into the program, loaded on first use in each CUDA context, and the checked arithmetic
// the generated grid computations call.
#pragma once

#include "tcc/error.h"

#include <cuda.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace tcc {

class EmbeddedKernel {
public:
  // All pointers must outlive the object (the generated header passes literals and a
  // static array).
  EmbeddedKernel(const char* name, const char* entry, const void* image, size_t size,
                 const char* arch, int numWarps, int64_t sharedBytes);
  ~EmbeddedKernel();
  EmbeddedKernel(const EmbeddedKernel&) = delete;
  EmbeddedKernel& operator=(const EmbeddedKernel&) = delete;

  // Launches with grid (gx, gy, gz), 32*numWarps threads and the kernel's shared memory;
  // an empty grid launches nothing. `args` as for cuLaunchKernel.
  void launch(CUstream stream, int64_t gx, int64_t gy, int64_t gz, void** args);

  // The function in the current context (loading the module there on first use; creating
  // the primary context of device 0 if none is current).
  CUfunction function();

  const char* name() const { return name_; }

  // Whether the image can run on the device of the current context (an sm_90a cubin only
  // on compute capability 9.0); the answer of the first call is kept.
  bool runsOnCurrentDevice();

private:
  struct PerContext;
  const char* name_;
  const char* entry_;
  const void* image_;
  size_t size_;
  const char* arch_;
  int numWarps_;
  int64_t sharedBytes_;
  // The most recent context's function: the fast path is one load and one compare.
  std::atomic<PerContext*> last_{nullptr};
  std::atomic<PerContext*> all_{nullptr}; // every context's, a lock-free list
  std::atomic<int> runs_{-1};             // runsOnCurrentDevice: -1 not asked yet
  PerContext* loadIn(CUcontext ctx);
};

// Checked int64 arithmetic for one grid expression of one kernel; throws tcc::Error naming
// both on overflow or division by zero. Generated code calls these.
class GridCalc {
public:
  GridCalc(const EmbeddedKernel& k, const char* expr) : kernel_(k.name()), expr_(expr) {}
  int64_t neg(int64_t a) const;
  int64_t add(int64_t a, int64_t b) const;
  int64_t sub(int64_t a, int64_t b) const;
  int64_t mul(int64_t a, int64_t b) const;
  int64_t div(int64_t a, int64_t b) const;
  int64_t mod(int64_t a, int64_t b) const;
  int64_t cdiv(int64_t a, int64_t b) const;
  int64_t min(int64_t a, int64_t b) const { return a < b ? a : b; }
  int64_t max(int64_t a, int64_t b) const { return a < b ? b : a; }

private:
  [[noreturn]] void fail(const char* what) const;
  const char* kernel_;
  const char* expr_;
};

} // namespace tcc
