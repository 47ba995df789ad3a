// RUN: tile-opt %s -split-input-file -tile-coalesce | FileCheck %s

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// 16-byte aligned f32: 4 per thread (16 bytes); operands are converted into the load's
// and store's layout, the loaded value back to what its users have.
// CHECK: #[[L:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[V:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @aligned
// CHECK: %[[P:.*]] = tile.convert_layout %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[L]]> -> tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: %[[X:.*]] = tile.load %[[P]] : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: %[[XB:.*]] = tile.convert_layout %[[X]] : tensor<1024xf32, #[[V]]> -> tensor<1024xf32, #[[L]]>
// CHECK: %[[Y:.*]] = arith.addf %[[XB]], %[[XB]] : tensor<1024xf32, #[[L]]>
// CHECK: %[[Q:.*]] = tile.convert_layout %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[L]]> -> tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: %[[YV:.*]] = tile.convert_layout %[[Y]] : tensor<1024xf32, #[[L]]> -> tensor<1024xf32, #[[V]]>
// CHECK: tile.store %[[Q]], %[[YV]] : tensor<1024x!tile.ptr<f32>, #[[V]]>
func.func @aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #L>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #L>
  %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #L>, tensor<1024xi32, #L>
  %a = tile.load %xp : tensor<1024x!tile.ptr<f32>, #L>
  %b = arith.addf %a, %a : tensor<1024xf32, #L>
  tile.store %xp, %b : tensor<1024x!tile.ptr<f32>, #L>
  return
}

// -----

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Unaligned (only 4-byte) f32 pointers: one element per thread, so that each warp
// instruction covers 32 consecutive elements; that is the layout already there.
// CHECK-LABEL: func.func @unaligned
// CHECK-NOT: tile.convert_layout
// CHECK: tile.load %{{.*}}, mask %{{.*}} : tensor<1024x!tile.ptr<f32>, #{{.*}}>
// CHECK-NOT: tile.convert_layout
func.func @unaligned(%x: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #L>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #L>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #L>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #L>
  %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #L>, tensor<1024xi32, #L>
  %a = tile.load %xp, mask %m : tensor<1024x!tile.ptr<f32>, #L>
  tile.store %xp, %a, mask %m : tensor<1024x!tile.ptr<f32>, #L>
  return
}

// -----

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// f16: 8 per thread (16 bytes); mask and other are converted too. A 256-element tile
// of f32 on 128 threads: 2 per thread, its share.
// CHECK-DAG: #[[H:.*]] = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[S:.*]] = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @widths
// CHECK: %[[P:.*]] = tile.convert_layout %{{.*}} -> tensor<1024x!tile.ptr<f16>, #[[H]]>
// CHECK: %[[M:.*]] = tile.convert_layout %{{.*}} -> tensor<1024xi1, #[[H]]>
// CHECK: %[[O:.*]] = tile.convert_layout %{{.*}} -> tensor<1024xf16, #[[H]]>
// CHECK: tile.load %[[P]], mask %[[M]], other %[[O]] : tensor<1024x!tile.ptr<f16>, #[[H]]>
// CHECK: tile.load %{{.*}} : tensor<256x!tile.ptr<f32>, #[[S]]>
func.func @widths(%h: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %f: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) -> (tensor<1024xf16, #L>, tensor<256xf32, #L>) attributes {tile.kernel} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #L>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #L>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #L>
  %hs = tile.splat %h : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #L>
  %hp = tile.addptr %hs, %r : tensor<1024x!tile.ptr<f16>, #L>, tensor<1024xi32, #L>
  %zero = arith.constant dense<0.0> : tensor<1024xf16, #L>
  %a = tile.load %hp, mask %m, other %zero : tensor<1024x!tile.ptr<f16>, #L>
  %r256 = tile.make_range 0 to 256 : tensor<256xi32, #L>
  %fs = tile.splat %f : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #L>
  %fp = tile.addptr %fs, %r256 : tensor<256x!tile.ptr<f32>, #L>, tensor<256xi32, #L>
  %b = tile.load %fp : tensor<256x!tile.ptr<f32>, #L>
  return %a, %b : tensor<1024xf16, #L>, tensor<256xf32, #L>
}

// -----

#L = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#R = #tile.slice<{dim = 1, parent = #L}>
#C = #tile.slice<{dim = 0, parent = #L}>

// A 64x64 transpose: rows of the input are contiguous (order [1, 0], 4 per thread along
// dimension 1: a warp covers 2 rows of 256 bytes); columns of the output are (order
// [0, 1]). Strides divisible by 16 keep every row aligned.
// CHECK-DAG: #[[IN:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[OUT:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @transpose
// CHECK: tile.load %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[IN]]>
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[OUT]]>
func.func @transpose(%in: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sin: i32 {tile.divisibility = 16 : i32}, %sout: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %rr = tile.make_range 0 to 64 : tensor<64xi32, #R>
  %rc = tile.make_range 0 to 64 : tensor<64xi32, #C>
  %r2 = tile.expand_dims %rr, 1 : tensor<64xi32, #R> -> tensor<64x1xi32, #L>
  %c2 = tile.expand_dims %rc, 0 : tensor<64xi32, #C> -> tensor<1x64xi32, #L>
  %si = tile.splat %sin : i32 -> tensor<64x1xi32, #L>
  %ri = arith.muli %r2, %si : tensor<64x1xi32, #L>
  %rib = tile.broadcast %ri : tensor<64x1xi32, #L> -> tensor<64x64xi32, #L>
  %cb = tile.broadcast %c2 : tensor<1x64xi32, #L> -> tensor<64x64xi32, #L>
  %ioff = arith.addi %rib, %cb : tensor<64x64xi32, #L>
  %is = tile.splat %in : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #L>
  %ip = tile.addptr %is, %ioff : tensor<64x64x!tile.ptr<f32>, #L>, tensor<64x64xi32, #L>
  %x = tile.load %ip : tensor<64x64x!tile.ptr<f32>, #L>
  %so = tile.splat %sout : i32 -> tensor<1x64xi32, #L>
  %co = arith.muli %c2, %so : tensor<1x64xi32, #L>
  %cob = tile.broadcast %co : tensor<1x64xi32, #L> -> tensor<64x64xi32, #L>
  %rb = tile.broadcast %r2 : tensor<64x1xi32, #L> -> tensor<64x64xi32, #L>
  %ooff = arith.addi %cob, %rb : tensor<64x64xi32, #L>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #L>
  %op = tile.addptr %os, %ooff : tensor<64x64x!tile.ptr<f32>, #L>, tensor<64x64xi32, #L>
  tile.store %op, %x : tensor<64x64x!tile.ptr<f32>, #L>
  return
}

// -----

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Scalar loads and stores have nothing to lay out.
// CHECK-LABEL: func.func @scalar
// CHECK-NOT: tile.convert_layout
func.func @scalar(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %v = tile.load %p : !tile.ptr<f32>
  tile.store %p, %v : !tile.ptr<f32>
  return
}

// -----

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// atomic_add is laid out like a store (its result converted back like a load's); it is
// never vectorised (tile-mask gives it no vec): one atomic per element.
// CHECK: #[[L:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[V:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @atomic
// CHECK: %[[P:.*]] = tile.convert_layout %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[L]]> -> tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: %[[A:.*]] = tile.convert_layout %{{.*}} : tensor<1024xf32, #[[L]]> -> tensor<1024xf32, #[[V]]>
// CHECK: %[[O:.*]] = tile.atomic_add %[[P]], %[[A]] : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: %[[OB:.*]] = tile.convert_layout %[[O]] : tensor<1024xf32, #[[V]]> -> tensor<1024xf32, #[[L]]>
// CHECK: arith.addf %[[OB]], %[[OB]] : tensor<1024xf32, #[[L]]>
func.func @atomic(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #L>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #L>
  %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #L>, tensor<1024xi32, #L>
  %one = arith.constant dense<1.0> : tensor<1024xf32, #L>
  %o = tile.atomic_add %xp, %one : tensor<1024x!tile.ptr<f32>, #L>
  %b = arith.addf %o, %o : tensor<1024xf32, #L>
  tile.store %xp, %b : tensor<1024x!tile.ptr<f32>, #L>
  return
}
