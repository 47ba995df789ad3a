//===- ElementwiseLowering.cpp - arith and math on tiles, per element -----===//
//
// An element-wise op on tiles becomes the same op once per register: operands of the
// same layout hold matching elements in matching registers. Splat constants become one
// scalar constant shared by every register.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace tcc {
namespace {

bool isTile(Type type) { return isa<RankedTensorType>(type); }

/// Any arith or math op (other than constants) with tile operands or results.
struct ElementwiseToScalars : ConversionPattern {
  ElementwiseToScalars(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumRegions() != 0 ||
        !op->hasTrait<OpTrait::Elementwise>())
      return failure();
    if (llvm::none_of(op->getResultTypes(), isTile) &&
        llvm::none_of(op->getOperandTypes(), isTile))
      return failure();
    size_t count = 0;
    for (ValueRange range : operands)
      count = std::max(count, range.size());
    for (ValueRange range : operands)
      if (range.size() != count && range.size() != 1)
        return rewriter.notifyMatchFailure(op, "operands hold different register counts");

    SmallVector<Type> resultTypes;
    for (Type type : op->getResultTypes()) {
      Type element = isTile(type) ? cast<RankedTensorType>(type).getElementType() : type;
      resultTypes.push_back(getTypeConverter()->convertType(element));
    }
    SmallVector<SmallVector<Value>> results(op->getNumResults());
    for (size_t i = 0; i < count; ++i) {
      OperationState state(op->getLoc(), op->getName());
      for (ValueRange range : operands)
        state.addOperands(range.size() == 1 ? range[0] : range[i]);
      state.addTypes(resultTypes);
      state.addAttributes(op->getAttrs());
      Operation *scalar = rewriter.create(state);
      for (unsigned r = 0; r < op->getNumResults(); ++r)
        results[r].push_back(scalar->getResult(r));
    }
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

struct SplatConstantToScalar : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat)
      return op.emitOpError() << "only splat constant tiles can be lowered";
    std::optional<Distribution> dist = getDistributionOrError(op, type);
    if (!dist)
      return failure();
    Value scalar = arith::ConstantOp::create(rewriter, op.getLoc(),
                                             cast<TypedAttr>(splat.getSplatValue<Attribute>()));
    SmallVector<Value> values(dist->getNumRegs(), scalar);
    replaceWithRegisters(rewriter, op, values);
    return success();
  }
};

} // namespace

void populateElementwiseLoweringPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<ElementwiseToScalars>(converter, patterns.getContext());
  patterns.add<SplatConstantToScalar>(converter, patterns.getContext());
}

} // namespace tcc
