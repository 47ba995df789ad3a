// The scans of test/unit/interpreter_scan_test.cpp: cumulative sums of a 4x8 tile along
// each axis (axis 0 from the end), and a scan of (m, c) pairs composed as h -> m h + c
// (associative, not commutative), forward and reversed.
func.func @scan(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %pairs: !tile.ptr<i32>,
                %res: !tile.ptr<i32>) attributes {tile.kernel} {
  %r4 = tile.make_range 0 to 4 : tensor<4xi32>
  %r8 = tile.make_range 0 to 8 : tensor<8xi32>
  %c8 = arith.constant dense<8> : tensor<4xi32>
  %rows = arith.muli %r4, %c8 : tensor<4xi32>
  %re = tile.expand_dims %rows, 1 : tensor<4xi32> -> tensor<4x1xi32>
  %ce = tile.expand_dims %r8, 0 : tensor<8xi32> -> tensor<1x8xi32>
  %rb = tile.broadcast %re : tensor<4x1xi32> -> tensor<4x8xi32>
  %cb = tile.broadcast %ce : tensor<1x8xi32> -> tensor<4x8xi32>
  %offs = arith.addi %rb, %cb : tensor<4x8xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<4x8x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %offs : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi32>
  %v = tile.load %xa : tensor<4x8x!tile.ptr<f32>>
  %s1 = tile.scan %v axis 1 : tensor<4x8xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.scan_return %t : f32
  }
  %s0 = tile.scan %v axis 0 reverse : tensor<4x8xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.scan_return %t : f32
  }
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<4x8x!tile.ptr<f32>>
  %o1 = tile.addptr %op, %offs : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi32>
  tile.store %o1, %s1 : tensor<4x8x!tile.ptr<f32>>
  %c32 = arith.constant dense<32> : tensor<4x8xi32>
  %offs2 = arith.addi %offs, %c32 : tensor<4x8xi32>
  %o2 = tile.addptr %op, %offs2 : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi32>
  tile.store %o2, %s0 : tensor<4x8x!tile.ptr<f32>>

  %r16 = tile.make_range 0 to 16 : tensor<16xi32>
  %c16 = arith.constant dense<16> : tensor<16xi32>
  %r16b = arith.addi %r16, %c16 : tensor<16xi32>
  %pp = tile.splat %pairs : !tile.ptr<i32> -> tensor<16x!tile.ptr<i32>>
  %pm = tile.addptr %pp, %r16 : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  %pc = tile.addptr %pp, %r16b : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  %m = tile.load %pm : tensor<16x!tile.ptr<i32>>
  %c = tile.load %pc : tensor<16x!tile.ptr<i32>>
  %f:2 = tile.scan %m, %c axis 0 : tensor<16xi32>, tensor<16xi32> -> tensor<16xi32>, tensor<16xi32> {
  ^bb0(%m1: i32, %c1: i32, %m2: i32, %c2: i32):
    %mm = arith.muli %m1, %m2 : i32
    %cm = arith.muli %c1, %m2 : i32
    %cc = arith.addi %cm, %c2 : i32
    tile.scan_return %mm, %cc : i32, i32
  }
  %g:2 = tile.scan %m, %c axis 0 reverse : tensor<16xi32>, tensor<16xi32> -> tensor<16xi32>, tensor<16xi32> {
  ^bb0(%m1: i32, %c1: i32, %m2: i32, %c2: i32):
    %mm = arith.muli %m1, %m2 : i32
    %cm = arith.muli %c1, %m2 : i32
    %cc = arith.addi %cm, %c2 : i32
    tile.scan_return %mm, %cc : i32, i32
  }
  %rp = tile.splat %res : !tile.ptr<i32> -> tensor<16x!tile.ptr<i32>>
  %q0 = tile.addptr %rp, %r16 : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  tile.store %q0, %f#0 : tensor<16x!tile.ptr<i32>>
  %q1 = tile.addptr %rp, %r16b : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  tile.store %q1, %f#1 : tensor<16x!tile.ptr<i32>>
  %c32b = arith.constant dense<32> : tensor<16xi32>
  %r16c = arith.addi %r16, %c32b : tensor<16xi32>
  %q2 = tile.addptr %rp, %r16c : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  tile.store %q2, %g#0 : tensor<16x!tile.ptr<i32>>
  %c48 = arith.constant dense<48> : tensor<16xi32>
  %r16d = arith.addi %r16, %c48 : tensor<16xi32>
  %q3 = tile.addptr %rp, %r16d : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  tile.store %q3, %g#1 : tensor<16x!tile.ptr<i32>>
  return
}
