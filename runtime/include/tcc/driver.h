// The CUDA driver API, reached through a table of entry points loaded at run time with
// dlopen("libcuda.so.1"). Programs built with tccrt therefore start on machines without an
// NVIDIA driver (CI), where driverStatus() says why nothing can run and the GPU tests skip.
#pragma once

#include <cuda.h>

#include <string>

namespace tcc {

// X-macro of every driver entry point the runtime, its tests and its benchmarks use. Names
// are those of <cuda.h>, whose macros map some of them to versioned symbols (cuMemAlloc →
// cuMemAlloc_v2); the loader resolves exactly the symbol the header means.
#define TCC_DRIVER_ENTRY_POINTS(X)                                                              \
  X(cuInit)                                                                                     \
  X(cuDriverGetVersion)                                                                         \
  X(cuGetErrorName)                                                                             \
  X(cuGetErrorString)                                                                           \
  X(cuDeviceGet)                                                                                \
  X(cuDeviceGetCount)                                                                           \
  X(cuDeviceGetName)                                                                            \
  X(cuDeviceGetAttribute)                                                                       \
  X(cuDeviceTotalMem)                                                                           \
  X(cuDevicePrimaryCtxRetain)                                                                   \
  X(cuDevicePrimaryCtxRelease)                                                                  \
  X(cuCtxGetCurrent)                                                                            \
  X(cuCtxSetCurrent)                                                                            \
  X(cuCtxGetDevice)                                                                             \
  X(cuCtxSynchronize)                                                                           \
  X(cuModuleLoadData)                                                                           \
  X(cuModuleUnload)                                                                             \
  X(cuModuleGetFunction)                                                                        \
  X(cuFuncGetAttribute)                                                                         \
  X(cuFuncSetAttribute)                                                                         \
  X(cuLaunchKernel)                                                                             \
  X(cuMemAlloc)                                                                                 \
  X(cuMemFree)                                                                                  \
  X(cuMemGetInfo)                                                                               \
  X(cuMemcpyHtoD)                                                                               \
  X(cuMemcpyDtoH)                                                                               \
  X(cuMemcpyDtoD)                                                                               \
  X(cuMemcpyDtoDAsync)                                                                          \
  X(cuMemsetD8)                                                                                 \
  X(cuMemsetD32)                                                                                \
  X(cuMemsetD8Async)                                                                            \
  X(cuMemsetD32Async)                                                                           \
  X(cuStreamCreate)                                                                             \
  X(cuStreamDestroy)                                                                            \
  X(cuStreamSynchronize)                                                                        \
  X(cuEventCreate)                                                                              \
  X(cuEventDestroy)                                                                             \
  X(cuEventRecord)                                                                              \
  X(cuEventSynchronize)                                                                         \
  X(cuEventElapsedTime)                                                                         \
  X(cuStreamBeginCapture)                                                                       \
  X(cuStreamEndCapture)                                                                         \
  X(cuGraphInstantiate)                                                                         \
  X(cuGraphLaunch)                                                                              \
  X(cuGraphExecDestroy)                                                                         \
  X(cuGraphDestroy)

struct Driver {
#define TCC_DRIVER_MEMBER(fn) decltype(&::fn) fn = nullptr;
  TCC_DRIVER_ENTRY_POINTS(TCC_DRIVER_MEMBER)
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
// for the life of the process.
CUcontext ensureContext();

// The device of the current context (after ensureContext()).
CUdevice currentDevice();

// "NVIDIA H200 (sm_90)" for the current device.
std::string deviceDescription();

// Compute capability of the current device as major*10+minor (90 for an H200).
int deviceComputeCapability();

} // namespace tcc
