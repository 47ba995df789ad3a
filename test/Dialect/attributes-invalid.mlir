// RUN: tile-opt %s -split-input-file -verify-diagnostics

// The tile.* attributes the dialect owns are verified where they are attached
// (TileDialect::verifyOperationAttribute / verifyRegionArgAttribute; docs/ir.md).

// A kernel with every kernel-level attribute well-formed.
func.func @fine(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32 {tile.equal_to = 1 : i32})
    attributes {tile.kernel, tile.num_warps = 8 : i32, tile.num_stages = 3 : i32,
                tile.grid = ["1", "1", "1"], tile.arg_names = ["p", "s"], tile.constexprs = {B = 4 : i64}} {
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %v = tile.load %ps {tile.vec = 4 : i32} : tensor<4x!tile.ptr<f32>>
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
  // expected-error @below {{'tile.vec' must be a positive power of two, not 3 : i32}}
  %v = tile.load %ps {tile.vec = 3 : i32} : tensor<4x!tile.ptr<f32>>
  return
}

// -----

func.func @vec_elsewhere() {
  // expected-error @below {{'tile.vec' belongs on tile.load or tile.store}}
  %r = tile.make_range 0 to 4 {tile.vec = 4 : i32} : tensor<4xi32>
  return
}

// -----

// expected-error @below {{'tile.target' belongs on a module}}
func.func @target_on_function() attributes {tile.target = #tile.target<{arch = "sm_90", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  return
}
