// tile-pipeline's multicast (tcc --multicast) on a persistent GEMM's K loop (matmul 128 x
// 256 x 64, 8 warps, 3 stages, the aligned unit-stride variant as tile-prefetch leaves it,
// tile-persistent's grouped order with its column `t % X` marked tile.tile_column). B's
// coordinates come from the tile's column and k alone, the K loop's bounds from neither:
// the kernel launches in clusters of two (tile.cluster_size = 2, the grid rounded up to
// even), and where the tiles' count is a multiple of 2 * X (the rows even in number:
// programs 2j and 2j + 1 then take tiles of one column together) B's copies multicast
// (each program copies half of its boxes to both). Before each copy of B into a slot
// (after A's), the program waits (acquire at cluster scope) on a second ring of mbarriers (8 arrivals: every warp of the
// partner) in the phase of the partner's hand-back of that slot's previous use; each
// warp hands the slot of iteration i - 1 back to the partner after the wait that retires
// its product (not in a tile's first iteration) and the tile's last slot after the loop.
// A cluster barrier follows the mbarriers' initialisation and ends the tile loop.
// RUN: tile-opt %s -tile-pipeline="tma=true multicast=true" | FileCheck %s
// Without the option, nothing of it.
// RUN: tile-opt %s -tile-pipeline="tma=true" | FileCheck %s --check-prefix=OFF
// OFF-NOT: cluster
// OFF-NOT: multicast
// OFF-NOT: {peer}
// OFF-NOT: {cluster}
// Without the column's mark (a tile order tile-persistent did not make), nothing either.
// RUN: sed 's/ {tile.tile_column}//' %s | tile-opt -tile-pipeline="tma=true multicast=true" | FileCheck %s --check-prefix=OFF
// Warp-specialised, the producers multicast and only they wait for the partner: each
// slot's `empty` mbarrier counts both programs' 8 consumer warps (16); a cluster barrier
// follows the initialisation, before the warp_specialize, and another follows it (the tile
// loop ends the kernel; nothing is invalidated). The producer computes the run-time
// condition itself (from the consumer region's ops, cloned) and copies B with it; each
// consumer warp hands a slot back on its own `empty` mbarrier and, where multicasting, on
// the partner's ({peer}), else on its own again. No consumer waits at cluster scope.
// RUN: tile-opt %s -tile-pipeline="tma=true warp-specialize=true multicast=true" | FileCheck %s --check-prefix=WS
// WS-LABEL: func.func @matmul
// WS-SAME: tile.cluster_size = 2 : i32
// WS-SAME: tile.grid = ["cdiv(min(num_sms * occupancy, cdiv(M, 128) * cdiv(N, 256)), 2) * 2", "1", "1"]
// WS: tile.mbarrier_init %{{.+}} {count = 1 : i32}
// WS: %[[EMPTY:.+]] = tile.local_alloc -> !tile.smem<3x1xi64
// WS-NEXT: tile.mbarrier_init %[[EMPTY]] {count = 16 : i32}
// WS-NEXT: tile.cluster_sync
// WS-NEXT: tile.warp_specialize
// WS-SAME: producer {
// WS: %[[PX:.+]] = arith.divsi %{{.+}}, %c256_i32{{.*}} : i32
// WS: %[[PPOS:.+]] = arith.cmpi sgt, %[[PX]], %{{.+}} : i32
// WS: %[[PMC:.+]] = arith.andi %[[PPOS]], %{{.+}} : i1
// WS: tile.mbarrier_wait %{{.+}}, %{{.+}} :
// WS: tile.mbarrier_expect %{{.+}} {bytes = 49152 : i32}
// WS: tile.tma_load
// WS: tile.tma_load %{{.+}} multicast %[[PMC]]
// WS: } consumer {
// WS: %[[MC:.+]] = arith.andi %{{.+}}, %{{.+}} : i1
// WS: scf.for
// WS-NOT: {cluster}
// WS: tile.warpgroup_dot_wait %{{.+}} {pending = 1 : i32}
// WS: tile.mbarrier_arrive %[[BAR:[^ ]+]] :
// WS-NEXT: scf.if %[[MC]] {
// WS-NEXT: tile.mbarrier_arrive %[[BAR]] {peer}
// WS-NEXT: } else {
// WS-NEXT: tile.mbarrier_arrive %[[BAR]] :
// WS-NOT: tile.mbarrier_inval
// WS: tile.cluster_sync
// WS-NEXT: return

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: tile.cluster_size = 2 : i32
// CHECK-SAME: tile.grid = ["cdiv(min(num_sms * occupancy, cdiv(M, 128) * cdiv(N, 256)), 2) * 2", "1", "1"]
// CHECK: %[[FULL:.+]] = tile.local_alloc -> !tile.smem<3x1xi64
// CHECK-NEXT: tile.mbarrier_init %[[FULL]] {count = 1 : i32}
// CHECK-NEXT: %[[BACK:.+]] = tile.local_alloc -> !tile.smem<3x1xi64
// CHECK-NEXT: tile.mbarrier_init %[[BACK]] {count = 8 : i32}
// CHECK-NEXT: tile.cluster_sync
// The condition: X = cdiv(N, 256) > 0 and tiles % (2 * X) == 0.
// CHECK: %[[X:.+]] = arith.divsi %{{.+}}, %c256_i32 : i32
// CHECK: %[[POS:.+]] = arith.cmpi sgt, %[[X]], %{{.+}} : i32
// CHECK: %[[SAFE:.+]] = arith.select %[[POS]], %[[X]], %{{.+}} : i32
// CHECK: %[[TWICE:.+]] = arith.muli %[[SAFE]], %c2_i32 : i32
// CHECK: %[[REM:.+]] = arith.remui %{{.+}}, %[[TWICE]] : i32
// CHECK: %[[EVEN:.+]] = arith.cmpi eq, %[[REM]], %{{.+}} : i32
// CHECK: %[[MC:.+]] = arith.andi %[[POS]], %[[EVEN]] : i1
// The first tile's prologue: A is copied alone, then the program waits for the partner's
// hand-back and B is multicast.
// CHECK: tile.mbarrier_expect %{{.+}} {bytes = 49152 : i32}
// CHECK-NEXT: tile.memdesc_index
// CHECK-NEXT: tile.tma_load %{{[^ ]+}}[%{{.+}}], %{{.+}}, %{{[^ ]+}} : !tile.tensormap<[128, 64]
// CHECK-NEXT: scf.if %[[MC]] {
// CHECK: arith.xori
// CHECK: tile.mbarrier_wait %{{.+}}, %{{.+}} {cluster}
// CHECK-NEXT: }
// CHECK-NEXT: tile.memdesc_index
// CHECK-NEXT: tile.tma_load %{{.+}} multicast %[[MC]] : !tile.tensormap<[64, 64], f16, swizzle = 128>, !tile.smem<64x256xf16
// The K loop: after the retiring wait, iteration i - 1's slot back to the partner.
// CHECK: scf.for %[[T:.+]] = %{{.+}} iter_args(%[[COUNT:.+]] = %{{.+}}) -> (i32)
// CHECK: scf.for %[[I:.+]] = %[[LB:[^ ]+]] to
// CHECK: tile.warpgroup_dot_wait %{{.+}} {pending = 1 : i32}
// CHECK-NEXT: %[[LATER:.+]] = arith.cmpi ne, %[[I]], %[[LB]] : i32
// CHECK-NEXT: %[[HAND:.+]] = arith.andi %[[MC]], %[[LATER]] : i1
// CHECK-NEXT: scf.if %[[HAND]] {
// CHECK-NEXT: %[[SLOT:.+]] = tile.memdesc_index %[[BACK]][%[[W:.+]]]
// CHECK-NEXT: tile.mbarrier_arrive %[[SLOT]] {peer}
// The copies of iteration i + 2 into that slot, B's after the partner's hand-back.
// CHECK: tile.mbarrier_expect
// CHECK: tile.tma_load
// CHECK: scf.if %[[MC]] {
// CHECK: tile.mbarrier_wait %{{.+}}, %{{.+}} {cluster}
// CHECK: tile.tma_load %{{.+}} multicast %[[MC]]
// After the loop: the last slot back (where the loop ran), then the next tile's prologue.
// CHECK: tile.warpgroup_dot_wait %{{.+}} {pending = 0 : i32}
// CHECK: %[[RAN:.+]] = arith.cmpi sgt, %{{.+}}, %{{.+}} : i32
// CHECK-NEXT: %[[LAST:.+]] = arith.andi %[[MC]], %[[RAN]] : i1
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: tile.mbarrier_arrive %{{.+}} {peer}
// CHECK: tile.tma_load %{{.+}} multicast %[[MC]]
// No program leaves while its partner may still arrive on its mbarriers.
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tile.cluster_sync
// CHECK-NEXT: tile.mbarrier_inval %[[FULL]]
// CHECK-NEXT: tile.mbarrier_inval %[[BACK]]

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
    %c8_i32 = arith.constant 8 : i32
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
      %10 = arith.cmpi sgt, %9, %c0_i32 : i32
      %11 = arith.select %10, %9, %c1_i32 : i32
      %12 = arith.divui %5, %11 : i32
      %13 = arith.muli %11, %c8_i32 : i32
      %14 = arith.divui %arg12, %13 : i32
      %15 = arith.muli %14, %c8_i32 : i32
      %16 = arith.subi %12, %15 : i32
      %17 = arith.minsi %16, %c8_i32 : i32
      %18 = arith.maxsi %17, %c1_i32 : i32
      %19 = arith.remui %arg12, %13 : i32
      %20 = arith.remui %19, %18 : i32
      %21 = arith.addi %15, %20 : i32
      %22 = arith.divui %19, %18 : i32
      %23 = arith.muli %21, %11 : i32
      %24 = arith.addi %23, %22 : i32
      %25 = arith.muli %12, %11 : i32
      %26 = arith.cmpi eq, %25, %5 : i32
      %27 = arith.andi %10, %26 : i1
      %28 = arith.select %27, %24, %arg12 : i32
      %29 = arith.divsi %28, %9 : i32
      %30 = arith.remsi %28, %9 {tile.tile_column} : i32
      %31 = arith.muli %29, %c128_i32 : i32
      %32 = tile.splat %31 : i32 -> tensor<128xi32, #slice>
      %33 = tile.splat %31 : i32 -> tensor<128xi32, #slice1>
      %34 = tile.make_range 0 to 128 : tensor<128xi32, #slice>
      %35 = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
      %36 = arith.addi %32, %34 : tensor<128xi32, #slice>
      %37 = arith.addi %33, %35 : tensor<128xi32, #slice1>
      %38 = arith.muli %30, %c256_i32 : i32
      %39 = tile.splat %38 : i32 -> tensor<256xi32, #slice2>
      %40 = tile.make_range 0 to 256 : tensor<256xi32, #slice2>
      %41 = arith.addi %39, %40 : tensor<256xi32, #slice2>
      %42 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
      %43 = tile.make_range 0 to 64 : tensor<64xi32, #slice3>
      %44 = arith.addi %arg5, %c63_i32 : i32
      %45 = arith.divsi %44, %c64_i32 : i32
      %46 = scf.for %arg13 = %c0_i32 to %45 step %c1_i32 iter_args(%arg14 = %cst_1) -> (tensor<128x256xf32, #mma>)  : i32 {
        %65 = arith.muli %arg13, %c64_i32 : i32
        %66 = tile.splat %65 : i32 -> tensor<64xi32, #slice>
        %67 = tile.splat %65 : i32 -> tensor<64xi32, #slice3>
        %68 = arith.addi %66, %42 : tensor<64xi32, #slice>
        %69 = arith.addi %67, %43 : tensor<64xi32, #slice3>
        %70 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>, #blocked1>
        %71 = tile.expand_dims %37, 1 : tensor<128xi32, #slice1> -> tensor<128x1xi32, #blocked1>
        %72 = tile.splat %arg6 : i32 -> tensor<128x1xi32, #blocked1>
        %73 = arith.muli %71, %72 : tensor<128x1xi32, #blocked1>
        %74 = tile.addptr %70, %73 : tensor<128x1x!tile.ptr<f16>, #blocked1>, tensor<128x1xi32, #blocked1>
        %75 = tile.broadcast %74 : tensor<128x1x!tile.ptr<f16>, #blocked1> -> tensor<128x64x!tile.ptr<f16>, #blocked1>
        %76 = tile.expand_dims %69, 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked1>
        %77 = tile.broadcast %76 : tensor<1x64xi32, #blocked1> -> tensor<128x64xi32, #blocked1>
        %78 = tile.addptr %75, %77 : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
        %79 = tile.splat %arg3 : i32 -> tensor<128x1xi32, #blocked1>
        %80 = arith.cmpi slt, %71, %79 : tensor<128x1xi32, #blocked1>
        %81 = tile.broadcast %80 : tensor<128x1xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
        %82 = tile.splat %arg5 : i32 -> tensor<1x64xi32, #blocked1>
        %83 = arith.cmpi slt, %76, %82 : tensor<1x64xi32, #blocked1>
        %84 = tile.broadcast %83 : tensor<1x64xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
        %85 = arith.andi %81, %84 : tensor<128x64xi1, #blocked1>
        %86 = tile.load %78, mask %85, other %cst_0 {vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #blocked1>
        %87 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>, #blocked>
        %88 = tile.expand_dims %68, 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
        %89 = tile.splat %arg8 : i32 -> tensor<64x1xi32, #blocked>
        %90 = arith.muli %88, %89 : tensor<64x1xi32, #blocked>
        %91 = tile.addptr %87, %90 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
        %92 = tile.broadcast %91 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x256x!tile.ptr<f16>, #blocked>
        %93 = tile.expand_dims %41, 0 : tensor<256xi32, #slice2> -> tensor<1x256xi32, #blocked>
        %94 = tile.broadcast %93 : tensor<1x256xi32, #blocked> -> tensor<64x256xi32, #blocked>
        %95 = tile.addptr %92, %94 : tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
        %96 = tile.splat %arg5 : i32 -> tensor<64x1xi32, #blocked>
        %97 = arith.cmpi slt, %88, %96 : tensor<64x1xi32, #blocked>
        %98 = tile.broadcast %97 : tensor<64x1xi1, #blocked> -> tensor<64x256xi1, #blocked>
        %99 = tile.splat %arg4 : i32 -> tensor<1x256xi32, #blocked>
        %100 = arith.cmpi slt, %93, %99 : tensor<1x256xi32, #blocked>
        %101 = tile.broadcast %100 : tensor<1x256xi1, #blocked> -> tensor<64x256xi1, #blocked>
        %102 = arith.andi %98, %101 : tensor<64x256xi1, #blocked>
        %103 = tile.load %95, mask %102, other %cst {vec = 8 : i32} : tensor<64x256x!tile.ptr<f16>, #blocked>
        %104 = tile.local_alloc %86 : tensor<128x64xf16, #blocked1> -> !tile.smem<128x64xf16, #shared>
        %105 = tile.local_alloc %103 : tensor<64x256xf16, #blocked> -> !tile.smem<64x256xf16, #shared>
        %106 = tile.warpgroup_dot %104, %105, %arg14 : !tile.smem<128x64xf16, #shared>, !tile.smem<64x256xf16, #shared>, tensor<128x256xf32, #mma>
        %107 = tile.warpgroup_dot_wait %106 {pending = 0 : i32} : tensor<128x256xf32, #mma>
        scf.yield %107 : tensor<128x256xf32, #mma>
      }
      %47 = tile.splat %arg2 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>, #blocked>
      %48 = tile.expand_dims %36, 1 : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
      %49 = tile.splat %arg10 : i32 -> tensor<128x1xi32, #blocked>
      %50 = arith.muli %48, %49 : tensor<128x1xi32, #blocked>
      %51 = tile.addptr %47, %50 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
      %52 = tile.broadcast %51 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x256x!tile.ptr<f16>, #blocked>
      %53 = tile.expand_dims %41, 0 : tensor<256xi32, #slice2> -> tensor<1x256xi32, #blocked>
      %54 = tile.broadcast %53 : tensor<1x256xi32, #blocked> -> tensor<128x256xi32, #blocked>
      %55 = tile.addptr %52, %54 : tensor<128x256x!tile.ptr<f16>, #blocked>, tensor<128x256xi32, #blocked>
      %56 = arith.truncf %46 : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
      %57 = tile.splat %arg3 : i32 -> tensor<128x1xi32, #blocked>
      %58 = arith.cmpi slt, %48, %57 : tensor<128x1xi32, #blocked>
      %59 = tile.broadcast %58 : tensor<128x1xi1, #blocked> -> tensor<128x256xi1, #blocked>
      %60 = tile.splat %arg4 : i32 -> tensor<1x256xi32, #blocked>
      %61 = arith.cmpi slt, %53, %60 : tensor<1x256xi32, #blocked>
      %62 = tile.broadcast %61 : tensor<1x256xi1, #blocked> -> tensor<128x256xi1, #blocked>
      %63 = arith.andi %59, %62 : tensor<128x256xi1, #blocked>
      %64 = tile.convert_layout %56 : tensor<128x256xf16, #mma> -> tensor<128x256xf16, #blocked>
      tile.store %55, %64, mask %63 {vec = 8 : i32} : tensor<128x256x!tile.ptr<f16>, #blocked>
    }
    return
  }
}
