//===- ReduceLowering.cpp - reductions along one axis ---------------------===//
//
// Three levels, as the data is spread: first the registers of a thread that differ only
// along the axis (a tree, for instruction-level parallelism), then the lanes of a warp
// that hold different positions along the axis (butterfly shuffles, so that every lane
// ends with the result), then the warps (one partial per warp through shared memory,
// every thread combining all of them). Threads holding copies along the axis are never
// counted twice: only the distinct lanes and warps take part. The result, sliced from the
// source layout, is held by every thread that held its source elements.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/SharedMemory.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

/// A partial result: the value, and for argmax/argmin the index along the axis.
struct Partial {
  Value value, index;
};

bool isArgKind(ReduceKind kind) { return kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin; }

Partial combine(OpBuilder &b, Location loc, ReduceKind kind, Partial x, Partial y) {
  Type type = x.value.getType();
  bool isFloat = isa<FloatType>(type);
  bool isBool = type.isInteger(1);
  switch (kind) {
  case ReduceKind::Sum:
    if (isFloat)
      return {arith::AddFOp::create(b, loc, x.value, y.value), {}};
    if (isBool)
      return {arith::XOrIOp::create(b, loc, x.value, y.value), {}};
    return {arith::AddIOp::create(b, loc, x.value, y.value), {}};
  case ReduceKind::Max:
    if (isFloat)
      return {arith::MaximumFOp::create(b, loc, x.value, y.value), {}};
    if (isBool)
      return {arith::OrIOp::create(b, loc, x.value, y.value), {}};
    return {arith::MaxSIOp::create(b, loc, x.value, y.value), {}};
  case ReduceKind::Min:
    if (isFloat)
      return {arith::MinimumFOp::create(b, loc, x.value, y.value), {}};
    if (isBool)
      return {arith::AndIOp::create(b, loc, x.value, y.value), {}};
    return {arith::MinSIOp::create(b, loc, x.value, y.value), {}};
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin: {
    bool isMax = kind == ReduceKind::ArgMax;
    // y wins if strictly better, or equal with a smaller index; NaN counts as the
    // extreme (the first NaN wins), as in NumPy.
    Value better, equal;
    Value yFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y.index, x.index);
    if (isFloat) {
      better = arith::CmpFOp::create(b, loc, isMax ? arith::CmpFPredicate::OGT
                                                   : arith::CmpFPredicate::OLT,
                                     y.value, x.value);
      equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, y.value, x.value);
      Value xNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x.value, x.value);
      Value yNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, y.value, y.value);
      Value bothNan = arith::AndIOp::create(b, loc, xNan, yNan);
      Value trueValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
      Value xNotNan = arith::XOrIOp::create(b, loc, xNan, trueValue);
      Value yNanOnly = arith::AndIOp::create(b, loc, yNan, xNotNan);
      equal = arith::OrIOp::create(b, loc, equal, bothNan);
      better = arith::OrIOp::create(b, loc, better, yNanOnly);
    } else {
      better = arith::CmpIOp::create(
          b, loc, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt, y.value, x.value);
      equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y.value, x.value);
    }
    Value tie = arith::AndIOp::create(b, loc, equal, yFirst);
    Value takeY = arith::OrIOp::create(b, loc, better, tie);
    return {arith::SelectOp::create(b, loc, takeY, y.value, x.value),
            arith::SelectOp::create(b, loc, takeY, y.index, x.index)};
  }
  }
  return x;
}

/// A pairwise tree over `parts` (kept in order, so ties resolve the same in any width).
Partial combineTree(OpBuilder &b, Location loc, ReduceKind kind, SmallVector<Partial> parts) {
  while (parts.size() > 1) {
    SmallVector<Partial> next;
    for (size_t i = 0; i + 1 < parts.size(); i += 2)
      next.push_back(combine(b, loc, kind, parts[i], parts[i + 1]));
    if (parts.size() % 2)
      next.push_back(parts.back());
    parts = std::move(next);
  }
  return parts.front();
}

/// How the reduction is spread: the source distribution, the result's registers and
/// which source registers feed each.
struct ReducePlan {
  Distribution src;
  std::optional<Distribution> result; // none for a scalar result
  std::vector<SmallVector<int64_t>> sources; // per result register, by offset along axis
  unsigned axis;
  unsigned lanes, warps; // distinct lanes and warps along the axis
  int64_t resultElements;
};

std::optional<ReducePlan> planReduce(ReduceOp op) {
  std::optional<Distribution> src = Distribution::get(op.getSrc().getType());
  if (!src)
    return std::nullopt;
  ReducePlan plan{*src, std::nullopt, {}, unsigned(op.getAxis()), 0, 0, 1};
  plan.lanes = src->getDistinctLanes(plan.axis);
  plan.warps = src->getDistinctWarps(plan.axis);
  auto resultType = dyn_cast<RankedTensorType>(op.getType());
  if (resultType) {
    plan.result = Distribution::get(resultType);
    if (!plan.result)
      return std::nullopt;
    plan.resultElements = resultType.getNumElements();
    plan.sources.resize(plan.result->getNumRegs());
  } else {
    plan.sources.resize(1);
  }
  // Source registers by their offset along the axis, so trees combine in index order.
  std::vector<std::pair<int64_t, int64_t>> byAxis;
  for (int64_t r = 0; r < src->getNumRegs(); ++r)
    byAxis.push_back({src->getRegOffset(r, plan.axis), r});
  std::stable_sort(byAxis.begin(), byAxis.end());
  for (auto [axisOffset, r] : byAxis) {
    int64_t q = 0;
    if (plan.result) {
      SmallVector<int64_t> offsets = src->getRegOffsets(r);
      offsets.erase(offsets.begin() + plan.axis);
      std::optional<int64_t> found = plan.result->findReg(offsets);
      if (!found)
        return std::nullopt;
      q = *found;
    }
    plan.sources[q].push_back(r);
  }
  for (auto &s : plan.sources)
    if (s.empty())
      return std::nullopt;
  return plan;
}

/// Values, then (argmax/argmin) i32 indices from the next 4-byte boundary.
int64_t scratchBytesOf(ReduceOp op, const ReducePlan &plan) {
  if (plan.warps <= 1)
    return 0;
  int64_t slots = plan.warps * plan.resultElements;
  Type element = op.getSrc().getType().getElementType();
  int64_t valueBytes = llvm::alignTo(slots * memoryType(element).getIntOrFloatBitWidth() / 8, 4);
  return valueBytes + (isArgKind(op.getKind()) ? slots * 4 : 0);
}

struct ReduceLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<ReducePlan> plan = planReduce(op);
    if (!plan)
      return op.emitOpError() << "result layout is not the source layout sliced along the axis";
    Location loc = op.getLoc();
    ReduceKind kind = op.getKind();
    bool isArg = isArgKind(kind);
    const Distribution &src = plan->src;
    ValueRange regs = adaptor.getSrc();

    // 1. Within each thread.
    Value axisBase = isArg ? emitThreadBase(rewriter, loc, src, plan->axis) : Value();
    SmallVector<Partial> partials;
    for (const SmallVector<int64_t> &sources : plan->sources) {
      SmallVector<Partial> parts;
      for (int64_t r : sources) {
        Partial p{regs[r], {}};
        if (isArg) {
          int64_t offset = src.getRegOffset(r, plan->axis);
          p.index = offset ? arith::AddIOp::create(rewriter, loc, axisBase,
                                                   i32Const(rewriter, loc, offset))
                                 .getResult()
                           : axisBase;
        }
        parts.push_back(p);
      }
      partials.push_back(combineTree(rewriter, loc, kind, parts));
    }

    // 2. Across the lanes that hold different positions along the axis.
    for (auto [laneBit, coordinateBit] : src.getLaneBitsAlong(plan->axis)) {
      unsigned laneMask = 1u << laneBit;
      for (Partial &p : partials) {
        Partial other{nvvm::shuffleXor(rewriter, loc, p.value, laneMask),
                      isArg ? nvvm::shuffleXor(rewriter, loc, p.index, laneMask) : Value()};
        // Keep the lower lane's partial first so that ties pick the smaller index.
        p = combine(rewriter, loc, kind, p, other);
      }
    }

    // 3. Across warps, through shared memory.
    if (plan->warps > 1) {
      if (!op->hasAttr(kSharedOffsetAttr)) {
        (void)scratchBase(rewriter, op); // says why
        return failure();
      }
      partials = combineWarps(op, *plan, partials, rewriter);
    }

    SmallVector<Value> results;
    for (Partial &p : partials)
      results.push_back(isArg ? p.index : p.value);
    if (plan->result)
      replaceWithRegisters(rewriter, op, results);
    else
      rewriter.replaceOp(op, results.front());
    return success();
  }

  SmallVector<Partial> combineWarps(ReduceOp op, const ReducePlan &plan,
                                    ArrayRef<Partial> partials,
                                    ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    bool isArg = isArgKind(op.getKind());
    const Distribution &src = plan.src;
    Type valueType = partials.front().value.getType();
    Type memType = memoryType(valueType);
    int64_t slots = plan.warps * plan.resultElements;
    Value base = scratchBase(rewriter, op);
    Value indexBase;
    if (isArg) {
      int64_t valueBytes = llvm::alignTo(slots * memType.getIntOrFloatBitWidth() / 8, 4);
      Value i8Base = sharedElementPtr(rewriter, loc, base, rewriter.getI8Type(),
                                      i32Const(rewriter, loc, valueBytes));
      indexBase = i8Base;
    }

    // Each result element's linear position, per result register.
    SmallVector<Value> linear;
    if (plan.result) {
      const Distribution &res = *plan.result;
      SmallVector<Value> bases;
      for (unsigned d = 0; d < res.getRank(); ++d)
        bases.push_back(emitThreadBase(rewriter, loc, res, d));
      ArrayRef<int64_t> shape = res.getShape();
      for (int64_t q = 0; q < res.getNumRegs(); ++q) {
        int64_t constant = 0, stride = 1;
        Value position;
        for (int d = res.getRank() - 1; d >= 0; --d) {
          constant += res.getRegOffset(q, d) * stride;
          Value term = bases[d];
          if (stride > 1)
            term = arith::MulIOp::create(rewriter, loc, term, i32Const(rewriter, loc, stride));
          position = position ? arith::AddIOp::create(rewriter, loc, position, term).getResult()
                              : term;
          stride *= shape[d];
        }
        linear.push_back(arith::AddIOp::create(rewriter, loc, position,
                                               i32Const(rewriter, loc, constant)));
      }
    } else {
      linear.push_back(i32Const(rewriter, loc, 0));
    }

    // Warps beyond the distinct ones hold copies: they write the same values.
    Value warp = emitWarpPosition(rewriter, loc, src, plan.axis);
    Value warpSlot = plan.resultElements == 1
                         ? warp
                         : arith::MulIOp::create(rewriter, loc, warp,
                                                 i32Const(rewriter, loc, plan.resultElements))
                               .getResult();
    for (auto [p, position] : llvm::zip(partials, linear)) {
      Value slot = plan.result ? arith::AddIOp::create(rewriter, loc, warpSlot, position).getResult()
                               : warpSlot;
      storeShared(rewriter, loc, sharedElementPtr(rewriter, loc, base, memType, slot),
                  {toSharedMemory(rewriter, loc, p.value)});
      if (isArg)
        storeShared(rewriter, loc,
                    sharedElementPtr(rewriter, loc, indexBase, rewriter.getI32Type(), slot),
                    {p.index});
    }
    nvvm::barrier(rewriter, loc);
    SmallVector<Partial> results;
    for (Value position : linear) {
      SmallVector<Partial> parts;
      for (unsigned w = 0; w < plan.warps; ++w) {
        Value slot = plan.result ? arith::AddIOp::create(rewriter, loc, position,
                                                         i32Const(rewriter, loc,
                                                                  w * plan.resultElements))
                                       .getResult()
                                 : i32Const(rewriter, loc, w);
        Value v = loadShared(rewriter, loc, sharedElementPtr(rewriter, loc, base, memType, slot),
                             memType, 1)[0];
        Partial p{fromSharedMemory(rewriter, loc, v, valueType), {}};
        if (isArg)
          p.index = loadShared(rewriter, loc,
                               sharedElementPtr(rewriter, loc, indexBase, rewriter.getI32Type(), slot),
                               rewriter.getI32Type(), 1)[0];
        parts.push_back(p);
      }
      results.push_back(combineTree(rewriter, loc, op.getKind(), parts));
    }
    return results;
  }
};

} // namespace

int64_t reduceScratchBytes(Operation *op) {
  auto reduce = cast<ReduceOp>(op);
  std::optional<ReducePlan> plan = planReduce(reduce);
  return plan ? scratchBytesOf(reduce, *plan) : 0;
}

void populateReduceLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceLowering>(converter, patterns.getContext());
}

} // namespace tcc
