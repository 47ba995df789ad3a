//===- LoopSlice.cpp - the ops of a loop body computing a value ------------===//

#include "compiler/Transforms/LoopSlice.h"

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

} // namespace tcc
