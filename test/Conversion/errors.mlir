// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm -verify-diagnostics

func.func @no_layout(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // expected-error @+1 {{has a tile without a distribution layout: 'tensor<128xi32>' (run tile-assign-layouts before lowering)}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  return
}

// -----

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

func.func @warps(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // expected-error @+1 {{has a tile laid out over 2 warps in a kernel of 4 warps}}
  %r = tile.make_range 0 to 128 : tensor<128xi32, #b>
  return
}

// -----

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @f64_exp(%x: tensor<32xf64, #b>) attributes {tile.num_warps = 1 : i32} {
  // expected-error @+1 {{on f64 needs libdevice, which tcc does not link}}
  %e = math.exp %x : tensor<32xf64, #b>
  return
}

// -----

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @dense(%p: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error @+2 {{only splat constant tiles can be lowered}}
  // expected-error @+1 {{failed to legalize operation 'arith.constant'}}
  %c = arith.constant dense<[0, 1]> : tensor<2xi32, #b>
  %s = tile.reduce sum %c, axis 0 : tensor<2xi32, #b> -> i32
  tile.store %p, %s : !tile.ptr<i32>
  return
}

// -----

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// expected-error @+2 {{argument 0 of type 'tensor<32xf32, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>' cannot be passed to a kernel}}
// expected-error @+1 {{failed to legalize operation 'func.func'}}
func.func @tile_argument(%x: tensor<32xf32, #b>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}

// -----

#row = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#col = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>

func.func @broadcast_layouts(%x: tensor<1x32xf32, #row>) -> f32 attributes {tile.num_warps = 1 : i32} {
  // expected-error @+2 {{broadcast needs every thread to hold the source elements of its result}}
  // expected-error @+1 {{failed to legalize operation 'tile.broadcast'}}
  %b = tile.broadcast %x : tensor<1x32xf32, #row> -> tensor<32x32xf32, #col>
  %s = tile.reduce sum %b, axis 0 : tensor<32x32xf32, #col> -> tensor<32xf32, #tile.slice<{dim = 0, parent = #col}>>
  %t = tile.reduce sum %s, axis 0 : tensor<32xf32, #tile.slice<{dim = 0, parent = #col}>> -> f32
  return %t : f32
}

// -----

#rows = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>

// expected-error @+1 {{needs 262144 bytes of shared memory, more than the 232448 a program can have on this target: use smaller tiles or fewer pipeline stages}}
func.func @too_much_shared(%x: tensor<256x256xf32, #rows>) -> f32 attributes {tile.num_warps = 4 : i32} {
  %y = tile.convert_layout %x : tensor<256x256xf32, #rows> -> tensor<256x256xf32, #cols>
  %s = tile.reduce sum %y, axis 0 : tensor<256x256xf32, #cols> -> tensor<256xf32, #tile.slice<{dim = 0, parent = #cols}>>
  %t = tile.reduce sum %s, axis 0 : tensor<256xf32, #tile.slice<{dim = 0, parent = #cols}>> -> f32
  return %t : f32
}

// -----

#r = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

func.func @atomic_replicated_result(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32, #r>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>, #r>
  %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>, #r>, tensor<32xi32, #r>
  %v = arith.sitofp %r : tensor<32xi32, #r> to tensor<32xf32, #r>
  // expected-error @+1 {{the old values of atomic_add on a tile whose layout replicates elements are not supported}}
  %o = tile.atomic_add %pp, %v : tensor<32x!tile.ptr<f32>, #r>
  tile.store %pp, %o : tensor<32x!tile.ptr<f32>, #r>
  return
}

// -----

func.func @atomic_scalar_result(%p: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %one = arith.constant 1 : i32
  // expected-error @+1 {{the old value of a scalar atomic_add is not supported}}
  %o = tile.atomic_add %p, %one : !tile.ptr<i32>
  tile.store %p, %o : !tile.ptr<i32>
  return
}
