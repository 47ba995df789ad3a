// UnsupportedOpsAreNamed of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @k(%x: i32) attributes {tile.kernel} {
  %y = math.ctpop %x : i32
  return
}
