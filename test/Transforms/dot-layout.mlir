// RUN: tile-opt %s -split-input-file -tile-assign-layouts | FileCheck %s

// tile.dot gets an accumulator layout with a block per thread (tm x tn, as square as
// the threads allow, tn >= tm; at most 4x4 per repetition, lanes along N first), and a
// loop-carried accumulator takes it from its initial value on: no conversion on the
// loop-carried path. 64x64 over 128 threads: 4x8 per thread (4x4, 2 repetitions along N).

// CHECK-DAG: #[[ACC:.*]] = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @loop
// CHECK: %[[Z:.*]] = tile.convert_layout %{{.*}} -> tensor<64x64xf32, #[[ACC]]>
// CHECK: scf.for {{.*}} iter_args(%[[ACCV:.*]] = %[[Z]]) -> (tensor<64x64xf32, #[[ACC]]>)
// CHECK-NOT: tile.convert_layout %[[ACCV]]
// CHECK: tile.dot %{{.*}}, %{{.*}}, %[[ACCV]] : {{.*}} -> tensor<64x64xf32, #[[ACC]]>
// CHECK-NEXT: scf.yield %{{.*}} : tensor<64x64xf32, #[[ACC]]>
func.func @loop(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %n: i32) -> f32 attributes {tile.num_warps = 4 : i32} {
  %sa = tile.splat %pa : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %a = tile.load %sa : tensor<64x32x!tile.ptr<f16>>
  %sb = tile.splat %pb : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %b = tile.load %sb : tensor<32x64x!tile.ptr<f16>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %s = tile.reduce sum %r, axis 1 : tensor<64x64xf32> -> tensor<64xf32>
  %t = tile.reduce sum %s, axis 0 : tensor<64xf32> -> f32
  return %t : f32
}

// -----

// 128x128 over 256 threads: 8x8 per thread (4x4, 2x2 repetitions); 32x32 over 128
// threads: 2x4.

// CHECK-DAG: #[[BIG:.*]] = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @big
// CHECK: tile.dot {{.*}} -> tensor<128x128xf32, #[[BIG]]>
func.func @big(%pa: !tile.ptr<f32>, %pb: !tile.ptr<f32>) -> f32 attributes {tile.num_warps = 8 : i32} {
  %sa = tile.splat %pa : !tile.ptr<f32> -> tensor<128x32x!tile.ptr<f32>>
  %a = tile.load %sa : tensor<128x32x!tile.ptr<f32>>
  %sb = tile.splat %pb : !tile.ptr<f32> -> tensor<32x128x!tile.ptr<f32>>
  %b = tile.load %sb : tensor<32x128x!tile.ptr<f32>>
  %acc = arith.constant dense<0.0> : tensor<128x128xf32>
  %d = tile.dot %a, %b, %acc : tensor<128x32xf32>, tensor<32x128xf32> -> tensor<128x128xf32>
  %s = tile.reduce sum %d, axis 1 : tensor<128x128xf32> -> tensor<128xf32>
  %t = tile.reduce sum %s, axis 0 : tensor<128xf32> -> f32
  return %t : f32
}

// -----

// CHECK-DAG: #[[SMALL:.*]] = #tile.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @small
// CHECK: tile.dot {{.*}} -> tensor<32x32xf32, #[[SMALL]]>
func.func @small(%pa: !tile.ptr<f32>, %pb: !tile.ptr<f32>) -> f32 attributes {tile.num_warps = 4 : i32} {
  %sa = tile.splat %pa : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %a = tile.load %sa : tensor<32x32x!tile.ptr<f32>>
  %sb = tile.splat %pb : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %b = tile.load %sb : tensor<32x32x!tile.ptr<f32>>
  %acc = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.dot %a, %b, %acc : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  %s = tile.reduce sum %d, axis 1 : tensor<32x32xf32> -> tensor<32xf32>
  %t = tile.reduce sum %s, axis 0 : tensor<32xf32> -> f32
  return %t : f32
}
