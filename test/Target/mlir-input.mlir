// RUN: tcc %s --emit=ptx | FileCheck %s
// RUN: tcc %s --emit=ptx --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=IR

// Tile IR as input: the GPU pipeline, the lowering and the NVPTX back end, on a kernel
// without layouts (tile-assign-layouts gives them).

func.func @scale(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pid = tile.program_id 0
  %c64 = arith.constant 64 : i32
  %base = arith.muli %pid, %c64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %b = tile.splat %base : i32 -> tensor<64xi32>
  %offs = arith.addi %b, %r : tensor<64xi32>
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp, mask %mask : tensor<64x!tile.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<64xf32>
  %y = arith.mulf %v, %two : tensor<64xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %op, %y, mask %mask : tensor<64x!tile.ptr<f32>>
  return
}

// CHECK: .entry scale(
// CHECK: .reqntid 32, 1, 1
// CHECK-COUNT-2: ld.global
// CHECK-COUNT-2: {{add|mul}}.f32
// CHECK-COUNT-2: st.global

// IR: IR Dump After TileAssignLayouts
// IR: IR Dump After ConvertTileToNVVM
// IR: llvm.func @scale
