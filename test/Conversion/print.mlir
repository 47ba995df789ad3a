// RUN: tile-opt %s -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s

// tile.print: scalars once per program (thread 0), tile elements each by their owner
// with their index, through vprintf with C-varargs buffers.

#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @show(%n: i32, %x: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 8 : tensor<8xi32, #b>
  tile.print "n =" %n : i32
  tile.print "r:" %r : tensor<8xi32, #b>
  return
}

// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-DAG: llvm.mlir.global internal constant @tcc_fmt_{{[0-9]+}}("pid (%d, %d, %d) n = %d\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @tcc_fmt_{{[0-9]+}}("pid (%d, %d, %d) idx (%d) r: %d\0A\00")
// CHECK-LABEL: llvm.func @show(
// CHECK-DAG: llvm.alloca {{.*}} x !llvm.struct<(i32, i32, i32, i32)>
// CHECK-DAG: llvm.alloca {{.*}} x !llvm.struct<(i32, i32, i32, i32, i32)>
// CHECK: llvm.call @vprintf
// 8 elements over 32 lanes, 2 per thread: lanes 0-3 own them (lane bits 2-4, mask 28,
// select nothing), 2 lines each.
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(28 : i32) : i32
// CHECK: %[[BITS:.*]] = llvm.and %{{.*}}, %[[MASK]] : i32
// CHECK: llvm.icmp "eq" %[[BITS]]
// CHECK: llvm.call @vprintf
// CHECK: llvm.call @vprintf
