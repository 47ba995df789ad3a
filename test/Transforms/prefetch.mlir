// RUN: tile-opt %s -split-input-file -tile-prefetch | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-prefetch -tile-allocate-shared | FileCheck %s --check-prefix=SYNC

// Rows strided by the number of programs: the load of the next row is issued at the top of
// the body, masked off past the end; the first before the loop.
// CHECK-LABEL: func.func @rows
// CHECK:       %[[FIRSTOK:.*]] = arith.cmpi slt, %[[LB:.*]], %arg3 : i32
// CHECK:       tile.splat %[[FIRSTOK]] : i1 -> tensor<128xi1>
// CHECK:       %[[FIRST:.*]] = tile.load
// CHECK:       scf.for %[[IV:.*]] = %[[LB]] to %arg3 step %[[STEP:.*]] iter_args(%[[CUR:.*]] = %[[FIRST]]) -> (tensor<128xf32>)
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[IV]], %[[STEP]] : i32
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi slt, %[[NEXT]], %arg3 : i32
// CHECK:         %[[AHEAD:.*]] = tile.load
// CHECK-NOT:     tile.load
// CHECK:         arith.mulf %[[CUR]], %[[CUR]]
// CHECK:         tile.store
// CHECK:         scf.yield %[[AHEAD]] : tensor<128xf32>
func.func @rows(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %stride: i32, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %cols = tile.make_range 0 to 128 : tensor<128xi32>
  %nb = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<128xi32>
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  scf.for %row = %pid to %n step %np : i32 {
    %o = arith.muli %row, %stride : i32
    %p = tile.addptr %inp, %o : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %ps, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %zero = arith.constant dense<0.0> : tensor<128xf32>
    %x = tile.load %pp, mask %mask, other %zero : tensor<128x!tile.ptr<f32>>
    %y = arith.mulf %x, %x : tensor<128xf32>
    %q = tile.addptr %out, %o : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %qp = tile.addptr %qs, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    tile.store %qp, %y, mask %mask : tensor<128x!tile.ptr<f32>>
  }
  return
}

// -----

// The loop stores through the pointer it loads from: a load of the next iteration must not
// move above this iteration's store. Left alone.
// CHECK-LABEL: func.func @in_place
// CHECK:       scf.for
// CHECK-NOT:   iter_args
// CHECK:         tile.load
// CHECK:         tile.store
func.func @in_place(%buf: !tile.ptr<f32>, %n: i32, %s: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %cols = tile.make_range 0 to 128 : tensor<128xi32>
  %nb = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<128xi32>
  %c0 = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %s : i32 {
    %p = tile.addptr %buf, %i : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %ps, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %pp, mask %mask : tensor<128x!tile.ptr<f32>>
    %y = arith.addf %x, %x : tensor<128xf32>
    tile.store %pp, %y, mask %mask : tensor<128x!tile.ptr<f32>>
  }
  return
}

// -----

// No mask (the extra load past the end could not be switched off), or num_stages = 1 on
// the loop: left alone.
// CHECK-LABEL: func.func @unmasked_or_one_stage
// CHECK-NOT:   iter_args
func.func @unmasked_or_one_stage(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %n: i32, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %cols = tile.make_range 0 to 128 : tensor<128xi32>
  %nb = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<128xi32>
  %c0 = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %s : i32 {
    %p = tile.addptr %inp, %i : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %ps, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %pp : tensor<128x!tile.ptr<f32>>
    %q = tile.addptr %out, %i : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %qp = tile.addptr %qs, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    tile.store %qp, %x, mask %mask : tensor<128x!tile.ptr<f32>>
  }
  scf.for %i = %c0 to %n step %s : i32 {
    %p = tile.addptr %inp, %i : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %ps, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %pp, mask %mask : tensor<128x!tile.ptr<f32>>
    %q = tile.addptr %out, %i : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %qp = tile.addptr %qs, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    tile.store %qp, %x, mask %mask : tensor<128x!tile.ptr<f32>>
  } {tile.num_stages = 1 : i32}
  return
}

// -----

// A row of 8192 elements on 4 warps: 64 per thread, doubled by a prefetched copy in
// registers (occupancy would pay more than the overlap gains); staged through a ring of 3
// shared tiles instead, three iterations ahead: the copies of iterations 0, 1 and 2 before
// the loop, each in its group; in the body the wait for this iteration's group and the
// read back where the load was, and at the end the copies of iteration i + 3 into the slot
// just read. Without a reduction in the body, tile-allocate-shared puts a barrier between
// the reads and those copies.
// CHECK:       #[[FLAT:.*]] = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
// CHECK-LABEL: func.func @wide_rows
// CHECK:       %[[RING:.*]] = tile.local_alloc -> !tile.smem<3x8192xf32, #[[FLAT]]>
// CHECK:       %[[OK0:.*]] = arith.cmpi slt, %[[LB:.*]], %arg2 : i32
// CHECK:       %[[VALID0:.*]] = tile.splat %[[OK0]] : i1 -> tensor<8192xi1, #blocked>
// CHECK:       %[[MASK0:.*]] = arith.andi %{{.*}}, %[[VALID0]]
// CHECK:       %[[SLOT0:.*]] = tile.memdesc_index %[[RING]][%c0_i32]
// CHECK:       tile.async_copy %{{.*}}, %[[SLOT0]], mask %[[MASK0]] {vec = 1 : i32}
// CHECK-NEXT:  tile.async_commit
// CHECK:       %[[SLOT1:.*]] = tile.memdesc_index %[[RING]][%c1_i32
// CHECK:       tile.async_copy %{{.*}}, %[[SLOT1]]
// CHECK-NEXT:  tile.async_commit
// CHECK:       %[[SLOT2:.*]] = tile.memdesc_index %[[RING]][%c2_i32
// CHECK:       tile.async_copy %{{.*}}, %[[SLOT2]]
// CHECK-NEXT:  tile.async_commit
// The slot read is carried: 0, 1, 2, 0, ...
// CHECK:       %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  %{{.*}} = scf.for %[[IV:.*]] = %[[LB]] to %arg2 step %[[STEP:.*]] iter_args(%[[READ:.*]] = %[[ZERO]]) -> (i32)  : i32 {
// CHECK-NOT:     arith.divsi
// CHECK:         tile.async_wait {pending = 2 : i32}
// CHECK:         %[[RSLOT:.*]] = tile.memdesc_index %[[RING]][%[[READ]]]
// CHECK:         %[[X:.*]] = tile.local_load %[[RSLOT]]
// CHECK-NOT:     tile.load
// CHECK:         tile.store %{{.*}}, %[[X]], mask
// CHECK:         %[[NEXT:.*]] = arith.addi %[[READ]], %c1_i32{{.*}} : i32
// CHECK:         %[[WRAPS:.*]] = arith.cmpi eq, %[[NEXT]], %c3_i32{{.*}} : i32
// CHECK:         %[[SLOTNEXT:.*]] = arith.select %[[WRAPS]], %c0_i32{{.*}}, %[[NEXT]] : i32
// CHECK:         %[[AHEAD:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK:         arith.cmpi slt, %[[AHEAD]], %arg2 : i32
// CHECK:         %[[WSLOT:.*]] = tile.memdesc_index %[[RING]][%[[READ]]]
// CHECK:         tile.async_copy %{{.*}}, %[[WSLOT]], mask
// CHECK-NEXT:    tile.async_commit
// CHECK-NEXT:    scf.yield %[[SLOTNEXT]] : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  tile.async_wait {pending = 0 : i32}
// SYNC-LABEL: func.func @wide_rows
// SYNC:         tile.async_wait {pending = 2 : i32}
// SYNC-NEXT:    %[[SLOT:.*]] = tile.memdesc_index
// SYNC-NEXT:    tile.barrier
// SYNC-NEXT:    tile.local_load %[[SLOT]]
// SYNC:         tile.barrier
// SYNC-NEXT:    tile.async_copy
#v = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @wide_rows(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %cols = tile.make_range 0 to 8192 : tensor<8192xi32, #v>
  %nb = tile.splat %n : i32 -> tensor<8192xi32, #v>
  %mask = arith.cmpi slt, %cols, %nb : tensor<8192xi32, #v>
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  scf.for %row = %pid to %n step %np : i32 {
    %p = tile.addptr %inp, %row : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<8192x!tile.ptr<f32>, #v>
    %pp = tile.addptr %ps, %cols : tensor<8192x!tile.ptr<f32>, #v>, tensor<8192xi32, #v>
    %x = tile.load %pp, mask %mask : tensor<8192x!tile.ptr<f32>, #v>
    %q = tile.addptr %out, %row : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<8192x!tile.ptr<f32>, #v>
    %qp = tile.addptr %qs, %cols : tensor<8192x!tile.ptr<f32>, #v>, tensor<8192xi32, #v>
    tile.store %qp, %x, mask %mask : tensor<8192x!tile.ptr<f32>, #v>
  }
  return
}

// -----

// The softmax row: masked-off elements read -inf, which cp.async cannot fill (it fills
// zeros): selected after the read back. 16-byte copies (vec = 4). Four stages asked
// for: 4 x 64 KiB do not fit beside the reductions' scratch in 227 KiB, so the ring
// shrinks to 3 slots.
// CHECK-LABEL: func.func @softmax_rows
// CHECK:       tile.local_alloc -> !tile.smem<3x16384xf32
// CHECK:       tile.async_copy {{.*}} {vec = 4 : i32}
// CHECK:       scf.for
// CHECK:         tile.async_wait {pending = 2 : i32}
// CHECK:         %[[RAW:.*]] = tile.local_load
// CHECK:         %[[X:.*]] = arith.select %[[MASK:.*]], %[[RAW]], %[[NEGINF:.*]] : tensor<16384xi1, #blocked>, tensor<16384xf32, #blocked>
// CHECK:         tile.reduce max %[[X]], axis 0
// tile-allocate-shared: one barrier between the landed copies and the reads; the copies
// of iteration i + 3 into the slot just read come after the reductions, whose barriers
// already order every thread's reads before them: no barrier of their own.
// SYNC-LABEL: func.func @softmax_rows
// SYNC:         tile.async_wait {pending = 2 : i32}
// SYNC-NEXT:    %[[SLOT:.*]] = tile.memdesc_index
// SYNC-NEXT:    tile.barrier
// SYNC-NEXT:    tile.local_load %[[SLOT]]
// SYNC:         tile.reduce
// SYNC-NOT:     tile.barrier
// SYNC:         tile.async_copy
// SYNC-NEXT:    tile.async_commit
#r = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [16], order = [0]}>
func.func @softmax_rows(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 16 : i32, tile.num_stages = 4 : i32} {
  %cols = tile.make_range 0 to 16384 : tensor<16384xi32, #r>
  %nb = tile.splat %n : i32 -> tensor<16384xi32, #r>
  %mask = arith.cmpi slt, %cols, %nb : tensor<16384xi32, #r>
  %ninf = arith.constant dense<0xFF800000> : tensor<16384xf32, #r>
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  scf.for %row = %pid to %n step %np : i32 {
    %o = arith.muli %row, %n : i32
    %p = tile.addptr %inp, %o : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16384x!tile.ptr<f32>, #r>
    %pp = tile.addptr %ps, %cols : tensor<16384x!tile.ptr<f32>, #r>, tensor<16384xi32, #r>
    %x = tile.load %pp, mask %mask, other %ninf {vec = 4 : i32} : tensor<16384x!tile.ptr<f32>, #r>
    %m = tile.reduce max %x, axis 0 : tensor<16384xf32, #r> -> f32
    %ms = tile.splat %m : f32 -> tensor<16384xf32, #r>
    %y = arith.subf %x, %ms : tensor<16384xf32, #r>
    %q = tile.addptr %out, %o : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<16384x!tile.ptr<f32>, #r>
    %qp = tile.addptr %qs, %cols : tensor<16384x!tile.ptr<f32>, #r>, tensor<16384xi32, #r>
    tile.store %qp, %y, mask %mask {vec = 4 : i32} : tensor<16384x!tile.ptr<f32>, #r>
  }
  return
}

// -----

// A warp down one column of 16-byte chunks of a 64x128 tile: rows of 512 bytes, unswizzled,
// would put all 32 lanes' chunks in the same four banks (32 wavefronts); the 32-byte
// swizzle, the narrowest reaching the fewest (4) in the bank-conflict simulation, spreads
// them over all banks.
// CHECK:       #[[SWIZZLED:.*]] = #tile.nvmma_shared<{swizzle = 32, order = [1, 0]}>
// CHECK-LABEL: func.func @tile_rows
// CHECK:       tile.local_alloc -> !tile.smem<3x64x128xf32, #[[SWIZZLED]]>
// CHECK:       tile.async_copy {{.*}} {vec = 4 : i32}
#t = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
func.func @tile_rows(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #tile.slice<{dim = 1, parent = #t}>>
  %c = tile.make_range 0 to 128 : tensor<128xi32, #tile.slice<{dim = 0, parent = #t}>>
  %re = tile.expand_dims %r, 1 : tensor<64xi32, #tile.slice<{dim = 1, parent = #t}>> -> tensor<64x1xi32, #t>
  %ce = tile.expand_dims %c, 0 : tensor<128xi32, #tile.slice<{dim = 0, parent = #t}>> -> tensor<1x128xi32, #t>
  %c128 = arith.constant dense<128> : tensor<64x1xi32, #t>
  %rs = arith.muli %re, %c128 : tensor<64x1xi32, #t>
  %rb = tile.broadcast %rs : tensor<64x1xi32, #t> -> tensor<64x128xi32, #t>
  %cb = tile.broadcast %ce : tensor<1x128xi32, #t> -> tensor<64x128xi32, #t>
  %offs = arith.addi %rb, %cb : tensor<64x128xi32, #t>
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  scf.for %blk = %pid to %n step %np : i32 {
    %c8192 = arith.constant 8192 : i32
    %o = arith.muli %blk, %c8192 : i32
    %p = tile.addptr %inp, %o : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x128x!tile.ptr<f32>, #t>
    %pp = tile.addptr %ps, %offs : tensor<64x128x!tile.ptr<f32>, #t>, tensor<64x128xi32, #t>
    %x = tile.load %pp {vec = 4 : i32} : tensor<64x128x!tile.ptr<f32>, #t>
    %q = tile.addptr %out, %o : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x128x!tile.ptr<f32>, #t>
    %qp = tile.addptr %qs, %offs : tensor<64x128x!tile.ptr<f32>, #t>, tensor<64x128xi32, #t>
    tile.store %qp, %x {vec = 4 : i32} : tensor<64x128x!tile.ptr<f32>, #t>
  }
  return
}

// -----

// Two slots of a 128 KiB row do not fit in shared memory: left as it is.
// CHECK-LABEL: func.func @too_big
// CHECK-NOT:   tile.local_alloc
// CHECK:       scf.for
// CHECK:         tile.load
#w = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
func.func @too_big(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %cols = tile.make_range 0 to 32768 : tensor<32768xi32, #w>
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  scf.for %row = %pid to %n step %np : i32 {
    %p = tile.addptr %inp, %row : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32768x!tile.ptr<f32>, #w>
    %pp = tile.addptr %ps, %cols : tensor<32768x!tile.ptr<f32>, #w>, tensor<32768xi32, #w>
    %x = tile.load %pp {vec = 4 : i32} : tensor<32768x!tile.ptr<f32>, #w>
    %q = tile.addptr %out, %row : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<32768x!tile.ptr<f32>, #w>
    %qp = tile.addptr %qs, %cols : tensor<32768x!tile.ptr<f32>, #w>, tensor<32768xi32, #w>
    tile.store %qp, %x {vec = 4 : i32} : tensor<32768x!tile.ptr<f32>, #w>
  }
  return
}

// -----

// A scalar load (one element, in every thread) in a loop with a stride of programs is left
// alone: no ring, no prefetch (it crashed the pass).
// CHECK-LABEL: func.func @scalar_loads
// CHECK:       scf.for
// CHECK-NEXT:    tile.addptr
// CHECK-NEXT:    tile.load %{{.*}} : !tile.ptr<f32>
// CHECK-NOT:   scf.yield
// CHECK:       return
func.func @scalar_loads(%out: !tile.ptr<f32>, %x: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %lb = tile.program_id 0
  %step = tile.num_programs 0
  scf.for %i = %lb to %n step %step : i32 {
    %p = tile.addptr %x, %i : !tile.ptr<f32>, i32
    %v = tile.load %p : !tile.ptr<f32>
    %q = tile.addptr %out, %i : !tile.ptr<f32>, i32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %v, %two : f32
    tile.store %q, %w : !tile.ptr<f32>
  }
  return
}

// -----

// A loop with a constant step walks a row in tile-sized chunks (tutorial 05's layer norm,
// `for off in range(0, N, BLOCK)`), often once: prefetched only where the loop asks for it
// with its own num_stages, not with the kernel's.
// CHECK-LABEL: func.func @chunked_row
// CHECK:       scf.for %{{[^ ]*}} = %{{[^ ]*}} to %arg2 step %{{[^ ]*}} : i32 {
// CHECK-NEXT:    tile.splat
// CHECK:         tile.load
// CHECK:       scf.for %{{.*}} iter_args
func.func @chunked_row(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  %cols = tile.make_range 0 to 128 : tensor<128xi32>
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %nb = tile.splat %n : i32 -> tensor<128xi32>
  scf.for %off = %c0 to %n step %c128 : i32 {
    %o = tile.splat %off : i32 -> tensor<128xi32>
    %c = arith.addi %o, %cols : tensor<128xi32>
    %mask = arith.cmpi slt, %c, %nb : tensor<128xi32>
    %ps = tile.splat %inp : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %ps, %c : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %pp, mask %mask : tensor<128x!tile.ptr<f32>>
    %qs = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %qp = tile.addptr %qs, %c : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    tile.store %qp, %x, mask %mask : tensor<128x!tile.ptr<f32>>
  }
  scf.for %off = %c0 to %n step %c128 : i32 {
    %o = tile.splat %off : i32 -> tensor<128xi32>
    %c = arith.addi %o, %cols : tensor<128xi32>
    %mask = arith.cmpi slt, %c, %nb : tensor<128xi32>
    %ps = tile.splat %inp : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %ps, %c : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %pp, mask %mask : tensor<128x!tile.ptr<f32>>
    %qs = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %qp = tile.addptr %qs, %c : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    tile.store %qp, %x, mask %mask : tensor<128x!tile.ptr<f32>>
  } {tile.num_stages = 3 : i32}
  return
}

// -----

// A store through a hinted pointer (a `tl.multiple_of` on the output's pointers) is traced
// to its argument through the hint: it writes `out`, not what the loop loads, so the load
// is still prefetched.
// CHECK-LABEL: func.func @hinted_store
// CHECK:       scf.for %{{.*}} iter_args
func.func @hinted_store(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %n: i32, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %cols = tile.make_range 0 to 128 : tensor<128xi32>
  %nb = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<128xi32>
  %c0 = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %s : i32 {
    %p = tile.addptr %inp, %i : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %ps, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %pp, mask %mask : tensor<128x!tile.ptr<f32>>
    %q = tile.addptr %out, %i : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %qp = tile.addptr %qs, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %qh = tile.hint %qp {divisibility = array<i32: 16>} : tensor<128x!tile.ptr<f32>>
    tile.store %qh, %x, mask %mask : tensor<128x!tile.ptr<f32>>
  }
  return
}
