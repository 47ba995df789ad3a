// RUN: tile-opt %s -split-input-file -tile-assign-layouts -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-assign-layouts="num-warps=2" -verify-diagnostics | FileCheck %s --check-prefix=WARPS

// 1-D: one element per thread, 32 lanes, the kernel's warps; every tile the same.
// CHECK: #[[L:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @vector_add
// CHECK-SAME: (%{{.*}}: !tile.ptr<f32>, %{{.*}}: !tile.ptr<f32>, %{{.*}}: i32)
// CHECK: tile.make_range 0 to 1024 : tensor<1024xi32, #[[L]]>
// CHECK: tile.splat %{{.*}} : i32 -> tensor<1024xi32, #[[L]]>
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1024xi32, #[[L]]>
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[L]]>, tensor<1024xi32, #[[L]]>
// CHECK: arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[L]]>
// CHECK: tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[L]]>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<1024xf32, #[[L]]>
// CHECK: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[L]]>
// CHECK-NOT: tile.convert_layout
// WARPS: #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// WARPS-LABEL: func.func @vector_add
// WARPS-SAME: tile.num_warps = 2 : i32
func.func @vector_add(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %b = tile.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %b, %r : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %a = tile.load %xp, mask %mask, other %zero : tensor<1024x!tile.ptr<f32>>
  %s = arith.addf %a, %a : tensor<1024xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %s, mask %mask : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// 2-D: one default layout for the rank, made for the largest tile (32x128, 8 warps);
// 1-D ranges are converted into its slices before expand_dims; a reduction's result is
// the slice, and expand_dims of it the parent again, with no conversion. The 1-D
// constant multiplied with the slice is converted to it (the clean-up re-creates it).
// CHECK-DAG: #[[L1:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-DAG: #[[L2:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
// CHECK-DAG: #[[ROW:.*]] = #tile.slice<{dim = 1, parent = #[[L2]]}>
// CHECK-DAG: #[[COL:.*]] = #tile.slice<{dim = 0, parent = #[[L2]]}>
// CHECK-LABEL: func.func @reduce_expand
// CHECK: %[[R:.*]] = tile.make_range 0 to 32 : tensor<32xi32, #[[L1]]>
// CHECK: %[[C:.*]] = tile.make_range 0 to 128 : tensor<128xi32, #[[L1]]>
// CHECK: %[[RS:.*]] = tile.convert_layout %[[R]] : tensor<32xi32, #[[L1]]> -> tensor<32xi32, #[[ROW]]>
// CHECK: tile.expand_dims %[[RS]], 1 : tensor<32xi32, #[[ROW]]> -> tensor<32x1xi32, #[[L2]]>
// CHECK: %[[CS:.*]] = tile.convert_layout %[[C]] : tensor<128xi32, #[[L1]]> -> tensor<128xi32, #[[COL]]>
// CHECK: tile.expand_dims %[[CS]], 0 : tensor<128xi32, #[[COL]]> -> tensor<1x128xi32, #[[L2]]>
// CHECK: tile.broadcast %{{.*}} : tensor<32x1xi32, #[[L2]]> -> tensor<32x128xi32, #[[L2]]>
// CHECK: %[[X:.*]] = tile.load %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[L2]]>
// CHECK: %[[S:.*]] = tile.reduce sum %[[X]], axis 1 : tensor<32x128xf32, #[[L2]]> -> tensor<32xf32, #[[ROW]]>
// CHECK: tile.expand_dims %[[S]], 1 : tensor<32xf32, #[[ROW]]> -> tensor<32x1xf32, #[[L2]]>
// CHECK: arith.subf %[[X]], %{{.*}} : tensor<32x128xf32, #[[L2]]>
// CHECK: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<32xf32, #[[L1]]>
// CHECK: %[[TWOS:.*]] = tile.convert_layout %[[TWO]] : tensor<32xf32, #[[L1]]> -> tensor<32xf32, #[[ROW]]>
// CHECK: %[[M:.*]] = arith.mulf %[[TWOS]], %[[S]] : tensor<32xf32, #[[ROW]]>
// CHECK: tile.print "s" %[[M]] : tensor<32xf32, #[[ROW]]>
func.func @reduce_expand(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %c = tile.make_range 0 to 128 : tensor<128xi32>
  %r2 = tile.expand_dims %r, 1 : tensor<32xi32> -> tensor<32x1xi32>
  %c2 = tile.expand_dims %c, 0 : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tile.broadcast %r2 : tensor<32x1xi32> -> tensor<32x128xi32>
  %cb = tile.broadcast %c2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %off = arith.addi %rb, %cb : tensor<32x128xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32x128x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %off : tensor<32x128x!tile.ptr<f32>>, tensor<32x128xi32>
  %x = tile.load %pp : tensor<32x128x!tile.ptr<f32>>
  %s = tile.reduce sum %x, axis 1 : tensor<32x128xf32> -> tensor<32xf32>
  %s2 = tile.expand_dims %s, 1 : tensor<32xf32> -> tensor<32x1xf32>
  %sb = tile.broadcast %s2 : tensor<32x1xf32> -> tensor<32x128xf32>
  %y = arith.subf %x, %sb : tensor<32x128xf32>
  %two = arith.constant dense<2.0> : tensor<32xf32>
  %s3 = arith.mulf %two, %s : tensor<32xf32>
  tile.store %pp, %y : tensor<32x128x!tile.ptr<f32>>
  tile.print "s" %s3 : tensor<32xf32>
  return
}

// -----

// scf.for iteration arguments and results take the layout of their initial values and
// what is yielded is converted to it; scf.if results take the then-branch's layout.
// CHECK-DAG: #[[L1:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[L2:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[ROW:.*]] = #tile.slice<{dim = 1, parent = #[[L2]]}>
// CHECK-LABEL: func.func @control
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32, #[[L1]]>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[ZERO]]) -> (tensor<4xf32, #[[L1]]>)
// CHECK:   %[[V:.*]] = tile.load %{{.*}} : tensor<4x128x!tile.ptr<f32>, #[[L2]]>
// CHECK:   %[[S:.*]] = tile.reduce sum %[[V]], axis 1 : tensor<4x128xf32, #[[L2]]> -> tensor<4xf32, #[[ROW]]>
// CHECK:   %[[AS:.*]] = tile.convert_layout %[[A]] : tensor<4xf32, #[[L1]]> -> tensor<4xf32, #[[ROW]]>
// CHECK:   %[[N:.*]] = arith.addf %[[S]], %[[AS]] : tensor<4xf32, #[[ROW]]>
// CHECK:   %[[NB:.*]] = tile.convert_layout %[[N]] : tensor<4xf32, #[[ROW]]> -> tensor<4xf32, #[[L1]]>
// CHECK:   scf.yield %[[NB]] : tensor<4xf32, #[[L1]]>
// CHECK: %[[SEL:.*]] = scf.if %{{.*}} -> (tensor<4xf32, #[[ROW]]>)
// CHECK:   %[[E:.*]] = tile.expand_dims %{{.*}}, 1 : tensor<4xf32, #[[ROW]]> -> tensor<4x1xf32, #[[L2]]>
// CHECK:   scf.yield %{{.*}} : tensor<4xf32, #[[ROW]]>
// CHECK: } else {
// CHECK:   %[[AC:.*]] = tile.convert_layout %[[ACC]] : tensor<4xf32, #[[L1]]> -> tensor<4xf32, #[[ROW]]>
// CHECK:   scf.yield %[[AC]] : tensor<4xf32, #[[ROW]]>
func.func @control(%p: !tile.ptr<f32>, %n: i32, %c: i1) -> () attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %k = tile.make_range 0 to 128 : tensor<128xi32>
  %r2 = tile.expand_dims %r, 1 : tensor<4xi32> -> tensor<4x1xi32>
  %k2 = tile.expand_dims %k, 0 : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tile.broadcast %r2 : tensor<4x1xi32> -> tensor<4x128xi32>
  %kb = tile.broadcast %k2 : tensor<1x128xi32> -> tensor<4x128xi32>
  %off = arith.addi %rb, %kb : tensor<4x128xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4x128x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %off : tensor<4x128x!tile.ptr<f32>>, tensor<4x128xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<4xf32>) : i32 {
    %v = tile.load %pp : tensor<4x128x!tile.ptr<f32>>
    %s = tile.reduce sum %v, axis 1 : tensor<4x128xf32> -> tensor<4xf32>
    %next = arith.addf %s, %a : tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  %sel = scf.if %c -> tensor<4xf32> {
    %v = tile.load %pp : tensor<4x128x!tile.ptr<f32>>
    %m = tile.reduce max %v, axis 1 : tensor<4x128xf32> -> tensor<4xf32>
    %e = tile.expand_dims %m, 1 : tensor<4xf32> -> tensor<4x1xf32>
    scf.yield %m : tensor<4xf32>
  } else {
    scf.yield %acc : tensor<4xf32>
  }
  %s1 = tile.expand_dims %sel, 1 : tensor<4xf32> -> tensor<4x1xf32>
  %sb = tile.broadcast %s1 : tensor<4x1xf32> -> tensor<4x128xf32>
  tile.store %pp, %sb : tensor<4x128x!tile.ptr<f32>>
  return
}

// -----

// expected-error @below {{function boundaries must carry scalars and pointers only}}
func.func @helper(%t: tensor<16xf32>) -> tensor<16xf32> {
  return %t : tensor<16xf32>
}
