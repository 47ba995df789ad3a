//===- TileOps.cpp - verifiers, folders and builders of tile ops ----------===//

#include "dialects/Tile/TileDialect.h"
#include "dialects/Tile/Libdevice.h"
#include "dialects/Tile/SharedLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

/// Shape of a scalar-or-tile type: empty for scalars.
static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getShape();
  return {};
}

static Type elementOf(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getElementType();
  return type;
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s + "]";
}

/// Every tile dimension must be a power of two: the GPU passes split tiles evenly over
/// threads and warps, and the language promises it.
static LogicalResult verifyTileShape(Operation *op, Type type, StringRef what) {
  for (int64_t d : shapeOf(type))
    if (!isPowerOf2(d))
      return op->emitOpError() << what << " has shape " << shapeString(shapeOf(type))
                               << ": tile dimensions must be powers of two";
  return success();
}

//===----------------------------------------------------------------------===//
// Grid queries
//===----------------------------------------------------------------------===//

static LogicalResult verifyGridAxis(Operation *op, int32_t axis) {
  if (axis < 0 || axis > 2)
    return op->emitOpError() << "axis " << axis
                             << " is out of range: grids have axes 0, 1 and 2";
  return success();
}

LogicalResult ProgramIdOp::verify() { return verifyGridAxis(*this, getAxis()); }
LogicalResult NumProgramsOp::verify() { return verifyGridAxis(*this, getAxis()); }

//===----------------------------------------------------------------------===//
// Making and reshaping tiles
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  if (end <= start)
    return emitOpError() << "range [" << start << ", " << end << ") is empty";
  if (!isPowerOf2(end - start))
    return emitOpError() << "range [" << start << ", " << end << ") has " << end - start
                         << " elements: the length must be a power of two";
  auto type = getType();
  if (type.getRank() != 1 || type.getDimSize(0) != end - start)
    return emitOpError() << "result shape " << shapeString(type.getShape())
                         << " does not hold the " << end - start << " elements of [" << start
                         << ", " << end << ")";
  return success();
}

LogicalResult SplatOp::verify() {
  if (getType().getElementType() != getSrc().getType())
    return emitOpError() << "splats a " << getSrc().getType() << " into a tile of "
                         << getType().getElementType();
  return verifyTileShape(*this, getType(), "result");
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute src = adaptor.getSrc();
  if (!src || !isa<IntegerAttr, FloatAttr>(src))
    return {};
  return SplatElementsAttr::get(getType(), src);
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType(), res = getType();
  if (src.getElementType() != res.getElementType())
    return emitOpError() << "broadcasts a tile of " << src.getElementType()
                         << " into a tile of " << res.getElementType();
  if (src.getRank() != res.getRank())
    return emitOpError() << "source rank " << src.getRank() << " differs from result rank "
                         << res.getRank() << " (use tile.expand_dims to add dimensions)";
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (src.getDimSize(d) != 1 && src.getDimSize(d) != res.getDimSize(d))
      return emitOpError() << "cannot broadcast shape " << shapeString(src.getShape())
                           << " to " << shapeString(res.getShape()) << ": dimension " << d
                           << " is neither 1 nor " << res.getDimSize(d);
  return verifyTileShape(*this, res, "result");
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType(), res = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a rank-" << src.getRank()
                         << " tile (0.." << src.getRank() << ")";
  if (src.getElementType() != res.getElementType())
    return emitOpError() << "changes the element type from " << src.getElementType()
                         << " to " << res.getElementType();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (res.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape " << shapeString(res.getShape())
                         << " is not the source shape " << shapeString(src.getShape())
                         << " with a 1 inserted at axis " << axis << " ("
                         << shapeString(expected) << ")";
  return success();
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType(), res = getType();
  ArrayRef<int32_t> order = getOrder();
  if (int64_t(order.size()) != src.getRank())
    return emitOpError() << "order has " << order.size() << " entries for a rank-"
                         << src.getRank() << " tile";
  SmallVector<bool> seen(order.size(), false);
  for (int32_t d : order) {
    if (d < 0 || d >= src.getRank() || seen[d])
      return emitOpError() << "order is not a permutation of 0.." << src.getRank() - 1;
    seen[d] = true;
  }
  if (src.getElementType() != res.getElementType())
    return emitOpError() << "changes the element type from " << src.getElementType()
                         << " to " << res.getElementType();
  SmallVector<int64_t> expected;
  for (int32_t d : order)
    expected.push_back(src.getDimSize(d));
  if (res.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape " << shapeString(res.getShape())
                         << " is not the source shape " << shapeString(src.getShape())
                         << " permuted (" << shapeString(expected) << ")";
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = getSrc().getType(), res = getType();
  if (src.getShape() != res.getShape() || src.getElementType() != res.getElementType())
    return emitOpError() << "may change only the layout, but converts " << src << " to "
                         << res;
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // A conversion of a conversion converts the original value (once, or not at all).
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

namespace {
/// A conversion of a value made from scalars alone (a splat, a make_range, a dense
/// constant) is that value made in the new layout: nothing moves between threads.
struct ConvertOfScalarSource : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, PatternRewriter &rewriter) const override {
    Operation *def = op.getSrc().getDefiningOp();
    if (!def)
      return failure();
    RankedTensorType type = op.getType();
    if (auto splat = dyn_cast<SplatOp>(def)) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, type, splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast<MakeRangeOp>(def)) {
      rewriter.replaceOpWithNewOp<MakeRangeOp>(op, type, range.getStartAttr(), range.getEndAttr());
      return success();
    }
    DenseElementsAttr dense;
    if (matchPattern(def, m_Constant(&dense))) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, dense.reshape(type));
      return success();
    }
    return failure();
  }
};
} // namespace

/// A conversion of a reshape is the reshape made in the conversion's layout: the reshape
/// moves elements from any layout to any other, so the two exchanges become one.
struct ConvertOfReshape : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, PatternRewriter &rewriter) const override {
    auto reshape = op.getSrc().getDefiningOp<ReshapeOp>();
    if (!reshape || !reshape->hasOneUse())
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), reshape.getSrc());
    return success();
  }
};

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                  MLIRContext *context) {
  patterns.add<ConvertOfScalarSource, ConvertOfReshape>(context);
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  if (shapeOf(getPtr().getType()) != shapeOf(getOffset().getType()))
    return emitOpError() << "pointer shape " << shapeString(shapeOf(getPtr().getType()))
                         << " differs from offset shape "
                         << shapeString(shapeOf(getOffset().getType()));
  if (elementOf(getOffset().getType()).getIntOrFloatBitWidth() == 1)
    return emitOpError() << "offsets must be integers wider than i1";
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(adaptor.getOffset(), m_Zero()))
    return getPtr();
  return {};
}

/// What load and store share: a mask must match the pointers' shape; say which shapes.
static LogicalResult verifyMask(Operation *op, Value ptr, Value mask) {
  if (!mask)
    return success();
  if (shapeOf(mask.getType()) != shapeOf(ptr.getType()))
    return op->emitOpError() << "mask shape " << shapeString(shapeOf(mask.getType()))
                             << " differs from pointer shape "
                             << shapeString(shapeOf(ptr.getType()));
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError() << "has 'other' but no mask: 'other' fills the lanes a mask turns off";
  if (failed(verifyMask(*this, getPtr(), getMask())))
    return failure();
  return verifyTileShape(*this, getPtr().getType(), "pointer tile");
}

void LoadOp::build(OpBuilder &builder, OperationState &state, Value ptr, Value mask,
                   Value other) {
  build(builder, state, getPointeeType(ptr.getType()), ptr, mask, other, IntegerAttr());
}

void StoreOp::build(OpBuilder &builder, OperationState &state, Value ptr, Value value,
                    Value mask) {
  build(builder, state, ptr, value, mask, IntegerAttr());
}

namespace {
/// A load or store under a constant mask (all true, all false): tile::rewriteKnownMask.
template <typename AccessOp>
struct ConstantMask : OpRewritePattern<AccessOp> {
  using OpRewritePattern<AccessOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(AccessOp op, PatternRewriter &rewriter) const override {
    return rewriteKnownMask(rewriter, op, [](Value mask) -> std::optional<bool> {
      if (matchPattern(mask, m_One()))
        return true;
      if (matchPattern(mask, m_Zero()))
        return false;
      return std::nullopt;
    });
  }
};
} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<ConstantMask<LoadOp>>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<ConstantMask<StoreOp>>(context);
}

LogicalResult StoreOp::verify() {
  if (failed(verifyMask(*this, getPtr(), getMask())))
    return failure();
  return verifyTileShape(*this, getPtr().getType(), "pointer tile");
}

LogicalResult AtomicAddOp::verify() {
  Type element = elementOf(getValue().getType());
  if (!element.isInteger(32) && !element.isInteger(64) && !element.isF32())
    return emitOpError() << "adds i32, i64 or f32, not " << element;
  if (failed(verifyMask(*this, getPtr(), getMask())))
    return failure();
  return verifyTileShape(*this, getPtr().getType(), "pointer tile");
}

LogicalResult ExternElementwiseOp::verify() {
  Type element = elementOf(getResult().getType());
  for (Value arg : getArgs())
    if (arg.getType() != getResult().getType())
      return emitOpError() << "operands must have the result's type " << getResult().getType()
                           << ", not " << arg.getType();
  if (!element.isF32() && !element.isF64())
    return emitOpError() << "applies to f32 or f64, not " << element;
  std::string name = tcc::libdevice::nameOf(getSymbol().str(), element.isF32());
  if (name.empty())
    return emitOpError() << "'" << getSymbol() << "' is not a libdevice function of "
                         << element << " that tcc knows (dialects/Tile/Libdevice.h)";
  unsigned arity = tcc::libdevice::lookup(name)->arity;
  if (getArgs().size() != arity)
    return emitOpError() << "'" << getSymbol() << "' takes " << arity << " operand"
                         << (arity == 1 ? "" : "s") << ", not " << getArgs().size();
  return success();
}

/// `sem` and `scope` of an atomic: PTX's orderings and scopes.
static LogicalResult verifyOrdering(Operation *op, StringRef sem, StringRef scope) {
  if (!llvm::is_contained({"relaxed", "acquire", "release", "acq_rel"}, sem))
    return op->emitOpError() << "sem must be relaxed, acquire, release or acq_rel, not '"
                             << sem << "'";
  if (!llvm::is_contained({"cta", "gpu", "sys"}, scope))
    return op->emitOpError() << "scope must be cta, gpu or sys, not '" << scope << "'";
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  Type element = elementOf(getValue().getType());
  StringRef kind = getKind();
  bool integer = element.isInteger(32) || element.isInteger(64);
  bool wide = integer || element.isF32() || element.isF64();
  if (llvm::is_contained({"max", "min", "umax", "umin", "and", "or", "xor"}, kind)) {
    if (!integer)
      return emitOpError() << "'" << kind << "' combines i32 or i64, not " << element;
  } else if (kind == "xchg") {
    if (!wide)
      return emitOpError() << "'xchg' exchanges i32, i64, f32 or f64, not " << element;
  } else if (kind == "add") {
    if (!integer && !element.isF32())
      return emitOpError() << "'add' adds i32, i64 or f32, not " << element;
  } else {
    return emitOpError() << "unknown kind '" << kind
                         << "' (max, min, umax, umin, and, or, xor, xchg, add)";
  }
  if (failed(verifyOrdering(*this, getSem(), getScope())) ||
      failed(verifyMask(*this, getPtr(), getMask())))
    return failure();
  return verifyTileShape(*this, getPtr().getType(), "pointer tile");
}

LogicalResult AtomicCASOp::verify() {
  Type element = elementOf(getValue().getType());
  if (!element.isInteger(32) && !element.isInteger(64) && !element.isF32() && !element.isF64())
    return emitOpError() << "swaps i32, i64, f32 or f64, not " << element;
  if (failed(verifyOrdering(*this, getSem(), getScope())))
    return failure();
  return verifyTileShape(*this, getPtr().getType(), "pointer tile");
}

/// The type `like` has (a scalar or a tile, with its layout), with element `element`.
static Type withElement(Type like, Type element) {
  if (auto tile = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tile.getShape(), element, tile.getEncoding());
  return element;
}

LogicalResult PtrOffsetOp::verify() {
  Type expected = withElement(getPtr().getType(), IntegerType::get(getContext(), 64));
  if (getResult().getType() != expected)
    return emitOpError() << "result must be " << expected << " (i64 in the shape and layout "
                         << "of the pointers), not " << getResult().getType();
  return success();
}

LogicalResult IntToPtrOp::verify() {
  Type ptr = getResult().getType();
  if (getSrc().getType() != withElement(ptr, IntegerType::get(getContext(), 64)))
    return emitOpError() << "operand must be i64 in the shape and layout of the result "
                         << ptr << ", not " << getSrc().getType();
  return success();
}

LogicalResult PtrToIntOp::verify() {
  Type expected = withElement(getSrc().getType(), IntegerType::get(getContext(), 64));
  if (getResult().getType() != expected)
    return emitOpError() << "result must be " << expected << " (i64 in the shape and layout "
                         << "of the pointers), not " << getResult().getType();
  return success();
}

LogicalResult RecordOutOfBoundsOp::verify() {
  Type i64 = IntegerType::get(getContext(), 64);
  if (getOffset().getType() != withElement(getBad().getType(), i64))
    return emitOpError() << "offsets " << getOffset().getType()
                         << " must be i64 in the shape and layout of " << getBad().getType();
  if (getKind() > 3)
    return emitOpError() << "kind " << getKind()
                         << " is not 0 (load), 1 (store), 2 (atomic_add) or 3 (async_copy)";
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  auto src = getSrc().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a rank-" << src.getRank()
                         << " tile (0.." << src.getRank() - 1 << ")";
  Type srcElt = src.getElementType();
  if (isa<PointerType>(srcElt))
    return emitOpError() << "cannot reduce a tile of pointers";
  bool isArg = getKind() == ReduceKind::ArgMax || getKind() == ReduceKind::ArgMin;
  Type expectedElt = isArg ? IntegerType::get(getContext(), 32) : srcElt;
  SmallVector<int64_t> expectedShape(src.getShape());
  expectedShape.erase(expectedShape.begin() + axis);
  Type res = getType();
  if (shapeOf(res) != ArrayRef<int64_t>(expectedShape) || elementOf(res) != expectedElt)
    return emitOpError() << stringifyReduceKind(getKind()) << " along axis " << axis << " of "
                         << shapeString(src.getShape()) << " gives "
                         << (expectedShape.empty() ? std::string("a scalar")
                                                   : "a tile " + shapeString(expectedShape))
                         << " of " << expectedElt
                         << ", not " << res;
  if (auto srcLayout = src.getEncoding()) {
    auto resTile = dyn_cast<RankedTensorType>(res);
    auto slice = resTile ? dyn_cast_or_null<SliceEncodingAttr>(resTile.getEncoding()) : nullptr;
    if (resTile && (!slice || slice.getDim() != axis || slice.getParent() != srcLayout))
      return emitOpError() << "result layout must be the source layout sliced along axis "
                           << axis;
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto res = cast<RankedTensorType>(getType());
  if (src.getElementType() != res.getElementType())
    return emitOpError() << "changes the element type from " << src.getElementType() << " to "
                         << res.getElementType();
  if (src.getNumElements() != res.getNumElements())
    return emitOpError() << "makes " << src.getNumElements() << " elements "
                         << shapeString(res.getShape()) << " (" << res.getNumElements()
                         << " elements)";
  return success();
}

LogicalResult PermuteXorOp::verify() {
  auto type = cast<RankedTensorType>(getSrc().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= type.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a rank-" << type.getRank()
                         << " tile (0.." << type.getRank() - 1 << ")";
  int64_t mask = getMask(), size = type.getDimSize(axis);
  if (mask <= 0 || mask >= size)
    return emitOpError() << "mask " << mask << " must be in 1.." << size - 1
                         << " for an axis of " << size;
  return success();
}

LogicalResult ScanOp::verify() {
  if (getSrcs().empty())
    return emitOpError() << "needs at least one source";
  if (getResults().size() != getSrcs().size())
    return emitOpError() << "has " << getResults().size() << " results for "
                         << getSrcs().size() << " sources";
  auto first = cast<RankedTensorType>(getSrcs().front().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= first.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a rank-" << first.getRank()
                         << " tile (0.." << first.getRank() - 1 << ")";
  for (auto [src, res] : llvm::zip(getSrcs(), getResults())) {
    auto type = cast<RankedTensorType>(src.getType());
    if (isa<PointerType>(type.getElementType()))
      return emitOpError() << "cannot scan a tile of pointers";
    if (type.getShape() != first.getShape() || type.getEncoding() != first.getEncoding())
      return emitOpError() << "sources differ in shape or layout: " << first << " and " << type;
    if (res.getType() != type)
      return emitOpError() << "result " << res.getType() << " is not its source's type "
                           << type;
  }
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  Block &body = getCombiner().front();
  size_t n = getSrcs().size();
  if (body.getNumArguments() != 2 * n)
    return emitOpError() << "combiner takes " << body.getNumArguments()
                         << " arguments; it must take " << 2 * n
                         << " (the earlier then the later scalars of each source)";
  for (size_t i = 0; i < 2 * n; ++i) {
    Type want = cast<RankedTensorType>(getSrcs()[i % n].getType()).getElementType();
    if (body.getArgument(i).getType() != want)
      return emitOpError() << "combiner argument " << i << " is "
                           << body.getArgument(i).getType() << ", not " << want;
  }
  auto ret = dyn_cast<ScanReturnOp>(body.getTerminator());
  if (!ret)
    return emitOpError() << "combiner must end in tile.scan_return";
  if (ret.getValues().size() != n)
    return ret.emitOpError() << "returns " << ret.getValues().size() << " values; the scan has "
                             << n << " sources";
  for (size_t i = 0; i < n; ++i) {
    Type want = cast<RankedTensorType>(getSrcs()[i].getType()).getElementType();
    if (ret.getValues()[i].getType() != want)
      return ret.emitOpError() << "value " << i << " is " << ret.getValues()[i].getType()
                               << ", not " << want;
  }
  WalkResult walk = getCombiner().walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (isa<RankedTensorType>(t)) {
        op->emitOpError() << "in a tile.scan combiner makes a tile; the combiner works on scalars";
        return WalkResult::interrupt();
      }
    if (!isa<ScanReturnOp>(op) && !isMemoryEffectFree(op)) {
      op->emitOpError() << "in a tile.scan combiner has side effects; the combiner must be pure";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

namespace {
/// `x + dot(a, b, 0)` -> `dot(a, b, x)`, where the dot's only use is the addition: the
/// product accumulates into x, as Triton's combine does. Written `acc += dot(a, b)` (Triton's
/// tutorial 08), the unfused form keeps two accumulators live around a K loop and adds them
/// element by element every iteration (128x128 on 4 warps: 256 registers of them, spilled).
struct FoldAddIntoDotAccumulator : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp add, PatternRewriter &rewriter) const override {
    for (unsigned i = 0; i < 2; ++i) {
      auto dot = add->getOperand(i).getDefiningOp<DotOp>();
      Value other = add->getOperand(1 - i);
      if (!dot || !dot->hasOneUse() || other.getType() != dot.getType() ||
          !matchPattern(dot.getAcc(), m_AnyZeroFloat()))
        continue;
      rewriter.replaceOpWithNewOp<DotOp>(add, dot.getType(), dot.getA(), dot.getB(), other,
                                         dot.getInputPrecisionAttr());
      rewriter.eraseOp(dot);
      return success();
    }
    return failure();
  }
};
} // namespace

void DotOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<FoldAddIntoDotAccumulator>(context);
}

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), acc = getAcc().getType();
  if (a.getRank() != 2 || b.getRank() != 2 || acc.getRank() != 2)
    return emitOpError() << "operands must be 2-D tiles, got ranks " << a.getRank() << ", "
                         << b.getRank() << " and " << acc.getRank();
  if (a.getElementType() != b.getElementType())
    return emitOpError() << "operands have different element types " << a.getElementType()
                         << " and " << b.getElementType();
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError() << "inner dimensions differ: a is " << shapeString(a.getShape())
                         << ", b is " << shapeString(b.getShape());
  if (acc.getDimSize(0) != a.getDimSize(0) || acc.getDimSize(1) != b.getDimSize(1))
    return emitOpError() << "accumulator shape " << shapeString(acc.getShape())
                         << " is not " << shapeString({a.getDimSize(0), b.getDimSize(1)});
  if (auto precision = getInputPrecision(); precision && *precision != "tf32" && *precision != "ieee")
    return emitOpError() << "input_precision must be \"tf32\" or \"ieee\", not \"" << *precision
                         << "\"";
  return success();
}

//===----------------------------------------------------------------------===//
// Shared memory and tensor cores
//===----------------------------------------------------------------------===//

/// A shared-memory tile and a register tile hold the same shape and elements.
static LogicalResult verifySameTile(Operation *op, SharedMemType mem, RankedTensorType tile) {
  if (mem.isRing())
    return op->emitOpError() << "needs one tile, not a ring of " << mem.getNumSlots();
  if (mem.getTileShape() != tile.getShape() || mem.getElementType() != tile.getElementType())
    return op->emitOpError() << "moves " << tile << " through " << mem
                             << ": shapes and element types must match";
  return success();
}

LogicalResult LocalAllocOp::verify() {
  if (getSrc())
    return verifySameTile(*this, getType(), cast<RankedTensorType>(getSrc().getType()));
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return verifySameTile(*this, getSrc().getType(), getType());
}

LogicalResult MemDescIndexOp::verify() {
  SharedMemType src = getSrc().getType(), result = getType();
  if (!src.isRing())
    return emitOpError() << "indexes a ring of tiles, not " << src;
  if (result.isRing() || result.getShape() != src.getTileShape() ||
      result.getElementType() != src.getElementType() ||
      result.getEncoding() != src.getEncoding())
    return emitOpError() << "gives one tile of " << src << ", not " << result;
  return success();
}

/// `type` as mbarrier storage: one 8-byte barrier (`!tile.smem<1xi64, ...>`), or with
/// `ring`, also a ring of them.
static LogicalResult verifyBarrier(Operation *op, SharedMemType type, bool ring) {
  if (!type.getElementType().isInteger(64) || type.getTileShape().size() != 1 ||
      type.getTileShape()[0] != 1 || (!ring && type.isRing()))
    return op->emitOpError() << "takes " << (ring ? "mbarriers" : "one mbarrier")
                             << " (!tile.smem<" << (ring ? "[S x]" : "") << "1xi64, ...>), not "
                             << type;
  return success();
}

LogicalResult MBarrierInitOp::verify() {
  if (getCount() < 1 || getCount() >= (1 << 20))
    return emitOpError() << "expects 1 to 2^20 - 1 arrivals, not " << getCount();
  return verifyBarrier(*this, getBarriers().getType(), /*ring=*/true);
}

LogicalResult MBarrierInvalOp::verify() {
  return verifyBarrier(*this, getBarriers().getType(), /*ring=*/true);
}

LogicalResult MBarrierExpectOp::verify() {
  if (getBytes() < 0 || getBytes() >= (1 << 20))
    return emitOpError() << "expects 0 to 2^20 - 1 bytes, not " << getBytes();
  return verifyBarrier(*this, getBarrier().getType(), /*ring=*/false);
}

LogicalResult MBarrierWaitOp::verify() {
  return verifyBarrier(*this, getBarrier().getType(), /*ring=*/false);
}

/// The cluster size of the kernel around `op` (1 where it is not launched in clusters).
static int64_t clusterSizeOf(Operation *op) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  auto size = func ? func->getAttrOfType<IntegerAttr>(kClusterSizeAttrName) : IntegerAttr();
  return size ? size.getInt() : 1;
}

LogicalResult MBarrierArriveOp::verify() {
  if (getPeer() && clusterSizeOf(*this) != 2)
    return emitOpError() << "arrives on a partner's barrier (peer) outside a kernel launched "
                            "in clusters of two (tile.cluster_size = 2)";
  return verifyBarrier(*this, getBarrier().getType(), /*ring=*/false);
}

LogicalResult ClusterReduceOp::verify() {
  if (clusterSizeOf(*this) < 2)
    return emitOpError() << "sums over a cluster outside a kernel launched in clusters "
                            "(tile.cluster_size of 2 or more)";
  return success();
}

WarpSpecializeOp::RegisterBudget
WarpSpecializeOp::budgetRegisters(unsigned consumerThreads, unsigned producerThreads,
                                  int32_t producerRegs, unsigned programs) {
  const int64_t file = 65536;
  int64_t threads = int64_t(consumerThreads) + producerThreads;
  RegisterBudget budget;
  budget.launch = int32_t(std::min<int64_t>(file / std::max(1u, programs) / threads / 8 * 8, 248));
  int64_t rest = int64_t(budget.launch) * threads - int64_t(producerRegs) * producerThreads;
  budget.consumer = int32_t(std::min<int64_t>(rest / std::max(1u, consumerThreads) / 8 * 8, 256));
  return budget;
}

LogicalResult WarpSpecializeOp::verify() {
  for (auto [name, regs] : {std::pair<StringRef, int32_t>{"producerRegs", getProducerRegs()},
                            {"consumerRegs", getConsumerRegs()}})
    if (regs < 24 || regs > 256 || regs % 8 != 0)
      return emitOpError() << "expects " << name
                           << " to be a multiple of 8 from 24 to 256 (setmaxnreg), not " << regs;
  if (getProducerRegs() > getConsumerRegs())
    return emitOpError() << "gives the producer more registers (" << getProducerRegs()
                         << ") than the consumers (" << getConsumerRegs() << ")";
  if (!isa_and_nonnull<FunctionOpInterface>((*this)->getParentOp()))
    return emitOpError() << "must be in the body of a kernel, not nested in another op";
  if ((getNumWarps(*this) % kProducerWarps) != 0)
    return emitOpError() << "needs whole warpgroups of consumers: " << getNumWarps(*this)
                         << " warps is not a multiple of " << kProducerWarps;
  // The producer runs on warps that hold no part of any tile.
  WalkResult tiles = getProducer().walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (isa<RankedTensorType>(t)) {
        op->emitOpError() << "makes a tile in the producer region of a tile.warp_specialize, "
                             "whose warps hold no tiles";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(tiles.wasInterrupted());
}

LogicalResult ConsumerGroupOp::verify() {
  auto ws = (*this)->getParentOfType<WarpSpecializeOp>();
  if (!ws || !ws.getConsumer().isAncestor((*this)->getParentRegion()))
    return emitOpError() << "must be in the consumer region of a tile.warp_specialize";
  return success();
}

/// A bulk tensor copy between the array `desc` describes and one shared tile `tile`
/// (`dir`: "into" for a load, "from" for a store), box by box at `coords`.
static LogicalResult verifyBulkTensorCopy(Operation *op, TensorMapType desc, size_t numCoords,
                                          SharedMemType tile, StringRef dir) {
  ArrayRef<int64_t> box = desc.getBox();
  unsigned rank = box.size();
  if (numCoords != rank)
    return op->emitOpError() << "takes " << rank << " coordinates for a rank-" << rank
                             << " tensor map, not " << numCoords;
  auto encoding = dyn_cast<NVMMASharedEncodingAttr>(tile.getEncoding());
  if (tile.isRing() || tile.getTileShape().size() != rank || !encoding)
    return op->emitOpError() << "copies " << dir << " one rank-" << rank
                             << " #tile.nvmma_shared tile, not " << tile;
  if (tile.getElementType() != desc.getElementType())
    return op->emitOpError() << "copies " << desc.getElementType() << " " << dir
                             << " a tile of " << tile.getElementType();
  if (encoding.getSwizzle() != desc.getSwizzle())
    return op->emitOpError() << "copies with a " << desc.getSwizzle() << "-byte swizzle " << dir
                             << " a tile swizzled by " << encoding.getSwizzle() << " bytes";
  for (unsigned k = 0; k < rank; ++k)
    if (encoding.getOrder()[k] != rank - 1 - k)
      return op->emitOpError() << "copies " << dir
                               << " tiles whose rows run along the last dimension "
                                  "(order [" << rank - 1 << ", ..., 0]), not " << tile;
  SharedLayout layout = getSharedLayout(tile);
  ArrayRef<int64_t> shape = tile.getTileShape();
  for (unsigned k = 0; k < rank; ++k)
    if (shape[k] % box[k])
      return op->emitOpError() << "copies a " << tile << " tile in boxes of " << box[k]
                               << " along dimension " << k << ", which do not divide it";
  // Only the outermost dimension may be cut into boxes, besides the rows into atoms: a box
  // cut along a middle dimension would move rows back to back that the layout spaces
  // apart.
  for (unsigned k = 1; k + 1 < rank; ++k)
    if (box[k] != shape[k])
      return op->emitOpError() << "copies boxes that cut dimension " << k << " of " << tile
                               << ": only the outermost dimension and the rows may be split";
  // A box fills whole rows of an atom (the swizzle's width) or of the tile, and a
  // swizzled box starts where the swizzle's pattern does (a multiple of 8 rows).
  if (box.back() != layout.atomWidth())
    return op->emitOpError() << "copies boxes " << box.back() << " elements wide " << dir
                             << " rows of " << layout.atomWidth()
                             << " (the tile's, or its swizzle atoms')";
  int64_t rowsPerBox = 1;
  for (unsigned k = 0; k + 1 < rank; ++k)
    rowsPerBox *= box[k];
  if (desc.getSwizzle() && rowsPerBox < layout.numRows() && rowsPerBox % 8)
    return op->emitOpError() << "splits a swizzled tile into boxes of " << rowsPerBox
                             << " rows, not a multiple of 8";
  return success();
}

/// Boxes one copy moves: the tile over the tensor map's box.
static int64_t numBoxes(TensorMapType desc, SharedMemType tile) {
  int64_t n = 1;
  for (auto [d, b] : llvm::zip(tile.getTileShape(), desc.getBox()))
    n *= d / b;
  return n;
}

LogicalResult TmaLoadOp::verify() {
  if (failed(verifyBarrier(*this, getBarrier().getType(), /*ring=*/false)) ||
      failed(verifyBulkTensorCopy(*this, cast<TensorMapType>(getDesc().getType()),
                                  getCoords().size(), getDst().getType(), "into")))
    return failure();
  if (getMulticast()) {
    if (clusterSizeOf(*this) != 2)
      return emitOpError() << "multicasts outside a kernel launched in clusters of two "
                              "(tile.cluster_size = 2)";
    if (getNumBoxes() % 2 != 0)
      return emitOpError() << "multicasts a tile of " << getNumBoxes()
                           << " boxes: the two programs of a cluster copy half each";
  }
  return success();
}

LogicalResult TmaStoreOp::verify() {
  return verifyBulkTensorCopy(*this, cast<TensorMapType>(getDesc().getType()),
                              getCoords().size(), getSrc().getType(), "from");
}

int64_t TmaStoreOp::getNumBoxes() {
  return numBoxes(cast<TensorMapType>(getDesc().getType()), getSrc().getType());
}

int64_t TmaLoadOp::getNumBoxes() {
  return numBoxes(cast<TensorMapType>(getDesc().getType()), getDst().getType());
}

LogicalResult MemDescTransOp::verify() {
  SharedMemType src = getSrc().getType(), result = getType();
  auto encoding = dyn_cast<NVMMASharedEncodingAttr>(src.getEncoding());
  if (src.isRing() || src.getShape().size() != 2 || !encoding || encoding.getOrder().size() != 2)
    return emitOpError() << "transposes one 2-D #tile.nvmma_shared tile, not " << src
                         << " into " << result;
  if (result != transposedSharedTile(src))
    return emitOpError() << "the transpose of " << src << " is not " << result
                         << ": shapes and orders reversed, element type and swizzle the same";
  return success();
}

namespace {
/// `local_alloc(convert_layout(x))` stores x as its threads hold it (an mma accumulator
/// cast to f16, flash attention's P, is stored for the next dot straight from the
/// accumulator layout) when the warps' stores cost at most twice the wavefronts of the
/// converted tile's: the conversion itself writes the tile to shared memory and reads it
/// back, behind a barrier, before that store.
struct StoreWithoutConversion : OpRewritePattern<LocalAllocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LocalAllocOp op, PatternRewriter &rewriter) const override {
    Value src = op.getSrc();
    auto cvt = src ? src.getDefiningOp<ConvertLayoutOp>() : ConvertLayoutOp();
    if (!cvt || !cvt->hasOneUse())
      return failure();
    auto fromType = cast<RankedTensorType>(cvt.getSrc().getType());
    std::optional<Distribution> from = Distribution::get(fromType);
    std::optional<Distribution> to = Distribution::get(cast<RankedTensorType>(cvt.getType()));
    unsigned bytes = fromType.getElementTypeBitWidth() / 8;
    if (!from || !to || bytes == 0)
      return failure();
    SharedLayout layout = getSharedLayout(op.getType());
    int64_t direct = countWavefronts(layout, storeAccesses(*from, layout.order[0], bytes), bytes);
    int64_t converted = countWavefronts(layout, storeAccesses(*to, layout.order[0], bytes), bytes);
    if (direct > 2 * converted)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getSrcMutable().assign(cvt.getSrc()); });
    return success();
  }
};
} // namespace

void LocalAllocOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                               MLIRContext *context) {
  patterns.add<StoreWithoutConversion>(context);
}

LogicalResult AsyncCopyOp::verify() {
  auto ptrs = cast<RankedTensorType>(getPtr().getType());
  SharedMemType dst = getDst().getType();
  if (dst.isRing() || dst.getShape() != ptrs.getShape() ||
      getPointeeType(ptrs.getElementType()) != dst.getElementType())
    return emitOpError() << "copies through " << ptrs << " into " << dst
                         << ": shapes and element types must match";
  if (getMask() && cast<RankedTensorType>(getMask().getType()).getShape() != ptrs.getShape())
    return emitOpError() << "mask and pointers have different shapes";
  int64_t bytes = int64_t(getVec()) * dst.getElementType().getIntOrFloatBitWidth() / 8;
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return emitOpError() << "copies " << getVec() << " elements (" << bytes
                         << " bytes) per instruction; cp.async moves 4, 8 or 16 bytes";
  return success();
}

/// Whether `a`, a register tile, is laid out as wgmma reads its A operand from registers:
/// a version-3 #tile.mma layout with `mma`'s warps, all along M (each warpgroup holds
/// whole rows), K a multiple of 16.
static bool isRegisterOperandA(RankedTensorType a, MmaEncodingAttr mma) {
  auto layout = dyn_cast_or_null<MmaEncodingAttr>(a.getEncoding());
  return layout && layout.getVersion() == 3 && a.getRank() == 2 &&
         layout.getWarpsPerCTA() == mma.getWarpsPerCTA() && mma.getWarpsPerCTA().size() == 2 &&
         mma.getWarpsPerCTA()[1] == 1 && a.getDimSize(1) % 16 == 0 &&
         (a.getElementType().isF16() || a.getElementType().isBF16());
}

LogicalResult WarpGroupDotOp::verify() {
  SharedMemType b = getB().getType();
  auto acc = getAcc().getType();
  auto sharedA = dyn_cast<SharedMemType>(getA().getType());
  auto registerA = dyn_cast<RankedTensorType>(getA().getType());
  ArrayRef<int64_t> aShape = sharedA ? sharedA.getShape() : registerA.getShape();
  Type aElement = sharedA ? sharedA.getElementType() : registerA.getElementType();
  if ((sharedA && sharedA.isRing()) || b.isRing() || aShape.size() != 2 ||
      b.getShape().size() != 2)
    return emitOpError() << "operands must be 2-D tiles (b in shared memory)";
  if (aElement != b.getElementType())
    return emitOpError() << "operands have different element types " << aElement << " and "
                         << b.getElementType();
  if (aShape[1] != b.getShape()[0] || acc.getDimSize(0) != aShape[0] ||
      acc.getDimSize(1) != b.getShape()[1])
    return emitOpError() << "shapes do not form a matrix product: a " << shapeString(aShape)
                         << ", b " << shapeString(b.getShape()) << ", acc "
                         << shapeString(acc.getShape());
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(acc.getEncoding());
  if (!mma || mma.getVersion() != 3)
    return emitOpError() << "accumulator must have a version-3 #tile.mma layout";
  if (registerA && !isRegisterOperandA(registerA, mma))
    return emitOpError() << "a register operand a must be f16 or bf16 in a version-3 "
                            "#tile.mma layout with the accumulator's warps, all along M, and K "
                            "a multiple of 16";
  auto sa = sharedA ? dyn_cast_or_null<NVMMASharedEncodingAttr>(sharedA.getEncoding())
                    : NVMMASharedEncodingAttr();
  auto sb = dyn_cast_or_null<NVMMASharedEncodingAttr>(b.getEncoding());
  if ((sharedA && !sa) || !sb)
    return emitOpError() << "operands must have #tile.nvmma_shared layouts";
  // The descriptors encode the hardware's 32-, 64- and 128-byte swizzles only.
  for (auto [name, enc] : {std::pair{"a", sa}, std::pair{"b", sb}})
    if (enc && enc.getSwizzle() != 32 && enc.getSwizzle() != 64 && enc.getSwizzle() != 128)
      return emitOpError() << "operand " << name << " has a " << enc.getSwizzle()
                           << "-byte swizzle; wgmma reads 32-, 64- or 128-byte swizzles";
  return success();
}

namespace {
/// `warpgroup_dot(local_alloc(p), b, acc)`, with p held as wgmma reads a register A (an
/// accumulator cast to f16 with the same warps: flash attention's P), reads p itself.
struct RegisterOperandA : OpRewritePattern<WarpGroupDotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WarpGroupDotOp op, PatternRewriter &rewriter) const override {
    auto alloc = op.getA().getDefiningOp<LocalAllocOp>();
    if (!alloc || !alloc.getSrc() || !alloc->hasOneUse())
      return failure();
    // Through a conversion the store needed (to a layout its stores suit): the registers
    // before it are the operand.
    Value src = alloc.getSrc();
    if (auto cvt = src.getDefiningOp<ConvertLayoutOp>())
      src = cvt.getSrc();
    auto p = cast<RankedTensorType>(src.getType());
    auto mma = dyn_cast_or_null<MmaEncodingAttr>(op.getAcc().getType().getEncoding());
    if (!mma || !isRegisterOperandA(p, mma))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getAMutable().assign(src); });
    rewriter.eraseOp(alloc);
    return success();
  }
};
} // namespace

void WarpGroupDotOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                 MLIRContext *context) {
  patterns.add<RegisterOperandA>(context);
}

//===----------------------------------------------------------------------===//
// Hints
//===----------------------------------------------------------------------===//

LogicalResult HintOp::verify() {
  if (!getDivisibility() && !getContiguity())
    return emitOpError() << "needs 'divisibility' or 'contiguity'";
  size_t rank = std::max<size_t>(1, shapeOf(getSrc().getType()).size());
  auto check = [&](std::optional<ArrayRef<int32_t>> values, StringRef name) -> LogicalResult {
    if (!values)
      return success();
    if (values->size() != rank)
      return emitOpError() << "'" << name << "' has " << values->size()
                           << " entries; the value needs " << rank;
    for (int32_t v : *values)
      if (!isPowerOf2(v))
        return emitOpError() << "'" << name << "' entries must be positive powers of two, not "
                             << v;
    return success();
  };
  if (failed(check(getDivisibility(), "divisibility")))
    return failure();
  return check(getContiguity(), "contiguity");
}

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.cpp.inc"
