// The verifier errors of !tile.tensormap, its argument attribute, tile.tma_load and the
// mbarrier ops; and a kernel with them that parses and prints back.
// RUN: tile-opt %s -split-input-file -verify-diagnostics
// RUN: tile-opt %s -split-input-file -verify-diagnostics 2>/dev/null | FileCheck %s

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
// CHECK-LABEL: func.func @roundtrip
// CHECK-SAME: !tile.tensormap<[64, 64], f16, swizzle = 128> {tile.tensormap = {dims = ["K", "M"], param = "a", strides_bytes = ["s * 2"]}}
// CHECK: tile.mbarrier_init %{{.*}} {count = 1 : i32} : !tile.smem<2x1xi64
// CHECK: tile.mbarrier_expect %{{.*}} {bytes = 16384 : i32}
// CHECK: tile.tma_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x128xf16
// CHECK: tile.mbarrier_wait %{{.*}}, %{{.*}} :
func.func @roundtrip(%a: !tile.ptr<f16>, %s: i32,
    %m: !tile.tensormap<[64, 64], f16, swizzle = 128> {tile.tensormap = {param = "a", dims = ["K", "M"], strides_bytes = ["s * 2"]}}) {
  %c0 = arith.constant 0 : i32
  %bars = tile.local_alloc -> !tile.smem<2x1xi64, #b>
  tile.mbarrier_init %bars {count = 1 : i32} : !tile.smem<2x1xi64, #b>
  %bar = tile.memdesc_index %bars[%c0] : !tile.smem<2x1xi64, #b> -> !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x128xf16, #s>
  tile.mbarrier_expect %bar {bytes = 16384 : i32} : !tile.smem<1xi64, #b>
  tile.tma_load %m[%c0, %c0], %t, %bar : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x128xf16, #s>, !tile.smem<1xi64, #b>
  tile.mbarrier_wait %bar, %c0 : !tile.smem<1xi64, #b>
  return
}

// -----

// expected-error@+1 {{a tensor map's box dimensions are 1 to 256 elements, not 512}}
func.func @box(%m: !tile.tensormap<[512, 64], f16, swizzle = 128>) {
  return
}

// -----

// expected-error@+1 {{a tensor map's swizzle is 0, 32, 64 or 128 bytes, not 48}}
func.func @swizzle(%m: !tile.tensormap<[64, 64], f16, swizzle = 48>) {
  return
}

// -----

// expected-error@+1 {{a 64-byte swizzle takes box rows of at most 64 bytes, not 128}}
func.func @wide(%m: !tile.tensormap<[64, 64], f16, swizzle = 64>) {
  return
}

// -----

// expected-error@+1 {{a tensor map's box rows are multiples of 16 bytes, not 8}}
func.func @narrow(%m: !tile.tensormap<[64, 4], f16, swizzle = 0>) {
  return
}

// -----

// expected-error@+1 {{'tile.tensormap' belongs on a !tile.tensormap argument, not #0}}
func.func @attr_on_pointer(%a: !tile.ptr<f16> {tile.tensormap = {param = "a", dims = ["K", "M"], strides_bytes = ["8"]}}) {
  return
}

// -----

// expected-error@+1 {{'tile.tensormap' (argument #0) is {param = "NAME", dims = [2 strings], strides_bytes = [1 strings]}}}
func.func @attr_shape(%m: !tile.tensormap<[64, 64], f16, swizzle = 128> {tile.tensormap = {param = "a", dims = ["K"], strides_bytes = ["8"]}}) {
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 64, order = [1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @swizzle_mismatch(%m: !tile.tensormap<[64, 64], f16, swizzle = 128>, %i: i32) {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  // expected-error@+1 {{copies with a 128-byte swizzle into a tile swizzled by 64 bytes}}
  tile.tma_load %m[%i, %i], %t, %bar : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x64xf16, #s>, !tile.smem<1xi64, #b>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @coords(%m: !tile.tensormap<[64, 64], f16, swizzle = 128>, %i: i32) {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  // expected-error@+1 {{takes 2 coordinates for a rank-2 tensor map, not 1}}
  tile.tma_load %m[%i], %t, %bar : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x64xf16, #s>, !tile.smem<1xi64, #b>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @element(%m: !tile.tensormap<[64, 64], bf16, swizzle = 128>, %i: i32) {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  // expected-error@+1 {{copies 'bf16' into a tile of 'f16'}}
  tile.tma_load %m[%i, %i], %t, %bar : !tile.tensormap<[64, 64], bf16, swizzle = 128>, !tile.smem<64x64xf16, #s>, !tile.smem<1xi64, #b>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [0, 1]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @column_major(%m: !tile.tensormap<[64, 64], f16, swizzle = 128>, %i: i32) {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  // expected-error@+1 {{copies into tiles whose rows run along the last dimension}}
  tile.tma_load %m[%i, %i], %t, %bar : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x64xf16, #s>, !tile.smem<1xi64, #b>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @not_dividing(%m: !tile.tensormap<[48, 64], f16, swizzle = 128>, %i: i32) {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  // expected-error@+1 {{in boxes of 48 along dimension 0, which do not divide it}}
  tile.tma_load %m[%i, %i], %t, %bar : !tile.tensormap<[48, 64], f16, swizzle = 128>, !tile.smem<64x64xf16, #s>, !tile.smem<1xi64, #b>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @box_narrower_than_atom(%m: !tile.tensormap<[64, 32], f16, swizzle = 128>, %i: i32) {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  // expected-error@+1 {{copies boxes 32 elements wide into rows of 64 (the tile's, or its swizzle atoms')}}
  tile.tma_load %m[%i, %i], %t, %bar : !tile.tensormap<[64, 32], f16, swizzle = 128>, !tile.smem<64x64xf16, #s>, !tile.smem<1xi64, #b>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @rows_of_four(%m: !tile.tensormap<[4, 64], f16, swizzle = 128>, %i: i32) {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  // expected-error@+1 {{splits a swizzled tile into boxes of 4 rows, not a multiple of 8}}
  tile.tma_load %m[%i, %i], %t, %bar : !tile.tensormap<[4, 64], f16, swizzle = 128>, !tile.smem<64x64xf16, #s>, !tile.smem<1xi64, #b>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @ring_barrier(%m: !tile.tensormap<[64, 64], f16, swizzle = 128>, %i: i32) {
  %bars = tile.local_alloc -> !tile.smem<2x1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<64x64xf16, #s>
  // expected-error@+1 {{takes one mbarrier (!tile.smem<1xi64, ...>), not}}
  tile.tma_load %m[%i, %i], %t, %bars : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x64xf16, #s>, !tile.smem<2x1xi64, #b>
  return
}

// -----

#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @i32_barrier() {
  %bar = tile.local_alloc -> !tile.smem<2xi32, #b>
  // expected-error@+1 {{takes mbarriers (!tile.smem<[S x]1xi64, ...>), not}}
  tile.mbarrier_init %bar {count = 1 : i32} : !tile.smem<2xi32, #b>
  return
}

// -----

#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @count() {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  // expected-error@+1 {{expects 1 to 2^20 - 1 arrivals, not 0}}
  tile.mbarrier_init %bar {count = 0 : i32} : !tile.smem<1xi64, #b>
  return
}

// -----

#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @bytes() {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  // expected-error@+1 {{expects 0 to 2^20 - 1 bytes, not 1048576}}
  tile.mbarrier_expect %bar {bytes = 1048576 : i32} : !tile.smem<1xi64, #b>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [2, 1, 0]}>
#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @middle(%m: !tile.tensormap<[2, 4, 64], f16, swizzle = 128>, %i: i32) {
  %bar = tile.local_alloc -> !tile.smem<1xi64, #b>
  %t = tile.local_alloc -> !tile.smem<2x8x64xf16, #s>
  // expected-error@+1 {{copies boxes that cut dimension 1 of}}
  tile.tma_load %m[%i, %i, %i], %t, %bar : !tile.tensormap<[2, 4, 64], f16, swizzle = 128>, !tile.smem<2x8x64xf16, #s>, !tile.smem<1xi64, #b>
  return
}

// -----

#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @inval_i32() {
  %bar = tile.local_alloc -> !tile.smem<2xi32, #b>
  // expected-error@+1 {{takes mbarriers (!tile.smem<[S x]1xi64, ...>), not}}
  tile.mbarrier_inval %bar : !tile.smem<2xi32, #b>
  return
}

// -----

// tile.tma_store: the same rules as tile.tma_load, with "from" for the shared tile.
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
// CHECK-LABEL: func.func @store_roundtrip
// CHECK: tile.tma_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x128xf16
func.func @store_roundtrip(%m: !tile.tensormap<[64, 64], f16, swizzle = 128>, %r: i32, %c: i32) {
  %t = tile.local_alloc -> !tile.smem<64x128xf16, #s>
  tile.tma_store %m[%r, %c], %t : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x128xf16, #s>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @store_coords(%m: !tile.tensormap<[64, 64], f16, swizzle = 128>, %r: i32) {
  %t = tile.local_alloc -> !tile.smem<64x128xf16, #s>
  // expected-error@+1 {{takes 2 coordinates for a rank-2 tensor map, not 1}}
  tile.tma_store %m[%r], %t : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x128xf16, #s>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @store_type(%m: !tile.tensormap<[64, 64], f16, swizzle = 128>, %r: i32) {
  %t = tile.local_alloc -> !tile.smem<64x64xf32, #s>
  // expected-error@+1 {{copies 'f16' from a tile of 'f32'}}
  tile.tma_store %m[%r, %r], %t : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x64xf32, #s>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 64, order = [1, 0]}>
func.func @store_swizzle(%m: !tile.tensormap<[64, 64], f16, swizzle = 128>, %r: i32) {
  %t = tile.local_alloc -> !tile.smem<64x128xf16, #s>
  // expected-error@+1 {{copies with a 128-byte swizzle from a tile swizzled by 64 bytes}}
  tile.tma_store %m[%r, %r], %t : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x128xf16, #s>
  return
}
