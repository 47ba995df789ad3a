// RUN: tile-opt %s -split-input-file -tile-mask | FileCheck %s

#V = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// `arange(0, 128) < 128` holds everywhere: the masks (and `other`) go.
// CHECK-LABEL: func.func @always_true
// CHECK: %[[X:.*]] = tile.load %[[P:.*]] {vec = 4 : i32} : tensor<128x!tile.ptr<f32>, #{{.*}}>
// CHECK: tile.store %[[P]], %[[X]] {vec = 4 : i32} : tensor<128x!tile.ptr<f32>, #{{.*}}>
func.func @always_true(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #V>
  %c128 = arith.constant dense<128> : tensor<128xi32, #V>
  %m = arith.cmpi slt, %r, %c128 : tensor<128xi32, #V>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #V>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #V>, tensor<128xi32, #V>
  %zero = arith.constant dense<0.0> : tensor<128xf32, #V>
  %x = tile.load %pp, mask %m, other %zero : tensor<128x!tile.ptr<f32>, #V>
  tile.store %pp, %x, mask %m : tensor<128x!tile.ptr<f32>, #V>
  return
}

// -----

#V = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Masks false everywhere: the store goes, the load becomes its `other`.
// CHECK-LABEL: func.func @always_false
// CHECK-NOT: tile.load
// CHECK-NOT: tile.store
// CHECK: return %{{.*}} : tensor<128xf32
func.func @always_false(%p: !tile.ptr<f32>) -> tensor<128xf32, #V> {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #V>
  %c128 = arith.constant dense<128> : tensor<128xi32, #V>
  %m = arith.cmpi sge, %r, %c128 : tensor<128xi32, #V>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #V>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #V>, tensor<128xi32, #V>
  %zero = arith.constant dense<0.0> : tensor<128xf32, #V>
  %x = tile.load %pp, mask %m, other %zero : tensor<128x!tile.ptr<f32>, #V>
  tile.store %pp, %x, mask %m : tensor<128x!tile.ptr<f32>, #V>
  return %x : tensor<128xf32, #V>
}

// -----

#V = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The vector width is bounded by the mask's constancy: `offs < n` with n divisible by
// 16 flips only at multiples of 16 (width 4); with n unknown it may flip anywhere (1).
// Without alignment of the pointers, 1; a multiple_of hint on the base restores 4.
// CHECK-LABEL: func.func @widths
// CHECK: tile.load %{{.*}}, mask %{{.*}} {vec = 4 : i32}
// CHECK: tile.load %{{.*}}, mask %{{.*}} {vec = 1 : i32}
// CHECK: tile.load %{{.*}} {vec = 1 : i32}
// CHECK: tile.load %{{.*}} {vec = 4 : i32}
func.func @widths(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f32>, %n: i32 {tile.divisibility = 16 : i32}, %m: i32) -> (tensor<512xf32, #V>, tensor<512xf32, #V>, tensor<512xf32, #V>, tensor<512xf32, #V>) {
  %pid = tile.program_id 0
  %c512 = arith.constant 512 : i32
  %base = arith.muli %pid, %c512 : i32
  %bs = tile.splat %base : i32 -> tensor<512xi32, #V>
  %r = tile.make_range 0 to 512 : tensor<512xi32, #V>
  %offs = arith.addi %bs, %r : tensor<512xi32, #V>
  %ns = tile.splat %n : i32 -> tensor<512xi32, #V>
  %mn = arith.cmpi slt, %offs, %ns : tensor<512xi32, #V>
  %ms = tile.splat %m : i32 -> tensor<512xi32, #V>
  %mm = arith.cmpi slt, %offs, %ms : tensor<512xi32, #V>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #V>
  %pp = tile.addptr %ps, %offs : tensor<512x!tile.ptr<f32>, #V>, tensor<512xi32, #V>
  %a = tile.load %pp, mask %mn : tensor<512x!tile.ptr<f32>, #V>
  %b = tile.load %pp, mask %mm : tensor<512x!tile.ptr<f32>, #V>
  %qs = tile.splat %q : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #V>
  %qp = tile.addptr %qs, %offs : tensor<512x!tile.ptr<f32>, #V>, tensor<512xi32, #V>
  %c = tile.load %qp : tensor<512x!tile.ptr<f32>, #V>
  %qh = tile.hint %q {divisibility = array<i32: 16>} : !tile.ptr<f32>
  %qhs = tile.splat %qh : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #V>
  %qhp = tile.addptr %qhs, %offs : tensor<512x!tile.ptr<f32>, #V>, tensor<512xi32, #V>
  %d = tile.load %qhp : tensor<512x!tile.ptr<f32>, #V>
  return %a, %b, %c, %d : tensor<512xf32, #V>, tensor<512xf32, #V>, tensor<512xf32, #V>, tensor<512xf32, #V>
}

// -----

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#H = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#W = #tile.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The layout bounds the width (one element per thread: 1), and so do 16 bytes: f16
// with 8 per thread gives 8, f32 with 16 per thread gives 4.
// CHECK-LABEL: func.func @layouts
// CHECK: tile.load %{{.*}} {vec = 1 : i32} : tensor<1024x!tile.ptr<f32>
// CHECK: tile.load %{{.*}} {vec = 8 : i32} : tensor<1024x!tile.ptr<f16>
// CHECK: tile.load %{{.*}} {vec = 4 : i32} : tensor<2048x!tile.ptr<f32>
func.func @layouts(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %h: !tile.ptr<f16> {tile.divisibility = 16 : i32}) -> (tensor<1024xf32, #L>, tensor<1024xf16, #H>, tensor<2048xf32, #W>) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #L>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #L>
  %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>, #L>, tensor<1024xi32, #L>
  %a = tile.load %pp : tensor<1024x!tile.ptr<f32>, #L>
  %rh = tile.make_range 0 to 1024 : tensor<1024xi32, #H>
  %hs = tile.splat %h : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #H>
  %hp = tile.addptr %hs, %rh : tensor<1024x!tile.ptr<f16>, #H>, tensor<1024xi32, #H>
  %b = tile.load %hp : tensor<1024x!tile.ptr<f16>, #H>
  %rw = tile.make_range 0 to 2048 : tensor<2048xi32, #W>
  %ws = tile.splat %p : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>, #W>
  %wp = tile.addptr %ws, %rw : tensor<2048x!tile.ptr<f32>, #W>, tensor<2048xi32, #W>
  %c = tile.load %wp : tensor<2048x!tile.ptr<f32>, #W>
  return %a, %b, %c : tensor<1024xf32, #L>, tensor<1024xf16, #H>, tensor<2048xf32, #W>
}

// -----

#C = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>

// 2-D, contiguous along dimension 0 (a transposed store): the width is taken along
// order[0]; the mask's constancy along that dimension counts.
// CHECK-LABEL: func.func @columns
// CHECK: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} {vec = 4 : i32} : tensor<64x64x!tile.ptr<f32>
func.func @columns(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32 {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %v: tensor<64x64xf32, #C>) {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #tile.slice<{dim = 1, parent = #C}>>
  %c = tile.make_range 0 to 64 : tensor<64xi32, #tile.slice<{dim = 0, parent = #C}>>
  %r2 = tile.expand_dims %r, 1 : tensor<64xi32, #tile.slice<{dim = 1, parent = #C}>> -> tensor<64x1xi32, #C>
  %c2 = tile.expand_dims %c, 0 : tensor<64xi32, #tile.slice<{dim = 0, parent = #C}>> -> tensor<1x64xi32, #C>
  %ss = tile.splat %s : i32 -> tensor<1x64xi32, #C>
  %cs = arith.muli %c2, %ss : tensor<1x64xi32, #C>
  %csb = tile.broadcast %cs : tensor<1x64xi32, #C> -> tensor<64x64xi32, #C>
  %rb = tile.broadcast %r2 : tensor<64x1xi32, #C> -> tensor<64x64xi32, #C>
  %off = arith.addi %csb, %rb : tensor<64x64xi32, #C>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #C>
  %pp = tile.addptr %ps, %off : tensor<64x64x!tile.ptr<f32>, #C>, tensor<64x64xi32, #C>
  %Ms = tile.splat %M : i32 -> tensor<64x1xi32, #C>
  %mr = arith.cmpi slt, %r2, %Ms : tensor<64x1xi32, #C>
  %m = tile.broadcast %mr : tensor<64x1xi1, #C> -> tensor<64x64xi1, #C>
  tile.store %pp, %v, mask %m : tensor<64x64x!tile.ptr<f32>, #C>
  return
}

// -----

// Scalar loads and stores get no width.
// CHECK-LABEL: func.func @scalar
// CHECK: tile.load %{{.*}} : !tile.ptr<f32>
// CHECK-NOT: vec =
func.func @scalar(%p: !tile.ptr<f32>) {
  %v = tile.load %p : !tile.ptr<f32>
  tile.store %p, %v : !tile.ptr<f32>
  return
}

// -----

#V = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Masked off everywhere without `other`: the load stays (its result is undefined, not a
// value to invent) and still gets its width. An unused load goes: the greedy driver erases
// the dead ops it is given (the accesses alone; their address arithmetic stays).
// CHECK-LABEL: func.func @false_without_other
// CHECK: tile.addptr
// CHECK-NEXT: tile.load %{{.*}}, mask %{{.*}} {vec = 4 : i32}
// CHECK-NEXT: return
func.func @false_without_other(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> tensor<128xf32, #V> {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #V>
  %c128 = arith.constant dense<128> : tensor<128xi32, #V>
  %m = arith.cmpi sge, %r, %c128 : tensor<128xi32, #V>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #V>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #V>, tensor<128xi32, #V>
  %x = tile.load %pp, mask %m : tensor<128x!tile.ptr<f32>, #V>
  %unused = tile.load %pp : tensor<128x!tile.ptr<f32>, #V>
  return %x : tensor<128xf32, #V>
}
