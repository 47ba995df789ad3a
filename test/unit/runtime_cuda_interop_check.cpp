// A program may include <cuda.h> and tcc's headers, in either order, in one translation
// unit and across several: compiled twice, with TCC_CUDA_FIRST defined (<cuda.h> first) and
// without (tcc's headers first), linked into one program. Checks at compile time that the
// handle types are <cuda.h>'s, that every entry point's type in tcc::Driver (the optional
// ones too) matches the declaration <cuda.h> maps its name to (enums as int, CUtensorMap* as
// void*), and that the constants agree.
#ifdef TCC_CUDA_FIRST
#include <cuda.h>
#include <tcc/tcc.h>
#else
#include <tcc/tcc.h>
#include <cuda.h>
#endif

#include <cstdio>
#include <type_traits>

namespace {

// A driver function type with <cuda.h>'s enums (CUresult, CUdevice_attribute, ...) as int.
template <typename T, typename = void>
struct Norm {
  using type = T;
};
template <typename T>
struct Norm<T, std::enable_if_t<std::is_enum_v<T>>> {
  static_assert(sizeof(T) == sizeof(int), "a driver enum is int-sized");
  using type = int;
};
template <typename T>
struct Norm<T*> {
  using type = typename Norm<T>::type*;
};
template <typename T>
struct Norm<const T> {
  using type = const typename Norm<T>::type;
};
template <typename R, typename... A>
struct Norm<R (*)(A...)> {
  using type = typename Norm<R>::type (*)(typename Norm<A>::type...);
};

// The tensor map the encoder fills, taken as void* (tcc::cu has no CUtensorMap).
template <>
struct Norm<CUtensorMap*> {
  using type = void*;
};

// Every entry: <cuda.h>'s declaration of the exact symbol tcc resolves.
#define TCC_CHECK_ENTRY(name, symbol)                                                           \
  static_assert(std::is_same_v<Norm<decltype(&::symbol)>::type, tcc::cu::name##_fn>,             \
                "tcc::cu::" #name "_fn differs from <cuda.h>'s " #symbol);
TCC_DRIVER_ENTRY_POINTS(TCC_CHECK_ENTRY)
TCC_DRIVER_OPTIONAL_ENTRY_POINTS(TCC_CHECK_ENTRY)
#undef TCC_CHECK_ENTRY
static_assert(sizeof(CUtensorMap) == tcc::cu::CU_TENSOR_MAP_BYTES, "");

#define TCC_CHECK_CONSTANT(c)                                                                   \
  static_assert(static_cast<int>(::c) == static_cast<int>(tcc::cu::c), #c);
TCC_CHECK_CONSTANT(CUDA_SUCCESS)
TCC_CHECK_CONSTANT(CUDA_ERROR_INVALID_VALUE)
TCC_CHECK_CONSTANT(CUDA_ERROR_OUT_OF_MEMORY)
TCC_CHECK_CONSTANT(CUDA_ERROR_NOT_INITIALIZED)
TCC_CHECK_CONSTANT(CUDA_ERROR_DEINITIALIZED)
TCC_CHECK_CONSTANT(CUDA_ERROR_STUB_LIBRARY)
TCC_CHECK_CONSTANT(CUDA_ERROR_NO_DEVICE)
TCC_CHECK_CONSTANT(CUDA_ERROR_INVALID_DEVICE)
TCC_CHECK_CONSTANT(CUDA_ERROR_INVALID_IMAGE)
TCC_CHECK_CONSTANT(CUDA_ERROR_INVALID_CONTEXT)
TCC_CHECK_CONSTANT(CUDA_ERROR_NO_BINARY_FOR_GPU)
TCC_CHECK_CONSTANT(CUDA_ERROR_INVALID_PTX)
TCC_CHECK_CONSTANT(CUDA_ERROR_JIT_COMPILER_NOT_FOUND)
TCC_CHECK_CONSTANT(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
TCC_CHECK_CONSTANT(CUDA_ERROR_JIT_COMPILATION_DISABLED)
TCC_CHECK_CONSTANT(CUDA_ERROR_INVALID_SOURCE)
TCC_CHECK_CONSTANT(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED)
TCC_CHECK_CONSTANT(CUDA_ERROR_INVALID_HANDLE)
TCC_CHECK_CONSTANT(CUDA_ERROR_NOT_FOUND)
TCC_CHECK_CONSTANT(CUDA_ERROR_ILLEGAL_ADDRESS)
TCC_CHECK_CONSTANT(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
TCC_CHECK_CONSTANT(CUDA_ERROR_LAUNCH_FAILED)
TCC_CHECK_CONSTANT(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)
TCC_CHECK_CONSTANT(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)
TCC_CHECK_CONSTANT(CUDA_ERROR_UNKNOWN)
TCC_CHECK_CONSTANT(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
TCC_CHECK_CONSTANT(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
TCC_CHECK_CONSTANT(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)
TCC_CHECK_CONSTANT(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
TCC_CHECK_CONSTANT(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
TCC_CHECK_CONSTANT(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
TCC_CHECK_CONSTANT(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
TCC_CHECK_CONSTANT(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
TCC_CHECK_CONSTANT(CU_FUNC_ATTRIBUTE_NUM_REGS)
TCC_CHECK_CONSTANT(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
TCC_CHECK_CONSTANT(CU_JIT_INFO_LOG_BUFFER)
TCC_CHECK_CONSTANT(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
TCC_CHECK_CONSTANT(CU_JIT_ERROR_LOG_BUFFER)
TCC_CHECK_CONSTANT(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
TCC_CHECK_CONSTANT(CU_JIT_LOG_VERBOSE)
TCC_CHECK_CONSTANT(CU_STREAM_DEFAULT)
TCC_CHECK_CONSTANT(CU_STREAM_NON_BLOCKING)
TCC_CHECK_CONSTANT(CU_EVENT_DEFAULT)
TCC_CHECK_CONSTANT(CU_STREAM_CAPTURE_MODE_GLOBAL)
TCC_CHECK_CONSTANT(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
TCC_CHECK_CONSTANT(CU_STREAM_CAPTURE_MODE_RELAXED)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_UINT8)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_UINT16)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_UINT32)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_INT32)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_UINT64)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_INT64)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_FLOAT16)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_FLOAT32)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_FLOAT64)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_INTERLEAVE_NONE)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_SWIZZLE_NONE)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_SWIZZLE_32B)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_SWIZZLE_64B)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_SWIZZLE_128B)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_L2_PROMOTION_NONE)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_L2_PROMOTION_L2_64B)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_L2_PROMOTION_L2_128B)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_L2_PROMOTION_L2_256B)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
TCC_CHECK_CONSTANT(CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
#undef TCC_CHECK_CONSTANT

static_assert(std::is_same_v<CUdeviceptr, CUdeviceptr_v2> && std::is_same_v<CUdevice, int>, "");

// Code written against <cuda.h>: its names and macros with tcc's table and errors.
int useTogether() {
  using namespace tcc; // CUresult, CUDA_SUCCESS, ... stay unambiguous
  std::string why;
  if (!driverAvailable(&why))
    return 0;
  const Driver& d = driver();
  ensureContext(); // a real driver allocates only in a current context
  CUdeviceptr p = 0;
  CUresult r = static_cast<CUresult>(d.cuMemAlloc(&p, 256)); // cuMemAlloc_v2 by the macro
  if (r != CUDA_SUCCESS)
    return 1;
  check(d.cuMemsetD32(p, 0, 64), "clearing");
  check(d.cuMemFree(p), "freeing");
  CUstream s = nullptr;
  check(d.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "creating a stream");
  check(d.cuStreamSynchronize(s), "waiting");
  check(d.cuStreamDestroy(s), "destroying a stream");
  int major = 0;
  check(d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                               currentDevice()),
        "querying");
  try {
    check(CUDA_ERROR_INVALID_VALUE, "provoking an error");
  } catch (const Error& e) {
    if (e.code() != CUDA_ERROR_INVALID_VALUE)
      return 1;
  }
  return major > 0 ? 0 : 1;
}

} // namespace

#ifdef TCC_CUDA_FIRST
int interopFirst() { return useTogether(); }
#else
int interopFirst();
int main() {
  int a = interopFirst(), b = useTogether();
  std::printf("<cuda.h> interoperability check: %s\n", a == 0 && b == 0 ? "ok" : "FAILED");
  return a == 0 && b == 0 ? 0 : 1;
}
#endif
