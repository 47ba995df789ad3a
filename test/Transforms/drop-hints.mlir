// RUN: tile-opt %s -tile-drop-hints | FileCheck %s

// CHECK-LABEL: func.func @hints
// CHECK-NOT: tile.hint
// CHECK: %[[S:.*]] = tile.splat %arg0
// CHECK: arith.addi %[[S]], %[[S]]
func.func @hints(%n: i32) -> tensor<64xi32> {
  %h = tile.hint %n {divisibility = array<i32: 16>} : i32
  %s = tile.splat %h : i32 -> tensor<64xi32>
  %t = tile.hint %s {contiguity = array<i32: 1>} : tensor<64xi32>
  %r = arith.addi %t, %t : tensor<64xi32>
  return %r : tensor<64xi32>
}
