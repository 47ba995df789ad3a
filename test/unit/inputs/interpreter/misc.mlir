// kMisc of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @misc(%h: !tile.ptr<f16>, %out: !tile.ptr<i32>, %hout: !tile.ptr<f16>, %flag: i1)
    attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  // while (i < 100) i = i * 2 + 1
  %w = scf.while (%i = %c1) : (i32) -> i32 {
    %lt = arith.cmpi slt, %i, %c100 : i32
    scf.condition(%lt) %i : i32
  } do {
  ^bb0(%j: i32):
    %d = arith.addi %j, %j : i32
    %e = arith.addi %d, %c1 : i32
    scf.yield %e : i32
  }
  tile.store %out, %w : !tile.ptr<i32>
  %big = arith.constant dense<[2147483647, 1, 0, 0]> : tensor<4xi32>
  %s = tile.reduce sum %big, axis 0 : tensor<4xi32> -> i32
  %p1 = tile.addptr %out, %c1 : !tile.ptr<i32>, i32
  tile.store %p1, %s : !tile.ptr<i32>
  %a = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = arith.constant dense<[5, 6, 7, 8]> : tensor<4xi32>
  %sel = arith.select %flag, %a, %b : tensor<4xi32>
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %c2 = arith.constant dense<2> : tensor<4xi32>
  %r2 = arith.addi %r, %c2 : tensor<4xi32>
  %op = tile.splat %out : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %oa = tile.addptr %op, %r2 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %oa, %sel : tensor<4x!tile.ptr<i32>>
  %hp = tile.splat %h : !tile.ptr<f16> -> tensor<4x!tile.ptr<f16>>
  %ha = tile.addptr %hp, %r : tensor<4x!tile.ptr<f16>>, tensor<4xi32>
  %hv = tile.load %ha : tensor<4x!tile.ptr<f16>>
  %hs = arith.addf %hv, %hv : tensor<4xf16>
  %hm = arith.mulf %hs, %hv : tensor<4xf16>
  %hop = tile.splat %hout : !tile.ptr<f16> -> tensor<4x!tile.ptr<f16>>
  %hoa = tile.addptr %hop, %r : tensor<4x!tile.ptr<f16>>, tensor<4xi32>
  tile.store %hoa, %hm : tensor<4x!tile.ptr<f16>>
  return
}
