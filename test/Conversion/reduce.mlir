// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm | mlir-translate --split-input-file --mlir-to-llvmir \
// RUN:   | FileCheck %s --check-prefix=LLVMIR

// A 1-D sum to a scalar over 4 warps: 8 registers combine as a tree, 5 butterfly
// shuffles cover the warp, one partial per warp goes through shared memory.

#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

func.func @sum_1d(%x: tensor<1024xf32, #b1>) -> f32 attributes {tile.num_warps = 4 : i32} {
  %s = tile.reduce sum %x, axis 0 : tensor<1024xf32, #b1> -> f32
  return %s : f32
}

// CHECK: llvm.mlir.global external @tcc_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @sum_1d(
// CHECK-SAME: tile.shared_bytes = 16 : i64
// CHECK-COUNT-7: arith.addf
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[ONE:.*]], %{{.*}} : f32 -> f32
// CHECK-COUNT-4: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return

// LLVMIR: @tcc_shared = external addrspace(3) global [0 x i8], align 1024
// LLVMIR: call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %{{.*}}, i32 1, i32 31)
// LLVMIR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)

// -----

// Along the rows of a 16x32 tile whose rows span 8 lanes: 3 shuffles, no shared memory
// (each warp holds whole rows). The result keeps the slice layout's registers.

#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

func.func @row_max(%x: tensor<16x32xf32, #b2>) -> f32 attributes {tile.num_warps = 4 : i32} {
  %m = tile.reduce max %x, axis 1 : tensor<16x32xf32, #b2> -> tensor<16xf32, #tile.slice<{dim = 1, parent = #b2}>>
  %t = tile.reduce min %m, axis 0 : tensor<16xf32, #tile.slice<{dim = 1, parent = #b2}>> -> f32
  return %t : f32
}

// CHECK-LABEL: llvm.func @row_max(
// CHECK-SAME: tile.shared_bytes = 16 : i64
// CHECK-COUNT-3: arith.maximumf
// CHECK: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C1]]
// CHECK: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C2]]
// CHECK: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C4]]
// CHECK: arith.maximumf
// The second reduction: rows sit on lane bits 3 and 4 (offsets 8, 16), then across warps.
// CHECK: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C8]]
// CHECK: arith.minimumf
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C16]]
// CHECK: arith.minimumf
// CHECK: nvvm.barrier0
// CHECK-COUNT-3: arith.minimumf

// -----

// Fewer elements than threads: the 8 distinct lanes take part (3 shuffles), the copies
// held by the other lanes are not counted again.

#small = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @sum_small(%x: tensor<8xi32, #small>) -> i32 attributes {tile.num_warps = 1 : i32} {
  %s = tile.reduce sum %x, axis 0 : tensor<8xi32, #small> -> i32
  return %s : i32
}

// CHECK-LABEL: llvm.func @sum_small(
// CHECK-SAME: tile.shared_bytes = 0 : i64
// CHECK-COUNT-3: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return

// -----

// argmax carries (value, index) pairs; ties and NaNs resolve to the first index.

#b3 = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

func.func @argmax(%x: tensor<128xf16, #b3>) -> i32 attributes {tile.num_warps = 2 : i32} {
  %i = tile.reduce argmax %x, axis 0 : tensor<128xf16, #b3> -> i32
  return %i : i32
}

// CHECK-LABEL: llvm.func @argmax(
// CHECK-SAME: tile.shared_bytes = 12 : i64
// CHECK: arith.cmpi slt
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf uno
// CHECK: arith.select
// CHECK: arith.select
// f16 values travel through 32-bit shuffles.
// CHECK: arith.bitcast %{{.*}} : f16 to i16
// CHECK: arith.extui %{{.*}} : i16 to i32
// CHECK: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f16
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
