//===- ElementwiseLowering.cpp - arith and math on tiles, per element -----===//
//
// An element-wise op on tiles becomes the same op once per register: operands of the
// same layout hold matching elements in matching registers. Splat constants become one
// scalar constant shared by every register.
//
// Where AxisInfo proves an integer or boolean result constant over aligned groups of
// elements (the mask `cols < n` with n a multiple of 16, a row index broadcast along a
// row), the op is computed once per group a thread holds and the other registers of the
// group reuse that value: fewer instructions, and fewer live predicates for ptxas to keep
// (the mask of a 64-element row is 16 predicates, not 64).
//
// tile.assume becomes one llvm.assume per distinct register of its condition.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"

#include "compiler/Analysis/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace tcc {
namespace {

bool isTile(Type type) { return isa<RankedTensorType>(type); }

/// For each register of the tile `result`, the register whose value it equals by
/// AxisInfo's constancy (itself when none before it): registers r and s of one thread
/// hold equal values when their elements fall in one aligned group of `constancy[d]`
/// along every dimension d. A thread's coordinates are its base OR its register offsets
/// (disjoint bits), so that is when the offsets agree above the low log2(constancy[d])
/// bits; the group's first register is the one whose offsets have those bits cleared.
SmallVector<int64_t> constancyRepresentatives(Value result, const AxisInfoAnalysis *axisInfo) {
  auto type = dyn_cast<RankedTensorType>(result.getType());
  if (!axisInfo || !type)
    return {};
  AxisInfo info = axisInfo->getAxisInfo(result);
  if (!info.isInitialized() || info.getRank() != unsigned(type.getRank()) ||
      llvm::all_of(info.constancy, [](int64_t c) { return c <= 1; }))
    return {};
  std::optional<tile::Distribution> dist = tile::Distribution::get(type);
  if (!dist)
    return {};
  SmallVector<int64_t> reps(dist->getNumRegs());
  for (int64_t reg = 0; reg < dist->getNumRegs(); ++reg) {
    SmallVector<int64_t> offsets = dist->getRegOffsets(reg);
    for (unsigned d = 0; d < offsets.size(); ++d)
      offsets[d] &= ~(info.constancy[d] - 1);
    std::optional<int64_t> first = dist->findReg(offsets);
    reps[reg] = first && *first < reg ? *first : reg;
  }
  return reps;
}

/// Any arith or math op (other than constants) with tile operands or results.
struct ElementwiseToScalars : ConversionPattern {
  ElementwiseToScalars(TypeConverter &converter, MLIRContext *ctx,
                       const AxisInfoAnalysis *axisInfo)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        axisInfo(axisInfo) {}

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
    SmallVector<int64_t> reps;
    if (op->getNumResults() == 1)
      reps = constancyRepresentatives(op->getResult(0), axisInfo);
    if (reps.size() != count)
      reps.clear();
    SmallVector<SmallVector<Value>> results(op->getNumResults());
    for (size_t i = 0; i < count; ++i) {
      if (!reps.empty() && reps[i] != int64_t(i)) {
        results[0].push_back(results[0][reps[i]]);
        continue;
      }
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

private:
  const AxisInfoAnalysis *axisInfo;
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

/// tile.assume: one llvm.assume per register of the condition (each thread promises what
/// it holds).
struct AssumeToIntrinsic : OpConversionPattern<tile::AssumeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tile::AssumeOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    llvm::SmallDenseSet<Value> seen;
    for (Value reg : adaptor.getCond())
      if (seen.insert(reg).second)
        LLVM::AssumeOp::create(rewriter, op.getLoc(), reg);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateElementwiseLoweringPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const AxisInfoAnalysis *axisInfo) {
  patterns.add<ElementwiseToScalars>(converter, patterns.getContext(), axisInfo);
  patterns.add<SplatConstantToScalar>(converter, patterns.getContext());
  patterns.add<AssumeToIntrinsic>(converter, patterns.getContext());
}

} // namespace tcc
