//===- Passes.td - tcc's conversion passes -------------------*- tablegen -*-===//
//
// Lowering of layout-annotated tile IR to the LLVM and NVVM dialects (docs/lowering.md).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CONVERSION_PASSES_TD
#define TCC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

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
