// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s --check-prefix=THREAD
// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s
// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm | tile-translate --mlir-to-llvmir | opt -O3 -S \
// RUN:   | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 | FileCheck %s --check-prefix=PTX

// The lowering alone, through tile-translate (mlir-translate with the tile dialect's
// translation of #tile.predicated_access) and upstream LLVM tools (tcc --emit=ptx has its
// own tests):
// specialised vector add uses predicated 128-bit accesses, two per array and thread.
// PTX: .entry vector_add(
// PTX: .reqntid 128, 1, 1
// PTX-COUNT-4: @%p{{[0-9]+}} ld.global.v4.b32
// PTX-COUNT-8: add.rn.f32
// PTX-COUNT-2: @%p{{[0-9]+}} st.global.v4.b32

#blocked = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

func.func @vector_add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c1024 = arith.constant 1024 : i32
  %pid = tile.program_id 0
  %base = arith.muli %pid, %c1024 : i32
  %range = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
  %bases = tile.splat %base : i32 -> tensor<1024xi32, #blocked>
  %offs = arith.addi %bases, %range : tensor<1024xi32, #blocked>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #blocked>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
  %yp = tile.addptr %ys, %offs : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
  %op = tile.addptr %os, %offs : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
  %a = tile.load %xp, mask %mask {vec = 4 : i32} : tensor<1024x!tile.ptr<f32>, #blocked>
  %b = tile.load %yp, mask %mask {vec = 4 : i32} : tensor<1024x!tile.ptr<f32>, #blocked>
  %sum = arith.addf %a, %b : tensor<1024xf32, #blocked>
  tile.store %op, %sum, mask %mask {vec = 4 : i32} : tensor<1024x!tile.ptr<f32>, #blocked>
  return
}

// THREAD-LABEL: llvm.func @vector_add(
// THREAD-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32)
// THREAD-SAME: nvvm.kernel
// THREAD-SAME: nvvm.reqntid = array<i32: 128, 1, 1>
// THREAD: nvvm.read.ptx.sreg.ctaid.x
// THREAD: nvvm.read.ptx.sreg.tid.x range <i32, 0, 128>
// THREAD-COUNT-2: llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<load, address = 1>} "@$4 ld.global.v4.b32 {$0, $1, $2, $3}, $5;", "=r,=r,=r,=r,b,*m"
// THREAD-COUNT-2: llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<load, address = 1>} "@$4 ld.global.v4.b32 {$0, $1, $2, $3}, $5;", "=r,=r,=r,=r,b,*m"
// THREAD-COUNT-8: arith.addf {{.*}} : f32
// THREAD-COUNT-2: llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<store, address = 1>} "@$0 st.global.v4.b32 $1, {$2, $3, $4, $5};", "b,*m,r,r,r,r"

// CHECK-LABEL: llvm.func @vector_add(
// CHECK-SAME: tile.shared_bytes = 0 : i64
// CHECK-NOT: arith.
// CHECK-NOT: = tile.
// CHECK: llvm.return
