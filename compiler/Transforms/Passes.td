//===- Passes.td - tcc's tile-level passes -------------------*- tablegen -*-===//
//
// Every pass of the project is declared here; tile-opt and tcc register them all.
// Passes are named <dialect>-<verb> and each is tested alone through tile-opt.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TRANSFORMS_PASSES_TD
#define TCC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileDropHints : Pass<"tile-drop-hints", "::mlir::ModuleOp"> {
  let summary = "folds tile.hint ops away once the analyses no longer need them";
  let description = [{
    `tile.hint` only informs AxisInfo. After the passes that read it have run, each hint
    is replaced by its operand so that later stages see plain values.
  }];
}

#endif // TCC_TRANSFORMS_PASSES_TD
