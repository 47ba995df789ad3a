// RUN: tile-opt %s -split-input-file -tile-version-signs | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-version-signs -test-print-axis-info 2>&1 >/dev/null | FileCheck %s --check-prefix=FACTS

// Triton's grouped matmul: `(pid_n * 256 + arange(0, 256)) % n`, with pid_n divided by a
// runtime group size whose sign nothing bounds. The scalars the remainder's signs hang
// on (x = pid_n * 256 >= 0, n >= 16 as a positive multiple of 16) are computed first;
// the rest of the kernel is copied into a branch where they are clamped to that range,
// and kept as it was in the other. Only the copy's remainder is contiguous in 16s.
// CHECK-LABEL: func.func @grouped
// CHECK:       %[[PID:.*]] = tile.program_id 0
// CHECK:       %[[PN:.*]] = arith.divsi %[[PID]], %[[G:.*]] : i32
// CHECK:       %[[X:.*]] = arith.muli %[[PN]], %{{.*}} : i32
// CHECK-DAG:   %[[Z:.*]] = arith.constant 0 : i32
// CHECK-DAG:   %[[HI:.*]] = arith.constant 1073741824 : i32
// CHECK:       %[[XLO:.*]] = arith.cmpi sge, %[[X]], %[[Z]] : i32
// CHECK:       %[[XHI:.*]] = arith.cmpi sle, %[[X]], %[[HI]] : i32
// CHECK:       %[[XIN:.*]] = arith.andi %[[XLO]], %[[XHI]] : i1
// CHECK:       %[[NLO:.*]] = arith.cmpi sge, %[[N:.*]], %[[C16:.*]] : i32
// CHECK:       %[[NIN:.*]] = arith.andi %[[NLO]], %{{.*}} : i1
// CHECK:       %[[COND:.*]] = arith.andi %[[XIN]], %[[NIN]] : i1
// CHECK:       scf.if %[[COND]] {
// CHECK:         %[[XMAX:.*]] = arith.maxsi %[[X]], %{{.*}} : i32
// CHECK:         %[[XC:.*]] = arith.minsi %[[XMAX]], %{{.*}} : i32
// CHECK:         %[[NMAX:.*]] = arith.maxsi %[[N]], %{{.*}} : i32
// CHECK:         %[[NC:.*]] = arith.minsi %[[NMAX]], %{{.*}} : i32
// CHECK:         tile.splat %[[XC]]
// CHECK:         tile.splat %[[NC]]
// CHECK:         arith.remsi
// CHECK:         tile.load
// CHECK:         tile.store
// CHECK:       } else {
// CHECK:         tile.splat %[[X]]
// CHECK:         tile.splat %[[N]]
// CHECK:         arith.remsi
// CHECK:         tile.load
// CHECK:         tile.store
// CHECK:       }
// CHECK-NEXT:  return
// FACTS: version-signs.mlir:[[#REM:]]:8: remark: contiguity = [16], divisibility = [16], constancy = [1], range = [0, 1073741823]
// FACTS: version-signs.mlir:[[#REM]]:8: remark: contiguity = [1], divisibility = [1], constancy = [1]{{$}}
func.func @grouped(%b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                   %n: i32 {tile.divisibility = 16 : i32}, %g: i32) attributes {tile.kernel} {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %pid = tile.program_id 0
  %pn = arith.divsi %pid, %g : i32
  %c256 = arith.constant 256 : i32
  %x = arith.muli %pn, %c256 : i32
  %xs = tile.splat %x : i32 -> tensor<256xi32>
  %o = arith.addi %xs, %r : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %m = arith.remsi %o, %ns : tensor<256xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %p = tile.addptr %bs, %m : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  %v = tile.load %p : tensor<256x!tile.ptr<f16>>
  tile.store %p, %v : tensor<256x!tile.ptr<f16>>
  return
}

// -----

// The same remainder by an n of unknown divisibility: knowing the signs would not make
// it contiguous (a group may straddle a multiple of n), so nothing changes.
// CHECK-LABEL: func.func @no_gain
// CHECK-NOT:   scf.if
// CHECK:       arith.remsi
// CHECK-NOT:   scf.if
func.func @no_gain(%b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32, %g: i32) attributes {tile.kernel} {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %pid = tile.program_id 0
  %pn = arith.divsi %pid, %g : i32
  %c256 = arith.constant 256 : i32
  %x = arith.muli %pn, %c256 : i32
  %xs = tile.splat %x : i32 -> tensor<256xi32>
  %o = arith.addi %xs, %r : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %m = arith.remsi %o, %ns : tensor<256xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %p = tile.addptr %bs, %m : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  %v = tile.load %p : tensor<256x!tile.ptr<f16>>
  tile.store %p, %v : tensor<256x!tile.ptr<f16>>
  return
}

// -----

// Signs the ranges already prove (a program id masked to 10 bits, times 256, is in
// [0, 261888]; a positive constant): nothing to do. (`program_id(0) * 256` alone could
// overflow i32, so the ranges do not bound it.)
// CHECK-LABEL: func.func @known
// CHECK-NOT:   scf.if
func.func @known(%b: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %pid = tile.program_id 0
  %c1023 = arith.constant 1023 : i32
  %low = arith.andi %pid, %c1023 : i32
  %c256 = arith.constant 256 : i32
  %x = arith.muli %low, %c256 : i32
  %xs = tile.splat %x : i32 -> tensor<256xi32>
  %o = arith.addi %xs, %r : tensor<256xi32>
  %c4096 = arith.constant dense<4096> : tensor<256xi32>
  %m = arith.remsi %o, %c4096 : tensor<256xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %p = tile.addptr %bs, %m : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  %v = tile.load %p : tensor<256x!tile.ptr<f16>>
  tile.store %p, %v : tensor<256x!tile.ptr<f16>>
  return
}

// -----

// The dividend's scalar is loaded: its computation cannot move to the top of the kernel
// ahead of the store before it, so the kernel is not versioned.
// CHECK-LABEL: func.func @loaded_root
// CHECK-NOT:   scf.if
func.func @loaded_root(%b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                       %q: !tile.ptr<i32>, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %x = tile.load %q : !tile.ptr<i32>
  %xs = tile.splat %x : i32 -> tensor<256xi32>
  %o = arith.addi %xs, %r : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %m = arith.remsi %o, %ns : tensor<256xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %p = tile.addptr %bs, %m : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  %v = tile.load %p : tensor<256x!tile.ptr<f16>>
  tile.store %p, %v : tensor<256x!tile.ptr<f16>>
  return
}

// -----

// The dividend is a product of two scalars taken as tiles: each is clamped to [0, 2^30],
// but their product may still overflow, so the integer ranges do not prove the copy's
// dividend non-negative, AxisInfo finds no longer run there, and the version is undone.
// CHECK-LABEL: func.func @product_overflows
// CHECK-NOT:   scf.if
// CHECK-NOT:   arith.maxsi
// CHECK:       arith.remsi
// CHECK-NOT:   scf.if
func.func @product_overflows(%b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                             %n: i32 {tile.divisibility = 16 : i32}, %g: i32, %h: i32) attributes {tile.kernel} {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %pid = tile.program_id 0
  %pn = arith.divsi %pid, %g : i32
  %c256 = arith.constant 256 : i32
  %x = arith.muli %pn, %c256 : i32
  %xs = tile.splat %x : i32 -> tensor<256xi32>
  %hs = tile.splat %h : i32 -> tensor<256xi32>
  %xh = arith.muli %xs, %hs : tensor<256xi32>
  %o = arith.addi %xh, %r : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %m = arith.remsi %o, %ns : tensor<256xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %p = tile.addptr %bs, %m : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  %v = tile.load %p : tensor<256x!tile.ptr<f16>>
  tile.store %p, %v : tensor<256x!tile.ptr<f16>>
  return
}
