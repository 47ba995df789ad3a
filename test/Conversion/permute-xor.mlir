// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s

// 256 elements, 2 registers a thread, 32 lanes, 4 warps: bit 0 of the coordinate is a
// register bit (the registers swap), bits 1-5 lane bits (one butterfly shuffle per
// register), bits 6-7 warp bits (through shared memory).

#b1 = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: llvm.func @in_registers(
// CHECK-SAME: %[[P0:arg0]]: !llvm.ptr<1>, %[[P1:arg1]]: !llvm.ptr<1>, %[[X0:arg2]]: f32, %[[X1:arg3]]: f32)
// CHECK-SAME: tile.shared_bytes = 0 : i64
// CHECK-NOT:  nvvm.shfl
// CHECK:      llvm.store %[[X1]], %[[P0]]
// CHECK:      llvm.store %[[X0]], %[[P1]]
func.func @in_registers(%p: tensor<256x!tile.ptr<f32>, #b1>, %x: tensor<256xf32, #b1>) attributes {tile.num_warps = 4 : i32} {
  %y = tile.permute_xor %x, axis 0, mask 1 : tensor<256xf32, #b1>
  tile.store %p, %y : tensor<256x!tile.ptr<f32>, #b1>
  return
}

// CHECK-LABEL: llvm.func @across_lanes(
// CHECK-SAME: tile.shared_bytes = 0 : i64
// Mask 6: lane bits 0 and 1 (lane ^ 3), both registers.
// CHECK:      nvvm.shfl.sync bfly %{{.*}}, %arg2, %[[M:.*]], %{{.*}} : f32 -> f32
// CHECK-NEXT: nvvm.shfl.sync bfly %{{.*}}, %arg3, %[[M]], %{{.*}} : f32 -> f32
// CHECK-NOT:  nvvm.barrier0
func.func @across_lanes(%p: tensor<256x!tile.ptr<f32>, #b1>, %x: tensor<256xf32, #b1>) attributes {tile.num_warps = 4 : i32} {
  %y = tile.permute_xor %x, axis 0, mask 6 : tensor<256xf32, #b1>
  tile.store %p, %y : tensor<256x!tile.ptr<f32>, #b1>
  return
}

// flip: every bit. Registers to shared memory (register-major, 2 x 128 x 4 bytes), one
// barrier, the partner thread's (tid ^ 127) other register back.
// CHECK-LABEL: llvm.func @flip(
// CHECK-SAME: tile.shared_bytes = 1024 : i64
// CHECK:      %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK:      %[[PARTNER:.*]] = arith.xori %[[TID]], %c127_i32 : i32
// CHECK:      llvm.store %arg2, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:      llvm.store %arg3, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK:      arith.addi %[[PARTNER]], %c128_i32 : i32
// CHECK:      llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:      llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:  nvvm.barrier0
// CHECK:      llvm.return
func.func @flip(%p: tensor<256x!tile.ptr<f32>, #b1>, %x: tensor<256xf32, #b1>) attributes {tile.num_warps = 4 : i32} {
  %y = tile.permute_xor %x, axis 0, mask 255 : tensor<256xf32, #b1>
  tile.store %p, %y : tensor<256x!tile.ptr<f32>, #b1>
  return
}

// -----

// A reshape whose layouts keep every element in its thread is a renaming (16x32 with runs
// of 4 along the rows raveled into 512 with runs of 4); one that moves elements goes
// row-major through shared memory (512 x 4 bytes), one barrier: stored 4 at a time,
// loaded 2 at a time.

#a = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tile.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [4, 1, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#d = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#e = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: llvm.func @split_columns(
// CHECK-SAME: tile.shared_bytes = 0 : i64
// CHECK-NOT:  nvvm.barrier0
// CHECK:      llvm.return
func.func @split_columns(%p: tensor<16x1x32x!tile.ptr<f32>, #c>, %x: tensor<16x32xf32, #a>) attributes {tile.num_warps = 4 : i32} {
  %y = tile.reshape %x : tensor<16x32xf32, #a> -> tensor<16x1x32xf32, #c>
  tile.store %p, %y : tensor<16x1x32x!tile.ptr<f32>, #c>
  return
}

// CHECK-LABEL: llvm.func @ravel_in_registers(
// CHECK-SAME: tile.shared_bytes = 0 : i64
// CHECK-NOT:  nvvm.barrier0
// CHECK:      llvm.return
func.func @ravel_in_registers(%p: tensor<512x!tile.ptr<f32>, #d>, %x: tensor<16x32xf32, #a>) attributes {tile.num_warps = 4 : i32} {
  %y = tile.reshape %x : tensor<16x32xf32, #a> -> tensor<512xf32, #d>
  tile.store %p, %y : tensor<512x!tile.ptr<f32>, #d>
  return
}

// CHECK-LABEL: llvm.func @ravel(
// CHECK-SAME: tile.shared_bytes = 2048 : i64
// CHECK:      llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK:      nvvm.barrier0
// CHECK:      llvm.load %{{.*}} : !llvm.ptr<3> -> vector<2xf32>
// CHECK-NOT:  nvvm.barrier0
// CHECK:      llvm.return
func.func @ravel(%p: tensor<512x!tile.ptr<f32>, #e>, %x: tensor<16x32xf32, #a>) attributes {tile.num_warps = 4 : i32} {
  %y = tile.reshape %x : tensor<16x32xf32, #a> -> tensor<512xf32, #e>
  tile.store %p, %y : tensor<512x!tile.ptr<f32>, #e>
  return
}
