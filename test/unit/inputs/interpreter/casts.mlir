// kCasts of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @casts(%x: !tile.ptr<f32>, %h: !tile.ptr<f16>, %bf: !tile.ptr<bf16>, %i: !tile.ptr<i8>, %u: !tile.ptr<i8>)
    attributes {tile.kernel} {
  %r = tile.make_range 0 to 8 : tensor<8xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %v = tile.load %xa : tensor<8x!tile.ptr<f32>>
  %vh = arith.truncf %v : tensor<8xf32> to tensor<8xf16>
  %vb = arith.truncf %v : tensor<8xf32> to tensor<8xbf16>
  %vi = arith.fptosi %v : tensor<8xf32> to tensor<8xi8>
  %vu = arith.fptoui %v : tensor<8xf32> to tensor<8xi8>
  %hp = tile.splat %h : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
  %ha = tile.addptr %hp, %r : tensor<8x!tile.ptr<f16>>, tensor<8xi32>
  tile.store %ha, %vh : tensor<8x!tile.ptr<f16>>
  %bp = tile.splat %bf : !tile.ptr<bf16> -> tensor<8x!tile.ptr<bf16>>
  %ba = tile.addptr %bp, %r : tensor<8x!tile.ptr<bf16>>, tensor<8xi32>
  tile.store %ba, %vb : tensor<8x!tile.ptr<bf16>>
  %ip = tile.splat %i : !tile.ptr<i8> -> tensor<8x!tile.ptr<i8>>
  %ia = tile.addptr %ip, %r : tensor<8x!tile.ptr<i8>>, tensor<8xi32>
  tile.store %ia, %vi : tensor<8x!tile.ptr<i8>>
  %up = tile.splat %u : !tile.ptr<i8> -> tensor<8x!tile.ptr<i8>>
  %ua = tile.addptr %up, %r : tensor<8x!tile.ptr<i8>>, tensor<8xi32>
  tile.store %ua, %vu : tensor<8x!tile.ptr<i8>>
  return
}
