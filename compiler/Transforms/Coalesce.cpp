//===- Coalesce.cpp - tile-coalesce -----------------------------------------===//
//
// A warp's access is coalesced when its lanes touch consecutive addresses; it is wide
// when each lane moves up to 16 bytes with one instruction. Both follow from the
// pointers' AxisInfo: the most contiguous dimension becomes the fastest one of the
// layout, and each thread owns as many consecutive elements along it as contiguity,
// alignment, 16 bytes and its share of the tile allow.
//
// Alignment matters for the layout too, not only for the vector width: with unaligned
// pointers each access is one element wide anyway, and one element per thread lets a
// warp instruction cover 32 consecutive elements instead of 32 strided ones.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/AxisInfo.h"
#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <algorithm>
#include <numeric>

namespace tcc {
#define GEN_PASS_DEF_TILECOALESCE
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The layout a load or store through `ptr` should have.
tile::BlockedEncodingAttr chooseLayout(Value ptr, const tcc::AxisInfoAnalysis &axis,
                                       unsigned numWarps, unsigned threadsPerWarp) {
  auto type = cast<RankedTensorType>(ptr.getType());
  unsigned rank = type.getRank();
  tcc::AxisInfo info = axis.getAxisInfo(ptr);

  // Most contiguous dimension first; ties keep the order the tile already has.
  SmallVector<unsigned> order;
  if (auto blocked = dyn_cast_or_null<tile::BlockedEncodingAttr>(type.getEncoding()))
    order.assign(blocked.getOrder().begin(), blocked.getOrder().end());
  else {
    order.resize(rank);
    std::iota(order.rbegin(), order.rend(), 0u);
  }
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return info.contiguity[a] > info.contiguity[b];
  });

  unsigned fastest = order.front();
  int64_t bytes = tcc::getPointeeBytes(type);
  int64_t threads = int64_t(threadsPerWarp) * numWarps;
  int64_t perThread = std::min<int64_t>({std::max<int64_t>(1, 16 / bytes),
                                         info.contiguity[fastest],
                                         axis.getPtrAlignment(ptr, fastest),
                                         std::max<int64_t>(1, type.getNumElements() / threads),
                                         type.getDimSize(fastest)});
  SmallVector<unsigned> sizePerThread(rank, 1);
  sizePerThread[fastest] = perThread;
  return tcc::makeBlockedLayout(ptr.getContext(), type.getShape(), sizePerThread, order,
                                numWarps, threadsPerWarp);
}

struct Coalesce : tcc::impl::TileCoalesceBase<Coalesce> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      tcc::AxisInfoAnalysis axis(func);
      unsigned numWarps = tcc::getNumWarps(func);
      unsigned threadsPerWarp = tile::getThreadsPerWarp(func);
      SmallVector<Operation *> memoryOps;
      func.walk([&](Operation *op) {
        if (isa<tile::LoadOp, tile::StoreOp, tile::AtomicAddOp>(op) &&
            isa<RankedTensorType>(op->getOperand(0).getType()))
          memoryOps.push_back(op);
      });
      for (Operation *op : memoryOps) {
        Value ptr = op->getOperand(0);
        if (!tcc::getLayout(ptr.getType())) {
          op->emitError("tile-coalesce: tiles have no layout (run tile-assign-layouts first)");
          return signalPassFailure();
        }
        relayout(op, chooseLayout(ptr, axis, numWarps, threadsPerWarp));
      }
    }
  }

  /// Gives the memory op `op` the layout `layout`, converting its operands into it and
  /// its result (for a load) back to what its users expect.
  void relayout(Operation *op, Attribute layout) {
    OpBuilder builder(op);
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (isa<RankedTensorType>(value.getType()) && tcc::getLayout(value.getType()) != layout)
        operand.set(tcc::convertBefore(builder, op, value, layout));
    }
    // A load's or atomic_add's result.
    for (Value result : op->getResults()) {
      Type oldType = result.getType();
      if (!isa<RankedTensorType>(oldType) || tcc::getLayout(oldType) == layout)
        continue;
      result.setType(tcc::withLayout(oldType, layout));
      builder.setInsertionPointAfter(op);
      auto back = tile::ConvertLayoutOp::create(builder, op->getLoc(), oldType, result);
      result.replaceAllUsesExcept(back, back);
    }
  }
};

} // namespace
