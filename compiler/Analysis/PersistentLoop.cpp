//===- PersistentLoop.cpp - a persistent kernel's tile loop -----------------===//

#include "compiler/Analysis/PersistentLoop.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;

namespace tcc {

bool isPersistentTileLoop(Operation *op) {
  auto func = op ? op->getParentOfType<func::FuncOp>() : func::FuncOp();
  return isa_and_nonnull<scf::ForOp>(op) && func &&
         func->hasAttr(tile::kPersistentAttrName) &&
         !op->getParentOfType<LoopLikeOpInterface>();
}

scf::ForOp persistentTileLoop(func::FuncOp func) {
  if (func.isExternal() || !func->hasAttr(tile::kPersistentAttrName))
    return {};
  Operation *last = func.getBody().front().getTerminator()->getPrevNode();
  return isPersistentTileLoop(last) ? cast<scf::ForOp>(last) : scf::ForOp();
}

bool fromProgramId(Value v) {
  if (Operation *def = v.getDefiningOp(); def && isa<tile::ProgramIdOp>(def))
    return true;
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitBlockArguments = false;
  if (failed(getBackwardSlice(v, &slice, options)))
    return true; // cannot tell
  return llvm::any_of(slice, [](Operation *op) { return isa<tile::ProgramIdOp>(op); });
}

} // namespace tcc
