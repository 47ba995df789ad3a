//===- PermuteLowering.cpp - tile.permute_xor and tile.reshape ------------===//
//
// Element c along the axis takes the source's element c ^ mask. In a distributed layout
// every coordinate bit is selected by one register, lane or warp bit, so XORing the
// coordinate with `mask` XORs the register index, the lane id and the warp id with masks
// known at compile time: the value a result register needs sits in register r ^ regMask of
// lane ^ laneMask of warp ^ warpMask. Registers are renamed, lanes exchanged with one
// butterfly shuffle per register, and only where warps differ does every thread write its
// registers to shared memory (register-major, so that a warp's stores are consecutive),
// barrier, and read its partner's.
//
// tile.reshape keeps the row-major order of the elements: where every thread already holds
// the source elements of its result registers, a renaming; otherwise the source is stored
// row-major to shared memory (the accesses as wide as the layout allows), barrier, and
// the result loaded row-major in its shape, the same offsets.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/SharedMemory.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/SharedLayout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

struct XorMasks {
  int64_t regs = 0;
  unsigned lanes = 0, warps = 0;
};

std::optional<XorMasks> masksOf(PermuteXorOp op, const Distribution &dist) {
  XorMasks m;
  const LayoutBits &bits = dist.getBits();
  unsigned axis = op.getAxis();
  int64_t mask = op.getMask();
  for (unsigned k = 0; (int64_t(1) << k) <= mask; ++k) {
    if (!(mask & (int64_t(1) << k)))
      continue;
    bool found = false;
    auto look = [&](ArrayRef<BitTarget> targets, auto add) {
      for (auto [id, t] : llvm::enumerate(targets))
        if (!t.isNone() && unsigned(t.dim) == axis && t.bit == k) {
          add(unsigned(id));
          found = true;
        }
    };
    look(bits.regs, [&](unsigned id) { m.regs |= int64_t(1) << id; });
    look(bits.lanes, [&](unsigned id) { m.lanes |= 1u << id; });
    look(bits.warps, [&](unsigned id) { m.warps |= 1u << id; });
    if (!found)
      return std::nullopt;
  }
  return m;
}

int64_t scratchOf(PermuteXorOp op) {
  auto type = cast<RankedTensorType>(op.getSrc().getType());
  std::optional<Distribution> dist = Distribution::get(type);
  if (!dist)
    return 0;
  std::optional<XorMasks> m = masksOf(op, *dist);
  if (!m || !m->warps)
    return 0;
  Type mem = memoryType(type.getElementType());
  int64_t size = std::max<int64_t>(mem.getIntOrFloatBitWidth() / 8, 1);
  return int64_t(dist->getNumThreads()) * dist->getNumRegs() * size;
}

struct PermuteXorLowering : OpConversionPattern<PermuteXorOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(PermuteXorOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    std::optional<Distribution> dist = getDistributionOrError(op, type);
    if (!dist)
      return failure();
    std::optional<XorMasks> m = masksOf(op, *dist);
    if (!m)
      return op.emitOpError() << "has a layout that selects no thread or register for a bit "
                                 "of the mask";
    Location loc = op.getLoc();
    ValueRange regs = adaptor.getSrc();
    int64_t numRegs = dist->getNumRegs();
    SmallVector<Value> results;
    if (!m->warps) {
      for (int64_t r = 0; r < numRegs; ++r) {
        Value v = regs[r ^ m->regs];
        results.push_back(m->lanes ? nvvm::shuffleXor(rewriter, loc, v, m->lanes) : v);
      }
      replaceWithRegisters(rewriter, op, results);
      return success();
    }
    if (!op->hasAttr(kSharedOffsetAttr)) {
      (void)scratchBase(rewriter, op); // says why
      return failure();
    }
    Value base = scratchBase(rewriter, op);
    unsigned numThreads = dist->getNumThreads();
    Type elem = type.getElementType();
    Type mem = memoryType(elem);
    Value tid = nvvm::threadIdX(rewriter, loc, numThreads);
    Value partner = arith::XOrIOp::create(
        rewriter, loc, tid, i32Const(rewriter, loc, int64_t(m->lanes) | (int64_t(m->warps) << 5)));
    for (int64_t r = 0; r < numRegs; ++r) {
      Value slot = arith::AddIOp::create(rewriter, loc, tid, i32Const(rewriter, loc, r * numThreads));
      storeShared(rewriter, loc, sharedElementPtr(rewriter, loc, base, mem, slot),
                  {toSharedMemory(rewriter, loc, regs[r])});
    }
    nvvm::barrier(rewriter, loc);
    for (int64_t r = 0; r < numRegs; ++r) {
      Value slot = arith::AddIOp::create(rewriter, loc, partner,
                                         i32Const(rewriter, loc, (r ^ m->regs) * numThreads));
      Value v = loadShared(rewriter, loc, sharedElementPtr(rewriter, loc, base, mem, slot), mem,
                           1)[0];
      results.push_back(fromSharedMemory(rewriter, loc, v, elem));
    }
    replaceWithRegisters(rewriter, op, results);
    return success();
  }
};

/// A row-major, unswizzled shared layout of `shape`, accesses up to 16 bytes wide.
SharedLayout rowMajor(ArrayRef<int64_t> shape, Type mem) {
  SharedLayout layout;
  layout.shape.assign(shape.begin(), shape.end());
  for (unsigned d = shape.size(); d-- > 0;)
    layout.order.push_back(d);
  layout.vec = std::max<int64_t>(1, 128 / std::max<int64_t>(mem.getIntOrFloatBitWidth(), 8));
  return layout;
}

/// Row-major coordinates of `shape` at linear index `linear`.
SmallVector<int64_t> coordsOf(ArrayRef<int64_t> shape, int64_t linear) {
  SmallVector<int64_t> c(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    c[d] = linear % shape[d];
    linear /= shape[d];
  }
  return c;
}

int64_t linearOf(ArrayRef<int64_t> shape, ArrayRef<int64_t> c) {
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + c[d];
  return linear;
}

std::optional<SmallVector<int64_t>> reshapeInRegisters(ReshapeOp op, const Distribution &src,
                                                       const Distribution &dst) {
  ArrayRef<int64_t> from = op.getSrc().getType().getShape(), to = op.getType().getShape();
  return mapRegistersInThread(src, dst, [&](ArrayRef<int64_t> c) {
    return coordsOf(from, linearOf(to, c));
  });
}

struct ReshapeLowering : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ReshapeOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    auto dstType = op.getType();
    std::optional<Distribution> src = getDistributionOrError(op, srcType);
    std::optional<Distribution> dst = src ? getDistributionOrError(op, dstType) : std::nullopt;
    if (!src || !dst)
      return failure();
    ValueRange regs = adaptor.getSrc();
    if (std::optional<SmallVector<int64_t>> map = reshapeInRegisters(op, *src, *dst)) {
      SmallVector<Value> values;
      for (int64_t p : *map)
        values.push_back(regs[p]);
      replaceWithRegisters(rewriter, op, values);
      return success();
    }
    Value base = scratchBase(rewriter, op);
    if (!base)
      return failure();
    Location loc = op.getLoc();
    Type element = getTypeConverter()->convertType(srcType.getElementType());
    Type mem = memoryType(element);
    storeTile(rewriter, loc, base, rowMajor(srcType.getShape(), mem), *src, mem, regs);
    nvvm::barrier(rewriter, loc);
    replaceWithRegisters(rewriter, op,
                         loadTile(rewriter, loc, base, rowMajor(dstType.getShape(), mem), *dst, mem,
                                  element));
    return success();
  }
};

} // namespace

int64_t permuteXorScratchBytes(Operation *op) { return scratchOf(cast<PermuteXorOp>(op)); }

int64_t reshapeScratchBytes(Operation *op) {
  auto reshape = cast<ReshapeOp>(op);
  std::optional<Distribution> src = Distribution::get(reshape.getSrc().getType());
  std::optional<Distribution> dst = Distribution::get(reshape.getType());
  if (!src || !dst || reshapeInRegisters(reshape, *src, *dst))
    return 0;
  Type mem = memoryType(reshape.getType().getElementType());
  return reshape.getType().getNumElements() *
         std::max<int64_t>(mem.getIntOrFloatBitWidth() / 8, 1);
}

void populatePermuteLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PermuteXorLowering, ReshapeLowering>(converter, patterns.getContext());
}

} // namespace tcc
