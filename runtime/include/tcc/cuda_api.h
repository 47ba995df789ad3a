// The few pieces of the CUDA driver API that tcc's runtime and its public headers use,
// declared here so that neither libtccrt nor a program using it needs the CUDA toolkit's
// headers (the driver itself is loaded at run time with dlopen, see tcc/driver.h).
//
// At global scope: the handle types, with typedefs identical to <cuda.h>'s, so a program may
// include <cuda.h> before or after tcc's headers (a C++ typedef may be repeated when it names
// the same type). Nothing else is declared at global scope: no enum, no function.
//
// In namespace tcc::cu: CUresult (an int here; <cuda.h>'s CUresult enumerators convert to it
// implicitly), the constants the runtime uses, with <cuda.h>'s names and values, and the
// function-pointer type of each driver entry point tcc::Driver holds (tcc::cu::cuInit_fn,
// ...). They live in a nested namespace so that `using namespace tcc;` next to <cuda.h>
// makes no name ambiguous.
#pragma once

#include <cstddef>
#include <cstdint>

// ---- Handles (global, as in <cuda.h>) ---------------------------------------------------
#if defined(_WIN64) || defined(__LP64__)
typedef unsigned long long CUdeviceptr_v2;
#else
typedef unsigned int CUdeviceptr_v2;
#endif
typedef CUdeviceptr_v2 CUdeviceptr;
typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUevent_st* CUevent;
typedef struct CUstream_st* CUstream;
typedef struct CUgraph_st* CUgraph;
typedef struct CUgraphExec_st* CUgraphExec;

namespace tcc {
namespace cu {

// <cuda.h>'s CUresult is an enum; here its values as int. Comparisons with <cuda.h>'s
// enumerators (r == CUDA_SUCCESS) and passing them where a cu::CUresult is expected work.
using CUresult = int;
// The enum-typed parameters of the entry points, as int (ABI-identical).
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUjit_option = int;
using CUstreamCaptureMode = int;

// CUresult values (those the runtime tests for or names in messages).
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_DEVICE_UNAVAILABLE = 46;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
constexpr CUresult CUDA_ERROR_ECC_UNCORRECTABLE = 214;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_NVLINK_UNCORRECTABLE = 220;
constexpr CUresult CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr CUresult CUDA_ERROR_JIT_COMPILATION_DISABLED = 223;
constexpr CUresult CUDA_ERROR_INVALID_SOURCE = 300;
constexpr CUresult CUDA_ERROR_SHARED_OBJECT_INIT_FAILED = 303;
constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
constexpr CUresult CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
constexpr CUresult CUDA_ERROR_CONTEXT_IS_DESTROYED = 709;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
constexpr CUresult CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803;
constexpr CUresult CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804;
constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

// CUdevice_attribute.
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute.
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// CUjit_option.
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr CUjit_option CU_JIT_LOG_VERBOSE = 12;

// Stream, event and capture flags.
constexpr unsigned CU_STREAM_DEFAULT = 0x0;
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DEFAULT = 0x0;
constexpr CUstreamCaptureMode CU_STREAM_CAPTURE_MODE_GLOBAL = 0;
constexpr CUstreamCaptureMode CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
constexpr CUstreamCaptureMode CU_STREAM_CAPTURE_MODE_RELAXED = 2;

// TMA tensor maps (cuTensorMapEncodeTiled, CUDA 12.0 and newer): <cuda.h>'s CUtensorMap is a
// struct of 128 bytes that the encoder fills (aligned to 64 bytes at least), taken here as
// void*; cuuint32_t and cuuint64_t are <cuda.h>'s fixed-width unsigned types. The enums'
// values, as int.
using cuuint32_t = std::uint32_t;
using cuuint64_t = std::uint64_t;
using CUtensorMapDataType = int;
using CUtensorMapInterleave = int;
using CUtensorMapSwizzle = int;
using CUtensorMapL2promotion = int;
using CUtensorMapFloatOOBfill = int;
constexpr std::size_t CU_TENSOR_MAP_BYTES = 128; // sizeof(CUtensorMap): 16 qwords
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0;
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1;
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_UINT32 = 2;
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_INT32 = 3;
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_UINT64 = 4;
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_INT64 = 5;
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6;
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7;
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT64 = 8;
constexpr CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9;
constexpr CUtensorMapInterleave CU_TENSOR_MAP_INTERLEAVE_NONE = 0;
constexpr CUtensorMapSwizzle CU_TENSOR_MAP_SWIZZLE_NONE = 0;
constexpr CUtensorMapSwizzle CU_TENSOR_MAP_SWIZZLE_32B = 1;
constexpr CUtensorMapSwizzle CU_TENSOR_MAP_SWIZZLE_64B = 2;
constexpr CUtensorMapSwizzle CU_TENSOR_MAP_SWIZZLE_128B = 3;
constexpr CUtensorMapL2promotion CU_TENSOR_MAP_L2_PROMOTION_NONE = 0;
constexpr CUtensorMapL2promotion CU_TENSOR_MAP_L2_PROMOTION_L2_64B = 1;
constexpr CUtensorMapL2promotion CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2;
constexpr CUtensorMapL2promotion CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3;
constexpr CUtensorMapFloatOOBfill CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0;
constexpr CUtensorMapFloatOOBfill CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA = 1;

// The entry points' types (the symbol each resolves to is in tcc/driver.h). Named <fn>_fn
// after the unversioned name: <cuda.h> maps many names to versioned symbols with macros,
// and cudaTypedefs.h defines PFN_* macros, neither of which these names can collide with.
using cuInit_fn = CUresult (*)(unsigned int flags);
using cuDriverGetVersion_fn = CUresult (*)(int* version);
using cuGetErrorName_fn = CUresult (*)(CUresult error, const char** name);
using cuGetErrorString_fn = CUresult (*)(CUresult error, const char** text);
using cuDeviceGet_fn = CUresult (*)(CUdevice* device, int ordinal);
using cuDeviceGetCount_fn = CUresult (*)(int* count);
using cuDeviceGetName_fn = CUresult (*)(char* name, int len, CUdevice device);
using cuDeviceGetAttribute_fn = CUresult (*)(int* value, CUdevice_attribute attrib,
                                             CUdevice device);
using cuDeviceTotalMem_fn = CUresult (*)(size_t* bytes, CUdevice device);
using cuDevicePrimaryCtxRetain_fn = CUresult (*)(CUcontext* ctx, CUdevice device);
using cuDevicePrimaryCtxRelease_fn = CUresult (*)(CUdevice device);
using cuCtxGetCurrent_fn = CUresult (*)(CUcontext* ctx);
using cuCtxSetCurrent_fn = CUresult (*)(CUcontext ctx);
using cuCtxGetDevice_fn = CUresult (*)(CUdevice* device);
using cuCtxSynchronize_fn = CUresult (*)();
using cuDeviceCanAccessPeer_fn = CUresult (*)(int* canAccessPeer, CUdevice dev,
                                              CUdevice peerDev);
using cuCtxEnablePeerAccess_fn = CUresult (*)(CUcontext peerContext, unsigned int flags);
using cuModuleLoadData_fn = CUresult (*)(CUmodule* module, const void* image);
using cuModuleLoadDataEx_fn = CUresult (*)(CUmodule* module, const void* image,
                                           unsigned int numOptions, CUjit_option* options,
                                           void** optionValues);
using cuModuleUnload_fn = CUresult (*)(CUmodule module);
using cuModuleGetFunction_fn = CUresult (*)(CUfunction* fn, CUmodule module, const char* name);
using cuFuncGetAttribute_fn = CUresult (*)(int* value, CUfunction_attribute attrib, CUfunction fn);
using cuFuncSetAttribute_fn = CUresult (*)(CUfunction fn, CUfunction_attribute attrib, int value);
using cuOccupancyMaxActiveBlocksPerMultiprocessor_fn = CUresult (*)(int* numBlocks, CUfunction fn,
                                                                    int blockSize,
                                                                    size_t dynamicSharedBytes);
using cuLaunchKernel_fn = CUresult (*)(CUfunction fn, unsigned int gridX, unsigned int gridY,
                                       unsigned int gridZ, unsigned int blockX,
                                       unsigned int blockY, unsigned int blockZ,
                                       unsigned int sharedBytes, CUstream stream,
                                       void** params, void** extra);
using cuMemAlloc_fn = CUresult (*)(CUdeviceptr* ptr, size_t bytes);
using cuMemFree_fn = CUresult (*)(CUdeviceptr ptr);
using cuMemGetInfo_fn = CUresult (*)(size_t* free, size_t* total);
using cuMemGetAddressRange_fn = CUresult (*)(CUdeviceptr* base, size_t* size, CUdeviceptr ptr);
using cuMemcpyHtoD_fn = CUresult (*)(CUdeviceptr dst, const void* src, size_t bytes);
using cuMemcpyDtoH_fn = CUresult (*)(void* dst, CUdeviceptr src, size_t bytes);
using cuMemcpyDtoD_fn = CUresult (*)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
using cuMemcpyDtoDAsync_fn = CUresult (*)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                          CUstream stream);
using cuMemsetD8_fn = CUresult (*)(CUdeviceptr dst, unsigned char value, size_t count);
using cuMemsetD32_fn = CUresult (*)(CUdeviceptr dst, unsigned int value, size_t count);
using cuMemsetD8Async_fn = CUresult (*)(CUdeviceptr dst, unsigned char value, size_t count,
                                        CUstream stream);
using cuMemsetD32Async_fn = CUresult (*)(CUdeviceptr dst, unsigned int value, size_t count,
                                         CUstream stream);
using cuStreamCreate_fn = CUresult (*)(CUstream* stream, unsigned int flags);
using cuStreamDestroy_fn = CUresult (*)(CUstream stream);
using cuStreamSynchronize_fn = CUresult (*)(CUstream stream);
using cuEventCreate_fn = CUresult (*)(CUevent* event, unsigned int flags);
using cuEventDestroy_fn = CUresult (*)(CUevent event);
using cuEventRecord_fn = CUresult (*)(CUevent event, CUstream stream);
using cuEventSynchronize_fn = CUresult (*)(CUevent event);
using cuEventElapsedTime_fn = CUresult (*)(float* ms, CUevent start, CUevent end);
using cuStreamBeginCapture_fn = CUresult (*)(CUstream stream, CUstreamCaptureMode mode);
using cuStreamEndCapture_fn = CUresult (*)(CUstream stream, CUgraph* graph);
using cuGraphInstantiate_fn = CUresult (*)(CUgraphExec* exec, CUgraph graph,
                                           unsigned long long flags);
using cuGraphLaunch_fn = CUresult (*)(CUgraphExec exec, CUstream stream);
using cuGraphExecDestroy_fn = CUresult (*)(CUgraphExec exec);
using cuGraphDestroy_fn = CUresult (*)(CUgraph graph);
// Optional (tcc/driver.h): CUDA 12.0 and newer.
using cuTensorMapEncodeTiled_fn = CUresult (*)(void* tensorMap, CUtensorMapDataType dataType,
                                               cuuint32_t rank, void* globalAddress,
                                               const cuuint64_t* globalDim,
                                               const cuuint64_t* globalStrides,
                                               const cuuint32_t* boxDim,
                                               const cuuint32_t* elementStrides,
                                               CUtensorMapInterleave interleave,
                                               CUtensorMapSwizzle swizzle,
                                               CUtensorMapL2promotion l2Promotion,
                                               CUtensorMapFloatOOBfill oobFill);

} // namespace cu
} // namespace tcc
