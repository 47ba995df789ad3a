// RUN: tile-opt %s -split-input-file -tile-remove-layout-conversions | FileCheck %s

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#V = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// What tile-coalesce leaves for vector add: pointers, masks and `other` are re-created
// in the memory ops' layout, the addition follows the loads' layout, and the stored
// value needs no conversion: none is left, and the originals are gone.
// CHECK-LABEL: func.func @vector_add
// CHECK-NOT: tile.convert_layout
// CHECK-NOT: #tile.blocked<{sizePerThread = [1]
// CHECK: %[[R:.*]] = tile.make_range 0 to 1024 : tensor<1024xi32, #[[V:.*]]>
// CHECK: %[[M:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1024xi32, #[[V]]>
// CHECK: %[[A:.*]] = tile.load %{{.*}}, mask %[[M]] : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[V]]>
// CHECK: %[[B:.*]] = tile.load %{{.*}}, mask %[[M]], other %[[Z]] : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[B]] : tensor<1024xf32, #[[V]]>
// CHECK: tile.store %{{.*}}, %[[S]], mask %[[M]] : tensor<1024x!tile.ptr<f32>, #[[V]]>
// CHECK-NOT: tile.convert_layout
func.func @vector_add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #L>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #L>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #L>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #L>
  %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #L>, tensor<1024xi32, #L>
  %xpv = tile.convert_layout %xp : tensor<1024x!tile.ptr<f32>, #L> -> tensor<1024x!tile.ptr<f32>, #V>
  %mv = tile.convert_layout %m : tensor<1024xi1, #L> -> tensor<1024xi1, #V>
  %av = tile.load %xpv, mask %mv : tensor<1024x!tile.ptr<f32>, #V>
  %a = tile.convert_layout %av : tensor<1024xf32, #V> -> tensor<1024xf32, #L>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #L>
  %yp = tile.addptr %ys, %r : tensor<1024x!tile.ptr<f32>, #L>, tensor<1024xi32, #L>
  %zero = arith.constant dense<0.0> : tensor<1024xf32, #L>
  %ypv = tile.convert_layout %yp : tensor<1024x!tile.ptr<f32>, #L> -> tensor<1024x!tile.ptr<f32>, #V>
  %mv2 = tile.convert_layout %m : tensor<1024xi1, #L> -> tensor<1024xi1, #V>
  %zv = tile.convert_layout %zero : tensor<1024xf32, #L> -> tensor<1024xf32, #V>
  %bv = tile.load %ypv, mask %mv2, other %zv : tensor<1024x!tile.ptr<f32>, #V>
  %b = tile.convert_layout %bv : tensor<1024xf32, #V> -> tensor<1024xf32, #L>
  %s = arith.addf %a, %b : tensor<1024xf32, #L>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #L>
  %op = tile.addptr %os, %r : tensor<1024x!tile.ptr<f32>, #L>, tensor<1024xi32, #L>
  %opv = tile.convert_layout %op : tensor<1024x!tile.ptr<f32>, #L> -> tensor<1024x!tile.ptr<f32>, #V>
  %sv = tile.convert_layout %s : tensor<1024xf32, #L> -> tensor<1024xf32, #V>
  %mv3 = tile.convert_layout %m : tensor<1024xi1, #L> -> tensor<1024xi1, #V>
  tile.store %opv, %sv, mask %mv3 : tensor<1024x!tile.ptr<f32>, #V>
  return
}

// -----

#A = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#C = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>

// Conversions of conversions fold into one; a conversion to the layout a value has
// disappears. Loaded data cannot be re-created: a transpose keeps exactly one.
// CHECK-DAG: #[[A:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[C:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @fold
// CHECK: %[[X:.*]] = tile.load %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[A]]>
// CHECK: %[[XC:.*]] = tile.convert_layout %[[X]] : tensor<64x64xf32, #[[A]]> -> tensor<64x64xf32, #[[C]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %{{.*}}, %[[XC]] : tensor<64x64x!tile.ptr<f32>, #[[C]]>
func.func @fold(%pa: tensor<64x64x!tile.ptr<f32>, #A>, %pc: tensor<64x64x!tile.ptr<f32>, #C>) {
  %x = tile.load %pa : tensor<64x64x!tile.ptr<f32>, #A>
  %xb = tile.convert_layout %x : tensor<64x64xf32, #A> -> tensor<64x64xf32, #B>
  %xc = tile.convert_layout %xb : tensor<64x64xf32, #B> -> tensor<64x64xf32, #C>
  %xcc = tile.convert_layout %xc : tensor<64x64xf32, #C> -> tensor<64x64xf32, #C>
  tile.store %pc, %xcc : tensor<64x64x!tile.ptr<f32>, #C>
  return
}

// -----

#L = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#V = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#S = #tile.slice<{dim = 1, parent = #L}>

// Softmax rows: the loaded tile's layout flows through the reduction (its result
// becomes a slice of the new layout), expand_dims, broadcast, the arithmetic and the
// store; the 1-D division by a splat follows the slice.
// CHECK-DAG: #[[V:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SV:.*]] = #tile.slice<{dim = 1, parent = #[[V]]}>
// CHECK-LABEL: func.func @rows
// CHECK-NOT: tile.convert_layout
// CHECK: %[[X:.*]] = tile.load %{{.*}} : tensor<4x128x!tile.ptr<f32>, #[[V]]>
// CHECK: %[[M:.*]] = tile.reduce max %[[X]], axis 1 : tensor<4x128xf32, #[[V]]> -> tensor<4xf32, #[[SV]]>
// CHECK: %[[H:.*]] = arith.divf %[[M]], %{{.*}} : tensor<4xf32, #[[SV]]>
// CHECK: %[[E:.*]] = tile.expand_dims %[[H]], 1 : tensor<4xf32, #[[SV]]> -> tensor<4x1xf32, #[[V]]>
// CHECK: %[[B:.*]] = tile.broadcast %[[E]] : tensor<4x1xf32, #[[V]]> -> tensor<4x128xf32, #[[V]]>
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[B]] : tensor<4x128xf32, #[[V]]>
// CHECK: tile.store %{{.*}}, %[[D]] : tensor<4x128x!tile.ptr<f32>, #[[V]]>
// CHECK-NOT: tile.convert_layout
func.func @rows(%p: tensor<4x128x!tile.ptr<f32>, #V>, %two: f32) {
  %xv = tile.load %p : tensor<4x128x!tile.ptr<f32>, #V>
  %x = tile.convert_layout %xv : tensor<4x128xf32, #V> -> tensor<4x128xf32, #L>
  %m = tile.reduce max %x, axis 1 : tensor<4x128xf32, #L> -> tensor<4xf32, #S>
  %twos = tile.splat %two : f32 -> tensor<4xf32, #S>
  %h = arith.divf %m, %twos : tensor<4xf32, #S>
  %e = tile.expand_dims %h, 1 : tensor<4xf32, #S> -> tensor<4x1xf32, #L>
  %b = tile.broadcast %e : tensor<4x1xf32, #L> -> tensor<4x128xf32, #L>
  %d = arith.subf %x, %b : tensor<4x128xf32, #L>
  %dv = tile.convert_layout %d : tensor<4x128xf32, #L> -> tensor<4x128xf32, #V>
  tile.store %p, %dv : tensor<4x128x!tile.ptr<f32>, #V>
  return
}

// -----

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#V = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A loop-carried accumulator follows the load in the loop: the conversion inside the
// loop goes, the initial value is re-created in the new layout, and the result after
// the loop needs no conversion either (the reduction takes any layout).
// CHECK-DAG: #[[V:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @accumulate
// CHECK-NOT: tile.convert_layout
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<512xf32, #[[V]]>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[Z]]) -> (tensor<512xf32, #[[V]]>)
// CHECK:   %[[X:.*]] = tile.load %{{.*}} : tensor<512x!tile.ptr<f32>, #[[V]]>
// CHECK:   %[[S:.*]] = arith.addf %[[A]], %[[X]] : tensor<512xf32, #[[V]]>
// CHECK:   scf.yield %[[S]] : tensor<512xf32, #[[V]]>
// CHECK: tile.reduce sum %[[ACC]], axis 0 : tensor<512xf32, #[[V]]> -> f32
// CHECK-NOT: tile.convert_layout
func.func @accumulate(%p: tensor<512x!tile.ptr<f32>, #V>, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<512xf32, #L>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<512xf32, #L>) : i32 {
    %xv = tile.load %p : tensor<512x!tile.ptr<f32>, #V>
    %x = tile.convert_layout %xv : tensor<512xf32, #V> -> tensor<512xf32, #L>
    %s = arith.addf %a, %x : tensor<512xf32, #L>
    scf.yield %s : tensor<512xf32, #L>
  }
  %sum = tile.reduce sum %acc, axis 0 : tensor<512xf32, #L> -> f32
  return %sum : f32
}

// -----

#L = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#V = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

// Loop-carried pointers (`p += BK` each iteration) take the layout of the load that
// uses them, rather than being converted in every iteration; the loaded value carried
// out of the loop is converted once, after it.
// CHECK-DAG: #[[L:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[V:.*]] = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @pointers
// CHECK: %[[P0:.*]] = tile.convert_layout %{{.*}} : tensor<64x32x!tile.ptr<f16>, #[[L]]> -> tensor<64x32x!tile.ptr<f16>, #[[V]]>
// CHECK: %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[P:.*]] = %[[P0]], %{{.*}} = %{{.*}}) -> (tensor<64x32x!tile.ptr<f16>, #[[V]]>, tensor<64x32xf16, #[[V]]>)
// CHECK-NOT: tile.convert_layout
// CHECK:   %[[X:.*]] = tile.load %[[P]] : tensor<64x32x!tile.ptr<f16>, #[[V]]>
// CHECK:   %[[STEP:.*]] = tile.splat %{{.*}} : i32 -> tensor<64x32xi32, #[[V]]>
// CHECK:   %[[PN:.*]] = tile.addptr %[[P]], %[[STEP]] : tensor<64x32x!tile.ptr<f16>, #[[V]]>, tensor<64x32xi32, #[[V]]>
// CHECK:   scf.yield %[[PN]], %[[X]]
// CHECK: %[[OUT:.*]] = tile.convert_layout %[[R]]#1 : tensor<64x32xf16, #[[V]]> -> tensor<64x32xf16, #[[L]]>
// CHECK: return %[[OUT]]
func.func @pointers(%p0: tensor<64x32x!tile.ptr<f16>, #L>, %n: i32, %step: i32) -> tensor<64x32xf16, #L> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf16, #L>
  %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%p = %p0, %last = %zero) -> (tensor<64x32x!tile.ptr<f16>, #L>, tensor<64x32xf16, #L>) : i32 {
    %pv = tile.convert_layout %p : tensor<64x32x!tile.ptr<f16>, #L> -> tensor<64x32x!tile.ptr<f16>, #V>
    %xv = tile.load %pv : tensor<64x32x!tile.ptr<f16>, #V>
    %x = tile.convert_layout %xv : tensor<64x32xf16, #V> -> tensor<64x32xf16, #L>
    %steps = tile.splat %step : i32 -> tensor<64x32xi32, #L>
    %pn = tile.addptr %p, %steps : tensor<64x32x!tile.ptr<f16>, #L>, tensor<64x32xi32, #L>
    scf.yield %pn, %x : tensor<64x32x!tile.ptr<f16>, #L>, tensor<64x32xf16, #L>
  }
  return %res#1 : tensor<64x32xf16, #L>
}

// -----

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#V = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Two loaded tiles in different layouts meet: one conversion must stay, and moving it
// would not remove any. A value returned from the function keeps its type.
// CHECK-LABEL: func.func @meet
// CHECK-COUNT-1: tile.convert_layout
// CHECK-NOT: tile.convert_layout
// CHECK: return %{{.*}} : tensor<1024xf32, #{{.*}}>
func.func @meet(%pl: tensor<1024x!tile.ptr<f32>, #L>, %pv: tensor<1024x!tile.ptr<f32>, #V>) -> tensor<1024xf32, #L> {
  %a = tile.load %pl : tensor<1024x!tile.ptr<f32>, #L>
  %bv = tile.load %pv : tensor<1024x!tile.ptr<f32>, #V>
  %b = tile.convert_layout %bv : tensor<1024xf32, #V> -> tensor<1024xf32, #L>
  %s = arith.addf %a, %b : tensor<1024xf32, #L>
  return %s : tensor<1024xf32, #L>
}

// -----

#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#V = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// scf.if results follow their yielded values; the other branch's value is re-created.
// CHECK-DAG: #[[V:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @branch
// CHECK-NOT: tile.convert_layout
// CHECK: scf.if %{{.*}} -> (tensor<256xf32, #[[V]]>)
// CHECK: arith.constant dense<1.000000e+00> : tensor<256xf32, #[[V]]>
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor<256x!tile.ptr<f32>, #[[V]]>
func.func @branch(%p: tensor<256x!tile.ptr<f32>, #V>, %c: i1) {
  %r = scf.if %c -> tensor<256xf32, #L> {
    %xv = tile.load %p : tensor<256x!tile.ptr<f32>, #V>
    %x = tile.convert_layout %xv : tensor<256xf32, #V> -> tensor<256xf32, #L>
    scf.yield %x : tensor<256xf32, #L>
  } else {
    %one = arith.constant dense<1.0> : tensor<256xf32, #L>
    scf.yield %one : tensor<256xf32, #L>
  }
  %rv = tile.convert_layout %r : tensor<256xf32, #L> -> tensor<256xf32, #V>
  tile.store %p, %rv : tensor<256x!tile.ptr<f32>, #V>
  return
}

// -----

#L1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#D = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#V = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#DC = #tile.slice<{dim = 0, parent = #D}>

// Bias add: a loaded row is expanded and broadcast to the tile's shape, and the 64x64
// result converted to the store's layout. Converting the 64 loaded values (into the
// slice of the store's layout) and re-creating expand_dims and broadcast after them is
// cheaper: one conversion of 64 elements is left, none of 4096.
// CHECK-DAG: #[[V:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[VC:.*]] = #tile.slice<{dim = 0, parent = #[[V]]}>
// CHECK-LABEL: func.func @bias
// CHECK: %[[B:.*]] = tile.load %{{.*}} : tensor<64x!tile.ptr<f32>, #{{.*}}>
// CHECK: %[[BC:.*]] = tile.convert_layout %[[B]] : tensor<64xf32, #{{.*}}> -> tensor<64xf32, #[[VC]]>
// CHECK: %[[E:.*]] = tile.expand_dims %[[BC]], 0 : tensor<64xf32, #[[VC]]> -> tensor<1x64xf32, #[[V]]>
// CHECK: %[[BB:.*]] = tile.broadcast %[[E]] : tensor<1x64xf32, #[[V]]> -> tensor<64x64xf32, #[[V]]>
// CHECK: arith.addf %{{.*}}, %[[BB]] : tensor<64x64xf32, #[[V]]>
// CHECK-NOT: tile.convert_layout
func.func @bias(%pt: tensor<64x64x!tile.ptr<f32>, #V>, %pb: tensor<64x!tile.ptr<f32>, #L1>) {
  %t = tile.load %pt : tensor<64x64x!tile.ptr<f32>, #V>
  %b = tile.load %pb : tensor<64x!tile.ptr<f32>, #L1>
  %bc = tile.convert_layout %b : tensor<64xf32, #L1> -> tensor<64xf32, #DC>
  %e = tile.expand_dims %bc, 0 : tensor<64xf32, #DC> -> tensor<1x64xf32, #D>
  %bb = tile.broadcast %e : tensor<1x64xf32, #D> -> tensor<64x64xf32, #D>
  %bv = tile.convert_layout %bb : tensor<64x64xf32, #D> -> tensor<64x64xf32, #V>
  %s = arith.addf %t, %bv : tensor<64x64xf32, #V>
  tile.store %pt, %s : tensor<64x64x!tile.ptr<f32>, #V>
  return
}

// -----

// A random number's rounds (tl.rand's Philox: every round reads the last one's words
// twice) from the grid's offsets, in the layout tile-assign-layouts gave them, compared
// and converted to the store's: re-created in the store's layout from the offsets,
// without a conversion. The DAG has 25 ops but 2^12 paths: the search prices each
// (value, layout) once, so its budget counts ops, not paths.
#L = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#V = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @shared_operands
// CHECK-NOT: tile.convert_layout
// CHECK: tile.make_range 0 to 1024 : tensor<1024xi32, #[[V:.*]]>
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : tensor<1024xi32, #[[V]]>
// CHECK-NOT: tile.convert_layout
func.func @shared_operands(%out: !tile.ptr<i8>, %seed: i32) attributes {tile.kernel} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #L>
  %s = tile.splat %seed : i32 -> tensor<1024xi32, #L>
  %x0 = arith.addi %r, %s : tensor<1024xi32, #L>
  %m1 = arith.muli %x0, %x0 : tensor<1024xi32, #L>
  %x1 = arith.xori %m1, %x0 : tensor<1024xi32, #L>
  %m2 = arith.muli %x1, %x1 : tensor<1024xi32, #L>
  %x2 = arith.xori %m2, %x1 : tensor<1024xi32, #L>
  %m3 = arith.muli %x2, %x2 : tensor<1024xi32, #L>
  %x3 = arith.xori %m3, %x2 : tensor<1024xi32, #L>
  %m4 = arith.muli %x3, %x3 : tensor<1024xi32, #L>
  %x4 = arith.xori %m4, %x3 : tensor<1024xi32, #L>
  %m5 = arith.muli %x4, %x4 : tensor<1024xi32, #L>
  %x5 = arith.xori %m5, %x4 : tensor<1024xi32, #L>
  %m6 = arith.muli %x5, %x5 : tensor<1024xi32, #L>
  %x6 = arith.xori %m6, %x5 : tensor<1024xi32, #L>
  %m7 = arith.muli %x6, %x6 : tensor<1024xi32, #L>
  %x7 = arith.xori %m7, %x6 : tensor<1024xi32, #L>
  %m8 = arith.muli %x7, %x7 : tensor<1024xi32, #L>
  %x8 = arith.xori %m8, %x7 : tensor<1024xi32, #L>
  %m9 = arith.muli %x8, %x8 : tensor<1024xi32, #L>
  %x9 = arith.xori %m9, %x8 : tensor<1024xi32, #L>
  %m10 = arith.muli %x9, %x9 : tensor<1024xi32, #L>
  %x10 = arith.xori %m10, %x9 : tensor<1024xi32, #L>
  %m11 = arith.muli %x10, %x10 : tensor<1024xi32, #L>
  %x11 = arith.xori %m11, %x10 : tensor<1024xi32, #L>
  %m12 = arith.muli %x11, %x11 : tensor<1024xi32, #L>
  %x12 = arith.xori %m12, %x11 : tensor<1024xi32, #L>
  %c = arith.cmpi ugt, %x12, %s : tensor<1024xi32, #L>
  %cv = tile.convert_layout %c : tensor<1024xi1, #L> -> tensor<1024xi1, #V>
  %e = arith.extui %cv : tensor<1024xi1, #V> to tensor<1024xi8, #V>
  %os = tile.splat %out : !tile.ptr<i8> -> tensor<1024x!tile.ptr<i8>, #V>
  %rv = tile.make_range 0 to 1024 : tensor<1024xi32, #V>
  %op = tile.addptr %os, %rv : tensor<1024x!tile.ptr<i8>, #V>, tensor<1024xi32, #V>
  tile.store %op, %e : tensor<1024x!tile.ptr<i8>, #V>
  return
}
