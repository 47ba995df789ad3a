//===- ScanLowering.cpp - inclusive scans along one axis ------------------===//
//
// tile.scan, bit by bit of the coordinate along the axis, from the lowest. Every bit is
// selected by a register bit, a lane bit or a warp bit of the layout (Distribution), and
// merging it doubles the blocks of consecutive elements whose scan is known:
//
//  1. The low coordinate bits a thread's registers select (a run of consecutive elements,
//     sizePerThread in a blocked layout): a sequential scan over those registers.
//  2. Each further bit: a block learns the total of its partner block (the one that differs
//     in that bit) from another register, from lane (lane ^ bit) by a butterfly shuffle,
//     or, for the warp bits (consecutive, above the lanes), from shared memory, where every
//     warp leaves its block's total and reads those of the warps before it. A block after
//     its partner folds the partner's total into its carry (what precedes it within the
//     merged block); both get the merged block's total. Only totals move between threads:
//     one shuffle per distinct block a thread holds and lane bit (log2 steps).
//  3. Every register combines the carry, where it has one, with its in-thread prefix.
//
// The combining region is cloned for each use on scalars. Carries exist only where a block
// has something before it: a compile-time fact for register bits, an i1 for lane and warp
// bits (the region may have no identity element, so nothing is combined with nothing).
// `reverse` scans from the end: a block is "later" where its coordinate bit is 0.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/SharedMemory.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

using Vals = SmallVector<Value, 2>;

/// Who selects each coordinate bit along the axis, and where the warp stage sits.
struct ScanPlan {
  Distribution dist;
  unsigned axis = 0;
  unsigned axisBits = 0;
  enum class By { Reg, Lane, Warp };
  SmallVector<std::pair<By, unsigned>> bits; // per coordinate bit: (kind, id bit)
  unsigned runBits = 0;                      // coordinate bits 0.. scanned in registers
  int64_t runMask = 0;                       // their register bits
  unsigned warpFirst = 0, warpCount = 0;     // coordinate bits of the warp stage
  int64_t rows = 1;                          // elements per position along the axis
};

FailureOr<ScanPlan> planScan(ScanOp op, std::string &why) {
  auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
  std::optional<Distribution> dist = Distribution::get(type);
  if (!dist) {
    why = "has a source without a distributed layout";
    return failure();
  }
  ScanPlan plan{*dist, 0, 0, {}, 0, 0, 0, 0, 1};
  plan.axis = op.getAxis();
  int64_t len = type.getDimSize(plan.axis);
  plan.axisBits = llvm::Log2_64(len);
  plan.rows = type.getNumElements() / len;
  plan.bits.assign(plan.axisBits, {ScanPlan::By::Reg, ~0u});
  const LayoutBits &bits = dist->getBits();
  auto record = [&](ArrayRef<BitTarget> targets, ScanPlan::By by) {
    for (auto [id, t] : llvm::enumerate(targets))
      if (!t.isNone() && unsigned(t.dim) == plan.axis && t.bit < plan.axisBits)
        plan.bits[t.bit] = {by, unsigned(id)};
  };
  record(bits.regs, ScanPlan::By::Reg);
  record(bits.lanes, ScanPlan::By::Lane);
  record(bits.warps, ScanPlan::By::Warp);
  for (auto [k, b] : llvm::enumerate(plan.bits))
    if (b.second == ~0u) {
      why = "has a layout that selects no thread or register for bit " + std::to_string(k) +
            " of the axis";
      return failure();
    }
  while (plan.runBits < plan.axisBits && plan.bits[plan.runBits].first == ScanPlan::By::Reg) {
    plan.runMask |= int64_t(1) << plan.bits[plan.runBits].second;
    ++plan.runBits;
  }
  bool seenWarp = false;
  for (unsigned k = 0; k < plan.axisBits; ++k) {
    ScanPlan::By by = plan.bits[k].first;
    if (by == ScanPlan::By::Warp) {
      if (seenWarp && plan.warpFirst + plan.warpCount != k) {
        why = "has a layout whose warps along the axis are not consecutive positions";
        return failure();
      }
      if (!seenWarp)
        plan.warpFirst = k;
      seenWarp = true;
      ++plan.warpCount;
    } else if (by == ScanPlan::By::Lane && seenWarp) {
      why = "has a layout with lanes above warps along the axis";
      return failure();
    }
  }
  return plan;
}

/// Per component: its byte offset in the scratch, and the total.
int64_t scratchLayout(ScanOp op, const ScanPlan &plan, SmallVectorImpl<int64_t> *offsets) {
  if (plan.warpCount == 0)
    return 0;
  int64_t outer = int64_t(1) << (plan.axisBits - plan.warpFirst - plan.warpCount);
  int64_t slots = outer * plan.rows * (int64_t(1) << plan.warpCount);
  int64_t bytes = 0;
  for (Value src : op.getSrcs()) {
    Type mem = memoryType(cast<RankedTensorType>(src.getType()).getElementType());
    int64_t size = std::max<int64_t>(mem.getIntOrFloatBitWidth() / 8, 1);
    bytes = llvm::alignTo(bytes, size);
    if (offsets)
      offsets->push_back(bytes);
    bytes += slots * size;
  }
  return bytes;
}

/// A block's "something comes before it": never, always, or at run time.
struct Flag {
  Value value;       // i1, when decided at run time
  bool always = false;
  bool never() const { return !value && !always; }
};

class ScanEmitter {
public:
  ScanEmitter(ScanOp op, ConversionPatternRewriter &rewriter)
      : op(op), b(rewriter), loc(op.getLoc()), body(op.getCombiner().front()) {}

  Vals combine(ArrayRef<Value> earlier, ArrayRef<Value> later) {
    IRMapping map;
    size_t n = earlier.size();
    for (size_t i = 0; i < n; ++i) {
      map.map(body.getArgument(i), earlier[i]);
      map.map(body.getArgument(n + i), later[i]);
    }
    for (Operation &inner : body.without_terminator())
      b.clone(inner, map);
    Vals out;
    for (Value v : body.getTerminator()->getOperands())
      out.push_back(map.lookupOrDefault(v));
    return out;
  }

  Vals select(Value cond, ArrayRef<Value> yes, ArrayRef<Value> no) {
    Vals out;
    for (auto [y, n] : llvm::zip(yes, no))
      out.push_back(y == n ? y : arith::SelectOp::create(b, loc, cond, y, n).getResult());
    return out;
  }

  /// The carry after learning that `earlier` precedes the block (where `when` holds, or
  /// always for a null `when`).
  void prepend(Vals &carry, Flag &has, ArrayRef<Value> earlier, Value when) {
    Vals joined;
    if (has.always)
      joined = combine(earlier, carry);
    else if (has.value)
      joined = select(has.value, combine(earlier, carry), earlier);
    else
      joined = Vals(earlier.begin(), earlier.end());
    if (!when) {
      carry = joined;
      has = Flag{Value(), true};
      return;
    }
    carry = has.never() ? joined : select(when, joined, carry);
    if (has.always)
      return;
    has.value = has.value ? arith::OrIOp::create(b, loc, has.value, when).getResult() : when;
  }

  Value bitOf(Value id, unsigned bit) {
    Value shifted = bit ? arith::ShRUIOp::create(b, loc, id, i32Const(b, loc, bit)).getResult()
                        : id;
    Value one = arith::AndIOp::create(b, loc, shifted, i32Const(b, loc, 1));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, one, i32Const(b, loc, 0));
  }

  Value notOf(Value flag) {
    Value t = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    return arith::XOrIOp::create(b, loc, flag, t);
  }

  ScanOp op;
  ConversionPatternRewriter &b;
  Location loc;
  Block &body;
};

struct ScanLowering : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ScanOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<ScanPlan> planned = planScan(op, why);
    if (failed(planned))
      return op.emitOpError() << why;
    const ScanPlan &plan = *planned;
    const Distribution &dist = plan.dist;
    bool rev = op.getReverse();
    ArrayRef<ValueRange> srcs = adaptor.getSrcs();
    size_t n = srcs.size();
    int64_t numRegs = dist.getNumRegs();
    ScanEmitter e(op, rewriter);
    Location loc = op.getLoc();

    auto element = [&](int64_t r) {
      Vals v;
      for (size_t i = 0; i < n; ++i)
        v.push_back(srcs[i][r]);
      return v;
    };

    // 1. Sequential scans over the runs of registers.
    std::vector<Vals> prefix(numRegs);
    std::map<int64_t, Vals> total; // by block key: group with merged register bits cleared
    std::map<int64_t, Vals> carry;
    std::map<int64_t, Flag> has;
    for (int64_t g = 0; g < numRegs; ++g) {
      if (g & plan.runMask)
        continue;
      SmallVector<int64_t> run;
      for (int64_t r = 0; r < numRegs; ++r)
        if ((r & ~plan.runMask) == g)
          run.push_back(r);
      llvm::stable_sort(run, [&](int64_t x, int64_t y) {
        int64_t ox = dist.getRegOffset(x, plan.axis), oy = dist.getRegOffset(y, plan.axis);
        return rev ? ox > oy : ox < oy;
      });
      Vals acc = element(run.front());
      prefix[run.front()] = acc;
      for (size_t i = 1; i < run.size(); ++i) {
        acc = e.combine(acc, element(run[i]));
        prefix[run[i]] = acc;
      }
      total[g] = acc;
      carry[g] = acc; // meaningless until `has` says otherwise
      has[g] = Flag{};
    }
    int64_t merged = plan.runMask;
    auto keyOf = [&](int64_t g) { return g & ~merged; };

    // 2. The other bits, lowest first.
    unsigned numThreads = dist.getNumThreads();
    Value laneId;
    for (unsigned k = plan.runBits; k < plan.axisBits; ++k) {
      auto [by, id] = plan.bits[k];
      if (by == ScanPlan::By::Reg) {
        int64_t bit = int64_t(1) << id;
        std::map<int64_t, Vals> next;
        for (auto &[t, tot] : total) {
          if (t & bit)
            continue;
          const Vals &lo = tot, &hi = total.at(t | bit);
          next[t] = rev ? e.combine(hi, lo) : e.combine(lo, hi);
        }
        for (auto &[g, c] : carry) {
          bool later = rev ? !(g & bit) : (g & bit);
          if (later)
            e.prepend(c, has[g], total.at(keyOf(g) ^ bit), Value());
        }
        merged |= bit;
        total = std::move(next);
        continue;
      }
      if (by == ScanPlan::By::Lane) {
        if (!laneId)
          laneId = emitLaneId(rewriter, loc, numThreads);
        Value isOne = e.bitOf(laneId, id);
        Value later = rev ? e.notOf(isOne) : isOne;
        std::map<int64_t, Vals> partner;
        for (auto &[t, tot] : total) {
          Vals other;
          for (Value v : tot)
            other.push_back(nvvm::shuffleXor(rewriter, loc, v, 1u << id));
          partner[t] = other;
          tot = e.combine(e.select(later, other, tot), e.select(later, tot, other));
        }
        for (auto &[g, c] : carry)
          e.prepend(c, has[g], partner[keyOf(g)], later);
        continue;
      }
      // The warp stage: every warp's block totals through shared memory.
      if (failed(warpStage(op, plan, e, total, carry, has, keyOf, rewriter)))
        return failure();
      k += plan.warpCount - 1;
    }

    // 3. Carries into every register.
    SmallVector<SmallVector<Value>> results(n);
    for (int64_t r = 0; r < numRegs; ++r) {
      int64_t g = r & ~plan.runMask;
      Flag &h = has[g];
      Vals v = prefix[r];
      if (h.always)
        v = e.combine(carry[g], v);
      else if (h.value)
        v = e.select(h.value, e.combine(carry[g], v), v);
      for (size_t i = 0; i < n; ++i)
        results[i].push_back(v[i]);
    }
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }

  template <typename KeyOf>
  LogicalResult warpStage(ScanOp op, const ScanPlan &plan, ScanEmitter &e,
                          std::map<int64_t, Vals> &total, std::map<int64_t, Vals> &carry,
                          std::map<int64_t, Flag> &has, KeyOf keyOf,
                          ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    const Distribution &dist = plan.dist;
    if (!op->hasAttr(kSharedOffsetAttr)) {
      (void)scratchBase(rewriter, op); // says why
      return failure();
    }
    SmallVector<int64_t> offsets;
    scratchLayout(op, plan, &offsets);
    Value base = scratchBase(rewriter, op);
    unsigned warps = 1u << plan.warpCount;
    unsigned above = plan.warpFirst + plan.warpCount;
    ArrayRef<int64_t> shape = dist.getShape();
    bool rev = op.getReverse();

    // The slot of each block key: (outer block along the axis, row) then the warp.
    SmallVector<Value> threadBase;
    for (unsigned d = 0; d < dist.getRank(); ++d)
      threadBase.push_back(d == plan.axis ? Value() : emitThreadBase(rewriter, loc, dist, d));
    Value warp = emitWarpPosition(rewriter, loc, dist, plan.axis);
    std::map<int64_t, Value> rowOf;
    for (auto &[t, tot] : total) {
      int64_t constant = (dist.getRegOffset(t, plan.axis) >> above) * plan.rows;
      Value row;
      int64_t stride = 1;
      for (int d = int(dist.getRank()) - 1; d >= 0; --d) {
        if (unsigned(d) == plan.axis)
          continue;
        constant += dist.getRegOffset(t, d) * stride;
        Value term = threadBase[d];
        if (stride > 1)
          term = arith::MulIOp::create(rewriter, loc, term, i32Const(rewriter, loc, stride));
        row = row ? arith::AddIOp::create(rewriter, loc, row, term).getResult() : term;
        stride *= shape[d];
      }
      Value c = i32Const(rewriter, loc, constant);
      row = row ? arith::AddIOp::create(rewriter, loc, row, c).getResult() : c;
      rowOf[t] = arith::MulIOp::create(rewriter, loc, row, i32Const(rewriter, loc, warps));
    }
    auto slotPtr = [&](size_t i, Value slot) {
      Type elem = cast<RankedTensorType>(op.getSrcs()[i].getType()).getElementType();
      Type mem = memoryType(elem);
      Value partBase = sharedElementPtr(rewriter, loc, base, rewriter.getI8Type(),
                                        i32Const(rewriter, loc, offsets[i]));
      return std::pair<Value, Type>(sharedElementPtr(rewriter, loc, partBase, mem, slot), mem);
    };
    for (auto &[t, tot] : total) {
      Value slot = arith::AddIOp::create(rewriter, loc, rowOf[t], warp);
      for (size_t i = 0; i < tot.size(); ++i)
        storeShared(rewriter, loc, slotPtr(i, slot).first,
                    {toSharedMemory(rewriter, loc, tot[i])});
    }
    nvvm::barrier(rewriter, loc);
    // Warps in scan order; each thread's carry from the warps before its own.
    SmallVector<unsigned> order;
    for (unsigned w = 0; w < warps; ++w)
      order.push_back(rev ? warps - 1 - w : w);
    Value notFirst = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, warp,
                                           i32Const(rewriter, loc, order.front()));
    std::map<int64_t, Vals> before;
    for (auto &entry : total) {
      int64_t t = entry.first;
      Vals &tot = entry.second;
      auto load = [&](unsigned w) {
        Value slot = arith::AddIOp::create(rewriter, loc, rowOf[t], i32Const(rewriter, loc, w));
        Vals v;
        for (size_t i = 0; i < tot.size(); ++i) {
          auto [ptr, mem] = slotPtr(i, slot);
          Type elem = cast<RankedTensorType>(op.getSrcs()[i].getType()).getElementType();
          v.push_back(fromSharedMemory(rewriter, loc, loadShared(rewriter, loc, ptr, mem, 1)[0],
                                       elem));
        }
        return v;
      };
      Vals acc = load(order.front());
      Vals exclusive = acc; // right for the second warp; the first has none
      for (size_t j = 1; j < order.size(); ++j) {
        if (j > 1) {
          Value mine = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, warp,
                                             i32Const(rewriter, loc, order[j]));
          exclusive = e.select(mine, acc, exclusive);
        }
        acc = e.combine(acc, load(order[j]));
      }
      before[t] = exclusive;
      tot = acc;
    }
    for (auto &[g, c] : carry)
      e.prepend(c, has[g], before[keyOf(g)], notFirst);
    return success();
  }
};

} // namespace

int64_t scanScratchBytes(Operation *op) {
  auto scan = cast<ScanOp>(op);
  std::string why;
  FailureOr<ScanPlan> plan = planScan(scan, why);
  return succeeded(plan) ? scratchLayout(scan, *plan, nullptr) : 0;
}

void populateScanLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ScanLowering>(converter, patterns.getContext());
}

} // namespace tcc
