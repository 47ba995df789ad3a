//===- VersionSigns.cpp - tile-version-signs --------------------------------===//
//
// `%` and `//` of integer tiles keep their operands' runs only where the dividend is
// non-negative and the divisor positive (Passes.td). Where those signs hang on scalars
// that the integer ranges cannot bound, the kernel is versioned on them: a branch in
// which the scalars are clamped to what the condition promises (so that AxisInfo sees
// the signs), and the kernel as it was for every other input.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/VersionSigns.h"

#include "compiler/Analysis/AxisInfo.h"
#include "compiler/Analysis/PersistentLoop.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_TILEVERSIONSIGNS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Scalars and the least value each must have: 0 for a dividend's, 1 (or the divisor's
/// known divisibility) for a divisor's.
using Roots = llvm::MapVector<Value, int64_t>;

/// A `%` or `//` of tiles whose runs would grow if its operands' signs were known.
struct Candidate {
  Operation *op;
  Roots roots;
};

bool isRemainder(Operation *op) { return isa<arith::RemSIOp>(op); }

/// The runs a division's result has along some dimension: contiguity for `%`, constancy
/// for `//`.
bool runsGrow(Operation *op, const tcc::AxisInfo &before, const tcc::AxisInfo &after) {
  for (unsigned d = 0; d < before.getRank(); ++d) {
    if (isRemainder(op) ? after.contiguity[d] > before.contiguity[d]
                        : after.constancy[d] > before.constancy[d])
      return true;
  }
  return false;
}

/// What the clamped scalars are bounded by: 2^30 for i32, so that adding a tile's
/// offsets to one cannot overflow.
int64_t upperBound(Type type) { return int64_t(1) << (type.getIntOrFloatBitWidth() - 2); }

/// Whether `v` is a scalar of the versioned block `entry` or, where that is a persistent
/// kernel's tile loop body, of the kernel's body around it (its parameters, the grid's
/// extents): the version condition can read it at the block's start.
bool isTopLevelScalar(Value v, Block &entry) {
  if (!isa<IntegerType>(v.getType()) || v.getType().isInteger(1))
    return false;
  Block *outer = entry.getParentOp()->getBlock();
  bool kernelBody = isa<func::FuncOp>(entry.getParentOp());
  Block *owner = isa<BlockArgument>(v) ? cast<BlockArgument>(v).getOwner()
                                       : v.getDefiningOp()->getBlock();
  return owner == &entry || (!kernelBody && owner == outer && isa<func::FuncOp>(outer->getParentOp()));
}

/// Collects into `roots` the scalars `v` is built from that must be at least `least`
/// (0 or 1) for every element of `v` to be, or fails where it cannot say.
bool collectRoots(Value v, int64_t least, const tcc::AxisInfoAnalysis &info, Block &entry,
                  Roots &roots) {
  tcc::AxisInfo facts = info.getAxisInfo(v);
  if (facts.range && facts.range->first >= least)
    return true;
  if (!isa<RankedTensorType>(v.getType())) {
    if (!isTopLevelScalar(v, entry))
      return false;
    // A positive multiple of 16 is at least 16: bounding it by 16 rather than 1 keeps its
    // divisibility through the clamp (maxsi's facts are those both operands share).
    if (least > 0)
      least = std::max(least, facts.divisibility[0]);
    if (least >= upperBound(v.getType()))
      return false;
    int64_t &bound = roots.insert({v, least}).first->second;
    bound = std::max(bound, least);
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp, tile::HintOp>(def))
    return collectRoots(def->getOperand(0), least, info, entry, roots);
  // x + y >= 0 and x * y >= least where both are; a divisor made of sums is left alone.
  if ((isa<arith::AddIOp>(def) && least == 0) || isa<arith::MulIOp>(def))
    return collectRoots(def->getOperand(0), least, info, entry, roots) &&
           collectRoots(def->getOperand(1), least, info, entry, roots);
  return false;
}

/// The pure, region-free entry-block ops that compute `roots`, in block order; fails if
/// a root depends on anything else (a load, a loop).
FailureOr<SmallVector<Operation *>> rootComputation(const Roots &roots, Block &entry) {
  llvm::SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitBlockArguments = true;
  options.filter = [&](Operation *op) { return op->getBlock() == &entry; };
  for (auto &[root, least] : roots)
    if (Operation *def = root.getDefiningOp(); def && def->getBlock() == &entry)
      if (failed(getBackwardSlice(def, &slice, options)))
        return failure();
  SmallVector<Operation *> ops;
  for (Operation &op : entry)
    if (slice.contains(&op)) {
      if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
        return failure();
      ops.push_back(&op);
    }
  return ops;
}

Value constantLike(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

} // namespace

namespace tcc {

namespace {

bool isCandidateOp(Operation *op) {
  return isa<arith::RemSIOp, arith::DivSIOp>(op) &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

/// Versions the ops of `entry` (the kernel's body, or a persistent kernel's tile loop
/// body) on the signs its candidates' roots need; false, the IR unchanged, where it
/// cannot or it would not pay.
bool versionBlock(func::FuncOp kernel, Block &entry) {
  tcc::AxisInfoAnalysis info(kernel);
  SmallVector<Candidate> candidates;
  kernel.walk([&](Operation *op) {
    if (!isCandidateOp(op))
      return;
    tcc::AxisInfo a = info.getAxisInfo(op->getOperand(0));
    tcc::AxisInfo b = info.getAxisInfo(op->getOperand(1));
    if (tcc::signsKnownForDivision(a, b))
      return;
    tcc::AxisInfo known = tcc::divisionFacts(a, b, isRemainder(op), /*assumeSigns=*/true);
    if (!runsGrow(op, info.getAxisInfo(op->getResult(0)), known))
      return;
    Candidate c{op, {}};
    if (collectRoots(op->getOperand(0), 0, info, entry, c.roots) &&
        collectRoots(op->getOperand(1), 1, info, entry, c.roots) && !c.roots.empty())
      candidates.push_back(std::move(c));
  });
  if (candidates.empty())
    return false;
  Roots roots;
  for (const Candidate &c : candidates)
    for (auto &[root, least] : c.roots) {
      int64_t &bound = roots.insert({root, least}).first->second;
      bound = std::max(bound, least);
    }
  FailureOr<SmallVector<Operation *>> computation = rootComputation(roots, entry);
  if (failed(computation))
    return false;

  // The roots' computation first (pure ops move up past anything), then the version
  // condition, then the branch that takes the rest of the kernel.
  for (Operation *op : llvm::reverse(*computation))
    op->moveBefore(&entry, entry.begin());
  Operation *rest = &entry.front();
  for (size_t i = 0; i < computation->size(); ++i)
    rest = rest->getNextNode();
  Operation *terminator = entry.getTerminator();
  if (rest == terminator)
    return false;

  SmallVector<Operation *> moved;
  for (Operation *op = rest; op != terminator; op = op->getNextNode())
    moved.push_back(op);

  OpBuilder b(rest);
  Location loc = kernel.getLoc();
  SmallVector<Operation *> conditionOps;
  auto record = [&](Value v) {
    conditionOps.push_back(v.getDefiningOp());
    return v;
  };
  Value cond;
  for (auto &[root, least] : roots) {
    Type type = root.getType();
    Value lo = record(constantLike(b, loc, type, least));
    Value hi = record(constantLike(b, loc, type, upperBound(type)));
    Value geLo = record(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, root, lo));
    Value leHi = record(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, root, hi));
    Value inRange = record(arith::AndIOp::create(b, loc, geLo, leHi));
    cond = cond ? record(arith::AndIOp::create(b, loc, cond, inRange)) : inRange;
  }
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, cond, /*withElseRegion=*/true);
  for (Operation *op : moved)
    op->moveBefore(ifOp.elseBlock()->getTerminator());

  OpBuilder then = OpBuilder::atBlockTerminator(ifOp.thenBlock());
  IRMapping mapping;
  for (auto &[root, least] : roots) {
    Type type = root.getType();
    Value lo = constantLike(then, loc, type, least);
    Value hi = constantLike(then, loc, type, upperBound(type));
    Value clamped =
        arith::MinSIOp::create(then, loc, arith::MaxSIOp::create(then, loc, root, lo), hi);
    mapping.map(root, clamped);
  }
  for (Operation *op : moved)
    then.clone(*op, mapping);

  // Kept only if the branch that knows the signs has longer runs.
  tcc::AxisInfoAnalysis versioned(kernel);
  bool gained = llvm::any_of(candidates, [&](const Candidate &c) {
    Value copy = mapping.lookupOrNull(c.op->getResult(0));
    return copy &&
           runsGrow(c.op, info.getAxisInfo(c.op->getResult(0)), versioned.getAxisInfo(copy));
  });
  if (gained) {
    // The else branch runs only for inputs the condition rules out (negative indices, a
    // non-positive divisor): kept small rather than fast. Unpipelined, its loops hold no
    // prefetched tiles, so that it does not raise the registers ptxas gives the kernel.
    OpBuilder attrs(kernel.getContext());
    ifOp.elseBlock()->walk([&](scf::ForOp loop) {
      loop->setAttr(tile::kNumStagesAttrName, attrs.getI32IntegerAttr(1));
    });
    return true;
  }
  for (Operation *op : moved)
    op->moveBefore(ifOp);
  ifOp.erase();
  for (Operation *op : llvm::reverse(conditionOps))
    op->erase();
  return false;
}

} // namespace

bool versionOnSigns(func::FuncOp kernel) {
  if (kernel.isExternal())
    return false;
  // Most kernels have no division of tiles: no analysis for them.
  if (!kernel
           .walk([&](Operation *op) {
             return isCandidateOp(op) ? WalkResult::interrupt() : WalkResult::advance();
           })
           .wasInterrupted())
    return false;
  // The kernel's body first: a condition on its parameters, taken once, around everything
  // (a persistent kernel's tile loop too, which keeps the loops inside it as they were).
  // Where the signs hang on a tile's own index (tile-persistent replaced the program ids
  // with the tile loop's index: Triton's tutorial 03 in its default build), the tile
  // loop's body, the version chosen per tile.
  Block &body = kernel.getBody().front();
  if (versionBlock(kernel, body))
    return true;
  if (scf::ForOp tiles = tcc::persistentTileLoop(kernel))
    return versionBlock(kernel, *tiles.getBody());
  return false;
}

} // namespace tcc

namespace {

struct TileVersionSigns : tcc::impl::TileVersionSignsBase<TileVersionSigns> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp kernel) { (void)tcc::versionOnSigns(kernel); });
  }
};

} // namespace
