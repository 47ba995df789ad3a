// Folders of the tile ops, seen through the canonicalizer.
// RUN: tile-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: func.func @splat_constant
// CHECK: %[[C:.*]] = arith.constant dense<7> : tensor<64xi32>
// CHECK-NOT: tile.splat
// CHECK: return %[[C]]
func.func @splat_constant() -> tensor<64xi32> {
  %c = arith.constant 7 : i32
  %s = tile.splat %c : i32 -> tensor<64xi32>
  return %s : tensor<64xi32>
}

// CHECK-LABEL: func.func @broadcast_identity
// CHECK-NOT: tile.broadcast
// CHECK: return %arg0
func.func @broadcast_identity(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %b = tile.broadcast %x : tensor<4x64xf32> -> tensor<4x64xf32>
  return %b : tensor<4x64xf32>
}

// CHECK-LABEL: func.func @broadcast_splat
// CHECK: arith.constant dense<2.500000e+00> : tensor<8x64xf32>
// CHECK-NOT: tile.broadcast
func.func @broadcast_splat() -> tensor<8x64xf32> {
  %c = arith.constant dense<2.5> : tensor<1x64xf32>
  %b = tile.broadcast %c : tensor<1x64xf32> -> tensor<8x64xf32>
  return %b : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @addptr_zero
// CHECK-NOT: tile.addptr
// CHECK: return %arg0
func.func @addptr_zero(%p: tensor<64x!tile.ptr<f32>>) -> tensor<64x!tile.ptr<f32>> {
  %z = arith.constant dense<0> : tensor<64xi32>
  %q = tile.addptr %p, %z : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  return %q : tensor<64x!tile.ptr<f32>>
}

// CHECK-LABEL: func.func @convert_identity
// CHECK-NOT: tile.convert_layout
func.func @convert_identity(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c = tile.convert_layout %x : tensor<64xf32> -> tensor<64xf32>
  return %c : tensor<64xf32>
}

// Loads and stores have memory effects: the canonicalizer keeps a store and drops an
// unused load only because reads without uses are dead.
// CHECK-LABEL: func.func @effects
// CHECK-NOT: tile.load
// CHECK: tile.store
func.func @effects(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<64xf32>) {
  %l = tile.load %p : tensor<64x!tile.ptr<f32>>
  tile.store %p, %v : tensor<64x!tile.ptr<f32>>
  return
}
