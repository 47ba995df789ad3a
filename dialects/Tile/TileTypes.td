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

def Tile_SharedMemType : TypeDef<Tile_Dialect, "SharedMem"> {
  let mnemonic = "smem";
  let summary = "a buffer in the program's shared memory";
  let description = [{
    `!tile.smem<128x64xf16, #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>>` is a
    128 x 64 tile of f16 in shared memory, laid out as its encoding says. A rank one
    higher than the encoding's is a ring of such tiles (`!tile.smem<3x128x64xf16, ...>`,
    indexed by `tile.memdesc_index`), consecutive in memory. Values of this type are made
    by the GPU passes only (tile-accelerate-dot, tile-pipeline); tile-allocate-shared
    gives each buffer its place.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The shape of one tile (without the ring dimension).
    ::llvm::ArrayRef<int64_t> getTileShape() const {
      return isRing() ? getShape().drop_front() : getShape();
    }
    bool isRing() const;
    int64_t getNumSlots() const { return isRing() ? getShape().front() : 1; }
    /// Bytes of one tile, and of the whole buffer.
    int64_t getTileBytes() const;
    int64_t getBytes() const { return getTileBytes() * getNumSlots(); }
  }];
}

def Tile_TensorMapType : TypeDef<Tile_Dialect, "TensorMap"> {
  let mnemonic = "tensormap";
  let summary = "a TMA tensor map: how bulk tensor copies see a global array";
  let description = [{
    `!tile.tensormap<[64, 128], f16, swizzle = 128>` describes a global array of f16 to
    `tile.tma_load`, which copies boxes of 64 x 128 elements (the box's shape, outermost
    first, as a tile's) into shared memory laid out with a 128-byte swizzle. The value is
    a kernel argument, after the user's (a 128-byte `.param`, 64-byte aligned, filled by
    the launcher with `cuTensorMapEncodeTiled`); the argument's `tile.tensormap`
    attribute says how (`{param = "a", dims = ["K", "M"], strides_bytes = ["stride_am *
    2"]}`: the pointer argument that is the base, the extents innermost first and the
    byte strides of the outer dimensions, in the grid expressions' grammar).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$box, "::mlir::Type":$elementType,
                        "int64_t":$swizzle);
  let assemblyFormat = "`<` `[` $box `]` `,` $elementType `,` `swizzle` `=` $swizzle `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getElementBytes() const {
      return std::max<int64_t>(1, getElementType().getIntOrFloatBitWidth() / 8);
    }
    /// Bytes of one box.
    int64_t getBoxBytes() const;
  }];
}

// Scalars a tile may hold, and what may be loaded or stored.
// fp8 e4m3fn and e5m2 (the language's f8e4nv and f8e5) are stored, converted and
// selected; no arithmetic op of the lowering computes on them.
def Tile_Float : AnyTypeOf<[F16, BF16, F32, F64, F8E4M3FN, F8E5M2]>;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_Int]>;
def Tile_TensorMapLike : Type<CPred<"::llvm::isa<::mlir::tile::TensorMapType>($_self)">,
                               "TMA tensor map", "::mlir::tile::TensorMapType">;
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
