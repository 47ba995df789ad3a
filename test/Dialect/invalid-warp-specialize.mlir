// The verifier errors of tile.warp_specialize and tile.mbarrier_arrive; and a kernel with
// them that parses and prints back.
// RUN: tile-opt %s -split-input-file -verify-diagnostics
// RUN: tile-opt %s -split-input-file -verify-diagnostics 2>/dev/null | FileCheck %s

#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
// CHECK-LABEL: func.func @roundtrip
// CHECK: tile.warp_specialize {consumerRegs = 232 : i32, producerRegs = 40 : i32} producer {
// CHECK: tile.mbarrier_wait
// CHECK: } consumer {
// CHECK: tile.mbarrier_arrive %{{.*}} : !tile.smem<1xi64
func.func @roundtrip() attributes {tile.num_warps = 8 : i32, tile.producer_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %bars = tile.local_alloc -> !tile.smem<2x1xi64, #b>
  tile.mbarrier_init %bars {count = 8 : i32} : !tile.smem<2x1xi64, #b>
  tile.warp_specialize {producerRegs = 40 : i32, consumerRegs = 232 : i32} producer {
    %bar = tile.memdesc_index %bars[%c0] : !tile.smem<2x1xi64, #b> -> !tile.smem<1xi64, #b>
    tile.mbarrier_wait %bar, %c0 : !tile.smem<1xi64, #b>
  } consumer {
    %bar = tile.memdesc_index %bars[%c0] : !tile.smem<2x1xi64, #b> -> !tile.smem<1xi64, #b>
    tile.mbarrier_arrive %bar : !tile.smem<1xi64, #b>
  }
  return
}

// -----

func.func @registers() attributes {tile.num_warps = 8 : i32} {
  // expected-error@+1 {{expects producerRegs to be a multiple of 8 from 24 to 256 (setmaxnreg), not 20}}
  tile.warp_specialize {producerRegs = 20 : i32, consumerRegs = 232 : i32} producer {
    %p = arith.constant 0 : i32
  } consumer {
    %c = arith.constant 0 : i32
  }
  return
}

// -----

func.func @uneven() attributes {tile.num_warps = 8 : i32} {
  // expected-error@+1 {{gives the producer more registers (240) than the consumers (232)}}
  tile.warp_specialize {producerRegs = 240 : i32, consumerRegs = 232 : i32} producer {
    %p = arith.constant 0 : i32
  } consumer {
    %c = arith.constant 0 : i32
  }
  return
}

// -----

func.func @warpgroups() attributes {tile.num_warps = 2 : i32} {
  // expected-error@+1 {{needs whole warpgroups of consumers: 2 warps is not a multiple of 4}}
  tile.warp_specialize {producerRegs = 40 : i32, consumerRegs = 232 : i32} producer {
    %p = arith.constant 0 : i32
  } consumer {
    %c = arith.constant 0 : i32
  }
  return
}

// -----

func.func @nested(%cond: i1) attributes {tile.num_warps = 8 : i32} {
  scf.if %cond {
    // expected-error@+1 {{must be in the body of a kernel, not nested in another op}}
    tile.warp_specialize {producerRegs = 40 : i32, consumerRegs = 232 : i32} producer {
      %p = arith.constant 0 : i32
    } consumer {
      %c = arith.constant 0 : i32
    }
  }
  return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
func.func @tiles() attributes {tile.num_warps = 8 : i32} {
  tile.warp_specialize {producerRegs = 40 : i32, consumerRegs = 232 : i32} producer {
    // expected-error@+1 {{makes a tile in the producer region of a tile.warp_specialize, whose warps hold no tiles}}
    %r = tile.make_range 0 to 256 : tensor<256xi32, #blocked>
  } consumer {
    %c = arith.constant 0 : i32
  }
  return
}

// -----

#b = #tile.nvmma_shared<{swizzle = 0, order = [0]}>
func.func @arrive_ring() {
  %bars = tile.local_alloc -> !tile.smem<2x1xi64, #b>
  // expected-error@+1 {{}}
  tile.mbarrier_arrive %bars : !tile.smem<2x1xi64, #b>
  return
}

// -----

// Ping-pong: the consumer group is a value of the consumer region only.
// CHECK-LABEL: func.func @groups
// CHECK: } consumer {
// CHECK-NEXT: tile.consumer_group : i32
func.func @groups() attributes {tile.num_warps = 4 : i32, tile.producer_warps = 4 : i32, tile.consumer_groups = 2 : i32} {
  tile.warp_specialize {producerRegs = 40 : i32, consumerRegs = 232 : i32} producer {
    %c = arith.constant 0 : i32
  } consumer {
    %g = tile.consumer_group : i32
  }
  return
}

// -----

func.func @group_outside() {
  // expected-error@+1 {{must be in the consumer region of a tile.warp_specialize}}
  %g = tile.consumer_group : i32
  return
}

// -----

func.func @group_in_producer() attributes {tile.num_warps = 4 : i32} {
  tile.warp_specialize {producerRegs = 40 : i32, consumerRegs = 232 : i32} producer {
    // expected-error@+1 {{must be in the consumer region of a tile.warp_specialize}}
    %g = tile.consumer_group : i32
  } consumer {
    %c = arith.constant 0 : i32
  }
  return
}

// -----

// expected-error@+1 {{'tile.consumer_groups' must be at least 1, not 0}}
func.func @no_groups() attributes {tile.consumer_groups = 0 : i32} {
  return
}
