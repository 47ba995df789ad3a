// RUN: tile-opt %s -split-input-file -tile-pipeline | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline=num-stages=4 | FileCheck %s --check-prefix=FOUR

#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>

// A wgmma loop, 3 stages: 3-slot rings, the copies of iterations 0 and 1 before the
// loop (their own commit groups, masked by 0 < n and 1 < n); in the loop a wait leaving
// one group in flight, the product of this iteration left running (pending 1), and after
// that wait the copies of iteration i + 2 into slot (i + 2) mod 3, masked by i + 2 < n;
// the last product is waited for after the loop, then the last copies. A loop-carried
// pointer advanced by a fixed increment is advanced twice for the copies ahead.
// CHECK-LABEL: func.func @wgmma_loop
// CHECK:      %[[RA:.*]] = tile.local_alloc -> !tile.smem<3x64x64xf16, #{{.*}}>
// CHECK:      %[[RB:.*]] = tile.local_alloc -> !tile.smem<3x64x64xf16, #{{.*}}>
// CHECK:      arith.cmpi slt, %c0{{.*}}, %arg2
// CHECK:      tile.async_copy {{.*}} {vec = 8 : i32}
// CHECK:      tile.async_copy
// CHECK-NEXT: tile.async_commit
// CHECK:      tile.addptr
// CHECK:      tile.async_copy
// CHECK:      tile.async_copy
// CHECK-NEXT: tile.async_commit
// CHECK:      scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = {{.*}}, %[[P:.*]] = {{.*}})
// CHECK:        %[[X:.*]] = arith.divsi
// CHECK:        %[[RD:.*]] = arith.remui %[[X]], %c3
// CHECK:        %[[X2:.*]] = arith.addi %[[X]], %c2
// CHECK:        %[[WR:.*]] = arith.remui %[[X2]], %c3
// CHECK:        tile.async_wait {pending = 1 : i32}
// CHECK:        %[[SA:.*]] = tile.memdesc_index %[[RA]][%[[RD]]]
// CHECK:        %[[SB:.*]] = tile.memdesc_index %[[RB]][%[[RD]]]
// CHECK:        %[[D:.*]] = tile.warpgroup_dot %[[SA]], %[[SB]], %[[ACC]]
// CHECK:        %[[W:.*]] = tile.warpgroup_dot_wait %[[D]] {pending = 1 : i32}
// CHECK:        arith.cmpi slt
// CHECK:        %[[AHEAD:.*]] = tile.addptr %[[P]], %{{.*}}
// CHECK:        tile.memdesc_index %[[RA]][%[[WR]]]
// CHECK:        tile.async_copy %[[AHEAD]]
// CHECK:        tile.async_commit
// CHECK:        scf.yield %[[W]]
// CHECK:      %[[LAST:.*]] = tile.warpgroup_dot_wait %{{.*}}#0 {pending = 0 : i32}
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
// CHECK:      return %[[LAST]]
// FOUR-LABEL: func.func @wgmma_loop
// FOUR:       tile.local_alloc -> !tile.smem<4x64x64xf16
// FOUR-COUNT-3: tile.async_commit
// FOUR:       scf.for
// FOUR:       tile.async_wait {pending = 2 : i32}
func.func @wgmma_loop(%pa: tensor<64x64x!tile.ptr<f16>, #A>, %pb: tensor<64x64x!tile.ptr<f16>, #A>, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %inc = arith.constant dense<64> : tensor<64x64xi32, #A>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %p = %pa) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #A>) : i32 {
    %a = tile.load %p {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %b = tile.load %pb {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %as = tile.local_alloc %a : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %bs = tile.local_alloc %b : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %as, %bs, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %p2 = tile.addptr %p, %inc : tensor<64x64x!tile.ptr<f16>, #A>, tensor<64x64xi32, #A>
    scf.yield %w, %p2 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #A>
  }
  return %r#0 : tensor<64x64xf32, #mma>
}

// -----

#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>

// An address from a loop-carried integer advanced by a fixed increment (tutorial 06's
// `offsetv_y += BLOCK_N`): the copies ahead compute it as o + 2 * inc, o + 1 * inc in the
// prologue; one advanced by a loop-varying amount (o + i) is left alone.
// CHECK-LABEL: func.func @integer_offset
// CHECK:      tile.local_alloc -> !tile.smem<3x64x64xf16
// CHECK:      tile.splat %arg2
// CHECK:      tile.async_copy
// CHECK:      tile.async_copy
// CHECK-NEXT: tile.async_commit
// CHECK:      %[[P1:.*]] = arith.muli %c64{{.*}}, %c1
// CHECK:      %[[O1:.*]] = arith.addi %arg2, %[[P1]] : i32
// CHECK:      tile.splat %[[O1]]
// CHECK:      tile.async_copy
// CHECK:      tile.async_copy
// CHECK-NEXT: tile.async_commit
// CHECK:      scf.for {{.*}} iter_args(%[[ACC:.*]] = {{.*}}, %[[O:.*]] = {{.*}})
// CHECK:        tile.warpgroup_dot_wait {{.*}} {pending = 1 : i32}
// CHECK:        %[[D2:.*]] = arith.muli %c64{{.*}}, %c2
// CHECK:        %[[O2:.*]] = arith.addi %[[O]], %[[D2]] : i32
// CHECK:        tile.splat %[[O2]]
// CHECK:        tile.async_copy
// CHECK:        tile.async_commit
// A product that also reads a tile staged by a plain local_alloc in the body (its load,
// of 2-byte vectors, is not copied ahead) is waited for in its own iteration (pending 0):
// the next iteration writes that tile again.
// CHECK-LABEL: func.func @partly_staged
// CHECK:      scf.for
// CHECK:        tile.async_wait {pending = 1 : i32}
// CHECK:        tile.async_copy
// CHECK:        tile.local_alloc %{{.*}} : tensor<64x64xf16
// CHECK:        tile.warpgroup_dot_wait {{.*}} {pending = 0 : i32}
// CHECK-NOT:    pending = 1
// CHECK:        scf.yield
// CHECK-LABEL: func.func @integer_offset_varying
// CHECK-NOT:  tile.async_copy
// CHECK:      return
func.func @integer_offset(%base: tensor<64x64x!tile.ptr<f16>, #A>, %pb: tensor<64x64x!tile.ptr<f16>, #A>, %o0: i32, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %o = %o0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    %os = tile.splat %o : i32 -> tensor<64x64xi32, #A>
    %p = tile.addptr %base, %os : tensor<64x64x!tile.ptr<f16>, #A>, tensor<64x64xi32, #A>
    %a = tile.load %p {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %b = tile.load %pb {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %as = tile.local_alloc %a : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %bs = tile.local_alloc %b : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %as, %bs, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %o2 = arith.addi %o, %c64 : i32
    scf.yield %w, %o2 : tensor<64x64xf32, #mma>, i32
  }
  return %r#0 : tensor<64x64xf32, #mma>
}
func.func @partly_staged(%base: tensor<64x64x!tile.ptr<f16>, #A>, %pb: tensor<64x64x!tile.ptr<f16>, #A>, %o0: i32, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %o = %o0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    %os = tile.splat %o : i32 -> tensor<64x64xi32, #A>
    %p = tile.addptr %base, %os : tensor<64x64x!tile.ptr<f16>, #A>, tensor<64x64xi32, #A>
    %a = tile.load %p {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %b = tile.load %pb {vec = 1 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %as = tile.local_alloc %a : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %bs = tile.local_alloc %b : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %as, %bs, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %o2 = arith.addi %o, %c64 : i32
    scf.yield %w, %o2 : tensor<64x64xf32, #mma>, i32
  }
  return %r#0 : tensor<64x64xf32, #mma>
}
func.func @integer_offset_varying(%base: tensor<64x64x!tile.ptr<f16>, #A>, %o0: i32, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %o = %o0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
    %os = tile.splat %o : i32 -> tensor<64x64xi32, #A>
    %p = tile.addptr %base, %os : tensor<64x64x!tile.ptr<f16>, #A>, tensor<64x64xi32, #A>
    %a = tile.load %p {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %as = tile.local_alloc %a : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %as, %as, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %o2 = arith.addi %o, %i : i32
    scf.yield %w, %o2 : tensor<64x64xf32, #mma>, i32
  }
  return %r#0 : tensor<64x64xf32, #mma>
}

// -----

#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#T = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#st = #tile.nvmma_shared<{swizzle = 128, order = [0, 1]}>

// Flash attention's first product, dot(q, k.T): Q is made before the loop, so its store
// to shared memory moves before the loop (stored once); K is loaded row-major, converted
// and transposed before its store: it is copied as loaded into a ring of 64x64 tiles in
// the reversed order, and the dot reads each slot through tile.memdesc_trans. With every
// shared tile a ring slot or made outside the loop, the product may stay in flight.
// CHECK-LABEL: func.func @transposed_operand
// CHECK:      %[[Q:.*]] = tile.local_alloc %arg0 : tensor<64x64xf16, #{{.*}}> -> !tile.smem<64x64xf16, #[[S:.*]]>
// CHECK:      %[[RING:.*]] = tile.local_alloc -> !tile.smem<3x64x64xf16, #[[S]]>
// CHECK:      tile.async_copy %{{.*}}, %{{.*}} {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #{{.*}}>, !tile.smem<64x64xf16, #[[S]]>
// CHECK:      scf.for
// CHECK-NOT:    tile.local_alloc
// CHECK-NOT:    tile.trans
// CHECK-NOT:    tile.convert_layout
// CHECK:        %[[SLOT:.*]] = tile.memdesc_index %[[RING]]
// CHECK:        %[[KT:.*]] = tile.memdesc_trans %[[SLOT]] : !tile.smem<64x64xf16, #[[S]]> -> !tile.smem<64x64xf16, #[[ST:.*]]>
// CHECK:        tile.warpgroup_dot %[[Q]], %[[KT]]
// CHECK:        tile.warpgroup_dot_wait {{.*}} {pending = 1 : i32}
func.func @transposed_operand(%q: tensor<64x64xf16, #A>, %pk: tensor<64x64x!tile.ptr<f16>, #A>, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %k = tile.load %pk {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %kc = tile.convert_layout %k : tensor<64x64xf16, #A> -> tensor<64x64xf16, #B>
    %kt = tile.trans %kc, [1, 0] : tensor<64x64xf16, #B> -> tensor<64x64xf16, #T>
    %qs = tile.local_alloc %q : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %ks = tile.local_alloc %kt : tensor<64x64xf16, #T> -> !tile.smem<64x64xf16, #st>
    %d = tile.warpgroup_dot %qs, %ks, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #st>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

// A product carried around the loop and rescaled before the next one accumulates onto
// it (flash attention's `acc = acc * alpha`, then `dot(p, v, acc)`) is waited for in its own
// iteration: in flight, the rescaling would read registers wgmma is still writing.
// CHECK-LABEL: func.func @carried_product_rescaled
// CHECK:      scf.for
// CHECK:        tile.warpgroup_dot_wait {{.*}} {pending = 0 : i32}
// CHECK-NOT:    pending = 1
// CHECK:        scf.yield
func.func @carried_product_rescaled(%q: tensor<64x64xf16, #A>, %pk: tensor<64x64x!tile.ptr<f16>, #A>, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %half = arith.constant dense<0.5> : tensor<64x64xf32, #mma>
  %qs = tile.local_alloc %q : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %k = tile.load %pk {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %ks = tile.local_alloc %k : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %scaled = arith.mulf %acc, %half : tensor<64x64xf32, #mma>
    %d = tile.warpgroup_dot %qs, %ks, %scaled : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

// -----

#A = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#A1 = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>

// Left alone: a load whose vector is 2 bytes (cp.async moves 4, 8 or 16), one whose
// `other` is not zero, one whose address depends on another loop-carried value; and a
// loop whose own num_stages is 1.
// CHECK-LABEL: func.func @not_pipelined
// CHECK-NOT:  tile.async_copy
// CHECK:      return
func.func @not_pipelined(%pa: tensor<64x64x!tile.ptr<f16>, #A1>, %pb: tensor<64x64x!tile.ptr<f16>, #A>, %m: tensor<64x64xi1, #A>, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.0> : tensor<64x64xf16, #A>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %q = %pb) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #A>) : i32 {
    %a = tile.load %pa {vec = 1 : i32} : tensor<64x64x!tile.ptr<f16>, #A1>
    %b = tile.load %pb, mask %m, other %one {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %as = tile.local_alloc %a : tensor<64x64xf16, #A1> -> !tile.smem<64x64xf16, #s>
    %bs = tile.local_alloc %b : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %d = tile.warpgroup_dot %as, %bs, %acc : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %c = tile.load %q {vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #A>
    %cs = tile.local_alloc %c : tensor<64x64xf16, #A> -> !tile.smem<64x64xf16, #s>
    %e = tile.warpgroup_dot %cs, %cs, %w : !tile.smem<64x64xf16, #s>, !tile.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
    %we = tile.warpgroup_dot_wait %e {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %q2 = tile.load %pa {vec = 1 : i32} : tensor<64x64x!tile.ptr<f16>, #A1>
    %q3 = tile.convert_layout %q : tensor<64x64x!tile.ptr<f16>, #A> -> tensor<64x64x!tile.ptr<f16>, #A>
    scf.yield %we, %q3 : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #A>
  } {tile.num_stages = 1 : i32}
  return %r#0 : tensor<64x64xf32, #mma>
}
