// RUN: tile-opt %s -tile-assign-layouts | FileCheck %s
// RUN: tile-opt %s -tile-assign-layouts -tile-remove-layout-conversions | FileCheck %s --check-prefix=CLEAN

// A scan gets a blocked layout whose threads hold runs along its axis (16 of the 2048
// elements of 128 threads); a reshape's result gets a layout made for its own shape, the
// source keeping its own, with dimensions of 2 (pairs a split takes apart) in registers.
// A conversion of a reshape becomes the reshape.

// CHECK-DAG: #[[ONE:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[ROWS:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[RUNS:.*]] = #tile.blocked<{sizePerThread = [1, 16], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[THREE:.*]] = #tile.blocked<{sizePerThread = [1, 2, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 1, 4], order = [2, 1, 0]}>
// CHECK: %[[R:.*]] = tile.reshape %{{.*}} : tensor<2048xf32, #[[ONE]]> -> tensor<8x256xf32, #[[ROWS]]>
// CHECK: %[[C:.*]] = tile.convert_layout %[[R]] : tensor<8x256xf32, #[[ROWS]]> -> tensor<8x256xf32, #[[RUNS]]>
// CHECK: %[[S:.*]] = tile.scan %[[C]] axis 1 : tensor<8x256xf32, #[[RUNS]]> -> tensor<8x256xf32, #[[RUNS]]>
// CHECK: tile.reshape %[[S]] : tensor<8x256xf32, #[[RUNS]]> -> tensor<8x2x128xf32, #[[THREE]]>

// CLEAN-NOT: tile.convert_layout
// CLEAN: %[[R:.*]] = tile.reshape %{{.*}} : tensor<2048xf32, #{{.*}}> -> tensor<8x256xf32, #[[RUNS:.*]]>
// CLEAN-NEXT: tile.scan %[[R]] axis 1 : tensor<8x256xf32, #[[RUNS]]>
func.func @scan_rows(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %a = tile.addptr %ps, %r : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  %x = tile.load %a : tensor<2048x!tile.ptr<f32>>
  %y = tile.reshape %x : tensor<2048xf32> -> tensor<8x256xf32>
  %s = tile.scan %y axis 1 : tensor<8x256xf32> -> tensor<8x256xf32> {
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tile.scan_return %t : f32
  }
  %z = tile.reshape %s : tensor<8x256xf32> -> tensor<8x2x128xf32>
  %w = tile.reshape %z : tensor<8x2x128xf32> -> tensor<2048xf32>
  tile.store %a, %w : tensor<2048x!tile.ptr<f32>>
  return
}
