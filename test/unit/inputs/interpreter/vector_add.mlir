// kVectorAdd of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @vector_add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.grid = ["cdiv(n, 1024)", "1", "1"],
                tile.arg_names = ["x", "y", "out", "n"]} {
  %pid = tile.program_id 0
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %bs = tile.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %bs, %r : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xa, mask %mask : tensor<1024x!tile.ptr<f32>>
  %yp = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %ya = tile.addptr %yp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %b = tile.load %ya, mask %mask, other %zero : tensor<1024x!tile.ptr<f32>>
  %s = arith.addf %a, %b : tensor<1024xf32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %oa = tile.addptr %op, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %oa, %s, mask %mask : tensor<1024x!tile.ptr<f32>>
  return
}
