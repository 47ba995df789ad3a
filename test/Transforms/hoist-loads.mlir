// RUN: tile-opt %s -split-input-file -tile-hoist-loads | FileCheck %s

#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#R = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>

// matmul + bias: the bias row (one f16 a thread) is loaded after the K loop from
// pointers, a mask and an `other` made before it or from values made before it; the
// load and the ops computing its pointers and mask move before the loop, the rest stays.
// CHECK-LABEL: func.func @bias_row
// CHECK:      %[[BS:.*]] = tile.splat %arg2 : !tile.ptr<f16>
// CHECK-NEXT: %[[BP:.*]] = tile.addptr %[[BS]], %[[COLS:[0-9a-z_]+]] :
// CHECK-NEXT: %[[NS:.*]] = tile.splat %arg3 : i32
// CHECK-NEXT: %[[M:.*]] = arith.cmpi slt, %[[COLS]], %[[NS]]
// CHECK-NEXT: %[[BIAS:.*]] = tile.load %[[BP]], mask %[[M]], other %{{.*}} {vec = 1 : i32}
// CHECK-NEXT: scf.for
// CHECK:        tile.warpgroup_dot
// CHECK:        scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: arith.extf %[[BIAS]]
// CHECK-NOT:  tile.load
func.func @bias_row(%pa: tensor<64x64x!tile.ptr<f16>, #A>, %pb: tensor<64x64x!tile.ptr<f16>, #A>, %bias: !tile.ptr<f16>, %n: i32, %k: i32) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #R>) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64xf16, #R>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %cols = tile.make_range 0 to 64 : tensor<64xi32, #R>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %a = tile.load %pa {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %b = tile.load %pb {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %as = tile.local_alloc %a : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %bs = tile.local_alloc %b : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %as, %bs, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  %bsplat = tile.splat %bias : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>, #R>
  %bp = tile.addptr %bsplat, %cols : tensor<64x!tile.ptr<f16>, #R>, tensor<64xi32, #R>
  %ns = tile.splat %n : i32 -> tensor<64xi32, #R>
  %m = arith.cmpi slt, %cols, %ns : tensor<64xi32, #R>
  %bv = tile.load %bp, mask %m, other %zero {vec = 1 : i32} : tensor<64x!tile.ptr<f16>, #R>
  %bf = arith.extf %bv : tensor<64xf16, #R> to tensor<64xf32, #R>
  return %r, %bf : tensor<64x64xf32, #mma>, tensor<64xf32, #R>
}

// -----

#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#R = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#R8 = #tile.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>

// What stays: a load whose pointers come from a loop's result; one of 16 f16 (256 bits) a
// thread, held through the loop; one after a store into global memory (which may write
// what it reads); one after a loop without a dot (control flow other than a dot loop may
// wait for the data: a loop polling a flag). Two dot loops: a load that can pass both goes
// before the first.
// CHECK-LABEL: func.func @stays
// CHECK:      tile.load %arg4
// CHECK-NEXT: scf.for
// CHECK:      %[[R2:.*]]:2 = scf.for
// CHECK:      tile.load %[[R2]]#1
// CHECK-NEXT: tile.load %arg3
// CHECK-NEXT: tile.store
// CHECK-NEXT: tile.load %arg2
// CHECK-NEXT: scf.for
// CHECK:      tile.load %arg5
func.func @stays(%pa: tensor<64x64x!tile.ptr<f16>, #A>, %p: tensor<64x!tile.ptr<f16>, #R>,
                 %q: tensor<64x!tile.ptr<f16>, #R>, %wide: tensor<2048x!tile.ptr<f16>, #R8>,
                 %early: tensor<64x!tile.ptr<f16>, #R>, %late: tensor<64x!tile.ptr<f16>, #R>,
                 %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %row = tile.make_range 0 to 64 : tensor<64xi32, #R>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %a = tile.load %pa {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %as = tile.local_alloc %a : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %as, %as, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  %r2:2 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %r, %pp = %p) -> (tensor<64x64xf32, #mma>, tensor<64x!tile.ptr<f16>, #R>) : i32 {
    %a = tile.load %pa {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %as = tile.local_alloc %a : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %as, %as, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %next = tile.addptr %pp, %row : tensor<64x!tile.ptr<f16>, #R>, tensor<64xi32, #R>
    scf.yield %w, %next : tensor<64x64xf32, #mma>, tensor<64x!tile.ptr<f16>, #R>
  }
  %early_v = tile.load %early {vec = 1 : i32} : tensor<64x!tile.ptr<f16>, #R>
  %t = tile.convert_layout %r2#0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #A>
  %t16 = arith.truncf %t : tensor<64x64xf32, #A> to tensor<64x64xf16, #A>
  %v0 = tile.load %r2#1 {vec = 1 : i32} : tensor<64x!tile.ptr<f16>, #R>
  %v2 = tile.load %wide {vec = 8 : i32} : tensor<2048x!tile.ptr<f16>, #R8>
  tile.store %pa, %t16 {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
  %v1 = tile.load %q {vec = 1 : i32} : tensor<64x!tile.ptr<f16>, #R>
  %r3 = scf.for %i = %c0 to %k step %c1 iter_args(%x = %c0) -> (i32) : i32 {
    %y = arith.addi %x, %i : i32
    scf.yield %y : i32
  }
  %v3 = tile.load %late {vec = 1 : i32} : tensor<64x!tile.ptr<f16>, #R>
  return
}

// -----

#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#R = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>

// A loop polling a flag that another program sets once the data is written: it writes
// nothing, but the load of the data stays after it (and so after the dot loop).
// CHECK-LABEL: func.func @polls
// CHECK:      scf.for
// CHECK:      scf.while
// CHECK:        tile.load %arg1
// CHECK:      tile.load %arg2
func.func @polls(%pa: tensor<64x64x!tile.ptr<f16>, #A>, %flag: !tile.ptr<i32>,
                 %data: tensor<64x!tile.ptr<f16>, #R>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %a = tile.load %pa {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %as = tile.local_alloc %a : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %as, %as, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  %p = scf.while (%x = %c0) : (i32) -> i32 {
    %f = tile.load %flag : !tile.ptr<i32>
    %z = arith.cmpi eq, %f, %c0 : i32
    scf.condition(%z) %x : i32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }
  %v = tile.load %data {vec = 1 : i32} : tensor<64x!tile.ptr<f16>, #R>
  return
}
