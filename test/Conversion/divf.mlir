// f32/f16 division lowers to div.full.f32 (as Triton's `/`), f64 stays IEEE.
// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s

// CHECK-LABEL: llvm.func @div
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.fpext
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"
// CHECK: llvm.fptrunc {{.*}} to f16
// CHECK: llvm.fdiv {{.*}} : f64
func.func @div(%a: f32, %b: f32, %h: f16, %d: f64, %p: !tile.ptr<f32>, %q: !tile.ptr<f16>, %r: !tile.ptr<f64>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = arith.divf %a, %b : f32
  tile.store %p, %x : !tile.ptr<f32>
  %y = arith.divf %h, %h : f16
  tile.store %q, %y : !tile.ptr<f16>
  %z = arith.divf %d, %d : f64
  tile.store %r, %z : !tile.ptr<f64>
  return
}
