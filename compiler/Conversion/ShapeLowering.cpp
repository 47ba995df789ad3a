//===- ShapeLowering.cpp - making and reshaping tiles in registers --------===//
//
// splat, broadcast and expand_dims move no data: each result register is a register
// the thread already has (found by simulating the two distributions at compile time).
// make_range adds compile-time register offsets to the thread's base coordinate.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

struct SplatLowering : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<Distribution> dist = getDistributionOrError(op, op.getType());
    if (!dist)
      return failure();
    SmallVector<Value> values(dist->getNumRegs(), adaptor.getSrc().front());
    replaceWithRegisters(rewriter, op, values);
    return success();
  }
};

/// Picks, for each result register, the source register holding its element.
LogicalResult replaceByRegisterMap(
    Operation *op, Type srcType, Type dstType, ValueRange srcRegs,
    ConversionPatternRewriter &rewriter,
    function_ref<SmallVector<int64_t>(ArrayRef<int64_t>)> toSrc, StringRef what) {
  std::optional<Distribution> src = getDistributionOrError(op, srcType);
  std::optional<Distribution> dst = getDistributionOrError(op, dstType);
  if (!src || !dst)
    return failure();
  std::optional<SmallVector<int64_t>> map = mapRegistersInThread(*src, *dst, toSrc);
  if (!map)
    return op->emitOpError() << what << " needs every thread to hold the source elements of "
                             << "its result: the layouts of " << srcType << " and " << dstType
                             << " do not allow it (a tile.convert_layout is missing)";
  SmallVector<Value> values;
  for (int64_t p : *map)
    values.push_back(srcRegs[p]);
  replaceWithRegisters(rewriter, op, values);
  return success();
}

/// Result coordinates to source coordinates, for each op that moves no data.
SmallVector<int64_t> sourceCoords(BroadcastOp op, ArrayRef<int64_t> coords) {
  ArrayRef<int64_t> srcShape = op.getSrc().getType().getShape();
  SmallVector<int64_t> s(coords);
  for (unsigned d = 0; d < s.size(); ++d)
    if (srcShape[d] == 1)
      s[d] = 0;
  return s;
}

SmallVector<int64_t> sourceCoords(ExpandDimsOp op, ArrayRef<int64_t> coords) {
  SmallVector<int64_t> s(coords);
  s.erase(s.begin() + op.getAxis());
  return s;
}

/// A transpose moves no data: the result's layout is the source's permuted
/// (tile-assign-layouts), so each thread already holds the elements of its result.
SmallVector<int64_t> sourceCoords(TransOp op, ArrayRef<int64_t> coords) {
  ArrayRef<int32_t> order = op.getOrder();
  SmallVector<int64_t> s(coords.size());
  for (size_t i = 0; i < coords.size(); ++i)
    s[order[i]] = coords[i];
  return s;
}

/// broadcast, expand_dims and trans: each result register is the source register that
/// holds the element at sourceCoords(op, its coordinates).
template <typename OpT> struct RegisterMapLowering : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpT op, typename OpConversionPattern<OpT>::OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto toSrc = [&](ArrayRef<int64_t> coords) { return sourceCoords(op, coords); };
    return replaceByRegisterMap(op, op.getSrc().getType(), op.getType(), adaptor.getSrc(),
                                rewriter, toSrc, op->getName().stripDialect());
  }
};

struct MakeRangeLowering : OpConversionPattern<MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MakeRangeOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<Distribution> dist = getDistributionOrError(op, op.getType());
    if (!dist)
      return failure();
    Location loc = op.getLoc();
    Value base = emitThreadBase(rewriter, loc, *dist, 0);
    // Values stay in [start, end): no signed or unsigned wrap.
    auto flags = arith::IntegerOverflowFlags::nsw | arith::IntegerOverflowFlags::nuw;
    llvm::DenseMap<int64_t, Value> byOffset;
    SmallVector<Value> values;
    for (int64_t r = 0; r < dist->getNumRegs(); ++r) {
      int64_t value = op.getStart() + dist->getRegOffset(r, 0);
      Value &v = byOffset[value];
      if (!v)
        v = value == 0 ? base
                       : arith::AddIOp::create(rewriter, loc, base, i32Const(rewriter, loc, value),
                                               flags)
                             .getResult();
      values.push_back(v);
    }
    replaceWithRegisters(rewriter, op, values);
    return success();
  }
};

/// Hints only inform the analyses that ran before.
struct HintLowering : OpConversionPattern<HintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(HintOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    replaceWithRegisters(rewriter, op, llvm::to_vector(adaptor.getSrc()));
    return success();
  }
};

} // namespace

void populateShapeLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SplatLowering, RegisterMapLowering<BroadcastOp>, RegisterMapLowering<ExpandDimsOp>,
               RegisterMapLowering<TransOp>, MakeRangeLowering, HintLowering>(
      converter, patterns.getContext());
}

} // namespace tcc
