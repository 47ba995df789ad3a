//===- TileDialect.td - the tile dialect ---------------------*- tablegen -*-===//
//
// Block-level GPU programming: one program instance operates on whole tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TD
#define TILE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Block-level tile programming for GPUs";
  let description = [{
    The `tile` dialect describes a GPU kernel from the point of view of one program
    instance of a grid: values are scalars or tiles (statically shaped ranked tensors with
    power-of-two dimensions) of scalars or of pointers into global memory. Element-wise
    arithmetic reuses `arith` and `math` on tensors; this dialect adds what they lack:
    program ids, ranges, pointer arithmetic, masked memory access, reductions, `dot`,
    shape manipulation and, for the GPU passes, distribution layouts.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // The tile.* attributes the dialect owns (TileDialect.h, TileDialect.cpp).
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TD
