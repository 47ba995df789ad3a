// The insides of tcc::Kernel shared by kernel.cpp (one configuration) and autotune.cpp
// (dispatch among the configurations of an autotune space).
#pragma once

#include "internal.h"
#include "per_context.h"
#include "tensor_map.h"
#include "tuner.h"

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

// A variant loaded in one CUDA context: a module belongs to the context it was loaded in,
// so a kernel launched from threads with different current contexts (one per device, or
// several on one) loads it once in each and launches each context's own function.
struct Kernel::VariantLoad {
  CUcontext context = nullptr;
  std::shared_ptr<Module> module;
  CUfunction function = nullptr;
  std::atomic<int> occupancy{0}; // programs per SM on this context's device (0: not asked)
};

struct Kernel::Variant {
  grid::Expr grid[3];
  std::string image; // the cubin in memory, or empty: read from the metadata's cubinPath
  std::string ptx;   // the PTX in memory, or empty: read from the metadata's ptxPath
  bool hasCubin = false;
  bool hasPtx = false;
  bool usesDeviceSymbols = false; // the grid mentions num_sms or occupancy
  // Its TMA tensor maps ("tensormaps"), bound to the slots of Marshalled; null: none.
  std::unique_ptr<detail::TensorMaps> tensorMaps;

  // Where it is loaded: once per CUDA context it was launched from.
  std::vector<std::unique_ptr<VariantLoad>> loaded; // owned; appended under Kernel::loadMutex_
  // The first kSlots of them, published for lock-free lookup by context (null: not yet).
  static constexpr size_t kSlots = 16;
  std::atomic<VariantLoad*> slots[kSlots] = {};
};

// Which launch order (Kernel::order) a context's device has (owned by Kernel::ordersByArch_).
struct Kernel::ContextOrders : detail::PerContext<const std::vector<size_t>*> {};

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
  // The chosen variant's tensor maps for these arguments (marshal), and why TMA cannot take
  // them ("" when it can; set only where no variant could run with them).
  std::vector<detail::TensorMapValues> tensorMaps;
  std::string tensorMapProblem;
};

// An autotuned kernel's state: its configurations and the tuner choosing among them.
struct Kernel::Tuning {
  std::vector<Kernel*> configs; // owned by the Library; by autotune index
  AutotuneInfo info;            // the first configuration's (the lists are the space's)
  // Pointer parameters saved and restored around trials: restore, then any of writes that
  // restore lacks (the tuner's saved parameters, in this order).
  std::vector<size_t> savedParams;
  std::unique_ptr<detail::Tuner> tuner;

  // The key arguments' values, as int64 (count already checked).
  void keyValues(const Arg* args, int64_t* out) const;
  // What the tuner launches: these configurations with one launch's arguments
  // (autotune.cpp).
  class Target;
};

} // namespace tcc
