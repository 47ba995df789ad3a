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

} // namespace

void populatePointerLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AddPtrLowering>(converter, patterns.getContext());
}

} // namespace tcc
