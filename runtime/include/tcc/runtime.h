// The tcc runtime: load compiled kernels (cubin + metadata), pick the variant the arguments
// allow, compute the grid from the kernel's grid expressions and launch.
//
//   tcc::Library lib("artifacts/vector_add");            // a metadata file or a folder
//   lib.kernel("vector_add").launch(stream, x, y, out, n); // x, y, out: CUdeviceptr; n: int32_t
//
// CUDA driver API and the standard library only; errors throw tcc::Error.
#pragma once

#include "tcc/driver.h"
#include "tcc/error.h"
#include "tcc/metadata.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
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
// specialisations. Obtained from a Library; launches are thread-safe.
class Kernel {
public:
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  const std::string& name() const { return name_; }
  // The variants: architecture-specific ones (sm_90a) first, then by architecture, newest
  // first, then the most specialised first; the last is the general one (of the oldest
  // architecture). A launch tries them in the order of how they run on the device (its
  // cubin on exactly its architecture, then a compatible cubin, then PTX through the
  // driver's JIT; see loadRank in tcc/cubin.h), this order within each.
  const std::vector<KernelMetadata>& variants() const { return metas_; }
  // Those variants' indices in the order a launch on the current device tries them (only
  // those that can run there; every variant, in variants() order, without a device).
  std::vector<size_t> launchOrder() const;
  // The parameters (shared by all variants).
  const std::vector<ParamInfo>& params() const { return metas_.front().params; }
  // "BLOCK=1024, ACT=\"relu\", num_warps=4".
  std::string configString() const { return metas_.front().configString(); }

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
  // same way, but needs no GPU.
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

  // Loads every variant's module in the current context now (otherwise on first use).
  void load();
  // The function of variant `i` (loading it if needed); for benchmarks comparing with raw
  // cuLaunchKernel.
  CUfunction function(size_t variant);

private:
  friend class Library;
  struct Variant;
  Kernel(std::string name, std::vector<KernelMetadata> metas, std::vector<std::string> images,
         std::vector<std::string> ptxs);

  struct Marshalled;
  size_t marshal(const Arg* args, size_t count, Marshalled* out) const;
  LaunchPlan planFor(size_t variant, Marshalled& m) const;
  // num_sms and occupancy (of `variant`, on the current device) into m's slots, where the
  // variant's grid uses them; loads the variant to ask the driver for its occupancy.
  void fillDeviceSymbols(size_t variant, Marshalled& m) const;
  void ensureLoaded(size_t variant);

  // The compute capability variants are chosen for: the current device's on first use, -1
  // without a driver or device.
  int selectionArch() const;
  // launchOrder(), computed once.
  const std::vector<size_t>& order() const;

  std::string name_;
  std::vector<KernelMetadata> metas_;
  std::vector<std::unique_ptr<Variant>> variants_;
  std::mutex loadMutex_;
  // Whether the choice depends on the device: the variants differ in architecture or in
  // having a cubin or PTX.
  bool deviceDependent_ = false;
  mutable std::atomic<int> deviceArch_{0};
  mutable std::once_flag orderOnce_;
  mutable std::vector<size_t> order_;
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
  // no kernel metadata or a file is malformed.
  void add(const std::string& path);
  // The same, skipping architecture-specific variants (sm_90a) when `archSpecific` is
  // false: their portable counterparts (sm_90) then run everywhere, e.g. to compare the two.
  void add(const std::string& path, bool archSpecific);
  // Metadata with its cubin and/or PTX in memory (`image` empty: read metadata.cubinPath
  // on first use, if any; `ptx` empty: metadata.ptxPath, if any and the file exists).
  void add(KernelMetadata metadata, std::string image = "", std::string ptx = "");

  // The kernel `name`. Throws, listing the kernels there are, if none has that name, and
  // listing the configurations, if several configurations of it are loaded.
  Kernel& kernel(const std::string& name);
  // The configuration of `name` with these constexpr values (the order is free; numbers
  // compare by value, so 1 selects True; "num_warps" may be named too):
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
  Kernel& build(Entry& e);
  std::string available() const;
};

} // namespace tcc
