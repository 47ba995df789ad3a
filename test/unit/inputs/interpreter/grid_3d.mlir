// kGrid3 of test/unit/interpreter_kernel_test.cpp (the interpreter on hand-written tile IR).
func.func @grid(%out: !tile.ptr<i32>) attributes {tile.kernel} {
  %x = tile.program_id 0
  %y = tile.program_id 1
  %z = tile.program_id 2
  %nx = tile.num_programs 0
  %ny = tile.num_programs 1
  %t = arith.muli %z, %ny : i32
  %t2 = arith.addi %t, %y : i32
  %t3 = arith.muli %t2, %nx : i32
  %lin = arith.addi %t3, %x : i32
  %p = tile.addptr %out, %lin : !tile.ptr<i32>, i32
  %c100 = arith.constant 100 : i32
  %code0 = arith.muli %z, %c100 : i32
  %c10 = arith.constant 10 : i32
  %code1 = arith.muli %y, %c10 : i32
  %code2 = arith.addi %code0, %code1 : i32
  %code = arith.addi %code2, %x : i32
  tile.store %p, %code : !tile.ptr<i32>
  return
}
