// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only | FileCheck %s

// An integer or boolean op whose result AxisInfo proves constant over aligned groups of a
// thread's registers is computed once per group (no -cse here: what is not emitted is not
// emitted by the lowering itself).
//
// `cols < n` with n a multiple of 16: constant over runs of 16; a thread holds runs of 4
// (sizePerThread), twice (256 columns on 32 lanes): 2 compares, not 8, and each select
// takes its group's compare.
// CHECK-LABEL: llvm.func @masked_row(
// CHECK:         %[[M0:.*]] = arith.cmpi slt, %{{.*}}, %arg1 : i32
// CHECK-NEXT:    %[[M1:.*]] = arith.cmpi slt, %{{.*}}, %arg1 : i32
// CHECK-NOT:     arith.cmpi
// CHECK-COUNT-4: arith.select %[[M0]], %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-4: arith.select %[[M1]], %{{.*}}, %{{.*}} : f32
// CHECK-NOT:     arith.select
#v = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
func.func @masked_row(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %n: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %cols = tile.make_range 0 to 256 : tensor<256xi32, #v>
  %ns = tile.splat %n : i32 -> tensor<256xi32, #v>
  %mask = arith.cmpi slt, %cols, %ns : tensor<256xi32, #v>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #v>
  %xp = tile.addptr %xs, %cols : tensor<256x!tile.ptr<f32>, #v>, tensor<256xi32, #v>
  %a = tile.load %xp, mask %mask {vec = 4 : i32} : tensor<256x!tile.ptr<f32>, #v>
  %zero = arith.constant dense<0.0> : tensor<256xf32, #v>
  %r = arith.select %mask, %a, %zero : tensor<256xi1, #v>, tensor<256xf32, #v>
  tile.store %xp, %r, mask %mask {vec = 4 : i32} : tensor<256x!tile.ptr<f32>, #v>
  return
}

// -----

// Without divisibility, n may end inside a run: one compare per element.
// CHECK-LABEL: llvm.func @unaligned_row(
// CHECK-COUNT-8: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK-NOT:     arith.cmpi
#v = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
func.func @unaligned_row(%x: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %cols = tile.make_range 0 to 256 : tensor<256xi32, #v>
  %ns = tile.splat %n : i32 -> tensor<256xi32, #v>
  %mask = arith.cmpi slt, %cols, %ns : tensor<256xi32, #v>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #v>
  %xp = tile.addptr %xs, %cols : tensor<256x!tile.ptr<f32>, #v>, tensor<256xi32, #v>
  %a = tile.load %xp, mask %mask : tensor<256x!tile.ptr<f32>, #v>
  tile.store %xp, %a, mask %mask : tensor<256x!tile.ptr<f32>, #v>
  return
}

// -----

// A 2-D mask that depends on the row only (a row index broadcast along the columns,
// compared with a scalar) is constant along a whole row: each thread holds 2 rows of 4
// columns (sizePerThread [1, 4], lanes [2, 16], 4 rows), so 2 compares for its 8
// registers, and the row offsets (row * 64) 2 multiplications.
// CHECK-LABEL: llvm.func @row_predicate(
// CHECK-COUNT-2: arith.cmpi slt, %{{.*}}, %arg1 : i32
// CHECK-NOT:     arith.cmpi
// CHECK-COUNT-2: arith.muli %{{.*}}, %c64_i32 : i32
// CHECK-NOT:     arith.muli
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#r = #tile.slice<{dim = 1, parent = #b}>
func.func @row_predicate(%x: !tile.ptr<f32>, %m: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %rows = tile.make_range 0 to 4 : tensor<4xi32, #r>
  %rows2 = tile.expand_dims %rows, 1 : tensor<4xi32, #r> -> tensor<4x1xi32, #b>
  %rowsb = tile.broadcast %rows2 : tensor<4x1xi32, #b> -> tensor<4x64xi32, #b>
  %ms = tile.splat %m : i32 -> tensor<4x64xi32, #b>
  %mask = arith.cmpi slt, %rowsb, %ms : tensor<4x64xi32, #b>
  %cols = tile.make_range 0 to 64 : tensor<64xi32, #tile.slice<{dim = 0, parent = #b}>>
  %cols2 = tile.expand_dims %cols, 0 : tensor<64xi32, #tile.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
  %colsb = tile.broadcast %cols2 : tensor<1x64xi32, #b> -> tensor<4x64xi32, #b>
  %c64 = arith.constant dense<64> : tensor<4x64xi32, #b>
  %roff = arith.muli %rowsb, %c64 : tensor<4x64xi32, #b>
  %off = arith.addi %roff, %colsb : tensor<4x64xi32, #b>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<4x64x!tile.ptr<f32>, #b>
  %xp = tile.addptr %xs, %off : tensor<4x64x!tile.ptr<f32>, #b>, tensor<4x64xi32, #b>
  %a = tile.load %xp, mask %mask : tensor<4x64x!tile.ptr<f32>, #b>
  tile.store %xp, %a, mask %mask : tensor<4x64x!tile.ptr<f32>, #b>
  return
}
