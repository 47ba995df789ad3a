//===- Prefetch.cpp - tile-prefetch ---------------------------------------===//
//
// A loop without a tensor-core dot that loads a tile every iteration (a persistent kernel
// walking rows, `for row in range(pid, n_rows, num_programs(0))`) waits for global memory
// at the top of each iteration. Prefetched, the loads of later iterations are issued
// before they are needed, so that their latency hides behind this iteration's
// computation. Where a thread holds at most 16 of a load's elements, the load of
// iteration i + 1 is issued at the top of iteration i, into registers carried to the
// next iteration:
//
//   x0 = load(p(lb), mask(lb) & lb < ub)
//   for iv = lb to ub step s iter_args(x = x0):
//     xn = load(p(iv + s), mask(iv + s) & iv + s < ub)     // the next iteration's
//     ... uses of the load read x ...
//     yield xn
//
// Beyond 16 elements a prefetched copy in registers costs occupancy more than the overlap
// gains (measured on the H200, docs/lowering.md); such a load is staged through shared
// memory instead, as Triton's pipeliner does: a ring of S = num_stages tiles, the copies
// of iteration i + S started with cp.async at the end of iteration i, into the slot it
// read, so that S rows are in flight while one is computed on:
//
//   ring = local_alloc : !tile.smem<S x shape>
//   copies of iterations 0 .. S-1 into slots 0 .. S-1, one commit group each
//   for iv = lb to ub step s:
//     async_wait {pending = S - 1}                       // iteration i's group landed
//     x = local_load ring[i mod S]   (select(mask, x, other) where other is not zero)
//     ... uses of the load read x ...
//     copies of iteration i + S into slot i mod S, masked off past the end; commit
//   async_wait {pending = 0}
//
// Each thread copies and reads back the elements it holds in the load's layout (a layout
// without replicas, so no two threads write one element); tile-allocate-shared places the
// ring, the barrier after the wait and, where the body has none between the reads and the
// copies, one before the copies. S shrinks to what the target's shared memory holds
// beside the loop's scratch buffers; below 2 the load stays as it is. cp.async moves 4, 8
// or 16 bytes: the load's vector width must be one of those (sm_80 and later).
//
// A load qualifies when its pointers, mask and `other` are computed inside the loop body
// from the induction variable and values defined outside it only, no store in the loop
// writes through a pointer derived from the same kernel argument (the reordered load must
// not read what an earlier iteration writes), and, in registers, it has a mask (the extra
// load past the end must be masked off). Loops with a dot are tile-pipeline's (cp.async
// rings for the dot's operands). Prefetching is on where the loop's num_stages
// (range(..., num_stages=), else the kernel's, else the option) is at least 2, and either
// the loop has its own num_stages or its step is not a compile-time constant. A runtime
// step is a grid-stride loop (`range(program_id(0), n_rows, num_programs(0))`), whose
// trip count is the rows per program. A constant step walks a row or a column in
// tile-sized chunks, often once (BLOCK = next_power_of_2(N), as Triton's tutorials pick
// it), where a copy ahead hides nothing and costs occupancy: tutorial 05's layer norm on
// rows of 15872 took 163 registers and 96 KiB of ring against 128 registers without, one
// program per SM instead of two, and ran at 0.56 of Triton, which pipelines a loop without
// a dot only where the loop asks for it too (tl.range(..., num_stages=)).
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/PointerOrigin.h"
#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/LoopSlice.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/Distribution.h"
#include "dialects/Tile/SharedLayout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_TILEPREFETCH
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The most elements per thread a prefetched load may hold (see qualifies).
constexpr int64_t kMaxRegistersPerThread = 16;

/// How a qualifying load is prefetched.
enum class Staging { None, Registers, Shared };

/// Elements a thread holds of `type` (as if spread over one warp of `threadsPerWarp`
/// without a layout).
int64_t registersPerThread(RankedTensorType type, unsigned threadsPerWarp) {
  if (std::optional<Distribution> dist = Distribution::get(type))
    return dist->getNumRegs();
  return llvm::divideCeil(type.getNumElements(), int64_t(threadsPerWarp));
}

/// Erases the ops of `slice` (ops of one block) left without uses, each user before the
/// definitions it uses, so that a chain of them goes at once.
void eraseUnused(llvm::SetVector<Operation *> &slice) {
  SmallVector<Operation *> dead = slice.takeVector();
  llvm::sort(dead, [](Operation *x, Operation *y) { return y->isBeforeInBlock(x); });
  for (Operation *op : dead)
    if (op->use_empty())
      op->erase();
}

class Prefetcher {
public:
  Prefetcher(scf::ForOp loop, unsigned stages) : loop(loop), stages(stages) {}

  void run() {
    bool hasDot = false;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<DotOp, WarpGroupDotOp, LocalAllocOp, LocalLoadOp, AsyncCopyOp>(op))
        hasDot = true;
    });
    if (hasDot)
      return;
    // What the loop's stores write through: their kernel arguments (null: unknown).
    SmallVector<Value> written;
    loop.getBody()->walk([&](Operation *op) {
      if (auto store = dyn_cast<StoreOp>(op))
        written.push_back(tcc::pointerArgument(store.getPtr()));
      else if (!isa<LoadOp>(op) && !isPure(op) && op->getNumRegions() == 0 &&
               !isa<scf::YieldOp>(op))
        written.push_back(Value()); // atomics, prints, ...: assume anything
    });
    SmallVector<LoadOp> inRegisters, inShared;
    for (Operation &op : *loop.getBody())
      if (auto load = dyn_cast<LoadOp>(&op)) {
        Staging staging = qualifies(load, written);
        if (staging == Staging::Registers)
          inRegisters.push_back(load);
        else if (staging == Staging::Shared)
          inShared.push_back(load);
      }
    // Shared first: it keeps the loop op, which the register prefetch replaces.
    if (!inShared.empty())
      stageInShared(inShared);
    for (LoadOp load : inRegisters)
      prefetch(load);
  }

private:
  scf::ForOp loop;
  unsigned stages;

  /// The ops computing `v` inside the loop body from the induction variable and values
  /// from outside; false if it needs a loop-carried value or an op with effects.
  bool sliceOf(Value v, llvm::SetVector<Operation *> &ops) {
    return tcc::loopSliceOf(loop, v, ops,
                            [&](BlockArgument arg) { return arg == loop.getInductionVar(); });
  }

  /// The ops computing the pointers and mask of `load` (and `other`, with `withOther`)
  /// for induction variable `iv`, cloned in program order at `b`; the mapping from the
  /// originals to the clones.
  IRMapping cloneAddress(OpBuilder &b, LoadOp load, Value iv, bool withOther) {
    llvm::SetVector<Operation *> ops;
    sliceOf(load.getPtr(), ops);
    if (load.getMask())
      sliceOf(load.getMask(), ops);
    if (withOther && load.getOther())
      sliceOf(load.getOther(), ops);
    SmallVector<Operation *> ordered = ops.takeVector();
    llvm::sort(ordered, [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), iv);
    for (Operation *op : ordered)
      b.clone(*op, mapping);
    return mapping;
  }

  /// The ops computing a load's pointers, mask and `other` in the body.
  bool addressSlice(LoadOp load, llvm::SetVector<Operation *> &ops) {
    return sliceOf(load.getPtr(), ops) && (!load.getMask() || sliceOf(load.getMask(), ops)) &&
           (!load.getOther() || sliceOf(load.getOther(), ops));
  }

  Staging qualifies(LoadOp load, ArrayRef<Value> written) {
    // A scalar load (one element, in every thread) is not worth a ring: left as it is.
    if (!isa<RankedTensorType>(load.getType()))
      return Staging::None;
    Value base = tcc::pointerArgument(load.getPtr());
    if (!base || llvm::any_of(written, [&](Value w) { return !w || w == base; }))
      return Staging::None;
    llvm::SetVector<Operation *> ops;
    if (!addressSlice(load, ops))
      return Staging::None;
    // The prefetched tile lives in registers beside the one being computed on: worth it
    // while a thread holds a few of its elements, not where doubling them would cost
    // occupancy (a 16384-element row on 512 threads holds 32 per thread).
    auto type = cast<RankedTensorType>(load.getType());
    if (registersPerThread(type, tile::getThreadsPerWarp(load)) <= kMaxRegistersPerThread)
      return load.getMask() ? Staging::Registers : Staging::None;
    return canStageInShared(load) ? Staging::Shared : Staging::None;
  }

  /// cp.async exists (sm_80 on), each thread's copies are 4, 8 or 16 bytes along the
  /// layout's contiguous dimension, and no two threads hold the same element.
  bool canStageInShared(LoadOp load) {
    auto type = cast<RankedTensorType>(load.getType());
    std::optional<Distribution> dist = Distribution::get(type);
    if (!dist || dist->hasReplicas() || !getTarget(loop).hasMmaSync() ||
        !loop.getLowerBound().getType().isInteger(32) || !type.getElementType().isIntOrFloat())
      return false;
    int64_t vec = copyWidth(load);
    int64_t bytes = vec * type.getElementTypeBitWidth() / 8;
    if (bytes != 4 && bytes != 8 && bytes != 16)
      return false;
    return vec == 1 || dist->getContigRun() >= vec;
  }

  static int64_t copyWidth(LoadOp load) {
    return int64_t(getVectorWidth(load));
  }

  //===--------------------------------------------------------------------===//
  // Through shared memory: cp.async rings
  //===--------------------------------------------------------------------===//

  /// The swizzle of the ring's tiles that spreads the threads' copies (and the reads
  /// back, the same accesses) over the banks best, by the bank-conflict simulation.
  NVMMASharedEncodingAttr ringEncoding(LoadOp load) {
    auto type = cast<RankedTensorType>(load.getType());
    Distribution dist = *Distribution::get(type);
    unsigned contig = dist.getContigDim();
    SmallVector<unsigned> order{contig};
    for (unsigned d : dist.getTileOrder())
      if (d != contig)
        order.push_back(d);
    unsigned elementBytes = std::max(1u, type.getElementTypeBitWidth() / 8);
    int64_t rowBytes = type.getShape()[contig] * elementBytes;
    WarpAccesses accesses =
        distributionAccesses(dist, contig, unsigned(std::max<int64_t>(1, copyWidth(load))));
    NVMMASharedEncodingAttr best;
    int64_t bestCost = -1;
    for (unsigned swizzle : {0u, 32u, 64u, 128u}) {
      if (swizzle && (rowBytes % swizzle || type.getRank() == 1))
        continue;
      auto encoding = NVMMASharedEncodingAttr::get(loop.getContext(), swizzle, order);
      auto memType = SharedMemType::get(loop.getContext(), type.getShape(),
                                        type.getElementType(), encoding);
      int64_t cost = countWavefronts(getSharedLayout(memType), accesses, elementBytes);
      if (bestCost < 0 || cost < bestCost) {
        best = encoding;
        bestCost = cost;
      }
    }
    return best;
  }

  /// Shared memory the function may need while the loop runs, besides the rings: its
  /// other buffers, and (at most one at a time) the scratch of a conversion through
  /// shared memory or of a reduction across warps in the loop. An upper bound: the
  /// padding a conversion adds stays below its tile's size, a reduction keeps at most
  /// one value and one index (8 + 4 bytes) per warp and result element.
  int64_t sharedReserve() {
    int64_t buffers = 0, scratch = 0;
    auto func = loop->getParentOfType<func::FuncOp>();
    func.walk([&](LocalAllocOp alloc) { buffers += alloc.getType().getBytes(); });
    unsigned warps = tcc::getNumWarps(func);
    loop.getBody()->walk([&](Operation *op) {
      auto tileBytes = [](Type t) {
        auto type = cast<RankedTensorType>(t);
        return type.getNumElements() * std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      };
      if (auto convert = dyn_cast<ConvertLayoutOp>(op))
        scratch = std::max(scratch, 2 * tileBytes(convert.getType()));
      else if (auto reduce = dyn_cast<ReduceOp>(op)) {
        auto result = dyn_cast<RankedTensorType>(reduce.getResult().getType());
        int64_t elements = result ? result.getNumElements() : 1;
        scratch = std::max(scratch, int64_t(warps) * elements * 12 + 16);
      }
    });
    return buffers + scratch + 1024; // alignment of the rings
  }

  void stageInShared(ArrayRef<LoadOp> loads) {
    Location loc = loop.getLoc();
    MLIRContext *ctx = loop.getContext();
    SmallVector<SharedMemType> tiles;
    int64_t bytesPerStage = 0;
    for (LoadOp load : loads) {
      auto type = cast<RankedTensorType>(load.getType());
      tiles.push_back(SharedMemType::get(ctx, type.getShape(), type.getElementType(),
                                         ringEncoding(load)));
      bytesPerStage += tiles.back().getTileBytes();
    }
    int64_t budget = getTarget(loop).getMaxSharedBytes() - sharedReserve();
    int64_t slots = std::min<int64_t>(stages, budget > 0 ? budget / bytesPerStage : 0);
    if (slots < 2)
      return; // not even two rows fit: leave the loads as they are
    // The tile read back goes to registers at once, so its slot can take the copies of
    // iteration i + S in the same iteration: all S slots are in flight. The copies go at
    // the end of the body, where the reads of the slot are behind the barriers the
    // iteration has anyway (a reduction's; tile-allocate-shared adds one where there is
    // none). A dot's ring, read by the tensor cores while the next copies run, keeps one
    // slot out instead (tile-pipeline).
    int64_t distance = slots;

    OpBuilder b(loop);
    auto i32 = [&](OpBuilder &at, int64_t v) -> Value {
      return arith::ConstantIntOp::create(at, loc, at.getI32Type(), v);
    };
    SmallVector<Value> rings;
    for (SharedMemType tile : tiles) {
      SmallVector<int64_t> shape{slots};
      shape.append(tile.getShape().begin(), tile.getShape().end());
      rings.push_back(LocalAllocOp::create(
          b, loc, SharedMemType::get(ctx, shape, tile.getElementType(), tile.getEncoding()),
          Value(), IntegerAttr()));
    }
    // The copies of iteration `iv` (valid when `valid`) into slot `slot`, one group.
    auto issueCopies = [&](OpBuilder &at, Value iv, Value valid, Value slot) {
      for (auto [index, ring] : llvm::enumerate(rings)) {
        LoadOp load = loads[index];
        SharedMemType tile = tiles[index];
        IRMapping mapping = cloneAddress(at, load, iv, /*withOther=*/false);
        Value ptr = mapping.lookupOrDefault(load.getPtr());
        Value mask = SplatOp::create(at, loc, getI1SameShape(ptr.getType()), valid);
        if (Value original = load.getMask())
          mask = arith::AndIOp::create(at, loc, mapping.lookupOrDefault(original), mask);
        Value dst = MemDescIndexOp::create(at, loc, tile, ring, slot);
        AsyncCopyOp::create(at, loc, ptr, dst, mask, int32_t(copyWidth(load)));
      }
      AsyncCommitOp::create(at, loc);
    };

    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), step = loop.getStep();
    for (int64_t j = 0; j < distance; ++j) {
      Value iv = j ? arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, step, i32(b, j)))
                         .getResult()
                   : lb;
      Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub);
      issueCopies(b, iv, valid, i32(b, j));
    }

    // The slot of this iteration, carried through the loop (0, 1, .., S-1, 0, ..): a
    // compare and a select per iteration where (iv - lb) / step mod S would divide.
    IRRewriter rewriter(loop.getContext());
    auto grown = loop.replaceWithAdditionalYields(
        rewriter, ValueRange{i32(b, 0)}, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> newArgs) -> SmallVector<Value> {
          return {newArgs.back()};
        });
    if (failed(grown))
      return;
    loop = cast<scf::ForOp>(grown->getOperation());
    Value readSlot = loop.getRegionIterArgs().back();
    {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      OpBuilder at(yield);
      Value next = arith::AddIOp::create(at, loc, readSlot, i32(at, 1));
      Value wraps = arith::CmpIOp::create(at, loc, arith::CmpIPredicate::eq, next, i32(at, slots));
      yield->setOperand(yield.getNumOperands() - 1,
                        arith::SelectOp::create(at, loc, wraps, i32(at, 0), next));
    }

    // In the body: the wait before the first of the loads, each read back where it was.
    OpBuilder in(loads.front());
    Value k = loop.getInductionVar();
    AsyncWaitOp::create(in, loc, int32_t(distance - 1));
    for (auto [i, ring] : llvm::enumerate(rings)) {
      LoadOp load = loads[i];
      SharedMemType tile = tiles[i];
      OpBuilder at(load);
      Value slot = MemDescIndexOp::create(at, load.getLoc(), tile, ring, readSlot);
      Value value = LocalLoadOp::create(at, load.getLoc(), load.getType(), slot);
      // Masked-off elements were zero-filled.
      if (load.getMask() && !tcc::isZeroOrAbsent(load.getOther()))
        value = arith::SelectOp::create(at, load.getLoc(), load.getMask(), value,
                                        load.getOther());
      load.getResult().replaceAllUsesWith(value);
    }
    // The copies of iteration i + S into the slot read in this iteration, at its end.
    OpBuilder after(loop.getBody()->getTerminator());
    Value ahead = arith::AddIOp::create(after, loc, k,
                                        arith::MulIOp::create(after, loc, step, i32(after, distance)));
    Value valid = arith::CmpIOp::create(after, loc, arith::CmpIPredicate::slt, ahead, ub);
    issueCopies(after, ahead, valid, readSlot);
    b.setInsertionPointAfter(loop);
    AsyncWaitOp::create(b, loc, 0);

    // The loads and the address arithmetic only they used.
    llvm::SetVector<Operation *> original;
    for (LoadOp load : loads)
      addressSlice(load, original);
    for (LoadOp load : loads)
      load->erase();
    eraseUnused(original);
  }



  //===--------------------------------------------------------------------===//
  // In registers
  //===--------------------------------------------------------------------===//

  /// The load of iteration `iv` (valid when `valid`), its address ops cloned before `at`.
  Value issue(OpBuilder &b, LoadOp load, Value iv, Value valid) {
    IRMapping mapping = cloneAddress(b, load, iv, /*withOther=*/true);
    Location loc = load.getLoc();
    Value mask = mapping.lookupOrDefault(load.getMask());
    auto maskType = cast<RankedTensorType>(mask.getType());
    Value inRange = SplatOp::create(b, loc, maskType, valid);
    Value combined = arith::AndIOp::create(b, loc, mask, inRange);
    Operation *copy = b.clone(*load, mapping);
    copy->setOperand(load.getMaskMutable()[0].getOperandNumber(), combined);
    return copy->getResult(0);
  }

  void prefetch(LoadOp load) {
    Location loc = load.getLoc();
    // The address ops of the load in the body, dead once it is replaced.
    llvm::SetVector<Operation *> original;
    sliceOf(load.getPtr(), original);
    sliceOf(load.getMask(), original);
    if (load.getOther())
      sliceOf(load.getOther(), original);
    OpBuilder b(loop);
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), step = loop.getStep();
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
    Value initial = issue(b, load, lb, first);
    IRRewriter rewriter(loop.getContext());
    // Grow the loop by one carried value (yielding itself for now), then issue the next
    // iteration's load at the top of the new body and yield it.
    auto grown = loop.replaceWithAdditionalYields(
        rewriter, ValueRange{initial}, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> newArgs) -> SmallVector<Value> {
          return {newArgs.back()};
        });
    if (failed(grown))
      return;
    loop = cast<scf::ForOp>(grown->getOperation());
    Block *body = loop.getBody();
    OpBuilder top = OpBuilder::atBlockBegin(body);
    Value next = arith::AddIOp::create(top, loc, loop.getInductionVar(), step);
    Value valid = arith::CmpIOp::create(top, loc, arith::CmpIPredicate::slt, next, ub);
    Value ahead = issue(top, load, next, valid);
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    yield->setOperand(yield.getNumOperands() - 1, ahead);
    load.getResult().replaceAllUsesWith(loop.getRegionIterArgs().back());
    load->erase();
    eraseUnused(original);
  }
};

/// A step known at compile time: the loop walks a row or a column in tile-sized chunks.
bool isConstantStep(scf::ForOp loop) { return matchPattern(loop.getStep(), m_Constant()); }

struct Prefetch : tcc::impl::TilePrefetchBase<Prefetch> {
  using TilePrefetchBase::TilePrefetchBase;

  void runOnOperation() override {
    tcc::forEachLoopWithStages(getOperation(), numStages, [](scf::ForOp loop, unsigned stages) {
      if (stages >= 2 && (loop->hasAttr(tile::kNumStagesAttrName) || !isConstantStep(loop)))
        Prefetcher(loop, stages).run();
    });
  }
};

} // namespace
