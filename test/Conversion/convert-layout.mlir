// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s

// A transpose's conversion: rows of 4 contiguous elements per thread in, columns of 4 out.
// The tile goes through shared memory: 128-bit stores along the shared rows, a barrier,
// loads in the new layout; chunks are XOR-swizzled to spread the column reads over banks.

#rows = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>

func.func @transpose(%x: tensor<64x64xf32, #rows>) -> f32 attributes {tile.num_warps = 4 : i32} {
  %y = tile.convert_layout %x : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #cols>
  %s = tile.reduce sum %y, axis 0 : tensor<64x64xf32, #cols> -> tensor<64xf32, #tile.slice<{dim = 0, parent = #cols}>>
  %t = tile.reduce sum %s, axis 0 : tensor<64xf32, #tile.slice<{dim = 0, parent = #cols}>> -> f32
  return %t : f32
}

// CHECK-LABEL: llvm.func @transpose(
// CHECK-SAME: tile.shared_bytes = 16384 : i64
// CHECK-NOT: nvvm.barrier0
// CHECK: arith.xori
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-COUNT-7: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-32: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// The reduction after it reuses the buffer: it waits for every thread's reads first.
// CHECK: nvvm.barrier0
// CHECK: llvm.store

// -----

// Same elements in the same registers (a 1-D slice and the equivalent 1-D layout): the
// conversion only renames registers.

#p = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

func.func @rename(%x: tensor<128xi32, #tile.slice<{dim = 1, parent = #p}>>) -> i32 attributes {tile.num_warps = 4 : i32} {
  %y = tile.convert_layout %x : tensor<128xi32, #tile.slice<{dim = 1, parent = #p}>> -> tensor<128xi32, #b>
  %s = tile.reduce max %y, axis 0 : tensor<128xi32, #b> -> i32
  return %s : i32
}

// CHECK-LABEL: llvm.func @rename(
// CHECK-SAME: %[[X:.*]]: i32)
// CHECK-NOT: llvm.store
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %[[X]],
