// Folders of the tile ops, seen through the canonicalizer.
// RUN: tile-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: func.func @splat_constant
// CHECK: %[[C:.*]] = arith.constant dense<7> : tensor<64xi32>
// CHECK-NOT: tile.splat
// CHECK: return %[[C]]
func.func @splat_constant() -> tensor<64xi32> {
  %c = arith.constant 7 : i32
  %s = tile.splat %c : i32 -> tensor<64xi32>
  return %s : tensor<64xi32>
}

// CHECK-LABEL: func.func @broadcast_identity
// CHECK-NOT: tile.broadcast
// CHECK: return %arg0
func.func @broadcast_identity(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %b = tile.broadcast %x : tensor<4x64xf32> -> tensor<4x64xf32>
  return %b : tensor<4x64xf32>
}

// CHECK-LABEL: func.func @broadcast_splat
// CHECK: arith.constant dense<2.500000e+00> : tensor<8x64xf32>
// CHECK-NOT: tile.broadcast
func.func @broadcast_splat() -> tensor<8x64xf32> {
  %c = arith.constant dense<2.5> : tensor<1x64xf32>
  %b = tile.broadcast %c : tensor<1x64xf32> -> tensor<8x64xf32>
  return %b : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @addptr_zero
// CHECK-NOT: tile.addptr
// CHECK: return %arg0
func.func @addptr_zero(%p: tensor<64x!tile.ptr<f32>>) -> tensor<64x!tile.ptr<f32>> {
  %z = arith.constant dense<0> : tensor<64xi32>
  %q = tile.addptr %p, %z : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  return %q : tensor<64x!tile.ptr<f32>>
}

// CHECK-LABEL: func.func @convert_identity
// CHECK-NOT: tile.convert_layout
func.func @convert_identity(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c = tile.convert_layout %x : tensor<64xf32> -> tensor<64xf32>
  return %c : tensor<64xf32>
}

// Loads and stores have memory effects: the canonicalizer keeps a store and drops an
// unused load only because reads without uses are dead.
// CHECK-LABEL: func.func @effects
// CHECK-NOT: tile.load
// CHECK: tile.store
func.func @effects(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<64xf32>) {
  %l = tile.load %p : tensor<64x!tile.ptr<f32>>
  tile.store %p, %v : tensor<64x!tile.ptr<f32>>
  return
}

#A = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#C = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A conversion of a conversion converts the original value: once, or (back to the
// original layout) not at all.
// CHECK-LABEL: func.func @convert_of_convert
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %arg0 : tensor<128xf32, #{{.*}}> -> tensor<128xf32, #[[$C:.*]]>
// CHECK-NEXT: return %arg0, %[[C]]
func.func @convert_of_convert(%x: tensor<128xf32, #A>) -> (tensor<128xf32, #A>, tensor<128xf32, #C>) {
  %b = tile.convert_layout %x : tensor<128xf32, #A> -> tensor<128xf32, #B>
  %a = tile.convert_layout %b : tensor<128xf32, #B> -> tensor<128xf32, #A>
  %c = tile.convert_layout %b : tensor<128xf32, #B> -> tensor<128xf32, #C>
  return %a, %c : tensor<128xf32, #A>, tensor<128xf32, #C>
}

// A conversion of a value made from scalars is that value made in the new layout.
// CHECK-LABEL: func.func @convert_of_scalar_sources
// CHECK-NOT: tile.convert_layout
// CHECK-DAG: tile.splat %arg0 : i32 -> tensor<128xi32, #[[$B:blocked[0-9]*]]>
// CHECK-DAG: tile.make_range 0 to 128 : tensor<128xi32, #[[$B]]>
// CHECK-DAG: arith.constant dense<3> : tensor<128xi32, #[[$B]]>
// CHECK-NOT: tile.convert_layout
func.func @convert_of_scalar_sources(%n: i32) -> (tensor<128xi32, #B>, tensor<128xi32, #B>, tensor<128xi32, #B>) {
  %s = tile.splat %n : i32 -> tensor<128xi32, #A>
  %r = tile.make_range 0 to 128 : tensor<128xi32, #A>
  %k = arith.constant dense<3> : tensor<128xi32, #A>
  %s2 = tile.convert_layout %s : tensor<128xi32, #A> -> tensor<128xi32, #B>
  %r2 = tile.convert_layout %r : tensor<128xi32, #A> -> tensor<128xi32, #B>
  %k2 = tile.convert_layout %k : tensor<128xi32, #A> -> tensor<128xi32, #B>
  return %s2, %r2, %k2 : tensor<128xi32, #B>, tensor<128xi32, #B>, tensor<128xi32, #B>
}

// A conversion of anything else (a load) stays: it moves data between threads.
// CHECK-LABEL: func.func @convert_of_load
// CHECK: tile.convert_layout
func.func @convert_of_load(%p: tensor<128x!tile.ptr<f32>, #A>) -> tensor<128xf32, #B> {
  %l = tile.load %p : tensor<128x!tile.ptr<f32>, #A>
  %c = tile.convert_layout %l : tensor<128xf32, #A> -> tensor<128xf32, #B>
  return %c : tensor<128xf32, #B>
}

// Constant masks: true everywhere, the access is unmasked (a load loses its `other`);
// false everywhere, a store goes and a load with `other` is its `other`; a load masked
// off everywhere without `other` stays (its result is undefined, not a value to invent).
// CHECK-LABEL: func.func @constant_masks
// CHECK-NEXT: %[[F:.*]] = arith.constant dense<false>
// CHECK-NEXT: %[[L:.*]] = tile.load %arg0 : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %arg0, %[[L]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT: %[[U:.*]] = tile.load %arg0, mask %[[F]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT: return %[[L]], %arg1, %[[U]]
func.func @constant_masks(%p: tensor<64x!tile.ptr<f32>>, %o: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %t = arith.constant dense<true> : tensor<64xi1>
  %f = arith.constant dense<false> : tensor<64xi1>
  %l = tile.load %p, mask %t, other %o : tensor<64x!tile.ptr<f32>>
  tile.store %p, %l, mask %t : tensor<64x!tile.ptr<f32>>
  tile.store %p, %l, mask %f : tensor<64x!tile.ptr<f32>>
  %off = tile.load %p, mask %f, other %o : tensor<64x!tile.ptr<f32>>
  %undef = tile.load %p, mask %f : tensor<64x!tile.ptr<f32>>
  return %l, %off, %undef : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// A mask that is not a constant stays (tile-mask asks AxisInfo about it).
// CHECK-LABEL: func.func @unknown_mask
// CHECK: tile.store %arg0, %arg1, mask %arg2
func.func @unknown_mask(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<64xf32>, %m: tensor<64xi1>) {
  tile.store %p, %v, mask %m : tensor<64x!tile.ptr<f32>>
  return
}

// `acc += dot(a, b)` is `dot(a, b, acc)`: the addition of a product accumulated from zero
// folds into the dot's accumulator (either operand order), so that a K loop carries one
// accumulator, not two plus an element-wise add. A dot with another use, or with a
// non-zero accumulator, stays.
// CHECK-LABEL: func.func @add_into_dot
// CHECK-SAME:  (%[[A:.*]]: tensor<16x16xf16>, %[[B:.*]]: tensor<16x16xf16>, %[[X:.*]]: tensor<16x16xf32>, %[[Y:.*]]: tensor<16x16xf32>)
// CHECK:       %[[P:.*]] = tile.dot %[[A]], %[[B]], %[[X]] {input_precision = "tf32"}
// CHECK:       %[[Q:.*]] = tile.dot %[[A]], %[[B]], %[[P]]
// CHECK:       %[[R:.*]] = tile.dot %[[A]], %[[B]], %[[Y]]
// CHECK:       %[[S:.*]] = arith.addf %[[R]], %[[Q]]
// CHECK:       %[[Z:.*]] = tile.dot %[[A]], %[[B]], %{{.*}}
// CHECK:       %[[T:.*]] = arith.addf %[[Z]], %[[S]]
// CHECK:       arith.addf %[[T]], %[[Z]]
func.func @add_into_dot(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %x: tensor<16x16xf32>,
                        %y: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d0 = tile.dot %a, %b, %zero {input_precision = "tf32"} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  %p = arith.addf %x, %d0 : tensor<16x16xf32>
  %d1 = tile.dot %a, %b, %zero : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  %q = arith.addf %d1, %p : tensor<16x16xf32>
  // The accumulator is not zero: not folded.
  %d2 = tile.dot %a, %b, %y : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  %s = arith.addf %d2, %q : tensor<16x16xf32>
  // Two uses: not folded.
  %d3 = tile.dot %a, %b, %zero : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  %t = arith.addf %d3, %s : tensor<16x16xf32>
  %u = arith.addf %t, %d3 : tensor<16x16xf32>
  return %u : tensor<16x16xf32>
}

// A tile converted only to be stored to shared memory is stored as its threads hold it
// when the bank-conflict model finds those stores no dearer than twice the converted
// tile's (the conversion itself writes and reads the tile): an mma accumulator cast to
// f16 (flash attention's P) is stored straight from the accumulator layout; a layout
// whose warps write 2-byte elements down a column, 4-way conflicted, keeps its
// conversion.
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#rows = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#sw = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
// CHECK-LABEL: func.func @store_without_conversion
// CHECK-NOT: tile.convert_layout
// CHECK: tile.local_alloc %arg0 : tensor<64x64xf16, #mma>
func.func @store_without_conversion(%p: tensor<64x64xf16, #mma>) -> !tile.smem<64x64xf16, #sw> {
  %c = tile.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #rows>
  %s = tile.local_alloc %c : tensor<64x64xf16, #rows> -> !tile.smem<64x64xf16, #sw>
  return %s : !tile.smem<64x64xf16, #sw>
}
// CHECK-LABEL: func.func @conversion_kept
// CHECK: %[[C:.*]] = tile.convert_layout %arg0
// CHECK: tile.local_alloc %[[C]]
func.func @conversion_kept(%p: tensor<64x64xf16, #cols>) -> !tile.smem<64x64xf16, #sw> {
  %c = tile.convert_layout %p : tensor<64x64xf16, #cols> -> tensor<64x64xf16, #rows>
  %s = tile.local_alloc %c : tensor<64x64xf16, #rows> -> !tile.smem<64x64xf16, #sw>
  return %s : !tile.smem<64x64xf16, #sw>
}

// A wgmma A operand stored to shared memory only for the product, from an f16 tile in the
// accumulator's mma layout (flash attention's P), is read from the registers instead,
// also through a conversion that served the store; with its warps across N (each
// warpgroup holding half the columns of a row) it stays in shared memory.
#m4 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#m42 = #tile.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 64, 16]}>
#bl = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s128 = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
// CHECK-LABEL: func.func @register_operand_a
// CHECK-NOT: tile.local_alloc
// CHECK: tile.warpgroup_dot %arg0, %arg1, %arg2 : tensor<64x64xf16, #{{.*}}>, !tile.smem
// CHECK-NOT: tile.local_alloc
// CHECK: tile.warpgroup_dot %arg0, %arg1, %arg2 : tensor<64x64xf16, #{{.*}}>, !tile.smem
func.func @register_operand_a(%p: tensor<64x64xf16, #m4>, %v: !tile.smem<64x64xf16, #s128>, %acc: tensor<64x64xf32, #m4>) -> (tensor<64x64xf32, #m4>, tensor<64x64xf32, #m4>) {
  %ps = tile.local_alloc %p : tensor<64x64xf16, #m4> -> !tile.smem<64x64xf16, #s128>
  %d = tile.warpgroup_dot %ps, %v, %acc : !tile.smem<64x64xf16, #s128>, !tile.smem<64x64xf16, #s128>, tensor<64x64xf32, #m4>
  %c = tile.convert_layout %p : tensor<64x64xf16, #m4> -> tensor<64x64xf16, #bl>
  %cs = tile.local_alloc %c : tensor<64x64xf16, #bl> -> !tile.smem<64x64xf16, #s128>
  %e = tile.warpgroup_dot %cs, %v, %acc : !tile.smem<64x64xf16, #s128>, !tile.smem<64x64xf16, #s128>, tensor<64x64xf32, #m4>
  return %d, %e : tensor<64x64xf32, #m4>, tensor<64x64xf32, #m4>
}
// CHECK-LABEL: func.func @shared_operand_a_kept
// CHECK: %[[S:.*]] = tile.local_alloc %arg0
// CHECK: tile.warpgroup_dot %[[S]]
func.func @shared_operand_a_kept(%p: tensor<64x128xf16, #m42>, %v: !tile.smem<128x128xf16, #s128>, %acc: tensor<64x128xf32, #m42>) -> tensor<64x128xf32, #m42> {
  %ps = tile.local_alloc %p : tensor<64x128xf16, #m42> -> !tile.smem<64x128xf16, #s128>
  %d = tile.warpgroup_dot %ps, %v, %acc : !tile.smem<64x128xf16, #s128>, !tile.smem<128x128xf16, #s128>, tensor<64x128xf32, #m42>
  return %d : tensor<64x128xf32, #m42>
}
