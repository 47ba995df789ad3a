//===- TileAttrs.td - tile dialect attributes ----------------*- tablegen -*-===//
//
// Distribution layouts ride on tile types as tensor encodings, so that a layout is part
// of a value's type and every consumer sees how the producer spread it over threads.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "dialects/Tile/TileDialect.td"
include "dialects/Tile/TileInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_BlockedEncodingAttr : Tile_Attr<"BlockedEncoding", "blocked",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
     DeclareAttrInterfaceMethods<Tile_DistributedLayoutInterface>]> {
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
}

def Tile_SliceEncodingAttr : Tile_Attr<"SliceEncoding", "slice",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
     DeclareAttrInterfaceMethods<Tile_DistributedLayoutInterface>]> {
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

def Tile_MmaEncodingAttr : Tile_Attr<"MmaEncoding", "mma",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
     DeclareAttrInterfaceMethods<Tile_DistributedLayoutInterface>]> {
  let summary = "the accumulator of tensor-core matrix instructions";
  let description = [{
    The layout of `tile.dot`'s accumulator and result when the dot runs on tensor cores.
    `version = 2`: `mma.sync` (sm_80 and later), one warp computes 16 x 8 per instruction;
    `version = 3`: `wgmma.mma_async` (sm_90a), a warpgroup of 4 consecutive warps
    computes 64 x n. `instrShape = [16, n, k]` is the part of one instruction a warp holds
    (16 rows, n columns) and the instruction's depth k. `warpsPerCTA = [wm, wn]` spreads
    the warps over M first, then N (version 3: wm is a multiple of 4, a warpgroup's warps
    stacked along M); larger tiles repeat the pattern in registers, N first.

    Within a warp's 16 x n, lane l holds row l / 4 (and l / 4 + 8 in its second register
    pair) and columns 2 (l % 4) + {0, 1} of every group of 8 columns, as PTX's
    accumulator fragments say:

    ```mlir
    #tile.mma<{version = 2, warpsPerCTA = [2, 4], instrShape = [16, 8, 16]}>
    #tile.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
    ```
  }];
  let parameters = (ins "unsigned":$version, ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let assemblyFormat = [{
    `<` `{` `version` `=` $version `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `instrShape` `=` `[` $instrShape `]` `}` `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_DotOperandEncodingAttr : Tile_Attr<"DotOperandEncoding", "dot_operand",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
     DeclareAttrInterfaceMethods<Tile_DistributedLayoutInterface>]> {
  let summary = "an operand of mma.sync, in registers";
  let description = [{
    The register fragments of operand `opIdx` (0: A, M x K; 1: B, K x N) of the
    `mma.sync` instructions whose accumulator has layout `parent` (a version-2
    `#tile.mma`). `kWidth` consecutive elements along K share a 32-bit register: 2 for
    f16 and bf16 (m16n8k16), 1 for tf32 (m16n8k8). What `ldmatrix` produces. Warps along
    the other operand's dimension hold copies.

    ```mlir
    #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent, "unsigned":$kWidth);
  let assemblyFormat = [{
    `<` `{` `opIdx` `=` $opIdx `,` `parent` `=` $parent `,` `kWidth` `=` $kWidth `}` `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_NVMMASharedEncodingAttr : Tile_Attr<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "the swizzled shared-memory layout of tensor-core operands";
  let description = [{
    How a tile sits in shared memory for `ldmatrix`, `wgmma` and the bulk tensor copy:
    rows along `order[0]` (the contiguous dimension, every other dimension flattened
    into the row index, slowest last), cut into atoms `swizzle` bytes wide (0: 16 bytes,
    no swizzle); each atom holds that slice of every row, one atom after the other. In
    an atom, the 16-byte chunk c of row r is stored at chunk c ^ ((r / (128 / swizzle)) %
    (swizzle / 16)), the hardware's 32/64/128-byte swizzle, so a tile must start at a
    multiple of 1024 bytes (128-byte swizzle; 512, 256 for the others).

    ```mlir
    #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>
    ```
  }];
  let parameters = (ins "unsigned":$swizzle, ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = "`<` `{` `swizzle` `=` $swizzle `,` `order` `=` `[` $order `]` `}` `>`";
  let genVerifyDecl = 1;
}

def Tile_TargetAttr : Tile_Attr<"Target", "target"> {
  let summary = "the GPU a module is compiled for";
  let description = [{
    The one description of the target that passes and the lowering read (module
    attribute `tile.target`): the architecture (`sm_80`, `sm_90`, `sm_90a`), the threads
    of a warp and the most shared memory one program may have. Without it, sm_90.

    ```mlir
    module attributes {tile.target = #tile.target<{arch = "sm_90a", threadsPerWarp = 32, maxSharedBytes = 232448}>}
    ```
  }];
  let parameters = (ins StringRefParameter<>:$arch, "unsigned":$threadsPerWarp,
                        "int64_t":$maxSharedBytes);
  let assemblyFormat = [{
    `<` `{` `arch` `=` $arch `,` `threadsPerWarp` `=` $threadsPerWarp `,`
            `maxSharedBytes` `=` $maxSharedBytes `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The compute capability times 10 (80, 90).
    unsigned getComputeCapability() const;
    /// An architecture-specific target (sm_90a): wgmma and setmaxnreg exist there only.
    bool isArchSpecific() const { return getArch().ends_with("a"); }
    bool hasWgmma() const { return getComputeCapability() == 90 && isArchSpecific(); }
    /// mma.sync m16n8k16 for f16/bf16 and m16n8k8 for tf32, ldmatrix, cp.async.
    bool hasMmaSync() const { return getComputeCapability() >= 80; }
  }];
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "the combining function of tile.reduce", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"ArgMax", 3, "argmax">,
    I32EnumAttrCase<"ArgMin", 4, "argmin">]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_PredicatedAccessKind : I32EnumAttr<"PredicatedAccessKind",
    "what a predicated global access of the lowering does", [
    I32EnumAttrCase<"Load", 0, "load">,
    I32EnumAttrCase<"Store", 1, "store">]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_PredicatedAccessAttr : Tile_Attr<"PredicatedAccess", "predicated_access"> {
  let summary = "marks the inline PTX of a predicated global load or store";
  let description = [{
    The lowering (convert-tile-to-nvvm) writes a predicated global access as an
    `llvm.inline_asm` (`@p ld.global.v4.b32 {...}, $A;`, `@p st.global.b32 $A, ...;`) whose
    address operand has the indirect memory constraint `*m`, and marks it with the
    discardable attribute `tile.predicated_access`:

    ```mlir
    %v = llvm.inline_asm has_side_effects "@$1 ld.global.b32 $0, $2;", "=r,b,*m" %p, %a
        {tile.predicated_access = #tile.predicated_access<load, address = 1>} : (i1, !llvm.ptr<1>) -> i32
    ```

    `address` is the index of the address among the op's operands. MLIR's inline asm
    can state neither the element type of an indirect operand (of one without results)
    nor memory effects, so the tile dialect's LLVM IR translation adds them: the address
    gets `elementtype(i8)`; a load loses `sideeffect` and becomes `memory(argmem: read)
    nounwind willreturn` (LLVM orders it like a plain load); a store stays side-effecting.
    The translation fails if the marked op is not such an access (docs/lowering.md).
  }];
  let parameters = (ins EnumParameter<Tile_PredicatedAccessKind>:$kind, "unsigned":$address);
  let assemblyFormat = "`<` $kind `,` `address` `=` $address `>`";
}

#endif // TILE_ATTRS_TD
