//===- GridLowering.cpp - program ids and grid sizes ----------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"

#include "dialects/Tile/TileDialect.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

struct ProgramIdLowering : OpConversionPattern<ProgramIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ProgramIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, nvvm::programId(rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

struct NumProgramsLowering : OpConversionPattern<NumProgramsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(NumProgramsOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, nvvm::numPrograms(rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

} // namespace

void populateGridLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ProgramIdLowering, NumProgramsLowering>(converter, patterns.getContext());
}

} // namespace tcc
