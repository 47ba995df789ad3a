// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm | mlir-translate --split-input-file --mlir-to-llvmir \
// RUN:   | FileCheck %s --check-prefix=LLVMIR

// A 1-D cumsum over 4 warps, 8 registers a thread (two runs of 4, 512 elements apart): each
// run is scanned in order (3 adds), then 5 lane bits exchange the two runs' totals by
// butterfly shuffles (10 shuffles), the warps through shared memory (2 runs x 4 warps x 4
// bytes, one barrier), and the second run adds the first run's total.

#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

func.func @cumsum_1d(%p: tensor<1024x!tile.ptr<f32>, #b1>, %x: tensor<1024xf32, #b1>) attributes {tile.num_warps = 4 : i32} {
  %s = tile.scan %x axis 0 : tensor<1024xf32, #b1> -> tensor<1024xf32, #b1> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.scan_return %t : f32
  }
  tile.store %p, %s : tensor<1024x!tile.ptr<f32>, #b1>
  return
}

// CHECK-LABEL: llvm.func @cumsum_1d(
// CHECK-SAME: %[[X0:arg8]]: f32, %[[X1:arg9]]: f32, %[[X2:arg10]]: f32, %[[X3:arg11]]: f32,
// CHECK-SAME: tile.shared_bytes = 32 : i64
// CHECK:      %[[P1:.*]] = arith.addf %[[X0]], %[[X1]] : f32
// CHECK-NEXT: %[[P2:.*]] = arith.addf %[[P1]], %[[X2]] : f32
// CHECK-NEXT: %[[P3:.*]] = arith.addf %[[P2]], %[[X3]] : f32
// CHECK-NEXT: %[[Q1:.*]] = arith.addf %arg12, %arg13 : f32
// The later lane of each pair (lane bit 0 set) takes the partner's total first.
// CHECK:      %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32 : i32
// CHECK:      %[[BIT0:.*]] = arith.cmpi ne, %{{.*}}, %c0_i32 : i32
// CHECK:      %[[T:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[P3]], %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NEXT: %[[E:.*]] = arith.select %[[BIT0]], %[[T]], %[[P3]] : f32
// CHECK-NEXT: %[[L:.*]] = arith.select %[[BIT0]], %[[P3]], %[[T]] : f32
// CHECK-NEXT: arith.addf %[[E]], %[[L]] : f32
// CHECK-COUNT-9: nvvm.shfl.sync bfly
// CHECK-NOT:  nvvm.shfl.sync
// CHECK:      llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK:      llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:  nvvm.barrier0
// CHECK:      llvm.return

// LLVMIR-LABEL: define void @cumsum_1d(
// LLVMIR-COUNT-10: call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %{{.*}}, i32 {{1|2|4|8|16}}, i32 31)
// LLVMIR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)

// -----

// Pairs (m, c) composed from the end down the columns of a 16x32 tile: 4 registers along
// the rows (no run along the axis), 2 lane bits and 2 warp bits along it; both values of
// each of the 4 column blocks move together (16 shuffles), the warp totals through 32 rows
// x 4 warps x 2 values of shared memory. The combining region is cloned per combine.

#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

func.func @pairs_reversed(%p: tensor<16x32x!tile.ptr<i32>, #b2>, %m: tensor<16x32xi32, #b2>, %c: tensor<16x32xi32, #b2>) attributes {tile.num_warps = 4 : i32} {
  %r:2 = tile.scan %m, %c axis 0 reverse : tensor<16x32xi32, #b2>, tensor<16x32xi32, #b2> -> tensor<16x32xi32, #b2>, tensor<16x32xi32, #b2> {
  ^bb0(%m1: i32, %c1: i32, %m2: i32, %c2: i32):
    %mm = arith.muli %m1, %m2 : i32
    %cm = arith.muli %c1, %m2 : i32
    %cc = arith.addi %cm, %c2 : i32
    tile.scan_return %mm, %cc : i32, i32
  }
  tile.store %p, %r#1 : tensor<16x32x!tile.ptr<i32>, #b2>
  return
}

// CHECK-LABEL: llvm.func @pairs_reversed(
// CHECK-SAME: tile.shared_bytes = 1024 : i64
// Reversed: the lane whose bit is 0 is the later one.
// CHECK:      %[[ONE:.*]] = arith.cmpi ne, %{{.*}}, %c0_i32 : i32
// CHECK:      %[[LATER:.*]] = arith.xori %[[ONE]], %true : i1
// CHECK:      %[[TM:.*]] = nvvm.shfl.sync bfly %{{.*}}, %arg4, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-NEXT: %[[TC:.*]] = nvvm.shfl.sync bfly %{{.*}}, %arg8, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-NEXT: %[[EM:.*]] = arith.select %[[LATER]], %[[TM]], %arg4 : i32
// CHECK-NEXT: %[[EC:.*]] = arith.select %[[LATER]], %[[TC]], %arg8 : i32
// CHECK-NEXT: %[[LM:.*]] = arith.select %[[LATER]], %arg4, %[[TM]] : i32
// CHECK-NEXT: %[[LC:.*]] = arith.select %[[LATER]], %arg8, %[[TC]] : i32
// CHECK-NEXT: arith.muli %[[EM]], %[[LM]] : i32
// CHECK-NEXT: %[[CM:.*]] = arith.muli %[[EC]], %[[LM]] : i32
// CHECK-NEXT: arith.addi %[[CM]], %[[LC]] : i32
// CHECK-COUNT-14: nvvm.shfl.sync bfly
// CHECK-NOT:  nvvm.shfl.sync
// CHECK:      nvvm.barrier0
// CHECK-NOT:  nvvm.barrier0
// CHECK:      llvm.return

// LLVMIR-LABEL: define void @pairs_reversed(
// LLVMIR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
