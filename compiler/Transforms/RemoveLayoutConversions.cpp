//===- RemoveLayoutConversions.cpp - tile-remove-layout-conversions ---------===//
//
// A layout conversion goes through shared memory and a barrier; most of those that
// tile-assign-layouts and tile-coalesce insert need not exist. Three rewrites remove
// them, repeated until none applies:
//
//  - local: the canonicalisation of tile.convert_layout, rewrite patterns applied by the
//    greedy driver to the conversions. A conversion of a conversion converts the original
//    value once (or not at all); a conversion to the layout a value already has
//    disappears (both its folder); a conversion of a splat, a make_range or a dense
//    constant is that op made in the new layout.
//  - rematerialize: a conversion of a value computed only from scalars (splat,
//    make_range, constants, then element-wise ops, broadcasts, expand_dims, addptrs) is
//    replaced by a copy of that computation made in the target layout. Index and
//    pointer arithmetic and masks are such values. Where such a computation starts
//    from values that cannot be re-created (loads), those are converted instead if
//    that moves fewer elements: a bias row before its broadcast, not the 2-D tile.
//  - propagate: a conversion `y = convert x` whose users are layout-transparent (element-
//    wise ops, broadcasts, reductions, expand_dims of a slice, loop-carried values of
//    scf.for and results of scf.if) is removed by giving all values reachable through
//    them x's layout instead (sliced or expanded as the ops require). Operands coming
//    from outside are re-created or converted, users that cannot follow get a
//    conversion back; it is done only if that leaves fewer conversions, each weighted by
//    8^(loop depth), than it removes. Backward, a converted loop-carried value (a
//    pointer advanced each iteration) takes the conversion's layout around the loop.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_TILEREMOVELAYOUTCONVERSIONS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using tcc::getLayout;
using tcc::withLayout;

namespace {

bool isTile(Type type) { return isa<RankedTensorType>(type); }

/// Ops whose tile operands and tile result all share one layout, element by element.
bool isElementwiseLike(Operation *op) {
  if (op->getNumResults() != 1 || !isTile(op->getResult(0).getType()))
    return false;
  if (isa<tile::AddPtrOp, tile::HintOp, tile::BroadcastOp>(op))
    return true;
  return op->hasTrait<OpTrait::Elementwise>() && op->getNumOperands() > 0;
}

/// Ops that take a tile in whatever layout it comes and give nothing laid out back.
bool isLayoutSink(Operation *op) {
  if (isa<tile::PrintOp>(op))
    return true;
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    return !isTile(reduce.getType());
  return false;
}

/// The layout a transparent op's result gets when its tile operands have `layout`;
/// null when the op cannot follow that layout.
Attribute forwardLayout(Operation *op, Attribute layout) {
  if (isElementwiseLike(op))
    return layout;
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
    auto slice = dyn_cast<tile::SliceEncodingAttr>(layout);
    if (slice && slice.getDim() == expand.getAxis())
      return slice.getParent();
    return {};
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    if (isTile(reduce.getType()))
      return tile::SliceEncodingAttr::get(op->getContext(), reduce.getAxis(), layout);
  // A sum over the cluster works on the registers in any layout (tile-split-k's partial
  // sums: the accumulator's, without a conversion before the epilogue's own). Not
  // element-wise for rematerialisation: a copy would synchronise the cluster again.
  if (isa<tile::ClusterReduceOp>(op))
    return layout;
  return {};
}

/// The layout a transparent op's tile operands need for its result to have `layout`.
Attribute operandLayoutFor(Operation *op, Attribute layout) {
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(op))
    return tile::SliceEncodingAttr::get(op->getContext(), expand.getAxis(), layout);
  return layout;
}

/// Loops around `op`: a conversion inside one runs once per iteration.
int64_t costAt(Operation *op) {
  int64_t cost = 1;
  for (Operation *parent = op->getParentOp(); parent && !isa<func::FuncOp>(parent);
       parent = parent->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(parent))
      cost = std::min<int64_t>(cost * 8, int64_t(1) << 40);
  return cost;
}

/// Where a conversion of `value` would go: right after its definition.
int64_t costOfConverting(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    int64_t cost = costAt(parent);
    return isa<scf::ForOp, scf::WhileOp>(parent) ? cost * 8 : cost;
  }
  return costAt(value.getDefiningOp());
}

class Cleaner {
public:
  explicit Cleaner(func::FuncOp func) : func(func), builder(func.getContext()) {}

  void run() {
    for (int round = 0; round < 100; ++round) {
      // Cheap rewrites everywhere first, so that copies made for one conversion are
      // shared by the next; then the rewrites that change layouts in place.
      bool changed = simplifyLocally();
      DenseSet<Operation *> erased;
      for (tile::ConvertLayoutOp op : collect()) {
        if (rematerialize(op)) {
          erased.insert(op);
          changed = true;
        }
      }
      remat.clear();
      for (tile::ConvertLayoutOp op : collect()) {
        if (erased.contains(op) || !propagate(op, erased))
          continue;
        // Layouts changed in place: copies made so far may no longer be what they were.
        remat.clear();
        changed = true;
      }
      remat.clear();
      eraseDeadOps();
      if (!changed)
        break;
    }
  }

private:
  func::FuncOp func;
  OpBuilder builder;
  /// Values already re-created in a layout during this round (keys are never
  /// conversions, the only ops erased before the round ends).
  DenseMap<std::pair<Value, Attribute>, Value> remat;

  SmallVector<tile::ConvertLayoutOp> collect() {
    SmallVector<tile::ConvertLayoutOp> conversions;
    func.walk([&](tile::ConvertLayoutOp op) { conversions.push_back(op); });
    return conversions;
  }

  //===--------------------------------------------------------------------===//
  // local
  //===--------------------------------------------------------------------===//

  /// The conversions' folds and canonicalisation patterns (ConvertLayoutOp), applied to
  /// the conversions alone: the ops they create are not folded further (constants stay
  /// where they are made). True when something changed.
  bool simplifyLocally() {
    SmallVector<Operation *> conversions;
    for (tile::ConvertLayoutOp op : collect())
      conversions.push_back(op);
    if (conversions.empty())
      return false;
    MLIRContext *context = func.getContext();
    RewritePatternSet patterns(context);
    tile::ConvertLayoutOp::getCanonicalizationPatterns(patterns, context);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps).enableConstantCSE(false);
    bool changed = false;
    // Each rewrite removes a conversion or shortens a chain of them: it converges.
    (void)applyOpPatternsGreedily(conversions, std::move(patterns), config, &changed);
    return changed;
  }

  //===--------------------------------------------------------------------===//
  // rematerialize
  //===--------------------------------------------------------------------===//

  /// What having `value` in `layout` costs if its cheap producers (splat, make_range,
  /// constants, element-wise ops, broadcasts, expand_dims) are re-created in it: 0 if
  /// it already has the layout, is a conversion from it, or comes from scalars through
  /// such ops alone. With `allowConvert`, values that cannot be re-created are
  /// converted instead, at the price of their elements (weighted by loop depth) - a
  /// broadcast is cheaper to convert before it than after - and the cheaper of
  /// converting and re-creating is taken at every step. Values in `avoid` (about to
  /// change layout) cannot be used; nothing means impossible.
  /// One question to rematCost: how many distinct values it may still look at, and what
  /// it found for each (value, layout) already, so that the operands a DAG shares (each
  /// round of Philox reads the last round's four words twice) are priced once and the
  /// budget counts ops, not paths.
  struct RematSearch {
    int budget = 256;
    DenseMap<std::pair<Value, Attribute>, std::optional<int64_t>> seen;
  };

  std::optional<int64_t> rematCost(Value value, Attribute layout,
                                   const DenseMap<Value, Attribute> *avoid,
                                   RematSearch &search, bool allowConvert) {
    if (avoid && avoid->count(value))
      return std::nullopt;
    if (getLayout(value.getType()) == layout)
      return 0;
    auto key = std::make_pair(value, layout);
    if (auto it = search.seen.find(key); it != search.seen.end())
      return it->second;
    std::optional<int64_t> cost = rematCostOnce(value, layout, avoid, search, allowConvert);
    search.seen[key] = cost;
    return cost;
  }

  std::optional<int64_t> rematCostOnce(Value value, Attribute layout,
                                       const DenseMap<Value, Attribute> *avoid,
                                       RematSearch &search, bool allowConvert) {
    int &budget = search.budget;
    std::optional<int64_t> convert;
    if (allowConvert)
      convert = conversionCost(value);
    Operation *def = value.getDefiningOp();
    if (!def || --budget < 0)
      return convert;
    if (auto cvt = dyn_cast<tile::ConvertLayoutOp>(def))
      return rematCost(cvt.getSrc(), layout, avoid, search, allowConvert);
    if (isa<tile::SplatOp, tile::MakeRangeOp>(def))
      return 0;
    if (auto constant = dyn_cast<arith::ConstantOp>(def))
      return isa<DenseElementsAttr>(constant.getValue()) ? std::optional<int64_t>(0) : convert;
    if (!isElementwiseLike(def) && !isa<tile::ExpandDimsOp>(def))
      return convert;
    Attribute need = operandLayoutFor(def, layout);
    int64_t total = 0;
    for (Value operand : def->getOperands()) {
      if (!isTile(operand.getType()))
        continue;
      std::optional<int64_t> cost = rematCost(operand, need, avoid, search, allowConvert);
      if (!cost)
        return convert;
      total += *cost;
    }
    return convert ? std::min(*convert, total) : total;
  }

  static int64_t conversionCost(Value value) {
    return cast<RankedTensorType>(value.getType()).getNumElements() * costOfConverting(value);
  }

  bool canRemat(Value value, Attribute layout,
                const DenseMap<Value, Attribute> *avoid = nullptr) {
    RematSearch search;
    return rematCost(value, layout, avoid, search, false) == 0;
  }

  /// `value` in `layout`, re-created as rematCost found cheapest (with conversions
  /// where `allowConvert` made them the better choice).
  Value doRemat(Value value, Attribute layout, bool allowConvert = false) {
    if (getLayout(value.getType()) == layout)
      return value;
    auto key = std::make_pair(value, layout);
    if (Value known = remat.lookup(key))
      return known;
    Operation *def = value.getDefiningOp();
    if (!def) {
      // A block argument (a loop-carried value) cannot be re-created: rematCost priced
      // it as a conversion, which only a caller allowing conversions asks for.
      assert(allowConvert && "re-creating a block argument");
      return remat[key] = tcc::convertAfterDef(builder, value, layout);
    }
    if (auto cvt = dyn_cast<tile::ConvertLayoutOp>(def))
      return doRemat(cvt.getSrc(), layout, allowConvert);
    Attribute need = operandLayoutFor(def, layout);
    if (allowConvert && !isa<tile::SplatOp, tile::MakeRangeOp, arith::ConstantOp>(def)) {
      // Re-create this op unless converting its result is strictly cheaper; on a tie
      // the conversion moves towards its source, where it may fold with another.
      std::optional<int64_t> total;
      if (isElementwiseLike(def) || isa<tile::ExpandDimsOp>(def)) {
        total = 0;
        for (Value operand : def->getOperands()) {
          if (!isTile(operand.getType()))
            continue;
          RematSearch search;
          std::optional<int64_t> cost = rematCost(operand, need, nullptr, search, true);
          if (!cost) {
            total.reset();
            break;
          }
          *total += *cost;
        }
      }
      if (!total || *total > conversionCost(value))
        return remat[key] = tcc::convertAfterDef(builder, value, layout);
    }
    IRMapping mapping;
    for (Value operand : def->getOperands())
      if (isTile(operand.getType()))
        mapping.map(operand, doRemat(operand, need, allowConvert));
    builder.setInsertionPointAfter(def);
    Operation *copy = builder.clone(*def, mapping);
    if (isa<arith::ConstantOp>(copy))
      (void)tcc::setConstantLayout(copy, layout);
    else
      copy->getResult(0).setType(withLayout(value.getType(), layout));
    return remat[key] = copy->getResult(0);
  }

  /// Replaces `op` by a re-creation of its source in its layout when that converts
  /// fewer elements (none, mostly) than `op` does.
  bool rematerialize(tile::ConvertLayoutOp op) {
    Attribute layout = getLayout(op.getType());
    Value src = op.getSrc();
    Operation *def = src.getDefiningOp();
    // Conversions of loads, reductions and loop values stay for `propagate`.
    if (!def || isa<tile::ConvertLayoutOp>(def))
      return false;
    RematSearch search;
    std::optional<int64_t> cost = rematCost(src, layout, nullptr, search, true);
    int64_t current = cast<RankedTensorType>(src.getType()).getNumElements() * costAt(op);
    if (!cost || (*cost != 0 && *cost >= current))
      return false;
    op.getResult().replaceAllUsesWith(doRemat(src, layout, /*allowConvert=*/*cost != 0));
    op.erase();
    return true;
  }

  //===--------------------------------------------------------------------===//
  // propagate
  //===--------------------------------------------------------------------===//

  /// The values that change layout, the ops through which they do, and the operands
  /// those ops then need.
  struct Plan {
    DenseMap<Value, Attribute> layouts;
    SmallVector<Value> order;
    /// Transparent ops and sinks taking part, with the layout their tile operands need.
    llvm::MapVector<Operation *, Attribute> ops;
    /// (scf.for or scf.if, index) pairs whose carried value changes layout.
    llvm::SetVector<std::pair<Operation *, unsigned>> links;
    bool failed = false;

    void set(Value value, Attribute layout) {
      auto [it, inserted] = layouts.try_emplace(value, layout);
      if (inserted)
        order.push_back(value);
      else if (it->second != layout)
        failed = true;
    }
  };

  /// Operands of the plan's ops and links that must come in a layout, and which.
  SmallVector<std::pair<OpOperand *, Attribute>> neededOperands(Plan &plan) {
    SmallVector<std::pair<OpOperand *, Attribute>> needed;
    auto need = [&](OpOperand &operand, Attribute layout) {
      auto it = plan.layouts.find(operand.get());
      if (it == plan.layouts.end())
        needed.push_back({&operand, layout});
      else if (it->second != layout)
        plan.failed = true;
    };
    for (auto &[op, layout] : plan.ops) {
      if (isLayoutSink(op))
        continue; // takes each operand in whatever layout it has
      for (OpOperand &operand : op->getOpOperands())
        if (isTile(operand.get().getType()))
          need(operand, layout);
    }
    for (auto [op, i] : plan.links) {
      if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        Attribute layout = plan.layouts.lookup(forOp.getRegionIterArgs()[i]);
        need(forOp.getInitArgsMutable()[i], layout);
        need(forOp.getBody()->getTerminator()->getOpOperand(i), layout);
      } else {
        auto ifOp = cast<scf::IfOp>(op);
        Attribute layout = plan.layouts.lookup(ifOp.getResult(i));
        need(ifOp.thenYield()->getOpOperand(i), layout);
        need(ifOp.elseYield()->getOpOperand(i), layout);
      }
    }
    return needed;
  }

  /// Whether `use` of a planned value is taken care of by the plan itself.
  bool isCovered(const Plan &plan, OpOperand &use) {
    Operation *owner = use.getOwner();
    if (plan.ops.count(owner))
      return true;
    unsigned index = use.getOperandNumber();
    if (auto yield = dyn_cast<scf::YieldOp>(owner))
      return isa<scf::ForOp, scf::IfOp>(yield->getParentOp()) &&
             plan.links.contains({yield->getParentOp(), index});
    if (auto forOp = dyn_cast<scf::ForOp>(owner))
      return index >= forOp.getNumControlOperands() &&
             plan.links.contains({owner, index - forOp.getNumControlOperands()});
    return false;
  }

  void linkFor(Plan &plan, scf::ForOp forOp, unsigned i, Attribute layout) {
    plan.links.insert({forOp, i});
    plan.set(forOp.getRegionIterArgs()[i], layout);
    plan.set(forOp.getResult(i), layout);
  }

  void grow(Plan &plan) {
    for (size_t next = 0; next < plan.order.size() && !plan.failed; ++next) {
      Value value = plan.order[next];
      Attribute layout = plan.layouts.lookup(value);
      // A loop-carried value and an scf.if result change with their partners.
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        if (auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
          if (arg.getArgNumber() >= forOp.getNumInductionVars())
            linkFor(plan, forOp, arg.getArgNumber() - forOp.getNumInductionVars(), layout);
      } else if (auto forOp = value.getDefiningOp<scf::ForOp>()) {
        linkFor(plan, forOp, cast<OpResult>(value).getResultNumber(), layout);
      } else if (auto ifOp = value.getDefiningOp<scf::IfOp>()) {
        plan.links.insert({ifOp, cast<OpResult>(value).getResultNumber()});
      }
      for (OpOperand &use : value.getUses()) {
        Operation *owner = use.getOwner();
        if (isLayoutSink(owner)) {
          plan.ops.insert({owner, layout});
          continue;
        }
        if (Attribute result = forwardLayout(owner, layout)) {
          auto [it, inserted] = plan.ops.insert({owner, layout});
          if (!inserted && it->second != layout)
            plan.failed = true;
          plan.set(owner->getResult(0), result);
          continue;
        }
        unsigned index = use.getOperandNumber();
        if (auto yield = dyn_cast<scf::YieldOp>(owner)) {
          Operation *parent = yield->getParentOp();
          if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
            linkFor(plan, forOp, index, layout);
          } else if (isa<scf::IfOp>(parent)) {
            plan.links.insert({parent, index});
            plan.set(parent->getResult(index), layout);
          }
          continue;
        }
        if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
          if (index < forOp.getNumControlOperands())
            continue;
          linkFor(plan, forOp, index - forOp.getNumControlOperands(), layout);
        }
        // Anything else keeps its layout: a conversion back (or the user's own).
      }
    }
  }

  /// Forward: the users of `cvt` take its source's layout. Backward, for a conversion
  /// of a loop-carried value or an scf.if result: that value takes the conversion's
  /// layout (the loop's pointers follow the load's layout).
  bool propagate(tile::ConvertLayoutOp cvt, DenseSet<Operation *> &erased) {
    Plan forward;
    forward.set(cvt.getResult(), getLayout(cvt.getSrc().getType()));
    if (tryPlan(forward, cvt, erased))
      return true;
    // Hints are the value itself (`tl.multiple_of(a_ptrs, ...)` on a loop's pointers,
    // tutorial 08): the value under them changes layout, and they follow it.
    Value src = tcc::stripHints(cvt.getSrc());
    Operation *owner = isa<BlockArgument>(src)
                           ? cast<BlockArgument>(src).getOwner()->getParentOp()
                           : src.getDefiningOp();
    if (!isa<scf::ForOp, scf::IfOp>(owner))
      return false;
    Plan backward;
    backward.set(src, getLayout(cvt.getType()));
    return tryPlan(backward, nullptr, erased);
  }

  /// Grows `plan`, weighs it and applies it if it leaves fewer conversions. `seed`, if
  /// given, is the conversion whose result the plan starts from: its users that follow
  /// take its source, the others keep it.
  bool tryPlan(Plan &plan, tile::ConvertLayoutOp seed, DenseSet<Operation *> &erased) {
    grow(plan);
    if (plan.failed)
      return false;
    auto needed = neededOperands(plan);
    if (plan.failed)
      return false;

    // What it removes: the seed, conversions it feeds that become identities, and
    // conversions feeding it whose every use it takes over.
    int64_t benefit = seed ? costAt(seed) : 0, cost = 0;
    DenseSet<Value> countedNeeded, countedBack;
    DenseSet<Operation *> dying;
    for (auto [operand, layout] : needed) {
      Value value = operand->get();
      if (!countedNeeded.insert(value).second)
        continue;
      if (!canRemat(value, layout, &plan.layouts)) {
        cost += costOfConverting(value);
        continue;
      }
      auto cvt = value.getDefiningOp<tile::ConvertLayoutOp>();
      if (cvt && getLayout(cvt.getSrc().getType()) == layout &&
          llvm::all_of(value.getUses(), [&](OpOperand &use) { return isCovered(plan, use); }))
        if (dying.insert(cvt).second)
          benefit += costAt(cvt);
    }
    SmallVector<std::pair<OpOperand *, Type>> back;
    for (Value value : plan.order) {
      Attribute layout = plan.layouts.lookup(value);
      for (OpOperand &use : value.getUses()) {
        if (isCovered(plan, use))
          continue;
        if (auto user = dyn_cast<tile::ConvertLayoutOp>(use.getOwner())) {
          if (getLayout(user.getType()) == layout && user != seed &&
              dying.insert(user).second)
            benefit += costAt(user);
          continue;
        }
        back.push_back({&use, value.getType()});
        if (countedBack.insert(value).second)
          cost += isSeed(seed, value) ? costAt(seed) : costOfConverting(value);
      }
    }
    if (cost >= benefit)
      return false;

    // Operands from outside, in the layouts the plan needs.
    DenseMap<std::pair<Value, Attribute>, Value> converted;
    for (auto [operand, layout] : needed) {
      Value value = operand->get();
      Value &in = converted[{value, layout}];
      if (!in)
        in = canRemat(value, layout, &plan.layouts) ? doRemat(value, layout)
                                                    : tcc::convertAfterDef(builder, value, layout);
      operand->set(in);
    }
    // Users that keep the old layout: one conversion back per value (the seed itself
    // for the seed's).
    DenseMap<Value, Value> backs;
    for (auto [use, oldType] : back) {
      Value value = use->get();
      if (isSeed(seed, value))
        continue;
      Value &b = backs[value];
      if (!b) {
        OpBuilder::InsertionGuard guard(builder);
        if (auto arg = dyn_cast<BlockArgument>(value))
          builder.setInsertionPointToStart(arg.getOwner());
        else
          builder.setInsertionPointAfter(value.getDefiningOp());
        b = tile::ConvertLayoutOp::create(builder, value.getLoc(), oldType, value);
      }
      use->set(b);
    }
    // Now the layouts change.
    for (Value value : plan.order)
      if (!isSeed(seed, value))
        value.setType(withLayout(value.getType(), plan.layouts.lookup(value)));
    if (seed)
      for (OpOperand &use : llvm::make_early_inc_range(seed.getResult().getUses()))
        if (isCovered(plan, use) || isa<tile::ConvertLayoutOp>(use.getOwner()))
          use.set(seed.getSrc());
    // Conversions fed by the plan that became identities.
    for (Operation *op : dying) {
      auto cvt = cast<tile::ConvertLayoutOp>(op);
      if (cvt.getSrc().getType() == cvt.getType()) {
        cvt.getResult().replaceAllUsesWith(cvt.getSrc());
        erased.insert(cvt);
        cvt.erase();
      }
    }
    if (seed && seed.getResult().use_empty()) {
      erased.insert(seed);
      seed.erase();
    }
    return true;
  }

  static bool isSeed(tile::ConvertLayoutOp seed, Value value) {
    return seed && value == seed.getResult();
  }

  /// Tile ops left without users (the originals of what was re-created elsewhere), and
  /// those whose last users they were. Scalars are canonicalize's business. The greedy
  /// driver with no patterns, no folding and only these ops does exactly that: it erases
  /// each trivially dead op it is given, revisiting the given ops that fed it.
  void eraseDeadOps() {
    SmallVector<Operation *> tileOps;
    func.walk([&](Operation *op) {
      if (llvm::any_of(op->getResultTypes(), isTile))
        tileOps.push_back(op);
    });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps)
        .enableFolding(false)
        .enableConstantCSE(false);
    (void)applyOpPatternsGreedily(tileOps, FrozenRewritePatternSet(), config);
  }
};

struct RemoveLayoutConversions
    : tcc::impl::TileRemoveLayoutConversionsBase<RemoveLayoutConversions> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        Cleaner(func).run();
  }
};

} // namespace
