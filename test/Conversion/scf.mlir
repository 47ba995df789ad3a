// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s
// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s --check-prefix=LLVM

// Loop-carried tiles and branches with tile results stay structured until the end: each
// tile becomes its registers in iter_args, yields and results.

#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @loop(%n: i32, %flag: i1) -> f32 attributes {tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64xf32, #b>
  %one = arith.constant dense<1.0> : tensor<64xf32, #b>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<64xf32, #b>) : i32 {
    %next = arith.addf %a, %one : tensor<64xf32, #b>
    scf.yield %next : tensor<64xf32, #b>
  }
  %r = scf.if %flag -> (tensor<64xf32, #b>) {
    %d = arith.mulf %acc, %acc : tensor<64xf32, #b>
    scf.yield %d : tensor<64xf32, #b>
  } else {
    scf.yield %acc : tensor<64xf32, #b>
  }
  %s = tile.reduce sum %r, axis 0 : tensor<64xf32, #b> -> f32
  return %s : f32
}

// CHECK-LABEL: llvm.func @loop(
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[LOOP:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A0:.*]] = %[[ZERO]], %[[A1:.*]] = %[[ZERO]]) -> (f32, f32) : i32 {
// CHECK:   %[[N0:.*]] = arith.addf %[[A0]], %[[ONE]] : f32
// CHECK:   %[[N1:.*]] = arith.addf %[[A1]], %[[ONE]] : f32
// CHECK:   scf.yield %[[N0]], %[[N1]] : f32, f32
// CHECK: %[[IF:.*]]:2 = scf.if %{{.*}} -> (f32, f32) {
// CHECK:   arith.mulf %[[LOOP]]#0, %[[LOOP]]#0 : f32
// CHECK:   arith.mulf %[[LOOP]]#1, %[[LOOP]]#1 : f32
// CHECK: } else {
// CHECK:   scf.yield %[[LOOP]]#0, %[[LOOP]]#1 : f32, f32
// CHECK: arith.addf %[[IF]]#0, %[[IF]]#1 : f32

// LLVM-LABEL: llvm.func @loop(
// LLVM-NOT: scf.
// LLVM: llvm.cond_br
