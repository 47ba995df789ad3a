// tile-split-k (splits=2): a kernel with one K loop holding its dot, an accumulator from
// zero and a one-dimensional grid launches two programs per tile in clusters of two.
// Program p computes tile p / 2 (program_id 0 -> p / 2, num_programs 0 -> num_programs / 2)
// over its rank's (p % 2) share of the iterations: first = min(rank * cdiv(trips, 2),
// trips), last = min(first + cdiv(trips, 2), trips); a carried pointer advanced by a fixed
// increment starts `first` increments on. The partial sums meet in rank 0
// (tile.cluster_reduce), which alone runs the epilogue. The grid's x is doubled; the
// kernel gets tile.cluster_size and tile.split_k. Kernels it cannot take keep their body:
// an accumulator not from zero, two dots, a 2-D grid, sm_80; splits=1 changes nothing.
// RUN: tile-opt %s -split-input-file -tile-split-k=splits=2 | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-split-k=splits=1 | FileCheck %s --check-prefix=OFF
// RUN: not tile-opt %s -split-input-file -tile-split-k=splits=3 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @mm(
// CHECK-SAME: tile.cluster_size = 2 : i32
// CHECK-SAME: tile.grid = ["(cdiv(M, 64)) * 2", "1", "1"]
// CHECK-SAME: tile.split_k = 2 : i32
// CHECK: %[[N:.+]] = arith.constant 2 : i32
// CHECK: %[[PID:.+]] = tile.program_id 0
// CHECK: %[[TILE:.+]] = arith.divui %[[PID]], %[[N]]
// CHECK: %[[RANK:.+]] = arith.remui %[[PID]], %[[N]]
// CHECK: %[[P:.+]] = tile.num_programs 0
// CHECK: %[[PP:.+]] = arith.divui %[[P]], %[[N]]
// CHECK: %[[ID:.+]] = arith.addi %[[TILE]], %[[PP]]
// CHECK: %[[SPAN:.+]] = arith.subi %arg4, %c0_i32
// CHECK: %[[CD:.+]] = arith.ceildivsi %[[SPAN]], %c1_i32
// CHECK: %[[TRIPS:.+]] = arith.maxsi %[[CD]], %c0_i32
// CHECK: %[[PER:.+]] = arith.ceildivsi %[[TRIPS]], %c2_i32
// CHECK: %[[RP:.+]] = arith.muli %[[RANK]], %[[PER]]
// CHECK: %[[FIRST:.+]] = arith.minsi %[[RP]], %[[TRIPS]]
// CHECK: %[[END:.+]] = arith.addi %[[FIRST]], %[[PER]]
// CHECK: %[[LAST:.+]] = arith.minsi %[[END]], %[[TRIPS]]
// CHECK: %[[LO:.+]] = arith.muli %[[FIRST]], %c1_i32
// CHECK: %[[LB:.+]] = arith.addi %c0_i32, %[[LO]]
// CHECK: %[[HI:.+]] = arith.muli %[[LAST]], %c1_i32
// CHECK: %[[UB:.+]] = arith.addi %c0_i32, %[[HI]]
// CHECK: %[[SKIP:.+]] = tile.splat %[[FIRST]] : i32 -> tensor<64x64xi32>
// CHECK: %[[DELTA:.+]] = arith.muli %[[INC:.+]], %[[SKIP]] : tensor<64x64xi32>
// CHECK: %[[START:.+]] = tile.addptr %[[PTRS:.+]], %[[DELTA]]
// CHECK: %[[ACC:.+]]:2 = scf.for %{{.+}} = %[[LB]] to %[[UB]] step %c1_i32 iter_args(%{{.+}} = %cst, %{{.+}} = %[[START]])
// CHECK: tile.dot
// CHECK: %[[SUM:.+]] = tile.cluster_reduce %[[ACC]]#0 : tensor<64x64xf32>
// CHECK: %[[IS0:.+]] = arith.cmpi eq, %[[RANK]], %c0_i32
// CHECK: scf.if %[[IS0]] {
// CHECK: tile.addptr %arg1, %[[ID]]
// CHECK: tile.store %{{.+}}, %[[SUM]]
// CHECK: }
// CHECK-NEXT: return
// OFF-LABEL: func.func @mm(
// OFF-NOT: tile.cluster_reduce
// OFF: return
// BAD: tile-split-k: 3 programs per tile (expected 1, 2, 4 or 8)
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @mm(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32) attributes {tile.arg_names = ["a", "c", "M", "N", "K"], tile.grid = ["cdiv(M, 64)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %1 = tile.num_programs 0
    %2 = arith.addi %0, %1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %inc = arith.constant dense<64> : tensor<64x64xi32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %a = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
    %4:2 = scf.for %k = %c0_i32 to %arg4 step %c1_i32 iter_args(%acc = %cst, %ptrs = %a) -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>) : i32 {
      %t = tile.load %ptrs : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.addptr %ptrs, %inc : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      scf.yield %d, %next : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>
    }
    %q = tile.addptr %arg1, %2 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    tile.store %qs, %4#0 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}

// -----

// An increment the loop computes itself (tutorial 03's `a_ptrs += BLOCK_SIZE_K *
// stride_ak`, the product in the body): its ops are cloned before the loop, where the
// rank's first pointers are made from them (the pipeliner's tcc::loopIncrement).
// CHECK-LABEL: func.func @inc_in_loop(
// CHECK-SAME: tile.split_k = 2 : i32
// CHECK: %[[FIRST:.+]] = arith.minsi %{{.+}}, %{{.+}} : i32
// CHECK: %[[STEP:.+]] = arith.muli %arg3, %c64_i32 : i32
// CHECK: %[[INC:.+]] = tile.splat %[[STEP]] : i32 -> tensor<64x64xi32>
// CHECK: %[[SKIP:.+]] = tile.splat %[[FIRST]] : i32 -> tensor<64x64xi32>
// CHECK: %[[DELTA:.+]] = arith.muli %[[INC]], %[[SKIP]] : tensor<64x64xi32>
// CHECK: %[[START:.+]] = tile.addptr %{{.+}}, %[[DELTA]]
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %cst, %{{.+}} = %[[START]])
// CHECK: tile.cluster_reduce
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @inc_in_loop(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32, %arg3: i32) attributes {tile.arg_names = ["a", "c", "K", "s"], tile.grid = ["4", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %a = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
    %4:2 = scf.for %k = %c0_i32 to %arg2 step %c1_i32 iter_args(%acc = %cst, %ptrs = %a) -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>) : i32 {
      %t = tile.load %ptrs : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %step = arith.muli %arg3, %c64_i32 : i32
      %inc = tile.splat %step : i32 -> tensor<64x64xi32>
      %next = tile.addptr %ptrs, %inc : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      scf.yield %d, %next : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>
    }
    %q = tile.addptr %arg1, %0 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    tile.store %qs, %4#0 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}

// -----

// Not taken: an accumulator that does not start at zero (a bias in it), a 2-D grid, a
// store before the loop (every rank would make it) or in it, and an sm_80 target.
// CHECK-LABEL: func.func @biased(
// CHECK-SAME: tile.grid = ["M", "1", "1"]
// CHECK-NOT: tile.cluster_reduce
// CHECK-LABEL: func.func @plane(
// CHECK-SAME: tile.grid = ["M", "N", "1"]
// CHECK-NOT: tile.cluster_reduce
// CHECK-LABEL: func.func @writes_first(
// CHECK-SAME: tile.grid = ["M", "1", "1"]
// CHECK-NOT: tile.cluster_reduce
// CHECK-LABEL: func.func @writes_in_loop(
// CHECK-SAME: tile.grid = ["M", "1", "1"]
// CHECK-NOT: tile.cluster_reduce
// CHECK: return
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @biased(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32) attributes {tile.arg_names = ["a", "c", "M"], tile.grid = ["M", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %cst = arith.constant dense<1.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %4 = scf.for %k = %c0_i32 to %arg2 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>) : i32 {
      %p = tile.addptr %arg0, %k : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
      %t = tile.load %ps : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %q = tile.addptr %arg1, %0 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    tile.store %qs, %4 : tensor<64x64x!tile.ptr<f32>>
    return
  }
  func.func @plane(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32, %arg3: i32) attributes {tile.arg_names = ["a", "c", "M", "N"], tile.grid = ["M", "N", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %4 = scf.for %k = %c0_i32 to %arg2 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>) : i32 {
      %p = tile.addptr %arg0, %k : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
      %t = tile.load %ps : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %q = tile.addptr %arg1, %0 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    tile.store %qs, %4 : tensor<64x64x!tile.ptr<f32>>
    return
  }
  func.func @writes_first(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32) attributes {tile.arg_names = ["a", "c", "M"], tile.grid = ["M", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %q = tile.addptr %arg1, %0 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    tile.store %qs, %cst : tensor<64x64x!tile.ptr<f32>>
    %4 = scf.for %k = %c0_i32 to %arg2 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>) : i32 {
      %p = tile.addptr %arg0, %k : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
      %t = tile.load %ps : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    tile.store %qs, %4 : tensor<64x64x!tile.ptr<f32>>
    return
  }
  func.func @writes_in_loop(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32) attributes {tile.arg_names = ["a", "c", "M"], tile.grid = ["M", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %q = tile.addptr %arg1, %0 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    %4 = scf.for %k = %c0_i32 to %arg2 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>) : i32 {
      %p = tile.addptr %arg0, %k : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
      %t = tile.load %ps : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      tile.store %qs, %d : tensor<64x64x!tile.ptr<f32>>
      scf.yield %d : tensor<64x64xf32>
    }
    tile.store %qs, %4 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}

// -----

// CHECK-LABEL: func.func @sm80(
// CHECK-NOT: tile.cluster_reduce
// CHECK: return
module attributes {tile.target = #tile.target<{arch = "sm_80", threadsPerWarp = 32, maxSharedBytes = 166912}>} {
  func.func @sm80(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32) attributes {tile.arg_names = ["a", "c", "M"], tile.grid = ["M", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %4 = scf.for %k = %c0_i32 to %arg2 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>) : i32 {
      %p = tile.addptr %arg0, %k : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
      %t = tile.load %ps : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %q = tile.addptr %arg1, %0 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    tile.store %qs, %4 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}
