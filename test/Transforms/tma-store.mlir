// tile-tma-store: a kernel's 2D result tile stored once, outside loops, through pointers
// and a bounds mask that a tensor map describes (16-byte aligned base and row stride, unit
// inner stride), on sm_90a, is written to a 128-byte-swizzled shared tile (local_alloc of
// the value, in the layout it had before a conversion made for the store) and stored by
// tile.tma_store with the box origin as coordinates; the kernel gains the tensor map
// argument (box 64 x 64 of f16: one 128-byte swizzle atom per row, the store takes two
// boxes). Left alone: sm_90 (no TMA), a stride not known to be 1, rows narrower than a
// swizzle atom (64 x 32 f16 = 64 bytes), 8-bit elements, a store inside a loop, a store
// followed by a load.
// RUN: tile-opt %s -split-input-file -tile-tma-store | FileCheck %s

// CHECK-LABEL: func.func @store
// CHECK-SAME: %[[MAP:[a-z0-9]+]]: !tile.tensormap<[64, 64], f16, swizzle = 128> {tile.tensormap = {dims = ["N", "M"], param = "c", strides_bytes = ["stride_cm * 2"]}}
// CHECK-SAME: tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn", "c_tma5"]
// CHECK: %[[M0:.*]] = arith.muli %{{.*}}, %c64_i32
// CHECK: %[[N0:.*]] = arith.muli %{{.*}}, %c128_i32
// CHECK: %[[V:.*]] = arith.sitofp
// CHECK: %[[S:.*]] = tile.local_alloc %[[V]] : tensor<64x128xf16, #blocked> -> !tile.smem<64x128xf16, #shared>
// CHECK: tile.tma_store %[[MAP]][%[[M0]], %[[N0]]], %[[S]] : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x128xf16, #shared>
// CHECK-NOT: tile.store
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @store(%c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}, %scm: i32 {tile.divisibility = 16 : i32}, %scn: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn"], tile.constexprs = {}, tile.grid = ["cdiv(M, 64) * cdiv(N, 128)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %c64_i32 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %pid = tile.program_id 0
    %pm = arith.divsi %pid, %N : i32
    %pn = arith.remsi %pid, %N : i32
    %m0 = arith.muli %pm, %c64_i32 : i32
    %6 = tile.splat %m0 : i32 -> tensor<64xi32, #slice>
    %7 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %8 = arith.addi %6, %7 : tensor<64xi32, #slice>
    %n0 = arith.muli %pn, %c128 : i32
    %10 = tile.splat %n0 : i32 -> tensor<128xi32, #slice1>
    %11 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
    %12 = arith.addi %10, %11 : tensor<128xi32, #slice1>
    %13 = tile.expand_dims %8, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %16 = tile.expand_dims %12, 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
    %17 = tile.broadcast %16 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %19 = arith.sitofp %17 : tensor<64x128xi32, #blocked> to tensor<64x128xf16, #blocked>
    %20 = tile.splat %c : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
    %21 = tile.splat %scm : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %13, %21 : tensor<64x1xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x128x!tile.ptr<f16>, #blocked>
    %25 = tile.addptr %24, %17 : tensor<64x128x!tile.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
    %26 = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %27 = arith.cmpi slt, %13, %26 : tensor<64x1xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %29 = tile.splat %N : i32 -> tensor<1x128xi32, #blocked>
    %30 = arith.cmpi slt, %16, %29 : tensor<1x128xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %32 = arith.andi %28, %31 : tensor<64x128xi1, #blocked>
    tile.store %25, %19, mask %32 : tensor<64x128x!tile.ptr<f16>, #blocked>
    return
  }
}

// -----

// The value's conversion for the store goes: the shared tile is written from #other.
// CHECK-LABEL: func.func @converted
// CHECK: %[[V:.*]] = arith.sitofp %{{.*}} : tensor<64x128xi32, #[[OTHER:.*]]> to tensor<64x128xf16, #[[OTHER]]>
// CHECK-NOT: tile.convert_layout %[[V]]
// CHECK: tile.local_alloc %[[V]] : tensor<64x128xf16, #[[OTHER]]> -> !tile.smem<64x128xf16, #shared>
// CHECK: tile.tma_store
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @converted(%c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}, %scm: i32 {tile.divisibility = 16 : i32}, %scn: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn"], tile.constexprs = {}, tile.grid = ["cdiv(M, 64) * cdiv(N, 128)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %c64_i32 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %pid = tile.program_id 0
    %pm = arith.divsi %pid, %N : i32
    %pn = arith.remsi %pid, %N : i32
    %m0 = arith.muli %pm, %c64_i32 : i32
    %6 = tile.splat %m0 : i32 -> tensor<64xi32, #slice>
    %7 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %8 = arith.addi %6, %7 : tensor<64xi32, #slice>
    %n0 = arith.muli %pn, %c128 : i32
    %10 = tile.splat %n0 : i32 -> tensor<128xi32, #slice1>
    %11 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
    %12 = arith.addi %10, %11 : tensor<128xi32, #slice1>
    %13 = tile.expand_dims %8, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %16 = tile.expand_dims %12, 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
    %17 = tile.broadcast %16 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %18 = tile.convert_layout %17 : tensor<64x128xi32, #blocked> -> tensor<64x128xi32, #other>
    %v = arith.sitofp %18 : tensor<64x128xi32, #other> to tensor<64x128xf16, #other>
    %19 = tile.convert_layout %v : tensor<64x128xf16, #other> -> tensor<64x128xf16, #blocked>
    %20 = tile.splat %c : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
    %21 = tile.splat %scm : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %13, %21 : tensor<64x1xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x128x!tile.ptr<f16>, #blocked>
    %25 = tile.addptr %24, %17 : tensor<64x128x!tile.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
    %26 = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %27 = arith.cmpi slt, %13, %26 : tensor<64x1xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %29 = tile.splat %N : i32 -> tensor<1x128xi32, #blocked>
    %30 = arith.cmpi slt, %16, %29 : tensor<1x128xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %32 = arith.andi %28, %31 : tensor<64x128xi1, #blocked>
    tile.store %25, %19, mask %32 : tensor<64x128x!tile.ptr<f16>, #blocked>
    return
  }
}

// -----

// f32: a 64 x 128 tile has 512-byte rows, boxes of 64 x 32.
// CHECK-LABEL: func.func @f32
// CHECK-SAME: !tile.tensormap<[64, 32], f32, swizzle = 128>
// CHECK: tile.tma_store
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @f32(%c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}, %scm: i32 {tile.divisibility = 16 : i32}, %scn: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn"], tile.constexprs = {}, tile.grid = ["cdiv(M, 64) * cdiv(N, 128)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %c64_i32 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %pid = tile.program_id 0
    %pm = arith.divsi %pid, %N : i32
    %pn = arith.remsi %pid, %N : i32
    %m0 = arith.muli %pm, %c64_i32 : i32
    %6 = tile.splat %m0 : i32 -> tensor<64xi32, #slice>
    %7 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %8 = arith.addi %6, %7 : tensor<64xi32, #slice>
    %n0 = arith.muli %pn, %c128 : i32
    %10 = tile.splat %n0 : i32 -> tensor<128xi32, #slice1>
    %11 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
    %12 = arith.addi %10, %11 : tensor<128xi32, #slice1>
    %13 = tile.expand_dims %8, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %16 = tile.expand_dims %12, 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
    %17 = tile.broadcast %16 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %19 = arith.sitofp %17 : tensor<64x128xi32, #blocked> to tensor<64x128xf32, #blocked>
    %20 = tile.splat %c : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>, #blocked>
    %21 = tile.splat %scm : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %13, %21 : tensor<64x1xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<64x1x!tile.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1x!tile.ptr<f32>, #blocked> -> tensor<64x128x!tile.ptr<f32>, #blocked>
    %25 = tile.addptr %24, %17 : tensor<64x128x!tile.ptr<f32>, #blocked>, tensor<64x128xi32, #blocked>
    %26 = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %27 = arith.cmpi slt, %13, %26 : tensor<64x1xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %29 = tile.splat %N : i32 -> tensor<1x128xi32, #blocked>
    %30 = arith.cmpi slt, %16, %29 : tensor<1x128xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %32 = arith.andi %28, %31 : tensor<64x128xi1, #blocked>
    tile.store %25, %19, mask %32 : tensor<64x128x!tile.ptr<f32>, #blocked>
    return
  }
}

// -----

// CHECK-LABEL: func.func @sm90
// CHECK-NOT: tensormap
// CHECK-NOT: tile.tma_store
// CHECK: tile.store
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
module attributes {tile.target = #tile.target<{arch = "sm_90", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @sm90(%c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}, %scm: i32 {tile.divisibility = 16 : i32}, %scn: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn"], tile.constexprs = {}, tile.grid = ["cdiv(M, 64) * cdiv(N, 128)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %c64_i32 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %pid = tile.program_id 0
    %pm = arith.divsi %pid, %N : i32
    %pn = arith.remsi %pid, %N : i32
    %m0 = arith.muli %pm, %c64_i32 : i32
    %6 = tile.splat %m0 : i32 -> tensor<64xi32, #slice>
    %7 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %8 = arith.addi %6, %7 : tensor<64xi32, #slice>
    %n0 = arith.muli %pn, %c128 : i32
    %10 = tile.splat %n0 : i32 -> tensor<128xi32, #slice1>
    %11 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
    %12 = arith.addi %10, %11 : tensor<128xi32, #slice1>
    %13 = tile.expand_dims %8, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %16 = tile.expand_dims %12, 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
    %17 = tile.broadcast %16 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %19 = arith.sitofp %17 : tensor<64x128xi32, #blocked> to tensor<64x128xf16, #blocked>
    %20 = tile.splat %c : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
    %21 = tile.splat %scm : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %13, %21 : tensor<64x1xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x128x!tile.ptr<f16>, #blocked>
    %25 = tile.addptr %24, %17 : tensor<64x128x!tile.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
    %26 = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %27 = arith.cmpi slt, %13, %26 : tensor<64x1xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %29 = tile.splat %N : i32 -> tensor<1x128xi32, #blocked>
    %30 = arith.cmpi slt, %16, %29 : tensor<1x128xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %32 = arith.andi %28, %31 : tensor<64x128xi1, #blocked>
    tile.store %25, %19, mask %32 : tensor<64x128x!tile.ptr<f16>, #blocked>
    return
  }
}

// -----

// The inner stride is a multiple of 16, not 1: no tensor map describes it.
// CHECK-LABEL: func.func @strided
// CHECK-NOT: tensormap
// CHECK-NOT: tile.tma_store
// CHECK: tile.store
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @strided(%c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}, %scm: i32 {tile.divisibility = 16 : i32}, %scn: i32 {tile.divisibility = 16 : i32}) attributes {tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn"], tile.constexprs = {}, tile.grid = ["cdiv(M, 64) * cdiv(N, 128)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %c64_i32 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %pid = tile.program_id 0
    %pm = arith.divsi %pid, %N : i32
    %pn = arith.remsi %pid, %N : i32
    %m0 = arith.muli %pm, %c64_i32 : i32
    %6 = tile.splat %m0 : i32 -> tensor<64xi32, #slice>
    %7 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %8 = arith.addi %6, %7 : tensor<64xi32, #slice>
    %n0 = arith.muli %pn, %c128 : i32
    %10 = tile.splat %n0 : i32 -> tensor<128xi32, #slice1>
    %11 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
    %12 = arith.addi %10, %11 : tensor<128xi32, #slice1>
    %13 = tile.expand_dims %8, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %16 = tile.expand_dims %12, 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
    %17 = tile.broadcast %16 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %19 = arith.sitofp %17 : tensor<64x128xi32, #blocked> to tensor<64x128xf16, #blocked>
    %20 = tile.splat %c : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
    %21 = tile.splat %scm : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %13, %21 : tensor<64x1xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x128x!tile.ptr<f16>, #blocked>
    %sn = tile.splat %scn : i32 -> tensor<64x128xi32, #blocked>
    %inner = arith.muli %17, %sn : tensor<64x128xi32, #blocked>
    %25 = tile.addptr %24, %inner : tensor<64x128x!tile.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
    %26 = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %27 = arith.cmpi slt, %13, %26 : tensor<64x1xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %29 = tile.splat %N : i32 -> tensor<1x128xi32, #blocked>
    %30 = arith.cmpi slt, %16, %29 : tensor<1x128xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %32 = arith.andi %28, %31 : tensor<64x128xi1, #blocked>
    tile.store %25, %19, mask %32 : tensor<64x128x!tile.ptr<f16>, #blocked>
    return
  }
}

// -----

// CHECK-LABEL: func.func @narrow
// CHECK-NOT: tile.tma_store
// CHECK: tile.store
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @narrow(%c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}, %scm: i32 {tile.divisibility = 16 : i32}, %scn: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn"], tile.constexprs = {}, tile.grid = ["cdiv(M, 64) * cdiv(N, 32)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %c64_i32 = arith.constant 64 : i32
    %c32 = arith.constant 32 : i32
    %pid = tile.program_id 0
    %pm = arith.divsi %pid, %N : i32
    %pn = arith.remsi %pid, %N : i32
    %m0 = arith.muli %pm, %c64_i32 : i32
    %6 = tile.splat %m0 : i32 -> tensor<64xi32, #slice>
    %7 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %8 = arith.addi %6, %7 : tensor<64xi32, #slice>
    %n0 = arith.muli %pn, %c32 : i32
    %10 = tile.splat %n0 : i32 -> tensor<32xi32, #slice1>
    %11 = tile.make_range 0 to 32 : tensor<32xi32, #slice1>
    %12 = arith.addi %10, %11 : tensor<32xi32, #slice1>
    %13 = tile.expand_dims %8, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %16 = tile.expand_dims %12, 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked>
    %17 = tile.broadcast %16 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %19 = arith.sitofp %17 : tensor<64x32xi32, #blocked> to tensor<64x32xf16, #blocked>
    %20 = tile.splat %c : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
    %21 = tile.splat %scm : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %13, %21 : tensor<64x1xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x32x!tile.ptr<f16>, #blocked>
    %25 = tile.addptr %24, %17 : tensor<64x32x!tile.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %26 = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %27 = arith.cmpi slt, %13, %26 : tensor<64x1xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<64x1xi1, #blocked> -> tensor<64x32xi1, #blocked>
    %29 = tile.splat %N : i32 -> tensor<1x32xi32, #blocked>
    %30 = arith.cmpi slt, %16, %29 : tensor<1x32xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<1x32xi1, #blocked> -> tensor<64x32xi1, #blocked>
    %32 = arith.andi %28, %31 : tensor<64x32xi1, #blocked>
    tile.store %25, %19, mask %32 : tensor<64x32x!tile.ptr<f16>, #blocked>
    return
  }
}

// -----

// CHECK-LABEL: func.func @bytes
// CHECK-NOT: tile.tma_store
// CHECK: tile.store
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @bytes(%c: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}, %scm: i32 {tile.divisibility = 16 : i32}, %scn: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn"], tile.constexprs = {}, tile.grid = ["cdiv(M, 64) * cdiv(N, 128)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %c64_i32 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %pid = tile.program_id 0
    %pm = arith.divsi %pid, %N : i32
    %pn = arith.remsi %pid, %N : i32
    %m0 = arith.muli %pm, %c64_i32 : i32
    %6 = tile.splat %m0 : i32 -> tensor<64xi32, #slice>
    %7 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %8 = arith.addi %6, %7 : tensor<64xi32, #slice>
    %n0 = arith.muli %pn, %c128 : i32
    %10 = tile.splat %n0 : i32 -> tensor<128xi32, #slice1>
    %11 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
    %12 = arith.addi %10, %11 : tensor<128xi32, #slice1>
    %13 = tile.expand_dims %8, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %16 = tile.expand_dims %12, 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
    %17 = tile.broadcast %16 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %19 = arith.trunci %17 : tensor<64x128xi32, #blocked> to tensor<64x128xi8, #blocked>
    %20 = tile.splat %c : !tile.ptr<i8> -> tensor<64x1x!tile.ptr<i8>, #blocked>
    %21 = tile.splat %scm : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %13, %21 : tensor<64x1xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<64x1x!tile.ptr<i8>, #blocked>, tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1x!tile.ptr<i8>, #blocked> -> tensor<64x128x!tile.ptr<i8>, #blocked>
    %25 = tile.addptr %24, %17 : tensor<64x128x!tile.ptr<i8>, #blocked>, tensor<64x128xi32, #blocked>
    %26 = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %27 = arith.cmpi slt, %13, %26 : tensor<64x1xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %29 = tile.splat %N : i32 -> tensor<1x128xi32, #blocked>
    %30 = arith.cmpi slt, %16, %29 : tensor<1x128xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %32 = arith.andi %28, %31 : tensor<64x128xi1, #blocked>
    tile.store %25, %19, mask %32 : tensor<64x128x!tile.ptr<i8>, #blocked>
    return
  }
}
// -----

// CHECK-LABEL: func.func @loop
// CHECK-NOT: tensormap
// CHECK-NOT: tile.tma_store
// CHECK: tile.store
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @loop(%c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}, %scm: i32 {tile.divisibility = 16 : i32}, %scn: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn"], tile.constexprs = {}, tile.grid = ["cdiv(M, 64) * cdiv(N, 128)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %c64_i32 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %pid = tile.program_id 0
    %pm = arith.divsi %pid, %N : i32
    %pn = arith.remsi %pid, %N : i32
    %m0 = arith.muli %pm, %c64_i32 : i32
    %6 = tile.splat %m0 : i32 -> tensor<64xi32, #slice>
    %7 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %8 = arith.addi %6, %7 : tensor<64xi32, #slice>
    %n0 = arith.muli %pn, %c128 : i32
    %10 = tile.splat %n0 : i32 -> tensor<128xi32, #slice1>
    %11 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
    %12 = arith.addi %10, %11 : tensor<128xi32, #slice1>
    %13 = tile.expand_dims %8, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %16 = tile.expand_dims %12, 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
    %17 = tile.broadcast %16 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %19 = arith.sitofp %17 : tensor<64x128xi32, #blocked> to tensor<64x128xf16, #blocked>
    %20 = tile.splat %c : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
    %21 = tile.splat %scm : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %13, %21 : tensor<64x1xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x128x!tile.ptr<f16>, #blocked>
    %25 = tile.addptr %24, %17 : tensor<64x128x!tile.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
    %26 = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %27 = arith.cmpi slt, %13, %26 : tensor<64x1xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %29 = tile.splat %N : i32 -> tensor<1x128xi32, #blocked>
    %30 = arith.cmpi slt, %16, %29 : tensor<1x128xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %32 = arith.andi %28, %31 : tensor<64x128xi1, #blocked>
    %lb = arith.constant 0 : i32
    %ub = arith.constant 2 : i32
    %st = arith.constant 1 : i32
    scf.for %i = %lb to %ub step %st : i32 {
      tile.store %25, %19, mask %32 : tensor<64x128x!tile.ptr<f16>, #blocked>
    }
    return
  }
}

// -----

// A store the kernel reads back stays a store: the bulk copy's writes are not ordered
// with the load after it. The last store, after which nothing touches memory, goes by TMA.
// CHECK-LABEL: func.func @reread
// CHECK: tile.store
// CHECK: tile.load
// CHECK-NOT: tile.store
// CHECK: tile.tma_store
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @reread(%c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}, %scm: i32 {tile.divisibility = 16 : i32}, %scn: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["c", "M", "N", "stride_cm", "stride_cn"], tile.constexprs = {}, tile.grid = ["cdiv(M, 64) * cdiv(N, 128)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %c64_i32 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %pid = tile.program_id 0
    %pm = arith.divsi %pid, %N : i32
    %pn = arith.remsi %pid, %N : i32
    %m0 = arith.muli %pm, %c64_i32 : i32
    %6 = tile.splat %m0 : i32 -> tensor<64xi32, #slice>
    %7 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %8 = arith.addi %6, %7 : tensor<64xi32, #slice>
    %n0 = arith.muli %pn, %c128 : i32
    %10 = tile.splat %n0 : i32 -> tensor<128xi32, #slice1>
    %11 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
    %12 = arith.addi %10, %11 : tensor<128xi32, #slice1>
    %13 = tile.expand_dims %8, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %16 = tile.expand_dims %12, 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
    %17 = tile.broadcast %16 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %19 = arith.sitofp %17 : tensor<64x128xi32, #blocked> to tensor<64x128xf16, #blocked>
    %20 = tile.splat %c : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
    %21 = tile.splat %scm : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %13, %21 : tensor<64x1xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x128x!tile.ptr<f16>, #blocked>
    %25 = tile.addptr %24, %17 : tensor<64x128x!tile.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
    %26 = tile.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %27 = arith.cmpi slt, %13, %26 : tensor<64x1xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %29 = tile.splat %N : i32 -> tensor<1x128xi32, #blocked>
    %30 = arith.cmpi slt, %16, %29 : tensor<1x128xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %32 = arith.andi %28, %31 : tensor<64x128xi1, #blocked>
    tile.store %25, %19, mask %32 : tensor<64x128x!tile.ptr<f16>, #blocked>
    %back = tile.load %25, mask %32 : tensor<64x128x!tile.ptr<f16>, #blocked>
    tile.store %25, %back, mask %32 : tensor<64x128x!tile.ptr<f16>, #blocked>
    return
  }
}

