//===- DotLowering.cpp - tile.dot on CUDA cores ---------------------------===//
//
// a (M x K) and b (K x N) are staged in shared memory in f32, a with M contiguous and b
// with N contiguous, and each thread's M (N) coordinates gathered into one range, so that
// for each k a thread reads the rows and columns of its accumulator elements as a few
// vectors; then one FMA per accumulator element and k. Tensor cores come later; this is
// the portable path for every input type.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "dialects/Tile/SharedLayout.h"
#include "compiler/Conversion/SharedMemory.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>
#include <limits>
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

/// How a staged operand orders the accumulator's dimension `dim` (M for a, N for b).
/// When several threads split that dimension, each thread's values are gathered into one
/// contiguous range of the staged tile (position-major, then repetition, then in-thread
/// index), so that a thread reads all of them with the fewest, widest accesses whatever
/// the accumulator's layout; otherwise the dimension is stored as it is.
struct Gather {
  bool permuted = false;
  int64_t cta = 1, spt = 1, perThread = 1; // C, sizePerThread, values per thread

  int64_t apply(int64_t x) const {
    if (!permuted)
      return x;
    return (x % cta) / spt * perThread + x / cta * spt + x % spt;
  }
  Value emit(OpBuilder &b, Location loc, Value x) const {
    if (!permuted)
      return x;
    auto c = [&](int64_t v) { return i32Const(b, loc, v); };
    Value pos = arith::AndIOp::create(b, loc, x, c(cta - 1));
    if (spt > 1)
      pos = arith::ShRUIOp::create(b, loc, pos, c(llvm::Log2_64(spt)));
    pos = arith::ShLIOp::create(b, loc, pos, c(llvm::Log2_64(perThread)));
    Value rep = arith::ShRUIOp::create(b, loc, x, c(llvm::Log2_64(cta)));
    if (spt > 1)
      rep = arith::ShLIOp::create(b, loc, rep, c(llvm::Log2_64(spt)));
    Value result = arith::OrIOp::create(b, loc, pos, rep);
    if (spt > 1)
      result = arith::OrIOp::create(b, loc, result,
                                    arith::AndIOp::create(b, loc, x, c(spt - 1)));
    return result;
  }
  /// Consecutive coordinates stay consecutive in runs of this many.
  int64_t contiguousRun() const { return permuted ? spt : std::numeric_limits<int64_t>::max(); }
};

Gather gatherFor(const Distribution &acc, unsigned dim) {
  int64_t size = acc.getShape()[dim];
  int64_t spt = acc.getRunAlong(dim);
  int64_t threads = int64_t(acc.getDistinctLanes(dim)) * acc.getDistinctWarps(dim);
  int64_t cta = spt * threads;
  Gather g;
  // Runs of 16 bytes or more per thread are read as full-width vectors already; spreading
  // them apart keeps the lanes of a warp on consecutive addresses (fewer bank conflicts).
  if (size < cta || threads == 1 || spt * 4 >= 16)
    return g;
  // The gather is for a blocked accumulator: the threads' bits are the coordinate bits
  // right above the in-thread run.
  SmallVector<unsigned> threadBits;
  for (auto [id, bit] : acc.getLaneBitsAlong(dim))
    threadBits.push_back(bit);
  for (auto [id, bit] : acc.getWarpBitsAlong(dim))
    threadBits.push_back(bit);
  llvm::sort(threadBits);
  for (auto [i, bit] : llvm::enumerate(threadBits))
    if (bit != llvm::Log2_64(spt) + i)
      return g;
  g.permuted = true;
  g.cta = cta;
  g.spt = spt;
  g.perThread = size / cta * spt;
  return g;
}

/// What a thread reads of a staged operand for one k: its distinct coordinates along the
/// accumulator's `dim`, as slots after a per-thread start, in runs of `run`.
struct OperandReads {
  Gather gather;
  int64_t run = 1;
  SmallVector<int64_t> starts;              // slot of each run's first value
  llvm::DenseMap<int64_t, int64_t> slotOf;  // accumulator offset -> slot
};

OperandReads planReads(const Distribution &acc, unsigned dim, int64_t maxWidth) {
  OperandReads reads;
  reads.gather = gatherFor(acc, dim);
  const Gather &g = reads.gather;
  reads.run = std::min<int64_t>(g.permuted ? g.perThread : acc.getRunAlong(dim), maxWidth);
  llvm::SmallSetVector<int64_t, 16> starts;
  for (int64_t r = 0; r < acc.getNumRegs(); ++r) {
    int64_t offset = acc.getRegOffset(r, dim);
    // Gathered: the thread's values are slots 0.. of its range; else plain offsets.
    int64_t slot = g.permuted ? offset / g.cta * g.spt + offset % g.spt : offset;
    reads.slotOf[offset] = slot;
    starts.insert(slot - slot % reads.run);
  }
  reads.starts.assign(starts.begin(), starts.end());
  llvm::sort(reads.starts);
  return reads;
}

/// Where a thread's reads start (the slot origin), at compile time for simulation...
int64_t readOrigin(const Distribution &acc, unsigned dim, const Gather &g, unsigned lane,
                   unsigned warp) {
  int64_t base = acc.getThreadBase(dim, lane, warp);
  return g.permuted ? base / g.spt * g.perThread : base;
}

/// ...and at run time.
Value emitReadOrigin(OpBuilder &b, Location loc, const Distribution &acc, unsigned dim,
                     const Gather &g) {
  if (!g.permuted)
    return emitThreadBase(b, loc, acc, dim);
  Value position = emitThreadPosition(b, loc, acc, dim);
  return arith::ShLIOp::create(b, loc, position, i32Const(b, loc, llvm::Log2_64(g.perThread)));
}

/// Coordinates (in the operand's dimensions) of a point of the reduction dimension k and
/// a staged position along the other one.
SmallVector<int64_t> operandCoords(unsigned accDim, int64_t staged, int64_t k) {
  return accDim == 0 ? SmallVector<int64_t>{staged, k} : SmallVector<int64_t>{k, staged};
}

/// Warp 0 reading, at k = 0, the operand values of its accumulator elements (once per
/// k: `repeat` = K).
WarpAccesses readAccesses(const Distribution &acc, unsigned accDim, int64_t maxWidth,
                          int64_t repeat) {
  OperandReads reads = planReads(acc, accDim, maxWidth);
  WarpAccesses accesses;
  accesses.width = reads.run;
  accesses.repeat = repeat;
  for (int64_t start : reads.starts) {
    std::vector<std::optional<SmallVector<int64_t>>> lanes;
    for (unsigned lane = 0; lane < 32; ++lane)
      lanes.push_back(
          operandCoords(accDim, readOrigin(acc, accDim, reads.gather, lane, 0) + start, 0));
    accesses.instructions.push_back(std::move(lanes));
  }
  return accesses;
}

/// Vector width of an operand's stores: along the staged rows, kept within gathered runs.
unsigned stageWidth(const Distribution &dist, unsigned rowDim, const Gather &g,
                    unsigned maxWidth) {
  return std::min<int64_t>(accessWidth(dist, rowDim, maxWidth), g.contiguousRun());
}

/// Warp 0 storing all registers of an operand into the staged tile.
WarpAccesses stageAccesses(const Distribution &dist, unsigned rowDim, const Gather &g,
                           unsigned maxWidth) {
  WarpAccesses accesses;
  accesses.width = stageWidth(dist, rowDim, g, maxWidth);
  for (int64_t reg = 0; reg < dist.getNumRegs(); reg += accesses.width) {
    std::vector<std::optional<SmallVector<int64_t>>> lanes;
    for (unsigned lane = 0; lane < 32; ++lane) {
      SmallVector<int64_t> coords;
      for (unsigned d = 0; d < 2; ++d)
        coords.push_back(dist.getThreadBase(d, lane, 0) + dist.getRegOffset(reg, d));
      coords[rowDim] = g.apply(coords[rowDim]);
      lanes.push_back(coords);
    }
    accesses.instructions.push_back(std::move(lanes));
  }
  return accesses;
}

/// Operands are staged in f32 (converted once when stored, not once per use).
constexpr unsigned kStagedBytes = 4;

struct DotPlan {
  Distribution a, b, acc;
  Gather aGather, bGather; // along M (a's dim 0) and N (b's dim 1)
  SharedLayout aLayout, bLayout;
  int64_t bOffsetBytes; // where b starts in the scratch buffer

  int64_t bytes() const { return bOffsetBytes + bLayout.sizeInElements() * kStagedBytes; }
};

std::optional<DotPlan> planDot(DotOp op) {
  std::optional<Distribution> a = Distribution::get(op.getA().getType());
  std::optional<Distribution> b = Distribution::get(op.getB().getType());
  std::optional<Distribution> acc = Distribution::get(op.getAcc().getType());
  if (!a || !b || !acc)
    return std::nullopt;
  DotPlan plan{*a, *b, *acc, gatherFor(*acc, 0), gatherFor(*acc, 1), {}, {}, 0};
  int64_t K = op.getA().getType().getDimSize(1);
  // a: rows along M (order [0, 1]); b: rows along N (order [1, 0]).
  plan.aLayout = chooseSharedLayout(
      op.getA().getType().getShape(), {SmallVector<unsigned>{0, 1}}, kStagedBytes,
      [&](ArrayRef<unsigned>, unsigned maxWidth) {
        return std::vector<WarpAccesses>{stageAccesses(*a, 0, plan.aGather, maxWidth),
                                         readAccesses(*acc, 0, maxWidth, K)};
      });
  plan.bLayout = chooseSharedLayout(
      op.getB().getType().getShape(), {SmallVector<unsigned>{1, 0}}, kStagedBytes,
      [&](ArrayRef<unsigned>, unsigned maxWidth) {
        return std::vector<WarpAccesses>{stageAccesses(*b, 1, plan.bGather, maxWidth),
                                         readAccesses(*acc, 1, maxWidth, K)};
      });
  plan.bOffsetBytes = llvm::alignTo(plan.aLayout.sizeInElements() * kStagedBytes, 16);
  return plan;
}

/// Stores all registers of an operand, in f32, into its staged layout.
void stageOperand(OpBuilder &b, Location loc, Value base, const Distribution &dist,
                  unsigned rowDim, const Gather &gather, const SharedLayout &layout,
                  ValueRange regs) {
  Type f32 = b.getF32Type();
  SmallVector<Value> bases;
  for (unsigned d = 0; d < dist.getRank(); ++d)
    bases.push_back(emitThreadBase(b, loc, dist, d));
  unsigned width = stageWidth(dist, rowDim, gather, layout.vec);
  // Registers whose staged offset is another's plus a constant for every thread reuse
  // that one's address (an immediate offset) instead of computing their own.
  int64_t numAccesses = llvm::divideCeil(dist.getNumRegs(), width);
  SmallVector<OffsetReuse> reuse = planOffsetReuse(
      layout, numAccesses, dist.getNumWarps(), [&](int64_t access, unsigned lane, unsigned warp) {
        SmallVector<int64_t> coords;
        for (unsigned d = 0; d < dist.getRank(); ++d)
          coords.push_back(dist.getThreadBase(d, lane, warp) +
                           dist.getRegOffset(access * width, d));
        coords[rowDim] = gather.apply(coords[rowDim]);
        return coords;
      });
  SmallVector<Value> ptrs;
  for (int64_t reg = 0; reg < dist.getNumRegs(); reg += width) {
    const OffsetReuse &r = reuse[reg / width];
    Value ptr;
    if (r.ref != reg / width) {
      ptr = sharedElementPtr(b, loc, ptrs[r.ref], f32, i32Const(b, loc, r.delta));
    } else {
      SmallVector<Value> coords;
      for (unsigned d = 0; d < dist.getRank(); ++d) {
        int64_t offset = dist.getRegOffset(reg, d);
        coords.push_back(offset ? arith::AddIOp::create(b, loc, bases[d], i32Const(b, loc, offset))
                                      .getResult()
                                : bases[d]);
      }
      coords[rowDim] = gather.emit(b, loc, coords[rowDim]);
      ptr = sharedElementPtr(b, loc, base, f32, layout.emitOffset(b, loc, coords));
    }
    ptrs.push_back(ptr);
    SmallVector<Value> values;
    for (Value v : regs.slice(reg, width))
      values.push_back(v.getType().isF32() ? v : arith::ExtFOp::create(b, loc, f32, v).getResult());
    storeShared(b, loc, ptr, values);
  }
}

struct DotLowering : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (isa_and_nonnull<MmaEncodingAttr>(op.getType().getEncoding()))
      return rewriter.notifyMatchFailure(op, "a tensor-core dot");
    std::optional<DotPlan> plan = planDot(op);
    if (!plan)
      return op.emitOpError() << "operands without distribution layouts";
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    int64_t K = op.getA().getType().getDimSize(1);

    Value base = scratchBase(rewriter, op);
    if (!base)
      return failure();
    Value bBase = sharedElementPtr(rewriter, loc, base, rewriter.getI8Type(),
                                   i32Const(rewriter, loc, plan->bOffsetBytes));
    stageOperand(rewriter, loc, base, plan->a, 0, plan->aGather, plan->aLayout, adaptor.getA());
    stageOperand(rewriter, loc, bBase, plan->b, 1, plan->bGather, plan->bLayout, adaptor.getB());
    nvvm::barrier(rewriter, loc);

    const Distribution &acc = plan->acc;
    OperandReads rows = planReads(acc, 0, plan->aLayout.vec);
    OperandReads cols = planReads(acc, 1, plan->bLayout.vec);
    Value rowOrigin = emitReadOrigin(rewriter, loc, acc, 0, rows.gather);
    Value colOrigin = emitReadOrigin(rewriter, loc, acc, 1, cols.gather);

    // acc += a[:, k] * b[k, :] for one k, on the accumulator registers `values`.
    auto step = [&](OpBuilder &b, Value k, SmallVector<Value> &values) {
      auto readRuns = [&](const OperandReads &reads, Value origin, Value stagedBase,
                          const SharedLayout &layout, unsigned accDim) {
        llvm::DenseMap<int64_t, Value> bySlot;
        for (int64_t start : reads.starts) {
          Value staged = start ? arith::AddIOp::create(b, loc, origin, i32Const(b, loc, start))
                                     .getResult()
                               : origin;
          SmallVector<Value> coords = accDim == 0 ? SmallVector<Value>{staged, k}
                                                  : SmallVector<Value>{k, staged};
          Value ptr = sharedElementPtr(b, loc, stagedBase, f32, layout.emitOffset(b, loc, coords));
          SmallVector<Value> loaded = loadShared(b, loc, ptr, f32, reads.run);
          for (int64_t i = 0; i < reads.run; ++i)
            bySlot[start + i] = loaded[i];
        }
        return bySlot;
      };
      llvm::DenseMap<int64_t, Value> aValues = readRuns(rows, rowOrigin, base, plan->aLayout, 0);
      llvm::DenseMap<int64_t, Value> bValues = readRuns(cols, colOrigin, bBase, plan->bLayout, 1);
      for (int64_t q = 0; q < acc.getNumRegs(); ++q)
        values[q] = math::FmaOp::create(b, loc, aValues[rows.slotOf[acc.getRegOffset(q, 0)]],
                                        bValues[cols.slotOf[acc.getRegOffset(q, 1)]], values[q]);
    };

    SmallVector<Value> values = llvm::to_vector(adaptor.getAcc());
    // Small K: unrolled here; larger: a loop over chunks of kUnroll, unrolled inside,
    // as many as keep the operand values of a chunk within ~32 registers (beside the
    // accumulators). With a block of accumulators per thread a chunk is already hundreds
    // of FMAs: unrolling further buys no overlap (ptxas schedules the next k's loads
    // among this k's FMAs either way) but costs registers and compile time (ptxas time
    // grows with the body: a 128x128 tile compiles 40 % faster with 2 k per chunk than 8).
    int64_t valuesPerK = int64_t(rows.slotOf.size() + cols.slotOf.size());
    int64_t kUnroll = std::clamp<int64_t>(
        int64_t(llvm::bit_floor(uint64_t(std::max<int64_t>(1, 32 / valuesPerK)))), 1, 8);
    if (K <= 16 && K * valuesPerK <= 256) {
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
};

} // namespace

int64_t dotScratchBytes(Operation *op) {
  std::optional<DotPlan> plan = planDot(cast<DotOp>(op));
  return plan ? plan->bytes() : 0;
}

void populateDotLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, patterns.getContext());
}

} // namespace tcc
