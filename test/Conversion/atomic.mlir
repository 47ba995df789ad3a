// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s

// One atomic per element, never vectorised. A used result is `atom` (zeroed first, so
// masked-off lanes read 0); an unused one is `red`. Without a mask the instruction is
// unpredicated. A scalar is added by thread 0 alone.

#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @atomics(%p: !tile.ptr<i32>, %f: !tile.ptr<f32>, %l: !tile.ptr<i64>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #b>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>, #b>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<64xi32, #b>
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32, #b>
  %old = tile.atomic_add %pp, %r, mask %m : tensor<64x!tile.ptr<i32>, #b>
  tile.store %pp, %old : tensor<64x!tile.ptr<i32>, #b>
  %fs = tile.splat %f : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #b>
  %fp = tile.addptr %fs, %r : tensor<64x!tile.ptr<f32>, #b>, tensor<64xi32, #b>
  %half = arith.constant dense<0.5> : tensor<64xf32, #b>
  %oldf = tile.atomic_add %fp, %half : tensor<64x!tile.ptr<f32>, #b>
  tile.store %fp, %oldf : tensor<64x!tile.ptr<f32>, #b>
  %unused = tile.atomic_add %fp, %half, mask %m : tensor<64x!tile.ptr<f32>, #b>
  %one = arith.constant 1 : i64
  %o = tile.atomic_add %l, %one : !tile.ptr<i64>
  return
}

// CHECK-LABEL: llvm.func @atomics(
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32
// CHECK: %[[M0:.*]] = arith.cmpi slt
// CHECK: %[[M1:.*]] = arith.cmpi slt
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$1 atom.global.add.u32 $0, [$2], $3;", "=r,b,l,r" %[[M0]]
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$1 atom.global.add.u32 $0, [$2], $3;", "=r,b,l,r" %[[M1]]
// CHECK-NOT: atom.global.add.u32
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "atom.global.add.f32 $0, [$1], $2;", "=f,l,f"
// CHECK-NOT: atom.global.add.f32
// CHECK: llvm.inline_asm has_side_effects "@$0 red.global.add.f32 [$1], $2;", "b,l,f" %[[M0]]
// CHECK: llvm.inline_asm has_side_effects "@$0 red.global.add.f32 [$1], $2;", "b,l,f" %[[M1]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects "@$0 red.global.add.u64 [$1], $2;", "b,l,l" %[[FIRST]], %arg2
// CHECK-NOT: red.global

// -----

// 32 elements over 64 threads: the second warp holds copies and does not add them.

#r = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

func.func @replicated(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32, #r>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>, #r>
  %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>, #r>, tensor<32xi32, #r>
  %v = arith.sitofp %r : tensor<32xi32, #r> to tensor<32xf32, #r>
  %o = tile.atomic_add %pp, %v : tensor<32x!tile.ptr<f32>, #r>
  return
}

// CHECK-LABEL: llvm.func @replicated(
// CHECK: %[[OWNER:.*]] = arith.cmpi eq
// CHECK: llvm.inline_asm has_side_effects "@$0 red.global.add.f32 [$1], $2;", "b,l,f" %[[OWNER]]
