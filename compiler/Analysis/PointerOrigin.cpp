//===- PointerOrigin.cpp - which kernel argument a pointer comes from -------===//

#include "compiler/Analysis/PointerOrigin.h"

#include "dialects/Tile/TileDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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
    else if (isa<SplatOp, BroadcastOp, ExpandDimsOp, ConvertLayoutOp, HintOp>(def))
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

llvm::SmallVector<unsigned> tcc::addressingArguments(mlir::func::FuncOp kernel) {
  using namespace mlir;
  // Whether some use of `v`, followed through the results of pure ops, can matter to the
  // code's addresses or control.
  auto reaches = [](Value start) {
    SmallVector<Value> work{start};
    llvm::DenseSet<Value> seen{start};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        if (auto add = dyn_cast<tile::AddPtrOp>(user)) {
          if (use.get() == add.getOffset())
            return true;
        } else if (auto load = dyn_cast<tile::LoadOp>(user)) {
          if (use.get() != load.getOther())
            return true;
          continue;
        } else if (auto store = dyn_cast<tile::StoreOp>(user)) {
          if (use.get() != store.getValue())
            return true;
          continue;
        } else if (isa<tile::PrintOp, func::ReturnOp>(user)) {
          continue;
        } else if (user->getNumRegions() != 0 || !isPure(user)) {
          return true; // loops, branches, atomics, calls: anything may depend on it
        }
        for (Value result : user->getResults())
          if (seen.insert(result).second)
            work.push_back(result);
      }
    }
    return false;
  };
  llvm::SmallVector<unsigned> out;
  for (BlockArgument arg : kernel.getArguments())
    if (isa<IntegerType>(arg.getType()) && reaches(arg))
      out.push_back(arg.getArgNumber());
  return out;
}
