//===- AxisInfo.cpp - contiguity, divisibility and constancy ---------------===//
//
// One walk over each function in dominance order. Structured control flow is all the
// tile IR has, so a walk suffices: scf.for iteration arguments are iterated to a
// fixpoint (every fact only weakens, and ranges that differ are dropped, so it ends
// quickly), scf.if results join both branches.
//
// Every transfer function below states why its result holds; all entries are powers of
// two, so gcd is min and lcm is max.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/AxisInfo.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using llvm::SmallVector;

namespace tcc {

//===----------------------------------------------------------------------===//
// The lattice value
//===----------------------------------------------------------------------===//

int64_t highestPowerOf2Divisor(int64_t value) {
  if (value == 0)
    return AxisInfo::kMaxDivisor;
  uint64_t u = static_cast<uint64_t>(value);
  uint64_t low = u & (~u + 1);
  return low >= static_cast<uint64_t>(AxisInfo::kMaxDivisor) ? AxisInfo::kMaxDivisor
                                                              : static_cast<int64_t>(low);
}

AxisInfo AxisInfo::unknown(unsigned rank) {
  AxisInfo info;
  info.contiguity.assign(rank, 1);
  info.divisibility.assign(rank, 1);
  info.constancy.assign(rank, 1);
  return info;
}

AxisInfo AxisInfo::constant(ArrayRef<int64_t> shape, int64_t value) {
  AxisInfo info = unknown(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    info.divisibility[d] = highestPowerOf2Divisor(value);
    info.constancy[d] = shape[d];
  }
  info.range = {value, value};
  return info;
}

std::optional<int64_t> AxisInfo::getConstantValue() const {
  if (range && range->first == range->second)
    return range->first;
  return std::nullopt;
}

static AxisInfo joinImpl(const AxisInfo &a, const AxisInfo &b, bool unionRanges) {
  if (!a.isInitialized())
    return b;
  if (!b.isInitialized())
    return a;
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    r.contiguity[d] = std::min(a.contiguity[d], b.contiguity[d]);
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    // Divisibility is stated at the starts of contiguous runs: runs of the smaller
    // contiguity start at multiples of it, where the other side's starts may not be.
    int64_t c = r.contiguity[d];
    auto at = [&](const AxisInfo &x) {
      return c >= x.contiguity[d] ? x.divisibility[d] : std::min(x.divisibility[d], c);
    };
    r.divisibility[d] = std::min(at(a), at(b));
  }
  if (a.range && b.range) {
    if (unionRanges)
      r.range = std::make_pair(std::min(a.range->first, b.range->first),
                               std::max(a.range->second, b.range->second));
    else if (*a.range == *b.range)
      r.range = a.range;
  }
  return r;
}

AxisInfo AxisInfo::join(const AxisInfo &a, const AxisInfo &b) { return joinImpl(a, b, true); }

AxisInfo AxisInfo::joinForLoop(const AxisInfo &a, const AxisInfo &b) {
  return joinImpl(a, b, false);
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return contiguity == other.contiguity && divisibility == other.divisibility &&
         constancy == other.constancy && range == other.range;
}

void AxisInfo::print(llvm::raw_ostream &os) const {
  auto list = [&](StringRef name, ArrayRef<int64_t> values) {
    os << name << " = [";
    llvm::interleaveComma(values, os);
    os << "]";
  };
  list("contiguity", contiguity);
  os << ", ";
  list("divisibility", divisibility);
  os << ", ";
  list("constancy", constancy);
  if (auto value = getConstantValue())
    os << ", value = " << *value;
  else if (range)
    os << ", range = [" << range->first << ", " << range->second << "]";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

int64_t getPointeeBytes(Type ptrLike) {
  if (auto tile = dyn_cast<RankedTensorType>(ptrLike))
    ptrLike = tile.getElementType();
  auto ptr = dyn_cast<tile::PointerType>(ptrLike);
  if (!ptr)
    return 1;
  unsigned bits = ptr.getPointeeType().getIntOrFloatBitWidth();
  return std::max<int64_t>(1, bits / 8);
}

static Type elementOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getElementType();
  return type;
}

/// The shape AxisInfo uses: a tile's, or [1] for a scalar.
static SmallVector<int64_t, 4> shapeOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t, 4>(tile.getShape());
  return {1};
}

/// Integers (i1 included), indices and pointers are analysed; floats are not.
static bool isTracked(Type type) {
  Type elt = elementOf(type);
  return isa<IntegerType, IndexType, tile::PointerType>(elt);
}

static bool isPointerLike(Type type) { return isa<tile::PointerType>(elementOf(type)); }

static bool isBool(Type type) { return elementOf(type).isInteger(1); }

/// Bit width of an integer-like type (index: 64), 0 for anything else.
static unsigned intWidth(Type type) {
  Type elt = elementOf(type);
  if (auto i = dyn_cast<IntegerType>(elt))
    return i.getWidth();
  if (isa<IndexType>(elt))
    return 64;
  return 0;
}

/// `range` if every value in it is representable in `type` (i1: 0 and 1), else nothing:
/// a computation that may wrap proves no bounds.
static std::optional<std::pair<int64_t, int64_t>>
fitRange(std::optional<int64_t> lo, std::optional<int64_t> hi, Type type) {
  unsigned width = intWidth(type);
  if (!lo || !hi || width == 0 || *lo > *hi)
    return std::nullopt;
  if (width == 1)
    return (*lo >= 0 && *hi <= 1) ? std::optional(std::make_pair(*lo, *hi)) : std::nullopt;
  if (width < 64) {
    int64_t min = -(int64_t(1) << (width - 1)), max = (int64_t(1) << (width - 1)) - 1;
    if (*lo < min || *hi > max)
      return std::nullopt;
  }
  return std::make_pair(*lo, *hi);
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

namespace {

/// Divisibility of `info` along `d` at every index that is a multiple of `c`, where a
/// step of one along a contiguous run adds `unit` (pointee bytes for pointers).
int64_t divAt(const AxisInfo &info, unsigned d, int64_t c, int64_t unit) {
  if (c >= info.contiguity[d])
    return info.divisibility[d];
  return std::min(info.divisibility[d], c * unit);
}

int64_t capDiv(int64_t a, int64_t b) {
  if (a >= AxisInfo::kMaxDivisor || b >= AxisInfo::kMaxDivisor ||
      a * b >= AxisInfo::kMaxDivisor)
    return AxisInfo::kMaxDivisor;
  return a * b;
}

bool isConst(const AxisInfo &info, int64_t value) { return info.getConstantValue() == value; }

bool isNonNegative(const AxisInfo &info) { return info.range && info.range->first >= 0; }

bool isPositive(const AxisInfo &info) { return info.range && info.range->first > 0; }

/// An addition (or subtraction) of two tiles; for addptr, `b` is the offset already
/// scaled to bytes and `unit` the pointee size.
AxisInfo addLike(const AxisInfo &a, const AxisInfo &b, bool isSub, int64_t unit,
                 Type resultType) {
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    // A run of a plus a constant group of b stays a run (and vice versa for addition;
    // for subtraction b's run would count down).
    int64_t c = std::min(a.contiguity[d], b.constancy[d]);
    if (!isSub)
      c = std::max(c, std::min(b.contiguity[d], a.constancy[d]));
    r.contiguity[d] = c;
    r.divisibility[d] = std::min(divAt(a, d, c, unit), divAt(b, d, c, unit));
    int64_t k = std::min(a.constancy[d], b.constancy[d]);
    // Two runs subtracted: equal within the shorter one.
    if (isSub)
      k = std::max(k, std::min(a.contiguity[d], b.contiguity[d]));
    r.constancy[d] = k;
  }
  if (a.range && b.range && !isPointerLike(resultType)) {
    if (isSub)
      r.range = fitRange(llvm::checkedSub(a.range->first, b.range->second),
                         llvm::checkedSub(a.range->second, b.range->first), resultType);
    else
      r.range = fitRange(llvm::checkedAdd(a.range->first, b.range->first),
                         llvm::checkedAdd(a.range->second, b.range->second), resultType);
  }
  return r;
}

/// Bounds of the four corner results of a monotone (in each argument) operation.
template <typename Fn>
std::optional<std::pair<int64_t, int64_t>> corners(const AxisInfo &a, const AxisInfo &b,
                                                   Type type, Fn fn) {
  if (!a.range || !b.range)
    return std::nullopt;
  std::optional<int64_t> lo, hi;
  for (int64_t x : {a.range->first, a.range->second})
    for (int64_t y : {b.range->first, b.range->second}) {
      std::optional<int64_t> v = fn(x, y);
      if (!v)
        return std::nullopt;
      lo = lo ? std::min(*lo, *v) : *v;
      hi = hi ? std::max(*hi, *v) : *v;
    }
  return fitRange(lo, hi, type);
}

AxisInfo mul(const AxisInfo &a, const AxisInfo &b, Type type) {
  if (isConst(a, 0) || isConst(b, 0))
    return AxisInfo::constant(shapeOf(type), 0);
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    if (isConst(b, 1)) {
      r.contiguity[d] = a.contiguity[d];
      r.divisibility[d] = a.divisibility[d];
    } else if (isConst(a, 1)) {
      r.contiguity[d] = b.contiguity[d];
      r.divisibility[d] = b.divisibility[d];
    } else {
      r.divisibility[d] = capDiv(divAt(a, d, 1, 1), divAt(b, d, 1, 1));
    }
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  }
  r.range = corners(a, b, type, [](int64_t x, int64_t y) { return llvm::checkedMul(x, y); });
  return r;
}

/// Runs of a divided (or reduced modulo) by b stay aligned with b's multiples within
/// groups of this many elements: the group starts are multiples of it, and so is b.
int64_t alignedGroup(const AxisInfo &a, const AxisInfo &b, unsigned d) {
  return std::min({a.contiguity[d], a.divisibility[d], divAt(b, d, 1, 1), b.constancy[d]});
}

AxisInfo divsi(const AxisInfo &a, const AxisInfo &b, Type type) {
  if (isConst(b, 1))
    return a;
  // Truncation toward zero breaks the grouping across 0, so signs must be known.
  bool signsKnown = isNonNegative(a) && isPositive(b);
  std::optional<int64_t> bValue = b.getConstantValue();
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    int64_t k = std::min(a.constancy[d], b.constancy[d]);
    if (signsKnown)
      k = std::max(k, alignedGroup(a, b, d));
    r.constancy[d] = k;
    int64_t every = divAt(a, d, 1, 1);
    if (signsKnown && bValue && tile::isPowerOf2(*bValue) && every >= *bValue &&
        every < AxisInfo::kMaxDivisor)
      r.divisibility[d] = every / *bValue;
  }
  if (b.range && (b.range->first > 0 || b.range->second < 0))
    r.range = corners(a, b, type, [](int64_t x, int64_t y) -> std::optional<int64_t> {
      if (y == -1 && x == std::numeric_limits<int64_t>::min())
        return std::nullopt;
      return x / y;
    });
  return r;
}

AxisInfo remsi(const AxisInfo &a, const AxisInfo &b, Type type) {
  bool signsKnown = isNonNegative(a) && isPositive(b);
  // x % v == x for 0 <= x < v.
  if (signsKnown && a.range->second < b.range->first)
    return a;
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    int64_t c = signsKnown ? alignedGroup(a, b, d) : 1;
    r.contiguity[d] = c;
    // a % b = a - q * b: divisible by what divides both.
    r.divisibility[d] = std::min(divAt(a, d, c, 1), divAt(b, d, 1, 1));
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  }
  if (signsKnown)
    r.range = fitRange(int64_t(0), std::min(a.range->second, b.range->second - 1), type);
  return r;
}

AxisInfo boolAndOr(const AxisInfo &a, const AxisInfo &b, Type type, bool isAnd) {
  int64_t absorbing = isAnd ? 0 : 1, neutral = isAnd ? 1 : 0;
  if (isConst(a, absorbing) || isConst(b, absorbing))
    return AxisInfo::constant(shapeOf(type), absorbing);
  if (isConst(a, neutral))
    return b;
  if (isConst(b, neutral))
    return a;
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d)
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  r.range = std::make_pair(int64_t(0), int64_t(1));
  return r;
}

AxisInfo bitwise(const AxisInfo &a, const AxisInfo &b, Type type, bool isAnd) {
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    int64_t da = divAt(a, d, 1, 1), db = divAt(b, d, 1, 1);
    // Low zero bits: x & y keeps those of either, x | y and x ^ y those of both.
    r.divisibility[d] = isAnd ? std::max(da, db) : std::min(da, db);
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  }
  if (isAnd && (isNonNegative(a) || isNonNegative(b))) {
    int64_t hi = std::numeric_limits<int64_t>::max();
    if (isNonNegative(a))
      hi = std::min(hi, a.range->second);
    if (isNonNegative(b))
      hi = std::min(hi, b.range->second);
    r.range = fitRange(int64_t(0), hi, type);
  }
  return r;
}

/// Decides `a pred b` for every element from the ranges, when they allow it.
std::optional<bool> decideCompare(arith::CmpIPredicate pred, const AxisInfo &a,
                                  const AxisInfo &b) {
  if (!a.range || !b.range)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  bool unsignedPred = pred == P::ult || pred == P::ule || pred == P::ugt || pred == P::uge;
  if (unsignedPred) {
    // Non-negative values compare the same way unsigned.
    if (a.range->first < 0 || b.range->first < 0)
      return std::nullopt;
    pred = pred == P::ult ? P::slt : pred == P::ule ? P::sle : pred == P::ugt ? P::sgt : P::sge;
  }
  auto [alo, ahi] = *a.range;
  auto [blo, bhi] = *b.range;
  switch (pred) {
  case P::eq:
  case P::ne: {
    std::optional<bool> equal;
    if (alo == ahi && blo == bhi && alo == blo)
      equal = true;
    else if (ahi < blo || bhi < alo)
      equal = false;
    if (!equal)
      return std::nullopt;
    return pred == P::eq ? *equal : !*equal;
  }
  case P::slt:
    if (ahi < blo)
      return true;
    if (alo >= bhi)
      return false;
    return std::nullopt;
  case P::sle:
    if (ahi <= blo)
      return true;
    if (alo > bhi)
      return false;
    return std::nullopt;
  case P::sgt:
    if (alo > bhi)
      return true;
    if (ahi <= blo)
      return false;
    return std::nullopt;
  case P::sge:
    if (alo >= bhi)
      return true;
    if (ahi < blo)
      return false;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

AxisInfo cmpi(arith::CmpIPredicate pred, const AxisInfo &a, const AxisInfo &b, Type type) {
  if (std::optional<bool> known = decideCompare(pred, a, b))
    return AxisInfo::constant(shapeOf(type), *known ? 1 : 0);
  using P = arith::CmpIPredicate;
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    int64_t k = std::min(a.constancy[d], b.constancy[d]);
    // `x < n` (and `x >= n`) flips between n - 1 and n. If x runs through aligned groups
    // of g consecutive values and n is a multiple of g, no group straddles n. The same
    // holds unsigned (the other flip is at 0, a multiple of g too). `n > x` and `n <= x`
    // are the same comparisons with the operands swapped.
    if (pred == P::slt || pred == P::ult || pred == P::sge || pred == P::uge)
      k = std::max(k, alignedGroup(a, b, d));
    if (pred == P::sgt || pred == P::ugt || pred == P::sle || pred == P::ule)
      k = std::max(k, alignedGroup(b, a, d));
    r.constancy[d] = k;
  }
  r.range = std::make_pair(int64_t(0), int64_t(1));
  return r;
}

AxisInfo select(const AxisInfo &cond, bool condIsScalar, const AxisInfo &a, const AxisInfo &b,
                int64_t unit, ArrayRef<int64_t> shape) {
  if (isConst(cond, 1))
    return a;
  if (isConst(cond, 0))
    return b;
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    int64_t kc = condIsScalar ? shape[d] : cond.constancy[d];
    int64_t c = std::min({a.contiguity[d], b.contiguity[d], kc});
    r.contiguity[d] = c;
    r.divisibility[d] = std::min(divAt(a, d, c, unit), divAt(b, d, c, unit));
    r.constancy[d] = std::min({a.constancy[d], b.constancy[d], kc});
  }
  if (a.range && b.range)
    r.range = std::make_pair(std::min(a.range->first, b.range->first),
                             std::max(a.range->second, b.range->second));
  return r;
}

AxisInfo trunc(const AxisInfo &a, Type type) {
  if (a.range && fitRange(a.range->first, a.range->second, type))
    return a;
  unsigned width = intWidth(type);
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    // Wrapping happens at multiples of 2^width, which aligned groups never straddle.
    int64_t c = std::min(a.contiguity[d], a.divisibility[d]);
    if (width < 31)
      c = std::min(c, int64_t(1) << width);
    r.contiguity[d] = c;
    int64_t div = divAt(a, d, c, 1);
    if (width < 31)
      div = std::min(div, int64_t(1) << width);
    r.divisibility[d] = div;
    r.constancy[d] = a.constancy[d];
  }
  return r;
}

/// The analysis proper: one walk in dominance order over structured control flow.
class Walker {
public:
  explicit Walker(llvm::DenseMap<Value, AxisInfo> &infos) : infos(infos) {}

  void visitFunction(func::FuncOp func) {
    if (func.isExternal())
      return;
    Block &entry = func.getBody().front();
    for (BlockArgument arg : entry.getArguments()) {
      if (!isTracked(arg.getType()))
        continue;
      AxisInfo info = AxisInfo::unknown(shapeOf(arg.getType()).size());
      auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tile.divisibility");
      int64_t div = attr ? attr.getInt() : 1;
      // A pointer is at least aligned to its pointee: PTX's scalar accesses require it.
      if (isPointerLike(arg.getType()))
        div = std::max(div, getPointeeBytes(arg.getType()));
      if (tile::isPowerOf2(div))
        std::fill(info.divisibility.begin(), info.divisibility.end(), div);
      // `tile.equal_to = 1`: the Driver replaces the uses by the constant, but tile-opt
      // sees the attribute alone.
      if (auto eq = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tile.equal_to"))
        if (!isPointerLike(arg.getType()))
          info = AxisInfo::constant(shapeOf(arg.getType()), eq.getInt());
      set(arg, info);
    }
    for (Block &block : func.getBody())
      visitBlock(block);
  }

private:
  llvm::DenseMap<Value, AxisInfo> &infos;

  AxisInfo get(Value value) const {
    auto it = infos.find(value);
    if (it != infos.end())
      return it->second;
    return AxisInfo::unknown(shapeOf(value.getType()).size());
  }

  void set(Value value, const AxisInfo &info) {
    if (isTracked(value.getType()))
      infos[value] = info;
  }

  void setUnknown(ValueRange values) {
    for (Value v : values)
      set(v, AxisInfo::unknown(shapeOf(v.getType()).size()));
  }

  void visitBlock(Block &block) {
    for (Operation &op : block)
      visitOp(&op);
  }

  void visitOp(Operation *op) {
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return visitFor(forOp);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return visitIf(ifOp);
    if (op->getNumRegions() > 0) {
      // Other region ops (scf.while, ...): nothing is known about what flows around.
      for (Region &region : op->getRegions())
        for (Block &block : region) {
          setUnknown(block.getArguments());
          visitBlock(block);
        }
      setUnknown(op->getResults());
      return;
    }
    if (op->getNumResults() != 1) {
      setUnknown(op->getResults());
      return;
    }
    Value result = op->getResult(0);
    if (!isTracked(result.getType()))
      return;
    set(result, transfer(op, result.getType()));
  }

  void visitFor(scf::ForOp forOp) {
    AxisInfo lb = get(forOp.getLowerBound()), ub = get(forOp.getUpperBound()),
             step = get(forOp.getStep());
    AxisInfo iv = AxisInfo::unknown(1);
    // iv = lb + i * step, lb <= iv < ub.
    iv.divisibility[0] = std::min(lb.divisibility[0], step.divisibility[0]);
    if (lb.range && ub.range && isPositive(step))
      iv.range = fitRange(lb.range->first, std::max(lb.range->first, ub.range->second - 1),
                          forOp.getInductionVar().getType());
    set(forOp.getInductionVar(), iv);

    SmallVector<AxisInfo> carried;
    for (Value init : forOp.getInitArgs())
      carried.push_back(get(init));
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    // Facts only weaken from one round to the next; the cap is a safety net.
    for (int round = 0;; ++round) {
      for (auto [arg, info] : llvm::zip(forOp.getRegionIterArgs(), carried))
        set(arg, info);
      visitBlock(*forOp.getBody());
      bool changed = false;
      for (auto [i, next] : llvm::enumerate(yield.getOperands())) {
        if (!isTracked(next.getType()))
          continue;
        AxisInfo joined = AxisInfo::joinForLoop(carried[i], get(next));
        if (joined != carried[i]) {
          carried[i] = joined;
          changed = true;
        }
      }
      if (!changed)
        break;
      if (round == 64) {
        for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs()))
          carried[i] = AxisInfo::unknown(shapeOf(arg.getType()).size());
        for (auto [arg, info] : llvm::zip(forOp.getRegionIterArgs(), carried))
          set(arg, info);
        visitBlock(*forOp.getBody());
        break;
      }
    }
    for (auto [result, info] : llvm::zip(forOp.getResults(), carried))
      set(result, info);
  }

  void visitIf(scf::IfOp ifOp) {
    std::optional<int64_t> cond = get(ifOp.getCondition()).getConstantValue();
    visitBlock(ifOp.getThenRegion().front());
    if (!ifOp.getElseRegion().empty())
      visitBlock(ifOp.getElseRegion().front());
    if (ifOp.getNumResults() == 0)
      return;
    auto thenYield = ifOp.thenYield(), elseYield = ifOp.elseYield();
    for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
      AxisInfo t = get(thenYield.getOperand(i)), e = get(elseYield.getOperand(i));
      set(result, cond ? (*cond ? t : e) : AxisInfo::join(t, e));
    }
  }

  AxisInfo transfer(Operation *op, Type type) {
    SmallVector<int64_t, 4> shape = shapeOf(type);
    unsigned rank = shape.size();
    auto operand = [&](unsigned i) { return get(op->getOperand(i)); };
    using P = arith::CmpIPredicate;
    return llvm::TypeSwitch<Operation *, AxisInfo>(op)
        .Case<arith::ConstantOp>([&](arith::ConstantOp c) { return constant(c, shape); })
        .Case<tile::ProgramIdOp>([&](auto) {
          AxisInfo r = AxisInfo::unknown(1);
          r.range = std::make_pair(int64_t(0), int64_t(INT32_MAX));
          return r;
        })
        .Case<tile::NumProgramsOp>([&](auto) {
          AxisInfo r = AxisInfo::unknown(1);
          r.range = std::make_pair(int64_t(1), int64_t(INT32_MAX));
          return r;
        })
        .Case<tile::MakeRangeOp>([&](tile::MakeRangeOp r) {
          AxisInfo info = AxisInfo::unknown(1);
          info.contiguity[0] = shape[0];
          info.divisibility[0] = highestPowerOf2Divisor(r.getStart());
          info.range = std::make_pair(int64_t(r.getStart()), int64_t(r.getEnd()) - 1);
          return info;
        })
        .Case<tile::SplatOp>([&](tile::SplatOp s) {
          AxisInfo src = get(s.getSrc());
          AxisInfo info = AxisInfo::unknown(rank);
          for (unsigned d = 0; d < rank; ++d) {
            info.divisibility[d] = src.divisibility[0];
            info.constancy[d] = shape[d];
          }
          info.range = src.range;
          return info;
        })
        .Case<tile::BroadcastOp>([&](tile::BroadcastOp b) {
          AxisInfo info = get(b.getSrc());
          ArrayRef<int64_t> srcShape = b.getSrc().getType().getShape();
          for (unsigned d = 0; d < rank; ++d)
            if (srcShape[d] == 1 && shape[d] != 1) {
              info.contiguity[d] = 1;
              info.constancy[d] = shape[d];
            }
          return info;
        })
        .Case<tile::ExpandDimsOp>([&](tile::ExpandDimsOp e) {
          AxisInfo info = get(e.getSrc());
          int64_t unit = getPointeeBytes(type);
          int64_t every = AxisInfo::kMaxDivisor;
          for (unsigned d = 0; d < info.getRank(); ++d)
            every = std::min(every, divAt(info, d, 1, unit));
          unsigned axis = e.getAxis();
          info.contiguity.insert(info.contiguity.begin() + axis, 1);
          info.divisibility.insert(info.divisibility.begin() + axis, every);
          info.constancy.insert(info.constancy.begin() + axis, 1);
          return info;
        })
        .Case<tile::ConvertLayoutOp>([&](tile::ConvertLayoutOp c) { return get(c.getSrc()); })
        .Case<tile::HintOp>([&](tile::HintOp h) {
          AxisInfo info = get(h.getSrc());
          // Both the analysis and the promise hold: keep the stronger of each.
          if (auto div = h.getDivisibility())
            for (unsigned d = 0; d < rank; ++d)
              info.divisibility[d] = std::max<int64_t>(info.divisibility[d], (*div)[d]);
          if (auto contig = h.getContiguity())
            for (unsigned d = 0; d < rank; ++d)
              info.contiguity[d] = std::min<int64_t>(
                  shape[d], std::max<int64_t>(info.contiguity[d], (*contig)[d]));
          return info;
        })
        .Case<tile::AddPtrOp>([&](tile::AddPtrOp a) {
          int64_t unit = getPointeeBytes(type);
          AxisInfo offset = get(a.getOffset());
          for (int64_t &div : offset.divisibility)
            div = capDiv(div, unit);
          return addLike(get(a.getPtr()), offset, false, unit, type);
        })
        .Case<arith::AddIOp>([&](auto) { return addLike(operand(0), operand(1), false, 1, type); })
        .Case<arith::SubIOp>([&](auto) { return addLike(operand(0), operand(1), true, 1, type); })
        .Case<arith::MulIOp>([&](auto) { return mul(operand(0), operand(1), type); })
        .Case<arith::DivSIOp>([&](auto) { return divsi(operand(0), operand(1), type); })
        .Case<arith::RemSIOp>([&](auto) { return remsi(operand(0), operand(1), type); })
        .Case<arith::ShLIOp>([&](auto) {
          std::optional<int64_t> s = operand(1).getConstantValue();
          if (!s || *s < 0 || *s >= std::min(intWidth(type), 62u))
            return generic(op, rank);
          return mul(operand(0), AxisInfo::constant(shape, int64_t(1) << *s), type);
        })
        .Case<arith::ShRSIOp, arith::ShRUIOp>([&](auto) {
          std::optional<int64_t> s = operand(1).getConstantValue();
          AxisInfo a = operand(0);
          if (!s || *s < 0 || *s >= std::min(intWidth(type), 62u) || !isNonNegative(a))
            return generic(op, rank);
          return divsi(a, AxisInfo::constant(shape, int64_t(1) << *s), type);
        })
        .Case<arith::AndIOp, arith::OrIOp>([&](auto) {
          bool isAnd = isa<arith::AndIOp>(op);
          if (isBool(type))
            return boolAndOr(operand(0), operand(1), type, isAnd);
          return bitwise(operand(0), operand(1), type, isAnd);
        })
        .Case<arith::XOrIOp>([&](auto) {
          AxisInfo a = operand(0), b = operand(1);
          if (isBool(type) && (isConst(a, 1) || isConst(b, 1))) {
            AxisInfo r = isConst(a, 1) ? b : a;
            if (r.range)
              r.range = std::make_pair(1 - r.range->second, 1 - r.range->first);
            return r;
          }
          AxisInfo r = bitwise(a, b, type, false);
          if (isBool(type))
            r.range = std::make_pair(int64_t(0), int64_t(1));
          return r;
        })
        .Case<arith::MaxSIOp, arith::MinSIOp>([&](auto) {
          AxisInfo a = operand(0), b = operand(1);
          AxisInfo r = bitwise(a, b, type, false);
          if (a.range && b.range) {
            bool isMax = isa<arith::MaxSIOp>(op);
            auto pick = [&](int64_t x, int64_t y) { return isMax ? std::max(x, y) : std::min(x, y); };
            r.range = std::make_pair(pick(a.range->first, b.range->first),
                                     pick(a.range->second, b.range->second));
          }
          return r;
        })
        .Case<arith::CmpIOp>([&](arith::CmpIOp c) {
          return cmpi(c.getPredicate(), operand(0), operand(1), type);
        })
        .Case<arith::SelectOp>([&](arith::SelectOp s) {
          bool scalarCond = !isa<RankedTensorType>(s.getCondition().getType());
          return select(operand(0), scalarCond, operand(1), operand(2), getPointeeBytes(type),
                        shape);
        })
        .Case<arith::ExtSIOp, arith::IndexCastOp>([&](auto) {
          AxisInfo a = operand(0);
          if (intWidth(type) < intWidth(op->getOperand(0).getType()))
            return trunc(a, type);
          return a;
        })
        .Case<arith::ExtUIOp>([&](auto) {
          AxisInfo a = operand(0);
          if (isNonNegative(a))
            return a;
          AxisInfo r = AxisInfo::unknown(rank);
          r.constancy = a.constancy;
          return r;
        })
        .Case<arith::TruncIOp>([&](auto) { return trunc(operand(0), type); })
        .Default([&](Operation *) { return generic(op, rank); });
  }

  AxisInfo constant(arith::ConstantOp c, ArrayRef<int64_t> shape) {
    auto fromInt = [&](const APInt &v) {
      return v.getBitWidth() == 1 ? int64_t(v.getZExtValue()) : v.getSExtValue();
    };
    Attribute value = c.getValue();
    if (auto i = dyn_cast<IntegerAttr>(value))
      return AxisInfo::constant(shape, fromInt(i.getValue()));
    if (auto dense = dyn_cast<DenseIntElementsAttr>(value)) {
      if (dense.isSplat())
        return AxisInfo::constant(shape, fromInt(dense.getSplatValue<APInt>()));
      AxisInfo info = AxisInfo::unknown(shape.size());
      int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
      int64_t div = AxisInfo::kMaxDivisor;
      for (const APInt &v : dense.getValues<APInt>()) {
        int64_t x = fromInt(v);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        div = std::min(div, highestPowerOf2Divisor(x));
      }
      std::fill(info.divisibility.begin(), info.divisibility.end(), div);
      info.range = std::make_pair(lo, hi);
      return info;
    }
    return AxisInfo::unknown(shape.size());
  }

  /// An element-wise op computes each element from the same element of its operands:
  /// where all operands are constant, so is the result. Nothing else is known.
  AxisInfo generic(Operation *op, unsigned rank) {
    AxisInfo r = AxisInfo::unknown(rank);
    if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumOperands() == 0)
      return r;
    for (Value v : op->getOperands()) {
      if (!isa<RankedTensorType>(v.getType()))
        continue;
      AxisInfo info = get(v);
      if (!isTracked(v.getType()) || info.getRank() != rank)
        return r;
    }
    r.constancy.assign(rank, std::numeric_limits<int64_t>::max());
    for (Value v : op->getOperands()) {
      if (!isa<RankedTensorType>(v.getType()))
        continue;
      AxisInfo info = get(v);
      for (unsigned d = 0; d < rank; ++d)
        r.constancy[d] = std::min(r.constancy[d], info.constancy[d]);
    }
    for (int64_t &k : r.constancy)
      if (k == std::numeric_limits<int64_t>::max())
        k = 1;
    return r;
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  Walker walker(infos);
  if (auto func = dyn_cast<func::FuncOp>(root))
    walker.visitFunction(func);
  else
    root->walk([&](func::FuncOp func) { walker.visitFunction(func); });
}

AxisInfo AxisInfoAnalysis::getAxisInfo(Value value) const {
  auto it = infos.find(value);
  if (it != infos.end())
    return it->second;
  return AxisInfo::unknown(shapeOf(value.getType()).size());
}

int64_t AxisInfoAnalysis::getContiguity(Value ptr, unsigned dim) const {
  return getAxisInfo(ptr).contiguity[dim];
}

int64_t AxisInfoAnalysis::getPtrAlignment(Value ptr, unsigned dim) const {
  AxisInfo info = getAxisInfo(ptr);
  int64_t bytes = getPointeeBytes(ptr.getType());
  int64_t contig = info.contiguity[dim];
  // Groups of v <= contig elements start at multiples of v; their addresses are
  // divisible by divAt(v) = min(div, v * bytes). A vector of v needs v * bytes.
  int64_t v = 1;
  while (v * 2 <= contig && divAt(info, dim, v * 2, bytes) >= v * 2 * bytes)
    v *= 2;
  return v;
}

int64_t AxisInfoAnalysis::getMaskConstancy(Value mask, unsigned dim) const {
  return getAxisInfo(mask).constancy[dim];
}

} // namespace tcc
