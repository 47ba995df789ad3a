// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s

// tanh and erf have no PTX instruction accurate to f32 and no LLVM lowering without
// libdevice: they become polynomial arithmetic (FMAs, one div.full per rational
// approximation, selects for the ends of the range); f16 goes through f32. floor, ceil
// and fma are single instructions; maximumf/minimumf (propagate_nan=ALL) the
// NaN-propagating intrinsics, maxnumf/minnumf (the default) the NaN-ignoring ones.

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @tanh(%x: tensor<32xf32, #b>) -> f32 attributes {tile.num_warps = 1 : i32} {
  %t = math.tanh %x : tensor<32xf32, #b>
  %s = tile.reduce sum %t, axis 0 : tensor<32xf32, #b> -> f32
  return %s : f32
}
// CHECK-LABEL: llvm.func @tanh(
// CHECK-NOT:   math.tanh
// CHECK:       llvm.intr.fma
// CHECK:       llvm.call_intrinsic "llvm.nvvm.div.full"
// CHECK:       llvm.select
// CHECK-NOT:   llvm.call_intrinsic "llvm.nvvm.div.full"
// CHECK:       llvm.return

func.func @erf(%x: tensor<32xf32, #b>) -> f32 attributes {tile.num_warps = 1 : i32} {
  %e = math.erf %x : tensor<32xf32, #b>
  %s = tile.reduce sum %e, axis 0 : tensor<32xf32, #b> -> f32
  return %s : f32
}
// CHECK-LABEL: llvm.func @erf(
// CHECK-NOT:   math.erf
// CHECK:       llvm.fcmp "olt"
// CHECK:       llvm.intr.fma
// CHECK:       llvm.call_intrinsic "llvm.nvvm.div.full"
// CHECK:       llvm.return

func.func @tanh_f16(%h: tensor<32xf16, #b>) -> f16 attributes {tile.num_warps = 1 : i32} {
  %t = math.tanh %h : tensor<32xf16, #b>
  %s = tile.reduce sum %t, axis 0 : tensor<32xf16, #b> -> f16
  return %s : f16
}
// CHECK-LABEL: llvm.func @tanh_f16(
// CHECK:       llvm.fpext %{{.*}} : f16 to f32
// CHECK:       llvm.intr.fma(%{{.*}}) : (f32, f32, f32) -> f32
// CHECK:       llvm.fptrunc %{{.*}} : f32 to f16

func.func @rounding(%x: tensor<32xf32, #b>, %y: tensor<32xf32, #b>) -> f32 attributes {tile.num_warps = 1 : i32} {
  %f = math.floor %x : tensor<32xf32, #b>
  %c = math.ceil %f : tensor<32xf32, #b>
  %a = math.fma %c, %x, %y : tensor<32xf32, #b>
  %m = arith.maximumf %a, %x : tensor<32xf32, #b>
  %n = arith.minimumf %m, %y : tensor<32xf32, #b>
  %p = arith.maxnumf %n, %x : tensor<32xf32, #b>
  %q = arith.minnumf %p, %y : tensor<32xf32, #b>
  %s = tile.reduce sum %q, axis 0 : tensor<32xf32, #b> -> f32
  return %s : f32
}
// CHECK-LABEL: llvm.func @rounding(
// CHECK:       %[[F:.*]] = llvm.intr.floor(%{{.*}}) : (f32) -> f32
// CHECK:       %[[C:.*]] = llvm.intr.ceil(%[[F]]) : (f32) -> f32
// CHECK:       %[[A:.*]] = llvm.intr.fma(%[[C]], %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK:       %[[M:.*]] = llvm.intr.maximum(%[[A]], %{{.*}}) : (f32, f32) -> f32
// CHECK:       %[[N:.*]] = llvm.intr.minimum(%[[M]], %{{.*}}) : (f32, f32) -> f32
// CHECK:       %[[P:.*]] = llvm.intr.maxnum(%[[N]], %{{.*}}) : (f32, f32) -> f32
// CHECK:       llvm.intr.minnum(%[[P]], %{{.*}}) : (f32, f32) -> f32
