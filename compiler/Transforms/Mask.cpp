//===- Mask.cpp - tile-mask -------------------------------------------------===//
//
// Decides how each load and store reaches memory: masks that AxisInfo proves true
// everywhere go (a tile that is always in bounds needs no predicate), and the vector
// width is the largest number of consecutive elements one thread can move with one
// instruction under one predicate: its layout's run along order[0], the pointers'
// contiguity and alignment, the mask's constancy, and 16 bytes.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/AxisInfo.h"
#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

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

struct Mask : tcc::impl::TileMaskBase<Mask> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      tcc::AxisInfoAnalysis axis(func);
      SmallVector<Operation *> memoryOps;
      func.walk([&](Operation *op) {
        if (isa<tile::LoadOp, tile::StoreOp>(op))
          memoryOps.push_back(op);
      });
      for (Operation *op : memoryOps)
        if (Operation *kept = simplifyMask(op, axis))
          setVectorWidth(kept, axis);
    }
  }

  /// Drops a mask proven true everywhere and ops a mask proven false everywhere turns
  /// into nothing; returns the memory op that remains, if any.
  Operation *simplifyMask(Operation *op, const tcc::AxisInfoAnalysis &axis) {
    Value mask = isa<tile::LoadOp>(op) ? cast<tile::LoadOp>(op).getMask()
                                       : cast<tile::StoreOp>(op).getMask();
    if (!mask)
      return op;
    std::optional<int64_t> known = axis.getAxisInfo(mask).getConstantValue();
    if (!known)
      return op;
    OpBuilder builder(op);
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      if (*known == 0) {
        // Nothing is read; without `other` the result is undefined, so the load stays.
        if (!load.getOther())
          return op;
        load.getResult().replaceAllUsesWith(load.getOther());
        load.erase();
        return nullptr;
      }
      auto unmasked = tile::LoadOp::create(builder, load.getLoc(), load.getPtr());
      unmasked->setDiscardableAttrs(load->getDiscardableAttrDictionary());
      load.getResult().replaceAllUsesWith(unmasked.getResult());
      load.erase();
      return unmasked;
    }
    auto store = cast<tile::StoreOp>(op);
    if (*known == 0) {
      store.erase();
      return nullptr;
    }
    auto unmasked =
        tile::StoreOp::create(builder, store.getLoc(), store.getPtr(), store.getValue(), Value());
    unmasked->setDiscardableAttrs(store->getDiscardableAttrDictionary());
    store.erase();
    return unmasked;
  }

  void setVectorWidth(Operation *op, const tcc::AxisInfoAnalysis &axis) {
    Value ptr = op->getOperand(0);
    if (!isa<RankedTensorType>(ptr.getType()))
      return;
    Value mask = isa<tile::LoadOp>(op) ? cast<tile::LoadOp>(op).getMask()
                                       : cast<tile::StoreOp>(op).getMask();
    tile::setVectorWidth(op, unsigned(vectorWidth(ptr, mask, axis)));
  }
};

} // namespace
