//===- Passes.td - tcc's conversion passes -------------------*- tablegen -*-===//
//
// Lowering of layout-annotated tile IR to the LLVM and NVVM dialects (docs/lowering.md).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CONVERSION_PASSES_TD
#define TCC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAllocateShared : Pass<"tile-allocate-shared", "::mlir::ModuleOp"> {
  let summary = "places every shared-memory buffer, inserts barriers and proxy fences";
  let description = [{
    Gives each `tile.local_alloc` its `offset` and each op that exchanges data through
    shared memory (layout conversions, reductions across warps, CUDA-core dots) its
    scratch (`tile.shared_offset`): buffers live from their allocation to their last
    use (a whole loop for one used in it); scratch lives during its op. Buffers whose
    lifetimes do not overlap share space; swizzled tensor-core tiles start at multiples
    of 1024 bytes. Then, walking the program in order (loops twice, around their back
    edge), it inserts `tile.barrier` where one thread's shared-memory access may conflict
    with another thread's earlier one (a write after any access, a read after a write)
    with no barrier between, and `tile.fence_async_shared` before the barrier that
    precedes a `tile.warpgroup_dot` reading what ordinary stores or cp.async wrote. Ring
    slots indexed `(iv + c) mod S` are told apart within an iteration. The kernel gets
    `tile.shared_bytes`; more than the target's `maxSharedBytes` is an error. Layout
    conversions feeding a CUDA-core `tile.dot` are folded first: that dot stages its
    operands from any layout.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def ConvertTileToNVVM : Pass<"convert-tile-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "lowers layout-annotated tile IR to per-thread code in the LLVM and NVVM dialects";
  let description = [{
    Every tile becomes the scalars one thread holds under its layout; tile ops become
    per-thread arithmetic, predicated vector accesses to global memory, warp shuffles and
    shared-memory exchanges; kernels become `llvm.func`s marked `nvvm.kernel`. Then scf,
    arith, math and cf are lowered to the LLVM dialect. Each tile must carry a
    `#tile.blocked` or `#tile.slice` layout whose warps match the kernel's
    `tile.num_warps`. The kernel gets `tile.shared_bytes`: the dynamic shared memory a
    launch must provide.
  }];
  let options = [
    Option<"perThreadOnly", "per-thread-only", "bool", /*default=*/"false",
           "stop once tiles are distributed over threads (scalar arith, math and scf remain)">,
  ];
}

#endif // TCC_CONVERSION_PASSES_TD
