//===- Mask.cpp - tile-mask -------------------------------------------------===//
//
// Decides how each load and store reaches memory: masks that AxisInfo proves true
// everywhere go (a tile that is always in bounds needs no predicate), and the vector
// width is the largest number of consecutive elements one thread can move with one
// instruction under one predicate: its layout's run along order[0], the pointers'
// contiguity and alignment, the mask's constancy, and 16 bytes. Both are rewrite
// patterns (DropKnownMask, SetVectorWidth) that the greedy driver applies to the loads
// and stores alone; masks that are constants are the ops' own canonicalisation.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/AxisInfo.h"
#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>

namespace tcc {
#define GEN_PASS_DEF_TILEMASK
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Elements per access for a load or store through `ptr` under `mask` (may be null).
int64_t vectorWidth(Value ptr, Value mask, const tcc::AxisInfoAnalysis &axis) {
  auto type = cast<RankedTensorType>(ptr.getType());
  auto blocked = dyn_cast_or_null<tile::BlockedEncodingAttr>(type.getEncoding());
  if (!blocked)
    return 1;
  unsigned dim = blocked.getOrder().front();
  int64_t bytes = tcc::getPointeeBytes(type);
  int64_t width = std::min<int64_t>({blocked.getSizePerThread()[dim], type.getDimSize(dim),
                                     axis.getContiguity(ptr, dim),
                                     axis.getPtrAlignment(ptr, dim),
                                     std::max<int64_t>(1, 16 / bytes)});
  if (mask)
    width = std::min(width, axis.getMaskConstancy(mask, dim));
  return std::max<int64_t>(width, 1);
}

/// A pattern on a load or store that asks AxisInfo about its operands.
template <typename AccessOp>
struct AccessPattern : OpRewritePattern<AccessOp> {
  AccessPattern(MLIRContext *context, const tcc::AxisInfoAnalysis &axis)
      : OpRewritePattern<AccessOp>(context), axis(axis) {}
  const tcc::AxisInfoAnalysis &axis;
};

/// A mask AxisInfo proves constant: true everywhere, the access is unmasked; false
/// everywhere, a store goes and a load becomes its `other` (tile::rewriteKnownMask).
template <typename AccessOp>
struct DropKnownMask : AccessPattern<AccessOp> {
  using AccessPattern<AccessOp>::AccessPattern;
  LogicalResult matchAndRewrite(AccessOp op, PatternRewriter &rewriter) const override {
    return tile::rewriteKnownMask(rewriter, op, [&](Value mask) -> std::optional<bool> {
      if (std::optional<int64_t> known = this->axis.getAxisInfo(mask).getConstantValue())
        return *known != 0;
      return std::nullopt;
    });
  }
};

/// A tile access gets the vector width its layout, pointers and mask allow (`vec`).
template <typename AccessOp>
struct SetVectorWidth : AccessPattern<AccessOp> {
  using AccessPattern<AccessOp>::AccessPattern;
  LogicalResult matchAndRewrite(AccessOp op, PatternRewriter &rewriter) const override {
    Value ptr = op.getPtr();
    if (!isa<RankedTensorType>(ptr.getType()))
      return failure();
    auto width = uint32_t(vectorWidth(ptr, op.getMask(), this->axis));
    if (op.getVec() == width)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { tile::setVectorWidth(op, width); });
    return success();
  }
};

struct Mask : tcc::impl::TileMaskBase<Mask> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // The analysis is of the IR before the rewrites, which only drop masks, erase
      // accesses and set widths: the values it describes stay as they were.
      tcc::AxisInfoAnalysis axis(func);
      RewritePatternSet patterns(&getContext());
      patterns.add<DropKnownMask<tile::LoadOp>, DropKnownMask<tile::StoreOp>,
                   SetVectorWidth<tile::LoadOp>, SetVectorWidth<tile::StoreOp>>(&getContext(),
                                                                                axis);
      SmallVector<Operation *> accesses;
      func.walk([&](Operation *op) {
        if (isa<tile::LoadOp, tile::StoreOp>(op))
          accesses.push_back(op);
      });
      // Only the accesses change (an unused load, dead, goes).
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingOps)
          .enableFolding(false)
          .enableConstantCSE(false);
      if (failed(applyOpPatternsGreedily(accesses, std::move(patterns), config))) {
        func.emitError("tile-mask: the rewrites did not converge");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
