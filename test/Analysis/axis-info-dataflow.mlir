// AxisInfo on MLIR's data-flow framework: what the region-branch handling, the
// integer-range analysis in the same solver and the pessimistic default give.
// RUN: tile-opt %s -split-input-file -test-print-axis-info -verify-diagnostics

// scf.while: the carried pointer keeps its contiguity and alignment, the counter its
// divisibility (the framework joins the initial and the yielded values).
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @while_loop(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x!tile.ptr<f32>> {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], range = [0, 63]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %p0 = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], value = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64], value = 64}}
  %step = tile.splat %c64 : i32 -> tensor<64xi32>
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{result #1: contiguity = [1], divisibility = [64], constancy = [1]}}
  %res:2 = scf.while (%pa = %p0, %i = %c0) : (tensor<64x!tile.ptr<f32>>, i32) -> (tensor<64x!tile.ptr<f32>>, i32) {
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], range = [0, 1]}}
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %pa, %i : tensor<64x!tile.ptr<f32>>, i32
  } do {
  ^bb0(%pb: tensor<64x!tile.ptr<f32>>, %j: i32):
    // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
    %pn = tile.addptr %pb, %step : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1]}}
    %jn = arith.addi %j, %c64 : i32
    scf.yield %pn, %jn : tensor<64x!tile.ptr<f32>>, i32
  }
  return %res#0 : tensor<64x!tile.ptr<f32>>
}

// -----

// A condition the integer ranges decide takes one side of scf.if: program ids are never
// negative.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [64], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @decided_if(%a: i32 {tile.divisibility = 64 : i32}, %b: i32) -> i32 {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], range = [0, 2147483647]}}
  %pid = tile.program_id 0
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], value = 0}}
  %neg = arith.cmpi slt, %pid, %c0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1]}}
  %x = scf.if %neg -> i32 {
    scf.yield %b : i32
  } else {
    scf.yield %a : i32
  }
  return %x : i32
}

// -----

// Ops without a transfer function know nothing (tile.trans), except that an element-wise
// op (math.absi) is constant where its operands are.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @unknown_ops(%x: i32) -> (tensor<32x32xi32>, tensor<64xi32>) {
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1], range = [0, 31]}}
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [1, 1], range = [0, 31]}}
  %e = tile.expand_dims %r, 0 : tensor<32xi32> -> tensor<1x32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [32, 1], range = [0, 31]}}
  %b = tile.broadcast %e : tensor<1x32xi32> -> tensor<32x32xi32>
  // expected-remark-re @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]{{$}}}}
  %t = tile.trans %b, [1, 0] : tensor<32x32xi32> -> tensor<32x32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %xs = tile.splat %x : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], range = [0, 63]}}
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1], constancy = [1]}}
  %s = arith.addi %r64, %xs : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64], value = 4}}
  %c4 = arith.constant dense<4> : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4], range = [0, 15]}}
  %q = arith.divsi %r64, %c4 : tensor<64xi32>
  // expected-remark-re @below {{contiguity = [1], divisibility = [1], constancy = [4]{{$}}}}
  %a = math.absi %q : tensor<64xi32>
  return %t, %a : tensor<32x32xi32>, tensor<64xi32>
}

// -----

// Loop bounds give the induction variable its range; a counter whose range grows each
// iteration gives up at once (no climbing one value per iteration).
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @counted(%n: i32) -> i32 {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], value = 1}}
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], value = 16}}
  %c16 = arith.constant 16 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1], value = 256}}
  %c256 = arith.constant 256 : i32
  // expected-remark @below {{iv: contiguity = [1], divisibility = [16], constancy = [1], range = [0, 255]}}
  // expected-remark-re @below {{iter_arg #0: contiguity = [1], divisibility = [1], constancy = [1]{{$}}}}
  // expected-remark-re @below {{contiguity = [1], divisibility = [1], constancy = [1]{{$}}}}
  %s = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %c0) -> (i32) : i32 {
    // expected-remark-re @below {{contiguity = [1], divisibility = [1], constancy = [1]{{$}}}}
    %a = arith.addi %acc, %c1 : i32
    scf.yield %a : i32
  }
  return %s : i32
}
