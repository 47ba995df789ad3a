// ErrorsInInlinedHelpersNameTheCallSites of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel, tile.arg_names = ["x"]} {
  %c9 = arith.constant 9 : i32
  %p = tile.addptr %x, %c9 : !tile.ptr<f32>, i32
  %v = tile.load %p : !tile.ptr<f32> loc(callsite("lib.tile":3:12 at callsite("k.tile":8:5 at "k.tile":20:3)))
  return
}
