// kPrint of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @show(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %n = tile.num_programs 0
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %v = tile.load %xa : tensor<4x!tile.ptr<f32>>
  %e = tile.expand_dims %v, 0 : tensor<4xf32> -> tensor<1x4xf32>
  %m = arith.cmpf ogt, %v, %v : tensor<4xf32>
  tile.print "x = " %v, %e, %pid, %n, %m : tensor<4xf32>, tensor<1x4xf32>, i32, i32, tensor<4xi1>
  tile.print "ptr" %xa : tensor<4x!tile.ptr<f32>>
  return
}
