// The verifier errors of tile.permute_xor, and one that parses and prints back.
// RUN: tile-opt %s -split-input-file -verify-diagnostics
// RUN: tile-opt %s -split-input-file -verify-diagnostics 2>/dev/null | FileCheck %s

// CHECK-LABEL: func.func @roundtrip
// CHECK: tile.permute_xor %{{.*}}, axis 1, mask 7 : tensor<4x8xf32>
func.func @roundtrip(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = tile.permute_xor %x, axis 1, mask 7 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @axis(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{axis 1 is out of range for a rank-1 tile (0..0)}}
  %y = tile.permute_xor %x, axis 1, mask 1 : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @mask(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{mask 8 must be in 1..7 for an axis of 8}}
  %y = tile.permute_xor %x, axis 0, mask 8 : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @zero(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{mask 0 must be in 1..7 for an axis of 8}}
  %y = tile.permute_xor %x, axis 0, mask 0 : tensor<8xf32>
  return %y : tensor<8xf32>
}
