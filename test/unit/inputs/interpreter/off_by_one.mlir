// kOffByOne of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @copy(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.arg_names = ["x", "out", "n"]} {
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %ns = tile.splat %n : i32 -> tensor<16xi32>
  %mask = arith.cmpi sle, %r, %ns : tensor<16xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %v = tile.load %xa, mask %mask : tensor<16x!tile.ptr<f32>>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %oa = tile.addptr %op, %r : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  tile.store %oa, %v, mask %mask : tensor<16x!tile.ptr<f32>>
  return
}
