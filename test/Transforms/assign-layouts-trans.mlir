// RUN: tile-opt %s -tile-assign-layouts | FileCheck %s
// RUN: tile-opt %s -tile-assign-layouts -tile-remove-layout-conversions -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s --check-prefix=LLVM

// tile.trans keeps every element in the thread that holds it: its result's layout is the
// source's with the dimensions permuted (sizePerThread, threadsPerWarp, warpsPerCTA
// permuted, order renamed), so the lowering only renames registers: no shared memory,
// no shuffle.

// CHECK-DAG: #[[SRC:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[DST:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @transpose
// CHECK: %[[T:.*]] = tile.load %{{.*}} : tensor<64x32x!tile.ptr<f32>, #[[SRC]]>
// CHECK: tile.trans %[[T]], [1, 0] : tensor<64x32xf32, #[[SRC]]> -> tensor<32x64xf32, #[[DST]]>
// CHECK: tile.trans %{{.*}}, [1, 0] : tensor<64x32xi32, #[[SRC]]> -> tensor<32x64xi32, #[[DST]]>
// LLVM-LABEL: llvm.func @transpose
// LLVM-NOT: llvm.store {{.*}} !llvm.ptr<3>
// LLVM-NOT: nvvm.shfl
// LLVM: llvm.return
func.func @transpose(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %rm = tile.make_range 0 to 64 : tensor<64xi32>
  %rn = tile.make_range 0 to 32 : tensor<32xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %rm2 = tile.expand_dims %rm, 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rows = arith.muli %rm2, %c32 : tensor<64x1xi32>
  %rn2 = tile.expand_dims %rn, 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x32xi32>
  %cb = tile.broadcast %rn2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %offs = arith.addi %rb, %cb : tensor<64x32xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  %t = tile.load %p : tensor<64x32x!tile.ptr<f32>>
  %tt = tile.trans %t, [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  %offt = tile.trans %offs, [1, 0] : tensor<64x32xi32> -> tensor<32x64xi32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %q = tile.addptr %os, %offt : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  tile.store %q, %tt : tensor<32x64x!tile.ptr<f32>>
  return
}
