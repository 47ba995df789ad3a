// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -verify-diagnostics

// The old values of a tile that the layout replicates would reach only their owners.

#r = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

func.func @replicated(%p: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32, #r>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>, #r>
  %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>, #r>, tensor<32xi32, #r>
  // expected-error@+1 {{the old values of an atomic on a tile whose layout replicates elements are not supported}}
  %o = tile.atomic_rmw "max" %pp, %r {sem = "acq_rel", scope = "gpu"} : tensor<32x!tile.ptr<i32>, #r>
  tile.store %pp, %o : tensor<32x!tile.ptr<i32>, #r>
  return
}
