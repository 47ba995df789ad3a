// RUN: tile-opt %s -split-input-file -tile-split-masked-loops=tma=true | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-split-masked-loops | FileCheck %s --check-prefix=NOTMA

// With TMA on (sm_90a), a K loop whose masked loads are boxes of a tensor map (pointer
// argument plus one index per dimension times a stride, one bound per dimension) is kept
// whole: tile-pipeline copies its operands by TMA, whose masks cost nothing. Without TMA
// it is split where the K mask becomes false.
// CHECK-LABEL: func.func @boxes
// CHECK:       scf.for
// CHECK-NOT:   scf.for
// NOTMA-LABEL: func.func @boxes
// NOTMA:       scf.for
// NOTMA:       scf.for

// The same loop with an extent no grid expression of the tensor map gives (K / 2: only
// products and sums of arguments and constants are taken): no tensor map can describe it (tcc::describeTmaAccess, tile-pipeline's test), so
// tile-pipeline copies by cp.async, and the loop is split as without TMA.
// CHECK-LABEL: func.func @computed_extent
// CHECK:       scf.for
// CHECK:       scf.for

// K steps of 32 (A's rows 64 bytes): tile-pipeline copies by TMA only into 128-byte
// swizzled slots, and a loop all of whose operands it cannot copy so keeps cp.async for
// all: split as without TMA.
// CHECK-LABEL: func.func @narrow_rows
// CHECK:       scf.for
// CHECK:       scf.for

module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
func.func @boxes(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32},
                 %K: i32 {tile.divisibility = 16 : i32},
                 %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bkm1 = arith.constant 63 : i32
  %bk = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %za = arith.constant dense<0.0> : tensor<64x64xf16>
  %zb = arith.constant dense<0.0> : tensor<64x64xf16>
  %kp = arith.addi %K, %bkm1 : i32
  %n = arith.divsi %kp, %bk : i32
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 64 : tensor<64xi32>
  %rm = tile.expand_dims %r64, 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tile.expand_dims %r64, 0 : tensor<64xi32> -> tensor<1x64xi32>
  %Ms = tile.splat %M : i32 -> tensor<64x1xi32>
  %Ns = tile.splat %N : i32 -> tensor<1x64xi32>
  %Kr = tile.splat %K : i32 -> tensor<1x64xi32>
  %Kc = tile.splat %K : i32 -> tensor<64x1xi32>
  %sas = tile.splat %sa : i32 -> tensor<64x1xi32>
  %sbs = tile.splat %sb : i32 -> tensor<64x1xi32>
  %mrow = arith.cmpi slt, %rm, %Ms : tensor<64x1xi32>
  %ncol = arith.cmpi slt, %rn, %Ns : tensor<1x64xi32>
  %arow = arith.muli %rm, %sas : tensor<64x1xi32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%acc0 = %zero) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %k, %bk : i32
    %ks = tile.splat %k0 : i32 -> tensor<64xi32>
    %kk = arith.addi %ks, %rk : tensor<64xi32>
    %kr = tile.expand_dims %kk, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %kc = tile.expand_dims %kk, 1 : tensor<64xi32> -> tensor<64x1xi32>
    // A: a + rm * sa + kk, masked by rm < M and kk < K
    %arowb = tile.broadcast %arow : tensor<64x1xi32> -> tensor<64x64xi32>
    %krb = tile.broadcast %kr : tensor<1x64xi32> -> tensor<64x64xi32>
    %aoff = arith.addi %arowb, %krb : tensor<64x64xi32>
    %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
    %ap = tile.addptr %as, %aoff : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %am1 = arith.cmpi slt, %kr, %Kr : tensor<1x64xi32>
    %am1b = tile.broadcast %am1 : tensor<1x64xi1> -> tensor<64x64xi1>
    %am0b = tile.broadcast %mrow : tensor<64x1xi1> -> tensor<64x64xi1>
    %am = arith.andi %am0b, %am1b : tensor<64x64xi1>
    %at = tile.load %ap, mask %am, other %za : tensor<64x64x!tile.ptr<f16>>
    // B: b + kk * sb + rn, masked by kk < K and rn < N
    %brow = arith.muli %kc, %sbs : tensor<64x1xi32>
    %browb = tile.broadcast %brow : tensor<64x1xi32> -> tensor<64x64xi32>
    %rnb = tile.broadcast %rn : tensor<1x64xi32> -> tensor<64x64xi32>
    %boff = arith.addi %browb, %rnb : tensor<64x64xi32>
    %bs = tile.splat %b : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
    %bp = tile.addptr %bs, %boff : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %bm0 = arith.cmpi slt, %kc, %Kc : tensor<64x1xi32>
    %bm0b = tile.broadcast %bm0 : tensor<64x1xi1> -> tensor<64x64xi1>
    %bm1b = tile.broadcast %ncol : tensor<1x64xi1> -> tensor<64x64xi1>
    %bm = arith.andi %bm0b, %bm1b : tensor<64x64xi1>
    %bt = tile.load %bp, mask %bm, other %zb : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %at, %bt, %acc0 : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  tile.store %cs, %acc : tensor<64x64x!tile.ptr<f32>>
  return
}
}

// -----

module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
func.func @computed_extent(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32},
                 %K: i32 {tile.divisibility = 16 : i32},
                 %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bkm1 = arith.constant 63 : i32
  %bk = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %za = arith.constant dense<0.0> : tensor<64x64xf16>
  %zb = arith.constant dense<0.0> : tensor<64x64xf16>
  %kp = arith.addi %K, %bkm1 : i32
  %n = arith.divsi %kp, %bk : i32
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 64 : tensor<64xi32>
  %rm = tile.expand_dims %r64, 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tile.expand_dims %r64, 0 : tensor<64xi32> -> tensor<1x64xi32>
  %Ms = tile.splat %M : i32 -> tensor<64x1xi32>
  %Ns = tile.splat %N : i32 -> tensor<1x64xi32>
  %c2 = arith.constant 2 : i32
  %K2 = arith.divsi %K, %c2 : i32
  %Kr = tile.splat %K2 : i32 -> tensor<1x64xi32>
  %Kc = tile.splat %K2 : i32 -> tensor<64x1xi32>
  %sas = tile.splat %sa : i32 -> tensor<64x1xi32>
  %sbs = tile.splat %sb : i32 -> tensor<64x1xi32>
  %mrow = arith.cmpi slt, %rm, %Ms : tensor<64x1xi32>
  %ncol = arith.cmpi slt, %rn, %Ns : tensor<1x64xi32>
  %arow = arith.muli %rm, %sas : tensor<64x1xi32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%acc0 = %zero) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %k, %bk : i32
    %ks = tile.splat %k0 : i32 -> tensor<64xi32>
    %kk = arith.addi %ks, %rk : tensor<64xi32>
    %kr = tile.expand_dims %kk, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %kc = tile.expand_dims %kk, 1 : tensor<64xi32> -> tensor<64x1xi32>
    // A: a + rm * sa + kk, masked by rm < M and kk < K
    %arowb = tile.broadcast %arow : tensor<64x1xi32> -> tensor<64x64xi32>
    %krb = tile.broadcast %kr : tensor<1x64xi32> -> tensor<64x64xi32>
    %aoff = arith.addi %arowb, %krb : tensor<64x64xi32>
    %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
    %ap = tile.addptr %as, %aoff : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %am1 = arith.cmpi slt, %kr, %Kr : tensor<1x64xi32>
    %am1b = tile.broadcast %am1 : tensor<1x64xi1> -> tensor<64x64xi1>
    %am0b = tile.broadcast %mrow : tensor<64x1xi1> -> tensor<64x64xi1>
    %am = arith.andi %am0b, %am1b : tensor<64x64xi1>
    %at = tile.load %ap, mask %am, other %za : tensor<64x64x!tile.ptr<f16>>
    // B: b + kk * sb + rn, masked by kk < K and rn < N
    %brow = arith.muli %kc, %sbs : tensor<64x1xi32>
    %browb = tile.broadcast %brow : tensor<64x1xi32> -> tensor<64x64xi32>
    %rnb = tile.broadcast %rn : tensor<1x64xi32> -> tensor<64x64xi32>
    %boff = arith.addi %browb, %rnb : tensor<64x64xi32>
    %bs = tile.splat %b : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
    %bp = tile.addptr %bs, %boff : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %bm0 = arith.cmpi slt, %kc, %Kc : tensor<64x1xi32>
    %bm0b = tile.broadcast %bm0 : tensor<64x1xi1> -> tensor<64x64xi1>
    %bm1b = tile.broadcast %ncol : tensor<1x64xi1> -> tensor<64x64xi1>
    %bm = arith.andi %bm0b, %bm1b : tensor<64x64xi1>
    %bt = tile.load %bp, mask %bm, other %zb : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %at, %bt, %acc0 : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  tile.store %cs, %acc : tensor<64x64x!tile.ptr<f32>>
  return
}
}

// -----

module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>} {
func.func @narrow_rows(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32},
                 %K: i32 {tile.divisibility = 16 : i32},
                 %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bkm1 = arith.constant 31 : i32
  %bk = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %za = arith.constant dense<0.0> : tensor<64x32xf16>
  %zb = arith.constant dense<0.0> : tensor<32x64xf16>
  %kp = arith.addi %K, %bkm1 : i32
  %n = arith.divsi %kp, %bk : i32
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rm = tile.expand_dims %r64, 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tile.expand_dims %r64, 0 : tensor<64xi32> -> tensor<1x64xi32>
  %Ms = tile.splat %M : i32 -> tensor<64x1xi32>
  %Ns = tile.splat %N : i32 -> tensor<1x64xi32>
  %Kr = tile.splat %K : i32 -> tensor<1x32xi32>
  %Kc = tile.splat %K : i32 -> tensor<32x1xi32>
  %sas = tile.splat %sa : i32 -> tensor<64x1xi32>
  %sbs = tile.splat %sb : i32 -> tensor<32x1xi32>
  %mrow = arith.cmpi slt, %rm, %Ms : tensor<64x1xi32>
  %ncol = arith.cmpi slt, %rn, %Ns : tensor<1x64xi32>
  %arow = arith.muli %rm, %sas : tensor<64x1xi32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%acc0 = %zero) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %k, %bk : i32
    %ks = tile.splat %k0 : i32 -> tensor<32xi32>
    %kk = arith.addi %ks, %rk : tensor<32xi32>
    %kr = tile.expand_dims %kk, 0 : tensor<32xi32> -> tensor<1x32xi32>
    %kc = tile.expand_dims %kk, 1 : tensor<32xi32> -> tensor<32x1xi32>
    // A: a + rm * sa + kk, masked by rm < M and kk < K
    %arowb = tile.broadcast %arow : tensor<64x1xi32> -> tensor<64x32xi32>
    %krb = tile.broadcast %kr : tensor<1x32xi32> -> tensor<64x32xi32>
    %aoff = arith.addi %arowb, %krb : tensor<64x32xi32>
    %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
    %ap = tile.addptr %as, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %am1 = arith.cmpi slt, %kr, %Kr : tensor<1x32xi32>
    %am1b = tile.broadcast %am1 : tensor<1x32xi1> -> tensor<64x32xi1>
    %am0b = tile.broadcast %mrow : tensor<64x1xi1> -> tensor<64x32xi1>
    %am = arith.andi %am0b, %am1b : tensor<64x32xi1>
    %at = tile.load %ap, mask %am, other %za : tensor<64x32x!tile.ptr<f16>>
    // B: b + kk * sb + rn, masked by kk < K and rn < N
    %brow = arith.muli %kc, %sbs : tensor<32x1xi32>
    %browb = tile.broadcast %brow : tensor<32x1xi32> -> tensor<32x64xi32>
    %rnb = tile.broadcast %rn : tensor<1x64xi32> -> tensor<32x64xi32>
    %boff = arith.addi %browb, %rnb : tensor<32x64xi32>
    %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
    %bp = tile.addptr %bs, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    %bm0 = arith.cmpi slt, %kc, %Kc : tensor<32x1xi32>
    %bm0b = tile.broadcast %bm0 : tensor<32x1xi1> -> tensor<32x64xi1>
    %bm1b = tile.broadcast %ncol : tensor<1x64xi1> -> tensor<32x64xi1>
    %bm = arith.andi %bm0b, %bm1b : tensor<32x64xi1>
    %bt = tile.load %bp, mask %bm, other %zb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %at, %bt, %acc0 : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  tile.store %cs, %acc : tensor<64x64x!tile.ptr<f32>>
  return
}
}

