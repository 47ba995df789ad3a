// RUN: tile-opt %s -split-input-file -tile-split-masked-loops | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-split-masked-loops -canonicalize | FileCheck %s --check-prefix=CANON

// matmul.tile's K loop: `kk = k * 32 + arange(0, 32)` masks A's columns and B's rows with
// `kk < K`, true everywhere while (k + 1) * 32 <= K. The loop is split at
// floordiv(K - 31 - 1, 32) + 1 (clamped to [0, n], and to 0 unless no i32 step of
// k * 32 + arange can wrap at the first and last iterations of the first loop): there the
// compares are constant true, after it the loop is what it was, pipelined 2 deep.
// CHECK-LABEL: func.func @kmask
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:   %[[N:.*]] = arith.divsi
// CHECK:       %[[LB:.*]] = arith.extsi %[[C0]] : i32 to i64
// CHECK:       %[[UB:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK:       arith.floordivsi
// CHECK:       arith.cmpi sle, %{{.*}}, %{{.*}} : i64
// CHECK:       %[[SPLIT:.*]] = arith.select %{{.*}}, %{{.*}}, %[[LB]] : i64
// CHECK:       %[[S32:.*]] = arith.trunci %[[SPLIT]] : i64 to i32
// CHECK:       %[[FIRST:.*]] = scf.for %{{.*}} = %[[C0]] to %[[S32]] step
// CHECK-NOT:     arith.cmpi
// CHECK:         %[[T1:.*]] = arith.constant dense<true> : tensor<1x32xi1>
// CHECK:         tile.broadcast %[[T1]]
// CHECK:         tile.load
// CHECK-NOT:     arith.cmpi
// CHECK:         %[[T2:.*]] = arith.constant dense<true> : tensor<32x1xi1>
// CHECK:         tile.load
// CHECK:         tile.dot
// CHECK:       }
// CHECK-NOT:   tile.num_stages
// CHECK:       %[[REST:.*]] = scf.for %{{.*}} = %[[S32]] to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[FIRST]])
// CHECK:         arith.cmpi slt
// CHECK:         tile.load
// CHECK:         arith.cmpi slt
// CHECK:         tile.load
// CHECK:         tile.dot
// CHECK:       } {tile.num_stages = 2 : i32}
// CHECK:       tile.store %{{.*}}, %[[REST]]
// With the constant-true masks folded, the first loop's loads are unmasked.
// CANON-LABEL: func.func @kmask
// CANON:       scf.for
// CANON:         tile.load %{{.*}} : tensor<16x32x!tile.ptr<f16>>
// CANON:         tile.load %{{.*}} : tensor<32x16x!tile.ptr<f16>>
// CANON:       scf.for
// CANON:         tile.load %{{.*}}, mask
// CANON:         tile.load %{{.*}}, mask
func.func @kmask(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %K: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %rm = tile.make_range 0 to 16 : tensor<16xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %za = arith.constant dense<0.0> : tensor<16x32xf16>
  %zb = arith.constant dense<0.0> : tensor<32x16xf16>
  %kp = arith.addi %K, %c31 : i32
  %n = arith.divsi %kp, %c32 : i32
  %Ks = tile.splat %K : i32 -> tensor<1x32xi32>
  %Kc = tile.splat %K : i32 -> tensor<32x1xi32>
  %rm2 = tile.expand_dims %rm, 1 : tensor<16xi32> -> tensor<16x1xi32>
  %Kr = tile.splat %K : i32 -> tensor<16x1xi32>
  %arow = arith.muli %rm2, %Kr : tensor<16x1xi32>
  %rn2 = tile.expand_dims %rm, 0 : tensor<16xi32> -> tensor<1x16xi32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%acc0 = %zero) -> (tensor<16x16xf32>) : i32 {
    %k0 = arith.muli %k, %c32 : i32
    %ks = tile.splat %k0 : i32 -> tensor<32xi32>
    %kk = arith.addi %ks, %rk : tensor<32xi32>
    // A: a + rm * K + kk, masked by kk < K
    %kk2 = tile.expand_dims %kk, 0 : tensor<32xi32> -> tensor<1x32xi32>
    %arowb = tile.broadcast %arow : tensor<16x1xi32> -> tensor<16x32xi32>
    %kkb = tile.broadcast %kk2 : tensor<1x32xi32> -> tensor<16x32xi32>
    %aoff = arith.addi %arowb, %kkb : tensor<16x32xi32>
    %as = tile.splat %a : !tile.ptr<f16> -> tensor<16x32x!tile.ptr<f16>>
    %ap = tile.addptr %as, %aoff : tensor<16x32x!tile.ptr<f16>>, tensor<16x32xi32>
    %am = arith.cmpi slt, %kk2, %Ks : tensor<1x32xi32>
    %amb = tile.broadcast %am : tensor<1x32xi1> -> tensor<16x32xi1>
    %at = tile.load %ap, mask %amb, other %za : tensor<16x32x!tile.ptr<f16>>
    // B: b + kk * 16 + rn, masked by kk < K
    %kkc = tile.expand_dims %kk, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %c16s = arith.constant dense<16> : tensor<32x1xi32>
    %brow = arith.muli %kkc, %c16s : tensor<32x1xi32>
    %browb = tile.broadcast %brow : tensor<32x1xi32> -> tensor<32x16xi32>
    %rnb = tile.broadcast %rn2 : tensor<1x16xi32> -> tensor<32x16xi32>
    %boff = arith.addi %browb, %rnb : tensor<32x16xi32>
    %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x16x!tile.ptr<f16>>
    %bp = tile.addptr %bs, %boff : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi32>
    %bm = arith.cmpi slt, %kkc, %Kc : tensor<32x1xi32>
    %bmb = tile.broadcast %bm : tensor<32x1xi1> -> tensor<32x16xi1>
    %bt = tile.load %bp, mask %bmb, other %zb : tensor<32x16x!tile.ptr<f16>>
    %d = tile.dot %at, %bt, %acc0 : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  tile.store %cs, %acc : tensor<16x16x!tile.ptr<f32>>
  return
}

// -----

// Triton's tutorial 03 writes the same mask as `arange(0, 32) < K - k * 32`, stepping
// pointers: the right side decreases with k, so the compare is true in a prefix too. With
// `range(0, K, 32)` (step 32) the split is put on the loop's lattice (0, 32, 64, ...).
// CHECK-LABEL: func.func @kleft
// CHECK:       arith.floordivsi
// CHECK:       arith.ceildivsi
// CHECK:       %[[S32:.*]] = arith.trunci
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[S32]] step %{{.*}}
// CHECK-NOT:     arith.cmpi
// CHECK:         tile.dot
// CHECK:       scf.for %{{.*}} = %[[S32]] to
// CHECK:         arith.subi
// CHECK:         arith.cmpi slt
// CHECK:       } {tile.num_stages = 2 : i32}
func.func @kleft(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %K: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rk2 = tile.expand_dims %rk, 1 : tensor<32xi32> -> tensor<32x1xi32>
  %rn = tile.make_range 0 to 16 : tensor<16xi32>
  %rn2 = tile.expand_dims %rn, 0 : tensor<16xi32> -> tensor<1x16xi32>
  %c16s = arith.constant dense<16> : tensor<32x1xi32>
  %brow = arith.muli %rk2, %c16s : tensor<32x1xi32>
  %browb = tile.broadcast %brow : tensor<32x1xi32> -> tensor<32x16xi32>
  %rnb = tile.broadcast %rn2 : tensor<1x16xi32> -> tensor<32x16xi32>
  %boff = arith.addi %browb, %rnb : tensor<32x16xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x16x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %boff : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi32>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %zb = arith.constant dense<0.0> : tensor<32x16xf16>
  %at = arith.constant dense<1.0> : tensor<16x32xf16>
  %c512 = arith.constant dense<512> : tensor<32x16xi32>
  %res:2 = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero, %bp = %bp0)
      -> (tensor<16x16xf32>, tensor<32x16x!tile.ptr<f16>>) : i32 {
    %left = arith.subi %K, %k : i32
    %ls = tile.splat %left : i32 -> tensor<32x1xi32>
    %m = arith.cmpi slt, %rk2, %ls : tensor<32x1xi32>
    %mb = tile.broadcast %m : tensor<32x1xi1> -> tensor<32x16xi1>
    %bt = tile.load %bp, mask %mb, other %zb : tensor<32x16x!tile.ptr<f16>>
    %d = tile.dot %at, %bt, %acc : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>
    %bn = tile.addptr %bp, %c512 : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi32>
    scf.yield %d, %bn : tensor<16x16xf32>, tensor<32x16x!tile.ptr<f16>>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  tile.store %cs, %res#0 : tensor<16x16x!tile.ptr<f32>>
  return
}

// -----

// Left alone: a compare true at the end of the loop rather than the start
// (K <= k * 32 + arange); a loop without a dot; a loop its kernel keeps unpipelined.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: scf.for
// CHECK-NOT:   scf.for
// CHECK-NOT:   dense<true>
func.func @kept(%b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %K: i32 {tile.divisibility = 16 : i32}, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rn = tile.make_range 0 to 16 : tensor<16xi32>
  %rn2 = tile.expand_dims %rn, 0 : tensor<16xi32> -> tensor<1x16xi32>
  %rnb = tile.broadcast %rn2 : tensor<1x16xi32> -> tensor<32x16xi32>
  %c16s = arith.constant dense<16> : tensor<32x1xi32>
  %Kc = tile.splat %K : i32 -> tensor<32x1xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x16x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %zb = arith.constant dense<0.0> : tensor<32x16xf16>
  %at = arith.constant dense<1.0> : tensor<16x32xf16>
  %r1 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %k0 = arith.muli %k, %c32 : i32
    %ks = tile.splat %k0 : i32 -> tensor<32xi32>
    %kk = arith.addi %ks, %rk : tensor<32xi32>
    %kkc = tile.expand_dims %kk, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %brow = arith.muli %kkc, %c16s : tensor<32x1xi32>
    %browb = tile.broadcast %brow : tensor<32x1xi32> -> tensor<32x16xi32>
    %boff = arith.addi %browb, %rnb : tensor<32x16xi32>
    %bp = tile.addptr %bs, %boff : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi32>
    %m = arith.cmpi sle, %Kc, %kkc : tensor<32x1xi32>
    %mb = tile.broadcast %m : tensor<32x1xi1> -> tensor<32x16xi1>
    %bt = tile.load %bp, mask %mb, other %zb : tensor<32x16x!tile.ptr<f16>>
    %d = tile.dot %at, %bt, %acc : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %r2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %r1) -> (tensor<16x16xf32>) : i32 {
    %k0 = arith.muli %k, %c32 : i32
    %ks = tile.splat %k0 : i32 -> tensor<32xi32>
    %kk = arith.addi %ks, %rk : tensor<32xi32>
    %kkc = tile.expand_dims %kk, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %brow = arith.muli %kkc, %c16s : tensor<32x1xi32>
    %browb = tile.broadcast %brow : tensor<32x1xi32> -> tensor<32x16xi32>
    %boff = arith.addi %browb, %rnb : tensor<32x16xi32>
    %bp = tile.addptr %bs, %boff : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi32>
    %m = arith.cmpi slt, %kkc, %Kc : tensor<32x1xi32>
    %mb = tile.broadcast %m : tensor<32x1xi1> -> tensor<32x16xi1>
    %bt = tile.load %bp, mask %mb, other %zb : tensor<32x16x!tile.ptr<f16>>
    %t = arith.extf %bt : tensor<32x16xf16> to tensor<32x16xf32>
    %s = tile.reduce sum %t, axis 0 : tensor<32x16xf32> -> tensor<16xf32>
    %s2 = tile.expand_dims %s, 0 : tensor<16xf32> -> tensor<1x16xf32>
    %sb = tile.broadcast %s2 : tensor<1x16xf32> -> tensor<16x16xf32>
    %a2 = arith.addf %acc, %sb : tensor<16x16xf32>
    scf.yield %a2 : tensor<16x16xf32>
  }
  %r3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %r2) -> (tensor<16x16xf32>) : i32 {
    %k0 = arith.muli %k, %c32 : i32
    %ks = tile.splat %k0 : i32 -> tensor<32xi32>
    %kk = arith.addi %ks, %rk : tensor<32xi32>
    %kkc = tile.expand_dims %kk, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %brow = arith.muli %kkc, %c16s : tensor<32x1xi32>
    %browb = tile.broadcast %brow : tensor<32x1xi32> -> tensor<32x16xi32>
    %boff = arith.addi %browb, %rnb : tensor<32x16xi32>
    %bp = tile.addptr %bs, %boff : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi32>
    %m = arith.cmpi slt, %kkc, %Kc : tensor<32x1xi32>
    %mb = tile.broadcast %m : tensor<32x1xi1> -> tensor<32x16xi1>
    %bt = tile.load %bp, mask %mb, other %zb : tensor<32x16x!tile.ptr<f16>>
    %d = tile.dot %at, %bt, %acc : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  } {tile.num_stages = 1 : i32}
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  tile.store %cs, %r3 : tensor<16x16x!tile.ptr<f32>>
  return
}

// -----

// Left alone: B's rows are `stride` apart with a stride of unknown alignment, so its
// copies cannot move 16 bytes at a time; a split would stage it in registers twice.
// CHECK-LABEL: func.func @strided
// CHECK-COUNT-1: scf.for
// CHECK-NOT:   scf.for
func.func @strided(%b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %K: i32 {tile.divisibility = 16 : i32}, %n: i32, %stride: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rn = tile.make_range 0 to 16 : tensor<16xi32>
  %rn2 = tile.expand_dims %rn, 0 : tensor<16xi32> -> tensor<1x16xi32>
  %ss = tile.splat %stride : i32 -> tensor<1x16xi32>
  %rns = arith.muli %rn2, %ss : tensor<1x16xi32>
  %rnb = tile.broadcast %rns : tensor<1x16xi32> -> tensor<32x16xi32>
  %Kc = tile.splat %K : i32 -> tensor<32x1xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x16x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %zb = arith.constant dense<0.0> : tensor<32x16xf16>
  %at = arith.constant dense<1.0> : tensor<16x32xf16>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %k0 = arith.muli %k, %c32 : i32
    %ks = tile.splat %k0 : i32 -> tensor<32xi32>
    %kk = arith.addi %ks, %rk : tensor<32xi32>
    %kkc = tile.expand_dims %kk, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %browb = tile.broadcast %kkc : tensor<32x1xi32> -> tensor<32x16xi32>
    %boff = arith.addi %browb, %rnb : tensor<32x16xi32>
    %bp = tile.addptr %bs, %boff : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi32>
    %m = arith.cmpi slt, %kkc, %Kc : tensor<32x1xi32>
    %mb = tile.broadcast %m : tensor<32x1xi1> -> tensor<32x16xi1>
    %bt = tile.load %bp, mask %mb, other %zb : tensor<32x16x!tile.ptr<f16>>
    %d = tile.dot %at, %bt, %acc : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  tile.store %cs, %r : tensor<16x16x!tile.ptr<f32>>
  return
}
