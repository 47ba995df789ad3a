// Launchers of kernels.cpp, for main.cpp.
#pragma once

#include <tcc/embedded.h> // CUstream, CUdeviceptr

#include <cstdint>

void twoAddOne(CUstream s, CUdeviceptr x, int32_t n);
void twoScale(CUstream s, CUdeviceptr x, int32_t n, float factor);
void multiAxpy(CUstream s, float a, CUdeviceptr x, CUdeviceptr y, int32_t n);
