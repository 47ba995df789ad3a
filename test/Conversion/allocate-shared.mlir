// RUN: tile-opt %s -split-input-file -tile-allocate-shared -verify-diagnostics | FileCheck %s

// A pipelined wgmma loop as tile-pipeline leaves it: two 3-slot rings, live across the
// loop, get their own 1024-aligned places (the larger first); the epilogue conversion
// after the loop reuses the rings' space. In the loop, the copies into slot (i + 1) mod 3
// must wait until every thread is done with what it read two iterations before, and the
// dot reads what cp.async wrote: one barrier, after the wait and right before the dot,
// with the proxy fence before it; the copies issued after the dot go to another slot than
// the one it reads, so no barrier there. After the loop, a barrier before the conversion writes over the rings.
#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#B = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#C = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
// CHECK-LABEL: func.func @ring
// CHECK-SAME: tile.shared_bytes = 147456
// CHECK: tile.local_alloc {offset = 98304 : i64} -> !tile.smem<3x128x64xf16
// CHECK: tile.local_alloc {offset = 0 : i64} -> !tile.smem<3x64x256xf16
// CHECK: scf.for
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
// CHECK-NOT: tile.barrier
// CHECK: tile.fence_async_shared
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.warpgroup_dot
// CHECK-NOT: tile.barrier
// CHECK: tile.async_copy
// CHECK-NOT: tile.barrier
// CHECK: scf.yield
// CHECK: tile.async_wait {pending = 0 : i32}
// CHECK: tile.barrier
// CHECK: tile.convert_layout %{{.*}} {tile.shared_offset = 0 : i64}
func.func @ring(%pa: tensor<128x64x!tile.ptr<f16>, #A>, %pb: tensor<64x256x!tile.ptr<f16>, #B>, %n: i32) -> tensor<128x256xf16, #C> attributes {tile.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %acc0 = arith.constant dense<0.0> : tensor<128x256xf32, #mma>
  %ra = tile.local_alloc -> !tile.smem<3x128x64xf16, #s>
  %rb = tile.local_alloc -> !tile.smem<3x64x256xf16, #s>
  %a0 = tile.memdesc_index %ra[%c0] : !tile.smem<3x128x64xf16, #s> -> !tile.smem<128x64xf16, #s>
  tile.async_copy %pa, %a0 {vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #A>, !tile.smem<128x64xf16, #s>
  %b0 = tile.memdesc_index %rb[%c0] : !tile.smem<3x64x256xf16, #s> -> !tile.smem<64x256xf16, #s>
  tile.async_copy %pb, %b0 {vec = 8 : i32} : tensor<64x256x!tile.ptr<f16>, #B>, !tile.smem<64x256xf16, #s>
  tile.async_commit
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<128x256xf32, #mma>) : i32 {
    tile.async_wait {pending = 0 : i32}
    %rd = arith.remui %i, %c3 : i32
    %i1 = arith.addi %i, %c1 : i32
    %wr = arith.remui %i1, %c3 : i32
    %sa = tile.memdesc_index %ra[%rd] : !tile.smem<3x128x64xf16, #s> -> !tile.smem<128x64xf16, #s>
    %sb = tile.memdesc_index %rb[%rd] : !tile.smem<3x64x256xf16, #s> -> !tile.smem<64x256xf16, #s>
    %d = tile.warpgroup_dot %sa, %sb, %acc : !tile.smem<128x64xf16, #s>, !tile.smem<64x256xf16, #s>, tensor<128x256xf32, #mma>
    %wa = tile.memdesc_index %ra[%wr] : !tile.smem<3x128x64xf16, #s> -> !tile.smem<128x64xf16, #s>
    tile.async_copy %pa, %wa {vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #A>, !tile.smem<128x64xf16, #s>
    %wb = tile.memdesc_index %rb[%wr] : !tile.smem<3x64x256xf16, #s> -> !tile.smem<64x256xf16, #s>
    tile.async_copy %pb, %wb {vec = 8 : i32} : tensor<64x256x!tile.ptr<f16>, #B>, !tile.smem<64x256xf16, #s>
    tile.async_commit
    %w = tile.warpgroup_dot_wait %d {pending = 1 : i32} : tensor<128x256xf32, #mma>
    scf.yield %w : tensor<128x256xf32, #mma>
  }
  %done = tile.warpgroup_dot_wait %r {pending = 0 : i32} : tensor<128x256xf32, #mma>
  tile.async_wait {pending = 0 : i32}
  %h = arith.truncf %done : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
  %out = tile.convert_layout %h : tensor<128x256xf16, #mma> -> tensor<128x256xf16, #C>
  return %out : tensor<128x256xf16, #C>
}

// -----

// mma.sync without pipelining: two buffers made in the loop get their own space (one
// iteration's buffers never share it); each load from shared memory waits for all
// threads' stores (a barrier before each local_load), and the next iteration's first
// store waits for the reads of the last one (the barrier before the second local_load
// already separates them). No proxy fences: nothing reads through the async proxy.
#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>
#oa = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#ob = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#s = #tile.nvmma_shared<{swizzle = 64, order = [1, 0]}>
// CHECK-LABEL: func.func @staged
// CHECK-SAME: tile.shared_bytes = 8192
// CHECK-NOT: tile.fence_async_shared
// CHECK: scf.for
// CHECK-NEXT: tile.local_alloc %{{.*}} {offset = 0 : i64}
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.local_load
// CHECK-NEXT: tile.local_alloc %{{.*}} {offset = 4096 : i64}
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.local_load
// CHECK-NOT: tile.barrier
// CHECK: scf.yield
func.func @staged(%a: tensor<64x32xf16, #A>, %b: tensor<32x64xf16, #A>, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %as = tile.local_alloc %a : tensor<64x32xf16, #A> -> !tile.smem<64x32xf16, #s>
    %ar = tile.local_load %as : !tile.smem<64x32xf16, #s> -> tensor<64x32xf16, #oa>
    %bs = tile.local_alloc %b : tensor<32x64xf16, #A> -> !tile.smem<32x64xf16, #s>
    %br = tile.local_load %bs : !tile.smem<32x64xf16, #s> -> tensor<32x64xf16, #ob>
    %d = tile.dot %ar, %br, %acc : tensor<64x32xf16, #oa>, tensor<32x64xf16, #ob> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

// -----

// Two reductions across warps in a row share one scratch (their lifetimes do not
// overlap): the second writes it only after a barrier, once every thread has read the
// first's partial results.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @scratch_reuse
// CHECK-SAME: tile.shared_bytes = 16
// CHECK: tile.reduce sum %{{.*}} {tile.shared_offset = 0 : i64}
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.reduce max %{{.*}} {tile.shared_offset = 0 : i64}
func.func @scratch_reuse(%x: tensor<128xf32, #b>) -> (f32, f32) attributes {tile.num_warps = 4 : i32} {
  %s = tile.reduce sum %x, axis 0 : tensor<128xf32, #b> -> f32
  %m = tile.reduce max %x, axis 0 : tensor<128xf32, #b> -> f32
  return %s, %m : f32, f32
}

// -----

// Too much: a 4-stage ring of 128 x 256 x 64 tiles (256 KiB) does not fit in 227 KiB.
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
// expected-error @+1 {{needs 262144 bytes of shared memory, more than the 232448 a program can have on this target: use smaller tiles or fewer pipeline stages}}
func.func @too_much(%i: i32) attributes {tile.num_warps = 8 : i32} {
  %ra = tile.local_alloc -> !tile.smem<4x128x128xf16, #s>
  %rb = tile.local_alloc -> !tile.smem<4x128x128xf16, #s>
  %a = tile.memdesc_index %ra[%i] : !tile.smem<4x128x128xf16, #s> -> !tile.smem<128x128xf16, #s>
  %b = tile.memdesc_index %rb[%i] : !tile.smem<4x128x128xf16, #s> -> !tile.smem<128x128xf16, #s>
  return
}

// -----

// A copy into a buffer a wgmma in flight still reads cannot be ordered by a barrier:
// refused.
#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @copy_under_wgmma(%p: tensor<64x64x!tile.ptr<f16>, #A>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %a = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  %b = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  %d = tile.warpgroup_dot %a, %b, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
  // expected-error @+1 {{copies into shared memory that a tile.warpgroup_dot still in flight reads}}
  tile.async_copy %p, %a {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>, !tile.smem<64x64xf16, #s>
  %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
  return %w : tensor<64x64xf32, #mma>
}

// -----

// A tile filled by TMA in a loop and read back by every thread: the bulk copy writes over
// what the previous iteration's reads read, so a barrier comes before it (after thread 0's
// arrival, which touches only the mbarrier); the reads after the mbarrier wait need none
// (the wait makes the copy visible to each waiting thread), and no proxy fence is due
// (the copy is no generic-proxy write). The mbarrier gets its own 16-byte-aligned place;
// its invalidation after the loop waits for every thread's last wait (a barrier).
#L = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
// CHECK-LABEL: func.func @tma_loop
// CHECK-SAME: tile.shared_bytes = 16392
// CHECK: tile.local_alloc {offset = 16384 : i64} -> !tile.smem<1xi64
// CHECK: tile.mbarrier_init
// CHECK-NOT: tile.barrier
// CHECK: tile.local_alloc {offset = 0 : i64} -> !tile.smem<64x128xf16
// CHECK: scf.for
// CHECK-NEXT: tile.mbarrier_expect
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.tma_load
// CHECK-NOT: tile.barrier
// CHECK: tile.mbarrier_wait
// CHECK-NEXT: tile.local_load
// CHECK-NOT: tile.fence_async_shared
// CHECK-NOT: tile.barrier
// CHECK: scf.yield
// CHECK: tile.barrier
// CHECK-NEXT: tile.mbarrier_inval
func.func @tma_loop(%m: !tile.tensormap<[64, 64], f16, swizzle = 128>, %n: i32) -> tensor<64x128xf16, #L> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x128xf16, #L>
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  tile.mbarrier_init %bar {count = 1 : i32} : !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x128xf16, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x128xf16, #L>) : i32 {
    tile.mbarrier_expect %bar {bytes = 16384 : i32} : !tile.smem<1xi64, #b>
    tile.tma_load %m[%i, %c0], %t, %bar : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x128xf16, #s>, !tile.smem<1xi64, #b>
    %phase = arith.andi %i, %c1 : i32
    tile.mbarrier_wait %bar, %phase : !tile.smem<1xi64, #b>
    %v = tile.local_load %t : !tile.smem<64x128xf16, #s> -> tensor<64x128xf16, #L>
    %s = arith.addf %acc, %v : tensor<64x128xf16, #L>
    scf.yield %s : tensor<64x128xf16, #L>
  }
  tile.mbarrier_inval %bar : !tile.smem<1xi64, #b>
  return %r : tensor<64x128xf16, #L>
}
