//===- PointerOrigin.cpp - which kernel argument a pointer comes from -------===//

#include "compiler/Analysis/PointerOrigin.h"

#include "dialects/Tile/TileDialect.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;

Value tcc::pointerArgument(Value ptr) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(ptr))
      return isa<func::FuncOp>(arg.getOwner()->getParentOp()) ? ptr : Value();
    Operation *def = ptr.getDefiningOp();
    if (!def)
      return Value();
    if (auto add = dyn_cast<AddPtrOp>(def))
      ptr = add.getPtr();
    else if (isa<SplatOp, BroadcastOp, ExpandDimsOp, ConvertLayoutOp>(def))
      ptr = def->getOperand(0);
    else
      return Value();
  }
}

std::optional<llvm::SmallVector<unsigned>> tcc::writtenArguments(func::FuncOp kernel) {
  llvm::SmallVector<unsigned> written;
  bool traced = true;
  kernel.walk([&](Operation *op) {
    Value ptr;
    if (auto store = dyn_cast<StoreOp>(op))
      ptr = store.getPtr();
    else if (auto atomic = dyn_cast<AtomicAddOp>(op))
      ptr = atomic.getPtr();
    else if (auto rmw = dyn_cast<AtomicRMWOp>(op))
      ptr = rmw.getPtr();
    else if (auto cas = dyn_cast<AtomicCASOp>(op))
      ptr = cas.getPtr();
    else
      return;
    Value arg = pointerArgument(ptr);
    if (!arg) {
      traced = false;
      return;
    }
    unsigned number = cast<BlockArgument>(arg).getArgNumber();
    if (!llvm::is_contained(written, number))
      written.push_back(number);
  });
  if (!traced)
    return std::nullopt;
  llvm::sort(written);
  return written;
}
