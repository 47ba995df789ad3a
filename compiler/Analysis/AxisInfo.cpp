//===- AxisInfo.cpp - contiguity, divisibility and constancy ---------------===//
//
// A sparse forward data-flow analysis on MLIR's framework (mlir/Analysis/DataFlow). One
// DataFlowSolver per function holds four analyses:
//
// - DeadCodeAnalysis and SparseConstantPropagation, which the framework needs to know
//   which blocks run and which region successors an scf.if or scf.for takes (the
//   constants include integers the ranges pin down);
// - MLIR's IntegerRangeAnalysis, extended to the tile ops that carry integers
//   (program_id, make_range, splat, ...): the integer ranges;
// - AxisInfoDataFlow: contiguity, divisibility and constancy, one transfer function per
//   op kind, reading the ranges of the operands (`x * 1`, `x % 16` of non-negative x, ...)
//   from the integer-range lattices in the same solver.
//
// Loop-carried values (scf.for iteration arguments, scf.while arguments) and scf.if
// results are joins the framework computes from RegionBranchOpInterface: it revisits a
// loop body until the arguments stop changing. Every fact only weakens with a join, and
// facts are powers of two bounded by 1, so that ends; the integer-range analysis widens a
// loop-carried range that changes to "anything" (as upstream does).
//
// Every transfer function below states why its result holds; all entries are powers of
// two, so gcd is min and lcm is max. An op without a transfer function gets the
// pessimistic state (every entry 1), except that an element-wise op keeps the constancy
// its operands share.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/AxisInfo.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using llvm::SmallVector;

namespace tcc {

using Range = std::pair<int64_t, int64_t>;

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

AxisInfo AxisInfo::join(const AxisInfo &a, const AxisInfo &b) {
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
  if (a.range && b.range)
    r.range = std::make_pair(std::min(a.range->first, b.range->first),
                             std::max(a.range->second, b.range->second));
  return r;
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return contiguity == other.contiguity && divisibility == other.divisibility &&
         constancy == other.constancy && range == other.range;
}

void AxisInfo::print(llvm::raw_ostream &os) const {
  if (!isInitialized()) {
    os << "<uninitialized>";
    return;
  }
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

namespace {

Type elementOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getElementType();
  return type;
}

/// The shape AxisInfo uses: a tile's, or [1] for a scalar.
SmallVector<int64_t, 4> shapeOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t, 4>(tile.getShape());
  return {1};
}

unsigned rankOf(Type type) { return shapeOf(type).size(); }

/// Integers (i1 included), indices and pointers are analysed; floats are not.
bool isTracked(Type type) {
  return isa<IntegerType, IndexType, tile::PointerType>(elementOf(type));
}

bool isPointerLike(Type type) { return isa<tile::PointerType>(elementOf(type)); }

bool isBool(Type type) { return elementOf(type).isInteger(1); }

/// Bit width of an integer-like type (index: 64), 0 for anything else.
unsigned intWidth(Type type) {
  Type elt = elementOf(type);
  if (auto i = dyn_cast<IntegerType>(elt))
    return i.getWidth();
  if (isa<IndexType>(elt))
    return 64;
  return 0;
}

/// `[lo, hi]` if every value in it is representable in `type` (i1: 0 and 1).
bool fits(int64_t lo, int64_t hi, Type type) {
  unsigned width = intWidth(type);
  if (width == 0 || lo > hi)
    return false;
  if (width == 1)
    return lo >= 0 && hi <= 1;
  if (width < 64)
    return lo >= -(int64_t(1) << (width - 1)) && hi <= (int64_t(1) << (width - 1)) - 1;
  return true;
}

/// What the integer-range analysis knows about a value, in AxisInfo's terms: signed
/// bounds (i1: 0 or 1), nothing for the full range of the type or wider than 64 bits.
std::optional<Range> toRange(const IntegerValueRange &value) {
  if (value.isUninitialized())
    return std::nullopt;
  const ConstantIntRanges &r = value.getValue();
  unsigned width = r.smin().getBitWidth();
  if (width == 0 || width > 64)
    return std::nullopt;
  if (width == 1)
    return Range(int64_t(r.umin().getZExtValue()), int64_t(r.umax().getZExtValue()));
  if (r.smin().isMinSignedValue() && r.smax().isMaxSignedValue())
    return std::nullopt;
  return Range(r.smin().getSExtValue(), r.smax().getSExtValue());
}

/// `tile.equal_to` of a function argument (the Driver replaces its uses by the constant,
/// but tile-opt sees the attribute alone).
std::optional<int64_t> equalToOf(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return std::nullopt;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func || isPointerLike(arg.getType()) || intWidth(arg.getType()) == 0)
    return std::nullopt;
  if (auto eq = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), tile::kEqualToAttrName))
    return eq.getInt();
  return std::nullopt;
}

/// What is known of a value where the analysis starts without predecessors: function
/// arguments from their attributes, anything else nothing.
AxisInfo entryInfo(Value value) {
  AxisInfo info = AxisInfo::unknown(rankOf(value.getType()));
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock() || !isTracked(value.getType()))
    return info;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func)
    return info;
  auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), tile::kDivisibilityAttrName);
  int64_t div = attr ? attr.getInt() : 1;
  // A pointer is at least aligned to its pointee: PTX's scalar accesses require it.
  if (isPointerLike(arg.getType()))
    div = std::max(div, getPointeeBytes(arg.getType()));
  if (tile::isPowerOf2(div))
    std::fill(info.divisibility.begin(), info.divisibility.end(), div);
  if (std::optional<int64_t> eq = equalToOf(value)) {
    info = AxisInfo::constant(shapeOf(arg.getType()), *eq);
    info.range.reset();
  }
  return info;
}

//===----------------------------------------------------------------------===//
// Integer ranges of the tile ops
//===----------------------------------------------------------------------===//

/// MLIR's integer-range analysis knows arith and the loops of scf; this adds the tile
/// ops through which integers flow, and `tile.equal_to` arguments. Other tile ops
/// (loads, reductions, ...) give the full range of their type.
class TileIntegerRangeAnalysis : public dataflow::IntegerRangeAnalysis {
public:
  using IntegerRangeAnalysis::IntegerRangeAnalysis;

  void setToEntryState(dataflow::IntegerValueRangeLattice *lattice) override {
    Value value = lattice->getAnchor();
    if (std::optional<int64_t> eq = equalToOf(value)) {
      APInt v(ConstantIntRanges::getStorageBitwidth(value.getType()), uint64_t(*eq),
              /*isSigned=*/true);
      propagateIfChanged(lattice, lattice->join(IntegerValueRange(ConstantIntRanges::constant(v))));
      return;
    }
    IntegerRangeAnalysis::setToEntryState(lattice);
  }

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const dataflow::IntegerValueRangeLattice *> operands,
                               ArrayRef<dataflow::IntegerValueRangeLattice *> results) override {
    if (!isa<tile::TileDialect>(op->getDialect()))
      return IntegerRangeAnalysis::visitOperation(op, operands, results);
    auto signedRange = [](unsigned width, int64_t lo, int64_t hi) {
      return IntegerValueRange(ConstantIntRanges::fromSigned(
          APInt(width, uint64_t(lo), /*isSigned=*/true), APInt(width, uint64_t(hi), true)));
    };
    std::optional<IntegerValueRange> range =
        llvm::TypeSwitch<Operation *, std::optional<IntegerValueRange>>(op)
            // Grid coordinates and sizes are non-negative 32-bit values; a grid has at
            // least one program.
            .Case<tile::ProgramIdOp>(
                [&](auto) { return signedRange(32, 0, std::numeric_limits<int32_t>::max()); })
            .Case<tile::NumProgramsOp>(
                [&](auto) { return signedRange(32, 1, std::numeric_limits<int32_t>::max()); })
            .Case<tile::MakeRangeOp>([&](tile::MakeRangeOp r) {
              return signedRange(32, r.getStart(), int64_t(r.getEnd()) - 1);
            })
            // Ops that copy, replicate or relayout their elements, or promise something
            // the ranges do not say.
            .Case<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp, tile::ConvertLayoutOp,
                  tile::HintOp>([&](Operation *) { return operands[0]->getValue(); })
            .Default([](Operation *) { return std::nullopt; });
    if (!range || op->getNumResults() != 1) {
      setAllToEntryStates(results);
      return success();
    }
    if (range->isUninitialized()) // the operand is not known yet
      return success();
    Value result = op->getResult(0);
    dataflow::IntegerValueRangeLattice *lattice = results[0];
    IntegerValueRange old = lattice->getValue();
    ChangeResult changed = lattice->join(*range);
    // As upstream: a yielded value whose range grows gives up at once, so that a loop
    // does not climb one iteration at a time.
    bool yielded = llvm::any_of(result.getUsers(), [](Operation *user) {
      return user->hasTrait<OpTrait::IsTerminator>();
    });
    if (yielded && !old.isUninitialized() && !(lattice->getValue() == old))
      changed |= lattice->join(IntegerValueRange::getMaxRange(result));
    propagateIfChanged(lattice, changed);
    return success();
  }
};

/// SparseConstantPropagation folds ops whose operands are constants. An integer that the
/// integer ranges pin to one value (`program_id(0) < 0`) is a constant too (the range
/// lattice says so when it changes), and the dead-code analysis then takes only one side
/// of an scf.if on it: such results wait for their range, and are not folded over.
class RangedConstantPropagation : public dataflow::SparseConstantPropagation {
public:
  using SparseConstantPropagation::SparseConstantPropagation;

  LogicalResult
  visitOperation(Operation *op,
                 ArrayRef<const dataflow::Lattice<dataflow::ConstantValue> *> operands,
                 ArrayRef<dataflow::Lattice<dataflow::ConstantValue> *> results) override {
    ProgramPoint *point = getProgramPointAfter(op);
    bool allPinned = !results.empty();
    for (Value result : op->getResults()) {
      if (intWidth(result.getType()) == 0) {
        allPinned = false;
        continue;
      }
      const auto *range = getOrCreateFor<dataflow::IntegerValueRangeLattice>(point, result);
      if (range->getValue().isUninitialized())
        return success();
      if (!range->getValue().getValue().getConstantValue())
        allPinned = false;
    }
    if (allPinned)
      return success();
    return SparseConstantPropagation::visitOperation(op, operands, results);
  }
};

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

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

/// What a transfer function is given: the operands' facts, each with its integer range
/// (`range`, from the integer-range analysis), and the result's type.
struct Inputs {
  ArrayRef<AxisInfo> operands;
  Type type;

  const AxisInfo &operator[](unsigned i) const { return operands[i]; }
  unsigned rank() const { return rankOf(type); }
  SmallVector<int64_t, 4> shape() const { return shapeOf(type); }
};

/// An addition (or subtraction) of two tiles; for addptr, `b` is the offset already
/// scaled to bytes and `unit` the pointee size.
AxisInfo addLike(const AxisInfo &a, const AxisInfo &b, bool isSub, int64_t unit) {
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
  return r;
}

AxisInfo mul(const AxisInfo &a, const AxisInfo &b) {
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
  return r;
}

/// Runs of a divided (or reduced modulo) by b stay aligned with b's multiples within
/// groups of this many elements: the group starts are multiples of it, and so is b.
int64_t alignedGroup(const AxisInfo &a, const AxisInfo &b, unsigned d) {
  return std::min({a.contiguity[d], a.divisibility[d], divAt(b, d, 1, 1), b.constancy[d]});
}

/// Truncation toward zero breaks the grouping across 0, so the runs survive `/` and `%`
/// only where the signs are known: a non-negative dividend and a positive divisor.
bool divisionSignsKnown(const AxisInfo &a, const AxisInfo &b) {
  return isNonNegative(a) && isPositive(b);
}

AxisInfo divsi(const AxisInfo &a, const AxisInfo &b, bool signsKnown) {
  if (isConst(b, 1))
    return a;
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
  return r;
}

AxisInfo remsi(const AxisInfo &a, const AxisInfo &b, bool signsKnown) {
  // x % v == x for 0 <= x < v.
  if (signsKnown && a.range && b.range && a.range->first >= 0 &&
      a.range->second < b.range->first)
    return a;
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    int64_t c = signsKnown ? alignedGroup(a, b, d) : 1;
    r.contiguity[d] = c;
    // a % b = a - q * b: divisible by what divides both.
    r.divisibility[d] = std::min(divAt(a, d, c, 1), divAt(b, d, 1, 1));
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  }
  return r;
}

/// `and` / `or` of booleans: the neutral element gives the other operand.
AxisInfo boolAndOr(const AxisInfo &a, const AxisInfo &b, bool isAnd) {
  int64_t neutral = isAnd ? 1 : 0;
  if (isConst(a, neutral))
    return b;
  if (isConst(b, neutral))
    return a;
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d)
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  return r;
}

/// Bitwise ops on integers (and min/max, which pick one operand per element).
AxisInfo bitwise(const AxisInfo &a, const AxisInfo &b, bool isAnd) {
  AxisInfo r = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    int64_t da = divAt(a, d, 1, 1), db = divAt(b, d, 1, 1);
    // Low zero bits: x & y keeps those of either, x | y and x ^ y those of both.
    r.divisibility[d] = isAnd ? std::max(da, db) : std::min(da, db);
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  }
  return r;
}

AxisInfo cmpi(arith::CmpIPredicate pred, const AxisInfo &a, const AxisInfo &b) {
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
  return r;
}

AxisInfo trunc(const AxisInfo &a, Type type) {
  if (a.range && fits(a.range->first, a.range->second, type))
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

/// The shift amount of a shift by a constant that stays within the type (and within
/// what 2^s can express), if it is one.
std::optional<int64_t> constantShift(const AxisInfo &amount, Type type) {
  std::optional<int64_t> s = amount.getConstantValue();
  if (!s || *s < 0 || *s >= std::min(intWidth(type), 62u))
    return std::nullopt;
  return s;
}

// One transfer function per op kind.

AxisInfo visitConstant(arith::ConstantOp c, const Inputs &in) {
  SmallVector<int64_t, 4> shape = in.shape();
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
    int64_t div = AxisInfo::kMaxDivisor;
    for (const APInt &v : dense.getValues<APInt>())
      div = std::min(div, highestPowerOf2Divisor(fromInt(v)));
    std::fill(info.divisibility.begin(), info.divisibility.end(), div);
    return info;
  }
  return AxisInfo::unknown(shape.size());
}

AxisInfo visitMakeRange(tile::MakeRangeOp r, const Inputs &in) {
  AxisInfo info = AxisInfo::unknown(1);
  info.contiguity[0] = in.shape()[0];
  info.divisibility[0] = highestPowerOf2Divisor(r.getStart());
  return info;
}

AxisInfo visitSplat(tile::SplatOp, const Inputs &in) {
  SmallVector<int64_t, 4> shape = in.shape();
  AxisInfo info = AxisInfo::unknown(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    info.divisibility[d] = in[0].divisibility[0];
    info.constancy[d] = shape[d];
  }
  return info;
}

AxisInfo visitBroadcast(tile::BroadcastOp b, const Inputs &in) {
  AxisInfo info = in[0];
  SmallVector<int64_t, 4> shape = in.shape();
  ArrayRef<int64_t> srcShape = b.getSrc().getType().getShape();
  for (unsigned d = 0; d < shape.size(); ++d)
    if (srcShape[d] == 1 && shape[d] != 1) {
      info.contiguity[d] = 1;
      info.constancy[d] = shape[d];
    }
  return info;
}

AxisInfo visitExpandDims(tile::ExpandDimsOp e, const Inputs &in) {
  AxisInfo info = in[0];
  int64_t unit = getPointeeBytes(in.type);
  int64_t every = AxisInfo::kMaxDivisor;
  for (unsigned d = 0; d < info.getRank(); ++d)
    every = std::min(every, divAt(info, d, 1, unit));
  unsigned axis = e.getAxis();
  info.contiguity.insert(info.contiguity.begin() + axis, 1);
  info.divisibility.insert(info.divisibility.begin() + axis, every);
  info.constancy.insert(info.constancy.begin() + axis, 1);
  return info;
}

AxisInfo visitHint(tile::HintOp h, const Inputs &in) {
  AxisInfo info = in[0];
  SmallVector<int64_t, 4> shape = in.shape();
  // Both the analysis and the promise hold: keep the stronger of each.
  if (auto div = h.getDivisibility())
    for (unsigned d = 0; d < shape.size(); ++d)
      info.divisibility[d] = std::max<int64_t>(info.divisibility[d], (*div)[d]);
  if (auto contig = h.getContiguity())
    for (unsigned d = 0; d < shape.size(); ++d)
      info.contiguity[d] =
          std::min<int64_t>(shape[d], std::max<int64_t>(info.contiguity[d], (*contig)[d]));
  return info;
}

AxisInfo visitAddPtr(tile::AddPtrOp, const Inputs &in) {
  int64_t unit = getPointeeBytes(in.type);
  AxisInfo offset = in[1];
  for (int64_t &div : offset.divisibility)
    div = capDiv(div, unit);
  return addLike(in[0], offset, false, unit);
}

AxisInfo visitShL(arith::ShLIOp, const Inputs &in) {
  std::optional<int64_t> s = constantShift(in[1], in.type);
  if (!s)
    return AxisInfo::unknown(in.rank());
  return mul(in[0], AxisInfo::constant(in.shape(), int64_t(1) << *s));
}

/// Shifts right of non-negative values by a constant: divisions by a power of two.
AxisInfo visitShR(Operation *, const Inputs &in) {
  std::optional<int64_t> s = constantShift(in[1], in.type);
  if (!s || !isNonNegative(in[0]))
    return AxisInfo::unknown(in.rank());
  AxisInfo divisor = AxisInfo::constant(in.shape(), int64_t(1) << *s);
  return divsi(in[0], divisor, divisionSignsKnown(in[0], divisor));
}

AxisInfo visitXOr(arith::XOrIOp, const Inputs &in) {
  // Booleans: `x ^ true` is `not x`, constant where x is.
  if (isBool(in.type) && (isConst(in[0], 1) || isConst(in[1], 1)))
    return isConst(in[0], 1) ? in[1] : in[0];
  return bitwise(in[0], in[1], false);
}

AxisInfo visitSelect(arith::SelectOp s, const Inputs &in) {
  bool scalarCond = !isa<RankedTensorType>(s.getCondition().getType());
  return select(in[0], scalarCond, in[1], in[2], getPointeeBytes(in.type), in.shape());
}

/// Sign extension and index casts: the values are the same where they fit.
AxisInfo visitExtOrCast(Operation *op, const Inputs &in) {
  if (intWidth(in.type) < intWidth(op->getOperand(0).getType()))
    return trunc(in[0], in.type);
  return in[0];
}

AxisInfo visitExtUI(arith::ExtUIOp, const Inputs &in) {
  if (isNonNegative(in[0]))
    return in[0];
  AxisInfo r = AxisInfo::unknown(in.rank());
  r.constancy = in[0].constancy;
  return r;
}

/// Ops without a transfer function. An element-wise op computes each element from the
/// same element of its operands: where all operands are constant, so is the result.
/// Anything else: nothing known.
AxisInfo visitOther(Operation *op, const Inputs &in) {
  unsigned rank = in.rank();
  AxisInfo r = AxisInfo::unknown(rank);
  if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumOperands() == 0)
    return r;
  SmallVector<int64_t, 4> constancy(rank, std::numeric_limits<int64_t>::max());
  for (auto [value, info] : llvm::zip(op->getOperands(), in.operands)) {
    if (!isa<RankedTensorType>(value.getType()))
      continue;
    if (!isTracked(value.getType()) || info.getRank() != rank)
      return r;
    for (unsigned d = 0; d < rank; ++d)
      constancy[d] = std::min(constancy[d], info.constancy[d]);
  }
  for (unsigned d = 0; d < rank; ++d)
    r.constancy[d] = constancy[d] == std::numeric_limits<int64_t>::max() ? 1 : constancy[d];
  return r;
}

AxisInfo transfer(Operation *op, const Inputs &in) {
  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case<arith::ConstantOp>([&](auto c) { return visitConstant(c, in); })
      // Grid queries: nothing but their (integer) range.
      .Case<tile::ProgramIdOp, tile::NumProgramsOp>(
          [&](Operation *) { return AxisInfo::unknown(1); })
      .Case<tile::MakeRangeOp>([&](auto r) { return visitMakeRange(r, in); })
      .Case<tile::SplatOp>([&](auto s) { return visitSplat(s, in); })
      .Case<tile::BroadcastOp>([&](auto b) { return visitBroadcast(b, in); })
      .Case<tile::ExpandDimsOp>([&](auto e) { return visitExpandDims(e, in); })
      .Case<tile::ConvertLayoutOp>([&](Operation *) { return in[0]; })
      .Case<tile::HintOp>([&](auto h) { return visitHint(h, in); })
      .Case<tile::AddPtrOp>([&](auto a) { return visitAddPtr(a, in); })
      .Case<arith::AddIOp>([&](Operation *) { return addLike(in[0], in[1], false, 1); })
      .Case<arith::SubIOp>([&](Operation *) { return addLike(in[0], in[1], true, 1); })
      .Case<arith::MulIOp>([&](Operation *) { return mul(in[0], in[1]); })
      .Case<arith::DivSIOp>([&](Operation *) {
        return divsi(in[0], in[1], divisionSignsKnown(in[0], in[1]));
      })
      .Case<arith::RemSIOp>([&](Operation *) {
        return remsi(in[0], in[1], divisionSignsKnown(in[0], in[1]));
      })
      .Case<arith::ShLIOp>([&](auto s) { return visitShL(s, in); })
      .Case<arith::ShRSIOp, arith::ShRUIOp>([&](Operation *s) { return visitShR(s, in); })
      .Case<arith::AndIOp, arith::OrIOp>([&](Operation *o) {
        bool isAnd = isa<arith::AndIOp>(o);
        return isBool(in.type) ? boolAndOr(in[0], in[1], isAnd) : bitwise(in[0], in[1], isAnd);
      })
      .Case<arith::XOrIOp>([&](auto x) { return visitXOr(x, in); })
      .Case<arith::MaxSIOp, arith::MinSIOp>(
          [&](Operation *) { return bitwise(in[0], in[1], false); })
      .Case<arith::CmpIOp>([&](auto c) { return cmpi(c.getPredicate(), in[0], in[1]); })
      .Case<arith::SelectOp>([&](auto s) { return visitSelect(s, in); })
      .Case<arith::ExtSIOp, arith::IndexCastOp>([&](Operation *e) { return visitExtOrCast(e, in); })
      .Case<arith::ExtUIOp>([&](auto e) { return visitExtUI(e, in); })
      .Case<arith::TruncIOp>([&](Operation *) { return trunc(in[0], in.type); })
      .Default([&](Operation *) { return visitOther(op, in); });
}

//===----------------------------------------------------------------------===//
// The data-flow analysis
//===----------------------------------------------------------------------===//

class AxisInfoLattice : public dataflow::Lattice<AxisInfo> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AxisInfoLattice)
  using Lattice::Lattice;
};

class AxisInfoDataFlow : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  /// Function arguments from their attributes; results of calls, arguments of regions
  /// the framework cannot follow: nothing known.
  void setToEntryState(AxisInfoLattice *lattice) override {
    propagateIfChanged(lattice, lattice->join(entryInfo(lattice->getAnchor())));
  }

  LogicalResult visitOperation(Operation *op, ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override {
    if (results.empty())
      return success();
    // Several results, or regions whose flow the op does not describe (tile.reduce):
    // nothing known.
    if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
        !isTracked(op->getResult(0).getType())) {
      setAllToEntryStates(results);
      return success();
    }
    ProgramPoint *point = getProgramPointAfter(op);
    SmallVector<AxisInfo, 4> infos;
    for (auto [value, lattice] : llvm::zip(op->getOperands(), operands)) {
      AxisInfo info = lattice->getValue();
      // Not reached yet: the framework comes back when it is.
      if (!info.isInitialized() || !rangeOf(point, value, info.range))
        return success();
      infos.push_back(std::move(info));
    }
    Value result = op->getResult(0);
    std::optional<Range> resultRange;
    if (!rangeOf(point, result, resultRange))
      return success();
    AxisInfo info;
    // A value the integer ranges pin down is that constant in every element, whatever
    // computed it (a decided comparison, x * 0, ...).
    if (resultRange && resultRange->first == resultRange->second)
      info = AxisInfo::constant(shapeOf(result.getType()), resultRange->first);
    else
      info = transfer(op, Inputs{infos, result.getType()});
    // Ranges live in the integer-range lattices; the analysis adds them when asked.
    info.range.reset();
    propagateIfChanged(results[0], results[0]->join(info));
    return success();
  }

  /// The induction variable of scf.for: lb + i * step, divisible by what divides both.
  /// The iteration arguments are the framework's (joins of the initial and the yielded
  /// values).
  void visitNonControlFlowArguments(Operation *op, const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override {
    auto forOp = dyn_cast<scf::ForOp>(op);
    if (!forOp || successor.getSuccessor() != &forOp.getRegion())
      return SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(op, successor,
                                                                         argLattices, firstIndex);
    ProgramPoint *point = getProgramPointBefore(forOp.getBody());
    const AxisInfo &lb = getLatticeElementFor(point, forOp.getLowerBound())->getValue();
    const AxisInfo &step = getLatticeElementFor(point, forOp.getStep())->getValue();
    if (!lb.isInitialized() || !step.isInitialized())
      return;
    AxisInfo iv = AxisInfo::unknown(1);
    iv.divisibility[0] = std::min(lb.divisibility[0], step.divisibility[0]);
    AxisInfoLattice *lattice = getLatticeElement(forOp.getInductionVar());
    propagateIfChanged(lattice, lattice->join(iv));
  }

private:
  /// The integer range of `value` as far as the integer-range analysis has come, read
  /// from `point` (which is revisited when it changes). False while an integer's range
  /// is not known yet; values that are no integers have none.
  bool rangeOf(ProgramPoint *point, Value value, std::optional<Range> &range) {
    range.reset();
    if (intWidth(value.getType()) == 0)
      return true;
    const auto *lattice = getOrCreateFor<dataflow::IntegerValueRangeLattice>(point, value);
    if (lattice->getValue().isUninitialized())
      return false;
    range = toRange(lattice->getValue());
    return true;
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

namespace {

/// Runs the solver on one function and keeps what it found for every value.
void analyseFunction(func::FuncOp func, llvm::DenseMap<Value, AxisInfo> &infos) {
  if (func.isExternal())
    return;
  DataFlowSolver solver(DataFlowConfig().setInterprocedural(false));
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<RangedConstantPropagation>();
  solver.load<TileIntegerRangeAnalysis>();
  solver.load<AxisInfoDataFlow>();
  if (failed(solver.initializeAndRun(func)))
    return;
  auto record = [&](Value value) {
    if (!isTracked(value.getType()))
      return;
    AxisInfo info;
    if (const auto *lattice = solver.lookupState<AxisInfoLattice>(value))
      info = lattice->getValue();
    // Not reached (dead code): nothing known.
    if (!info.isInitialized())
      info = AxisInfo::unknown(rankOf(value.getType()));
    if (const auto *range = solver.lookupState<dataflow::IntegerValueRangeLattice>(value))
      info.range = toRange(range->getValue());
    infos[value] = std::move(info);
  };
  func.walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      record(arg);
    for (Operation &op : *block)
      for (Value result : op.getResults())
        record(result);
  });
}

} // namespace

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  if (auto func = dyn_cast<func::FuncOp>(root))
    analyseFunction(func, infos);
  else
    root->walk([&](func::FuncOp func) { analyseFunction(func, infos); });
}

AxisInfo AxisInfoAnalysis::getAxisInfo(Value value) const {
  auto it = infos.find(value);
  if (it != infos.end())
    return it->second;
  return AxisInfo::unknown(rankOf(value.getType()));
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

bool signsKnownForDivision(const AxisInfo &dividend, const AxisInfo &divisor) {
  return divisionSignsKnown(dividend, divisor);
}

AxisInfo divisionFacts(const AxisInfo &dividend, const AxisInfo &divisor, bool remainder,
                       bool assumeSigns) {
  bool signsKnown = assumeSigns || divisionSignsKnown(dividend, divisor);
  return remainder ? remsi(dividend, divisor, signsKnown) : divsi(dividend, divisor, signsKnown);
}

} // namespace tcc
