//===- PointerLowering.cpp - pointer arithmetic ----------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

/// addptr -> getelementptr over the pointee's memory type; LLVM sign-extends the offset.
struct AddPtrLowering : OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AddPtrOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type pointee = getPointeeType(op.getPtr().getType());
    if (auto tile = dyn_cast<RankedTensorType>(pointee))
      pointee = tile.getElementType();
    Type element = memoryType(pointee);
    Type ptrType = globalPtrType(getContext());
    ValueRange ptrs = adaptor.getPtr(), offsets = adaptor.getOffset();
    SmallVector<Value> results;
    for (size_t i = 0; i < offsets.size(); ++i) {
      Value base = ptrs.size() == 1 ? ptrs[0] : ptrs[i];
      results.push_back(LLVM::GEPOp::create(rewriter, op.getLoc(), ptrType, element, base,
                                            ValueRange{offsets[i]}));
    }
    replaceWithRegisters(rewriter, op, results);
    return success();
  }
};

/// ptr_offset -> ptrtoint of each pointer minus ptrtoint of the base (bytes, i64).
struct PtrOffsetLowering : OpConversionPattern<PtrOffsetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PtrOffsetOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    ValueRange ptrs = adaptor.getPtr(), bases = adaptor.getBase();
    if (bases.size() != 1)
      return rewriter.notifyMatchFailure(op, "a base pointer is one register");
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, i64, bases[0]);
    SmallVector<Value> results;
    for (Value ptr : ptrs)
      results.push_back(LLVM::SubOp::create(
          rewriter, loc, LLVM::PtrToIntOp::create(rewriter, loc, i64, ptr), base));
    replaceWithRegisters(rewriter, op, results);
    return success();
  }
};

/// int_to_ptr / ptr_to_int -> inttoptr / ptrtoint of each register.
struct IntToPtrLowering : OpConversionPattern<IntToPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(IntToPtrOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> results;
    for (Value v : adaptor.getSrc())
      results.push_back(
          LLVM::IntToPtrOp::create(rewriter, op.getLoc(), globalPtrType(getContext()), v));
    replaceWithRegisters(rewriter, op, results);
    return success();
  }
};

struct PtrToIntLowering : OpConversionPattern<PtrToIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PtrToIntOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> results;
    for (Value v : adaptor.getSrc())
      results.push_back(LLVM::PtrToIntOp::create(rewriter, op.getLoc(), rewriter.getI64Type(), v));
    replaceWithRegisters(rewriter, op, results);
    return success();
  }
};

} // namespace

void populatePointerLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AddPtrLowering, PtrOffsetLowering, IntToPtrLowering, PtrToIntLowering>(
      converter, patterns.getContext());
}

} // namespace tcc
