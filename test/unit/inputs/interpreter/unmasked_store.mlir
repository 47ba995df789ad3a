// kUnmaskedStore of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @copy(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.grid = ["cdiv(n, 128)", "1", "1"], tile.arg_names = ["x", "out", "n"]} {
  %pid = tile.program_id 0
  %c128 = arith.constant 128 : i32
  %base = arith.muli %pid, %c128 : i32
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %bs = tile.splat %base : i32 -> tensor<128xi32>
  %offs = arith.addi %bs, %r : tensor<128xi32>
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %xa, mask %mask : tensor<128x!tile.ptr<f32>>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %oa = tile.addptr %op, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %oa, %v : tensor<128x!tile.ptr<f32>>
  return
}
