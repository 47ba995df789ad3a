//===- SplitMaskedLoops.cpp - tile-split-masked-loops -----------------------===//
//
// A loop over K feeding a dot masks its loads with `k * BK + arange(0, BK) < K` (or
// Triton's `arange(0, BK) < K - k * BK`), a mask that is true everywhere in every
// iteration but the last partial one. The loop is split where the masks stop being true:
// in the first loop those compares are the constant true (the masks fold away, and with
// them the per-iteration compares and selects of each copy), the second loop runs what is
// left with the masks, unpipelined (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/AxisInfo.h"
#include "compiler/Transforms/Passes.h"
#include "compiler/Transforms/TmaAccess.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <limits>
#include <optional>
#include <tuple>

namespace tcc {
#define GEN_PASS_DEF_TILESPLITMASKEDLOOPS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

constexpr int64_t kMaxCoefficient = int64_t(1) << 31;

/// The coefficient of the loop's induction variable in the i32 scalar `v`, where `v` is
/// built from it, constants and values defined outside the loop by +, - and * by a
/// constant; nullopt otherwise.
std::optional<int64_t> coefficient(Value v, scf::ForOp loop, int depth = 0) {
  if (depth > 8 || !v.getType().isInteger(32))
    return std::nullopt;
  if (v == loop.getInductionVar())
    return 1;
  if (matchPattern(v, m_Constant()) || loop.isDefinedOutsideOfLoop(v))
    return 0;
  Operation *op = v.getDefiningOp();
  if (!op || op->getBlock() != loop.getBody())
    return std::nullopt;
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<int64_t> a = coefficient(op->getOperand(0), loop, depth + 1);
  std::optional<int64_t> b = coefficient(op->getOperand(1), loop, depth + 1);
  if (!a || !b)
    return std::nullopt;
  int64_t c = 0;
  if (isa<arith::AddIOp>(op)) {
    c = *a + *b;
  } else if (isa<arith::SubIOp>(op)) {
    c = *a - *b;
  } else {
    APInt k;
    if (*a != 0 && *b != 0)
      return std::nullopt;
    if (*a == 0 && *b == 0)
      c = 0;
    else if (*a != 0 && matchPattern(op->getOperand(1), m_ConstantInt(&k)))
      c = *a * k.getSExtValue();
    else if (*b != 0 && matchPattern(op->getOperand(0), m_ConstantInt(&k)))
      c = *b * k.getSExtValue();
    else
      return std::nullopt;
  }
  if (c >= kMaxCoefficient || c <= -kMaxCoefficient)
    return std::nullopt;
  return c;
}

/// An i32 tile whose elements are `scalar + [lo, hi]` (scalar null: 0).
struct Side {
  Value scalar;
  int64_t lo = 0, hi = 0;
  Operation *sum = nullptr; // the tile addition of scalar and offsets, if any
};

/// Looks through the ops that keep a tile's set of values.
Value stripShape(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (isa<tile::ExpandDimsOp, tile::BroadcastOp, tile::ConvertLayoutOp>(op))
      v = op->getOperand(0);
    else
      return v;
  }
  return v;
}

/// The offsets part: a range or a constant tile.
std::optional<std::pair<int64_t, int64_t>> offsets(Value v) {
  v = stripShape(v);
  if (auto range = v.getDefiningOp<tile::MakeRangeOp>())
    return std::make_pair(int64_t(range.getStart()), int64_t(range.getEnd()) - 1);
  DenseIntElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return std::make_pair(dense.getSplatValue<APInt>().getSExtValue(),
                          dense.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

std::optional<Side> side(Value v, scf::ForOp loop) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.getElementType().isInteger(32))
    return std::nullopt;
  v = stripShape(v);
  if (auto splat = v.getDefiningOp<tile::SplatOp>()) {
    if (!coefficient(splat.getSrc(), loop))
      return std::nullopt;
    return Side{splat.getSrc(), 0, 0, nullptr};
  }
  if (auto o = offsets(v))
    return Side{Value(), o->first, o->second, nullptr};
  auto add = v.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    auto splat = stripShape(add->getOperand(i)).getDefiningOp<tile::SplatOp>();
    auto o = offsets(add->getOperand(1 - i));
    if (splat && o && coefficient(splat.getSrc(), loop))
      return Side{splat.getSrc(), o->first, o->second, add};
  }
  return std::nullopt;
}

/// A compare of the loop's masks that is true in a prefix of the iterations:
/// less + lessBy <= greater elementwise, i.e. max(less) < min(greater) (+1 for <=).
struct PrefixCompare {
  arith::CmpIOp cmp;
  Side less, greater;
  bool orEqual;
  int64_t slope; // coefficient of the iv in min(greater) - max(less): negative
};

std::optional<PrefixCompare> prefixCompare(arith::CmpIOp cmp, scf::ForOp loop) {
  bool swap = false, orEqual = false;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::slt:
    break;
  case arith::CmpIPredicate::sle:
    orEqual = true;
    break;
  case arith::CmpIPredicate::sgt:
    swap = true;
    break;
  case arith::CmpIPredicate::sge:
    swap = true;
    orEqual = true;
    break;
  default:
    return std::nullopt;
  }
  Value l = cmp.getLhs(), r = cmp.getRhs();
  if (swap)
    std::swap(l, r);
  std::optional<Side> less = side(l, loop), greater = side(r, loop);
  if (!less || !greater)
    return std::nullopt;
  int64_t cl = less->scalar ? *coefficient(less->scalar, loop) : 0;
  int64_t cg = greater->scalar ? *coefficient(greater->scalar, loop) : 0;
  int64_t slope = cg - cl;
  if (slope >= 0) // true in no prefix (or in all iterations or none: not this pass's)
    return std::nullopt;
  return PrefixCompare{cmp, *less, *greater, orEqual, slope};
}

/// Builds, before the loop, the i64 value of i32 scalars at a given iv, recording every
/// intermediate whose i32 computation must not wrap.
class Evaluator {
public:
  Evaluator(OpBuilder &b, Location loc, scf::ForOp loop, Value iv64)
      : b(b), loc(loc), loop(loop), iv64(iv64) {}

  Value i64(int64_t c) { return arith::ConstantIntOp::create(b, loc, b.getI64Type(), c); }
  Value widen(Value v) { return arith::ExtSIOp::create(b, loc, b.getI64Type(), v); }

  Value eval(Value v) {
    if (!v)
      return i64(0);
    if (Value known = cache.lookup(v))
      return known;
    Value result;
    APInt k;
    if (v == loop.getInductionVar()) {
      result = iv64;
    } else if (matchPattern(v, m_ConstantInt(&k))) {
      result = i64(k.getSExtValue());
    } else if (loop.isDefinedOutsideOfLoop(v)) {
      result = widen(v);
    } else {
      Operation *op = v.getDefiningOp();
      Value a = eval(op->getOperand(0)), c = eval(op->getOperand(1));
      if (isa<arith::AddIOp>(op))
        result = arith::AddIOp::create(b, loc, a, c);
      else if (isa<arith::SubIOp>(op))
        result = arith::SubIOp::create(b, loc, a, c);
      else
        result = arith::MulIOp::create(b, loc, a, c);
      mustFit.push_back(result);
    }
    cache[v] = result;
    return result;
  }

  /// A side's least and greatest element; the tile addition must not wrap either.
  std::pair<Value, Value> bounds(const Side &s) {
    auto key = std::make_tuple(s.scalar, s.lo, s.hi);
    if (auto known = boundsCache.find(key); known != boundsCache.end())
      return known->second;
    Value base = eval(s.scalar);
    Value lo = arith::AddIOp::create(b, loc, base, i64(s.lo));
    Value hi = arith::AddIOp::create(b, loc, base, i64(s.hi));
    if (s.sum) {
      mustFit.push_back(lo);
      mustFit.push_back(hi);
    }
    boundsCache[key] = {lo, hi};
    return {lo, hi};
  }

  /// True where every recorded intermediate is an i32.
  Value allFit() {
    Value ok = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    Value min = i64(std::numeric_limits<int32_t>::min());
    Value max = i64(std::numeric_limits<int32_t>::max());
    for (Value v : mustFit) {
      Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v, min);
      Value le = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, v, max);
      ok = arith::AndIOp::create(b, loc, ok, arith::AndIOp::create(b, loc, ge, le));
    }
    return ok;
  }

private:
  OpBuilder &b;
  Location loc;
  scf::ForOp loop;
  Value iv64;
  DenseMap<Value, Value> cache;
  DenseMap<std::tuple<Value, int64_t, int64_t>, std::pair<Value, Value>> boundsCache;
  SmallVector<Value> mustFit;
};

/// The compares of `loop`'s body that masks of its loads and stores are made of.
SmallVector<arith::CmpIOp> maskCompares(scf::ForOp loop) {
  SetVector<Value> worklist;
  loop.getBody()->walk([&](Operation *op) {
    if (auto load = dyn_cast<tile::LoadOp>(op); load && load.getMask())
      worklist.insert(load.getMask());
    if (auto store = dyn_cast<tile::StoreOp>(op); store && store.getMask())
      worklist.insert(store.getMask());
  });
  SmallVector<arith::CmpIOp> compares;
  for (size_t i = 0; i < worklist.size(); ++i) {
    Operation *op = worklist[i].getDefiningOp();
    if (!op || op->getBlock() != loop.getBody())
      continue;
    if (auto cmp = dyn_cast<arith::CmpIOp>(op))
      compares.push_back(cmp);
    else if (isa<arith::AndIOp, tile::BroadcastOp, tile::ExpandDimsOp, tile::ConvertLayoutOp>(op))
      for (Value operand : op->getOperands())
        worklist.insert(operand);
  }
  return compares;
}

/// True where every masked load of the loop's body moves 16 bytes at a time along some
/// dimension (contiguous and aligned, by AxisInfo): tile-pipeline then copies it straight
/// into shared memory, and the second loop's copies cost no registers. A load staged
/// through registers would be staged in both loops, and the values both keep live raise
/// the registers of the kernel.
bool loadsMoveVectors(scf::ForOp loop, const tcc::AxisInfoAnalysis &axis) {
  WalkResult result = loop.getBody()->walk([&](tile::LoadOp load) {
    auto type = dyn_cast<RankedTensorType>(load.getPtr().getType());
    if (!load.getMask() || !type)
      return WalkResult::advance();
    int64_t bytes = tcc::getPointeeBytes(type);
    for (unsigned d = 0; d < unsigned(type.getRank()); ++d)
      if (std::min(axis.getContiguity(load.getPtr(), d), axis.getPtrAlignment(load.getPtr(), d)) *
              bytes >=
          16)
        return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// The loads in the loop's body that a dot reads (through layout conversions and a
/// transpose): what tile-pipeline turns into streams.
SmallVector<tile::LoadOp> dotOperandLoads(scf::ForOp loop) {
  SmallVector<tile::LoadOp> loads;
  for (Operation &op : *loop.getBody())
    if (auto dot = dyn_cast<tile::DotOp>(op))
      for (Value operand : {dot.getA(), dot.getB()}) {
        Value v = operand;
        while (Operation *def = v.getDefiningOp()) {
          if (!isa<tile::ConvertLayoutOp, tile::TransOp>(def))
            break;
          v = def->getOperand(0);
        }
        if (auto load = v.getDefiningOp<tile::LoadOp>();
            load && load->getBlock() == loop.getBody() && !llvm::is_contained(loads, load))
          loads.push_back(load);
      }
  return loads;
}

/// Whether TMA will copy the loop's loads (tcc's default; --no-tma), as tile-pipeline
/// decides it: a loop in the kernel's body or in loops it can keep one ring across
/// (tcc::ringEnclosingLoops: a persistent kernel's tile loop), whose dots take wgmma (f16/bf16 operands, 64
/// rows or more), whose every load a dot reads has the form a tensor map describes with
/// the alignment TMA needs in this variant (tcc::describeTmaAccess) and rows as wide as
/// tcc::kTmaSwizzleBytes, and whose masked loads are all such loads.
bool tmaCopiesLoads(scf::ForOp loop) {
  auto kernel = loop->getParentOfType<func::FuncOp>();
  if (!kernel || !tcc::ringEnclosingLoops(loop))
    return false;
  for (Operation &op : *loop.getBody())
    if (auto dot = dyn_cast<tile::DotOp>(op)) {
      auto a = cast<RankedTensorType>(dot.getA().getType());
      if (!(a.getElementType().isF16() || a.getElementType().isBF16()) || a.getDimSize(0) < 64)
        return false;
    }
  SmallVector<tile::LoadOp> operands = dotOperandLoads(loop);
  if (operands.empty())
    return false;
  for (tile::LoadOp load : operands) {
    std::optional<tcc::TmaAccess> access = tcc::matchTmaAccess(load);
    auto type = cast<RankedTensorType>(load.getType());
    int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    if (!access || !tcc::describeTmaAccess(*access, kernel, bytes) ||
        type.getShape().back() * bytes < tcc::kTmaSwizzleBytes)
      return false;
  }
  for (Operation &op : *loop.getBody())
    if (auto load = dyn_cast<tile::LoadOp>(op);
        load && load.getMask() && !llvm::is_contained(operands, load))
      return false;
  return true;
}

bool splitLoop(scf::ForOp loop, const tcc::AxisInfoAnalysis &axis) {
  if (auto stages = loop->getAttrOfType<IntegerAttr>(tile::kNumStagesAttrName);
      stages && stages.getInt() <= 1)
    return false;
  if (!llvm::any_of(loop.getBody()->getOperations(),
                    [](Operation &op) { return isa<tile::DotOp>(op); }))
    return false;
  APInt stepValue;
  if (!loop.getInductionVar().getType().isInteger(32) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&stepValue)) || !stepValue.isStrictlyPositive())
    return false;
  int64_t step = stepValue.getSExtValue();
  if (!loadsMoveVectors(loop, axis))
    return false;
  SmallVector<PrefixCompare> compares;
  for (arith::CmpIOp cmp : maskCompares(loop))
    if (std::optional<PrefixCompare> p = prefixCompare(cmp, loop))
      compares.push_back(*p);
  if (compares.empty())
    return false;

  Location loc = loop.getLoc();
  OpBuilder b(loop);
  auto i64 = [&](int64_t c) { return arith::ConstantIntOp::create(b, loc, b.getI64Type(), c); };
  Value lb = arith::ExtSIOp::create(b, loc, b.getI64Type(), loop.getLowerBound());
  Value ub = arith::ExtSIOp::create(b, loc, b.getI64Type(), loop.getUpperBound());

  // The first iv at which a compare may fail: min(greater) - max(less) (less 1 for <=) is
  // g0 + slope * iv, positive while iv < floordiv(g0 - 1, -slope) + 1.
  Value split = ub;
  {
    Evaluator atZero(b, loc, loop, i64(0));
    for (PrefixCompare &p : compares) {
      Value maxLess = atZero.bounds(p.less).second;
      Value minGreater = atZero.bounds(p.greater).first;
      Value g0 = arith::SubIOp::create(b, loc, minGreater, maxLess);
      if (p.orEqual)
        g0 = arith::AddIOp::create(b, loc, g0, i64(1));
      Value last = arith::FloorDivSIOp::create(b, loc, arith::SubIOp::create(b, loc, g0, i64(1)),
                                               i64(-p.slope));
      split = arith::MinSIOp::create(b, loc, split, arith::AddIOp::create(b, loc, last, i64(1)));
    }
  }
  split = arith::MaxSIOp::create(b, loc, split, lb);
  // On the loop's lattice lb + t * step, and within ub.
  if (step != 1) {
    Value span = arith::SubIOp::create(b, loc, split, lb);
    Value steps = arith::CeilDivSIOp::create(b, loc, span, i64(step));
    split = arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, steps, i64(step)));
    split = arith::MinSIOp::create(b, loc, split, ub);
  }
  // No i32 step of the compares' operands may wrap in the first loop: its values are
  // monotonic in the iv, so the first and last iterations bound them.
  Value lastIv = arith::SubIOp::create(b, loc, split, i64(1));
  Value fits;
  for (Value iv64 : {lb, lastIv}) {
    Evaluator at(b, loc, loop, iv64);
    for (PrefixCompare &p : compares) {
      at.bounds(p.less);
      at.bounds(p.greater);
    }
    Value ok = at.allFit();
    fits = fits ? arith::AndIOp::create(b, loc, fits, ok).getResult() : ok;
  }
  split = arith::SelectOp::create(b, loc, fits, split, lb);
  Value split32 = arith::TruncIOp::create(b, loc, b.getI32Type(), split);

  // The rest: the loop as it was, from the split on, unpipelined.
  b.setInsertionPointAfter(loop);
  auto rest = cast<scf::ForOp>(b.clone(*loop.getOperation()));
  rest.getLowerBoundMutable().assign(split32);
  rest.getInitArgsMutable().assign(loop.getResults());
  rest->setAttr(tile::kNumStagesAttrName, b.getI32IntegerAttr(2));
  loop.getResults().replaceUsesWithIf(
      rest.getResults(), [&](OpOperand &use) { return use.getOwner() != rest.getOperation(); });
  loop.getUpperBoundMutable().assign(split32);
  for (PrefixCompare &p : compares) {
    OpBuilder at(p.cmp);
    auto type = cast<RankedTensorType>(p.cmp.getType());
    Value yes = arith::ConstantOp::create(at, p.cmp.getLoc(), DenseElementsAttr::get(type, true));
    p.cmp.replaceAllUsesWith(yes);
    p.cmp.erase();
  }
  return true;
}

struct TileSplitMaskedLoops : tcc::impl::TileSplitMaskedLoopsBase<TileSplitMaskedLoops> {
  using TileSplitMaskedLoopsBase::TileSplitMaskedLoopsBase;

  void runOnOperation() override {
    bool keepTmaLoops = tma && tile::getTarget(getOperation()).hasWgmma();
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (kernel.isExternal())
        continue;
      // Of the kernel before any split: a split adds loops but changes no value the
      // analysis describes in the loops still to come.
      tcc::AxisInfoAnalysis axis(kernel);
      SmallVector<scf::ForOp> loops;
      kernel.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops)
        if (!keepTmaLoops || !tmaCopiesLoads(loop))
          (void)splitLoop(loop, axis);
    }
  }
};

} // namespace
