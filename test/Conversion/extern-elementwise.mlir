// RUN: tile-opt %s -convert-tile-to-nvvm=per-thread-only | FileCheck %s
// RUN: env TCC_LIBDEVICE=%t.missing.bc not tile-opt %s -convert-tile-to-nvvm=per-thread-only 2>&1 | FileCheck %s --check-prefix=MISSING
// REQUIRES: libdevice

// tile.extern_elementwise: one call of the libdevice function per register, declared in
// the module (linked from libdevice.10.bc when the LLVM module is built).

#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @asin(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #b>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #b>, tensor<64xi32, #b>
  %x = tile.load %pp : tensor<64x!tile.ptr<f32>, #b>
  %y = tile.extern_elementwise "__nv_asinf"(%x) : tensor<64xf32, #b> -> tensor<64xf32, #b>
  tile.store %pp, %y : tensor<64x!tile.ptr<f32>, #b>
  return
}

// CHECK: llvm.func @__nv_asinf(f32) -> f32
// CHECK-LABEL: llvm.func @asin(
// CHECK: llvm.call @__nv_asinf(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call @__nv_asinf(%{{.*}}) : (f32) -> f32
// CHECK-NOT: llvm.call

// MISSING: error: libdevice.asin (__nv_asinf) is a function of CUDA's libdevice, and tcc found no libdevice.10.bc (looked at: {{.*}}missing.bc); set TCC_LIBDEVICE to the file or CUDA_HOME to the toolkit
