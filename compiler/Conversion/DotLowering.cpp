//===- DotLowering.cpp - tile.dot on CUDA cores ---------------------------===//
//
// a (M x K) and b (K x N) are staged in shared memory, a with M contiguous and b with N
// contiguous, so that for each k a thread reads the rows and columns of its accumulator
// elements as vectors; then one FMA per accumulator element and k, in f32. Tensor cores
// come later; this is the portable path for every input type.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/SharedLayout.h"
#include "compiler/Conversion/SharedMemory.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

/// The accumulator's distinct offsets along one dimension, in runs read by one access.
struct OperandReads {
  SmallVector<int64_t> starts; // first offset of each run
  int64_t run = 1;             // elements per run
};

OperandReads accumulatorReads(const Distribution &acc, unsigned dim, int64_t maxWidth) {
  OperandReads reads;
  reads.run = std::min<int64_t>(acc.getRunAlong(dim), maxWidth);
  llvm::SmallSetVector<int64_t, 16> starts;
  for (int64_t r = 0; r < acc.getNumRegs(); ++r) {
    int64_t offset = acc.getRegOffset(r, dim);
    starts.insert(offset - offset % reads.run);
  }
  reads.starts.assign(starts.begin(), starts.end());
  llvm::sort(reads.starts);
  return reads;
}

/// Warp 0 reading, at k = 0, the operand rows (dim 0 of acc for a) or columns (dim 1 for
/// b) of its accumulator elements; coordinates in the operand's own dimensions.
WarpAccesses operandReadAccesses(const Distribution &acc, unsigned accDim, int64_t maxWidth) {
  OperandReads reads = accumulatorReads(acc, accDim, maxWidth);
  WarpAccesses accesses;
  accesses.width = reads.run;
  for (int64_t start : reads.starts) {
    std::vector<std::optional<SmallVector<int64_t>>> lanes;
    for (unsigned lane = 0; lane < 32; ++lane) {
      int64_t coord = acc.getThreadBase(accDim, lane, 0) + start;
      lanes.push_back(accDim == 0 ? SmallVector<int64_t>{coord, 0} : SmallVector<int64_t>{0, coord});
    }
    accesses.instructions.push_back(std::move(lanes));
  }
  return accesses;
}

struct DotPlan {
  Distribution a, b, acc;
  SharedLayout aLayout, bLayout;
  unsigned elementBytes;
  int64_t bOffsetBytes; // where b starts in the scratch buffer

  int64_t bytes() const { return bOffsetBytes + bLayout.sizeInElements() * elementBytes; }
};

std::optional<DotPlan> planDot(DotOp op) {
  std::optional<Distribution> a = Distribution::get(op.getA().getType());
  std::optional<Distribution> b = Distribution::get(op.getB().getType());
  std::optional<Distribution> acc = Distribution::get(op.getAcc().getType());
  if (!a || !b || !acc)
    return std::nullopt;
  unsigned elementBytes = op.getA().getType().getElementTypeBitWidth() / 8;
  DotPlan plan{*a, *b, *acc, {}, {}, elementBytes, 0};
  // a: rows of M (order [0, 1]); b: rows of N (order [1, 0]).
  plan.aLayout = chooseSharedLayout(
      op.getA().getType().getShape(), {SmallVector<unsigned>{0, 1}}, elementBytes,
      [&](ArrayRef<unsigned>, unsigned maxWidth) {
        return std::vector<WarpAccesses>{distributionAccesses(*a, 0, maxWidth),
                                         operandReadAccesses(*acc, 0, maxWidth)};
      });
  plan.bLayout = chooseSharedLayout(
      op.getB().getType().getShape(), {SmallVector<unsigned>{1, 0}}, elementBytes,
      [&](ArrayRef<unsigned>, unsigned maxWidth) {
        return std::vector<WarpAccesses>{distributionAccesses(*b, 1, maxWidth),
                                         operandReadAccesses(*acc, 1, maxWidth)};
      });
  plan.bOffsetBytes = llvm::alignTo(plan.aLayout.sizeInElements() * elementBytes, 16);
  return plan;
}

/// Stores all registers of an operand into its staged layout.
void stageOperand(OpBuilder &b, Location loc, Value base, const Distribution &dist,
                  const SharedLayout &layout, ValueRange regs, Type memType) {
  SmallVector<Value> bases;
  for (unsigned d = 0; d < dist.getRank(); ++d)
    bases.push_back(emitThreadBase(b, loc, dist, d));
  unsigned width = accessWidth(dist, layout.order[0], layout.vec);
  for (int64_t reg = 0; reg < dist.getNumRegs(); reg += width) {
    SmallVector<Value> coords;
    for (unsigned d = 0; d < dist.getRank(); ++d) {
      int64_t offset = dist.getRegOffset(reg, d);
      coords.push_back(offset ? arith::AddIOp::create(b, loc, bases[d], i32Const(b, loc, offset))
                                    .getResult()
                              : bases[d]);
    }
    Value ptr = sharedElementPtr(b, loc, base, memType, layout.emitOffset(b, loc, coords));
    storeShared(b, loc, ptr, llvm::to_vector(regs.slice(reg, width)));
  }
}

struct DotLowering : OpConversionPattern<DotOp> {
  DotLowering(TypeConverter &converter, MLIRContext *ctx, const SharedMemoryPlan &plan)
      : OpConversionPattern(converter, ctx), memoryPlan(plan) {}

  LogicalResult matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<DotPlan> plan = planDot(op);
    if (!plan)
      return op.emitOpError() << "operands without distribution layouts";
    Location loc = op.getLoc();
    Type memType = op.getA().getType().getElementType();
    Type f32 = rewriter.getF32Type();
    int64_t K = op.getA().getType().getDimSize(1);

    Value base = sharedBase(rewriter, loc);
    Value bBase = sharedElementPtr(rewriter, loc, base, rewriter.getI8Type(),
                                   i32Const(rewriter, loc, plan->bOffsetBytes));
    if (memoryPlan.needsLeadingBarrier(op))
      nvvm::barrier(rewriter, loc);
    stageOperand(rewriter, loc, base, plan->a, plan->aLayout, adaptor.getA(), memType);
    stageOperand(rewriter, loc, bBase, plan->b, plan->bLayout, adaptor.getB(), memType);
    nvvm::barrier(rewriter, loc);

    const Distribution &acc = plan->acc;
    OperandReads rows = accumulatorReads(acc, 0, plan->aLayout.vec);
    OperandReads cols = accumulatorReads(acc, 1, plan->bLayout.vec);
    Value mBase = emitThreadBase(rewriter, loc, acc, 0);
    Value nBase = emitThreadBase(rewriter, loc, acc, 1);

    // acc += a[:, k] * b[k, :] for one k, on the accumulator registers `values`.
    auto step = [&](OpBuilder &b, Value k, SmallVector<Value> &values) {
      llvm::DenseMap<int64_t, Value> aValues, bValues;
      auto readRuns = [&](const OperandReads &reads, Value threadBase, Value stagedBase,
                          const SharedLayout &layout, bool isA,
                          llvm::DenseMap<int64_t, Value> &out) {
        for (int64_t start : reads.starts) {
          Value coord = start ? arith::AddIOp::create(b, loc, threadBase, i32Const(b, loc, start))
                                    .getResult()
                              : threadBase;
          SmallVector<Value> coords = isA ? SmallVector<Value>{coord, k}
                                          : SmallVector<Value>{k, coord};
          Value ptr = sharedElementPtr(b, loc, stagedBase, memType,
                                       layout.emitOffset(b, loc, coords));
          SmallVector<Value> loaded = loadShared(b, loc, ptr, memType, reads.run);
          for (int64_t i = 0; i < reads.run; ++i) {
            Value v = loaded[i];
            if (!memType.isF32())
              v = arith::ExtFOp::create(b, loc, f32, v);
            out[start + i] = v;
          }
        }
      };
      readRuns(rows, mBase, base, plan->aLayout, true, aValues);
      readRuns(cols, nBase, bBase, plan->bLayout, false, bValues);
      for (int64_t q = 0; q < acc.getNumRegs(); ++q)
        values[q] = math::FmaOp::create(b, loc, aValues[acc.getRegOffset(q, 0)],
                                        bValues[acc.getRegOffset(q, 1)], values[q]);
    };

    SmallVector<Value> values = llvm::to_vector(adaptor.getAcc());
    // Small K: unrolled here; larger: a loop over chunks of kUnroll, unrolled inside.
    constexpr int64_t kUnroll = 8;
    if (K <= 2 * kUnroll) {
      for (int64_t k = 0; k < K; ++k)
        step(rewriter, i32Const(rewriter, loc, k), values);
    } else {
      auto loop = scf::ForOp::create(
          rewriter, loc, i32Const(rewriter, loc, 0), i32Const(rewriter, loc, K),
          i32Const(rewriter, loc, kUnroll), values,
          [&](OpBuilder &b, Location, Value k0, ValueRange iterArgs) {
            SmallVector<Value> inner(iterArgs);
            for (int64_t u = 0; u < kUnroll; ++u) {
              Value k = u ? arith::AddIOp::create(b, loc, k0, i32Const(b, loc, u)).getResult() : k0;
              step(b, k, inner);
            }
            scf::YieldOp::create(b, loc, inner);
          });
      values.assign(loop.getResults().begin(), loop.getResults().end());
    }
    replaceWithRegisters(rewriter, op, values);
    return success();
  }

  const SharedMemoryPlan &memoryPlan;
};

} // namespace

int64_t dotScratchBytes(Operation *op) {
  std::optional<DotPlan> plan = planDot(cast<DotOp>(op));
  return plan ? plan->bytes() : 0;
}

void populateDotLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns,
                                 const SharedMemoryPlan &plan) {
  patterns.add<DotLowering>(converter, patterns.getContext(), plan);
}

} // namespace tcc
