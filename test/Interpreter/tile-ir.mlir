// RUN: tcc run --interpret %s --arg x=arange:6 --arg out=empty:6 --grid 3 | FileCheck %s
// RUN: not tcc run --interpret %s --arg x=arange:6 --arg out=empty:6 --grid 4 2>&1 | FileCheck %s --check-prefix=OOB
// Tile IR runs as it is (hand-written, or saved from tcc --emit=tile); the grid comes
// from --grid when the kernel has no tile.grid.

func.func @pairs(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>)
    attributes {tile.kernel, tile.arg_names = ["x", "out"]} {
  %pid = tile.program_id 0
  %c2 = arith.constant 2 : i32
  %base = arith.muli %pid, %c2 : i32
  %r = tile.make_range 0 to 2 : tensor<2xi32>
  %bs = tile.splat %base : i32 -> tensor<2xi32>
  %offs = arith.addi %bs, %r : tensor<2xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<2x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %offs : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  %v = tile.load %xa : tensor<2x!tile.ptr<f32>>
  %s = tile.reduce sum %v, axis 0 : tensor<2xf32> -> f32
  %sp = tile.splat %s : f32 -> tensor<2xf32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<2x!tile.ptr<f32>>
  %oa = tile.addptr %op, %offs : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %oa, %sp : tensor<2x!tile.ptr<f32>>
  return
}

// CHECK: out: f32[6] = [1.0, 1.0, 5.0, 5.0, 9.0, 9.0]
// OOB: tile-ir.mlir:16:8: error: out-of-bounds load from 'x': element 6 is past the end
// OOB: note: in program (3, 0, 0) of kernel 'pairs' (grid 4x1x1)
