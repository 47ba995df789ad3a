//===- DropHints.cpp - tile-drop-hints -------------------------------------===//
//
// Hints (tile.hint: multiple_of, max_contiguous) are read by AxisInfo until tile-mask
// has decided the vector widths; then each is its source. A rewrite pattern applied by
// the greedy driver to the hints alone (no folding, nothing else erased).
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_TILEDROPHINTS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

struct HintIsItsSource : OpRewritePattern<tile::HintOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::HintOp hint, PatternRewriter &rewriter) const override {
    rewriter.replaceOp(hint, hint.getSrc());
    return success();
  }
};

struct DropHints : tcc::impl::TileDropHintsBase<DropHints> {
  void runOnOperation() override {
    SmallVector<Operation *> hints;
    getOperation().walk([&](tile::HintOp hint) { hints.push_back(hint); });
    RewritePatternSet patterns(&getContext());
    patterns.add<HintIsItsSource>(&getContext());
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps)
        .enableFolding(false)
        .enableConstantCSE(false);
    bool allErased = false;
    if (failed(applyOpPatternsGreedily(hints, std::move(patterns), config, nullptr,
                                       &allErased)) ||
        !allErased) {
      getOperation()->emitError("tile-drop-hints: a hint was left");
      signalPassFailure();
    }
  }
};

} // namespace
