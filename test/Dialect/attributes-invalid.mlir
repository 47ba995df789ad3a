// RUN: tile-opt %s -split-input-file -verify-diagnostics

// The tile.* attributes the dialect owns are verified where they are attached
// (TileDialect::verifyOperationAttribute / verifyRegionArgAttribute; docs/ir.md).

// A kernel with every kernel-level attribute well-formed.
func.func @fine(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32 {tile.equal_to = 1 : i32})
    attributes {tile.kernel, tile.num_warps = 8 : i32, tile.num_stages = 3 : i32,
                tile.grid = ["1", "1", "1"], tile.arg_names = ["p", "s"], tile.constexprs = {B = 4 : i64},
                tile.shared_bytes = 0 : i64, tile.check_bounds, tile.check_bounds_unchecked = 1 : i32} {
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %v = tile.load %ps {vec = 4 : i32} : tensor<4x!tile.ptr<f32>>
  tile.store %ps, %v {vec = 2 : i32, tile.unchecked} : tensor<4x!tile.ptr<f32>>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
  } {tile.num_stages = 2 : i32}
  return
}

// -----

// expected-error @below {{'tile.num_warps' must be a power of two from 1 to 32, not 3 : i32}}
func.func @three_warps() attributes {tile.kernel, tile.num_warps = 3 : i32} {
  return
}

// -----

// expected-error @below {{'tile.num_warps' must be a power of two from 1 to 32, not 64 : i32}}
func.func @too_many_warps() attributes {tile.num_warps = 64 : i32} {
  return
}

// -----

// expected-error @below {{'tile.kernel' is a unit attribute, not 1 : i32}}
func.func @kernel_not_unit() attributes {tile.kernel = 1 : i32} {
  return
}

// -----

// expected-error @below {{'tile.grid' must be three grid expressions (strings), not ["1", "1"]}}
func.func @short_grid() attributes {tile.grid = ["1", "1"]} {
  return
}

// -----

// expected-error @below {{'tile.divisibility' must be a positive power of two (argument #0), not 12 : i32}}
func.func @divisibility(%n: i32 {tile.divisibility = 12 : i32}) {
  return
}

// -----

// expected-error @below {{'tile.equal_to' belongs on an integer argument, not #0}}
func.func @equal_to_pointer(%p: !tile.ptr<f32> {tile.equal_to = 1 : i32}) {
  return
}

// -----

func.func @vec_not_power_of_two(%p: !tile.ptr<f32>) {
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  // `vec` is an inherent attribute of tile.load and tile.store (ODS).
  // expected-error @below {{attribute 'vec' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive and whose value is a power of two}}
  %v = tile.load %ps {vec = 3 : i32} : tensor<4x!tile.ptr<f32>>
  return
}

// -----

func.func @vec_discardable(%p: !tile.ptr<f32>) {
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  // The old spelling is no attribute of the dialect.
  // expected-error @below {{unknown attribute 'tile.vec' of the tile dialect}}
  %v = tile.load %ps {tile.vec = 4 : i32} : tensor<4x!tile.ptr<f32>>
  return
}

// -----

// expected-error @below {{unknown attribute 'tile.num_warp' of the tile dialect}}
func.func @misspelt() attributes {tile.kernel, tile.num_warp = 4 : i32} {
  return
}

// -----

// expected-error @below {{unknown argument attribute 'tile.divisible' (argument #1) of the tile dialect}}
func.func @misspelt_argument(%p: !tile.ptr<f32>, %n: i32 {tile.divisible = 16 : i32}) {
  return
}

// -----

// expected-error @below {{unknown result attribute 'tile.divisibility' (result #0) of the tile dialect}}
func.func @result_attribute(%n: i32) -> (i32 {tile.divisibility = 16 : i32}) {
  return %n : i32
}

// -----

// expected-error @below {{'tile.num_stages' belongs on a function or a loop}}
module attributes {tile.num_stages = 2 : i32} {
}

// -----

// expected-error @below {{'tile.check_bounds_unchecked' must be non-negative, not -1 : i32}}
func.func @unchecked_count() attributes {tile.check_bounds, tile.check_bounds_unchecked = -1 : i32} {
  return
}

// -----

// expected-error @below {{'tile.check_bounds' is a unit attribute, not true}}
func.func @check_bounds_not_unit() attributes {tile.check_bounds = true} {
  return
}

// -----

func.func @unchecked_elsewhere(%n: i32) -> i32 {
  // expected-error @below {{'tile.unchecked' belongs on an op of the tile dialect}}
  %m = arith.addi %n, %n {tile.unchecked} : i32
  return %m : i32
}

// -----

func.func @shared_offset(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'tile.shared_offset' must be non-negative, not -16 : i64}}
  %y = tile.convert_layout %x {tile.shared_offset = -16 : i64} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @below {{'tile.target' belongs on a module}}
func.func @target_on_function() attributes {tile.target = #tile.target<{arch = "sm_90", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  return
}
