// The tcc runtime: load compiled kernels (cubin + metadata), pick the variant the arguments
// allow, compute the grid from the kernel's grid expressions and launch.
//
//   tcc::Library lib("artifacts/vector_add");            // a metadata file or a folder
//   lib.kernel("vector_add").launch(stream, x, y, out, n); // x, y, out: CUdeviceptr; n: int32_t
//
// CUDA driver API and the standard library only; errors throw tcc::Error.
#pragma once

#include "tcc/autotune_key.h"
#include "tcc/driver.h"
#include "tcc/error.h"
#include "tcc/metadata.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcc {

// One kernel argument, as given by the caller. Kinds come from the C++ type: any T* and
// CUdeviceptr (unsigned long long) are pointers; bool, signed and unsigned integers, float
// and double are scalars. The launch checks each against the kernel's parameter type.
class Arg {
public:
  enum class Kind : uint8_t { Pointer, Bool, Signed, Unsigned, Float32, Float64 };

  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> || std::is_pointer_v<T> ||
                                                    std::is_null_pointer_v<T>>>
  Arg(T v) { // NOLINT: implicit on purpose, so launch(stream, x, n) reads naturally
    if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>) {
      kind_ = Kind::Pointer;
      u_ = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(v));
    } else if constexpr (std::is_same_v<T, CUdeviceptr>) {
      kind_ = Kind::Pointer;
      u_ = v;
    } else if constexpr (std::is_same_v<T, bool>) {
      kind_ = Kind::Bool;
      i_ = v ? 1 : 0;
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      kind_ = Kind::Signed;
      i_ = static_cast<int64_t>(v);
    } else if constexpr (std::is_integral_v<T>) {
      kind_ = Kind::Unsigned;
      u_ = static_cast<uint64_t>(v);
    } else if constexpr (std::is_same_v<T, float>) {
      kind_ = Kind::Float32;
      f_ = v;
    } else {
      kind_ = Kind::Float64;
      d_ = static_cast<double>(v);
    }
  }

  // A device address held in an integer type other than CUdeviceptr.
  static Arg pointer(uint64_t address) {
    Arg a(nullptr);
    a.u_ = address;
    return a;
  }

  Kind kind() const { return kind_; }
  uint64_t asUnsigned() const { return u_; }
  int64_t asSigned() const { return i_; }
  float asFloat() const { return f_; }
  double asDouble() const { return d_; }
  // "a pointer", "an int64 value 5", ... for error messages.
  std::string describe() const;

private:
  Kind kind_ = Kind::Pointer;
  union {
    uint64_t u_ = 0;
    int64_t i_;
    float f_;
    double d_;
  };
};

struct Dim3 {
  int64_t x = 1, y = 1, z = 1;
};

// What a launch would do: which variant, which grid.
struct LaunchPlan {
  const KernelMetadata* variant = nullptr;
  Dim3 grid;
  unsigned blockThreads = 0;
  unsigned sharedBytes = 0;
  bool empty() const { return grid.x == 0 || grid.y == 0 || grid.z == 0; }
};

// One configuration's measurements when an autotuned kernel chose among its configurations
// (docs/autotuning.md).
struct TuningTrial {
  int index = 0;          // the configuration's autotune index
  std::string config;     // its configString(): "BLOCK=1024, num_warps=4"
  bool ok = false;        // measured; false: it failed to launch (`error` says why), or the
                          // disk cache or tuning table recorded no median for it
  std::string error;
  double medianMs = 0;    // median time of one launch
  double p20Ms = 0, p80Ms = 0; // spread (0 when the choice came from the disk cache or a table)
  int reps = 0;           // timed repetitions (0 from the disk cache or a table)
};

// How an autotuned kernel chose its configuration for one key.
struct TuningReport {
  enum class Source {
    Benchmark, // measured here, now (and written to the disk cache)
    DiskCache, // read from $TCC_CACHE_DIR/autotune/<kernel>-<space>.json
    TuningTable, // a tuning table's entry (embedded in a header, or <kernel>.tuning.json
                 // beside a Library's cubins): nothing measured, nothing written
    Disabled,  // TCC_AUTOTUNE=off: the first configuration, nothing measured
    EmptyGrid, // every configuration's grid is empty for these arguments (n = 0): nothing
               // launches, nothing is measured or saved; the first configuration
  };
  std::string kernel;
  std::string space;          // the autotune space
  std::string key;            // the bucketed key arguments: "n=1024" ("" for an empty key)
  std::string device;         // "NVIDIA H200" (empty without a device)
  int computeCapability = 0;  // 90
  int driverVersion = 0;      // 13000
  Source source = Source::Benchmark;
  std::string origin;         // DiskCache: the cache file; TuningTable: the table (its file,
                              // or the header it is embedded in)
  int chosenIndex = 0;        // the chosen configuration's autotune index
  std::string chosenConfig;   // and its configString()
  std::vector<TuningTrial> trials; // every configuration, by index (Benchmark, DiskCache,
                                   // TuningTable)
  double elapsedMs = 0;       // wall time the choice took (benchmarking included)
};

// autotuneBucket (tcc/autotune_key.h): how a key argument's value is bucketed.

class Module;

// One loaded cubin in one CUDA context.
class Module {
public:
  // Checks the image's architecture against the device of the current context (creating
  // the primary context of device 0 if none is current) and against `expectedArch` (the
  // metadata's, or 0), then loads it. `label` names the image in errors; `kernel` the kernel.
  static std::shared_ptr<Module> load(const void* image, size_t size, const std::string& label,
                                      int expectedArch = 0, bool archSpecific = false,
                                      const std::string& kernel = "");
  static std::shared_ptr<Module> loadFile(const std::string& path, int expectedArch = 0,
                                          bool archSpecific = false, const std::string& kernel = "");
  // PTX text (NUL-terminated or not) JIT-compiled by the driver for the device of the current
  // context (cuModuleLoadDataEx). Refused before the driver sees it when its ".target" (or
  // `expectedArch`) is newer than the device, or architecture-specific for another one; a
  // JIT failure's error carries the driver's JIT log. load() sends PTX images here.
  static std::shared_ptr<Module> loadPtx(const void* ptx, size_t size, const std::string& label,
                                         int expectedArch = 0, bool archSpecific = false,
                                         const std::string& kernel = "");
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // The entry `entry`; throws naming `kernel` if the module lacks it.
  CUfunction function(const std::string& entry, const std::string& kernel) const;
  CUmodule handle() const { return module_; }
  CUcontext context() const { return context_; }
  const std::string& label() const { return label_; }

private:
  Module(CUmodule m, CUcontext c, std::string label)
      : module_(m), context_(c), label_(std::move(label)) {}
  CUmodule module_;
  CUcontext context_;
  std::string label_;
};

// A kernel in one configuration (one set of constexpr values) with all its compiled
// specialisations, or an autotuned kernel dispatching among the configurations of one
// search space (isTuned(), docs/autotuning.md). Obtained from a Library; launches are
// thread-safe.
class Kernel {
public:
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  const std::string& name() const { return name_; }
  // The variants (of an autotuned kernel: those of its first configuration; configuration(i)
  // has each configuration's): architecture-specific ones (sm_90a) first, then by architecture, newest
  // first, then the most specialised first; the last is the general one (of the oldest
  // architecture). A launch tries them in the order of how they run on the device (its
  // cubin on exactly its architecture, then a compatible cubin, then PTX through the
  // driver's JIT; see loadRank in tcc/cubin.h), this order within each.
  const std::vector<KernelMetadata>& variants() const { return metas_; }
  // Those variants' indices in the order a launch on the current device tries them (only
  // those that can run there; every variant, in variants() order, without a device). Per
  // device: threads whose contexts are on devices of different models (an sm_80 and an
  // sm_90 GPU in one host) each launch the variants that run on theirs.
  std::vector<size_t> launchOrder() const;
  // The parameters (shared by all variants).
  const std::vector<ParamInfo>& params() const { return metas_.front().params; }
  // "BLOCK=1024, ACT=\"relu\", num_warps=4"; for an autotuned kernel "autotuned over 3
  // configurations: BLOCK=1024, num_warps=4 | ...".
  std::string configString() const;

  // ---- Autotuning (docs/autotuning.md) ------------------------------------------------
  // Whether this kernel dispatches among several configurations of one autotune space.
  bool isTuned() const { return tuning_ != nullptr; }
  // How many configurations it dispatches among (1 for a kernel that is not autotuned).
  size_t numConfigurations() const;
  // Configuration `i` (0 .. numConfigurations()-1, in autotune index order; *this for
  // i = 0 of a kernel that is not autotuned).
  Kernel& configuration(size_t i);
  // The configuration a launch on `stream` with these arguments uses, choosing it now
  // (benchmarking, if neither memory, the disk cache nor a tuning table knows the key) if
  // needed; its general variant's metadata (constexprs, num_warps, num_stages and autotune
  // are the configuration's). For a kernel that is not autotuned: its own general variant.
  template <typename... A>
  const KernelMetadata& chosen(CUstream stream, const A&... args) {
    if constexpr (sizeof...(A) == 0) {
      return chosenArgs(stream, nullptr, 0);
    } else {
      const Arg a[] = {Arg(args)...};
      return chosenArgs(stream, a, sizeof...(A));
    }
  }
  const KernelMetadata& chosenArgs(CUstream stream, const Arg* args, size_t count);
  // The last choice this kernel made (by benchmark, from the disk cache or TCC_AUTOTUNE=off;
  // a choice found in memory is not a new one), and every choice so far, in order. Empty for
  // a kernel that is not autotuned.
  std::optional<TuningReport> lastTuning() const;
  std::vector<TuningReport> tunings() const;
  // Benchmarks every configuration with these arguments on `stream` as a first launch's
  // tuning does (the written memory saved and restored around the trials, a warm-up launch,
  // CUDA events, the median of repetitions with the L2 flushed; `budgetMs` timed per
  // configuration, 0: TCC_AUTOTUNE_BUDGET_MS or 25), but reads no disk cache or table,
  // writes nothing and remembers no choice: the offline tuner's measurement (`tcc-tune`,
  // docs/autotuning.md). chosenIndex is the lowest median. A kernel that is not autotuned
  // is measured as its one configuration (nothing saved). Needs a GPU; throws tcc::Error.
  TuningReport measureArgs(CUstream stream, const Arg* args, size_t count, double budgetMs = 0);

  // Launches on `stream` (0: the legacy default stream) with arguments in parameter order.
  template <typename... A>
  void launch(CUstream stream, const A&... args) {
    if constexpr (sizeof...(A) == 0) {
      launchArgs(stream, nullptr, 0);
    } else {
      const Arg a[] = {Arg(args)...};
      launchArgs(stream, a, sizeof...(A));
    }
  }
  void launchArgs(CUstream stream, const Arg* args, size_t count);

  // The variant and grid a launch with these arguments would use; checks the arguments the
  // same way, but needs no GPU. An autotuned kernel never benchmarks here: it plans with the
  // configuration known for the key (in memory, the disk cache or a tuning table), else with
  // its first.
  template <typename... A>
  LaunchPlan plan(const A&... args) const {
    if constexpr (sizeof...(A) == 0) {
      return planArgs(nullptr, 0);
    } else {
      const Arg a[] = {Arg(args)...};
      return planArgs(a, sizeof...(A));
    }
  }
  LaunchPlan planArgs(const Arg* args, size_t count) const;

  // Loads every variant's module in the current context now (otherwise on first use); of
  // every configuration, for an autotuned kernel.
  void load();
  // The function of variant `i` (loading it if needed); for benchmarks comparing with raw
  // cuLaunchKernel. Of the first configuration, for an autotuned kernel.
  CUfunction function(size_t variant);

private:
  friend class Library;
  struct Variant;
  struct Tuning;
  Kernel(std::string name, std::vector<KernelMetadata> metas, std::vector<std::string> images,
         std::vector<std::string> ptxs);
  // An autotuned kernel over `configs` (configurations of one space, in index order).
  Kernel(std::string name, std::vector<Kernel*> configs);
  // An autotuned kernel's tuning table (docs/autotuning.md): its text and where it is from.
  void setTuningTable(std::string text, std::string origin);

  // The autotuned path of launchArgs / planArgs / chosenArgs: the configuration (its
  // position in Tuning::configs) for these arguments, from memory, the disk cache, or (if
  // `benchmark`) by benchmarking on `stream`; without `benchmark`, 0 where none is known.
  size_t chooseConfiguration(CUstream stream, const Arg* args, size_t count, bool benchmark) const;

  struct Marshalled;
  size_t marshal(const Arg* args, size_t count, Marshalled* out) const;
  LaunchPlan planFor(size_t variant, Marshalled& m) const;
  // num_sms and occupancy (of `variant`, on the current device) into m's slots, where the
  // variant's grid uses them; loads the variant to ask the driver for its occupancy.
  void fillDeviceSymbols(size_t variant, Marshalled& m) const;
  // The variant loaded in the current CUDA context (made current first if none is):
  // loaded there on first use.
  struct VariantLoad;
  VariantLoad& ensureLoaded(size_t variant);

  // launchOrder(): for the device of the current context (made current first if none is),
  // computed once per context; every variant, in variants() order, where the choice does not
  // depend on the device or there is no driver or device.
  const std::vector<size_t>& order() const;
  // The order for a device of compute capability `arch` (-1: every variant).
  std::vector<size_t> orderFor(int arch) const;

  std::string name_;
  std::vector<KernelMetadata> metas_;
  std::vector<std::unique_ptr<Variant>> variants_;
  std::mutex loadMutex_;
  // Whether the choice depends on the device: the variants differ in architecture or in
  // having a cubin or PTX.
  bool deviceDependent_ = false;
  // order()'s answers: one per compute capability seen, and which context has which (found
  // without a lock; opaque here, kernel_internal.h).
  struct ContextOrders;
  mutable std::mutex orderMutex_;
  mutable std::vector<std::pair<int, std::unique_ptr<std::vector<size_t>>>> ordersByArch_;
  std::unique_ptr<ContextOrders> contextOrders_;
  mutable std::once_flag anyOrderOnce_;
  mutable std::vector<size_t> anyOrder_; // orderFor(-1)
  // Set for an autotuned kernel (whose metas_ are its first configuration's and whose
  // variants_ are empty: it launches through its configurations).
  std::unique_ptr<Tuning> tuning_;
};

// A set of kernels loaded from metadata files, grouped by name and configuration.
class Library {
public:
  Library();
  // Library(path): add(path).
  explicit Library(const std::string& path);
  ~Library();
  Library(Library&&) noexcept;
  Library& operator=(Library&&) noexcept;

  // A metadata file, or a folder whose *.json files of format tcc-kernel are all added (not
  // recursively). The cubins are read when a kernel is first used. Throws if the path holds
  // no kernel metadata or a file is malformed. A tuning table `<kernel>.tuning.json` in the
  // folder (or beside the metadata file) is the autotuned kernel's (docs/autotuning.md:
  // consulted before benchmarking; one that is not valid for it is ignored with a warning).
  void add(const std::string& path);
  // The same, skipping architecture-specific variants (sm_90a) when `archSpecific` is
  // false: their portable counterparts (sm_90) then run everywhere, e.g. to compare the two.
  void add(const std::string& path, bool archSpecific);
  // Metadata with its cubin and/or PTX in memory (`image` empty: read metadata.cubinPath
  // on first use, if any; `ptx` empty: metadata.ptxPath, if any and the file exists).
  void add(KernelMetadata metadata, std::string image = "", std::string ptx = "");

  // The kernel `name`. Throws, listing the kernels there are, if none has that name. Where
  // several configurations of it are loaded and all carry autotune metadata of one space,
  // an autotuned kernel dispatching among them (docs/autotuning.md); otherwise several
  // configurations are an error that lists them and says why they are not one autotuned
  // kernel.
  Kernel& kernel(const std::string& name);
  // The configuration of `name` with these constexpr values (the order is free; numbers
  // compare by value, so 1 selects True; "num_warps" and "num_stages" may be named too);
  // exactly one configuration must match (never an autotuned kernel):
  // kernel("softmax", {{"BLOCK", 1024}, {"ACT", "relu"}}).
  Kernel& kernel(const std::string& name,
                 const std::vector<std::pair<std::string, ConstexprValue>>& constexprs);

  template <typename... A>
  void launch(const std::string& name, CUstream stream, const A&... args) {
    kernel(name).launch(stream, args...);
  }

  // Names of the kernels, sorted.
  std::vector<std::string> kernelNames() const;
  // Every configuration of `name` (empty if none).
  std::vector<Kernel*> configurations(const std::string& name);

private:
  struct Entry {
    std::vector<KernelMetadata> metas;
    std::vector<std::string> images;
    std::vector<std::string> ptxs;
    std::unique_ptr<Kernel> kernel; // built on first lookup
  };
  // name -> configurations
  std::map<std::string, std::vector<std::unique_ptr<Entry>>> kernels_;
  std::vector<std::string> origins_;
  // name -> the autotuned kernel over its configurations, built on first lookup
  std::map<std::string, std::unique_ptr<Kernel>> tuned_;
  // name -> its tuning table found beside the metadata (<name>.tuning.json): path, text
  std::map<std::string, std::pair<std::string, std::string>> tables_;
  void addTable(const std::string& name, const std::string& path);
  Kernel& build(Entry& e);
  // The autotuned kernel over `found` (every configuration of `name`), or nullptr with the
  // reason in *why when they are not the configurations of one autotune space.
  Kernel* buildTuned(const std::string& name, const std::vector<Entry*>& found, std::string* why);
  std::string available() const;
};

} // namespace tcc
