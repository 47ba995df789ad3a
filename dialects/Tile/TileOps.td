//===- TileOps.td - tile dialect operations ------------------*- tablegen -*-===//

#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "dialects/Tile/TileDialect.td"
include "dialects/Tile/TileTypes.td"
include "dialects/Tile/TileAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

class Tile_GridQueryOp<string mnemonic, string what> : Tile_Op<mnemonic, [Pure]> {
  let summary = what # " along a grid axis";
  let arguments = (ins I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def Tile_ProgramIdOp : Tile_GridQueryOp<"program_id", "the index of this program instance"> {
  let description = [{
    ```mlir
    %pid = tile.program_id 0
    ```
    The coordinate of the running program instance on grid axis 0, 1 or 2.
  }];
}

def Tile_NumProgramsOp : Tile_GridQueryOp<"num_programs", "the number of program instances"> {
  let description = [{
    ```mlir
    %n = tile.num_programs 0
    ```
    The size of the launch grid along axis 0, 1 or 2.
  }];
}

//===----------------------------------------------------------------------===//
// Making and reshaping tiles
//===----------------------------------------------------------------------===//

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "the tile [start, end) of consecutive i32";
  let description = [{
    ```mlir
    %r = tile.make_range 0 to 128 : tensor<128xi32>
    ```
    `end - start` must be a power of two and equal the tile's only dimension.
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs Tile_I32Tile:$result);
  let assemblyFormat = "$start `to` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "a tile with every element equal to one scalar";
  let description = [{
    ```mlir
    %t = tile.splat %x : i32 -> tensor<128xi32>
    %p = tile.splat %base : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Tile_Scalar, Tile_Ptr]>:$src);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "repeats a tile along its dimensions of size 1";
  let description = [{
    ```mlir
    %t = tile.broadcast %row : tensor<1x64xf32> -> tensor<32x64xf32>
    ```
    Source and result have the same rank; each source dimension is 1 or the result's.
  }];
  let arguments = (ins Tile_AnyTile:$src);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "inserts a dimension of size 1";
  let description = [{
    ```mlir
    %col = tile.expand_dims %r, 1 : tensor<64xi32> -> tensor<64x1xi32>
    ```
    What `r[:, None]` means in the language.
  }];
  let arguments = (ins Tile_AnyTile:$src, I32Attr:$axis);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$src `,` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "permutes the dimensions of a tile";
  let description = [{
    ```mlir
    %t = tile.trans %x, array<i32: 1, 0> : tensor<64x32xf16> -> tensor<32x64xf16>
    ```
    Dimension i of the result is dimension `order[i]` of the source: result[c] =
    src[d] with d[order[i]] = c[i]. What `trans`, `permute` and `.T` write. On the GPU
    the result's layout is the source's with its dimensions permuted the same way, so
    that every thread keeps the elements it holds (tile-assign-layouts).
  }];
  let arguments = (ins Tile_AnyTile:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$src `,` $order attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "the same elements in row-major order, in another shape";
  let description = [{
    ```mlir
    %y = tile.reshape %x : tensor<64x32xf32> -> tensor<64x2x16xf32>
    ```
    Element `i` of the result in row-major order is element `i` of the source in row-major
    order; the element type and the number of elements stay. The result's layout is its
    own: on the GPU the elements go through shared memory (a barrier), unless both layouts
    put every element in the same register of the same thread.
  }];
  let arguments = (ins Tile_AnyTile:$src);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PermuteXorOp : Tile_Op<"permute_xor", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "moves elements along one axis to the position XORed with a constant";
  let description = [{
    ```mlir
    %y = tile.permute_xor %x, axis 1, mask 7 : tensor<4x8xf32>
    ```
    Element `c` of the result along `axis` is element `c ^ mask` of the source (the other
    coordinates unchanged): `mask = size - 1` reverses the axis (`flip`), `mask = 1 << j`
    exchanges the partners of a bitonic sort's step. `0 < mask < size`. The layout stays;
    on the GPU the elements move between registers, lanes (shuffles) or warps (shared
    memory) as the layout's bits of `mask` say.
  }];
  let arguments = (ins Tile_AnyTile:$src, I32Attr:$axis, I64Attr:$mask);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$src `,` `axis` $axis `,` `mask` $mask attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure]> {
  let summary = "moves a tile from one distribution layout to another";
  let description = [{
    ```mlir
    %y = tile.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    ```
    Same shape and elements; only the encoding (who holds which element) changes.
    Folds away when it converts to the layout its source has, and a conversion of a
    conversion converts the original value; a conversion of a splat, a make_range or a
    dense constant is that op made in the new layout (canonicalisation).
  }];
  let arguments = (ins Tile_AnyTile:$src);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advances pointers by element offsets";
  let description = [{
    ```mlir
    %q = tile.addptr %p, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %s = tile.addptr %base, %i : !tile.ptr<f32>, i64
    ```
    Offsets count elements of the pointee type and are sign-extended to 64 bits.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_LoadOp : Tile_Op<"load", [
    AttrSizedOperandSegments, MemoryEffects<[MemRead]>,
    TypesMatchWith<"result holds the pointees of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"mask is i1 in the shape of ptr", "ptr", "mask",
                   "::mlir::tile::getI1SameShape($_self)",
                   "(::llvm::cast<::mlir::tile::LoadOp>($_op).getMask() == nullptr) || std::equal_to<>()">,
    TypesMatchWith<"other has the type of the result", "ptr", "other",
                   "::mlir::tile::getPointeeType($_self)",
                   "(::llvm::cast<::mlir::tile::LoadOp>($_op).getOther() == nullptr) || std::equal_to<>()">]> {
  let summary = "loads a tile (or scalar) through pointers, optionally masked";
  let description = [{
    ```mlir
    %v = tile.load %p : tensor<128x!tile.ptr<f32>>
    %w = tile.load %p, mask %m, other %zero : tensor<128x!tile.ptr<f32>>
    ```
    Lanes whose mask is false read nothing and yield `other` (undefined without it).
    `vec` (a power of two, set by tile-mask) is the number of consecutive elements a
    thread reads with one instruction; absent, one. A mask known to be true everywhere is
    dropped (with `other`), a load whose mask is known false everywhere is its `other`
    (canonicalisation).
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_Value>:$other,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntPositivePowerOf2]>>:$vec);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` `mask` $mask^)? (`,` `other` $other^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, CArg<"::mlir::Value", "{}">:$mask,
                   CArg<"::mlir::Value", "{}">:$other)>
  ];
}

def Tile_StoreOp : Tile_Op<"store", [
    MemoryEffects<[MemWrite]>,
    TypesMatchWith<"value holds the pointees of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"mask is i1 in the shape of ptr", "ptr", "mask",
                   "::mlir::tile::getI1SameShape($_self)",
                   "(::llvm::cast<::mlir::tile::StoreOp>($_op).getMask() == nullptr) || std::equal_to<>()">]> {
  let summary = "stores a tile (or scalar) through pointers, optionally masked";
  let description = [{
    ```mlir
    tile.store %p, %v, mask %m : tensor<128x!tile.ptr<f32>>
    ```
    Lanes whose mask is false write nothing. `vec` as for `tile.load`. A mask known to be
    true everywhere is dropped, a store whose mask is known false everywhere is erased
    (canonicalisation).
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value, Optional<Tile_BoolLike>:$mask,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntPositivePowerOf2]>>:$vec);
  let assemblyFormat = "$ptr `,` $value (`,` `mask` $mask^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$value,
                   CArg<"::mlir::Value", "{}">:$mask)>
  ];
}

def Tile_AtomicAddOp : Tile_Op<"atomic_add", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"value holds the pointees of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"result holds the pointees of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"mask is i1 in the shape of ptr", "ptr", "mask",
                   "::mlir::tile::getI1SameShape($_self)",
                   "(::llvm::cast<::mlir::tile::AtomicAddOp>($_op).getMask() == nullptr) || std::equal_to<>()">]> {
  let summary = "atomically adds a tile (or scalar) to memory, giving the old values";
  let description = [{
    ```mlir
    %old = tile.atomic_add %p, %v, mask %m : tensor<128x!tile.ptr<f32>>
    %o = tile.atomic_add %q, %one : !tile.ptr<i32>
    ```
    Each lane atomically adds its value to its pointee (relaxed, device scope) and yields
    the value it replaced. Lanes whose mask is false touch nothing and yield 0. Pointees
    are i32, i64 or f32.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value, Optional<Tile_BoolLike>:$mask);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$ptr `,` $value (`,` `mask` $mask^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"value holds the pointees of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"result holds the pointees of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"mask is i1 in the shape of ptr", "ptr", "mask",
                   "::mlir::tile::getI1SameShape($_self)",
                   "(::llvm::cast<::mlir::tile::AtomicRMWOp>($_op).getMask() == nullptr) || std::equal_to<>()">]> {
  let summary = "atomic read-modify-write of memory (max, min, and, or, xor, xchg, add), giving the old values";
  let description = [{
    ```mlir
    %old = tile.atomic_rmw "max" %p, %v, mask %m {scope = "gpu", sem = "acq_rel"} : tensor<128x!tile.ptr<i32>>
    %o = tile.atomic_rmw "xchg" %lock, %zero {scope = "gpu", sem = "release"} : !tile.ptr<i32>
    ```
    Each lane atomically combines its value with its pointee and yields the value it
    replaced: `max`/`min` (signed integers), `umax`/`umin` (unsigned), `and`/`or`/`xor`
    (integers), `xchg` (stores the value; integers and floats of 32 or 64 bits), `add`
    (i32, i64, f32). Lanes whose mask is false touch nothing and yield 0. `sem` is the
    memory ordering (`relaxed`, `acquire`, `release`, `acq_rel`) and `scope` which threads
    it orders against (`cta`, `gpu`, `sys`), as PTX's `atom.sem.scope` (Triton's
    `sem=`/`scope=`). A scalar op is performed once per program.
  }];
  let arguments = (ins StrAttr:$kind, Tile_PtrLike:$ptr, Tile_Value:$value,
                       Optional<Tile_BoolLike>:$mask, StrAttr:$sem, StrAttr:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$kind $ptr `,` $value (`,` `mask` $mask^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"cmp holds the pointees of ptr", "ptr", "cmp",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"value holds the pointees of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeType($_self)">,
    TypesMatchWith<"result holds the pointees of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeType($_self)">]> {
  let summary = "atomic compare-and-swap, giving the old values";
  let description = [{
    ```mlir
    %old = tile.atomic_cas %lock, %zero, %one {scope = "gpu", sem = "acq_rel"} : !tile.ptr<i32>
    ```
    Each lane atomically replaces its pointee by `value` where it equals `cmp` (bit for
    bit) and yields the value it found. Pointees are 32- or 64-bit integers or floats.
    `sem` and `scope` as for tile.atomic_rmw. A scalar op is performed once per program.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$cmp, Tile_Value:$value, StrAttr:$sem,
                       StrAttr:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$ptr `,` $cmp `,` $value attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Tile_ExternElementwiseOp : Tile_Op<"extern_elementwise", [Pure, Elementwise]> {
  let summary = "an external device function (CUDA's libdevice) applied element-wise";
  let description = [{
    ```mlir
    %y = tile.extern_elementwise "__nv_asinf"(%x) : tensor<1024xf32> -> tensor<1024xf32>
    ```
    Applies `symbol`, a libdevice function (dialects/Tile/Libdevice.h) of f32 (`__nv_NAMEf`)
    or f64 (`__nv_NAME`) operands, to each element. The GPU lowering calls it per element
    and links it from libdevice.10.bc; the interpreter computes it with the C library.
  }];
  let arguments = (ins StrAttr:$symbol, Variadic<Tile_Value>:$args);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$symbol `(` $args `)` attr-dict `:` type($args) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PtrOffsetOp : Tile_Op<"ptr_offset", [Pure]> {
  let summary = "the byte offset of pointers from a base pointer";
  let description = [{
    ```mlir
    %off = tile.ptr_offset %ptrs, %base : tensor<128x!tile.ptr<f32>>, !tile.ptr<f32> -> tensor<128xi64>
    ```
    Each element is `address(ptr) - address(base)` in bytes, as an i64 (negative below the
    base). The result has the pointers' shape and layout. tile-check-bounds uses it to
    compare an access with the extent of the kernel argument it comes from.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Ptr:$base);
  let results = (outs AnyTypeOf<[I64, Tile_TileOf<[I64], "i64">]>:$result);
  let assemblyFormat = [{
    $ptr `,` $base attr-dict `:` type($ptr) `,` qualified(type($base)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_IntToPtrOp : Tile_Op<"int_to_ptr", [Pure, Elementwise]> {
  let summary = "pointers from i64 addresses";
  let description = [{
    ```mlir
    %p = tile.int_to_ptr %addr : i64 -> !tile.ptr<f16>
    %ps = tile.int_to_ptr %addrs : tensor<16xi64> -> tensor<16x!tile.ptr<f16>>
    ```
    Each element is the pointer whose address in bytes is the i64 (Triton's `inttoptr`,
    `x.to(tl.pointer_type(T))`): arrays of pointers are loaded as i64 and converted. The
    result has the operand's shape. On the GPU an `inttoptr`; the interpreter gives its
    buffers addresses of its own (docs/interpreter.md).
  }];
  let arguments = (ins AnyTypeOf<[I64, Tile_TileOf<[I64], "i64">]>:$src);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PtrToIntOp : Tile_Op<"ptr_to_int", [Pure, Elementwise]> {
  let summary = "the i64 addresses of pointers";
  let description = [{
    ```mlir
    %a = tile.ptr_to_int %p : !tile.ptr<f16> -> i64
    ```
    Each element is the address in bytes of the pointer (Triton's `ptrtoint`,
    `p.to(tl.int64)`); the result has the operand's shape. `tile.int_to_ptr` of it is the
    pointer again, of any pointee type.
  }];
  let arguments = (ins Tile_PtrLike:$src);
  let results = (outs AnyTypeOf<[I64, Tile_TileOf<[I64], "i64">]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_RecordOutOfBoundsOp : Tile_Op<"record_oob", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "records the first out-of-bounds access of a launch (--check-bounds)";
  let description = [{
    ```mlir
    tile.record_oob %record, %bad, %off, pid(%x, %y, %z) {line = 12 : i32, column = 5 : i32, kind = 1 : i32, arg = 2 : i32} : !tile.ptr<i32>, tensor<128xi1>, tensor<128xi64>
    ```
    Where an element of `bad` is true, the access it stands for (`kind`: 0 load, 1 store,
    2 atomic_add, 3 async_copy) through kernel argument number `arg`, at byte offset `off`
    from it, is out of bounds. The first thread of the launch that holds such an element
    wins a compare-and-swap of the record's word 0 (0 to 1) and writes, as i32 words:
    1 line, 2 column, 3 kind, 4 arg, 5-7 the program id; bytes 32-39 the offset (i64) of its
    first bad element. Others leave the record alone. The record is 40 bytes, 8-aligned,
    zeroed before the launch (the runtime's job).
  }];
  let arguments = (ins Tile_Ptr:$record, Tile_BoolLike:$bad,
                       AnyTypeOf<[I64, Tile_TileOf<[I64], "i64">]>:$offset,
                       I32:$pidX, I32:$pidY, I32:$pidZ,
                       I32Attr:$line, I32Attr:$column, I32Attr:$kind, I32Attr:$arg);
  let assemblyFormat = [{
    $record `,` $bad `,` $offset `,` `pid` `(` $pidX `,` $pidY `,` $pidZ `)` attr-dict `:`
    qualified(type($record)) `,` type($bad) `,` type($offset)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "reduces a tile along one axis";
  let description = [{
    ```mlir
    %m = tile.reduce max %x, axis 0 : tensor<128xf32> -> f32
    %s = tile.reduce sum %t, axis 1 : tensor<64x128xf32> -> tensor<64xf32>
    %i = tile.reduce argmax %x, axis 0 : tensor<128xf32> -> i32
    ```
    Removes dimension `axis`; a rank-1 source gives a scalar. `argmax`/`argmin` give the
    i32 index of the first extreme element. `max`/`min` on floats propagate NaN.
  }];
  let arguments = (ins Tile_AnyTile:$src, Tile_ReduceKind:$kind, I32Attr:$axis);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$kind $src `,` `axis` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, IsolatedFromAbove]> {
  let summary = "inclusive scan of tiles along one axis with a combining region";
  let description = [{
    ```mlir
    %c = tile.scan %x axis 0 : tensor<128xf32> -> tensor<128xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.scan_return %s : f32
    }
    ```
    Element i of each result along `axis` is `x[0] ⊕ x[1] ⊕ ... ⊕ x[i]`, where `⊕` is the
    region: it takes the scalars of the earlier part (one per source) then those of the
    later part, and returns the combined scalars. Several sources of one shape and layout
    are scanned together (a tuple: `(value, index)` pairs). With `reverse`, the scan runs
    from the end: the result is the scan of the sources flipped along `axis`, flipped back.
    The region must be associative for the result not to depend on the order the lowering
    combines in; it holds scalar, side-effect-free ops only.
  }];
  let arguments = (ins Variadic<Tile_AnyTile>:$srcs, I32Attr:$axis, UnitAttr:$reverse);
  let results = (outs Variadic<Tile_AnyTile>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $srcs `axis` $axis (`reverse` $reverse^)? attr-dict `:` type($srcs) `->` type($results)
    $combiner
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ScanReturnOp : Tile_Op<"scan_return", [Pure, HasParent<"ScanOp">, Terminator]> {
  let summary = "the combined scalars of a tile.scan region";
  let arguments = (ins Variadic<Tile_Value>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix product with accumulation: a × b + acc";
  let description = [{
    ```mlir
    %c = tile.dot %a, %b, %acc : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    ```
    `a` is M×K, `b` K×N, `acc` and the result M×N. Inputs are f16, bf16 or f32 (both
    the same); the accumulator is f32. f32 inputs are multiplied as tf32 on tensor cores
    unless `input_precision = "ieee"`.
  }];
  let arguments = (ins Tile_TileOf<[F16, BF16, F32], "f16, bf16 or f32">:$a,
                       Tile_TileOf<[F16, BF16, F32], "f16, bf16 or f32">:$b,
                       Tile_TileOf<[F32], "f32">:$acc,
                       OptionalAttr<StrAttr>:$input_precision);
  let results = (outs Tile_TileOf<[F32], "f32">:$result);
  let assemblyFormat = "$a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `->` type($result)";
  let hasVerifier = 1;
  // `acc + dot(a, b, 0)` (Triton's `accumulator += tl.dot(a, b)`) is `dot(a, b, acc)`.
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory and tensor cores (made by the GPU passes only)
//===----------------------------------------------------------------------===//

def Tile_Smem : Type<CPred<"::llvm::isa<::mlir::tile::SharedMemType>($_self)">,
                     "shared-memory buffer", "::mlir::tile::SharedMemType">;

def Tile_LocalAllocOp : Tile_Op<"local_alloc", [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "a buffer in shared memory, optionally filled from a tile";
  let description = [{
    ```mlir
    %s = tile.local_alloc %a : tensor<128x64xf16, #blocked> -> !tile.smem<128x64xf16, #shared>
    %ring = tile.local_alloc -> !tile.smem<3x128x64xf16, #shared>
    ```
    With a source, every thread stores the elements it holds. `offset` (bytes from the
    start of the program's shared memory) is set by tile-allocate-shared.
  }];
  let arguments = (ins Optional<Tile_Tile>:$src, OptionalAttr<I64Attr>:$offset);
  let results = (outs Tile_Smem:$result);
  let assemblyFormat = "($src^ `:` type($src))? attr-dict `->` qualified(type($result))";
  let hasVerifier = 1;
  // A conversion's only user: the tile stored as it is held, where the bank-conflict
  // model says that costs no more than the conversion does.
  let hasCanonicalizer = 1;
}

def Tile_LocalLoadOp : Tile_Op<"local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "reads a tile out of shared memory into a distributed layout";
  let description = [{
    ```mlir
    %a = tile.local_load %s : !tile.smem<128x64xf16, #shared> -> tensor<128x64xf16, #dot_op>
    ```
    Into a `#tile.dot_operand` layout from an `nvmma_shared` buffer of 16-bit elements it
    is `ldmatrix`.
  }];
  let arguments = (ins Tile_Smem:$src);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_MemDescIndexOp : Tile_Op<"memdesc_index", [Pure]> {
  let summary = "one tile of a ring of shared-memory tiles";
  let description = [{
    ```mlir
    %slot = tile.memdesc_index %ring[%i] : !tile.smem<3x128x64xf16, #shared> -> !tile.smem<128x64xf16, #shared>
    ```
    `%i` must be below the ring's size.
  }];
  let arguments = (ins Tile_Smem:$src, I32:$index);
  let results = (outs Tile_Smem:$result);
  let assemblyFormat = "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_MemDescTransOp : Tile_Op<"memdesc_trans", [Pure]> {
  let summary = "a 2-D shared-memory tile seen transposed";
  let description = [{
    ```mlir
    %kt = tile.memdesc_trans %k : !tile.smem<64x128xf16, #tile.nvmma_shared<{swizzle = 128, order = [1, 0]}>> -> !tile.smem<128x64xf16, #tile.nvmma_shared<{swizzle = 128, order = [0, 1]}>>
    ```
    The same bytes: element (i, j) of the result is element (j, i) of `%src`. The shapes
    are each other's reverse, and so are the `#tile.nvmma_shared` orders (the swizzle is
    the same), so that the rows in memory are the same. tile-pipeline copies a load that
    the kernel transposes before a dot (`dot(q, k.T)`) into a ring as it is, and the dot
    reads the slot through this view.
  }];
  let arguments = (ins Tile_Smem:$src);
  let results = (outs Tile_Smem:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_AsyncCopyOp : Tile_Op<"async_copy", [MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"mask is i1 in the shape of ptr", "ptr", "mask",
                   "::mlir::tile::getI1SameShape($_self)",
                   "(::llvm::cast<::mlir::tile::AsyncCopyOp>($_op).getMask() == nullptr) || std::equal_to<>()">]> {
  let summary = "starts copying a tile from global to shared memory (cp.async)";
  let description = [{
    ```mlir
    tile.async_copy %ptrs, %slot, mask %m {vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #blocked>, !tile.smem<128x64xf16, #shared>
    ```
    Each thread copies the elements its pointers address, `vec` consecutive ones (4, 8 or
    16 bytes) per instruction; masked-off elements are zero-filled. The copy belongs to
    the next `tile.async_commit` group and is complete once a `tile.async_wait` leaves
    fewer groups pending than were committed after it.
  }];
  let arguments = (ins Tile_PtrTile:$ptr, Tile_Smem:$dst, Optional<Tile_TileOf<[I1], "i1">>:$mask,
                       I32Attr:$vec);
  let assemblyFormat = [{
    $ptr `,` $dst (`,` `mask` $mask^)? attr-dict `:` type($ptr) `,` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Tile_AsyncCommitOp : Tile_Op<"async_commit", [MemoryEffects<[MemWrite]>]> {
  let summary = "closes the group of the asynchronous copies started since the last one";
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until at most `pending` groups of this thread's copies are in flight";
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "attr-dict";
}

def Tile_BarrierOp : Tile_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "synchronises the threads of the program (bar.sync)";
  let description = [{
    Shared-memory accesses before it, of every thread, happen before those after it.
    tile-allocate-shared inserts it where one thread's accesses must be seen by another.
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_FenceAsyncSharedOp : Tile_Op<"fence_async_shared", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "orders this thread's shared-memory writes before async-proxy reads";
  let description = [{
    `fence.proxy.async.shared::cta`: the thread's earlier ordinary (generic-proxy) writes
    to shared memory, `st.shared` and completed `cp.async`, become visible to the tensor
    cores' `wgmma` (async proxy) once a barrier follows.
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_WarpGroupDotOp : Tile_Op<"warpgroup_dot", [MemoryEffects<[MemRead]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "starts a matrix product on the tensor cores from shared memory (wgmma)";
  let description = [{
    ```mlir
    %d = tile.warpgroup_dot %a, %b, %acc : !tile.smem<128x64xf16, #sa>, !tile.smem<64x256xf16, #sb>, tensor<128x256xf32, #mma>
    ```
    `a` (M x K) and `b` (K x N) in shared memory, `acc` in a version-3 `#tile.mma`
    layout. `a` may instead be an f16 or bf16 tile in registers, in a version-3
    `#tile.mma` layout with the accumulator's warps, one warp column (each warpgroup holds
    whole rows): flash attention's P, the cast of the first product, read by the second
    with no trip through shared memory. The result is not ready, and the operands still
    being read, until a `tile.warpgroup_dot_wait` retires it: that op's result is the
    value to use.
  }];
  let arguments = (ins AnyTypeOf<[Tile_Smem, Tile_TileOf<[F16, BF16], "f16 or bf16">]>:$a,
                       Tile_Smem:$b, Tile_TileOf<[F32], "f32">:$acc);
  let results = (outs Tile_TileOf<[F32], "f32">:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,` type($acc)
  }];
  let hasVerifier = 1;
  // An `a` stored to shared memory only for this product, from registers it can be read
  // from as they are, is read from the registers.
  let hasCanonicalizer = 1;
}

def Tile_WarpGroupDotWaitOp : Tile_Op<"warpgroup_dot_wait", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["src", "result"]>]> {
  let summary = "waits for tensor-core products until at most `pending` are in flight";
  let description = [{
    ```mlir
    %r = tile.warpgroup_dot_wait %d {pending = 1 : i32} : tensor<128x256xf32, #mma>
    ```
    Retires all but the last `pending` `tile.warpgroup_dot` groups of the warpgroup;
    `%r` is `%d` once its product has landed (with pending = 0, always).
  }];
  let arguments = (ins Tile_TileOf<[F32], "f32">:$src, I32Attr:$pending);
  let results = (outs Tile_TileOf<[F32], "f32">:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}

def Tile_MBarrierInitOp : Tile_Op<"mbarrier_init", [MemoryEffects<[MemWrite]>]> {
  let summary = "initialises shared-memory barriers (mbarrier) for asynchronous copies";
  let description = [{
    ```mlir
    tile.mbarrier_init %bars {count = 1 : i32} : !tile.smem<3x1xi64, #tile.nvmma_shared<{swizzle = 0, order = [0]}>>
    ```
    Every barrier of `%bars` (one 8-byte barrier, or a ring of them: `!tile.smem<1xi64,
    ...>` or `!tile.smem<Sx1xi64, ...>`) starts in phase 0 expecting `count` arrivals.
    One thread of the program initialises them; the op ends with the fences and the
    barrier after which every thread, and the tensor memory accelerator, may use them.
  }];
  let arguments = (ins Tile_Smem:$barriers, I32Attr:$count);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def Tile_MBarrierInvalOp : Tile_Op<"mbarrier_inval", [MemoryEffects<[MemWrite]>]> {
  let summary = "invalidates shared-memory barriers so that their bytes may be reused";
  let description = [{
    ```mlir
    tile.mbarrier_inval %bars : !tile.smem<3x1xi64, #tile.nvmma_shared<{swizzle = 0, order = [0]}>>
    ```
    Thread 0 invalidates every barrier of `%bars` (`mbarrier.inval`): after it (and a
    barrier, which tile-allocate-shared puts before the next use of the bytes) the memory
    may hold anything else. Every wait on them must come before it (tile-allocate-shared
    puts a barrier before it).
  }];
  let arguments = (ins Tile_Smem:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def Tile_MBarrierExpectOp : Tile_Op<"mbarrier_expect", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrives on a barrier expecting `bytes` of asynchronous copies";
  let description = [{
    ```mlir
    tile.mbarrier_expect %bar {bytes = 49152 : i32} : !tile.smem<1xi64, #tile.nvmma_shared<{swizzle = 0, order = [0]}>>
    ```
    One thread of the program arrives on `%bar` (`mbarrier.arrive.expect_tx`) and adds
    `bytes` to the transactions the barrier's current phase waits for: the bytes of the
    `tile.tma_load`s that complete on it.
  }];
  let arguments = (ins Tile_Smem:$barrier, I32Attr:$bytes);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def Tile_MBarrierWaitOp : Tile_Op<"mbarrier_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until a barrier's phase of the given parity has completed";
  let description = [{
    ```mlir
    tile.mbarrier_wait %bar, %phase : !tile.smem<1xi64, #tile.nvmma_shared<{swizzle = 0, order = [0]}>>
    ```
    Every thread waits (`mbarrier.try_wait.parity`, retried) until the phase of `%bar`
    whose parity is `%phase` (0 or 1) has completed; the shared memory the copies of that
    phase wrote is then visible to it. With `cluster`, the wait acquires at cluster
    scope (`mbarrier.try_wait.parity.acquire.cluster`): a barrier the other program of a
    cluster arrives on (`tile.mbarrier_arrive {peer}`), handing back a slot it
    multicasts into.
  }];
  let arguments = (ins Tile_Smem:$barrier, I32:$phase, UnitAttr:$cluster);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def Tile_MBarrierArriveOp : Tile_Op<"mbarrier_arrive", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "each warp that executes it arrives once on a barrier";
  let description = [{
    ```mlir
    tile.mbarrier_arrive %bar : !tile.smem<1xi64, #tile.nvmma_shared<{swizzle = 0, order = [0]}>>
    ```
    Lane 0 of every warp that executes it arrives on `%bar` (`mbarrier.arrive`), after
    the warp's earlier reads of shared memory: a consumer warp of a warp-specialised loop
    handing a ring slot back to the producer (`tile.warp_specialize`), on an mbarrier
    initialised with one arrival per consumer warp. With `peer`, lane 0 of every warp
    arrives on the same barrier of the other program of its cluster of two
    (`mapa` + `mbarrier.arrive.release.cluster.shared::cluster`): a program handing a
    ring slot back to the partner that multicasts into it (`tile.tma_load` with
    `multicast`).
  }];
  let arguments = (ins Tile_Smem:$barrier, UnitAttr:$peer);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def Tile_ClusterSyncOp : Tile_Op<"cluster_sync", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until every thread of the program's cluster has arrived";
  let description = [{
    ```mlir
    tile.cluster_sync
    ```
    Every thread of every program of the kernel's cluster (`tile.cluster_size`) arrives
    (`barrier.cluster.arrive.release`) and waits for the others
    (`barrier.cluster.wait.acquire`): after the mbarriers' initialisation, before a
    partner may multicast into them or arrive on them; at the end, before they are
    invalidated and the program exits, while the partner may still arrive on them.
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_ClusterReduceOp : Tile_Op<"cluster_reduce", [MemoryEffects<[MemRead, MemWrite]>,
                                                        AllTypesMatch<["src", "result"]>]> {
  let summary = "sums an f32 tile over the programs of the kernel's cluster (split-K)";
  let description = [{
    ```mlir
    %sum = tile.cluster_reduce %partial : tensor<128x128xf32, #mma>
    ```
    In the program of rank 0 of its cluster (`tile.cluster_size` programs along x), the
    sum of `%partial` over every program of the cluster, added in rank order; in the
    others, `%partial` itself. Every thread of every program of the cluster must reach
    it (tile-split-k puts it after the K loop, before the epilogue that rank 0 alone
    runs). Each program writes the registers of its threads to its scratch, the cluster
    synchronises (`barrier.cluster`), rank 0 reads the others' scratch through
    distributed shared memory (`mapa`, `ld.shared::cluster`), and the cluster
    synchronises again, so that no program exits while rank 0 reads its memory.
  }];
  let arguments = (ins Tile_TileOf<[F32], "f32">:$src);
  let results = (outs Tile_TileOf<[F32], "f32">:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Tile_WarpSpecializeOp : Tile_Op<"warp_specialize", [RecursiveMemoryEffects, NoTerminator]> {
  let summary = "runs a producer warpgroup beside the program's consumer warps";
  let description = [{
    ```mlir
    tile.warp_specialize {producerRegs = 40 : i32, consumerRegs = 232 : i32} producer {
      ... // bulk copies into ring slots, waiting on the slots' `empty` mbarriers
    } consumer {
      ... // the kernel: waits on the slots' `full` mbarriers, computes, hands slots back
    }
    ```
    The program runs with one more warpgroup (4 warps) than its `tile.num_warps`: the
    consumer region runs on warps 0 .. num_warps - 1 exactly as the kernel would without
    the op (tile layouts, barriers and thread 0 are theirs); the producer region on the
    extra warpgroup, of which one warp executes it (one thread issues the copies). Each
    side first moves its registers with `setmaxnreg` (the producer's down to
    `producerRegs`, the consumers' up to `consumerRegs`). The regions share nothing but
    shared memory and its mbarriers: the producer region holds only scalar code, copies
    and mbarrier ops; a barrier inside the consumer region synchronises the consumer
    warps only. The op is the whole body of its kernel, after the allocation and
    initialisation of the rings and mbarriers, which every warp executes.

    Where the kernel has `tile.consumer_groups = G` (ping-pong: 2), G groups of
    `tile.num_warps` warps each run the consumer region, every group as the kernel's
    warps would alone: its own thread ids, thread 0, barriers (a named barrier per group)
    and scratch (the region's buffers are placed once per group); the producer warpgroup
    follows them all. `tile.consumer_group` tells the groups apart.
  }];
  let arguments = (ins I32Attr:$producerRegs, I32Attr:$consumerRegs);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumer);
  let assemblyFormat = "attr-dict `producer` $producer `consumer` $consumer";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Warps of the producer side: one warpgroup.
    static constexpr unsigned kProducerWarps = 4;
    /// Registers of each thread of such a program at launch (`.maxnreg`) and of each
    /// consumer thread after setmaxnreg, when `programs` of them share an SM's 64K
    /// registers and the producers keep `producerRegs` each: the launch share in
    /// multiples of 8 (at most 248), the consumers the rest (at most 256).
    struct RegisterBudget {
      int32_t launch = 0, consumer = 0;
    };
    static RegisterBudget budgetRegisters(unsigned consumerThreads, unsigned producerThreads,
                                          int32_t producerRegs, unsigned programs);
  }];
}

def Tile_ConsumerGroupOp : Tile_Op<"consumer_group", [Pure]> {
  let summary = "the consumer group of the executing thread (ping-pong)";
  let description = [{
    ```mlir
    %g = tile.consumer_group : i32
    ```
    In the consumer region of a tile.warp_specialize whose kernel has
    `tile.consumer_groups = G`, the index (0 .. G - 1) of the group of `tile.num_warps`
    warps the executing thread belongs to. Each group runs the consumer region on its own:
    tile layouts, thread 0, barriers and the scratch of the ops in the region are the
    group's, so the region tells the groups apart only through this value (tile-pipeline's
    ping-pong schedule gives group `g` the tiles `g, g + 2, ...` of its program's).
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_TmaLoadOp : Tile_Op<"tma_load", [AttrSizedOperandSegments,
                                          MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copies a tile from global to shared memory with the tensor memory accelerator";
  let description = [{
    ```mlir
    tile.tma_load %desc[%row, %col], %slot, %bar : !tile.tensormap<[128, 64], f16, swizzle = 128>, !tile.smem<128x64xf16, #shared>, !tile.smem<1xi64, #bar>
    ```
    One thread of the program issues bulk tensor copies (`cp.async.bulk.tensor`) of the
    tile of `%slot`'s shape whose first element is at coordinates `[%row, %col]` of the
    array `%desc` describes (outermost first, as a tile's indices), box by box;
    coordinates outside the array read zeros. The copies complete on `%bar`, which must
    expect their bytes (`tile.mbarrier_expect`). `%slot` is a `#tile.nvmma_shared` tile
    of the tensor map's element type and swizzle, rows along the array's innermost
    dimension.

    With `multicast %mc` (i1) in a kernel launched in clusters of two programs
    (`tile.cluster_size = 2`) whose partner copies the same tile at the same coordinates
    into the same slot: where `%mc` holds, each program copies the boxes of its cluster
    rank's parity (box 0, 2, ... for rank 0) to the slot and barrier of both programs
    (`.multicast::cluster`), so each reads half the tile from L2; elsewhere it copies
    every box itself. The barrier expects the whole tile's bytes either way. The tile
    has an even number of boxes.
  }];
  let arguments = (ins Tile_TensorMapLike:$desc, Variadic<I32>:$coords, Tile_Smem:$dst,
                       Tile_Smem:$barrier, Optional<I1>:$multicast);
  let assemblyFormat = [{
    $desc `[` $coords `]` `,` $dst `,` $barrier (`multicast` $multicast^)? attr-dict `:`
    qualified(type($desc)) `,` qualified(type($dst)) `,` qualified(type($barrier))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The boxes one op copies (the slot's tile over the tensor map's box).
    int64_t getNumBoxes();
  }];
}

def Tile_TmaStoreOp : Tile_Op<"tma_store", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copies a shared tile to global memory with the tensor memory accelerator";
  let description = [{
    ```mlir
    tile.tma_store %desc[%row, %col], %tile : !tile.tensormap<[128, 64], f16, swizzle = 128>, !tile.smem<128x256xf16, #shared>
    ```
    One thread of the program issues bulk tensor copies (`cp.async.bulk.tensor`, shared
    to global) of `%tile`, box by box, to the elements of the array `%desc` describes
    whose first is at coordinates `[%row, %col]` (outermost first); elements outside the
    array's extents are not written. It then waits until the copies have read the tile
    (`cp.async.bulk.wait_group.read 0`): the tile's bytes may be reused after a barrier;
    the writes to global memory complete on their own, before the program ends. Every
    thread's writes to `%tile` must have been made visible to the copies first (a proxy
    fence and a barrier: tile-allocate-shared puts them). `%tile` is laid out as for
    `tile.tma_load`.
  }];
  let arguments = (ins Tile_TensorMapLike:$desc, Variadic<I32>:$coords, Tile_Smem:$src);
  let assemblyFormat = [{
    $desc `[` $coords `]` `,` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The boxes one op copies (the tile over the tensor map's box).
    int64_t getNumBoxes();
  }];
}

//===----------------------------------------------------------------------===//
// Hints and debugging
//===----------------------------------------------------------------------===//

def Tile_HintOp : Tile_Op<"hint", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "promises properties of integer or pointer values to the optimiser";
  let description = [{
    ```mlir
    %n16 = tile.hint %n {divisibility = array<i32: 16>} : i32
    %o = tile.hint %offs {contiguity = array<i32: 128>, divisibility = array<i32: 128>} : tensor<128xi32>
    ```
    `divisibility[d]`: every value (pointers: every address in bytes) is a multiple of it
    along dimension d (one entry for a scalar). `contiguity[d]`: runs of that many
    consecutive values along d. What `multiple_of` and `max_contiguous` write.
  }];
  let arguments = (ins AnyTypeOf<[Tile_Int, Tile_Ptr, Tile_IntTile, Tile_PtrTile]>:$src,
                       OptionalAttr<DenseI32ArrayAttr>:$divisibility,
                       OptionalAttr<DenseI32ArrayAttr>:$contiguity);
  let results = (outs AnyTypeOf<[Tile_Int, Tile_Ptr, Tile_IntTile, Tile_PtrTile]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "device_assert: a condition checked at run time";
  let description = [{
    ```mlir
    tile.assert %c, "n must be positive" : i1
    tile.assert %m, "" : tensor<128xi1>
    ```
    Where `cond` (any element of a tile) is false, the launch fails, reporting `message` and
    the op's location (file and line). On the GPU a thread holding a false element calls the
    CUDA system call `__assertfail`, which prints the message, file, line, program and
    thread, and makes the launch fail with CUDA_ERROR_ASSERT (the runtime's error says so);
    the interpreter stops with a located error. `tcc --no-device-assert` emits none.
  }];
  let arguments = (ins Tile_BoolLike:$cond, StrAttr:$message);
  let assemblyFormat = "$cond `,` $message attr-dict `:` type($cond)";
}

def Tile_AssumeOp : Tile_Op<"assume", [MemoryEffects<[MemWrite]>]> {
  let summary = "promises that a condition holds (llvm.assume on the GPU)";
  let description = [{
    ```mlir
    tile.assume %c : i1
    tile.assume %m : tensor<128xi1>
    ```
    What `assume(cond)` writes: the compiled program may take `cond` (every element of a
    tile) to be true; the interpreter checks that it is. The write effect keeps it where it
    is written.
  }];
  let arguments = (ins Tile_BoolLike:$cond);
  let assemblyFormat = "$cond attr-dict `:` type($cond)";
}

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "prints values from the device (or the interpreter)";
  let description = [{
    ```mlir
    tile.print "x = " %x, %pid : tensor<128xf32>, i32
    ```
  }];
  let arguments = (ins StrAttr:$prefix, Variadic<Tile_Value>:$args);
  let assemblyFormat = "$prefix ($args^ `:` type($args))? attr-dict";
}

#endif // TILE_OPS_TD
