// Support for the headers `tcc --emit=header` generates: a kernel whose cubin and/or PTX is
// compiled into the program, loaded on first use in each CUDA context, the tuner of an
// autotuned kernel's embedded configurations, and the checked arithmetic the generated grid
// computations call. Needs no CUDA toolkit header.
#pragma once

#include "tcc/error.h"

#include "tcc/cuda_api.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcc {
namespace detail {
struct TensorMapValues;
} // namespace detail

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

  // A kernel that takes TMA tensor maps (docs/artifacts.md, "tensormaps"): `spec` is a JSON
  // object with the metadata's "params", "constexprs" and "tensormaps" (as the artifact's
  // metadata has them). launch() then reads the arguments' values from `args`, checks what
  // TMA requires of them, encodes each map with cuTensorMapEncodeTiled (or takes it from
  // this kernel's cache of encoded maps) and passes the maps after the arguments (after the
  // bounds check's extents and record, where there are). Generated headers call it once,
  // when the kernel object is made; it throws on a malformed spec.
  void setTensorMaps(const char* spec);
  // Whether the tensor maps can take these arguments (`args` as for launch(): a 16-byte
  // aligned base, extents in 1..2^32, byte strides that are multiples of 16 below 2^40);
  // true for a kernel without tensor maps. Generated launchers try the next variant where it
  // is false, as tcc::Kernel does. Needs no GPU.
  bool tensorMapsAccept(void** args) const;

  // The grid symbols num_sms and occupancy (docs/ir.md): the SMs of the current device, and
  // how many programs of this kernel fit on one of them (cuOccupancyMaxActiveBlocksPer-
  // Multiprocessor for its threads and shared memory, at least 1; loads it first).
  int64_t numSms();
  int64_t occupancy();

  // Whether the kernel can run on the device of the current context: its cubin runs there
  // (an sm_90a cubin only on compute capability 9.0, an sm_80 cubin on 8.x) or its PTX can
  // be JIT-compiled there (sm_80 PTX on 8.0 and newer). Asked once per context: threads
  // whose current contexts are on devices of different models each get their device's answer.
  bool runsOnCurrentDevice();
  // Whether the kernel is loaded from its PTX (JIT) on the current device rather than from
  // its cubin (false also where nothing runs). Asked once per context, as above.
  bool usesPtxOnCurrentDevice();

private:
  struct ContextState;
  struct Contexts;
  struct BoundsCheck;
  std::unique_ptr<BoundsCheck> bounds_; // set by setBoundsCheck
  struct TensorMapState;
  std::unique_ptr<TensorMapState> tensorMaps_; // set by setTensorMaps
  // The tensor maps' values for `args`, or why TMA cannot take them.
  std::string evaluateTensorMaps(void** args, std::vector<detail::TensorMapValues>* values) const;
  const char* name_;
  const char* entry_;
  const void* image_;
  size_t size_;
  const char* arch_;
  int numWarps_;
  int64_t sharedBytes_;
  const char* ptx_;
  size_t ptxSize_;
  // Every context's state, found without a lock, and the most recently loaded one (the
  // fast path: one compare). Opaque here (embedded.cpp).
  std::unique_ptr<Contexts> contexts_;
  int rankOnCurrentDevice();
  // The context's entry (its device's loadRank), added on first sight.
  ContextState* entryFor(CUcontext ctx);
  // The entry with the module loaded in the context (which is current).
  ContextState* loadIn(CUcontext ctx);
  // The current context's entry, loaded (made current first if no context is).
  ContextState* current();
};

struct TuningReport; // tcc/runtime.h
namespace detail {
class Tuner;
} // namespace detail

// An autotuned kernel of a generated header (docs/autotuning.md): the header embeds every
// configuration kept (each an EmbeddedKernel per variant, with a launcher of its own) and
// this chooses among them per key with the tuner a tcc::Library's autotuned kernel uses:
// the key bucketed, the choice looked up in memory, then in the disk cache, then in the
// tuning table embedded with it, else made by benchmarking the configurations with the
// launch's arguments (the memory the kernel writes saved and restored around the trials)
// and remembered in memory and in the disk cache. Thread-safe.
class EmbeddedTuning {
public:
  struct Config {
    int index;          // the configuration's autotune index
    const char* config; // its description, as KernelMetadata::configString() writes it
  };
  static constexpr size_t kUnknown = static_cast<size_t>(-1);
  // All pointers must outlive the object (the generated header passes literals and static
  // arrays). `key`: the key parameters' names; `configs`: by index; `saved`: the pointer
  // parameters restored around trials; `table`/`tableSize`: the tuning table's JSON text (or
  // nullptr/0), checked at the first choice (one that is not valid for this kernel is
  // ignored with one warning).
  EmbeddedTuning(const char* kernel, const char* space, const char* const* key, size_t keyCount,
                 const Config* configs, size_t count, const char* const* saved,
                 size_t savedCount, const char* table = nullptr, size_t tableSize = 0);
  ~EmbeddedTuning();
  EmbeddedTuning(const EmbeddedTuning&) = delete;
  EmbeddedTuning& operator=(const EmbeddedTuning&) = delete;

  // What the tuner launches: configuration `config` (a position in `configs`) with the
  // launch's arguments, and whether it would launch nothing (an empty grid).
  class Target {
  public:
    virtual ~Target() = default;
    virtual void launch(size_t config, CUstream stream) = 0;
    virtual bool launchesNothing(size_t config) = 0;
  };

  // The position of the configuration chosen for these key values (the arguments' values,
  // not bucketed; one per key parameter), or kUnknown: one hash lookup.
  size_t known(const int64_t* key) const;
  // The position of the configuration for these key values, choosing it now if needed
  // (benchmarking through `target` on `stream`); `saved`: the addresses passed for the
  // saved parameters.
  size_t choose(CUstream stream, const int64_t* key, const CUdeviceptr* saved, Target& target);
  template <typename Launch, typename Empty>
  size_t choose(CUstream stream, const int64_t* key, const CUdeviceptr* saved, Launch&& launch,
                Empty&& empty) {
    struct Lambdas final : Target {
      Lambdas(Launch& l, Empty& e) : l_(l), e_(e) {}
      void launch(size_t config, CUstream s) override { l_(config, s); }
      bool launchesNothing(size_t config) override { return e_(config); }
      Launch& l_;
      Empty& e_;
    } target(launch, empty);
    return choose(stream, key, saved, target);
  }

  const char* name() const { return name_; }
  size_t numConfigurations() const { return count_; }
  // Every choice made so far, in order (as tcc::Kernel::tunings(); include <tcc/runtime.h>
  // to use them).
  std::vector<TuningReport> tunings() const;

private:
  const char* name_;
  size_t count_;
  size_t savedCount_;
  std::unique_ptr<detail::Tuner> tuner_;
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
  // op(a, b), or fail(what) when op reports overflow or division by zero.
  int64_t checked(bool (*op)(int64_t, int64_t, int64_t*), int64_t a, int64_t b,
                  const char* what) const;
  const char* kernel_;
  const char* expr_;
};

} // namespace tcc
