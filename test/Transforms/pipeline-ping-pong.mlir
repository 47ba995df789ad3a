// tile-pipeline's ping-pong schedule (ping-pong=true) on the persistent kernel of
// pipeline-persistent.mlir (matmul 128 x 256 x 64, the aligned unit-stride variant after
// tile-persistent) made a kernel of 4 warps: warp-specialised, with two consumer groups
// (tile.consumer_groups = 2). The ring shrinks to 2 slots: 3 of 48 KB do not fit beside
// the two groups' own 64 KB epilogue conversions. The slots' `empty` mbarriers expect
// the 4 warps of the one group that read the slot; a second pair of mbarriers (`turns`,
// 4 arrivals each) orders the groups' K loops. The producer walks every tile of the
// program in order. Group %g (tile.consumer_group) starts its tile loop %g programs' steps
// in and steps over two, its ring count starting at %g * trips and advancing 2 * trips a
// tile; before its K loop, where its place in the program's tile order (j + g) is not the
// first, it waits on turns[g] in phase j + g - 1, and right after the K loop (before the
// last product is waited for) it arrives on turns[1 - g]. Nothing is invalidated after the
// tile loop, which ends the kernel.
// RUN: sed -e 's/warpsPerCTA = \[8, 1\]/warpsPerCTA = [4, 1]/g' -e 's/tile.num_warps = 8 : i32/tile.num_warps = 4 : i32/' %S/pipeline-persistent.mlir | grep -v '^//' | tile-opt -tile-pipeline="tma=true ping-pong=true" | FileCheck %s
// The kernel as it is, on 8 warps (two warpgroups already share its tile): the cooperative
// warp specialisation, no groups.
// RUN: grep -v '^//' %S/pipeline-persistent.mlir | tile-opt -tile-pipeline="tma=true ping-pong=true" | FileCheck %s --check-prefix=EIGHT
// Without ping-pong, the same 4-warp kernel keeps one group of consumers.
// RUN: sed -e 's/warpsPerCTA = \[8, 1\]/warpsPerCTA = [4, 1]/g' -e 's/tile.num_warps = 8 : i32/tile.num_warps = 4 : i32/' %S/pipeline-persistent.mlir | grep -v '^//' | tile-opt -tile-pipeline="tma=true warp-specialize=true" | FileCheck %s --check-prefix=ONE

// CHECK: func.func @matmul
// CHECK-SAME: tile.consumer_groups = 2 : i32
// CHECK-SAME: tile.producer_warps = 4 : i32
// CHECK: tile.local_alloc -> !tile.smem<2x128x64xf16
// CHECK: tile.local_alloc -> !tile.smem<2x64x256xf16
// CHECK: %[[FULL:.+]] = tile.local_alloc -> !tile.smem<2x1xi64
// CHECK: tile.mbarrier_init %[[FULL]] {count = 1 : i32}
// CHECK: %[[EMPTY:.+]] = tile.local_alloc -> !tile.smem<2x1xi64
// CHECK: tile.mbarrier_init %[[EMPTY]] {count = 4 : i32}
// CHECK: %[[TURNS:.+]] = tile.local_alloc -> !tile.smem<2x1xi64
// CHECK: tile.mbarrier_init %[[TURNS]] {count = 4 : i32}
// CHECK: tile.warp_specialize
// CHECK-SAME: producer {
// CHECK: %[[PSTEP:.+]] = tile.num_programs 0
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[PSTEP]] iter_args
// CHECK: tile.mbarrier_wait
// CHECK-COUNT-2: tile.tma_load
// CHECK: } consumer {
// CHECK: %[[PID:.+]] = tile.program_id 0
// CHECK: %[[NPROG:.+]] = tile.num_programs 0
// CHECK: %[[G:.+]] = tile.consumer_group : i32
// CHECK: %[[TRIPS:.+]] = arith.maxsi
// CHECK: %[[ADVANCE:.+]] = arith.muli %[[TRIPS]], %c2_i32
// CHECK: %[[START:.+]] = arith.muli %[[G]], %[[TRIPS]] : i32
// CHECK: %[[SKIP:.+]] = arith.muli %[[G]], %[[NPROG]] : i32
// CHECK: %[[LB:.+]] = arith.addi %[[PID]], %[[SKIP]] : i32
// CHECK: %[[STEP:.+]] = arith.muli %[[NPROG]], %c2_i32
// CHECK: scf.for %[[T:.+]] = %[[LB]] to %{{.+}} step %[[STEP]] iter_args(%[[COUNT:.+]] = %[[START]]) -> (i32)
// CHECK: %[[D:.+]] = arith.subi %[[T]], %[[LB]] : i32
// CHECK: %[[J:.+]] = arith.divsi %[[D]], %[[STEP]] : i32
// CHECK: %[[SEQ:.+]] = arith.addi %[[J]], %[[G]] : i32
// CHECK: %[[LATER:.+]] = arith.cmpi sgt, %[[SEQ]], %c0
// CHECK: scf.if %[[LATER]] {
// CHECK: %[[PREV:.+]] = arith.subi %[[SEQ]], %c1
// CHECK: %[[PARITY:.+]] = arith.andi %[[PREV]], %c1
// CHECK: %[[MINE:.+]] = tile.memdesc_index %[[TURNS]][%[[G]]]
// CHECK: tile.mbarrier_wait %[[MINE]], %[[PARITY]]
// CHECK: }
// CHECK: %[[ACC:.+]] = scf.for
// CHECK: arith.addi %[[COUNT]], %{{.+}} : i32
// CHECK: tile.mbarrier_wait
// CHECK: tile.warpgroup_dot
// CHECK: tile.mbarrier_arrive
// CHECK: scf.yield
// CHECK: }
// CHECK: %[[NEXT:.+]] = arith.addi %[[COUNT]], %[[ADVANCE]] : i32
// CHECK: %[[OTHER:.+]] = arith.subi %c1{{.*}}, %[[G]] : i32
// CHECK: %[[THEIRS:.+]] = tile.memdesc_index %[[TURNS]][%[[OTHER]]]
// CHECK-NEXT: tile.mbarrier_arrive %[[THEIRS]]
// CHECK-NEXT: tile.warpgroup_dot_wait %[[ACC]] {pending = 0 : i32}
// CHECK: tile.store
// CHECK-NEXT: scf.yield %[[NEXT]] : i32
// CHECK-NEXT: }
// CHECK-NOT: tile.mbarrier_inval

// EIGHT-NOT: tile.consumer_groups
// EIGHT: tile.mbarrier_init %{{.+}} {count = 8 : i32}
// EIGHT: tile.warp_specialize
// EIGHT-NOT: tile.consumer_group
// EIGHT: tile.mbarrier_inval

// ONE-NOT: tile.consumer_groups
// ONE: tile.local_alloc -> !tile.smem<3x128x64xf16
// ONE: tile.warp_specialize
// ONE-NOT: tile.consumer_group
// ONE: tile.mbarrier_inval
