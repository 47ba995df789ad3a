// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm=per-thread-only -cse | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-allocate-shared -convert-tile-to-nvvm | FileCheck %s --check-prefix=LLVM

// dot on CUDA cores: a and b are staged in shared memory in f32 (converted once, when
// stored), a with M contiguous and b with N contiguous, each thread's rows (columns)
// gathered into one range; then per k each thread reads its 2 rows of a and 2 columns of
// b as one vector each and does 2x2 FMAs. K = 16 is unrolled.

#a = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#c = #tile.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>

func.func @dot_f16(%a: tensor<8x16xf16, #a>, %b: tensor<16x16xf16, #a>, %acc: tensor<8x16xf32, #c>) -> f32 attributes {tile.num_warps = 1 : i32} {
  %d = tile.dot %a, %b, %acc : tensor<8x16xf16, #a>, tensor<16x16xf16, #a> -> tensor<8x16xf32, #c>
  %s = tile.reduce sum %d, axis 1 : tensor<8x16xf32, #c> -> tensor<8xf32, #tile.slice<{dim = 1, parent = #c}>>
  %t = tile.reduce sum %s, axis 0 : tensor<8xf32, #tile.slice<{dim = 1, parent = #c}>> -> f32
  return %t : f32
}

// CHECK-LABEL: llvm.func @dot_f16(
// CHECK-SAME: tile.shared_bytes = {{[1-9][0-9]*}} : i64
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: llvm.store {{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: scf.for
// CHECK-NOT: arith.extf
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<2xf32>
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<2xf32>
// CHECK-COUNT-4: math.fma {{.*}} : f32
// CHECK-COUNT-60: math.fma {{.*}} : f32
// CHECK-NOT: math.fma

// LLVM-LABEL: llvm.func @dot_f16(
// LLVM-COUNT-64: llvm.intr.fma({{.*}}) : (f32, f32, f32) -> f32

// -----

// A longer K runs as a loop over chunks of 4 (8 operand values per k: 4 k keep a chunk's
// operands within 32 registers), unrolled inside; the accumulators are its iteration
// arguments. f32 operands need no conversion.

#a = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
#c = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>

func.func @dot_f32(%a: tensor<32x64xf32, #a>, %b: tensor<64x32xf32, #a>, %acc: tensor<32x32xf32, #c>) -> f32 attributes {tile.num_warps = 2 : i32} {
  %d = tile.dot %a, %b, %acc : tensor<32x64xf32, #a>, tensor<64x32xf32, #a> -> tensor<32x32xf32, #c>
  %s = tile.reduce sum %d, axis 1 : tensor<32x32xf32, #c> -> tensor<32xf32, #tile.slice<{dim = 1, parent = #c}>>
  %t = tile.reduce sum %s, axis 0 : tensor<32xf32, #tile.slice<{dim = 1, parent = #c}>> -> f32
  return %t : f32
}

// CHECK-LABEL: llvm.func @dot_f32(
// Staging computes one address per thread for registers whose offsets differ by a
// constant in every thread; the others are that address plus an immediate.
// CHECK: %[[P:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.getelementptr inbounds %[[P]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: llvm.getelementptr inbounds %[[P]][%[[C64]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: nvvm.barrier0
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C64]] step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: arith.extf
// CHECK-COUNT-16: math.fma
// CHECK: scf.yield

// -----

// The dot layout tile-assign-layouts gives a 64x64 accumulator over 4 warps: 4x8 per
// thread (4x4 elements, 2 repetitions along N). Runs of 4 f32 are full 16-byte vectors
// already, so the staged operands are not permuted (lanes read consecutive chunks): per
// k a thread reads its 4 values of a (the shared layout chooser takes 2-wide chunks for a,
// whose staging stores are scalar) and 2 vectors of b, and does 32 FMAs; 2 k per loop
// iteration.

#l = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#c = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

func.func @dot_block(%a: tensor<64x32xf16, #l>, %b: tensor<32x64xf16, #l>, %acc: tensor<64x64xf32, #c>) -> f32 attributes {tile.num_warps = 4 : i32} {
  %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #l>, tensor<32x64xf16, #l> -> tensor<64x64xf32, #c>
  %s = tile.reduce sum %d, axis 1 : tensor<64x64xf32, #c> -> tensor<64xf32, #tile.slice<{dim = 1, parent = #c}>>
  %t = tile.reduce sum %s, axis 0 : tensor<64xf32, #tile.slice<{dim = 1, parent = #c}>> -> f32
  return %t : f32
}

// CHECK-LABEL: llvm.func @dot_block(
// CHECK: nvvm.barrier0
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2_i32 iter_args(
// CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> vector<2xf32>
// CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK-COUNT-32: math.fma {{.*}} : f32
// CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> vector<2xf32>
// CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK-COUNT-32: math.fma {{.*}} : f32
// CHECK-NOT: math.fma
// CHECK: scf.yield
