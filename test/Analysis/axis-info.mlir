// AxisInfo of every integer and pointer value, as remarks tied to the ops.
// RUN: tile-opt %s -split-input-file -test-print-axis-info -verify-diagnostics

// Ranges, splats and their sums: the vector-add offsets.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @offsets(%n: i32 {tile.divisibility = 16 : i32}, %m: i32) -> (tensor<128xi1>, tensor<128xi1>, tensor<128xi1>) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], range = [0, 2147483647]}}
  %pid = tile.program_id 0
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], value = 128}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1]}}
  %base = arith.muli %pid, %c128 : i32
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], range = [0, 127]}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], range = [64, 127]}}
  %r64 = tile.make_range 64 to 128 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128]}}
  %b = tile.splat %base : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1]}}
  %offs = arith.addi %b, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], range = [0, 1]}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %ms = tile.splat %m : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], range = [0, 1]}}
  %mask2 = arith.cmpi slt, %offs, %ms : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128], value = 128}}
  %c128s = arith.constant dense<128> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], value = 1}}
  %full = arith.cmpi slt, %r, %c128s : tensor<128xi32>
  return %mask, %mask2, %full : tensor<128xi1>, tensor<128xi1>, tensor<128xi1>
}

// -----

// Pointer arithmetic: divisibility in bytes.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [2], constancy = [1]}}
// expected-remark @below {{arg #2: contiguity = [1], divisibility = [8], constancy = [1]}}
func.func @pointers(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f16>, %k: i32 {tile.divisibility = 8 : i32}) -> (tensor<256x!tile.ptr<f32>>, tensor<256x!tile.ptr<f16>>, !tile.ptr<f32>) {
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1], range = [0, 255]}}
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [256], divisibility = [16], constancy = [1]}}
  %pp = tile.addptr %ps, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [256]}}
  %qs = tile.splat %q : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [256], divisibility = [2], constancy = [1]}}
  %qq = tile.addptr %qs, %r : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %pk = tile.addptr %p, %k : !tile.ptr<f32>, i32
  return %pp, %qq, %pk : tensor<256x!tile.ptr<f32>>, tensor<256x!tile.ptr<f16>>, !tile.ptr<f32>
}

// -----

// 2-D: rows times a stride plus columns.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @rows_cols(%stride: i32 {tile.divisibility = 16 : i32}, %odd: i32) -> (tensor<32x64xi32>, tensor<32x64xi32>) {
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1], range = [0, 31]}}
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], range = [0, 63]}}
  %c = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [1073741824, 1], constancy = [1, 1], range = [0, 31]}}
  %r2 = tile.expand_dims %r, 1 : tensor<32xi32> -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1], range = [0, 63]}}
  %c2 = tile.expand_dims %c, 0 : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 1]}}
  %s = tile.splat %stride : i32 -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %rs = arith.muli %r2, %s : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64]}}
  %rb = tile.broadcast %rs : tensor<32x1xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [32, 1], range = [0, 63]}}
  %cb = tile.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1]}}
  %off = arith.addi %rb, %cb : tensor<32x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 64]}}
  %o = tile.splat %odd : i32 -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]}}
  %cs = arith.muli %c2, %o : tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [32, 1]}}
  %csb = tile.broadcast %cs : tensor<1x64xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [1073741824, 1], constancy = [1, 64], range = [0, 31]}}
  %r2b = tile.broadcast %r2 : tensor<32x1xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [1, 1], constancy = [1, 1]}}
  %t = arith.addi %csb, %r2b : tensor<32x64xi32>
  return %off, %t : tensor<32x64xi32>, tensor<32x64xi32>
}

// -----

// Division, remainder and shifts by constants; a range minus itself is constant.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @div_rem(%x: i32) -> (tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, tensor<128xi32>) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], range = [0, 127]}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], value = 16}}
  %c16 = arith.constant dense<16> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], value = 4}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], range = [0, 7]}}
  %q = arith.divsi %r, %c16 : tensor<128xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1], range = [0, 15]}}
  %m = arith.remsi %r, %c16 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], range = [0, 2032]}}
  %s = arith.shli %r, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], range = [0, 16]}}
  %a = arith.andi %s, %c16 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %xs = tile.splat %x : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %d = arith.subi %r, %xs : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], range = [-127, 127]}}
  %e = arith.subi %r, %r : tensor<128xi32>
  return %q, %m, %s, %a, %d, %e : tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, tensor<128xi32>, tensor<128xi32>
}

// -----

// select keeps what both sides share; casts keep contiguity while values fit.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [32], constancy = [1]}}
func.func @select_cast(%c: i1, %n: i32 {tile.divisibility = 32 : i32}) -> (tensor<64xi32>, tensor<64xi64>, tensor<64xi16>, tensor<64xi32>) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], range = [0, 63]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], range = [64, 127]}}
  %r2 = tile.make_range 64 to 128 : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], range = [0, 127]}}
  %sel = arith.select %c, %r, %r2 : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], range = [0, 127]}}
  %w = arith.extsi %sel : tensor<64xi32> to tensor<64xi64>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], range = [0, 63]}}
  %t = arith.trunci %r : tensor<64xi32> to tensor<64xi16>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [64]}}
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [32], range = [0, 1]}}
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %v = arith.select %m, %r, %ns : tensor<64xi1>, tensor<64xi32>
  return %sel, %w, %t, %v : tensor<64xi32>, tensor<64xi64>, tensor<64xi16>, tensor<64xi32>
}

// -----

// multiple_of on a pointer and an offset: what an unspecialised kernel can promise.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [4], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @hints(%p: !tile.ptr<f32>, %off: i32) -> tensor<128x!tile.ptr<f32>> {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %ph = tile.hint %p {divisibility = array<i32: 16>} : !tile.ptr<f32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1]}}
  %oh = tile.hint %off {divisibility = array<i32: 128>} : i32
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], range = [0, 127]}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128]}}
  %os = tile.splat %oh : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1]}}
  %o = arith.addi %os, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ps = tile.splat %ph : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %pp = tile.addptr %ps, %o : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  return %pp : tensor<128x!tile.ptr<f32>>
}

// -----

// Nothing is known about loaded values.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
func.func @loads(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}) -> tensor<32xi32> {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [32]}}
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %v = tile.load %ps : tensor<32x!tile.ptr<i32>>
  return %v : tensor<32xi32>
}

// -----

// Loop-carried pointers keep their alignment; a counter only its divisibility.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @loop(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x!tile.ptr<f32>> {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], value = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64], value = 3}}
  %c3 = arith.constant dense<3> : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], range = [0, 63]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %p0 = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64], value = 64}}
  %step = tile.splat %c64 : i32 -> tensor<64xi32>
  // expected-remark @below {{iv: contiguity = [1], divisibility = [64], constancy = [1]}}
  // expected-remark @below {{iter_arg #0: contiguity = [64], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{iter_arg #1: contiguity = [1], divisibility = [1], constancy = [1]}}
  // expected-remark @below {{iter_arg #2: contiguity = [64], divisibility = [1], constancy = [1]}}
  // expected-remark @below {{result #0: contiguity = [64], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{result #1: contiguity = [1], divisibility = [1], constancy = [1]}}
  // expected-remark @below {{result #2: contiguity = [64], divisibility = [1], constancy = [1]}}
  %res:3 = scf.for %k = %c0 to %n step %c64 iter_args(%pa = %p0, %i = %c0, %t = %r) -> (tensor<64x!tile.ptr<f32>>, i32, tensor<64xi32>) : i32 {
    // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
    %pn = tile.addptr %pa, %step : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], value = 1}}
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
    %in = arith.addi %i, %c1 : i32
    // expected-remark @below {{contiguity = [64], divisibility = [1], constancy = [1]}}
    %tn = arith.addi %t, %c3 : tensor<64xi32>
    scf.yield %pn, %in, %tn : tensor<64x!tile.ptr<f32>>, i32, tensor<64xi32>
  }
  return %res#0 : tensor<64x!tile.ptr<f32>>
}

// -----

// scf.if results satisfy what both branches do.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [64], constancy = [1]}}
// expected-remark @below {{arg #2: contiguity = [1], divisibility = [16], constancy = [1]}}
func.func @branch(%c: i1, %a: i32 {tile.divisibility = 64 : i32}, %b: i32 {tile.divisibility = 16 : i32}) -> i32 {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %r = scf.if %c -> i32 {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  return %r : i32
}

// -----

// Comparisons against a multiple of 16 flip only at group boundaries; ranges decide
// comparisons and boolean ops outright.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
func.func @masks(%n: i32 {tile.divisibility = 16 : i32}) -> (tensor<64xi1>, tensor<64xi1>, tensor<64xi1>, tensor<64xi1>, tensor<64xi1>) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], range = [0, 63]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], range = [0, 1]}}
  %ge = arith.cmpi sge, %r, %ns : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], range = [0, 1]}}
  %gt = arith.cmpi sgt, %ns, %r : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], range = [0, 1]}}
  %le = arith.cmpi sle, %r, %ns : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64], value = 64}}
  %c64 = arith.constant dense<64> : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [64], value = 0}}
  %never = arith.cmpi sge, %r, %c64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64], value = 1}}
  %true = arith.constant dense<true> : tensor<64xi1>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], range = [0, 1]}}
  %both = arith.andi %ge, %true : tensor<64xi1>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [64], value = 0}}
  %none = arith.andi %le, %never : tensor<64xi1>
  return %ge, %gt, %le, %both, %none : tensor<64xi1>, tensor<64xi1>, tensor<64xi1>, tensor<64xi1>, tensor<64xi1>
}

// -----

// 2-D pointers: a row base broadcast along columns, plus contiguous columns.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg #1: contiguity = [1], divisibility = [8], constancy = [1]}}
func.func @ptr2d(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 8 : i32}) -> tensor<16x32x!tile.ptr<f16>> {
  // expected-remark @below {{contiguity = [16], divisibility = [1073741824], constancy = [1], range = [0, 15]}}
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1], range = [0, 31]}}
  %c = tile.make_range 0 to 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [1, 1], range = [0, 31]}}
  %c2 = tile.expand_dims %c, 0 : tensor<32xi32> -> tensor<1x32xi32>
  // expected-remark @below {{contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 1], range = [0, 15]}}
  %r2 = tile.expand_dims %r, 1 : tensor<16xi32> -> tensor<16x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [16, 1]}}
  %s = tile.splat %stride : i32 -> tensor<16x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [1, 1]}}
  %rs = arith.muli %r2, %s : tensor<16x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [16, 1]}}
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<16x1x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %prow = tile.addptr %ps, %rs : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 32]}}
  %pb = tile.broadcast %prow : tensor<16x1x!tile.ptr<f16>> -> tensor<16x32x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [16, 1], range = [0, 31]}}
  %cb = tile.broadcast %c2 : tensor<1x32xi32> -> tensor<16x32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [2, 16], constancy = [1, 1]}}
  %pp = tile.addptr %pb, %cb : tensor<16x32x!tile.ptr<f16>>, tensor<16x32xi32>
  return %pp : tensor<16x32x!tile.ptr<f16>>
}


// -----

// `tile.equal_to = 1` (--specialize s=eq1): the argument is the constant 1, so the strided
// offsets stay contiguous.
// expected-remark @below {{arg #0: contiguity = [1], divisibility = [1], constancy = [1], value = 1}}
func.func @unit_stride(%s: i32 {tile.equal_to = 1 : i32}) -> tensor<64xi32> {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], range = [0, 63]}}
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64], value = 1}}
  %ss = tile.splat %s : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], range = [0, 63]}}
  %offs = arith.muli %r, %ss : tensor<64xi32>
  return %offs : tensor<64xi32>
}
