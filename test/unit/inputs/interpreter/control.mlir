// kControl of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func private @twice(%v: i32) -> i32 {
  %r = arith.addi %v, %v : i32
  return %r : i32
}
func.func @control(%out: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c1, %b = %c2, %s = %c0) -> (i32, i32, i32) : i32 {
    %rem = arith.remsi %i, %c2 : i32
    %even = arith.cmpi eq, %rem, %c0 : i32
    %t = scf.if %even -> (i32) {
      %d = func.call @twice(%i) : (i32) -> i32
      scf.yield %d : i32
    } else {
      scf.yield %i : i32
    }
    %s2 = arith.addi %s, %t : i32
    scf.yield %b, %a, %s2 : i32, i32, i32
  }
  %p1 = tile.addptr %out, %c1 : !tile.ptr<i32>, i32
  %p2 = tile.addptr %out, %c2 : !tile.ptr<i32>, i32
  tile.store %out, %res#0 : !tile.ptr<i32>
  tile.store %p1, %res#1 : !tile.ptr<i32>
  tile.store %p2, %res#2 : !tile.ptr<i32>
  return
}
