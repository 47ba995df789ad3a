//===- TileInterfaces.td - tile dialect interfaces -----------*- tablegen -*-===//

#ifndef TILE_INTERFACES_TD
#define TILE_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Tile_DistributedLayoutInterface : AttrInterface<"DistributedLayoutInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    A layout that spreads a tile over the registers, lanes and warps of a program. It
    says so as bits (dialects/Tile/Distribution.h): each bit of a register index, lane id
    and warp id selects one coordinate bit of one dimension, or none. `Distribution`
    reads a tile type through this interface; every pass and the lowering ask it, never
    the layout's own parameters, which element a thread holds.
  }];
  let methods = [
    InterfaceMethod<"The number of warps of the program the layout is for.",
                    "unsigned", "getNumWarps">,
    InterfaceMethod<"The rank of the tiles it lays out.", "unsigned", "getRank">,
    InterfaceMethod<[{
        The bits of this layout over a tile of `shape` (powers of two); failure when
        it cannot lay out such a tile.
      }], "::mlir::FailureOr<::mlir::tile::LayoutBits>", "getLayoutBits",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
  ];
}

#endif // TILE_INTERFACES_TD
