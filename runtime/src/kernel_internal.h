// The insides of tcc::Kernel shared by kernel.cpp (one configuration) and autotune.cpp
// (dispatch among the configurations of an autotune space).
#pragma once

#include "internal.h"

#include "tcc/runtime.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tcc {

struct Kernel::Variant {
  grid::Expr grid[3];
  std::string image; // the cubin in memory, or empty: read from the metadata's cubinPath
  std::string ptx;   // the PTX in memory, or empty: read from the metadata's ptxPath
  bool hasCubin = false;
  bool hasPtx = false;
  std::shared_ptr<Module> module;
  std::atomic<CUfunction> function{nullptr};
  bool usesDeviceSymbols = false; // the grid mentions num_sms or occupancy
  std::atomic<int> occupancy{0};  // programs per SM, once asked (0: not yet)
};

// Arguments converted to the parameters' types: storage the driver reads, and the integer
// values the grid expressions and specialisation conditions see.
struct Kernel::Marshalled {
  static constexpr size_t kInline = 16;
  uint64_t storageInline[kInline];
  void* pointersInline[kInline];
  int64_t slotsInline[2 * kInline];
  std::vector<uint64_t> storageHeap;
  std::vector<void*> pointersHeap;
  std::vector<int64_t> slotsHeap;
  uint64_t* storage = storageInline;
  void** pointers = pointersInline;
  int64_t* slots = slotsInline;
};

namespace detail {

// The bucketed values of a launch's key arguments (inline up to four, as most keys are).
class TuneKey {
public:
  static constexpr size_t kInline = 4;
  void resize(size_t n) {
    n_ = n;
    if (n > kInline)
      heap_.assign(n, 0);
  }
  size_t size() const { return n_; }
  int64_t* data() { return n_ > kInline ? heap_.data() : inline_; }
  const int64_t* data() const { return n_ > kInline ? heap_.data() : inline_; }
  bool operator==(const TuneKey& o) const {
    if (n_ != o.n_)
      return false;
    const int64_t *a = data(), *b = o.data();
    for (size_t i = 0; i < n_; ++i)
      if (a[i] != b[i])
        return false;
    return true;
  }

private:
  size_t n_ = 0;
  int64_t inline_[kInline] = {0, 0, 0, 0};
  std::vector<int64_t> heap_;
};

struct TuneKeyHash {
  size_t operator()(const TuneKey& k) const {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ k.size();
    const int64_t* d = k.data();
    for (size_t i = 0; i < k.size(); ++i) {
      h ^= static_cast<uint64_t>(d[i]) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
    }
    return static_cast<size_t>(h ^ (h >> 33));
  }
};

} // namespace detail

// An autotuned kernel's state: its configurations and the choices made for each key.
struct Kernel::Tuning {
  std::vector<Kernel*> configs; // owned by the Library; by autotune index
  AutotuneInfo info;            // the first configuration's (the lists are the space's)
  // Pointer parameters saved and restored around trials: restore, then any of writes that
  // restore lacks.
  std::vector<size_t> savedParams;

  // key -> position in configs. Read under a shared lock on every launch; written under an
  // exclusive one once a choice is made.
  mutable std::shared_mutex mapMutex;
  std::unordered_map<detail::TuneKey, size_t, detail::TuneKeyHash> choices;

  // Held while a choice is being made (one at a time per kernel: concurrent launches with
  // the key being tuned wait for it, and no benchmark disturbs another).
  std::mutex tuneMutex;
  // Under tuneMutex: the device, read once (a kernel's modules live in one context).
  bool deviceRead = false;
  bool deviceKnown = false; // a driver and a device answered
  std::string deviceName;
  int computeCapability = 0;
  int driverVersion = 0;
  std::set<std::string> warned; // warnings already printed (each once)

  mutable std::mutex reportMutex;
  std::vector<TuningReport> reports;

  // The bucketed key of these arguments (count already checked).
  void makeKey(const Arg* args, detail::TuneKey* key) const;
};

} // namespace tcc
