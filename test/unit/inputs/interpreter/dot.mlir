// kDot of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @dot(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel} {
  %r16 = tile.make_range 0 to 16 : tensor<16xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %c32 = arith.constant dense<32> : tensor<16xi32>
  %c16 = arith.constant dense<16> : tensor<32xi32>
  %arow = arith.muli %r16, %c32 : tensor<16xi32>
  %are = tile.expand_dims %arow, 1 : tensor<16xi32> -> tensor<16x1xi32>
  %arb = tile.broadcast %are : tensor<16x1xi32> -> tensor<16x32xi32>
  %ace = tile.expand_dims %r32, 0 : tensor<32xi32> -> tensor<1x32xi32>
  %acb = tile.broadcast %ace : tensor<1x32xi32> -> tensor<16x32xi32>
  %aoff = arith.addi %arb, %acb : tensor<16x32xi32>
  %ap = tile.splat %a : !tile.ptr<f16> -> tensor<16x32x!tile.ptr<f16>>
  %apa = tile.addptr %ap, %aoff : tensor<16x32x!tile.ptr<f16>>, tensor<16x32xi32>
  %av = tile.load %apa : tensor<16x32x!tile.ptr<f16>>
  %brow = arith.muli %r32, %c16 : tensor<32xi32>
  %bre = tile.expand_dims %brow, 1 : tensor<32xi32> -> tensor<32x1xi32>
  %brb = tile.broadcast %bre : tensor<32x1xi32> -> tensor<32x16xi32>
  %bce = tile.expand_dims %r16, 0 : tensor<16xi32> -> tensor<1x16xi32>
  %bcb = tile.broadcast %bce : tensor<1x16xi32> -> tensor<32x16xi32>
  %boff = arith.addi %brb, %bcb : tensor<32x16xi32>
  %bp = tile.splat %b : !tile.ptr<f16> -> tensor<32x16x!tile.ptr<f16>>
  %bpa = tile.addptr %bp, %boff : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi32>
  %bv = tile.load %bpa : tensor<32x16x!tile.ptr<f16>>
  %acc = arith.constant dense<1.0> : tensor<16x16xf32>
  %d = tile.dot %av, %bv, %acc : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>
  %c16b = arith.constant dense<16> : tensor<16xi32>
  %crow = arith.muli %r16, %c16b : tensor<16xi32>
  %cre = tile.expand_dims %crow, 1 : tensor<16xi32> -> tensor<16x1xi32>
  %crb = tile.broadcast %cre : tensor<16x1xi32> -> tensor<16x16xi32>
  %ccb = tile.broadcast %bce : tensor<1x16xi32> -> tensor<16x16xi32>
  %coff = arith.addi %crb, %ccb : tensor<16x16xi32>
  %cp = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  %cpa = tile.addptr %cp, %coff : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
  tile.store %cpa, %d : tensor<16x16x!tile.ptr<f32>>
  return
}
