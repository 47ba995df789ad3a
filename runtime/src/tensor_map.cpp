#include "tensor_map.h"

#include "tcc/driver.h"
#include "tcc/error.h"

#include <cstdio>
#include <cstring>

namespace tcc {
namespace detail {
using namespace cu;
namespace {

constexpr int64_t kMaxDim = int64_t(1) << 32;     // TMA: 1 <= extent <= 2^32
constexpr int64_t kStrideLimit = int64_t(1) << 40; // TMA: stride < 2^40, a multiple of 16

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

template <typename T>
std::string list(const T* v, size_t n) {
  std::string s = "[";
  for (size_t i = 0; i < n; ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string describeValues(const TensorMapValues& v) {
  return "address " + hex(v.address) + ", dims " + list(v.dims, size_t(v.rank)) +
         ", strides_bytes " + list(v.strides, size_t(v.rank > 0 ? v.rank - 1 : 0));
}

} // namespace

bool TensorMapValues::operator==(const TensorMapValues& o) const {
  if (address != o.address || rank != o.rank)
    return false;
  for (int d = 0; d < rank; ++d)
    if (dims[d] != o.dims[d] || (d + 1 < rank && strides[d] != o.strides[d]))
      return false;
  return true;
}

void TensorMaps::fail(const std::string& doing, const std::string& detail) const {
  throw Error(doing, detail, kernel_);
}

std::string TensorMaps::describe(size_t i) const {
  const Map& m = maps_[i];
  return "tensor map " + std::to_string(i) + " of '" + m.paramName + "' (" + m.info.dtype +
         ", box " + list(m.info.box.data(), m.info.box.size()) + ")";
}

std::string TensorMaps::evaluate(const int64_t* slots, const uint64_t* paramBits,
                                 std::vector<TensorMapValues>* out) const {
  out->resize(maps_.size());
  for (size_t i = 0; i < maps_.size(); ++i) {
    const Map& m = maps_[i];
    TensorMapValues& v = (*out)[i];
    v.address = paramBits[m.info.paramIndex];
    v.rank = static_cast<int>(m.info.dims.size());
    int64_t dims[kMaxTensorMapRank] = {}, strides[kMaxTensorMapRank - 1] = {};
    for (int d = 0; d < v.rank; ++d) {
      std::string err;
      if (!grid::evaluate(m.dims[d], slots, &dims[d], &err))
        return describe(i) + ": dims[" + std::to_string(d) + "]: " + err;
      v.dims[d] = static_cast<uint64_t>(dims[d]);
      if (d + 1 < v.rank) {
        if (!grid::evaluate(m.strides[d], slots, &strides[d], &err))
          return describe(i) + ": strides_bytes[" + std::to_string(d) + "]: " + err;
        v.strides[d] = static_cast<uint64_t>(strides[d]);
      }
    }
    // What cuTensorMapEncodeTiled requires of the values (its documentation), in the order
    // a reader would look: the base, the extents, the strides.
    std::string why;
    if (v.address % 16 != 0)
      why = "the address " + hex(v.address) + " passed for '" + m.paramName +
            "' is not 16-byte aligned (TMA needs a 16-byte aligned base)";
    for (int d = 0; why.empty() && d < v.rank; ++d)
      if (dims[d] < 1 || dims[d] > kMaxDim)
        why = "dims[" + std::to_string(d) + "] ('" + m.info.dims[d] + "') is " +
              std::to_string(dims[d]) + ", outside 1..2^32 (TMA's extents)";
    for (int d = 0; why.empty() && d + 1 < v.rank; ++d)
      if (strides[d] % 16 != 0 || strides[d] <= 0 || strides[d] >= kStrideLimit)
        why = "strides_bytes[" + std::to_string(d) + "] ('" + m.info.stridesBytes[d] + "') is " +
              std::to_string(strides[d]) +
              (strides[d] % 16 != 0 ? ", not a multiple of 16"
               : strides[d] <= 0    ? ", not positive"
                                    : ", not below 2^40") +
              " (TMA's strides are positive multiples of 16 bytes below 2^40)";
    if (!why.empty()) {
      // The values in full: those that failed may be negative, shown as the signed values.
      std::string shown = "address " + hex(v.address) + ", dims " +
                          list(dims, size_t(v.rank)) + ", strides_bytes " +
                          list(strides, size_t(v.rank - 1));
      return describe(i) + ": " + why + "; " + shown;
    }
  }
  return "";
}

void TensorMaps::encode(const std::vector<TensorMapValues>& values, EncodedTensorMap* out) const {
  const Driver& d = driver();
  if (!d.cuTensorMapEncodeTiled) {
    std::string version;
    try {
      int v = driverVersion();
      version = " (this one is CUDA " + std::to_string(v / 1000) + "." +
                std::to_string(v % 1000 / 10) + ")";
    } catch (const Error&) {
    }
    fail("encoding the TMA tensor map of '" + maps_.front().paramName + "'",
         "the CUDA driver lacks cuTensorMapEncodeTiled: kernels with TMA tensor maps need the "
         "driver of CUDA 12.0 or newer" + version);
  }
  CUcontext context = nullptr;
  check(d.cuCtxGetCurrent(&context), "querying the current CUDA context", kernel_);
  std::lock_guard<std::mutex> lock(cacheMutex_);
  for (size_t i = 0; i < maps_.size(); ++i) {
    const TensorMapValues& v = values[i];
    bool found = false;
    for (const CacheEntry& e : cache_)
      if (e.context == context && e.map == i && e.values == v) {
        out[i] = e.encoded;
        found = true;
        break;
      }
    if (found)
      continue;
    const Map& m = maps_[i];
    const TensorMapInfo& info = m.info;
    cuuint32_t box[kMaxTensorMapRank], elementStrides[kMaxTensorMapRank];
    for (int k = 0; k < v.rank; ++k) {
      box[k] = static_cast<cuuint32_t>(info.box[k]);
      elementStrides[k] = 1;
    }
    int swizzle = info.swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                  : info.swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                  : info.swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                       : CU_TENSOR_MAP_SWIZZLE_NONE;
    int l2 = info.l2Promotion == 256  ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
             : info.l2Promotion == 128 ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B
             : info.l2Promotion == 64  ? CU_TENSOR_MAP_L2_PROMOTION_L2_64B
                                       : CU_TENSOR_MAP_L2_PROMOTION_NONE;
    EncodedTensorMap encoded;
    std::memset(encoded.bytes, 0, sizeof encoded.bytes);
    CUresult r = d.cuTensorMapEncodeTiled(
        encoded.bytes, m.dataType, static_cast<cuuint32_t>(v.rank),
        reinterpret_cast<void*>(static_cast<uintptr_t>(v.address)), v.dims, v.strides, box,
        elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, l2,
        info.oobFillNan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                        : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      const char* name = nullptr;
      const char* text = nullptr;
      if (d.cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
        name = "CUDA_ERROR_UNKNOWN";
      if (d.cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
        text = "unknown error";
      throw Error("encoding the TMA tensor map of '" + m.paramName + "'",
                  "cuTensorMapEncodeTiled failed: " + std::string(name) + " (" + text + ") for " +
                      describe(i) + " with " + describeValues(v) + ", swizzle " +
                      std::to_string(info.swizzle) + ", l2_promotion " +
                      std::to_string(info.l2Promotion) + ", oob_fill " +
                      (info.oobFillNan ? "nan" : "zero"),
                  kernel_, r, name);
    }
    out[i] = encoded;
    CacheEntry entry;
    entry.context = context;
    entry.map = i;
    entry.values = v;
    entry.encoded = encoded;
    if (cache_.size() < kCacheSize) {
      cache_.push_back(entry);
    } else {
      cache_[cacheNext_] = entry;
      cacheNext_ = (cacheNext_ + 1) % kCacheSize;
    }
  }
}

} // namespace detail
} // namespace tcc
