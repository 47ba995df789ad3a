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

// Hints inside loops go too; nothing else changes (the pattern is applied to the hints
// alone: the unused constant and the foldable addition stay for canonicalize).
// CHECK-LABEL: func.func @nested
// CHECK-NOT: tile.hint
// CHECK: arith.constant 7 : i32
// CHECK: scf.for
// CHECK: arith.addi %{{.*}}, %arg0 : i32
// CHECK: arith.addi %{{.*}}, %c0_i32 : i32
func.func @nested(%n: i32) -> i32 {
  %unused = arith.constant 7 : i32
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %n) -> (i32) {
    %h = tile.hint %n {divisibility = array<i32: 16>} : i32
    %a = arith.addi %acc, %h : i32
    %b = arith.addi %a, %zero : i32
    scf.yield %b : i32
  }
  return %r : i32
}
