// tile-persistent: an sm_90a kernel with a dot in a loop and a one-dimensional grid runs
// its programs as the iterations of `scf.for %t = program_id(0) to <grid x> step
// num_programs(0)`: the grid's expression (every operator of the grammar here) computed
// in i64 from the integer parameters and truncated to i32, `program_id 0` replaced by the
// tile index, `num_programs 0` by the grid's value (what the original programs saw),
// other axes left alone, and the grid `min(num_sms * occupancy, <grid x>)`. Where the body
// splits the tile index into a row and a column of tiles (`t // X`, `t % X`, nothing else),
// the index is first taken in grouped order (groups of 8 rows, column by column within a
// group; kept as it is unless the count is rows * X with X > 0). Kernels the
// pass cannot or need not change keep their body and grid: a grid that already names
// num_sms, no dot in a loop, an sm_90 target. A two- or three-dimensional grid (X, Y, Z)
// becomes one loop over X * Y * Z tiles, each index t taken apart into z = t / (X * Y)
// and, within the plane, the index in grouped order split into x = i / Y and y = i % Y.
// RUN: tile-opt %s -split-input-file -tile-persistent | FileCheck %s

// CHECK-LABEL: func.func @mm(
// CHECK-SAME: tile.grid = ["min(num_sms * occupancy, cdiv(M, 64) * cdiv(N, 64) + max(-M, 0) // 2 - min(N % 3, 1))", "1", "1"]
// CHECK-SAME: tile.persistent
// CHECK: %[[M:.+]] = arith.extsi %arg2 : i32 to i64
// CHECK: %[[MB:.+]] = arith.ceildivsi %[[M]], %c64_i64
// CHECK: %[[N:.+]] = arith.extsi %arg3 : i32 to i64
// CHECK: %[[NB:.+]] = arith.ceildivsi %[[N]], %c64_i64{{.*}}
// CHECK: %[[T:.+]] = arith.muli %[[MB]], %[[NB]] : i64
// CHECK: %[[NEG:.+]] = arith.subi %c0_i64, %{{.+}} : i64
// CHECK: %[[MAX:.+]] = arith.maxsi %[[NEG]], %c0_i64
// CHECK: %[[DIV:.+]] = arith.divsi %[[MAX]], %c2_i64 : i64
// CHECK: %[[ADD:.+]] = arith.addi %[[T]], %[[DIV]] : i64
// CHECK: %[[REM:.+]] = arith.remsi %{{.+}}, %c3_i64 : i64
// CHECK: %[[MIN:.+]] = arith.minsi %[[REM]], %c1_i64 : i64
// CHECK: %[[SUB:.+]] = arith.subi %[[ADD]], %[[MIN]] : i64
// CHECK: %[[COUNT:.+]] = arith.trunci %[[SUB]] : i64 to i32
// CHECK: %[[PID:.+]] = tile.program_id 0
// CHECK: %[[P:.+]] = tile.num_programs 0
// CHECK: scf.for %[[TILE:.+]] = %[[PID]] to %[[COUNT]] step %[[P]] : i32 {
// CHECK-NOT: tile.program_id 0
// CHECK-NOT: tile.num_programs 0
// CHECK: %[[Y:.+]] = tile.program_id 1
// CHECK: arith.addi %[[TILE]], %[[COUNT]] : i32
// CHECK: scf.for
// CHECK: tile.dot
// CHECK: tile.store
// CHECK: }
// CHECK-NEXT: return
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @mm(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32) attributes {tile.arg_names = ["a", "c", "M", "N", "K"], tile.grid = ["cdiv(M, 64) * cdiv(N, 64) + max(-M, 0) // 2 - min(N % 3, 1)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %1 = tile.num_programs 0
    %y = tile.program_id 1
    %2 = arith.addi %0, %1 : i32
    %3 = arith.addi %2, %y : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %4 = scf.for %k = %c0_i32 to %arg4 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>) : i32 {
      %p = tile.addptr %arg0, %k : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
      %t = tile.load %ps : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %q = tile.addptr %arg1, %3 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    tile.store %qs, %4 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}

// -----

// CHECK-LABEL: func.func @already(
// CHECK-SAME: tile.grid = ["min(num_sms, M)", "1", "1"]
// CHECK-NEXT: tile.program_id 0
// CHECK-LABEL: func.func @no_dot(
// CHECK-SAME: tile.grid = ["M", "1", "1"]
// CHECK-NEXT: tile.program_id 0
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @already(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32) attributes {tile.arg_names = ["a", "c", "M", "N", "K"], tile.grid = ["min(num_sms, M)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %4 = scf.for %k = %c0_i32 to %arg4 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>) : i32 {
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
  func.func @no_dot(%arg0: !tile.ptr<f32>, %arg1: i32) attributes {tile.arg_names = ["x", "M"], tile.grid = ["M", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    scf.for %k = %c0_i32 to %arg1 step %c1_i32 : i32 {
      %p = tile.addptr %arg0, %0 : !tile.ptr<f32>, i32
      %v = tile.load %p : !tile.ptr<f32>
      tile.store %p, %v : !tile.ptr<f32>
    }
    return
  }
}

// -----

// On sm_90 (no wgmma, no TMA) nothing changes.
// CHECK-LABEL: func.func @sm90(
// CHECK-SAME: tile.grid = ["M", "1", "1"]
// CHECK-NEXT: tile.program_id 0
module attributes {tile.target = #tile.target<{arch = "sm_90", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @sm90(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32) attributes {tile.arg_names = ["a", "c", "M"], tile.grid = ["M", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
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

// -----

// The matmul pattern: pm = pid // X, pn = pid % X.
// CHECK-LABEL: func.func @grouped(
// CHECK: %[[COUNT:.+]] = arith.trunci
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %[[COUNT]] step %{{.+}} : i32 {
// CHECK: %[[X:.+]] = arith.ceildivsi %arg3, %c64_i32
// CHECK: %[[POS:.+]] = arith.cmpi sgt, %[[X]], %c0_i32
// CHECK: %[[SX:.+]] = arith.select %[[POS]], %[[X]], %c1_i32
// CHECK: %[[ROWS:.+]] = arith.divui %[[COUNT]], %[[SX]]
// CHECK: %[[WIDTH:.+]] = arith.muli %c8_i32, %[[SX]]
// CHECK: %[[GROUP:.+]] = arith.divui %[[T]], %[[WIDTH]]
// CHECK: %[[FIRST:.+]] = arith.muli %[[GROUP]], %c8_i32
// CHECK: %[[LEFT:.+]] = arith.subi %[[ROWS]], %[[FIRST]]
// CHECK: %[[MIN:.+]] = arith.minsi %[[LEFT]], %c8_i32
// CHECK: %[[SIZE:.+]] = arith.maxsi %[[MIN]], %c1_i32
// CHECK: %[[IN:.+]] = arith.remui %[[T]], %[[WIDTH]]
// CHECK: %[[R:.+]] = arith.remui %[[IN]], %[[SIZE]]
// CHECK: %[[ROW:.+]] = arith.addi %[[FIRST]], %[[R]]
// CHECK: %[[COL:.+]] = arith.divui %[[IN]], %[[SIZE]]
// CHECK: %[[RX:.+]] = arith.muli %[[ROW]], %[[SX]]
// CHECK: %[[G:.+]] = arith.addi %[[RX]], %[[COL]]
// CHECK: %[[FULL:.+]] = arith.muli %[[ROWS]], %[[SX]]
// CHECK: %[[EQ:.+]] = arith.cmpi eq, %[[FULL]], %[[COUNT]]
// CHECK: %[[WHOLE:.+]] = arith.andi %[[POS]], %[[EQ]]
// CHECK: %[[ORDER:.+]] = arith.select %[[WHOLE]], %[[G]], %[[T]]
// CHECK: arith.divsi %[[ORDER]], %[[X]]
// CHECK: arith.remsi %[[ORDER]], %[[X]]
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @grouped(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32) attributes {tile.arg_names = ["a", "c", "M", "N", "K"], tile.grid = ["cdiv(M, 64) * cdiv(N, 64)", "1", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %c64_i32 = arith.constant 64 : i32
    %x = arith.ceildivsi %arg3, %c64_i32 : i32
    %pm = arith.divsi %0, %x : i32
    %pn = arith.remsi %0, %x : i32
    %2 = arith.addi %pm, %pn : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %4 = scf.for %k = %c0_i32 to %arg4 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>) : i32 {
      %p = tile.addptr %arg0, %k : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
      %t = tile.load %ps : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %q = tile.addptr %arg1, %2 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    tile.store %qs, %4 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}

// -----

// CHECK-LABEL: func.func @two_d(
// CHECK-SAME: tile.grid = ["min(num_sms * occupancy, (cdiv(M, 64)) * (cdiv(N, 64)) * (1))", "1", "1"]
// CHECK: %[[GX:.+]] = arith.trunci %{{.+}} : i64 to i32
// CHECK: %[[GY:.+]] = arith.trunci %{{.+}} : i64 to i32
// CHECK: %[[GZ:.+]] = arith.trunci %{{.+}} : i64 to i32
// CHECK: %[[COUNT:.+]] = arith.trunci %{{.+}} : i64 to i32
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %[[COUNT]] step %{{.+}} : i32 {
// CHECK: %[[PLANE:.+]] = arith.muli %[[GX]], %[[GY]] : i32
// CHECK: %[[IN:.+]] = arith.remui %[[T]], %[[PLANE]] : i32
// CHECK: %[[ORDER:.+]] = arith.select %{{.+}}, %{{.+}}, %[[IN]] : i32
// CHECK: %[[X:.+]] = arith.divui %[[ORDER]], %[[GY]] : i32
// CHECK: %[[Y:.+]] = arith.remui %[[ORDER]], %[[GY]] : i32
// CHECK-NOT: tile.program_id
// CHECK-NOT: tile.num_programs
// CHECK: %[[S:.+]] = arith.addi %[[X]], %[[GY]] : i32
// CHECK: arith.addi %[[S]], %[[Y]] : i32
module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
  func.func @two_d(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32) attributes {tile.arg_names = ["a", "c", "M", "N", "K"], tile.grid = ["cdiv(M, 64)", "cdiv(N, 64)", "1"], tile.kernel, tile.num_warps = 4 : i32} {
    %0 = tile.program_id 0
    %y = tile.program_id 1
    %ny = tile.num_programs 1
    %s0 = arith.addi %0, %ny : i32
    %s1 = arith.addi %s0, %y : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %4 = scf.for %k = %c0_i32 to %arg4 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>) : i32 {
      %p = tile.addptr %arg0, %k : !tile.ptr<f16>, i32
      %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
      %t = tile.load %ps : tensor<64x64x!tile.ptr<f16>>
      %d = tile.dot %t, %t, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %q = tile.addptr %arg1, %s1 : !tile.ptr<f32>, i32
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    tile.store %qs, %4 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}
