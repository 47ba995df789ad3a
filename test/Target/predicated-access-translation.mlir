// RUN: tile-opt %s -tile-gpu-pipeline -tile-allocate-shared -convert-tile-to-nvvm -o %t.lowered.mlir
// RUN: FileCheck %s --check-prefix=MLIR < %t.lowered.mlir
// RUN: tile-translate --mlir-to-llvmir %t.lowered.mlir | grep -v -e ModuleID -e source_filename > %t.translated.ll
// RUN: tcc %s --emit=llvm -O0 | grep -v -e ModuleID -e source_filename -e '^target ' > %t.tcc.ll
// RUN: diff %t.translated.ll %t.tcc.ll
// RUN: FileCheck %s < %t.translated.ll

// The contract between the lowering and the LLVM IR translation (docs/lowering.md): a
// predicated global access is a side-effecting llvm.inline_asm whose address has the
// constraint "*m", marked #tile.predicated_access<kind, address = operand>; the tile
// dialect's translation gives the address its element type and a load its memory
// effects. Translating the lowered IR with tile-translate (mlir-translate with the tile
// dialect's translation) gives the LLVM IR tcc gives (tcc -O0: before LLVM's pipeline;
// only the module name, target triple and data layout differ).

func.func @scale(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pid = tile.program_id 0
  %c128 = arith.constant 128 : i32
  %base = arith.muli %pid, %c128 : i32
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %b = tile.splat %base : i32 -> tensor<128xi32>
  %offs = arith.addi %b, %r : tensor<128xi32>
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %v = tile.load %xp, mask %mask, other %zero : tensor<128x!tile.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<128xf32>
  %y = arith.mulf %v, %two : tensor<128xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %op, %y, mask %mask : tensor<128x!tile.ptr<f32>>
  return
}

// MLIR: llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<load, address = 5>} "@$4 ld.global.v4.b32 {$0, $1, $2, $3}, $9;", "=r,=r,=r,=r,b,0,1,2,3,*m"
// MLIR: llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<store, address = 1>} "@$0 st.global.v4.b32 $1, {$2, $3, $4, $5};", "b,*m,r,r,r,r"

// The load: no sideeffect, read-only argument memory; the store: side-effecting. Both
// addresses elementtype(i8).
// CHECK: call { i32, i32, i32, i32 } asm "@$4 ld.global.v4.b32 {$0, $1, $2, $3}, $9;", "=r,=r,=r,=r,b,0,1,2,3,*m"(i1 %{{[0-9]+}}, i32 0, i32 0, i32 0, i32 0, ptr addrspace(1) elementtype(i8) %{{[0-9]+}}) [[LOAD:#[0-9]+]]
// CHECK: call void asm sideeffect "@$0 st.global.v4.b32 $1, {$2, $3, $4, $5};", "b,*m,r,r,r,r"(i1 %{{[0-9]+}}, ptr addrspace(1) elementtype(i8) %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 %{{[0-9]+}}){{$}}
// CHECK: attributes [[LOAD]] = { nounwind willreturn memory(argmem: read) }
