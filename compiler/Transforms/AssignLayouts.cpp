//===- AssignLayouts.cpp - tile-assign-layouts ------------------------------===//
//
// Gives every tile a layout, walking each kernel in dominance order: an op's results
// follow its operands where it can, so that the only conversions are those a shape
// change forces (a 1-D tile expanded into a 2-D one) or operands that disagree. Sources
// get one default layout per rank, chosen for the largest tile of that rank, so that
// broadcasts and element-wise ops between tiles of one rank agree from the start.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

namespace tcc {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using tcc::convertBefore;
using tcc::getLayout;
using tcc::setConstantLayout;
using tcc::withLayout;

namespace {

bool isTile(Type type) { return isa<RankedTensorType>(type); }

/// Values a conversion of which costs nothing once tile-remove-layout-conversions has
/// re-created them in the layout wanted: they should not decide an op's layout.
bool isCheapSource(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<tile::SplatOp, tile::MakeRangeOp, arith::ConstantOp>(def))
    return true;
  if (isa<tile::BroadcastOp, tile::ExpandDimsOp, tile::ConvertLayoutOp>(def))
    return isCheapSource(def->getOperand(0));
  return false;
}

class Assigner {
public:
  Assigner(func::FuncOp func, unsigned numWarps)
      : func(func), numWarps(numWarps), threadsPerWarp(tile::getThreadsPerWarp(func)),
        builder(func.getContext()) {}

  LogicalResult run() {
    // The default layout of each rank is made for the largest tile of that rank.
    DenseMap<unsigned, RankedTensorType> largest;
    func.walk([&](Operation *op) {
      for (Type type : op->getResultTypes())
        if (auto tile = dyn_cast<RankedTensorType>(type)) {
          auto &best = largest[tile.getRank()];
          if (!best || tile.getNumElements() > best.getNumElements())
            best = tile;
        }
    });
    for (auto &[rank, type] : largest)
      defaults[rank] = tcc::getDefaultLayout(func.getContext(), type.getShape(), numWarps,
                                              threadsPerWarp);
    // A dot's accumulator carried around loops takes the dot's layout from the start, so
    // that no conversion sits on the loop-carried path.
    func.walk([&](tile::DotOp dot) {
      Attribute layout = dotLayoutFor(dot);
      Value acc = dot.getAcc();
      while (auto arg = dyn_cast<BlockArgument>(acc)) {
        auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        if (!forOp || !forOp.getTiedLoopInit(arg) || preferred.count(arg))
          break;
        preferred[arg] = layout;
        acc = forOp.getTiedLoopInit(arg)->get();
      }
    });
    visitBlock(func.getBody().front());
    return mlir::failure(failed);
  }

private:
  func::FuncOp func;
  unsigned numWarps;
  unsigned threadsPerWarp;
  OpBuilder builder;
  DenseMap<unsigned, Attribute> defaults;
  DenseMap<Value, Attribute> preferred; // loop-carried accumulators of dots
  bool failed = false;

  /// `layout` with dimension i of the result taken from dimension order[i].
  Attribute permuteBlocked(tile::BlockedEncodingAttr layout, ArrayRef<int32_t> order) {
    SmallVector<unsigned> spt, threads, warps, fastest;
    SmallVector<unsigned> position(order.size()); // source dimension -> result dimension
    for (auto [i, d] : llvm::enumerate(order)) {
      spt.push_back(layout.getSizePerThread()[d]);
      threads.push_back(layout.getThreadsPerWarp()[d]);
      warps.push_back(layout.getWarpsPerCTA()[d]);
      position[d] = unsigned(i);
    }
    for (unsigned d : layout.getOrder())
      fastest.push_back(position[d]);
    return tile::BlockedEncodingAttr::get(func.getContext(), spt, threads, warps, fastest);
  }

  Attribute dotLayoutFor(tile::DotOp dot) {
    return tcc::getDotLayout(func.getContext(), dot.getType().getShape(), numWarps,
                             threadsPerWarp);
  }

  Attribute defaultFor(Type type) {
    auto tile = cast<RankedTensorType>(type);
    Attribute &layout = defaults[tile.getRank()];
    if (!layout)
      layout = tcc::getDefaultLayout(func.getContext(), tile.getShape(), numWarps,
                                      threadsPerWarp);
    return layout;
  }

  void convertOperand(Operation *op, unsigned index, Attribute layout) {
    Value value = op->getOperand(index);
    if (isTile(value.getType()) && getLayout(value.getType()) != layout)
      op->setOperand(index, convertBefore(builder, op, value, layout));
  }

  void setResultLayouts(Operation *op, Attribute layout) {
    if (isa<arith::ConstantOp>(op)) {
      if (mlir::failed(setConstantLayout(op, layout))) {
        op->emitError("tile-assign-layouts: cannot lay out a constant that is not dense");
        failed = true;
      }
      return;
    }
    for (Value result : op->getResults())
      if (isTile(result.getType()))
        result.setType(withLayout(result.getType(), layout));
  }

  void visitBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      visitOp(&op);
  }

  void visitOp(Operation *op) {
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return visitFor(forOp);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return visitIf(ifOp);
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return visitWhile(whileOp);
    bool hasTiles = llvm::any_of(op->getOperandTypes(), isTile) ||
                    llvm::any_of(op->getResultTypes(), isTile);
    if (!hasTiles)
      return;
    if (auto scan = dyn_cast<tile::ScanOp>(op)) {
      // A blocked layout whose threads hold runs along the axis (as many elements as a
      // thread holds, at most the axis): the lowering scans a run in registers, so that
      // fewer blocks cross lanes (a shuffle each) and warps (shared memory). The sources
      // are converted to it. Its region holds scalars only.
      if (llvm::any_of(op->getResultTypes(), [](Type t) { return getLayout(t) != nullptr; }))
        return;
      auto type = cast<RankedTensorType>(scan.getSrcs().front().getType());
      int64_t threads = int64_t(numWarps) * threadsPerWarp;
      int64_t run = std::clamp<int64_t>(type.getNumElements() / threads, 1,
                                        type.getDimSize(scan.getAxis()));
      SmallVector<unsigned> spt(type.getRank(), 1), order(type.getRank());
      spt[scan.getAxis()] = unsigned(run);
      for (unsigned d = 0; d < order.size(); ++d)
        order[d] = unsigned(order.size() - 1 - d);
      Attribute layout =
          tcc::makeBlockedLayout(func.getContext(), type.getShape(), spt, order, numWarps,
                                 threadsPerWarp);
      for (unsigned i = 0; i < op->getNumOperands(); ++i)
        convertOperand(op, i, layout);
      return setResultLayouts(op, layout);
    }
    if (op->getNumRegions() > 0) {
      op->emitError("tile-assign-layouts: cannot lay out the tiles of this region op");
      failed = true;
      return;
    }
    // Already laid out (the pass ran before): leave it.
    if (llvm::any_of(op->getResultTypes(), [](Type t) { return getLayout(t) != nullptr; }))
      return;

    if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      Attribute src = getLayout(reduce.getSrc().getType());
      if (src && isTile(reduce.getType()))
        setResultLayouts(op, tile::SliceEncodingAttr::get(op->getContext(),
                                                          reduce.getAxis(), src));
      return;
    }
    if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
      // The source keeps its layout (the lowering moves elements from any); the result
      // gets one made for its own shape, not the default of its rank: reshaped tiles
      // often have small dimensions (tutorial 09's (BM, 2, BN // 2)) that a layout made
      // for another shape would cover with lanes holding copies.
      // Dimensions of 2 (the pairs of tutorial 09's EPILOGUE_SUBTILE, which split takes
      // apart) go in registers, so that a split after a permute stays in the thread.
      if (!getLayout(reshape.getSrc().getType()))
        convertOperand(op, 0, defaultFor(reshape.getSrc().getType()));
      ArrayRef<int64_t> shape = reshape.getType().getShape();
      SmallVector<unsigned> spt(shape.size(), 1), order(shape.size());
      for (unsigned d = 0; d < shape.size(); ++d) {
        order[d] = unsigned(shape.size() - 1 - d);
        if (shape[d] == 2 && d + 1 != shape.size())
          spt[d] = 2;
      }
      return setResultLayouts(op, tcc::makeBlockedLayout(func.getContext(), shape, spt, order,
                                                         numWarps, threadsPerWarp));
    }
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
      auto slice = dyn_cast_or_null<tile::SliceEncodingAttr>(
          getLayout(expand.getSrc().getType()));
      if (slice && slice.getDim() == expand.getAxis())
        return setResultLayouts(op, slice.getParent());
      Attribute layout = defaultFor(expand.getType());
      convertOperand(op, 0, tile::SliceEncodingAttr::get(op->getContext(), expand.getAxis(),
                                                         layout));
      return setResultLayouts(op, layout);
    }
    if (isa<tile::LoadOp, tile::StoreOp, tile::AtomicAddOp>(op)) {
      Attribute layout = getLayout(op->getOperand(0).getType());
      if (!layout) {
        layout = defaultFor(op->getOperand(0).getType());
        convertOperand(op, 0, layout);
      }
      for (unsigned i = 1; i < op->getNumOperands(); ++i)
        convertOperand(op, i, layout);
      return setResultLayouts(op, layout);
    }
    if (auto trans = dyn_cast<tile::TransOp>(op)) {
      // Every thread keeps the elements it holds: the result's layout is the source's
      // (blocked: converted to one if need be) with its dimensions permuted the same way.
      auto blocked = dyn_cast_or_null<tile::BlockedEncodingAttr>(
          getLayout(trans.getSrc().getType()));
      if (!blocked) {
        blocked = dyn_cast<tile::BlockedEncodingAttr>(defaultFor(trans.getSrc().getType()));
        if (!blocked) {
          op->emitError("tile-assign-layouts: no blocked layout to transpose");
          failed = true;
          return;
        }
        convertOperand(op, 0, blocked);
      }
      return setResultLayouts(op, permuteBlocked(blocked, trans.getOrder()));
    }
    if (auto dot = dyn_cast<tile::DotOp>(op)) {
      // a and b keep their layouts: the lowering of dot stages them in shared memory from
      // whatever layout they come in. The accumulator gets a block of elements per thread.
      Attribute layout = dotLayoutFor(dot);
      convertOperand(op, 2, layout);
      return setResultLayouts(op, layout);
    }
    if (!llvm::any_of(op->getResultTypes(), isTile))
      return; // tile.print and the like take tiles in any layout

    // Everything else is element-wise in its tile operands (arith, math, addptr, hint,
    // broadcast, splat, ...): one layout for all, led by an operand that is not cheap to
    // re-create, else by the first.
    auto resultType = cast<RankedTensorType>(
        *llvm::find_if(op->getResultTypes(), isTile));
    SmallVector<unsigned> tileOperands;
    for (OpOperand &operand : op->getOpOperands())
      if (auto type = dyn_cast<RankedTensorType>(operand.get().getType()))
        if (type.getRank() == resultType.getRank() && type.getEncoding())
          tileOperands.push_back(operand.getOperandNumber());
    Attribute layout;
    for (unsigned i : tileOperands)
      if (!isCheapSource(op->getOperand(i))) {
        layout = getLayout(op->getOperand(i).getType());
        break;
      }
    if (!layout && !tileOperands.empty())
      layout = getLayout(op->getOperand(tileOperands.front()).getType());
    if (!layout)
      layout = defaultFor(resultType);
    for (unsigned i : tileOperands)
      convertOperand(op, i, layout);
    setResultLayouts(op, layout);
  }

  /// Converts the tile operands of `terminator` from `first` on to the layouts of `types`.
  void convertYield(Operation *terminator, unsigned first, TypeRange types) {
    for (auto [i, type] : llvm::enumerate(types))
      if (isTile(type))
        convertOperand(terminator, first + i, getLayout(type));
  }

  void visitFor(scf::ForOp forOp) {
    for (auto [init, arg, result] :
         llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs(), forOp.getResults())) {
      if (!isTile(init.getType()))
        continue;
      if (auto it = preferred.find(arg); it != preferred.end()) {
        OpOperand *tied = forOp.getTiedLoopInit(arg);
        convertOperand(forOp, tied->getOperandNumber(), it->second);
        init = tied->get();
      }
      arg.setType(init.getType());
      result.setType(init.getType());
    }
    visitBlock(*forOp.getBody());
    convertYield(forOp.getBody()->getTerminator(), 0, ValueRange(forOp.getRegionIterArgs()).getTypes());
  }

  void visitIf(scf::IfOp ifOp) {
    visitBlock(ifOp.getThenRegion().front());
    if (!ifOp.getElseRegion().empty())
      visitBlock(ifOp.getElseRegion().front());
    if (ifOp.getNumResults() == 0)
      return;
    for (auto [result, value] : llvm::zip(ifOp.getResults(), ifOp.thenYield().getOperands()))
      if (isTile(result.getType()))
        result.setType(value.getType());
    convertYield(ifOp.elseYield(), 0, ifOp.getResultTypes());
  }

  void visitWhile(scf::WhileOp whileOp) {
    for (auto [init, arg] : llvm::zip(whileOp.getInits(), whileOp.getBeforeArguments()))
      if (isTile(init.getType()))
        arg.setType(init.getType());
    visitBlock(whileOp.getBefore().front());
    scf::ConditionOp condition = whileOp.getConditionOp();
    for (auto [value, arg, result] : llvm::zip(condition.getArgs(), whileOp.getAfterArguments(),
                                               whileOp.getResults()))
      if (isTile(value.getType())) {
        arg.setType(value.getType());
        result.setType(value.getType());
      }
    visitBlock(whileOp.getAfter().front());
    convertYield(whileOp.getAfter().front().getTerminator(), 0,
                 ValueRange(whileOp.getBeforeArguments()).getTypes());
  }
};

struct AssignLayouts : tcc::impl::TileAssignLayoutsBase<AssignLayouts> {
  using TileAssignLayoutsBase::TileAssignLayoutsBase;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      auto type = func.getFunctionType();
      if (llvm::any_of(type.getInputs(), isTile) || llvm::any_of(type.getResults(), isTile)) {
        func.emitError("tile-assign-layouts: function boundaries must carry scalars and "
                       "pointers only (inline helpers that take or return tiles first)");
        return signalPassFailure();
      }
      unsigned warps = numWarps ? unsigned(numWarps) : tcc::getNumWarps(func);
      // The lowering reads the warp count from the kernel: keep it in step with layouts.
      if (numWarps)
        func->setAttr(tile::kNumWarpsAttrName,
                      IntegerAttr::get(IntegerType::get(&getContext(), 32), warps));
      if (failed(Assigner(func, warps).run()))
        return signalPassFailure();
    }
  }
};

} // namespace
