// kReadOut of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @twice(%out: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %oa = tile.addptr %op, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %v = tile.load %oa : tensor<4x!tile.ptr<f32>>
  %w = arith.addf %v, %v : tensor<4xf32>
  tile.store %oa, %w : tensor<4x!tile.ptr<f32>>
  return
}
