// tile-allocate-shared on a warp-specialised kernel (tile-pipeline's output for matmul's
// 128 x 256 x 64 loop, test/Transforms/warp-specialize.mlir): the rings and both mbarrier
// rings are placed before the tile.warp_specialize; the producer region gets no barrier
// (its copies wait on the empty mbarriers), the consumers' loop none either (they wait on
// the full ones and hand slots back); the consumers' one barrier comes before the
// mbarriers are invalidated (every consumer's last wait first); the epilogue's conversion
// reuses the ring's bytes (offset 0).
// RUN: tile-opt %S/../Transforms/warp-specialize.mlir -tile-pipeline="tma=true warp-specialize=true" -cse -tile-allocate-shared | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: tile.shared_bytes = 196672
// CHECK: tile.local_alloc {offset = 131072 : i64} -> !tile.smem<4x128x64xf16
// CHECK: tile.local_alloc {offset = 0 : i64} -> !tile.smem<4x64x256xf16
// CHECK: tile.local_alloc {offset = 196608 : i64} -> !tile.smem<4x1xi64
// CHECK: tile.local_alloc {offset = 196640 : i64} -> !tile.smem<4x1xi64
// CHECK: tile.warp_specialize
// CHECK-NOT: tile.barrier
// CHECK: } consumer {
// CHECK-NOT: tile.barrier
// CHECK: tile.mbarrier_arrive
// CHECK-NOT: tile.barrier
// CHECK: scf.yield
// CHECK: tile.warpgroup_dot_wait %{{.+}} {pending = 0 : i32}
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.mbarrier_inval
// CHECK-NEXT: tile.mbarrier_inval
// CHECK: tile.convert_layout %{{.+}} {tile.shared_offset = 0 : i64}
