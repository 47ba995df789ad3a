// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s

// expand_dims from a slice and broadcast along the dimension a thread already spans move
// no data: each result register is a source register. make_range is the thread's base
// plus compile-time offsets.

#b = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>

func.func @shape() -> i32 attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 16 : tensor<16xi32, #tile.slice<{dim = 0, parent = #b}>>
  %e = tile.expand_dims %r, 0 : tensor<16xi32, #tile.slice<{dim = 0, parent = #b}>> -> tensor<1x16xi32, #b>
  %bc = tile.broadcast %e : tensor<1x16xi32, #b> -> tensor<8x16xi32, #b>
  %s = tile.reduce sum %bc, axis 1 : tensor<8x16xi32, #b> -> tensor<8xi32, #tile.slice<{dim = 1, parent = #b}>>
  %t = tile.reduce sum %s, axis 0 : tensor<8xi32, #tile.slice<{dim = 1, parent = #b}>> -> i32
  return %t : i32
}

// The range over the columns: lane bits 0-2 give the column pair, two registers per
// thread; the broadcast to 8 rows reuses both for each of the thread's 2 rows.
// CHECK-LABEL: llvm.func @shape(
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32
// CHECK: %[[COL:.*]] = arith.andi %[[TID]], %{{.*}} : i32
// CHECK: %[[B:.*]] = arith.shli %[[COL]], %{{.*}} : i32
// CHECK: %[[B1:.*]] = arith.addi %[[B]], %{{.*}} overflow<nsw, nuw> : i32
// Both rows' pairs are the same registers: after CSE, one in-thread sum for both.
// CHECK: %[[S:.*]] = arith.addi %[[B]], %[[B1]] : i32
// CHECK-NOT: arith.addi %[[B]], %[[B1]]
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %[[S]],
