// tile-pipeline on a persistent kernel's K loop (matmul 128 x 256 x 64, 8 warps, 3 stages,
// the aligned unit-stride variant after tile-persistent, as tile-prefetch leaves it): the
// loop is nested in the tile loop, and one TMA ring serves every tile. Its slots and
// mbarriers are made and initialised once, before the tile loop, and invalidated after
// it; the tile loop carries the ring's count of iterations (0 at first, plus the K loop's
// trip count after each tile), from which the prologue's slots (count + j) mod 3, the
// loop's slot (count + i) mod 3 and the phase ((count + i) / 3) & 1 are computed, so the
// phases continue from tile to tile. In a kernel tile-persistent made (tile.persistent),
// the prologue is rotated out of the tile loop's body:
// the first tile's copies before the loop, each next tile's right after this tile's last
// products, before its epilogue, which then runs while they land. Warp-specialised (WS), the producer region repeats
// the tile loop with only the scalars the copies need and the same count; the consumers
// hand the slot of the tile's last product back after the loop's final wait (when the
// loop ran at all): the producer refills it for the next tile while the consumers write
// this one. Both mbarrier rings are invalidated after the consumers' tile loop.
// RUN: tile-opt %s -tile-pipeline="tma=true" | FileCheck %s
// RUN: tile-opt %s -tile-pipeline="tma=true warp-specialize=true" | FileCheck %s --check-prefix=WS
// A kernel with its own tile loop (no tile.persistent: tutorial 09's) keeps the prologue in
// the tile loop's body.
// RUN: sed 's/, tile.persistent}/}/' %s | tile-opt -tile-pipeline="tma=true" | FileCheck %s --check-prefix=NOROT
// NOROT: tile.mbarrier_init
// NOROT-NOT: tile.tma_load
// NOROT: scf.for %{{.+}} iter_args(%{{.+}}) -> (i32)  : i32 {
// NOROT: tile.tma_load
// NOROT: tile.tma_load
// NOROT: scf.for %{{.+}} -> (tensor<128x256xf32

// CHECK: %[[PID:.+]] = tile.program_id 0
// CHECK: %[[A:.+]] = tile.local_alloc -> !tile.smem<3x128x64xf16
// CHECK: %[[B:.+]] = tile.local_alloc -> !tile.smem<3x64x256xf16
// CHECK: %[[BARS:.+]] = tile.local_alloc -> !tile.smem<3x1xi64
// CHECK: tile.mbarrier_init %[[BARS]] {count = 1 : i32}
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// The first tile's prologue, before the tile loop, where the loop runs (%[[PID]] < count).
// CHECK: %[[RUNS:.+]] = arith.cmpi slt, %[[PID]], %{{.+}} : i32
// CHECK: %[[V0:.+]] = arith.andi %{{.+}}, %[[RUNS]] : i1
// CHECK: scf.if %[[V0]] {
// CHECK: tile.tma_load
// CHECK: %[[V1:.+]] = arith.andi %{{.+}}, %[[RUNS]] : i1
// CHECK: scf.if %[[V1]] {
// CHECK: tile.tma_load
// CHECK: scf.for %[[T:.+]] = %[[PID]] to %{{.+}} step %[[STEP:.+]] iter_args(%[[COUNT:.+]] = %[[ZERO]]) -> (i32)  : i32 {
// CHECK-NOT: tile.tma_load
// CHECK: %[[K:.+]] = scf.for %[[I:.+]] = %c0_i32 to %[[TRIPS:.+]] step %c1_i32 iter_args
// CHECK: %[[LOCAL:.+]] = arith.divsi
// CHECK: %[[RING:.+]] = arith.addi %[[COUNT]], %[[LOCAL]] : i32
// CHECK: %[[SLOT:.+]] = arith.remui %[[RING]], %c3_i32
// CHECK: %[[PASS:.+]] = arith.divui %[[RING]], %c3_i32
// CHECK: %[[PHASE:.+]] = arith.andi %[[PASS]], %c1_i32
// CHECK: tile.mbarrier_wait %{{.+}}, %[[PHASE]]
// CHECK: tile.warpgroup_dot
// CHECK: tile.tma_load
// CHECK: scf.yield
// CHECK: %[[SPAN:.+]] = arith.subi %[[TRIPS]], %c0_i32
// CHECK: %[[N:.+]] = arith.ceildivsi %[[SPAN]], %c1_i32
// CHECK: %[[N0:.+]] = arith.maxsi %[[N]], %c0_i32
// CHECK: %[[NEXT:.+]] = arith.addi %[[COUNT]], %[[N0]] : i32
// CHECK: tile.warpgroup_dot_wait %[[K]] {pending = 0 : i32}
// The next tile's prologue, before this tile's epilogue: its coordinates from %t + step,
// where that tile exists, into slots (count + trips + j) mod 3.
// CHECK: %[[TNEXT:.+]] = arith.addi %[[T]], %[[STEP]] : i32
// CHECK: %[[BASE:.+]] = arith.addi %[[COUNT]], %[[N0]] : i32
// CHECK: %[[EXISTS:.+]] = arith.cmpi slt, %[[TNEXT]], %{{.+}} : i32
// CHECK: %[[W0:.+]] = arith.andi %{{.+}}, %[[EXISTS]] : i1
// CHECK: %[[R0:.+]] = arith.addi %[[BASE]], %c0_i32{{.*}} : i32
// CHECK: %[[S0:.+]] = arith.remui %[[R0]], %c3_i32
// CHECK: scf.if %[[W0]] {
// CHECK: tile.memdesc_index %[[BARS]][%[[S0]]]
// CHECK: tile.tma_load
// CHECK: %[[R1:.+]] = arith.addi %[[BASE]], %c1_i32{{.*}} : i32
// CHECK: arith.remui %[[R1]], %c3_i32
// CHECK: tile.tma_load
// CHECK-NOT: tile.mbarrier_inval
// CHECK: tile.store
// CHECK-NEXT: scf.yield %[[NEXT]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: tile.mbarrier_inval %[[BARS]]

// WS: %[[FULL:.+]] = tile.local_alloc -> !tile.smem<3x1xi64
// WS: tile.mbarrier_init %[[FULL]] {count = 1 : i32}
// WS: %[[EMPTY:.+]] = tile.local_alloc -> !tile.smem<3x1xi64
// WS: tile.mbarrier_init %[[EMPTY]] {count = 8 : i32}
// WS: tile.warp_specialize
// WS-SAME: producer {
// WS-NOT: tensor<
// WS: tile.num_programs 0
// WS-NEXT: %[[PZERO:.+]] = arith.constant 0 : i32
// WS-NOT: tensor<
// WS: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[PCOUNT:.+]] = %[[PZERO]]) -> (i32)  : i32 {
// WS-NOT: tensor<
// WS: scf.for
// WS: %[[PRING:.+]] = arith.addi %[[PCOUNT]], %{{.+}} : i32
// WS: %[[PSLOT:.+]] = arith.remui %[[PRING]], %c3_i32
// WS: tile.memdesc_index %[[EMPTY]][%[[PSLOT]]]
// WS: tile.mbarrier_wait
// WS: tile.mbarrier_expect
// WS-COUNT-2: tile.tma_load
// WS: }
// WS: %[[PNEXT:.+]] = arith.addi %[[PCOUNT]], %{{.+}} : i32
// WS-NEXT: scf.yield %[[PNEXT]] : i32
// WS: } consumer {
// WS: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[CCOUNT:.+]] = %{{.+}}) -> (i32)  : i32 {
// WS: %[[K:.+]] = scf.for
// WS: %[[CRING:.+]] = arith.addi %[[CCOUNT]], %{{.+}} : i32
// WS: tile.mbarrier_wait
// WS: tile.warpgroup_dot_wait %{{.+}} {pending = 1 : i32}
// WS: scf.if
// WS: tile.mbarrier_arrive
// WS: %[[TRIPS:.+]] = arith.maxsi
// WS: %[[CNEXT:.+]] = arith.addi %[[CCOUNT]], %[[TRIPS]] : i32
// WS: tile.warpgroup_dot_wait %[[K]] {pending = 0 : i32}
// WS: %[[RAN:.+]] = arith.cmpi sgt, %[[TRIPS]], %c0_i32
// WS: %[[LASTI:.+]] = arith.subi %[[TRIPS]], %c1_i32
// WS: %[[LAST:.+]] = arith.addi %[[CCOUNT]], %[[LASTI]] : i32
// WS: scf.if %[[RAN]] {
// WS: %[[LSLOT:.+]] = arith.remui %[[LAST]], %c3_i32
// WS: %[[LBAR:.+]] = tile.memdesc_index %[[EMPTY]][%[[LSLOT]]]
// WS: tile.mbarrier_arrive %[[LBAR]]
// WS: tile.store
// WS-NEXT: scf.yield %[[CNEXT]] : i32
// WS-NEXT: }
// WS-NEXT: tile.mbarrier_inval %[[FULL]]
// WS-NEXT: tile.mbarrier_inval %[[EMPTY]]

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#shared = #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 1, parent = #blocked1}>
#slice2 = #tile.slice<{dim = 0, parent = #blocked}>
#slice3 = #tile.slice<{dim = 0, parent = #blocked1}>
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @matmul(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: i32 {tile.divisibility = 16 : i32}, %arg4: i32 {tile.divisibility = 16 : i32}, %arg5: i32 {tile.divisibility = 16 : i32}, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.equal_to = 1 : i32}, %arg8: i32 {tile.divisibility = 16 : i32}, %arg9: i32 {tile.equal_to = 1 : i32}, %arg10: i32 {tile.divisibility = 16 : i32}, %arg11: i32 {tile.equal_to = 1 : i32}) attributes {tile.arg_names = ["a", "b", "c", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm", "stride_cn"], tile.constexprs = {BK = 64 : i64, BM = 128 : i64, BN = 256 : i64, DTYPE = f16}, tile.grid = ["min(num_sms * occupancy, cdiv(M, 128) * cdiv(N, 256))", "1", "1"], tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 8 : i32, tile.persistent} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x256xf16, #blocked>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %c1_i32 = arith.constant 1 : i32
    %c256_i32 = arith.constant 256 : i32
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %c255_i32 = arith.constant 255 : i32
    %c63_i32 = arith.constant 63 : i32
    %c256_i64 = arith.constant 256 : i64
    %c128_i64 = arith.constant 128 : i64
    %0 = arith.extsi %arg3 : i32 to i64
    %1 = arith.ceildivsi %0, %c128_i64 : i64
    %2 = arith.extsi %arg4 : i32 to i64
    %3 = arith.ceildivsi %2, %c256_i64 : i64
    %4 = arith.muli %1, %3 : i64
    %5 = arith.trunci %4 : i64 to i32
    %6 = tile.program_id 0
    %7 = tile.num_programs 0
    scf.for %arg12 = %6 to %5 step %7  : i32 {
      %8 = arith.addi %arg4, %c255_i32 : i32
      %9 = arith.divsi %8, %c256_i32 : i32
      %10 = arith.divsi %arg12, %9 : i32
      %11 = arith.remsi %arg12, %9 : i32
      %12 = arith.muli %10, %c128_i32 : i32
      %13 = tile.splat %12 : i32 -> tensor<128xi32, #slice>
      %14 = tile.splat %12 : i32 -> tensor<128xi32, #slice1>
      %15 = tile.make_range 0 to 128 : tensor<128xi32, #slice>
      %16 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
      %17 = arith.addi %13, %15 : tensor<128xi32, #slice>
      %18 = arith.addi %14, %16 : tensor<128xi32, #slice1>
      %19 = arith.muli %11, %c256_i32 : i32
      %20 = tile.splat %19 : i32 -> tensor<256xi32, #slice2>
      %21 = tile.make_range 0 to 256 : tensor<256xi32, #slice2>
      %22 = arith.addi %20, %21 : tensor<256xi32, #slice2>
      %23 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
      %24 = tile.make_range 0 to 64 : tensor<64xi32, #slice3>
      %25 = arith.addi %arg5, %c63_i32 : i32
      %26 = arith.divsi %25, %c64_i32 : i32
      %27 = scf.for %arg13 = %c0_i32 to %26 step %c1_i32 iter_args(%arg14 = %cst_1) -> (tensor<128x256xf32, #mma>)  : i32 {
        %46 = arith.muli %arg13, %c64_i32 : i32
        %47 = tile.splat %46 : i32 -> tensor<64xi32, #slice>
        %48 = tile.splat %46 : i32 -> tensor<64xi32, #slice3>
        %49 = arith.addi %47, %23 : tensor<64xi32, #slice>
        %50 = arith.addi %48, %24 : tensor<64xi32, #slice3>
        %51 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>, #blocked1>
        %52 = tile.expand_dims %18, 1 : tensor<128xi32, #slice1> -> tensor<128x1xi32, #blocked1>
        %53 = tile.splat %arg6 : i32 -> tensor<128x1xi32, #blocked1>
        %54 = arith.muli %52, %53 : tensor<128x1xi32, #blocked1>
        %55 = tile.addptr %51, %54 : tensor<128x1x!tile.ptr<f16>, #blocked1>, tensor<128x1xi32, #blocked1>
        %56 = tile.broadcast %55 : tensor<128x1x!tile.ptr<f16>, #blocked1> -> tensor<128x64x!tile.ptr<f16>, #blocked1>
        %57 = tile.expand_dims %50, 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked1>
        %58 = tile.broadcast %57 : tensor<1x64xi32, #blocked1> -> tensor<128x64xi32, #blocked1>
        %59 = tile.addptr %56, %58 : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
        %60 = tile.splat %arg3 : i32 -> tensor<128x1xi32, #blocked1>
        %61 = arith.cmpi slt, %52, %60 : tensor<128x1xi32, #blocked1>
        %62 = tile.broadcast %61 : tensor<128x1xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
        %63 = tile.splat %arg5 : i32 -> tensor<1x64xi32, #blocked1>
        %64 = arith.cmpi slt, %57, %63 : tensor<1x64xi32, #blocked1>
        %65 = tile.broadcast %64 : tensor<1x64xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
        %66 = arith.andi %62, %65 : tensor<128x64xi1, #blocked1>
        %67 = tile.load %59, mask %66, other %cst_0 {vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #blocked1>
        %68 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
        %69 = tile.expand_dims %49, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
        %70 = tile.splat %arg8 : i32 -> tensor<64x1xi32, #blocked>
        %71 = arith.muli %69, %70 : tensor<64x1xi32, #blocked>
        %72 = tile.addptr %68, %71 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
        %73 = tile.broadcast %72 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x256x!tile.ptr<f16>, #blocked>
        %74 = tile.expand_dims %22, 0 : tensor<256xi32, #slice2> -> tensor<1x256xi32, #blocked>
        %75 = tile.broadcast %74 : tensor<1x256xi32, #blocked> -> tensor<64x256xi32, #blocked>
        %76 = tile.addptr %73, %75 : tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
        %77 = tile.splat %arg5 : i32 -> tensor<64x1xi32, #blocked>
        %78 = arith.cmpi slt, %69, %77 : tensor<64x1xi32, #blocked>
        %79 = tile.broadcast %78 : tensor<64x1xi1, #blocked> -> tensor<64x256xi1, #blocked>
        %80 = tile.splat %arg4 : i32 -> tensor<1x256xi32, #blocked>
        %81 = arith.cmpi slt, %74, %80 : tensor<1x256xi32, #blocked>
        %82 = tile.broadcast %81 : tensor<1x256xi1, #blocked> -> tensor<64x256xi1, #blocked>
        %83 = arith.andi %79, %82 : tensor<64x256xi1, #blocked>
        %84 = tile.load %76, mask %83, other %cst {vec = 8 : i32} : tensor<64x256x!tile.ptr<f16>, #blocked>
        %85 = tile.local_alloc %67 : tensor<128x64xf16, #blocked1> -> !tile.smem<128x64xf16, #shared>
        %86 = tile.local_alloc %84 : tensor<64x256xf16, #blocked> -> !tile.smem<64x256xf16, #shared>
        %87 = tile.warpgroup_dot %85, %86, %arg14 : !tile.smem<128x64xf16, #shared>, !tile.smem<64x256xf16, #shared>, tensor<128x256xf32, #mma>
        %88 = tile.warpgroup_dot_wait %87 {pending = 0 : i32} : tensor<128x256xf32, #mma>
        scf.yield %88 : tensor<128x256xf32, #mma>
      }
      %28 = tile.splat %arg2 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>, #blocked>
      %29 = tile.expand_dims %17, 1 : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
      %30 = tile.splat %arg10 : i32 -> tensor<128x1xi32, #blocked>
      %31 = arith.muli %29, %30 : tensor<128x1xi32, #blocked>
      %32 = tile.addptr %28, %31 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
      %33 = tile.broadcast %32 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x256x!tile.ptr<f16>, #blocked>
      %34 = tile.expand_dims %22, 0 : tensor<256xi32, #slice2> -> tensor<1x256xi32, #blocked>
      %35 = tile.broadcast %34 : tensor<1x256xi32, #blocked> -> tensor<128x256xi32, #blocked>
      %36 = tile.addptr %33, %35 : tensor<128x256x!tile.ptr<f16>, #blocked>, tensor<128x256xi32, #blocked>
      %37 = arith.truncf %27 : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
      %38 = tile.splat %arg3 : i32 -> tensor<128x1xi32, #blocked>
      %39 = arith.cmpi slt, %29, %38 : tensor<128x1xi32, #blocked>
      %40 = tile.broadcast %39 : tensor<128x1xi1, #blocked> -> tensor<128x256xi1, #blocked>
      %41 = tile.splat %arg4 : i32 -> tensor<1x256xi32, #blocked>
      %42 = arith.cmpi slt, %34, %41 : tensor<1x256xi32, #blocked>
      %43 = tile.broadcast %42 : tensor<1x256xi1, #blocked> -> tensor<128x256xi1, #blocked>
      %44 = arith.andi %40, %43 : tensor<128x256xi1, #blocked>
      %45 = tile.convert_layout %37 : tensor<128x256xf16, #mma> -> tensor<128x256xf16, #blocked>
      tile.store %36, %45, mask %44 {vec = 8 : i32} : tensor<128x256x!tile.ptr<f16>, #blocked>
    }
    return
  }
}
