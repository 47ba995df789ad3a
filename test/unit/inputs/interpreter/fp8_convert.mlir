// kConvert of test/unit/interpreter_fp8_test.cpp (fp8 conversions, loads and stores).
func.func @convert(%x: !tile.ptr<f32>, %q4: !tile.ptr<f8E4M3FN>, %q5: !tile.ptr<f8E5M2>,
                   %y4: !tile.ptr<f32>, %y5: !tile.ptr<f32>, %h4: !tile.ptr<f16>,
                   %b5: !tile.ptr<bf16>, %n: i32) attributes {tile.kernel} {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xa, mask %m : tensor<64x!tile.ptr<f32>>
  %a = arith.truncf %v : tensor<64xf32> to tensor<64xf8E4M3FN>
  %b = arith.truncf %v : tensor<64xf32> to tensor<64xf8E5M2>
  %qp4 = tile.splat %q4 : !tile.ptr<f8E4M3FN> -> tensor<64x!tile.ptr<f8E4M3FN>>
  %qa4 = tile.addptr %qp4, %r : tensor<64x!tile.ptr<f8E4M3FN>>, tensor<64xi32>
  tile.store %qa4, %a, mask %m : tensor<64x!tile.ptr<f8E4M3FN>>
  %qp5 = tile.splat %q5 : !tile.ptr<f8E5M2> -> tensor<64x!tile.ptr<f8E5M2>>
  %qa5 = tile.addptr %qp5, %r : tensor<64x!tile.ptr<f8E5M2>>, tensor<64xi32>
  tile.store %qa5, %b, mask %m : tensor<64x!tile.ptr<f8E5M2>>
  %one = arith.constant dense<1.0> : tensor<64xf8E4M3FN>
  %l4 = tile.load %qa4, mask %m, other %one : tensor<64x!tile.ptr<f8E4M3FN>>
  %l5 = tile.load %qa5, mask %m : tensor<64x!tile.ptr<f8E5M2>>
  %w4 = arith.extf %l4 : tensor<64xf8E4M3FN> to tensor<64xf32>
  %w5 = arith.extf %l5 : tensor<64xf8E5M2> to tensor<64xf32>
  %g4 = arith.extf %l4 : tensor<64xf8E4M3FN> to tensor<64xf16>
  %g5 = arith.extf %l5 : tensor<64xf8E5M2> to tensor<64xbf16>
  %yp4 = tile.splat %y4 : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ya4 = tile.addptr %yp4, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %ya4, %w4, mask %m : tensor<64x!tile.ptr<f32>>
  %yp5 = tile.splat %y5 : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ya5 = tile.addptr %yp5, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %ya5, %w5, mask %m : tensor<64x!tile.ptr<f32>>
  %hp = tile.splat %h4 : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
  %ha = tile.addptr %hp, %r : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  tile.store %ha, %g4, mask %m : tensor<64x!tile.ptr<f16>>
  %bp = tile.splat %b5 : !tile.ptr<bf16> -> tensor<64x!tile.ptr<bf16>>
  %ba = tile.addptr %bp, %r : tensor<64x!tile.ptr<bf16>>, tensor<64xi32>
  tile.store %ba, %g5, mask %m : tensor<64x!tile.ptr<bf16>>
  return
}
