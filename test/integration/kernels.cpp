// two_kernels.tile (one header, launchers two::add_one and two::scale) and axpy.tile built
// for sm_80, sm_90 and sm_90a (one header; the launcher picks the variant the GPU runs).
#include "kernels.h"

#include <two_kernels.h>
#include <axpy.h>

void twoAddOne(CUstream s, CUdeviceptr x, int32_t n) { two::add_one(s, x, n); }
void twoScale(CUstream s, CUdeviceptr x, int32_t n, float factor) { two::scale(s, x, n, factor); }
void multiAxpy(CUstream s, float a, CUdeviceptr x, CUdeviceptr y, int32_t n) {
  multi::axpy(s, a, x, y, n);
}
