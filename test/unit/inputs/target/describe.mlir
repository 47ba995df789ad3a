// Kernels for test/unit/target_describe_test.cpp (compiler/Target/KernelDescription.h): the
// metadata read from the attributes tcc --emit=tile gives a kernel.
module {
  // scale(x: *f16, out: *f32, n: i32, stride: i32, alpha: f32, BLOCK: constexpr = 1024,
  //       RELU: constexpr = True, SCALE: constexpr = 0.5, ACT: constexpr = "relu",
  //       T: constexpr = f16), grid (cdiv(n, BLOCK), 1, 1), num_stages 2: loads x, stores out.
  func.func @scale(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: f32) attributes {tile.arg_names = ["x", "out", "n", "stride", "alpha"], tile.constexprs = {ACT = "relu", BLOCK = 1024 : i64, RELU = true, SCALE = 5.000000e-01 : f64, T = f16}, tile.grid = ["cdiv(n, 1024)", "1", "1"], tile.kernel, tile.num_stages = 2 : i32, tile.num_warps = 8 : i32} {
    %0 = tile.program_id 0
    %c1024_i32 = arith.constant 1024 : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tile.splat %1 : i32 -> tensor<1024xi32>
    %3 = tile.make_range 0 to 1024 : tensor<1024xi32>
    %4 = arith.addi %2, %3 : tensor<1024xi32>
    %5 = tile.splat %arg2 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %8 = tile.splat %arg3 : i32 -> tensor<1024xi32>
    %9 = arith.muli %4, %8 : tensor<1024xi32>
    %10 = tile.addptr %7, %9 : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf16>
    %11 = tile.load %10, mask %6, other %cst : tensor<1024x!tile.ptr<f16>>
    %12 = tile.splat %arg1 : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
    %13 = tile.addptr %12, %4 : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    %14 = arith.extf %11 : tensor<1024xf16> to tensor<1024xf32>
    %15 = tile.splat %arg4 : f32 -> tensor<1024xf32>
    %16 = arith.mulf %14, %15 : tensor<1024xf32>
    tile.store %13, %16, mask %6 : tensor<1024x!tile.ptr<f32>>
    return
  }
  // No constexprs, no stages: the defaults.
  func.func @plain(%arg0: !tile.ptr<f32>, %arg1: i64) attributes {tile.arg_names = ["p", "count"], tile.grid = ["count", "2", "1"], tile.kernel} {
    return
  }
}
