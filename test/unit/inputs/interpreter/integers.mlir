// kIntegers of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @ints(%a: !tile.ptr<i32>, %b: !tile.ptr<i32>, %out: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.make_range 0 to 8 : tensor<8xi32>
  %ap = tile.splat %a : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %aa = tile.addptr %ap, %r : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  %bp = tile.splat %b : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %ba = tile.addptr %bp, %r : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  %x = tile.load %aa : tensor<8x!tile.ptr<i32>>
  %y = tile.load %ba : tensor<8x!tile.ptr<i32>>
  %add = arith.addi %x, %y : tensor<8xi32>
  %div = arith.divsi %x, %y : tensor<8xi32>
  %rem = arith.remsi %x, %y : tensor<8xi32>
  %shl = arith.shli %x, %y : tensor<8xi32>
  %shr = arith.shrsi %x, %y : tensor<8xi32>
  %c8 = arith.constant dense<8> : tensor<8xi32>
  %op = tile.splat %out : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %o0 = tile.addptr %op, %r : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o0, %add : tensor<8x!tile.ptr<i32>>
  %r1 = arith.addi %r, %c8 : tensor<8xi32>
  %o1 = tile.addptr %op, %r1 : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o1, %div : tensor<8x!tile.ptr<i32>>
  %r2 = arith.addi %r1, %c8 : tensor<8xi32>
  %o2 = tile.addptr %op, %r2 : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o2, %rem : tensor<8x!tile.ptr<i32>>
  %r3 = arith.addi %r2, %c8 : tensor<8xi32>
  %o3 = tile.addptr %op, %r3 : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o3, %shl : tensor<8x!tile.ptr<i32>>
  %r4 = arith.addi %r3, %c8 : tensor<8xi32>
  %o4 = tile.addptr %op, %r4 : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o4, %shr : tensor<8x!tile.ptr<i32>>
  return
}
