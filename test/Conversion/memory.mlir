// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s

// f16, 8 per thread, vec = 8: one 128-bit access per thread. Predicated loads are
// inline PTX whose 32-bit words are split back into halves; masked-off lanes take
// `other`, whose words are inputs tied to the outputs. The address is an indirect memory
// operand ("*m") and the access is marked #tile.predicated_access (kind, address operand)
// for the LLVM IR translation. Unpredicated accesses are plain LLVM vector loads and
// stores.
// i1 travels as bytes. A scalar store is done by thread 0 alone.

#b = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @mem(%p: !tile.ptr<f16>, %q: !tile.ptr<i1>, %s: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 256 : tensor<256xi32, #b>
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>, #b>
  %pp = tile.addptr %ps, %r : tensor<256x!tile.ptr<f16>, #b>, tensor<256xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<256xi32, #b>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #b>
  %zero = arith.constant dense<0.0> : tensor<256xf16, #b>
  %v = tile.load %pp, mask %m, other %zero {vec = 8 : i32} : tensor<256x!tile.ptr<f16>, #b>
  %u = tile.load %pp {vec = 8 : i32} : tensor<256x!tile.ptr<f16>, #b>
  %w = arith.addf %v, %u : tensor<256xf16, #b>
  tile.store %pp, %w {vec = 8 : i32} : tensor<256x!tile.ptr<f16>, #b>
  %qs = tile.splat %q : !tile.ptr<i1> -> tensor<256x!tile.ptr<i1>, #b>
  %qp = tile.addptr %qs, %r : tensor<256x!tile.ptr<i1>, #b>, tensor<256xi32, #b>
  %bits = tile.load %qp, mask %m {vec = 8 : i32} : tensor<256x!tile.ptr<i1>, #b>
  %nb = arith.xori %bits, %m : tensor<256xi1, #b>
  tile.store %qp, %nb, mask %m {vec = 8 : i32} : tensor<256x!tile.ptr<i1>, #b>
  %one = arith.constant 1.0 : f32
  tile.store %s, %one : !tile.ptr<f32>
  return
}

// CHECK-LABEL: llvm.func @mem(
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32
// CHECK: %[[PTR:.*]] = llvm.getelementptr %arg0[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
// CHECK: %[[M:.*]] = arith.cmpi slt
// CHECK: %[[LD:.*]] = llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<load, address = 5>} "@$4 ld.global.v4.b32 {$0, $1, $2, $3}, $9;", "=r,=r,=r,=r,b,0,1,2,3,*m" %[[M]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[PTR]] : (i1, i32, i32, i32, i32, !llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[W0:.*]] = llvm.extractvalue %[[LD]][0]
// CHECK: llvm.bitcast %[[W0]] : i32 to vector<2xf16>
// CHECK-NOT: arith.select
// CHECK: llvm.load %[[PTR]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.store %{{.*}}, %[[PTR]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: %[[QPTR:.*]] = llvm.getelementptr %arg1[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
// CHECK: llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<load, address = 1>} "@$2 ld.global.v2.b32 {$0, $1}, $3;", "=r,=r,b,*m" %[[M]], %[[QPTR]]
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<4xi8>
// CHECK: arith.cmpi ne, %{{.*}}, %{{.*}} : i8
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<store, address = 1>} "@$0 st.global.v2.b32 $1, {$2, $3};", "b,*m,r,r" %[[M]], %[[QPTR]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<store, address = 1>} "@$0 st.global.b32 $1, $2;", "b,*m,r" %[[FIRST]], %arg2

// -----

// 32 elements over 64 threads: the second warp holds copies and does not store them.
// Without vec, accesses are one element wide.

#r = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

func.func @replicated(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32, #r>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>, #r>
  %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>, #r>, tensor<32xi32, #r>
  %v = arith.sitofp %r : tensor<32xi32, #r> to tensor<32xf32, #r>
  tile.store %pp, %v : tensor<32x!tile.ptr<f32>, #r>
  return
}

// CHECK-LABEL: llvm.func @replicated(
// The element is the lane id (the warp bit selects nothing); the owner is warp 0.
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 64> : i32
// CHECK: %[[C31:.*]] = arith.constant 31 : i32
// CHECK: %[[BASE:.*]] = arith.andi %[[TID]], %[[C31]] : i32
// CHECK: arith.sitofp %[[BASE]] : i32 to f32
// CHECK: %[[WARP:.*]] = arith.shrui %[[TID]], %{{.*}} : i32
// CHECK: %[[WBIT:.*]] = arith.andi %[[WARP]], %{{.*}} : i32
// CHECK: %[[OWNER:.*]] = arith.cmpi eq, %[[WBIT]], %{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<store, address = 1>} "@$0 st.global.b32 $1, $2;", "b,*m,r" %[[OWNER]]
