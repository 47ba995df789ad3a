// The verifier errors of tile.atomic_rmw and tile.atomic_cas.
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @kind(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error@+1 {{unknown kind 'nand' (max, min, umax, umin, and, or, xor, xchg, add)}}
  %o = tile.atomic_rmw "nand" %p, %v {sem = "acq_rel", scope = "gpu"} : !tile.ptr<i32>
  return
}

// -----

func.func @float_max(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error@+1 {{'max' combines i32 or i64, not 'f32'}}
  %o = tile.atomic_rmw "max" %p, %v {sem = "acq_rel", scope = "gpu"} : !tile.ptr<f32>
  return
}

// -----

func.func @sem(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error@+1 {{sem must be relaxed, acquire, release or acq_rel, not 'seq_cst'}}
  %o = tile.atomic_rmw "xchg" %p, %v {sem = "seq_cst", scope = "gpu"} : !tile.ptr<i32>
  return
}

// -----

func.func @scope(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error@+1 {{scope must be cta, gpu or sys, not 'device'}}
  %o = tile.atomic_cas %p, %v, %v {sem = "relaxed", scope = "device"} : !tile.ptr<i32>
  return
}

// -----

func.func @cas_type(%p: !tile.ptr<f16>, %v: f16) {
  // expected-error@+1 {{swaps i32, i64, f32 or f64, not 'f16'}}
  %o = tile.atomic_cas %p, %v, %v {sem = "relaxed", scope = "gpu"} : !tile.ptr<f16>
  return
}
