// The TMA tensor maps of a kernel variant (docs/artifacts.md, "tensormaps"), shared by
// tcc::Kernel and the kernels of generated headers (tcc::EmbeddedKernel): each map's
// expressions bound to the launch's integer values, what TMA requires of the arguments
// (checked without a driver, so that the variant choice can take it into account), and the
// encoding through cuTensorMapEncodeTiled with a small cache of encoded maps.
#pragma once

#include "tcc/cuda_api.h"
#include "tcc/grid_expr.h"
#include "tcc/metadata.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace tcc {
namespace detail {

constexpr int kMaxTensorMapRank = 5;

// One launch's values of one tensor map: the base address and the evaluated extents and
// byte strides, as cuTensorMapEncodeTiled takes them.
struct TensorMapValues {
  uint64_t address = 0;
  int rank = 0;
  uint64_t dims[kMaxTensorMapRank] = {};
  uint64_t strides[kMaxTensorMapRank - 1] = {};
  bool operator==(const TensorMapValues& o) const;
};

// An encoded CUtensorMap: 128 bytes, aligned as the driver wants the map it fills (64 bytes;
// <cuda.h> 13 declares CUtensorMap with 128) and as the kernel parameter is declared
// (`.param .align 64 .b8 [128]`).
struct alignas(128) EncodedTensorMap {
  unsigned char bytes[cu::CU_TENSOR_MAP_BYTES];
};

class TensorMaps {
public:
  // The maps of a variant whose parameters are `params`. `slotOf(name)` gives the slot of an
  // integer parameter or constexpr in the values a launch evaluates with (as the grid's
  // binding: negative for an unknown name). Throws tcc::Error naming `kernel` when an
  // expression does not bind (the metadata reader has checked them).
  template <typename SlotOf>
  TensorMaps(const std::vector<TensorMapInfo>& maps, const std::vector<ParamInfo>& params,
             SlotOf&& slotOf, const std::string& kernel)
      : kernel_(kernel) {
    for (const TensorMapInfo& info : maps) {
      Map m;
      m.info = info;
      tensorMapDataType(info.dtype, &m.elementBytes, &m.dataType);
      m.paramName = params.at(info.paramIndex).name;
      for (size_t d = 0; d < info.dims.size(); ++d)
        bindExpr(info.dims[d], slotOf, &m.dims[d]);
      for (size_t d = 0; d < info.stridesBytes.size(); ++d)
        bindExpr(info.stridesBytes[d], slotOf, &m.strides[d]);
      maps_.push_back(std::move(m));
    }
  }

  size_t size() const { return maps_.size(); }
  bool empty() const { return maps_.empty(); }

  // The values of every map for one launch: `slots` hold the integer values the expressions
  // were bound to, `paramBits[i]` the bits passed for parameter i (for a pointer, its
  // address). Returns "" when TMA takes them all (a 16-byte aligned base, extents in
  // 1..2^32, byte strides positive multiples of 16 below 2^40), otherwise why not, naming
  // the map, its parameter and the values. Needs no driver.
  std::string evaluate(const int64_t* slots, const uint64_t* paramBits,
                       std::vector<TensorMapValues>* out) const;

  // Encodes map i with values[i] into out[i] (of size()), or copies it from the cache of maps
  // encoded before for the same context, address, extents and strides. Throws tcc::Error
  // naming the map's parameter where the driver lacks cuTensorMapEncodeTiled or it fails.
  void encode(const std::vector<TensorMapValues>& values, EncodedTensorMap* out) const;

private:
  struct Map {
    TensorMapInfo info;
    std::string paramName;
    int elementBytes = 0;
    int dataType = 0;
    grid::Expr dims[kMaxTensorMapRank];
    grid::Expr strides[kMaxTensorMapRank - 1];
  };
  template <typename SlotOf>
  void bindExpr(const std::string& text, SlotOf& slotOf, grid::Expr* e) {
    std::string err;
    if (!grid::parse(text, e, &err) || !grid::bind(e, slotOf, &err))
      fail("reading the tensor maps", err);
  }
  [[noreturn]] void fail(const std::string& doing, const std::string& detail) const;
  // "tensor map 0 ('a', f16, box [64, 128])".
  std::string describe(size_t i) const;

  std::vector<Map> maps_;
  std::string kernel_;

  // Encoded maps by context, map and values; at most kCacheSize, the oldest replaced first.
  struct CacheEntry {
    CUcontext context = nullptr;
    size_t map = 0;
    TensorMapValues values;
    EncodedTensorMap encoded;
  };
  static constexpr size_t kCacheSize = 32;
  mutable std::mutex cacheMutex_;
  mutable std::vector<CacheEntry> cache_;
  mutable size_t cacheNext_ = 0;  // the entry replaced next once the cache is full
};

} // namespace detail
} // namespace tcc
