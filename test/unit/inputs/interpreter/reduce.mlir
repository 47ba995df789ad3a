// kReduce of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @reduce(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %idx: !tile.ptr<i32>)
    attributes {tile.kernel} {
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
  %sum1 = tile.reduce sum %v, axis 1 : tensor<4x8xf32> -> tensor<4xf32>
  %max1 = tile.reduce max %v, axis 1 : tensor<4x8xf32> -> tensor<4xf32>
  %min0 = tile.reduce min %v, axis 0 : tensor<4x8xf32> -> tensor<8xf32>
  %am1 = tile.reduce argmax %v, axis 1 : tensor<4x8xf32> -> tensor<4xi32>
  %an0 = tile.reduce argmin %v, axis 0 : tensor<4x8xf32> -> tensor<8xi32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %o1 = tile.addptr %op, %r4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %o1, %sum1 : tensor<4x!tile.ptr<f32>>
  %c4 = arith.constant dense<4> : tensor<4xi32>
  %r4b = arith.addi %r4, %c4 : tensor<4xi32>
  %o2 = tile.addptr %op, %r4b : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %o2, %max1 : tensor<4x!tile.ptr<f32>>
  %op8 = tile.splat %out : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %c8b = arith.constant dense<8> : tensor<8xi32>
  %r8b = arith.addi %r8, %c8b : tensor<8xi32>
  %o3 = tile.addptr %op8, %r8b : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %o3, %min0 : tensor<8x!tile.ptr<f32>>
  %ip = tile.splat %idx : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %i1 = tile.addptr %ip, %r4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %i1, %am1 : tensor<4x!tile.ptr<i32>>
  %ip8 = tile.splat %idx : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %i2 = tile.addptr %ip8, %r8b : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %i2, %an0 : tensor<8x!tile.ptr<i32>>
  return
}
