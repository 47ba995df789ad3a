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

    const Distribution &src = plan->src, &dst = plan->dst;
    SmallVector<Value> srcBases, dstBases;
    for (unsigned d = 0; d < src.getRank(); ++d)
      srcBases.push_back(emitThreadBase(rewriter, loc, src, d));
    unsigned srcWidth = accessWidth(src, layout.order[0], layout.vec);
    SharedAccesses srcAddresses(layout, src, srcWidth);
    for (int64_t reg = 0; reg < src.getNumRegs(); reg += srcWidth) {
      Value ptr = srcAddresses.emit(rewriter, loc, base, memType, srcBases, reg);
      SmallVector<Value> elements;
      for (unsigned i = 0; i < srcWidth; ++i)
        elements.push_back(toSharedMemory(rewriter, loc, srcRegs[reg + i]));
      storeShared(rewriter, loc, ptr, elements);
    }
    nvvm::barrier(rewriter, loc);

    for (unsigned d = 0; d < dst.getRank(); ++d)
      dstBases.push_back(emitThreadBase(rewriter, loc, dst, d));
    unsigned dstWidth = accessWidth(dst, layout.order[0], layout.vec);
    SmallVector<Value> values;
    SharedAccesses dstAddresses(layout, dst, dstWidth);
    for (int64_t reg = 0; reg < dst.getNumRegs(); reg += dstWidth) {
      Value ptr = dstAddresses.emit(rewriter, loc, base, memType, dstBases, reg);
      for (Value v : loadShared(rewriter, loc, ptr, memType, dstWidth))
        values.push_back(fromSharedMemory(rewriter, loc, v, elementType));
    }
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
