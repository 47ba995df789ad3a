//===- ConvertLayoutLowering.cpp - moving a tile between layouts ----------===//
//
// When every thread already holds, in some register, each element the new layout gives
// it, the conversion is a renaming of registers. Otherwise the tile goes through shared
// memory: every thread stores its registers (vectorised along the shared rows), a
// barrier, every thread loads what the new layout gives it. The shared layout (row
// dimension, vector width, swizzle or padding) is chosen by simulating the bank
// conflicts of both sides (SharedLayout.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "dialects/Tile/SharedLayout.h"
#include "compiler/Conversion/SharedMemory.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

struct ConversionPlan {
  Distribution src, dst;
  std::optional<SmallVector<int64_t>> registerMap; // set: no data movement
  SharedLayout shared;
  unsigned elementBytes = 4;
};

std::optional<ConversionPlan> planConversion(RankedTensorType srcType, RankedTensorType dstType) {
  std::optional<Distribution> src = Distribution::get(srcType);
  std::optional<Distribution> dst = Distribution::get(dstType);
  if (!src || !dst)
    return std::nullopt;
  ConversionPlan plan{*src, *dst, std::nullopt, {}, 4};
  plan.registerMap = mapRegistersInThread(
      *src, *dst, [](ArrayRef<int64_t> c) { return SmallVector<int64_t>(c); });
  if (plan.registerMap)
    return plan;
  plan.elementBytes = memoryType(srcType.getElementType()).getIntOrFloatBitWidth() / 8;
  SmallVector<SmallVector<unsigned>> orders{llvm::to_vector(src->getTileOrder())};
  if (ArrayRef<unsigned>(orders.front()) != dst->getTileOrder())
    orders.push_back(llvm::to_vector(dst->getTileOrder()));
  plan.shared = chooseSharedLayout(
      srcType.getShape(), orders, plan.elementBytes,
      [&](ArrayRef<unsigned> order, unsigned maxWidth) {
        return std::vector<WarpAccesses>{distributionAccesses(*src, order[0], maxWidth),
                                         distributionAccesses(*dst, order[0], maxWidth)};
      });
  return plan;
}

struct ConvertLayoutLowering : OpConversionPattern<ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType(), dstType = op.getType();
    std::optional<ConversionPlan> plan = planConversion(srcType, dstType);
    if (!plan)
      return op.emitOpError() << "converts between layouts the lowering does not know";
    ValueRange srcRegs = adaptor.getSrc();
    if (plan->registerMap) {
      SmallVector<Value> values;
      for (int64_t p : *plan->registerMap)
        values.push_back(srcRegs[p]);
      replaceWithRegisters(rewriter, op, values);
      return success();
    }

    Location loc = op.getLoc();
    const SharedLayout &layout = plan->shared;
    Type elementType = getTypeConverter()->convertType(srcType.getElementType());
    Type memType = memoryType(elementType);
    Value base = scratchBase(rewriter, op);
    if (!base)
      return failure();

    storeTile(rewriter, loc, base, layout, plan->src, memType, srcRegs);
    nvvm::barrier(rewriter, loc);
    SmallVector<Value> values =
        loadTile(rewriter, loc, base, layout, plan->dst, memType, elementType);
    replaceWithRegisters(rewriter, op, values);
    return success();
  }
};

} // namespace

int64_t convertLayoutScratchBytes(Operation *op) {
  auto convert = cast<ConvertLayoutOp>(op);
  std::optional<ConversionPlan> plan =
      planConversion(convert.getSrc().getType(), convert.getType());
  if (!plan || plan->registerMap)
    return 0;
  return plan->shared.sizeInElements() * plan->elementBytes;
}

void populateConvertLayoutLoweringPatterns(TileTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering>(converter, patterns.getContext());
}

} // namespace tcc
