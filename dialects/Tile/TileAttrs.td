//===- TileAttrs.td - tile dialect attributes ----------------*- tablegen -*-===//
//
// Distribution layouts ride on tile types as tensor encodings, so that a layout is part
// of a value's type and every consumer sees how the producer spread it over threads.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "dialects/Tile/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_BlockedEncodingAttr : Tile_Attr<"BlockedEncoding", "blocked",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "a tile spread over threads in blocks of contiguous elements";
  let description = [{
    Per dimension `d` of a rank-R tile: each thread owns `sizePerThread[d]` consecutive
    elements, a warp spans `threadsPerWarp[d]` threads and the program `warpsPerCTA[d]`
    warps. `order` lists the dimensions from fastest- to slowest-varying (so `order[0]`
    is the contiguous one). When the tile is larger than one layout repetition, each
    thread owns several repetitions; when smaller, threads hold replicated elements.
    The products of `threadsPerWarp` and `warpsPerCTA` are the warp size (32) and the
    number of warps.

    ```mlir
    #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
            `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    unsigned getNumWarps() const;
  }];
}

def Tile_SliceEncodingAttr : Tile_Attr<"SliceEncoding", "slice",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "the layout of a tile reduced along one dimension of its parent";
  let description = [{
    A tile of rank R-1 obtained by removing dimension `dim` from a tile laid out with
    `parent`: every thread keeps the elements it held, minus the reduced coordinate, so
    expanding the dimension back and broadcasting needs no data movement.

    ```mlir
    #tile.slice<{dim = 1, parent = #tile.blocked<{...}>}>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
  let genVerifyDecl = 1;
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "the combining function of tile.reduce", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"ArgMax", 3, "argmax">,
    I32EnumAttrCase<"ArgMin", 4, "argmin">]> {
  let cppNamespace = "::mlir::tile";
}

#endif // TILE_ATTRS_TD
