//===- Prefetch.cpp - tile-prefetch ---------------------------------------===//
//
// A loop without a tensor-core dot that loads a tile every iteration (a persistent kernel
// walking rows, `for row in range(pid, n_rows, num_programs(0))`) waits for global memory
// at the top of each iteration. Prefetched, the load of iteration i + 1 is issued at the
// top of iteration i, into registers carried to the next iteration, so that its latency
// hides behind iteration i's computation:
//
//   x0 = load(p(lb), mask(lb) & lb < ub)
//   for iv = lb to ub step s iter_args(x = x0):
//     xn = load(p(iv + s), mask(iv + s) & iv + s < ub)     // the next iteration's
//     ... uses of the load read x ...
//     yield xn
//
// A load qualifies when its pointers and mask are computed inside the loop body from the
// induction variable and values defined outside it only, it has a mask (the extra load
// past the end must be masked off) and an `other` from outside the loop, and no store in
// the loop writes through a pointer derived from the same kernel argument (the reordered
// load must not read what an earlier iteration writes), and a thread holds at most 16 of
// its elements (the prefetched copy doubles them; beyond that occupancy pays more than
// the overlap gains: measured on the H200, docs/lowering.md). Loops with a dot are
// tile-pipeline's (cp.async rings into shared memory). Prefetching is on where the
// loop's num_stages (range(..., num_stages=), else the kernel's, else the option) is at
// least 2.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/Distribution.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_TILEPREFETCH
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The kernel argument a pointer (tile) is derived from, through address arithmetic,
/// splats, broadcasts and layout conversions; null when it comes from anything else.
Value baseArgument(Value ptr) {
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

/// The most elements per thread a prefetched load may hold (see qualifies).
constexpr int64_t kMaxRegistersPerThread = 16;

class Prefetcher {
public:
  explicit Prefetcher(scf::ForOp loop) : loop(loop) {}

  void run() {
    bool hasDot = false;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<DotOp, WarpGroupDotOp, LocalAllocOp>(op))
        hasDot = true;
    });
    if (hasDot)
      return;
    // What the loop's stores write through: their kernel arguments (null: unknown).
    SmallVector<Value> written;
    loop.getBody()->walk([&](Operation *op) {
      if (auto store = dyn_cast<StoreOp>(op))
        written.push_back(baseArgument(store.getPtr()));
      else if (!isa<LoadOp>(op) && !isPure(op) && op->getNumRegions() == 0 &&
               !isa<scf::YieldOp>(op))
        written.push_back(Value()); // atomics, prints, ...: assume anything
    });
    SmallVector<LoadOp> loads;
    for (Operation &op : *loop.getBody())
      if (auto load = dyn_cast<LoadOp>(&op))
        if (qualifies(load, written))
          loads.push_back(load);
    for (LoadOp load : loads)
      prefetch(load);
  }

private:
  scf::ForOp loop;

  /// The ops computing `v` inside the loop body from the induction variable and values
  /// from outside; false if it needs a loop-carried value or an op with effects.
  bool sliceOf(Value v, llvm::SetVector<Operation *> &ops) {
    if (v == loop.getInductionVar())
      return true;
    if (auto arg = dyn_cast<BlockArgument>(v))
      return !loop->isAncestor(arg.getOwner()->getParentOp());
    Operation *def = v.getDefiningOp();
    if (!loop->isAncestor(def))
      return true;
    if (def->getBlock() != loop.getBody() || def->getNumRegions() || !isPure(def))
      return false;
    if (ops.contains(def))
      return true;
    for (Value operand : def->getOperands())
      if (!sliceOf(operand, ops))
        return false;
    ops.insert(def);
    return true;
  }

  bool qualifies(LoadOp load, ArrayRef<Value> written) {
    if (!load.getMask())
      return false;
    // The prefetched tile lives in registers beside the one being computed on: worth it
    // while a thread holds a few of its elements, not where doubling them would cost
    // occupancy (a 16384-element row on 512 threads holds 32 per thread).
    if (std::optional<Distribution> dist =
            Distribution::get(cast<RankedTensorType>(load.getType()))) {
      if (dist->getNumRegs() > kMaxRegistersPerThread)
        return false;
    } else if (cast<RankedTensorType>(load.getType()).getNumElements() > 32 * kMaxRegistersPerThread) {
      return false; // no layout yet: as if spread over one warp
    }
    Value base = baseArgument(load.getPtr());
    if (!base || llvm::any_of(written, [&](Value w) { return !w || w == base; }))
      return false;
    llvm::SetVector<Operation *> ops;
    return sliceOf(load.getPtr(), ops) && sliceOf(load.getMask(), ops) &&
           (!load.getOther() || sliceOf(load.getOther(), ops));
  }

  /// The load of iteration `iv` (valid when `valid`), its address ops cloned before `at`.
  Value issue(OpBuilder &b, LoadOp load, Value iv, Value valid) {
    llvm::SetVector<Operation *> ops;
    sliceOf(load.getPtr(), ops);
    sliceOf(load.getMask(), ops);
    if (load.getOther())
      sliceOf(load.getOther(), ops);
    SmallVector<Operation *> ordered = ops.takeVector();
    llvm::sort(ordered, [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), iv);
    for (Operation *op : ordered)
      b.clone(*op, mapping);
    Location loc = load.getLoc();
    Value mask = mapping.lookupOrDefault(load.getMask());
    auto maskType = cast<RankedTensorType>(mask.getType());
    Value inRange = SplatOp::create(b, loc, maskType, valid);
    Value combined = arith::AndIOp::create(b, loc, mask, inRange);
    Operation *copy = b.clone(*load, mapping);
    copy->setOperand(load.getMaskMutable()[0].getOperandNumber(), combined);
    return copy->getResult(0);
  }

  void prefetch(LoadOp load) {
    Location loc = load.getLoc();
    // The address ops of the load in the body, dead once it is replaced.
    llvm::SetVector<Operation *> original;
    sliceOf(load.getPtr(), original);
    sliceOf(load.getMask(), original);
    if (load.getOther())
      sliceOf(load.getOther(), original);
    OpBuilder b(loop);
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), step = loop.getStep();
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
    Value initial = issue(b, load, lb, first);
    IRRewriter rewriter(loop.getContext());
    // Grow the loop by one carried value (yielding itself for now), then issue the next
    // iteration's load at the top of the new body and yield it.
    auto grown = loop.replaceWithAdditionalYields(
        rewriter, ValueRange{initial}, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> newArgs) -> SmallVector<Value> {
          return {newArgs.back()};
        });
    if (failed(grown))
      return;
    loop = cast<scf::ForOp>(grown->getOperation());
    Block *body = loop.getBody();
    OpBuilder top = OpBuilder::atBlockBegin(body);
    Value next = arith::AddIOp::create(top, loc, loop.getInductionVar(), step);
    Value valid = arith::CmpIOp::create(top, loc, arith::CmpIPredicate::slt, next, ub);
    Value ahead = issue(top, load, next, valid);
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    yield->setOperand(yield.getNumOperands() - 1, ahead);
    load.getResult().replaceAllUsesWith(loop.getRegionIterArgs().back());
    load->erase();
    SmallVector<Operation *> dead = original.takeVector();
    llvm::sort(dead, [](Operation *x, Operation *y) { return y->isBeforeInBlock(x); });
    for (Operation *op : dead) // users before the definitions they use
      if (op->use_empty())
        op->erase();
  }
};

struct Prefetch : tcc::impl::TilePrefetchBase<Prefetch> {
  using TilePrefetchBase::TilePrefetchBase;

  void runOnOperation() override {
    tcc::forEachLoopWithStages(getOperation(), numStages, [](scf::ForOp loop, unsigned stages) {
      if (stages >= 2)
        Prefetcher(loop).run();
    });
  }
};

} // namespace
