// The whole tile-level GPU pipeline on the course kernels, as MLIRGen writes them.
// RUN: tile-opt %s -split-input-file -tile-gpu-pipeline | FileCheck %s

// Vector add, arguments specialised (16-byte aligned pointers, n divisible by 16),
// BLOCK 1024 on 4 warps: 4 consecutive f32 per thread, 128-bit accesses, no conversion.
// CHECK: #[[V:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @vector_add_specialised
// CHECK-NOT: tile.convert_layout
// CHECK: tile.load %{{.*}}, mask %{{.*}} {vec = 4 : i32} : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} {vec = 4 : i32} : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<1024xf32, #[[V]]>
// CHECK: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} {vec = 4 : i32} : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK-NOT: tile.convert_layout
func.func @vector_add_specialised(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                                  %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                                  %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                                  %n: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.grid = ["cdiv(n, 1024)", "1", "1"],
                tile.arg_names = ["x", "y", "out", "n"], tile.constexprs = {BLOCK = 1024 : i64}} {
  %pid = tile.program_id 0
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %b = tile.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %b, %r : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xp, mask %mask : tensor<1024x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %bb = tile.load %yp, mask %mask, other %zero : tensor<1024x!tile.ptr<f32>>
  %s = arith.addf %a, %bb : tensor<1024xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %s, mask %mask : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// The same kernel unspecialised: base pointers may be only 4-byte aligned, so one
// element per thread (each warp instruction covers 128 consecutive bytes) and scalar
// accesses; still no conversion.
// CHECK: #[[S:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @vector_add
// CHECK-NOT: tile.convert_layout
// CHECK: tile.load %{{.*}}, mask %{{.*}} {vec = 1 : i32} : tensor<1024x!tile.ptr<f32>, #[[S]]>
// CHECK: tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} {vec = 1 : i32} : tensor<1024x!tile.ptr<f32>, #[[S]]>
// CHECK: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} {vec = 1 : i32} : tensor<1024x!tile.ptr<f32>, #[[S]]>
// CHECK-NOT: tile.convert_layout
func.func @vector_add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %b = tile.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %b, %r : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xp, mask %mask : tensor<1024x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %bb = tile.load %yp, mask %mask, other %zero : tensor<1024x!tile.ptr<f32>>
  %s = arith.addf %a, %bb : tensor<1024xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %s, mask %mask : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// Vector copy with hints instead of specialisation (multiple_of on the pointers and on
// n), BLOCK 512: 4 per thread, 128-bit accesses; the hints are gone afterwards.
// CHECK: #[[V:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @vector_copy_hinted
// CHECK-NOT: tile.hint
// CHECK: tile.load %{{.*}}, mask %{{.*}} {vec = 4 : i32} : tensor<512x!tile.ptr<f32>, #[[V]]>
// CHECK: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} {vec = 4 : i32} : tensor<512x!tile.ptr<f32>, #[[V]]>
// CHECK-NOT: tile.convert_layout
func.func @vector_copy_hinted(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %xh = tile.hint %x {divisibility = array<i32: 16>} : !tile.ptr<f32>
  %oh = tile.hint %out {divisibility = array<i32: 16>} : !tile.ptr<f32>
  %nh = tile.hint %n {divisibility = array<i32: 16>} : i32
  %pid = tile.program_id 0
  %c512 = arith.constant 512 : i32
  %base = arith.muli %pid, %c512 : i32
  %r = tile.make_range 0 to 512 : tensor<512xi32>
  %b = tile.splat %base : i32 -> tensor<512xi32>
  %offs = arith.addi %b, %r : tensor<512xi32>
  %ns = tile.splat %nh : i32 -> tensor<512xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32>
  %xs = tile.splat %xh : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %a = tile.load %xp, mask %mask : tensor<512x!tile.ptr<f32>>
  %os = tile.splat %oh : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  tile.store %op, %a, mask %mask : tensor<512x!tile.ptr<f32>>
  return
}

// -----

// Transpose of 64x64 tiles: the load reads rows (order [1, 0]), the store writes
// columns (order [0, 1]), both 128-bit; exactly one conversion between them.
// CHECK-DAG: #[[IN:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[OUT:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @transpose
// CHECK: %[[X:.*]] = tile.load %{{.*}}, mask %{{.*}} {vec = 4 : i32} : tensor<64x64x!tile.ptr<f32>, #[[IN]]>
// CHECK: %[[Y:.*]] = tile.convert_layout %[[X]] : tensor<64x64xf32, #[[IN]]> -> tensor<64x64xf32, #[[OUT]]>
// CHECK: tile.store %{{.*}}, %[[Y]], mask %{{.*}} {vec = 4 : i32} : tensor<64x64x!tile.ptr<f32>, #[[OUT]]>
// CHECK-NOT: tile.convert_layout
func.func @transpose(%in: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %M: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32},
                     %sin: i32 {tile.divisibility = 16 : i32}, %sout: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pm = tile.program_id 0
  %pn = tile.program_id 1
  %c64 = arith.constant 64 : i32
  %bm = arith.muli %pm, %c64 : i32
  %bn = arith.muli %pn, %c64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %bms = tile.splat %bm : i32 -> tensor<64xi32>
  %rm = arith.addi %bms, %r : tensor<64xi32>
  %bns = tile.splat %bn : i32 -> tensor<64xi32>
  %rn = arith.addi %bns, %r : tensor<64xi32>
  %rm2 = tile.expand_dims %rm, 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rn2 = tile.expand_dims %rn, 0 : tensor<64xi32> -> tensor<1x64xi32>
  %sins = tile.splat %sin : i32 -> tensor<64x1xi32>
  %rowoff = arith.muli %rm2, %sins : tensor<64x1xi32>
  %rowb = tile.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %colb = tile.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %inoff = arith.addi %rowb, %colb : tensor<64x64xi32>
  %inb = tile.splat %in : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %inp = tile.addptr %inb, %inoff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %Ms = tile.splat %M : i32 -> tensor<64x1xi32>
  %mm = arith.cmpi slt, %rm2, %Ms : tensor<64x1xi32>
  %Ns = tile.splat %N : i32 -> tensor<1x64xi32>
  %mn = arith.cmpi slt, %rn2, %Ns : tensor<1x64xi32>
  %mmb = tile.broadcast %mm : tensor<64x1xi1> -> tensor<64x64xi1>
  %mnb = tile.broadcast %mn : tensor<1x64xi1> -> tensor<64x64xi1>
  %mask = arith.andi %mmb, %mnb : tensor<64x64xi1>
  %x = tile.load %inp, mask %mask : tensor<64x64x!tile.ptr<f32>>
  %souts = tile.splat %sout : i32 -> tensor<1x64xi32>
  %coloff = arith.muli %rn2, %souts : tensor<1x64xi32>
  %colb2 = tile.broadcast %coloff : tensor<1x64xi32> -> tensor<64x64xi32>
  %rowb2 = tile.broadcast %rm2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %outoff = arith.addi %colb2, %rowb2 : tensor<64x64xi32>
  %outb = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %outp = tile.addptr %outb, %outoff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %outp, %x, mask %mask : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// Softmax, one row per program: reductions to scalars take the loaded layout as it is;
// no conversion. N is not specialised, so the mask may flip anywhere: scalar accesses.
// CHECK: #[[V:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: tile.convert_layout
// CHECK: %[[X:.*]] = tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} {vec = 1 : i32} : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: tile.reduce max %[[X]], axis 0 : tensor<1024xf32, #[[V]]> -> f32
// CHECK: math.exp %{{.*}} : tensor<1024xf32, #[[V]]>
// CHECK: tile.reduce sum %{{.*}}, axis 0 : tensor<1024xf32, #[[V]]> -> f32
// CHECK: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} {vec = 1 : i32} : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK-NOT: tile.convert_layout
func.func @softmax(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %inp: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %stride: i32 {tile.divisibility = 16 : i32}, %M: i32, %N: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %row = tile.program_id 0
  %cols = tile.make_range 0 to 1024 : tensor<1024xi32>
  %Ns = tile.splat %N : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
  %roff = arith.muli %row, %stride : i32
  %inrow = tile.addptr %inp, %roff : !tile.ptr<f32>, i32
  %inb = tile.splat %inrow : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %inp2 = tile.addptr %inb, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %x = tile.load %inp2, mask %mask, other %ninf : tensor<1024x!tile.ptr<f32>>
  %m = tile.reduce max %x, axis 0 : tensor<1024xf32> -> f32
  %ms = tile.splat %m : f32 -> tensor<1024xf32>
  %xm = arith.subf %x, %ms : tensor<1024xf32>
  %num = math.exp %xm : tensor<1024xf32>
  %den = tile.reduce sum %num, axis 0 : tensor<1024xf32> -> f32
  %dens = tile.splat %den : f32 -> tensor<1024xf32>
  %y = arith.divf %num, %dens : tensor<1024xf32>
  %outrow = tile.addptr %out, %roff : !tile.ptr<f32>, i32
  %outb = tile.splat %outrow : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %outp = tile.addptr %outb, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %outp, %y, mask %mask : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// Softmax over 4 rows per program (8 warps): the row reductions give slices of the
// loaded layout, expanded and broadcast back with no conversion.
// CHECK-DAG: #[[V:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
// CHECK-DAG: #[[R:.*]] = #tile.slice<{dim = 1, parent = #[[V]]}>
// CHECK-LABEL: func.func @softmax_rows
// CHECK-NOT: tile.convert_layout
// CHECK: %[[X:.*]] = tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} {vec = 4 : i32} : tensor<4x1024x!tile.ptr<f32>, #[[V]]>
// CHECK: %[[M:.*]] = tile.reduce max %[[X]], axis 1 : tensor<4x1024xf32, #[[V]]> -> tensor<4xf32, #[[R]]>
// CHECK: tile.expand_dims %[[M]], 1 : tensor<4xf32, #[[R]]> -> tensor<4x1xf32, #[[V]]>
// CHECK: tile.reduce sum %{{.*}}, axis 1 : tensor<4x1024xf32, #[[V]]> -> tensor<4xf32, #[[R]]>
// CHECK: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} {vec = 4 : i32} : tensor<4x1024x!tile.ptr<f32>, #[[V]]>
// CHECK-NOT: tile.convert_layout
func.func @softmax_rows(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %inp: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %stride: i32 {tile.divisibility = 16 : i32}, %M: i32, %N: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %pid = tile.program_id 0
  %c4 = arith.constant 4 : i32
  %r0 = arith.muli %pid, %c4 : i32
  %rr = tile.make_range 0 to 4 : tensor<4xi32>
  %r0s = tile.splat %r0 : i32 -> tensor<4xi32>
  %rows = arith.addi %r0s, %rr : tensor<4xi32>
  %cols = tile.make_range 0 to 1024 : tensor<1024xi32>
  %rows2 = tile.expand_dims %rows, 1 : tensor<4xi32> -> tensor<4x1xi32>
  %cols2 = tile.expand_dims %cols, 0 : tensor<1024xi32> -> tensor<1x1024xi32>
  %ss = tile.splat %stride : i32 -> tensor<4x1xi32>
  %roff = arith.muli %rows2, %ss : tensor<4x1xi32>
  %roffb = tile.broadcast %roff : tensor<4x1xi32> -> tensor<4x1024xi32>
  %colsb = tile.broadcast %cols2 : tensor<1x1024xi32> -> tensor<4x1024xi32>
  %off = arith.addi %roffb, %colsb : tensor<4x1024xi32>
  %Ms = tile.splat %M : i32 -> tensor<4x1xi32>
  %mr = arith.cmpi slt, %rows2, %Ms : tensor<4x1xi32>
  %Ns = tile.splat %N : i32 -> tensor<1x1024xi32>
  %mc = arith.cmpi slt, %cols2, %Ns : tensor<1x1024xi32>
  %mrb = tile.broadcast %mr : tensor<4x1xi1> -> tensor<4x1024xi1>
  %mcb = tile.broadcast %mc : tensor<1x1024xi1> -> tensor<4x1024xi1>
  %mask = arith.andi %mrb, %mcb : tensor<4x1024xi1>
  %ib = tile.splat %inp : !tile.ptr<f32> -> tensor<4x1024x!tile.ptr<f32>>
  %ip = tile.addptr %ib, %off : tensor<4x1024x!tile.ptr<f32>>, tensor<4x1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<4x1024xf32>
  %x = tile.load %ip, mask %mask, other %ninf : tensor<4x1024x!tile.ptr<f32>>
  %m = tile.reduce max %x, axis 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %m2 = tile.expand_dims %m, 1 : tensor<4xf32> -> tensor<4x1xf32>
  %mb = tile.broadcast %m2 : tensor<4x1xf32> -> tensor<4x1024xf32>
  %xm = arith.subf %x, %mb : tensor<4x1024xf32>
  %num = math.exp %xm : tensor<4x1024xf32>
  %den = tile.reduce sum %num, axis 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %den2 = tile.expand_dims %den, 1 : tensor<4xf32> -> tensor<4x1xf32>
  %denb = tile.broadcast %den2 : tensor<4x1xf32> -> tensor<4x1024xf32>
  %y = arith.divf %num, %denb : tensor<4x1024xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<4x1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %off : tensor<4x1024x!tile.ptr<f32>>, tensor<4x1024xi32>
  tile.store %op, %y, mask %mask : tensor<4x1024x!tile.ptr<f32>>
  return
}

// -----

// A row sum over a loop (layer norm's first pass): the accumulator is carried in the
// loads' layout, the reduction after the loop takes it; no conversion. The loop asks for
// stages itself (range(..., num_stages=3): a loop with a constant step is prefetched only
// then), so tile-prefetch issues each iteration's load one iteration ahead: the first
// before the loop, the next at the top of the body, masked off past the end, carried
// beside the accumulator.
// CHECK: #[[V:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @row_sum
// CHECK-NOT: tile.convert_layout
// CHECK: %[[FIRST:.*]] = tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} {vec = 4 : i32} : tensor<512x!tile.ptr<f32>, #[[V]]>
// CHECK: scf.for %[[IV:.*]] = {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[CUR:.*]] = %[[FIRST]]) -> (tensor<512xf32, #[[V]]>, tensor<512xf32, #[[V]]>)
// CHECK: %[[NEXT:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK: %[[VALID:.*]] = arith.cmpi slt, %[[NEXT]], %{{.*}} : i32
// CHECK: tile.splat %[[VALID]] : i1 -> tensor<512xi1, #[[V]]>
// CHECK: %[[AHEAD:.*]] = tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} {vec = 4 : i32} : tensor<512x!tile.ptr<f32>, #[[V]]>
// CHECK: arith.addf %{{.*}}, %[[CUR]]
// CHECK: scf.yield %{{.*}}, %[[AHEAD]]
// CHECK: tile.reduce sum %{{.*}}, axis 0 : tensor<512xf32, #[[V]]> -> f32
// CHECK-NOT: tile.convert_layout
func.func @row_sum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32>,
                   %stride: i32 {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %row = tile.program_id 0
  %c0 = arith.constant 0 : i32
  %c512 = arith.constant 512 : i32
  %zero = arith.constant dense<0.0> : tensor<512xf32>
  %roff = arith.muli %row, %stride : i32
  %xrow = tile.addptr %x, %roff : !tile.ptr<f32>, i32
  %acc = scf.for %k = %c0 to %N step %c512 iter_args(%a = %zero) -> (tensor<512xf32>) : i32 {
    %r = tile.make_range 0 to 512 : tensor<512xi32>
    %ks = tile.splat %k : i32 -> tensor<512xi32>
    %cols = arith.addi %ks, %r : tensor<512xi32>
    %Ns = tile.splat %N : i32 -> tensor<512xi32>
    %mask = arith.cmpi slt, %cols, %Ns : tensor<512xi32>
    %pb = tile.splat %xrow : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
    %p = tile.addptr %pb, %cols : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
    %v = tile.load %p, mask %mask, other %zero : tensor<512x!tile.ptr<f32>>
    %s = arith.addf %a, %v : tensor<512xf32>
    scf.yield %s : tensor<512xf32>
  } {tile.num_stages = 3 : i32}
  %sum = tile.reduce sum %acc, axis 0 : tensor<512xf32> -> f32
  %o = tile.addptr %out, %row : !tile.ptr<f32>, i32
  tile.store %o, %sum : !tile.ptr<f32>
  return
}

// -----

// Matmul with loop-carried pointers (`a_ptrs += BK`), on sm_90 (mma.sync): the pointers
// are carried in the loads' (16-byte, 8 x f16) layouts, and tile-pipeline turns the
// loads into cp.async copies into 3-slot rings, two iterations ahead: the pointers of
// iteration i + 2 are the carried ones advanced twice. The accumulator stays in the mma
// layout around the loop; one conversion is left, to the coalesced store after the loop.
// CHECK-DAG: #[[A:.*]] = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B:.*]] = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @matmul
// CHECK: %[[RA:.*]] = tile.local_alloc -> !tile.smem<3x64x32xf16
// CHECK: %[[RB:.*]] = tile.local_alloc -> !tile.smem<3x32x64xf16
// CHECK: tile.async_copy %{{.*}}, %{{.*}}, mask %{{.*}} {vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #[[A]]>
// CHECK: tile.async_commit
// CHECK: tile.async_commit
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #{{.*}}>, tensor<64x32x!tile.ptr<f16>, #[[A]]>, tensor<32x64x!tile.ptr<f16>, #[[B]]>)
// CHECK-NOT: tile.load
// CHECK:   tile.async_wait {pending = 1 : i32}
// CHECK:   %[[NA:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<64x32x!tile.ptr<f16>, #[[A]]>
// CHECK:   tile.async_copy %[[NA]]
// CHECK:   tile.async_commit
// CHECK:   tile.local_load
// CHECK:   tile.local_load
// CHECK:   tile.dot
// CHECK-NOT: tile.convert_layout
// CHECK:   scf.yield
// CHECK: tile.async_wait {pending = 0 : i32}
// CHECK: tile.convert_layout
// CHECK: tile.store %{{.*}}, %{{.*}} {vec = 4 : i32}
// CHECK-NOT: tile.convert_layout
func.func @matmul(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                  %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %K: i32 {tile.divisibility = 16 : i32},
                  %sam: i32 {tile.divisibility = 16 : i32}, %sbk: i32 {tile.divisibility = 16 : i32},
                  %scm: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %rm = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rm2 = tile.expand_dims %rm, 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rk2 = tile.expand_dims %rk, 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rk2c = tile.expand_dims %rk, 1 : tensor<32xi32> -> tensor<32x1xi32>
  %rn2 = tile.expand_dims %rm, 0 : tensor<64xi32> -> tensor<1x64xi32>
  %sams = tile.splat %sam : i32 -> tensor<64x1xi32>
  %am = arith.muli %rm2, %sams : tensor<64x1xi32>
  %amb = tile.broadcast %am : tensor<64x1xi32> -> tensor<64x32xi32>
  %akb = tile.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %sbks = tile.splat %sbk : i32 -> tensor<32x1xi32>
  %bk = arith.muli %rk2c, %sbks : tensor<32x1xi32>
  %bkb = tile.broadcast %bk : tensor<32x1xi32> -> tensor<32x64xi32>
  %bnb = tile.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %bstep = arith.muli %sbk, %c32 : i32
  %res:3 = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero, %ap = %ap0, %bp = %bp0)
      -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    %at = tile.load %ap : tensor<64x32x!tile.ptr<f16>>
    %bt = tile.load %bp : tensor<32x64x!tile.ptr<f16>>
    %acc2 = tile.dot %at, %bt, %acc : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %c32s = tile.splat %c32 : i32 -> tensor<64x32xi32>
    %ap2 = tile.addptr %ap, %c32s : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %bsteps = tile.splat %bstep : i32 -> tensor<32x64xi32>
    %bp2 = tile.addptr %bp, %bsteps : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %acc2, %ap2, %bp2 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  %scms = tile.splat %scm : i32 -> tensor<64x1xi32>
  %cm = arith.muli %rm2, %scms : tensor<64x1xi32>
  %cmb = tile.broadcast %cm : tensor<64x1xi32> -> tensor<64x64xi32>
  %cnb = tile.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %cmb, %cnb : tensor<64x64xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp, %res#0 : tensor<64x64x!tile.ptr<f32>>
  return
}
