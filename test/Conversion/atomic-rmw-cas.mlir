// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s

// tile.atomic_rmw and tile.atomic_cas (AtomicLowering.cpp): one `atom.<sem>.<scope>.global`
// per element, zeroed first where predicated (masked-off lanes read 0); signed max/min,
// bitwise and/or/xor/exch/cas on .b32/.b64, floats through their bits.

#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @tiles(%p: !tile.ptr<i32>, %f: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #b>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>, #b>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<64xi32, #b>
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32, #b>
  %max = tile.atomic_rmw "max" %pp, %r, mask %m {sem = "acq_rel", scope = "gpu"} : tensor<64x!tile.ptr<i32>, #b>
  tile.store %pp, %max : tensor<64x!tile.ptr<i32>, #b>
  %x = tile.atomic_rmw "xor" %pp, %r {sem = "relaxed", scope = "cta"} : tensor<64x!tile.ptr<i32>, #b>
  %fs = tile.splat %f : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #b>
  %fp = tile.addptr %fs, %r : tensor<64x!tile.ptr<f32>, #b>, tensor<64xi32, #b>
  %one = arith.constant dense<1.0> : tensor<64xf32, #b>
  %zero = arith.constant dense<0.0> : tensor<64xf32, #b>
  %c = tile.atomic_cas %fp, %zero, %one {sem = "acquire", scope = "sys"} : tensor<64x!tile.ptr<f32>, #b>
  tile.store %fp, %c : tensor<64x!tile.ptr<f32>, #b>
  return
}

// CHECK-LABEL: llvm.func @tiles(
// CHECK: %[[M0:.*]] = arith.cmpi slt
// CHECK: %[[M1:.*]] = arith.cmpi slt
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$1 atom.acq_rel.gpu.global.max.s32 $0, [$2], $3;", "=r,b,l,r" %[[M0]]
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$1 atom.acq_rel.gpu.global.max.s32 $0, [$2], $3;", "=r,b,l,r" %[[M1]]
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "atom.relaxed.cta.global.xor.b32 $0, [$1], $2;", "=r,l,r"
// CHECK: %[[Z:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[O:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects "atom.acquire.sys.global.cas.b32 $0, [$1], $2, $3;", "=r,l,r,r" %{{.*}}, %[[Z]], %[[O]]
// CHECK: llvm.bitcast %[[OLD]] : i32 to f32
// CHECK: atom.acquire.sys.global.cas.b32

// -----

// A scalar atomic is performed by thread 0; a used old value goes through the op's scratch
// (placed by tile-allocate-shared) between two barriers to every thread; an unused one
// needs neither.

func.func @spin(%lock: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %old = tile.atomic_cas %lock, %zero, %one {sem = "acq_rel", scope = "gpu"} : !tile.ptr<i32>
  tile.store %lock, %old : !tile.ptr<i32>
  %x = tile.atomic_rmw "xchg" %lock, %zero {sem = "release", scope = "gpu"} : !tile.ptr<i32>
  tile.barrier
  return
}

// CHECK-LABEL: llvm.func @spin(
// CHECK-SAME: tile.shared_bytes = 8
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$1 atom.acq_rel.gpu.global.cas.b32 $0, [$2], $3, $4;", "=r,b,l,r,r" %[[FIRST]]
// CHECK: nvvm.barrier0
// CHECK: llvm.inline_asm has_side_effects "@$0 st.shared.b32 [$1], $2;", "b,l,r" %[[FIRST]], %{{.*}}, %[[OLD]]
// CHECK: nvvm.barrier0
// CHECK: %[[ALL:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: llvm.bitcast %[[ALL]]
// CHECK: st.global.b32{{.*}}%[[FIRST]], %arg0
// CHECK: "mov.b32 $0, 0;\0A\09@$1 atom.release.gpu.global.exch.b32 $0, [$2], $3;"
// CHECK-NOT: st.shared
// CHECK: nvvm.barrier0
// CHECK: llvm.return

