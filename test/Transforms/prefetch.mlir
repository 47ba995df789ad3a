// RUN: tile-opt %s -split-input-file -tile-prefetch | FileCheck %s

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
func.func @in_place(%buf: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %cols = tile.make_range 0 to 128 : tensor<128xi32>
  %nb = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<128xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
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
func.func @unmasked_or_one_stage(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %cols = tile.make_range 0 to 128 : tensor<128xi32>
  %nb = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<128xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %p = tile.addptr %inp, %i : !tile.ptr<f32>, i32
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %ps, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %x = tile.load %pp : tensor<128x!tile.ptr<f32>>
    %q = tile.addptr %out, %i : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %qp = tile.addptr %qs, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    tile.store %qp, %x, mask %mask : tensor<128x!tile.ptr<f32>>
  }
  scf.for %i = %c0 to %n step %c1 : i32 {
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

// A row of 8192 elements on 4 warps: 64 per thread, doubled by a prefetched copy; left
// alone (occupancy would pay more than the overlap gains).
// CHECK-LABEL: func.func @wide_rows
// CHECK-NOT:   iter_args
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
