// tile-pipeline's warp specialisation (warp-specialize=true, with tma=true): matmul's
// 128 x 256 x 64 loop on 8 warps, 4 stages, both operands TMA-able, as tile-prefetch leaves
// it (from lang-examples/matmul.tile, the aligned unit-stride variant). The kernel's body
// becomes a tile.warp_specialize after the rings and the two mbarrier rings (full: one
// arrival, the producer's expect; empty: one per consumer warp, 8). The producer region
// holds only scalar code: the block coordinates recomputed from program_id, a loop over
// the iterations that waits on the slot's empty mbarrier in the parity of the previous
// pass (pass & 1 ^ 1: free at once in the first pass), expects 48 KB on the full one and
// issues the two bulk copies. The consumer region is the kernel: its loop waits on the
// full mbarrier in the pass's parity, computes, and once the product of the previous
// iteration has retired (wait pending 1) hands its slot back (index > 0); no prologue, no
// refill, no barrier. The kernel gains tile.producer_warps = 4. Without warp-specialize
// the TMA pipeline is unchanged (PLAIN).
// RUN: tile-opt %s -split-input-file -tile-pipeline="tma=true warp-specialize=true" | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline="tma=true" | FileCheck %s --check-prefix=PLAIN

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: tile.producer_warps = 4 : i32
// CHECK: %[[A:.+]] = tile.local_alloc -> !tile.smem<4x128x64xf16
// CHECK: %[[B:.+]] = tile.local_alloc -> !tile.smem<4x64x256xf16
// CHECK: %[[FULL:.+]] = tile.local_alloc -> !tile.smem<4x1xi64
// CHECK: tile.mbarrier_init %[[FULL]] {count = 1 : i32}
// CHECK: %[[EMPTY:.+]] = tile.local_alloc -> !tile.smem<4x1xi64
// CHECK: tile.mbarrier_init %[[EMPTY]] {count = 8 : i32}
// CHECK: tile.warp_specialize {consumerRegs = 232 : i32, producerRegs = 40 : i32} producer {
// CHECK-NOT: tensor<
// CHECK: tile.program_id 0
// CHECK-NOT: tensor<
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} : i32 {
// CHECK: %[[KOFF:.+]] = arith.muli %[[K]], %c64_i32
// CHECK: %[[PASS:.+]] = arith.divui %[[INDEX:.+]], %c4_i32
// CHECK: %[[ODD:.+]] = arith.andi %[[PASS]], %c1_i32
// CHECK: %[[PARITY:.+]] = arith.xori %[[ODD]], %c1_i32
// CHECK: %[[E:.+]] = tile.memdesc_index %[[EMPTY]][%[[SLOT:.+]]]
// CHECK: tile.mbarrier_wait %[[E]], %[[PARITY]]
// CHECK: %[[F:.+]] = tile.memdesc_index %[[FULL]][%[[SLOT]]]
// CHECK: tile.mbarrier_expect %[[F]] {bytes = 49152 : i32}
// CHECK: %[[SA:.+]] = tile.memdesc_index %[[A]][%[[SLOT]]]
// CHECK: tile.tma_load %{{.+}}[%{{.+}}, %[[KOFF]]], %[[SA]], %[[F]]
// CHECK: %[[SB:.+]] = tile.memdesc_index %[[B]][%[[SLOT]]]
// CHECK: tile.tma_load %{{.+}}[%[[KOFF]], %{{.+}}], %[[SB]], %[[F]]
// CHECK-NOT: tensor<
// CHECK: } consumer {
// CHECK: scf.for
// CHECK: %[[CF:.+]] = tile.memdesc_index %[[FULL]][%[[CSLOT:.+]]]
// CHECK: tile.mbarrier_wait %[[CF]], %{{.+}}
// CHECK: tile.warpgroup_dot
// CHECK: tile.warpgroup_dot_wait %{{.+}} {pending = 1 : i32}
// CHECK: %[[STARTED:.+]] = arith.cmpi sgt
// CHECK: scf.if %[[STARTED]] {
// CHECK: %[[CE:.+]] = tile.memdesc_index %[[EMPTY]]
// CHECK: tile.mbarrier_arrive %[[CE]]
// CHECK: }
// CHECK-NOT: tile.tma_load
// CHECK-NOT: tile.barrier
// CHECK: scf.yield
// CHECK: tile.warpgroup_dot_wait %{{.+}} {pending = 0 : i32}
// CHECK: tile.mbarrier_inval %[[FULL]]
// CHECK: tile.mbarrier_inval %[[EMPTY]]
// CHECK: tile.store {{.+}}
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: return

// PLAIN-LABEL: func.func @matmul
// PLAIN-NOT: tile.producer_warps
// PLAIN-NOT: tile.warp_specialize
// PLAIN-NOT: tile.mbarrier_arrive
// PLAIN-COUNT-3: tile.mbarrier_expect
// PLAIN: scf.for

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#shared = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 1, parent = #blocked1}>
#slice2 = #tile.slice<{dim = 0, parent = #blocked}>
#slice3 = #tile.slice<{dim = 0, parent = #blocked1}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @matmul(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: i32 {tile.divisibility = 16 : i32}, %arg4: i32 {tile.divisibility = 16 : i32}, %arg5: i32 {tile.divisibility = 16 : i32}, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.equal_to = 1 : i32}, %arg8: i32 {tile.divisibility = 16 : i32}, %arg9: i32 {tile.equal_to = 1 : i32}, %arg10: i32 {tile.divisibility = 16 : i32}, %arg11: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["a", "b", "c", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm", "stride_cn"], tile.constexprs = {BK = 64 : i64, BM = 128 : i64, BN = 256 : i64, DTYPE = f16}, tile.grid = ["cdiv(M, 128) * cdiv(N, 256)", "1", "1"], tile.kernel, tile.num_stages = 4 : i32, tile.num_warps = 8 : i32} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x256xf16, #blocked>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %c63_i32 = arith.constant 63 : i32
    %c255_i32 = arith.constant 255 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c128_i32 = arith.constant 128 : i32
    %c256_i32 = arith.constant 256 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = tile.program_id 0
    %1 = arith.addi %arg4, %c255_i32 : i32
    %2 = arith.divsi %1, %c256_i32 : i32
    %3 = arith.divsi %0, %2 : i32
    %4 = arith.remsi %0, %2 : i32
    %5 = arith.muli %3, %c128_i32 : i32
    %6 = tile.splat %5 : i32 -> tensor<128xi32, #slice>
    %7 = tile.splat %5 : i32 -> tensor<128xi32, #slice1>
    %8 = tile.make_range 0 to 128 : tensor<128xi32, #slice>
    %9 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
    %10 = arith.addi %6, %8 : tensor<128xi32, #slice>
    %11 = arith.addi %7, %9 : tensor<128xi32, #slice1>
    %12 = arith.muli %4, %c256_i32 : i32
    %13 = tile.splat %12 : i32 -> tensor<256xi32, #slice2>
    %14 = tile.make_range 0 to 256 : tensor<256xi32, #slice2>
    %15 = arith.addi %13, %14 : tensor<256xi32, #slice2>
    %16 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
    %17 = tile.make_range 0 to 64 : tensor<64xi32, #slice3>
    %18 = arith.addi %arg5, %c63_i32 : i32
    %19 = arith.divsi %18, %c64_i32 : i32
    %20 = scf.for %arg12 = %c0_i32 to %19 step %c1_i32 iter_args(%arg13 = %cst_1) -> (tensor<128x256xf32, #mma>)  : i32 {
      %39 = arith.muli %arg12, %c64_i32 : i32
      %40 = tile.splat %39 : i32 -> tensor<64xi32, #slice>
      %41 = tile.splat %39 : i32 -> tensor<64xi32, #slice3>
      %42 = arith.addi %40, %16 : tensor<64xi32, #slice>
      %43 = arith.addi %41, %17 : tensor<64xi32, #slice3>
      %44 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>, #blocked1>
      %45 = tile.expand_dims %11, 1 : tensor<128xi32, #slice1> -> tensor<128x1xi32, #blocked1>
      %46 = tile.splat %arg6 : i32 -> tensor<128x1xi32, #blocked1>
      %47 = arith.muli %45, %46 : tensor<128x1xi32, #blocked1>
      %48 = tile.addptr %44, %47 : tensor<128x1x!tile.ptr<f16>, #blocked1>, tensor<128x1xi32, #blocked1>
      %49 = tile.broadcast %48 : tensor<128x1x!tile.ptr<f16>, #blocked1> -> tensor<128x64x!tile.ptr<f16>, #blocked1>
      %50 = tile.expand_dims %43, 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked1>
      %51 = tile.broadcast %50 : tensor<1x64xi32, #blocked1> -> tensor<128x64xi32, #blocked1>
      %52 = tile.addptr %49, %51 : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
      %53 = tile.splat %arg3 : i32 -> tensor<128x1xi32, #blocked1>
      %54 = arith.cmpi slt, %45, %53 : tensor<128x1xi32, #blocked1>
      %55 = tile.broadcast %54 : tensor<128x1xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
      %56 = tile.splat %arg5 : i32 -> tensor<1x64xi32, #blocked1>
      %57 = arith.cmpi slt, %50, %56 : tensor<1x64xi32, #blocked1>
      %58 = tile.broadcast %57 : tensor<1x64xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
      %59 = arith.andi %55, %58 : tensor<128x64xi1, #blocked1>
      %60 = tile.load %52, mask %59, other %cst_0 {vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #blocked1>
      %61 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
      %62 = tile.expand_dims %42, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
      %63 = tile.splat %arg8 : i32 -> tensor<64x1xi32, #blocked>
      %64 = arith.muli %62, %63 : tensor<64x1xi32, #blocked>
      %65 = tile.addptr %61, %64 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
      %66 = tile.broadcast %65 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x256x!tile.ptr<f16>, #blocked>
      %67 = tile.expand_dims %15, 0 : tensor<256xi32, #slice2> -> tensor<1x256xi32, #blocked>
      %68 = tile.broadcast %67 : tensor<1x256xi32, #blocked> -> tensor<64x256xi32, #blocked>
      %69 = tile.addptr %66, %68 : tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
      %70 = tile.splat %arg5 : i32 -> tensor<64x1xi32, #blocked>
      %71 = arith.cmpi slt, %62, %70 : tensor<64x1xi32, #blocked>
      %72 = tile.broadcast %71 : tensor<64x1xi1, #blocked> -> tensor<64x256xi1, #blocked>
      %73 = tile.splat %arg4 : i32 -> tensor<1x256xi32, #blocked>
      %74 = arith.cmpi slt, %67, %73 : tensor<1x256xi32, #blocked>
      %75 = tile.broadcast %74 : tensor<1x256xi1, #blocked> -> tensor<64x256xi1, #blocked>
      %76 = arith.andi %72, %75 : tensor<64x256xi1, #blocked>
      %77 = tile.load %69, mask %76, other %cst {vec = 8 : i32} : tensor<64x256x!tile.ptr<f16>, #blocked>
      %78 = tile.local_alloc %60 : tensor<128x64xf16, #blocked1> -> !tile.smem<128x64xf16, #shared>
      %79 = tile.local_alloc %77 : tensor<64x256xf16, #blocked> -> !tile.smem<64x256xf16, #shared>
      %80 = tile.warpgroup_dot %78, %79, %arg13 : !tile.smem<128x64xf16, #shared>, !tile.smem<64x256xf16, #shared>, tensor<128x256xf32, #mma>
      %81 = tile.warpgroup_dot_wait %80 {pending = 0 : i32} : tensor<128x256xf32, #mma>
      scf.yield %81 : tensor<128x256xf32, #mma>
    }
    %21 = tile.splat %arg2 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>, #blocked>
    %22 = tile.expand_dims %10, 1 : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
    %23 = tile.splat %arg10 : i32 -> tensor<128x1xi32, #blocked>
    %24 = arith.muli %22, %23 : tensor<128x1xi32, #blocked>
    %25 = tile.addptr %21, %24 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %26 = tile.broadcast %25 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x256x!tile.ptr<f16>, #blocked>
    %27 = tile.expand_dims %15, 0 : tensor<256xi32, #slice2> -> tensor<1x256xi32, #blocked>
    %28 = tile.broadcast %27 : tensor<1x256xi32, #blocked> -> tensor<128x256xi32, #blocked>
    %29 = tile.addptr %26, %28 : tensor<128x256x!tile.ptr<f16>, #blocked>, tensor<128x256xi32, #blocked>
    %30 = arith.truncf %20 : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
    %31 = tile.splat %arg3 : i32 -> tensor<128x1xi32, #blocked>
    %32 = arith.cmpi slt, %22, %31 : tensor<128x1xi32, #blocked>
    %33 = tile.broadcast %32 : tensor<128x1xi1, #blocked> -> tensor<128x256xi1, #blocked>
    %34 = tile.splat %arg4 : i32 -> tensor<1x256xi32, #blocked>
    %35 = arith.cmpi slt, %27, %34 : tensor<1x256xi32, #blocked>
    %36 = tile.broadcast %35 : tensor<1x256xi1, #blocked> -> tensor<128x256xi1, #blocked>
    %37 = arith.andi %33, %36 : tensor<128x256xi1, #blocked>
    %38 = tile.convert_layout %30 : tensor<128x256xf16, #mma> -> tensor<128x256xf16, #blocked>
    tile.store %29, %38, mask %37 {vec = 8 : i32} : tensor<128x256x!tile.ptr<f16>, #blocked>
    return
  }
}


