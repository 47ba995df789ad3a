//===- LayoutUtils.cpp - building and reading distribution layouts ---------===//

#include "compiler/Transforms/LayoutUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;

namespace tcc {

bool isZeroOrAbsent(Value v) {
  if (!v)
    return true;
  Attribute attr;
  if (matchPattern(v, m_Constant(&attr))) {
    if (auto dense = dyn_cast<DenseElementsAttr>(attr))
      return dense.isSplat() && (dense.getElementType().isIntOrIndex()
                                     ? dense.getSplatValue<APInt>().isZero()
                                     : dense.getSplatValue<APFloat>().isPosZero());
  }
  if (auto splat = v.getDefiningOp<mlir::tile::SplatOp>())
    return isZeroOrAbsent(splat.getSrc());
  if (auto constant = v.getDefiningOp<arith::ConstantOp>()) {
    if (auto f = dyn_cast<FloatAttr>(constant.getValue()))
      return f.getValue().isPosZero();
    if (auto i = dyn_cast<IntegerAttr>(constant.getValue()))
      return i.getValue().isZero();
  }
  return false;
}


unsigned getNumWarps(Operation *op) { return tile::getNumWarps(op); }

Attribute getLayout(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getEncoding();
  return {};
}

Type withLayout(Type type, Attribute layout) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tile.getShape(), tile.getElementType(), layout);
  return type;
}

tile::BlockedEncodingAttr makeBlockedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                            ArrayRef<unsigned> sizePerThread,
                                            ArrayRef<unsigned> order, unsigned numWarps,
                                            unsigned threadsPerWarp) {
  size_t rank = shape.size();
  SmallVector<unsigned> threads(rank, 1), warps(rank, 1);
  auto room = [&](unsigned d, unsigned taken) {
    return static_cast<unsigned>(std::max<int64_t>(1, shape[d] / taken));
  };
  unsigned lanesLeft = threadsPerWarp;
  for (unsigned d : order) {
    threads[d] = std::min(lanesLeft, room(d, sizePerThread[d]));
    lanesLeft /= threads[d];
  }
  threads[order.front()] *= lanesLeft;
  unsigned warpsLeft = numWarps;
  for (unsigned d : order) {
    warps[d] = std::min(warpsLeft, room(d, sizePerThread[d] * threads[d]));
    warpsLeft /= warps[d];
  }
  warps[order.back()] *= warpsLeft;
  return tile::BlockedEncodingAttr::get(ctx, sizePerThread, threads, warps, order);
}

tile::BlockedEncodingAttr getDefaultLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                           unsigned numWarps, unsigned threadsPerWarp) {
  SmallVector<unsigned> ones(shape.size(), 1), order(shape.size());
  std::iota(order.rbegin(), order.rend(), 0u);
  return makeBlockedLayout(ctx, shape, ones, order, numWarps, threadsPerWarp);
}

tile::BlockedEncodingAttr getDotLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                       unsigned numWarps, unsigned threadsPerWarp) {
  int64_t threads = int64_t(threadsPerWarp) * numWarps;
  if (shape.size() != 2 || shape[0] * shape[1] < threads || !llvm::isPowerOf2_64(shape[0]) ||
      !llvm::isPowerOf2_64(shape[1]))
    return getDefaultLayout(ctx, shape, numWarps, threadsPerWarp);
  // The thread grid gm x gn (powers of two, gm * gn = threads, each within its dimension)
  // minimising the values read per k, tm + tn; ties go to the wider tn.
  int64_t bestM = 0, bestN = 0;
  for (int64_t gm = 1; gm <= threads; gm *= 2) {
    int64_t gn = threads / gm;
    if (gm > shape[0] || gn > shape[1])
      continue;
    int64_t tm = shape[0] / gm, tn = shape[1] / gn;
    if (!bestM || tm + tn < shape[0] / bestM + shape[1] / bestN ||
        (tm + tn == shape[0] / bestM + shape[1] / bestN && tn > shape[1] / bestN))
      bestM = gm, bestN = gn;
  }
  if (!bestM)
    return getDefaultLayout(ctx, shape, numWarps, threadsPerWarp);
  int64_t tm = shape[0] / bestM, tn = shape[1] / bestN;
  SmallVector<unsigned> spt{unsigned(std::min<int64_t>(tm, 4)), unsigned(std::min<int64_t>(tn, 4))};
  unsigned lanesN = unsigned(std::min<int64_t>(threadsPerWarp, bestN));
  unsigned lanesM = threadsPerWarp / lanesN;
  if (lanesM > bestM)
    return getDefaultLayout(ctx, shape, numWarps, threadsPerWarp);
  SmallVector<unsigned> lanes{lanesM, lanesN};
  SmallVector<unsigned> warps{unsigned(bestM / lanesM), unsigned(bestN / lanesN)};
  return tile::BlockedEncodingAttr::get(ctx, spt, lanes, warps, SmallVector<unsigned>{1, 0});
}

Value convertAfterDef(OpBuilder &builder, Value value, Attribute layout) {
  if (getLayout(value.getType()) == layout)
    return value;
  OpBuilder::InsertionGuard guard(builder);
  if (auto arg = dyn_cast<BlockArgument>(value))
    builder.setInsertionPointToStart(arg.getOwner());
  else
    builder.setInsertionPointAfter(value.getDefiningOp());
  return tile::ConvertLayoutOp::create(builder, value.getLoc(),
                                       withLayout(value.getType(), layout), value);
}

Value convertBefore(OpBuilder &builder, Operation *user, Value value, Attribute layout) {
  if (getLayout(value.getType()) == layout)
    return value;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(user);
  return tile::ConvertLayoutOp::create(builder, value.getLoc(),
                                       withLayout(value.getType(), layout), value);
}

LogicalResult setConstantLayout(Operation *op, Attribute layout) {
  auto constant = cast<arith::ConstantOp>(op);
  auto type = cast<RankedTensorType>(withLayout(constant.getType(), layout));
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense)
    return failure();
  constant.setValueAttr(dense.reshape(type));
  constant.getResult().setType(type);
  return success();
}

void forEachLoopWithStages(mlir::ModuleOp module, unsigned defaultStages,
                           llvm::function_ref<void(mlir::scf::ForOp, unsigned)> f) {
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    if (func.isExternal())
      continue;
    unsigned kernelStages = defaultStages;
    if (auto attr = func->getAttrOfType<mlir::IntegerAttr>(tile::kNumStagesAttrName))
      kernelStages = unsigned(attr.getInt());
    // The loops there are now, inner ones first; `f` may replace the loops around the
    // one it is given (tile-pipeline carries a ring's count through them, keeping their
    // attributes), so each is found again by a mark rather than kept as a pointer, and
    // loops `f` makes are not visited.
    constexpr llvm::StringLiteral kPending = "tcc.pending_stages"; // not the dialect's: never verified
    auto unit = mlir::UnitAttr::get(func.getContext());
    func.walk([&](mlir::scf::ForOp loop) { loop->setAttr(kPending, unit); });
    while (true) {
      mlir::scf::ForOp loop;
      func.walk([&](mlir::scf::ForOp l) {
        if (!loop && l->hasAttr(kPending))
          loop = l;
      });
      if (!loop)
        break;
      loop->removeAttr(kPending);
      unsigned stages = kernelStages;
      if (auto attr = loop->getAttrOfType<mlir::IntegerAttr>(tile::kNumStagesAttrName))
        stages = unsigned(attr.getInt());
      f(loop, stages);
    }
  }
}

mlir::Value stripHints(mlir::Value v) {
  while (auto hint = v.getDefiningOp<tile::HintOp>())
    v = hint.getSrc();
  return v;
}

} // namespace tcc
