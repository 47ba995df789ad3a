// RUN: tile-opt %s -split-input-file -verify-diagnostics
// RUN: tile-translate --mlir-to-llvmir %S/Inputs/predicated-access-untranslatable.mlir -split-input-file -verify-diagnostics

// #tile.predicated_access is checked where it is attached (the tile dialect's verifier)
// and where it is translated (TileToLLVMIRTranslation.cpp): an access the translation
// does not recognise is an error, never left as it is.

llvm.func @not_asm(%p: !llvm.ptr<1>) -> i32 {
  // expected-error @below {{'tile.predicated_access' marks an llvm.inline_asm, not this op}}
  %v = llvm.load %p {tile.predicated_access = #tile.predicated_access<load, address = 0>} : !llvm.ptr<1> -> i32
  llvm.return %v : i32
}

// -----

llvm.func @address_out_of_range(%m: i1, %p: !llvm.ptr<1>) -> i32 {
  // expected-error @below {{'tile.predicated_access': address operand #2 of 2 operands}}
  %v = llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<load, address = 2>} "@$1 ld.global.b32 $0, $2;", "=r,b,*m" %m, %p : (i1, !llvm.ptr<1>) -> i32
  llvm.return %v : i32
}

// -----

llvm.func @store_with_result(%m: i1, %p: !llvm.ptr<1>) -> i32 {
  // expected-error @below {{'tile.predicated_access': a predicated store has no result}}
  %v = llvm.inline_asm has_side_effects {tile.predicated_access = #tile.predicated_access<store, address = 1>} "@$1 ld.global.b32 $0, $2;", "=r,b,*m" %m, %p : (i1, !llvm.ptr<1>) -> i32
  llvm.return %v : i32
}

// -----

llvm.func @not_an_access(%m: i1, %p: !llvm.ptr<1>) {
  // expected-error @below {{'tile.predicated_access' must be a #tile.predicated_access, not 1 : i32}}
  llvm.inline_asm has_side_effects {tile.predicated_access = 1 : i32} "@$0 st.global.b32 $1, 0;", "b,*m" %m, %p : (i1, !llvm.ptr<1>) -> ()
  llvm.return
}
