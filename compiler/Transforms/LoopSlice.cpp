//===- LoopSlice.cpp - the ops of a loop body computing a value ------------===//

#include "compiler/Transforms/LoopSlice.h"
#include "compiler/Transforms/LayoutUtils.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace tcc {

bool loopSliceOf(scf::ForOp loop, Value v, llvm::SetVector<Operation *> &ops,
                 llvm::function_ref<bool(BlockArgument)> acceptBodyArg) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() == loop.getBody())
      return acceptBodyArg(arg);
    return !loop->isAncestor(arg.getOwner()->getParentOp());
  }
  Operation *def = v.getDefiningOp();
  if (!loop->isAncestor(def))
    return true;
  if (def->getBlock() != loop.getBody() || def->getNumRegions() || !isPure(def))
    return false;
  if (ops.contains(def))
    return true;
  for (Value operand : def->getOperands())
    if (!loopSliceOf(loop, operand, ops, acceptBodyArg))
      return false;
  ops.insert(def);
  return true;
}

Value loopIncrement(scf::ForOp loop, BlockArgument arg, llvm::SetVector<Operation *> &incOps) {
  if (arg.getOwner() != loop.getBody() || arg == loop.getInductionVar())
    return {};
  unsigned index = arg.getArgNumber() - loop.getNumInductionVars();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Value next = yield.getOperand(index), inc;
  if (isa<RankedTensorType>(arg.getType())) {
    auto add = next.getDefiningOp<tile::AddPtrOp>();
    if (!add || stripHints(add.getPtr()) != arg)
      return {};
    inc = add.getOffset();
  } else if (arg.getType().isSignlessInteger()) {
    auto add = next.getDefiningOp<arith::AddIOp>();
    if (!add)
      return {};
    if (stripHints(add.getLhs()) == arg)
      inc = add.getRhs();
    else if (stripHints(add.getRhs()) == arg)
      inc = add.getLhs();
    else
      return {};
  } else {
    return {};
  }
  // The increment must not change from one iteration to the next.
  llvm::SetVector<Operation *> ops;
  if (!loopSliceOf(loop, inc, ops, [](BlockArgument) { return false; }))
    return {};
  incOps.insert(ops.begin(), ops.end());
  return inc;
}

} // namespace tcc
