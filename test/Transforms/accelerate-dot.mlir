// RUN: tile-opt %s -split-input-file -tile-accelerate-dot | FileCheck %s

// sm_90a, f16, 8 warps, 128 x 256 x 64: wgmma. Both operands go to shared memory with
// rows along their registers' dimension (K for A, N for B) and the widest swizzle their
// rows take (128 bytes); the accumulator becomes a version-3 mma layout, two warpgroups
// along M and the whole N in one instruction; conversions keep the rest as it was.
#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#B = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#C = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
// CHECK-DAG: #[[MMA:.*]] = #tile.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
// CHECK-DAG: #[[S:.*]] = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
// CHECK-LABEL: func.func @wgmma
// CHECK: %[[AS:.*]] = tile.local_alloc %arg0 : {{.*}} -> !tile.smem<128x64xf16, #[[S]]>
// CHECK: %[[BS:.*]] = tile.local_alloc %arg1 : {{.*}} -> !tile.smem<64x256xf16, #[[S]]>
// CHECK: %[[ACC:.*]] = tile.convert_layout %arg2 : {{.*}} -> tensor<128x256xf32, #[[MMA]]>
// CHECK: %[[D:.*]] = tile.warpgroup_dot %[[AS]], %[[BS]], %[[ACC]]
// CHECK: %[[W:.*]] = tile.warpgroup_dot_wait %[[D]] {pending = 0 : i32}
// CHECK: %[[R:.*]] = tile.convert_layout %[[W]] : tensor<128x256xf32, #[[MMA]]> -> tensor<128x256xf32, #{{.*}}>
// CHECK: return %[[R]]
func.func @wgmma(%a: tensor<128x64xf16, #A>, %b: tensor<64x256xf16, #B>, %acc: tensor<128x256xf32, #C>) -> tensor<128x256xf32, #C> attributes {tile.num_warps = 8 : i32} {
  %d = tile.dot %a, %b, %acc : tensor<128x64xf16, #A>, tensor<64x256xf16, #B> -> tensor<128x256xf32, #C>
  return %d : tensor<128x256xf32, #C>
}
}

// -----

// 64 rows over 8 warps: one warpgroup of rows, so the two warpgroups split N (128 each).
// A conversion feeding the dot is looked through: the operand is stored from its own
// layout (here M-major: rows along M, atoms along it).
#A = #tile.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#A2 = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#B = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#C = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
// CHECK-DAG: #[[MMA:.*]] = #tile.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[SA:.*]] = #tile.nvmma_shared<{swizzle = 128, order = [0, 1]}>
// CHECK-LABEL: func.func @split_n
// CHECK-NOT: tile.convert_layout %arg0
// CHECK: tile.local_alloc %arg0 : {{.*}} -> !tile.smem<64x32xf16, #[[SA]]>
// CHECK: tile.warpgroup_dot
func.func @split_n(%a: tensor<64x32xf16, #A>, %b: tensor<32x256xf16, #B>, %acc: tensor<64x256xf32, #C>) -> tensor<64x256xf32, #C> attributes {tile.num_warps = 8 : i32} {
  %a2 = tile.convert_layout %a : tensor<64x32xf16, #A> -> tensor<64x32xf16, #A2>
  %d = tile.dot %a2, %b, %acc : tensor<64x32xf16, #A2>, tensor<32x256xf16, #B> -> tensor<64x256xf32, #C>
  return %d : tensor<64x256xf32, #C>
}
}

// -----

// sm_90 (no wgmma): mma.sync m16n8k16. Operands through shared memory into register
// fragments; 8 warps on 128 x 128 as 4 x 2 (warp tiles of 32 x 64).
#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#B = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#C = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {tile.target = #tile.target<{arch = "sm_90", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
// CHECK-DAG: #[[MMA:.*]] = #tile.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8, 16]}>
// CHECK-DAG: #[[OA:.*]] = #tile.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// CHECK-DAG: #[[OB:.*]] = #tile.dot_operand<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>
// CHECK-LABEL: func.func @mma_sync
// CHECK: %[[AS:.*]] = tile.local_alloc %arg0
// CHECK: %[[AR:.*]] = tile.local_load %[[AS]] : {{.*}} -> tensor<128x32xbf16, #[[OA]]>
// CHECK: %[[BS:.*]] = tile.local_alloc %arg1
// CHECK: %[[BR:.*]] = tile.local_load %[[BS]] : {{.*}} -> tensor<32x128xbf16, #[[OB]]>
// CHECK: tile.dot %[[AR]], %[[BR]], %{{.*}} : tensor<128x32xbf16, #[[OA]]>, tensor<32x128xbf16, #[[OB]]> -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NOT: tile.warpgroup_dot
func.func @mma_sync(%a: tensor<128x32xbf16, #A>, %b: tensor<32x128xbf16, #B>, %acc: tensor<128x128xf32, #C>) -> tensor<128x128xf32, #C> attributes {tile.num_warps = 8 : i32} {
  %d = tile.dot %a, %b, %acc : tensor<128x32xbf16, #A>, tensor<32x128xbf16, #B> -> tensor<128x128xf32, #C>
  return %d : tensor<128x128xf32, #C>
}
}

// -----

// f32 operands: tf32 (m16n8k8, kWidth 1) by default, even on sm_90a (wgmma would need
// K-major operands); input_precision = "ieee" stays on CUDA cores; a dot smaller than one
// instruction (M < 16) too; sm_80 has mma.sync, sm_75 nothing.
#A = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#C = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#S = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
// CHECK-LABEL: func.func @precision
// CHECK: tile.dot {{.*}} : tensor<64x32xf32, #dot_op{{.*}}>, tensor<32x64xf32, #dot_op{{.*}}> -> tensor<64x64xf32, #mma>
// CHECK: tile.dot {{.*}}input_precision = "ieee"{{.*}} : tensor<64x32xf32, #blocked>, tensor<32x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
// CHECK: tile.dot {{.*}} : tensor<8x32xf32, #blocked{{.*}}>
func.func @precision(%a: tensor<64x32xf32, #A>, %b: tensor<32x64xf32, #A>, %acc: tensor<64x64xf32, #C>, %s: tensor<8x32xf32, #S>, %sb: tensor<32x32xf32, #S>, %sacc: tensor<8x32xf32, #S>) -> (tensor<64x64xf32, #C>, tensor<64x64xf32, #C>, tensor<8x32xf32, #S>) attributes {tile.num_warps = 4 : i32} {
  %tf32 = tile.dot %a, %b, %acc : tensor<64x32xf32, #A>, tensor<32x64xf32, #A> -> tensor<64x64xf32, #C>
  %ieee = tile.dot %a, %b, %acc {input_precision = "ieee"} : tensor<64x32xf32, #A>, tensor<32x64xf32, #A> -> tensor<64x64xf32, #C>
  %small = tile.dot %s, %sb, %sacc : tensor<8x32xf32, #S>, tensor<32x32xf32, #S> -> tensor<8x32xf32, #S>
  return %tf32, %ieee, %small : tensor<64x64xf32, #C>, tensor<64x64xf32, #C>, tensor<8x32xf32, #S>
}
}

// -----

#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#C = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tile.target = #tile.target<{arch = "sm_75", threadsPerWarp = 32, maxSharedBytes = 101376}>} {
// CHECK-LABEL: func.func @no_tensor_cores
// CHECK-NOT: tile.local_alloc
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #blocked{{.*}}>
func.func @no_tensor_cores(%a: tensor<64x32xf16, #A>, %b: tensor<32x64xf16, #A>, %acc: tensor<64x64xf32, #C>) -> tensor<64x64xf32, #C> attributes {tile.num_warps = 4 : i32} {
  %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #A>, tensor<32x64xf16, #A> -> tensor<64x64xf32, #C>
  return %d : tensor<64x64xf32, #C>
}
}

// -----

// A conversion feeding an operand is folded away, on every path: a tensor-core dot stores
// the operand to shared memory from the layout it comes in, and so does a CUDA-core dot
// (input_precision = "ieee" here), so the conversion would be a second trip through
// shared memory.
#A = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#C = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
// CHECK-LABEL: func.func @converted_operand
// CHECK-SAME: (%[[A:.*]]: tensor<64x32xf32, #blocked>, %[[B:.*]]: tensor<32x64xf32, #blocked>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.dot %[[A]], %[[B]], %{{.*}}input_precision = "ieee"
func.func @converted_operand(%a: tensor<64x32xf32, #A>, %b: tensor<32x64xf32, #A>, %acc: tensor<64x64xf32, #C>) -> tensor<64x64xf32, #C> attributes {tile.num_warps = 4 : i32} {
  %ac = tile.convert_layout %a : tensor<64x32xf32, #A> -> tensor<64x32xf32, #C>
  %d = tile.dot %ac, %b, %acc {input_precision = "ieee"} : tensor<64x32xf32, #C>, tensor<32x64xf32, #A> -> tensor<64x64xf32, #C>
  return %d : tensor<64x64xf32, #C>
}
}
