// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s

// Transcendental functions use the special-function unit, as Triton does without
// libdevice: exp(x) = ex2.approx(x * log2(e)), exp2(x) = ex2.approx.ftz(x) (subnormal
// results flushed to zero, as Triton's tl.math.exp2), log(x) = lg2.approx(x) * ln(2); f16
// and bf16 compute in f32; sqrt stays correctly rounded.

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @math(%x: tensor<32xf32, #b>, %h: tensor<32xf16, #b>) -> (f32) attributes {tile.num_warps = 1 : i32} {
  %e = math.exp %x : tensor<32xf32, #b>
  %e2 = math.exp2 %e : tensor<32xf32, #b>
  %l = math.log %e2 : tensor<32xf32, #b>
  %l2 = math.log2 %l : tensor<32xf32, #b>
  %r = math.rsqrt %l2 : tensor<32xf32, #b>
  %s = math.sqrt %r : tensor<32xf32, #b>
  %sn = math.sin %s : tensor<32xf32, #b>
  %cs = math.cos %sn : tensor<32xf32, #b>
  %a = math.absf %cs : tensor<32xf32, #b>
  %he = math.exp %h : tensor<32xf16, #b>
  %hx = arith.extf %he : tensor<32xf16, #b> to tensor<32xf32, #b>
  %sum = arith.addf %a, %hx : tensor<32xf32, #b>
  %t = tile.reduce sum %sum, axis 0 : tensor<32xf32, #b> -> f32
  return %t : f32
}

// CHECK-LABEL: llvm.func @math(
// CHECK: %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// CHECK: %[[M:.*]] = llvm.fmul %{{.*}}, %[[LOG2E]] : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[M]]) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK: %[[LG:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: %[[LN2:.*]] = llvm.mlir.constant(0.693147182 : f32) : f32
// CHECK: llvm.fmul %[[LG]], %[[LN2]] : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
// CHECK: llvm.intr.sqrt
// CHECK: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.cos.approx.f"
// CHECK: llvm.intr.fabs
// CHECK: %[[W:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.fmul %[[W]], %{{.*}} : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: llvm.fptrunc %{{.*}} : f32 to f16
