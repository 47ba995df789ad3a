// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s

// tile.assume becomes llvm.assume of each register of the condition a thread holds: a
// scalar once, a 64-element tile over 32 threads twice (two registers per thread).

#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @assume(%n: i32, %offs: tensor<64xi32, #b>) attributes {tile.num_warps = 1 : i32} {
  %c16 = arith.constant 16 : i32
  %c0 = arith.constant 0 : i32
  %r = arith.remsi %n, %c16 : i32
  %d = arith.cmpi eq, %r, %c0 : i32
  tile.assume %d : i1
  %z = arith.constant dense<0> : tensor<64xi32, #b>
  %p = arith.cmpi sge, %offs, %z : tensor<64xi32, #b>
  tile.assume %p : tensor<64xi1, #b>
  return
}

// CHECK-LABEL: llvm.func @assume(
// CHECK:       %[[D:.*]] = llvm.icmp "eq"
// CHECK-NEXT:  llvm.intr.assume %[[D]] : i1
// CHECK:       %[[P0:.*]] = llvm.icmp "sge"
// CHECK-NEXT:  %[[P1:.*]] = llvm.icmp "sge"
// CHECK-NEXT:  llvm.intr.assume %[[P0]] : i1
// CHECK-NEXT:  llvm.intr.assume %[[P1]] : i1
// CHECK-NOT:   llvm.intr.assume
// CHECK:       llvm.return
