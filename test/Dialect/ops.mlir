// Every tile op and attribute prints and parses back to the same IR.
// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | tile-opt | FileCheck %s

// CHECK: #[[B1:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[B2:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[B3:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK: #[[S:.*]] = #tile.slice<{dim = 1, parent = #[[B2]]}>
#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @grid
func.func @grid() -> (i32, i32) attributes {tile.kernel} {
  // CHECK: tile.program_id 0
  %p = tile.program_id 0
  // CHECK: tile.num_programs 2
  %n = tile.num_programs 2
  return %p, %n : i32, i32
}

// CHECK-LABEL: func.func @tiles
func.func @tiles(%x: !tile.ptr<f32>, %n: i32) {
  // CHECK: tile.make_range 0 to 128 : tensor<128xi32>
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // CHECK: tile.make_range 64 to 128 : tensor<64xi32>
  %r2 = tile.make_range 64 to 128 : tensor<64xi32>
  // CHECK: tile.splat %{{.*}} : i32 -> tensor<128xi32>
  %s = tile.splat %n : i32 -> tensor<128xi32>
  // CHECK: tile.splat %{{.*}} : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %ps = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  // CHECK: tile.expand_dims %{{.*}}, 1 : tensor<128xi32> -> tensor<128x1xi32>
  %e = tile.expand_dims %r, 1 : tensor<128xi32> -> tensor<128x1xi32>
  // CHECK: tile.expand_dims %{{.*}}, 0 : tensor<64xi32> -> tensor<1x64xi32>
  %e0 = tile.expand_dims %r2, 0 : tensor<64xi32> -> tensor<1x64xi32>
  // CHECK: tile.broadcast %{{.*}} : tensor<128x1xi32> -> tensor<128x64xi32>
  %b = tile.broadcast %e : tensor<128x1xi32> -> tensor<128x64xi32>
  // CHECK: tile.broadcast %{{.*}} : tensor<1x64xi32> -> tensor<128x64xi32>
  %b0 = tile.broadcast %e0 : tensor<1x64xi32> -> tensor<128x64xi32>
  %sum = arith.addi %b, %b0 : tensor<128x64xi32>
  // CHECK: tile.hint %{{.*}} {contiguity = array<i32: 128>, divisibility = array<i32: 16>} : tensor<128xi32>
  %h = tile.hint %r {divisibility = array<i32: 16>, contiguity = array<i32: 128>} : tensor<128xi32>
  // CHECK: tile.hint %{{.*}} {divisibility = array<i32: 16>} : i32
  %hn = tile.hint %n {divisibility = array<i32: 16>} : i32
  // CHECK: tile.hint %{{.*}} {divisibility = array<i32: 16>} : !tile.ptr<f32>
  %hx = tile.hint %x {divisibility = array<i32: 16>} : !tile.ptr<f32>
  return
}

// CHECK-LABEL: func.func @memory
func.func @memory(%x: !tile.ptr<f16>, %n: i32) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %s = tile.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %s : tensor<128xi32>
  %ps = tile.splat %x : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  %p = tile.addptr %ps, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f16>, i64
  %c5 = arith.constant 5 : i64
  %q = tile.addptr %x, %c5 : !tile.ptr<f16>, i64
  %z = arith.constant dense<0.0> : tensor<128xf16>
  // CHECK: tile.load %{{.*}} : tensor<128x!tile.ptr<f16>>
  %v0 = tile.load %p : tensor<128x!tile.ptr<f16>>
  // CHECK: tile.load %{{.*}}, mask %{{.*}} : tensor<128x!tile.ptr<f16>>
  %v1 = tile.load %p, mask %m : tensor<128x!tile.ptr<f16>>
  // CHECK: tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<128x!tile.ptr<f16>>
  %v2 = tile.load %p, mask %m, other %z : tensor<128x!tile.ptr<f16>>
  // CHECK: tile.load %{{.*}} : !tile.ptr<f16>
  %v3 = tile.load %q : !tile.ptr<f16>
  // CHECK: tile.store %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f16>>
  tile.store %p, %v0 : tensor<128x!tile.ptr<f16>>
  // CHECK: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<128x!tile.ptr<f16>>
  tile.store %p, %v2, mask %m : tensor<128x!tile.ptr<f16>>
  // CHECK: tile.store %{{.*}}, %{{.*}} : !tile.ptr<f16>
  tile.store %q, %v3 : !tile.ptr<f16>
  return
}

// CHECK-LABEL: func.func @atomics
func.func @atomics(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>, %m: tensor<128xi1>,
                   %q: !tile.ptr<i32>, %one: i32, %l: tensor<128x!tile.ptr<i64>>,
                   %w: tensor<128xi64>) {
  // CHECK: tile.atomic_add %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<128x!tile.ptr<f32>>
  %a = tile.atomic_add %p, %v, mask %m : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.atomic_add %{{.*}}, %{{.*}} : !tile.ptr<i32>
  %b = tile.atomic_add %q, %one : !tile.ptr<i32>
  // CHECK: tile.atomic_add %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<i64>>
  %c = tile.atomic_add %l, %w : tensor<128x!tile.ptr<i64>>
  return
}

// CHECK-LABEL: func.func @reduce_dot
func.func @reduce_dot(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>,
                      %v: tensor<128xf32>, %bf: tensor<16x16xbf16>, %acc: tensor<16x16xf32>) {
  // CHECK: tile.reduce sum %{{.*}}, axis 0 : tensor<128xf32> -> f32
  %s = tile.reduce sum %v, axis 0 : tensor<128xf32> -> f32
  // CHECK: tile.reduce max %{{.*}}, axis 1 : tensor<64x64xf32> -> tensor<64xf32>
  %m = tile.reduce max %c, axis 1 : tensor<64x64xf32> -> tensor<64xf32>
  // CHECK: tile.reduce min %{{.*}}, axis 0 : tensor<64x64xf32> -> tensor<64xf32>
  %mi = tile.reduce min %c, axis 0 : tensor<64x64xf32> -> tensor<64xf32>
  // CHECK: tile.reduce argmax %{{.*}}, axis 0 : tensor<128xf32> -> i32
  %am = tile.reduce argmax %v, axis 0 : tensor<128xf32> -> i32
  // CHECK: tile.reduce argmin %{{.*}}, axis 1 : tensor<64x64xf32> -> tensor<64xi32>
  %an = tile.reduce argmin %c, axis 1 : tensor<64x64xf32> -> tensor<64xi32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  %d2 = tile.dot %bf, %bf, %acc : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  // CHECK: tile.print "s = " %{{.*}}, %{{.*}} : f32, tensor<128xf32>
  tile.print "s = " %s, %v : f32, tensor<128xf32>
  // CHECK: tile.print "here"
  tile.print "here"
  return
}

// CHECK-LABEL: func.func @layouts
func.func @layouts(%v: tensor<512xf32, #b1>, %t: tensor<64x64xf32, #b2>) {
  // CHECK: tile.convert_layout %{{.*}} : tensor<64x64xf32, #[[B2]]> -> tensor<64x64xf32, #[[B3]]>
  %c = tile.convert_layout %t : tensor<64x64xf32, #b2> -> tensor<64x64xf32, #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>
  // CHECK: tile.reduce sum %{{.*}}, axis 1 : tensor<64x64xf32, #[[B2]]> -> tensor<64xf32, #[[S]]>
  %r = tile.reduce sum %t, axis 1 : tensor<64x64xf32, #b2> -> tensor<64xf32, #tile.slice<{dim = 1, parent = #b2}>>
  // CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<512xf32, #[[B1]]>
  %a = arith.addf %v, %v : tensor<512xf32, #b1>
  return
}
