//===- DropHints.cpp - tile-drop-hints -------------------------------------===//

#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

namespace tcc {
#define GEN_PASS_DEF_TILEDROPHINTS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

namespace {
struct DropHints : tcc::impl::TileDropHintsBase<DropHints> {
  void runOnOperation() override {
    getOperation().walk([](mlir::tile::HintOp hint) {
      hint.getResult().replaceAllUsesWith(hint.getSrc());
      hint.erase();
    });
  }
};
} // namespace
