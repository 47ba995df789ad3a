// Every verifier error of the tile dialect, with its message and location.
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @program_id_axis() {
  // expected-error @+1 {{'tile.program_id' op axis 9 is out of range: grids have axes 0, 1 and 2}}
  %p = tile.program_id 9
  return
}

// -----

func.func @num_programs_axis() {
  // expected-error @+1 {{'tile.num_programs' op axis -1 is out of range}}
  %p = tile.num_programs -1
  return
}

// -----

func.func @range_not_pow2() {
  // expected-error @+1 {{range [0, 100) has 100 elements: the length must be a power of two}}
  %r = tile.make_range 0 to 100 : tensor<100xi32>
  return
}

// -----

func.func @range_empty() {
  // expected-error @+1 {{range [8, 8) is empty}}
  %r = tile.make_range 8 to 8 : tensor<8xi32>
  return
}

// -----

func.func @range_shape() {
  // expected-error @+1 {{result shape [64] does not hold the 128 elements of [0, 128)}}
  %r = tile.make_range 0 to 128 : tensor<64xi32>
  return
}

// -----

func.func @range_type() {
  // expected-error @+1 {{result #0 must be tile of i32}}
  %r = tile.make_range 0 to 128 : tensor<128xi64>
  return
}

// -----

func.func @splat_element(%x: i32) {
  // expected-error @+1 {{splats a 'i32' into a tile of 'f32'}}
  %t = tile.splat %x : i32 -> tensor<128xf32>
  return
}

// -----

func.func @splat_shape(%x: i32) {
  // expected-error @+1 {{result has shape [100]: tile dimensions must be powers of two}}
  %t = tile.splat %x : i32 -> tensor<100xi32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<64xf32>) {
  // expected-error @+1 {{source rank 1 differs from result rank 2 (use tile.expand_dims to add dimensions)}}
  %t = tile.broadcast %x : tensor<64xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @broadcast_dim(%x: tensor<2x64xf32>) {
  // expected-error @+1 {{cannot broadcast shape [2x64] to [4x64]: dimension 0 is neither 1 nor 4}}
  %t = tile.broadcast %x : tensor<2x64xf32> -> tensor<4x64xf32>
  return
}

// -----

func.func @broadcast_element(%x: tensor<1x64xf32>) {
  // expected-error @+1 {{broadcasts a tile of 'f32' into a tile of 'f16'}}
  %t = tile.broadcast %x : tensor<1x64xf32> -> tensor<4x64xf16>
  return
}

// -----

func.func @expand_axis(%x: tensor<64xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-1 tile (0..1)}}
  %t = tile.expand_dims %x, 2 : tensor<64xf32> -> tensor<64x1xf32>
  return
}

// -----

func.func @expand_shape(%x: tensor<64xf32>) {
  // expected-error @+1 {{result shape [64x1] is not the source shape [64] with a 1 inserted at axis 0 ([1x64])}}
  %t = tile.expand_dims %x, 0 : tensor<64xf32> -> tensor<64x1xf32>
  return
}

// -----

func.func @expand_element(%x: tensor<64xf32>) {
  // expected-error @+1 {{changes the element type from 'f32' to 'i32'}}
  %t = tile.expand_dims %x, 0 : tensor<64xf32> -> tensor<1x64xi32>
  return
}

// -----

func.func @convert_shape(%x: tensor<64xf32>) {
  // expected-error @+1 {{may change only the layout}}
  %t = tile.convert_layout %x : tensor<64xf32> -> tensor<128xf32>
  return
}

// -----

func.func @addptr_shape(%p: tensor<64x!tile.ptr<f32>>, %o: tensor<128xi32>) {
  // expected-error @+1 {{pointer shape [64] differs from offset shape [128]}}
  %q = tile.addptr %p, %o : tensor<64x!tile.ptr<f32>>, tensor<128xi32>
  return
}

// -----

func.func @addptr_bool(%p: !tile.ptr<f32>, %o: i1) {
  // expected-error @+1 {{offsets must be integers wider than i1}}
  %q = tile.addptr %p, %o : !tile.ptr<f32>, i1
  return
}

// -----

func.func @addptr_not_pointer(%p: tensor<64xi32>, %o: tensor<64xi32>) {
  // expected-error @+1 {{operand #0 must be tile pointer or tile of pointers}}
  %q = tile.addptr %p, %o : tensor<64xi32>, tensor<64xi32>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<64xi1>) {
  // expected-error @+1 {{mask is i1 in the shape of ptr}}
  %v = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tile.ptr<f32>>, tensor<64xi1>) -> tensor<128xf32>
  return
}

// -----

func.func @load_other_without_mask(%p: tensor<128x!tile.ptr<f32>>, %o: tensor<128xf32>) {
  // expected-error @+1 {{has 'other' but no mask: 'other' fills the lanes a mask turns off}}
  %v = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  return
}

// -----

func.func @load_other_type(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf16>) {
  // expected-error @+1 {{other has the type of the result}}
  %v = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf16>) -> tensor<128xf32>
  return
}

// -----

func.func @load_result_type(%p: tensor<128x!tile.ptr<f32>>) {
  // expected-error @+1 {{result holds the pointees of ptr}}
  %v = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf16>
  return
}

// -----

func.func @store_value_type(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xi32>) {
  // expected-error @+1 {{value holds the pointees of ptr}}
  "tile.store"(%p, %v) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> ()
  return
}

// -----

func.func @store_mask_shape(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>, %m: tensor<1x128xi1>) {
  // expected-error @+1 {{mask is i1 in the shape of ptr}}
  "tile.store"(%p, %v, %m) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<1x128xi1>) -> ()
  return
}

// -----

func.func @atomic_add_value_type(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xi32>) {
  // expected-error @+1 {{value holds the pointees of ptr}}
  %o = "tile.atomic_add"(%p, %v) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128xf32>
  return
}

// -----

func.func @atomic_add_result_type(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>) {
  // expected-error @+1 {{result holds the pointees of ptr}}
  %o = "tile.atomic_add"(%p, %v) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> tensor<64xf32>
  return
}

// -----

func.func @atomic_add_mask_shape(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>, %m: tensor<1x128xi1>) {
  // expected-error @+1 {{mask is i1 in the shape of ptr}}
  %o = "tile.atomic_add"(%p, %v, %m) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<1x128xi1>) -> tensor<128xf32>
  return
}

// -----

func.func @atomic_add_element_type(%p: tensor<128x!tile.ptr<f16>>, %v: tensor<128xf16>) {
  // expected-error @+1 {{'tile.atomic_add' op adds i32, i64 or f32, not 'f16'}}
  %o = tile.atomic_add %p, %v : tensor<128x!tile.ptr<f16>>
  return
}

// -----

func.func @reduce_axis(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-2 tile (0..1)}}
  %r = tile.reduce sum %x, axis 2 : tensor<64x64xf32> -> tensor<64xf32>
  return
}

// -----

func.func @reduce_result(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{sum along axis 0 of [64x32] gives a tile [32] of 'f32', not 'tensor<64xf32>'}}
  %r = tile.reduce sum %x, axis 0 : tensor<64x32xf32> -> tensor<64xf32>
  return
}

// -----

func.func @reduce_argmax_type(%x: tensor<64xf32>) {
  // expected-error @+1 {{argmax along axis 0 of [64] gives a scalar of 'i32', not 'f32'}}
  %r = tile.reduce argmax %x, axis 0 : tensor<64xf32> -> f32
  return
}

// -----

func.func @reduce_pointers(%x: tensor<64x!tile.ptr<f32>>) {
  // expected-error @+1 {{cannot reduce a tile of pointers}}
  %r = tile.reduce sum %x, axis 0 : tensor<64x!tile.ptr<f32>> -> !tile.ptr<f32>
  return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @reduce_layout(%x: tensor<64x64xf32, #b>) {
  // expected-error @+1 {{result layout must be the source layout sliced along axis 1}}
  %r = tile.reduce sum %x, axis 1 : tensor<64x64xf32, #b> -> tensor<64xf32, #tile.slice<{dim = 0, parent = #b}>>
  return
}

// -----

func.func @dot_rank(%a: tensor<64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{operands must be 2-D tiles, got ranks 1, 2 and 2}}
  %d = tile.dot %a, %b, %c : tensor<64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @dot_inner(%a: tensor<64x32xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{inner dimensions differ: a is [64x32], b is [16x64]}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<16x64xf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @dot_acc(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<32x64xf32>) {
  // expected-error @+1 {{accumulator shape [32x64] is not [64x64]}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<32x64xf32>
  return
}

// -----

func.func @dot_mixed(%a: tensor<64x32xf16>, %b: tensor<32x64xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{operands have different element types 'f16' and 'bf16'}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @dot_int(%a: tensor<64x32xi8>, %b: tensor<32x64xi8>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{operand #0 must be tile of f16, bf16 or f32}}
  %d = tile.dot %a, %b, %c : tensor<64x32xi8>, tensor<32x64xi8> -> tensor<64x64xf32>
  return
}

// -----

func.func @hint_empty(%x: i32) {
  // expected-error @+1 {{needs 'divisibility' or 'contiguity'}}
  %h = tile.hint %x : i32
  return
}

// -----

func.func @hint_rank(%x: tensor<64xi32>) {
  // expected-error @+1 {{'divisibility' has 2 entries; the value needs 1}}
  %h = tile.hint %x {divisibility = array<i32: 16, 16>} : tensor<64xi32>
  return
}

// -----

func.func @hint_pow2(%x: i32) {
  // expected-error @+1 {{'divisibility' entries must be positive powers of two, not 12}}
  %h = tile.hint %x {divisibility = array<i32: 12>} : i32
  return
}

// -----

// expected-error @+1 {{a tile pointer points to a scalar (integer or float), not 'tensor<4xf32>'}}
func.func @ptr_to_tile(%p: !tile.ptr<tensor<4xf32>>) {
  return
}

// -----

// expected-error @+1 {{threadsPerWarp must multiply to the warp size 32, not 16}}
func.func @layout_warp(%x: tensor<64xf32, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>>) {
  return
}

// -----

// expected-error @+1 {{order must be a permutation of the dimensions 0..1}}
func.func @layout_order(%x: tensor<64x64xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>>) {
  return
}

// -----

// expected-error @+1 {{one entry per dimension (order has 1)}}
func.func @layout_lengths(%x: tensor<64xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  return
}

// -----

// expected-error @+1 {{blocked layout entries must be powers of two (dimension 0)}}
func.func @layout_pow2(%x: tensor<64xf32, #tile.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  return
}

// -----

// expected-error @+1 {{a rank-1 blocked layout cannot lay out a rank-2 tile}}
func.func @layout_rank(%x: tensor<64x64xf32, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  return
}

// -----

// expected-error @+1 {{slice dimension 1 is out of range for a rank-1 parent layout}}
func.func @slice_dim(%x: f32) attributes {l = #tile.slice<{dim = 1, parent = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>} {
  return
}

// -----

#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s0 = #tile.nvmma_shared<{swizzle = 0, order = [1, 0]}>
#s128 = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @wgmma_unswizzled(%a: !tile.smem<64x64xf16, #s0>, %b: !tile.smem<64x64xf16, #s128>, %acc: tensor<64x64xf32, #mma3>) {
  // expected-error @+1 {{operand a has a 0-byte swizzle; wgmma reads 32-, 64- or 128-byte swizzles}}
  %d = tile.warpgroup_dot %a, %b, %acc : !tile.smem<64x64xf16, #s0>, !tile.smem<64x64xf16, #s128>, tensor<64x64xf32, #mma3>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#t64 = #tile.nvmma_shared<{swizzle = 64, order = [0, 1]}>
func.func @memdesc_trans_swizzle(%k: !tile.smem<64x128xf16, #s>) {
  // expected-error @+1 {{the transpose of '!tile.smem<64x128xf16, #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>>' is not '!tile.smem<128x64xf16, #tile.nvmma_shared<{swizzle = 64, order = [0, 1]}>>': shapes and orders reversed, element type and swizzle the same}}
  %t = tile.memdesc_trans %k : !tile.smem<64x128xf16, #s> -> !tile.smem<128x64xf16, #t64>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @memdesc_trans_order(%k: !tile.smem<64x128xf16, #s>) {
  // expected-error @+1 {{shapes and orders reversed}}
  %t = tile.memdesc_trans %k : !tile.smem<64x128xf16, #s> -> !tile.smem<128x64xf16, #s>
  return
}

// -----

#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @memdesc_trans_ring(%k: !tile.smem<3x64x64xf16, #s>) {
  // expected-error @+1 {{transposes one 2-D #tile.nvmma_shared tile}}
  %t = tile.memdesc_trans %k : !tile.smem<3x64x64xf16, #s> -> !tile.smem<3x64x64xf16, #s>
  return
}

// -----

#m42 = #tile.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 64, 16]}>
#s = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @wgmma_register_a_warps(%p: tensor<64x128xf16, #m42>, %v: !tile.smem<128x128xf16, #s>, %acc: tensor<64x128xf32, #m42>) {
  // expected-error @+1 {{a register operand a must be f16 or bf16 in a version-3 #tile.mma layout with the accumulator's warps, all along M, and K a multiple of 16}}
  %d = tile.warpgroup_dot %p, %v, %acc : tensor<64x128xf16, #m42>, !tile.smem<128x128xf16, #s>, tensor<64x128xf32, #m42>
  return
}
