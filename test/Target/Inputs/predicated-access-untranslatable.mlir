// Accesses marked #tile.predicated_access that the tile dialect's translation refuses
// (test/Target/predicated-access-errors.mlir): each passes the verifier.

llvm.func @register_address(%m: i1, %p: !llvm.ptr<1>) -> i32 {
  // expected-error @below {{a predicated global access: the address operand #1 must have the constraint "*m" (constraints "=r,b,l")}}
  %v = llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<load, address = 1>} "@$1 ld.global.b32 $0, [$2];", "=r,b,l" %m, %p : (i1, !llvm.ptr<1>) -> i32
  llvm.return %v : i32
}

// -----

llvm.func @address_not_a_pointer(%m: i1, %p: !llvm.ptr<1>) -> i32 {
  // expected-error @below {{a predicated global access: operand #0 is not its address (a pointer)}}
  %v = llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<load, address = 0>} "@$1 ld.global.b32 $0, $2;", "=r,b,*m" %m, %p : (i1, !llvm.ptr<1>) -> i32
  llvm.return %v : i32
}

// -----

llvm.func @without_side_effects(%m: i1, %p: !llvm.ptr<1>) -> i32 {
  // expected-error @below {{a predicated global access must be marked has_side_effects}}
  %v = llvm.inline_asm {tile.predicated_access = #tile.predicated_access<load, address = 1>} "@$1 ld.global.b32 $0, $2;", "=r,b,*m" %m, %p : (i1, !llvm.ptr<1>) -> i32
  llvm.return %v : i32
}
