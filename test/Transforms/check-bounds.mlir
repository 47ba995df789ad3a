// RUN: tile-opt %s -split-input-file -tile-check-bounds | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-check-bounds -tile-mask -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s --check-prefix=NVVM

// A copy: the load's mask gains the bounds of x, the unmasked store gets the bounds of
// out as its mask; each records its violations with its line, kind and parameter. The
// kernel takes an extent per pointer and the record after its parameters.
// CHECK-LABEL: func.func @copy(
// CHECK-SAME: %[[X:[^:]*]]: !tile.ptr<f32>, %[[OUT:[^:]*]]: !tile.ptr<f32>, %[[N:[^:]*]]: i32,
// CHECK-SAME: %[[EX:[^:]*]]: i64, %[[EOUT:[^:]*]]: i64, %[[REC:[^:]*]]: !tile.ptr<i32>)
// CHECK-SAME: tile.arg_names = ["x", "out", "n", "x.extent", "out.extent", "tcc.bounds_record"]
// CHECK-SAME: tile.check_bounds, tile.check_bounds_unchecked = 0 : i32
// CHECK-DAG: %[[P0:.*]] = tile.program_id 0
// CHECK-DAG: %[[P1:.*]] = tile.program_id 1
// CHECK-DAG: %[[P2:.*]] = tile.program_id 2
// CHECK: %[[PX:.*]] = tile.addptr
// CHECK: %[[OFF:.*]] = tile.ptr_offset %[[PX]], %[[X]] : tensor<128x!tile.ptr<f32>>, !tile.ptr<f32> -> tensor<128xi64>
// CHECK: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK: %[[LAST:.*]] = arith.subi %[[EX]], %[[FOUR]] : i64
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[OFF]], %{{.*}} : tensor<128xi64>
// CHECK: %[[LASTS:.*]] = tile.splat %[[LAST]] : i64 -> tensor<128xi64>
// CHECK: %[[LE:.*]] = arith.cmpi sle, %[[OFF]], %[[LASTS]] : tensor<128xi64>
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LE]] : tensor<128xi1>
// CHECK: %[[OUTSIDE:.*]] = arith.xori %[[IN]], %{{.*}} : tensor<128xi1>
// CHECK: %[[BAD:.*]] = arith.andi %[[M:.*]], %[[OUTSIDE]] : tensor<128xi1>
// CHECK: tile.record_oob %[[REC]], %[[BAD]], %[[OFF]], pid(%[[P0]], %[[P1]], %[[P2]]) {arg = 0 : i32, column = 9 : i32, kind = 0 : i32, line = 7 : i32}
// CHECK: %[[OK:.*]] = arith.andi %[[M]], %[[IN]] : tensor<128xi1>
// CHECK: %[[V:.*]] = tile.load %[[PX]], mask %[[OK]], other %{{.*}} : tensor<128x!tile.ptr<f32>>
// CHECK: %[[PO:.*]] = tile.addptr
// CHECK: %[[OFF2:.*]] = tile.ptr_offset %[[PO]], %[[OUT]]
// CHECK: arith.subi %[[EOUT]],
// CHECK: %[[IN2:.*]] = arith.andi
// CHECK: %[[OUTSIDE2:.*]] = arith.xori %[[IN2]]
// CHECK: tile.record_oob %[[REC]], %[[OUTSIDE2]], %[[OFF2]], pid(%[[P0]], %[[P1]], %[[P2]]) {arg = 1 : i32, column = 5 : i32, kind = 1 : i32, line = 8 : i32}
// CHECK: tile.store %[[PO]], %[[V]], mask %[[IN2]] : tensor<128x!tile.ptr<f32>>

// Lowered: the offsets are ptrtoint differences, the record one compare-and-swap per
// thread and predicated stores of the fields.
// NVVM-LABEL: llvm.func @copy(
// NVVM-SAME: %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr<1>)
// NVVM: llvm.ptrtoint
// NVVM: llvm.sub
// NVVM: llvm.inline_asm has_side_effects {{.*}}"{{.*}}@$0 atom.global.cas.b32 %old, [$1], 0, 1;{{.*}}@%won st.global.b32 [$1+4], $2;{{.*}}@%won st.global.b64 [$1+32], $9;{{.*}}", "b,l,r,r,r,r,r,r,r,l,~{memory}"
func.func @copy(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.arg_names = ["x", "out", "n"]} {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %px = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %v = tile.load %px, mask %m, other %zero : tensor<128x!tile.ptr<f32>> loc("copy.tile":7:9)
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %po = tile.addptr %os, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %po, %v : tensor<128x!tile.ptr<f32>> loc("copy.tile":8:5)
  return
}

// -----

// A pointer advanced in a loop comes from its argument (the initial and the yielded value
// both do); a pointer chosen between two arguments by an scf.if cannot be traced: not checked, counted.
// Scalar accesses are checked with scalars.
// CHECK-LABEL: func.func @loop(
// CHECK-SAME: %[[A:[^:]*]]: !tile.ptr<i32>, %[[B:[^:]*]]: !tile.ptr<i32>, %{{.*}}: i32, %{{.*}}: i1, %[[EA:[^:]*]]: i64, %[[EB:[^:]*]]: i64, %[[REC:[^:]*]]: !tile.ptr<i32>)
// CHECK-SAME: tile.check_bounds_unchecked = 1 : i32
// CHECK: scf.for
// CHECK: %[[OFF:.*]] = tile.ptr_offset %{{.*}}, %[[A]] : !tile.ptr<i32>, !tile.ptr<i32> -> i64
// CHECK: arith.subi %[[EA]], %{{.*}} : i64
// CHECK: tile.record_oob %[[REC]], %{{.*}}, %[[OFF]], pid({{.*}}) {arg = 0 : i32, column = {{[0-9]+}} : i32, kind = 2 : i32, line = {{[0-9]+}} : i32} : !tile.ptr<i32>, i1, i64
// CHECK: tile.atomic_add %{{.*}}, %{{.*}}, mask %{{.*}} : !tile.ptr<i32>
// CHECK: tile.store %{{.*}}, %{{.*}} {tile.unchecked} : !tile.ptr<i32>
// CHECK-NOT: tile.record_oob
func.func @loop(%a: !tile.ptr<i32>, %b: !tile.ptr<i32>, %n: i32, %c: i1)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %end = scf.for %i = %c0 to %n step %c1 iter_args(%p = %a) -> (!tile.ptr<i32>) : i32 {
    %old = tile.atomic_add %p, %c1 : !tile.ptr<i32>
    %q = tile.addptr %p, %c1 : !tile.ptr<i32>, i32
    scf.yield %q : !tile.ptr<i32>
  }
  %s = scf.if %c -> (!tile.ptr<i32>) {
    scf.yield %a : !tile.ptr<i32>
  } else {
    scf.yield %b : !tile.ptr<i32>
  }
  tile.store %s, %c1 : !tile.ptr<i32>
  return
}
