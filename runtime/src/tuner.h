// The one tuner behind every autotuned kernel (docs/autotuning.md): a tcc::Kernel over the
// configurations a Library loaded, and a generated header's tcc::EmbeddedTuning over the
// configurations it embeds. It buckets the key, and chooses a configuration per key from
// memory, the disk cache, a tuning table, or by benchmarking through a TuneTarget (which
// launches one configuration with the launch's arguments), saving and restoring the memory
// the kernel writes around the trials.
#pragma once

#include "internal.h"
#include "per_context.h"

#include "tcc/runtime.h"

#include <cstdint>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tcc {
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
  // Which device model (Tuner's numbering; -1 without a device) the choice is for: GPUs of
  // different models in one process are tuned separately.
  int device = -1;
  bool operator==(const TuneKey& o) const {
    if (n_ != o.n_ || device != o.device)
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
    uint64_t h = (0x9e3779b97f4a7c15ull ^ k.size()) + static_cast<uint64_t>(k.device + 1);
    const int64_t* d = k.data();
    for (size_t i = 0; i < k.size(); ++i) {
      h ^= static_cast<uint64_t>(d[i]) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
    }
    return static_cast<size_t>(h ^ (h >> 33));
  }
};

// What the tuner needs of the kernel it tunes, for one launch's arguments.
class TuneTarget {
public:
  virtual ~TuneTarget() = default;
  // Launches configuration `config` (a position in the tuner's configurations) with the
  // launch's arguments on `stream`; throws tcc::Error when it cannot.
  virtual void launch(size_t config, CUstream stream) = 0;
  // Whether configuration `config` launches nothing with these arguments (an empty grid);
  // false when that cannot be told.
  virtual bool launchesNothing(size_t config) = 0;
  // The address passed for the i-th of the tuner's saved parameters (0: none to save).
  virtual CUdeviceptr savedPointer(size_t i) = 0;
};

class Tuner {
public:
  static constexpr size_t kUnknown = static_cast<size_t>(-1);
  struct Config {
    int index = 0;      // the configuration's autotune index
    std::string config; // its configString()
  };
  // `configs` in index order; `saved`: the pointer parameters saved and restored around
  // trials (restore, then any of writes that restore lacks).
  Tuner(std::string kernel, std::string space, std::vector<std::string> key,
        std::vector<Config> configs, std::vector<std::string> saved);

  // A tuning table (docs/autotuning.md) to consult after the disk cache: its text and where
  // it came from (a file, "the table embedded in ..."), checked at the first choice; a table
  // that is not valid for this kernel is ignored with one warning.
  void setTable(std::string text, std::string origin);

  const std::string& kernel() const { return kernel_; }
  size_t numKeys() const { return key_.size(); }

  // The choice already made for these key values (as the arguments give them, not bucketed;
  // numKeys() of them), or kUnknown. One hash lookup under a shared lock.
  size_t known(const int64_t* keyValues) const;
  // The configuration for these key values: from memory, the disk cache, the table, or (if
  // `benchmark`) by benchmarking through `target` on `stream`; without `benchmark`, 0 where
  // none of those knows it (nothing is remembered then).
  size_t choose(CUstream stream, const int64_t* keyValues, TuneTarget& target, bool benchmark);

  // Benchmarks every configuration with the arguments `target` launches, exactly as a
  // choice by benchmark does (the saved pointers saved and restored, a warm-up launch, then
  // bench::run with the L2 flushed), but reads no cache or table, writes nothing and
  // remembers no choice: the offline tuner's measurement (runtime/tools/tune.h).
  // `budgetMs` (> 0) replaces TCC_AUTOTUNE_BUDGET_MS; chosenIndex is the lowest median.
  TuningReport measure(CUstream stream, const int64_t* keyValues, TuneTarget& target,
                       double budgetMs = 0);

  std::optional<TuningReport> lastTuning() const;
  std::vector<TuningReport> tunings() const;

private:
  void makeKey(const int64_t* values, TuneKey* key) const;
  std::string keyString(const TuneKey& key) const;
  // The device model of the current context (numbered in models_ as first seen; -1 where
  // no driver or device answers): a lock-free lookup by context after the first.
  int currentModel() const;
  // Under tuneMutex_: dev_ := the model `key` is for.
  void selectDevice(const TuneKey& key);
  /// A report of this kernel on dev_'s device for `key` (after selectDevice), to fill in.
  TuningReport reportFor(const TuneKey& key) const;
  // The table's choice for `key` on this device (kUnknown if none), filling `rep`.
  size_t fromTable(const std::string& key, TuningReport& rep);
  size_t fromCache(const std::string& path, const std::string& key, TuningReport& rep);
  size_t benchmark(CUstream stream, TuneTarget& target, const std::string& dir,
                   const std::string& path, TuningReport& rep);
  // The trials of benchmark() and measure(): every configuration measured into rep.trials;
  // the position of the lowest median (throws when every configuration failed).
  size_t trials(CUstream stream, TuneTarget& target, double budgetMs, TuningReport& rep);
  size_t position(int64_t index) const;

  std::string kernel_, space_;
  std::vector<std::string> key_;
  std::vector<Config> configs_;
  std::vector<std::string> saved_;

  // key -> position in configs_. Read under a shared lock on every launch; written under an
  // exclusive one once a choice is made.
  mutable std::shared_mutex mapMutex_;
  std::unordered_map<TuneKey, size_t, TuneKeyHash> choices_;

  // Held while a choice is being made (one at a time per kernel: concurrent launches with
  // the key being tuned wait for it, and no benchmark disturbs another).
  std::mutex tuneMutex_;
  // The device models seen (name and compute capability: two H200s are one model), and
  // which context's device is which.
  struct DeviceModel {
    bool known = false; // a driver and a device answered
    std::string name;
    int computeCapability = 0;
    int driverVersion = 0;
  };
  mutable std::mutex modelMutex_;
  mutable std::vector<std::unique_ptr<DeviceModel>> models_;
  mutable PerContext<int> contextModels_; // a position in models_, found without a lock
  // Under tuneMutex_: the model of the choice being made (selectDevice).
  const DeviceModel* dev_ = nullptr;
  std::set<std::string> warned_; // warnings already printed (each once)
  // The tuning table: its text until it is read at the first choice, then its entries.
  std::string tableText_, tableOrigin_;
  bool hasTable_ = false, tableRead_ = false;
  struct TableEntry {
    std::string device, key, config;
    int cc = 0;
    int64_t index = 0;
    std::vector<std::pair<int, double>> medians;
  };
  std::vector<TableEntry> table_;

  mutable std::mutex reportMutex_;
  std::vector<TuningReport> reports_;
};

} // namespace detail
} // namespace tcc
