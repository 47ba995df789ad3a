// The verifier errors of tile.scan, and one that parses and prints back.
// RUN: tile-opt %s -split-input-file -verify-diagnostics
// RUN: tile-opt %s -split-input-file -verify-diagnostics 2>/dev/null | FileCheck %s

// CHECK-LABEL: func.func @roundtrip
// CHECK: %{{.*}}:2 = tile.scan %{{.*}}, %{{.*}} axis 1 reverse : tensor<4x8xf32>, tensor<4x8xi32> -> tensor<4x8xf32>, tensor<4x8xi32> {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
// CHECK: tile.scan_return %{{.*}}, %{{.*}} : f32, i32
func.func @roundtrip(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) {
  %r:2 = tile.scan %x, %i axis 1 reverse : tensor<4x8xf32>, tensor<4x8xi32> -> tensor<4x8xf32>, tensor<4x8xi32> {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %s = arith.addf %a, %b : f32
    %t = arith.addi %ai, %bi : i32
    tile.scan_return %s, %t : f32, i32
  }
  return
}

// -----

func.func @axis(%x: tensor<8xf32>) {
  // expected-error@+1 {{axis 1 is out of range for a rank-1 tile (0..0)}}
  %r = tile.scan %x axis 1 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.scan_return %s : f32
  }
  return
}

// -----

func.func @arity(%x: tensor<8xf32>) {
  // expected-error@+1 {{combiner takes 3 arguments; it must take 2 (the earlier then the later scalars of each source)}}
  %r = tile.scan %x axis 0 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32):
    tile.scan_return %a : f32
  }
  return
}

// -----

func.func @returns(%x: tensor<8xf32>) {
  %r = tile.scan %x axis 0 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.fptosi %a : f32 to i32
    // expected-error@+1 {{value 0 is 'i32', not 'f32'}}
    tile.scan_return %s : i32
  }
  return
}

// -----

func.func @result_type(%x: tensor<8xf32>) {
  // expected-error@+1 {{result 'tensor<8xi32>' is not its source's type 'tensor<8xf32>'}}
  %r = tile.scan %x axis 0 : tensor<8xf32> -> tensor<8xi32> {
  ^bb0(%a: f32, %b: f32):
    tile.scan_return %a : f32
  }
  return
}

// -----

func.func @shapes(%x: tensor<8xf32>, %y: tensor<16xf32>) {
  // expected-error@+1 {{sources differ in shape or layout}}
  %r:2 = tile.scan %x, %y axis 0 : tensor<8xf32>, tensor<16xf32> -> tensor<8xf32>, tensor<16xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tile.scan_return %a, %b : f32, f32
  }
  return
}

// -----

func.func @tiles_inside(%x: tensor<8xf32>) {
  %r = tile.scan %x axis 0 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    // expected-error@+1 {{in a tile.scan combiner makes a tile; the combiner works on scalars}}
    %t = tile.splat %a : f32 -> tensor<8xf32>
    tile.scan_return %a : f32
  }
  return
}

// -----

func.func @side_effects(%x: tensor<8xf32>, %p: !tile.ptr<f32>) {
  %r = tile.scan %x axis 0 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    // expected-error@+1 {{in a tile.scan combiner has side effects; the combiner must be pure}}
    tile.print "x" %a : f32
    tile.scan_return %a : f32
  }
  return
}
