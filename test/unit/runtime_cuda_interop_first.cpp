// <cuda.h> first, then tcc's headers: see runtime_cuda_interop_check.cpp.
#define TCC_CUDA_FIRST
#include "runtime_cuda_interop_check.cpp"
