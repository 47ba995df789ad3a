// The CUDA driver API, reached through a table of entry points loaded at run time with
// dlopen("libcuda.so.1"). Programs built with tccrt therefore start on machines without an
// NVIDIA driver (CI), where driverAvailable() says why nothing can run and the GPU tests skip.
// Neither this header nor libtccrt needs the CUDA toolkit's <cuda.h> (see tcc/cuda_api.h).
#pragma once

#include "tcc/cuda_api.h"

#include <cstddef>
#include <string>

// <cuda.h>, when included before this header, maps many entry-point names to versioned
// symbols with macros (cuMemAlloc -> cuMemAlloc_v2). They are suspended while the table is
// declared, and restored at the end.
#pragma push_macro("cuDeviceTotalMem")
#undef cuDeviceTotalMem
#pragma push_macro("cuDevicePrimaryCtxRelease")
#undef cuDevicePrimaryCtxRelease
#pragma push_macro("cuMemAlloc")
#undef cuMemAlloc
#pragma push_macro("cuMemFree")
#undef cuMemFree
#pragma push_macro("cuMemGetInfo")
#undef cuMemGetInfo
#pragma push_macro("cuMemGetAddressRange")
#undef cuMemGetAddressRange
#pragma push_macro("cuMemcpyHtoD")
#undef cuMemcpyHtoD
#pragma push_macro("cuMemcpyDtoH")
#undef cuMemcpyDtoH
#pragma push_macro("cuMemcpyDtoD")
#undef cuMemcpyDtoD
#pragma push_macro("cuMemcpyDtoDAsync")
#undef cuMemcpyDtoDAsync
#pragma push_macro("cuMemsetD8")
#undef cuMemsetD8
#pragma push_macro("cuMemsetD32")
#undef cuMemsetD32
#pragma push_macro("cuStreamDestroy")
#undef cuStreamDestroy
#pragma push_macro("cuEventDestroy")
#undef cuEventDestroy
#pragma push_macro("cuEventElapsedTime")
#undef cuEventElapsedTime
#pragma push_macro("cuStreamBeginCapture")
#undef cuStreamBeginCapture
#pragma push_macro("cuGraphInstantiate")
#undef cuGraphInstantiate
#pragma push_macro("cuLaunchKernel")
#undef cuLaunchKernel
#pragma push_macro("cuMemsetD8Async")
#undef cuMemsetD8Async
#pragma push_macro("cuMemsetD32Async")
#undef cuMemsetD32Async
#pragma push_macro("cuStreamSynchronize")
#undef cuStreamSynchronize
#pragma push_macro("cuEventRecord")
#undef cuEventRecord
#pragma push_macro("cuStreamEndCapture")
#undef cuStreamEndCapture
#pragma push_macro("cuGraphLaunch")
#undef cuGraphLaunch

namespace tcc {

// X-macro of every driver entry point the runtime, its tests and its benchmarks use, in the
// order they are resolved: X(name, symbol) where the symbol is the name, V(name, symbol) where
// it differs. `symbol` is what the loader resolves with dlsym: the versioned symbol <cuda.h>
// (CUDA 11.4 to 13) maps `name` to, chosen here explicitly (no <cuda.h> needed), with the
// signature tcc::cu::<name>_fn.
#define TCC_DRIVER_ENTRY_LIST(X, V)                                                             \
  X(cuInit, cuInit)                                                                             \
  X(cuDriverGetVersion, cuDriverGetVersion)                                                     \
  X(cuGetErrorName, cuGetErrorName)                                                             \
  X(cuGetErrorString, cuGetErrorString)                                                         \
  X(cuDeviceGet, cuDeviceGet)                                                                   \
  X(cuDeviceGetCount, cuDeviceGetCount)                                                         \
  X(cuDeviceGetName, cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute, cuDeviceGetAttribute)                                                 \
  V(cuDeviceTotalMem, cuDeviceTotalMem_v2)                                                      \
  X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain)                                         \
  V(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2)                                    \
  X(cuCtxGetCurrent, cuCtxGetCurrent)                                                           \
  X(cuCtxSetCurrent, cuCtxSetCurrent)                                                           \
  X(cuCtxGetDevice, cuCtxGetDevice)                                                             \
  X(cuCtxSynchronize, cuCtxSynchronize)                                                         \
  X(cuDeviceCanAccessPeer, cuDeviceCanAccessPeer)                                               \
  X(cuCtxEnablePeerAccess, cuCtxEnablePeerAccess)                                               \
  X(cuModuleLoadData, cuModuleLoadData)                                                         \
  X(cuModuleLoadDataEx, cuModuleLoadDataEx)                                                     \
  X(cuModuleUnload, cuModuleUnload)                                                             \
  X(cuModuleGetFunction, cuModuleGetFunction)                                                   \
  X(cuFuncGetAttribute, cuFuncGetAttribute)                                                     \
  X(cuFuncSetAttribute, cuFuncSetAttribute)                                                     \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, cuOccupancyMaxActiveBlocksPerMultiprocessor)   \
  X(cuLaunchKernel, cuLaunchKernel)                                                             \
  V(cuMemAlloc, cuMemAlloc_v2)                                                                  \
  V(cuMemFree, cuMemFree_v2)                                                                    \
  V(cuMemGetInfo, cuMemGetInfo_v2)                                                              \
  V(cuMemGetAddressRange, cuMemGetAddressRange_v2)                                              \
  V(cuMemcpyHtoD, cuMemcpyHtoD_v2)                                                              \
  V(cuMemcpyDtoH, cuMemcpyDtoH_v2)                                                              \
  V(cuMemcpyDtoD, cuMemcpyDtoD_v2)                                                              \
  V(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2)                                                    \
  V(cuMemsetD8, cuMemsetD8_v2)                                                                  \
  V(cuMemsetD32, cuMemsetD32_v2)                                                                \
  X(cuMemsetD8Async, cuMemsetD8Async)                                                           \
  X(cuMemsetD32Async, cuMemsetD32Async)                                                         \
  X(cuStreamCreate, cuStreamCreate)                                                             \
  V(cuStreamDestroy, cuStreamDestroy_v2)                                                        \
  X(cuStreamSynchronize, cuStreamSynchronize)                                                   \
  X(cuEventCreate, cuEventCreate)                                                               \
  V(cuEventDestroy, cuEventDestroy_v2)                                                          \
  X(cuEventRecord, cuEventRecord)                                                               \
  X(cuEventSynchronize, cuEventSynchronize)                                                     \
  V(cuEventElapsedTime, cuEventElapsedTime_v2)                                                  \
  V(cuStreamBeginCapture, cuStreamBeginCapture_v2)                                              \
  X(cuStreamEndCapture, cuStreamEndCapture)                                                     \
  V(cuGraphInstantiate, cuGraphInstantiateWithFlags)                                            \
  X(cuGraphLaunch, cuGraphLaunch)                                                               \
  X(cuGraphExecDestroy, cuGraphExecDestroy)                                                     \
  X(cuGraphDestroy, cuGraphDestroy)

// Every entry point: X(name, symbol).
#define TCC_DRIVER_ENTRY_POINTS(X) TCC_DRIVER_ENTRY_LIST(X, X)

// Entry points of newer drivers than the table above needs, resolved where the driver has
// them and null otherwise (the runtime says what is missing when a kernel needs one):
// cuTensorMapEncodeTiled (CUDA 12.0) for the TMA tensor maps of a kernel's "tensormaps".
#define TCC_DRIVER_OPTIONAL_ENTRY_POINTS(X) X(cuTensorMapEncodeTiled, cuTensorMapEncodeTiled)

// The entries whose symbol differs from their name (V above). The table holds each of them
// under both names (the same pointer): code compiled after <cuda.h> writes
// driver().cuMemAlloc(...), which its macro turns into driver().cuMemAlloc_v2(...); code
// without <cuda.h> keeps cuMemAlloc. Both compile, in either include order. (<cuda.h> with
// CUDA_API_PER_THREAD_DEFAULT_STREAM is not supported: the table holds the legacy
// default-stream symbols.)
#define TCC_DRIVER_NO_ENTRY(name, symbol)
#define TCC_DRIVER_VERSIONED_ENTRY_POINTS(X) TCC_DRIVER_ENTRY_LIST(TCC_DRIVER_NO_ENTRY, X)

struct Driver {
#define TCC_DRIVER_MEMBER(name, symbol) cu::name##_fn name = nullptr;
  TCC_DRIVER_ENTRY_POINTS(TCC_DRIVER_MEMBER)
#undef TCC_DRIVER_MEMBER
#define TCC_DRIVER_ALIAS(name, symbol) cu::name##_fn symbol = nullptr;
  TCC_DRIVER_VERSIONED_ENTRY_POINTS(TCC_DRIVER_ALIAS)
#undef TCC_DRIVER_ALIAS
#define TCC_DRIVER_MEMBER(name, symbol) cu::name##_fn name = nullptr;
  TCC_DRIVER_OPTIONAL_ENTRY_POINTS(TCC_DRIVER_MEMBER) // null where the driver lacks them
#undef TCC_DRIVER_MEMBER
};

// True when the driver library loaded, every entry point resolved, cuInit(0) succeeded and
// at least one device exists; otherwise false, with the reason in *why. Never throws.
bool driverAvailable(std::string* why = nullptr);

// The entry-point table (loading the driver and calling cuInit on first use). Throws
// tcc::Error with the reason when the driver is unusable.
const Driver& driver();

// Makes sure a CUDA context is current on this thread and returns it: the current one if
// there is one, otherwise the primary context of device $TCC_DEVICE (default 0), retained
// for the life of the process. A TCC_DEVICE that is not a whole number or names no device
// is a tcc::Error saying how many devices the driver sees.
CUcontext ensureContext();

// The explicit device choice: makes device `ordinal`'s primary context (retained for the
// life of the process) current on this thread and returns it; later launches from this
// thread go to that device, whatever TCC_DEVICE says. Throws tcc::Error for an ordinal the
// driver does not have. One thread per device: call it at the top of each thread.
CUcontext useDevice(int ordinal);

// useDevice(ordinal) for a scope: the context current before (or none) is current again
// afterwards.
class DeviceScope {
public:
  explicit DeviceScope(int ordinal);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

private:
  CUcontext previous_ = nullptr;
};

// The ordinal (0 .. deviceCount()-1) of the current context's device (after ensureContext()).
int currentDeviceOrdinal();

// Lets kernels running on device `device` read and write memory allocated on device `peer`
// (cuCtxEnablePeerAccess from device's primary context to peer's): true once enabled (also
// when it already was), false with the reason in *why where the hardware cannot (no
// NVLink/PCIe peer path, or device == peer). Leaves the current context as it was. Throws
// tcc::Error for ordinals the driver does not have, or a driver failure.
bool enablePeerAccess(int device, int peer, std::string* why = nullptr);

// The device of the current context (after ensureContext()).
CUdevice currentDevice();

// "NVIDIA H200 (sm_90)" for the current device.
std::string deviceDescription();

// Compute capability of the current device as major*10+minor (90 for an H200).
int deviceComputeCapability();

// ---- What `tcc doctor` reports (no context is created by these) --------------------------

// The CUDA version the installed driver supports, as cuDriverGetVersion reports it (13000
// for CUDA 13.0). Needs only the driver library, not a device. Throws tcc::Error saying why
// when the driver cannot be loaded (no libcuda.so.1) or does not answer.
int driverVersion();

// The number of CUDA devices the driver sees; 0 when there is no usable driver or no device
// (driverAvailable(&why) then says why). Never throws.
int deviceCount();

struct DeviceInfo {
  int ordinal = 0;
  std::string name;           // "NVIDIA H200"
  int computeCapability = 0;  // major*10+minor: 90
  size_t totalMemory = 0;     // bytes
  int smCount = 0;            // multiprocessors
};

// Device `ordinal` (0 .. deviceCount()-1). Throws tcc::Error without a usable driver or for
// an ordinal out of range.
DeviceInfo deviceInfo(int ordinal);

} // namespace tcc

#pragma pop_macro("cuGraphLaunch")
#pragma pop_macro("cuStreamEndCapture")
#pragma pop_macro("cuEventRecord")
#pragma pop_macro("cuStreamSynchronize")
#pragma pop_macro("cuMemsetD32Async")
#pragma pop_macro("cuMemsetD8Async")
#pragma pop_macro("cuLaunchKernel")
#pragma pop_macro("cuGraphInstantiate")
#pragma pop_macro("cuStreamBeginCapture")
#pragma pop_macro("cuEventElapsedTime")
#pragma pop_macro("cuEventDestroy")
#pragma pop_macro("cuStreamDestroy")
#pragma pop_macro("cuMemsetD32")
#pragma pop_macro("cuMemsetD8")
#pragma pop_macro("cuMemcpyDtoDAsync")
#pragma pop_macro("cuMemcpyDtoD")
#pragma pop_macro("cuMemcpyDtoH")
#pragma pop_macro("cuMemcpyHtoD")
#pragma pop_macro("cuMemGetAddressRange")
#pragma pop_macro("cuMemGetInfo")
#pragma pop_macro("cuMemFree")
#pragma pop_macro("cuMemAlloc")
#pragma pop_macro("cuDevicePrimaryCtxRelease")
#pragma pop_macro("cuDeviceTotalMem")
