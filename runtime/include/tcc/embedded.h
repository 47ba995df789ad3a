// Support for the headers `tcc --emit=header` generates: a kernel whose cubin and/or PTX is
// compiled into the program, loaded on first use in each CUDA context, and the checked
// arithmetic the generated grid computations call. Needs no CUDA toolkit header.
#pragma once

#include "tcc/error.h"

#include "tcc/cuda_api.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace tcc {

class EmbeddedKernel {
public:
  // All pointers must outlive the object (the generated header passes literals and static
  // arrays). `image`/`size`: the cubin, or nullptr/0 for a PTX-only kernel; `ptx`/`ptxSize`:
  // its PTX text (the size without a terminating NUL, which is not required), or nullptr/0.
  // At least one of the two must be given. `arch`: what they were built for ("sm_90a").
  EmbeddedKernel(const char* name, const char* entry, const void* image, size_t size,
                 const char* arch, int numWarps, int64_t sharedBytes, const char* ptx = nullptr,
                 size_t ptxSize = 0);
  ~EmbeddedKernel();
  EmbeddedKernel(const EmbeddedKernel&) = delete;
  EmbeddedKernel& operator=(const EmbeddedKernel&) = delete;

  // Launches with grid (gx, gy, gz), 32*numWarps threads and the kernel's shared memory;
  // an empty grid launches nothing. `args` as for cuLaunchKernel.
  void launch(CUstream stream, int64_t gx, int64_t gy, int64_t gz, void** args);

  // The function in the current context (loading the module there on first use; creating
  // the primary context of device 0 if none is current): from the cubin when it runs on the
  // device (exactly its architecture, or a compatible one: same major, minor <= the
  // device's), otherwise from the PTX, JIT-compiled by the driver (when the device's
  // architecture is the PTX's or newer). When neither can run, the error says why.
  CUfunction function();

  const char* name() const { return name_; }

  // A kernel built with `tcc --check-bounds` (docs/runtime.md): `params` lists its
  // parameters as "name:type" separated by commas ("x:*f32,n:i32"), `source` its source file
  // (for the messages), `recordBytes` its error record's size. launch() then appends the
  // extent of each pointer argument and a zeroed error record to the arguments, waits for the
  // kernel and throws tcc::Error on a recorded out-of-bounds access. Generated headers call
  // it once, when the kernel object is made; it throws on a malformed list.
  void setBoundsCheck(const char* params, const char* source, int64_t recordBytes);

  // The grid symbols num_sms and occupancy (docs/ir.md): the SMs of the current device, and
  // how many programs of this kernel fit on one of them (cuOccupancyMaxActiveBlocksPer-
  // Multiprocessor for its threads and shared memory, at least 1; loads it first).
  int64_t numSms();
  int64_t occupancy();

  // Whether the kernel can run on the device of the current context: its cubin runs there
  // (an sm_90a cubin only on compute capability 9.0, an sm_80 cubin on 8.x) or its PTX can
  // be JIT-compiled there (sm_80 PTX on 8.0 and newer). The answer of the first call is kept.
  bool runsOnCurrentDevice();
  // Whether the kernel is loaded from its PTX (JIT) on the current device rather than from
  // its cubin (false also where nothing runs). The answer of the first call is kept.
  bool usesPtxOnCurrentDevice();

private:
  struct PerContext;
  struct BoundsCheck;
  std::unique_ptr<BoundsCheck> bounds_; // set by setBoundsCheck
  const char* name_;
  const char* entry_;
  const void* image_;
  size_t size_;
  const char* arch_;
  int numWarps_;
  int64_t sharedBytes_;
  const char* ptx_;
  size_t ptxSize_;
  // The most recent context's function: the fast path is one load and one compare.
  std::atomic<PerContext*> last_{nullptr};
  std::atomic<PerContext*> all_{nullptr}; // every context's, a lock-free list
  std::atomic<int> rank_{-1};             // loadRank on the device: -1 not asked yet
  int rankOnCurrentDevice();
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
