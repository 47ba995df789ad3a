//===- TileTypes.td - tile dialect types ---------------------*- tablegen -*-===//

#ifndef TILE_TYPES_TD
#define TILE_TYPES_TD

include "dialects/Tile/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_PointerType : TypeDef<Tile_Dialect, "Pointer"> {
  let mnemonic = "ptr";
  let summary = "pointer to a scalar in global memory";
  let description = [{
    `!tile.ptr<f32>` points to an `f32` in the GPU's global address space. Pointer
    arithmetic (`tile.addptr`) counts in elements of the pointee type.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
}

// Scalars a tile may hold, and what may be loaded or stored.
def Tile_Float : AnyTypeOf<[F16, BF16, F32, F64]>;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_Int]>;
def Tile_Ptr : Type<CPred<"::llvm::isa<::mlir::tile::PointerType>($_self)">,
                    "tile pointer", "::mlir::tile::PointerType">;

def Tile_Tile : Type<And<[HasStaticShapePred, CPred<"::llvm::isa<::mlir::RankedTensorType>($_self)">]>,
                     "statically shaped tile", "::mlir::RankedTensorType">;
class Tile_TileOf<list<Type> elts, string desc>
    : Type<And<[Tile_Tile.predicate,
                SubstLeaves<"$_self", "::llvm::cast<::mlir::ShapedType>($_self).getElementType()",
                            AnyTypeOf<elts>.predicate>]>,
           "tile of " # desc, "::mlir::RankedTensorType">;

def Tile_IntTile : Tile_TileOf<[Tile_Int], "integers">;
def Tile_I32Tile : Tile_TileOf<[I32], "i32">;
def Tile_PtrTile : Tile_TileOf<[Tile_Ptr], "pointers">;
def Tile_AnyTile : Tile_TileOf<[Tile_Scalar, Tile_Ptr], "scalars or pointers">;

def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, Tile_PtrTile]>;
def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTile]>;
def Tile_BoolLike : AnyTypeOf<[I1, Tile_TileOf<[I1], "i1">]>;
def Tile_Value : AnyTypeOf<[Tile_Scalar, Tile_Ptr, Tile_AnyTile]>;

#endif // TILE_TYPES_TD
