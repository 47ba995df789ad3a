//===- TmaLowering.cpp - bulk tensor copies and their mbarriers ------------===//
//
// tile.tma_load becomes one `cp.async.bulk.tensor` per box of its slot, issued by thread
// 0 of the program and completing on the slot's mbarrier; the mbarrier ops become
// `mbarrier.init` (thread 0, then the fences and a barrier after which every thread may
// use them), `mbarrier.arrive.expect_tx` (thread 0), `mbarrier.arrive` (lane 0 of each
// warp) and a retried `mbarrier.try_wait.parity` (every thread). tile.warp_specialize
// splits the kernel on the warpgroup (setmaxnreg on each side); on the producer side,
// "thread 0" is the producer's first thread. A tensor map is the generic address of its
// 128-byte kernel parameter (KernelLowering.cpp marks it byval and grid-constant).
//
// Where a box lands: the slot's SharedLayout (the hardware's swizzle within atoms the
// swizzle's width wide, each atom holding its columns of every row in turn) puts the
// box whose first element is at tile coordinates `o` at layout.offset(o); the verifier of
// tile.tma_load made each box whole rows of one atom, starting where the swizzle's
// pattern starts, which is what a bulk copy writes.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/SharedMemory.h"
#include "compiler/Conversion/ThreadIndex.h"
#include "compiler/Target/Occupancy.h"
#include "dialects/Tile/SharedLayout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

/// i1: this thread is the one that acts alone for `op`'s side of the program: thread 0,
/// or, in the producer warpgroup of a warp-specialised kernel, its first thread.
Value isThreadZero(OpBuilder &b, Location loc, Operation *op) {
  std::optional<nvvm::WarpSide> side = nvvm::warpSideOf(b.getInsertionBlock());
  // threadIdx.x's range: the consumers' on their side, every thread's elsewhere.
  unsigned range = side && !side->producer ? kernelNumThreads(op) : kernelLaunchThreads(op);
  Value tid = nvvm::threadIdX(b, loc, range);
  int32_t first = side && side->producer ? int32_t(side->consumerThreads) : 0;
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, i32Const(b, loc, first));
}

/// What `body` builds, in an scf.if that only the thread isThreadZero names enters.
void onThreadZero(OpBuilder &b, Location loc, Operation *op, function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(), isThreadZero(b, loc, op),
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

/// A bulk copy's coordinates, converted (one value each).
SmallVector<Value> coordinatesOf(ArrayRef<ValueRange> converted) {
  SmallVector<Value> coords;
  for (ValueRange c : converted)
    coords.push_back(c.front());
  return coords;
}

/// The mbarrier of slot `s` of the ring at `base`.
Value barrierOfSlot(OpBuilder &b, Location loc, Value base, int64_t s) {
  return s ? sharedElementPtr(b, loc, base, b.getI64Type(), i32Const(b, loc, s)) : base;
}

struct MBarrierInitLowering : OpConversionPattern<MBarrierInitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierInitOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = adaptor.getBarriers().front();
    Value first = isThreadZero(rewriter, loc, op);
    for (int64_t s = 0; s < op.getBarriers().getType().getNumSlots(); ++s)
      nvvm::mbarrierInit(rewriter, loc, barrierOfSlot(rewriter, loc, base, s), op.getCount(),
                         first);
    nvvm::fenceMbarrierInit(rewriter, loc);
    nvvm::fenceProxyAsyncShared(rewriter, loc);
    nvvm::barrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierInvalLowering : OpConversionPattern<MBarrierInvalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierInvalOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = adaptor.getBarriers().front();
    onThreadZero(rewriter, loc, op, [&] {
      for (int64_t s = 0; s < op.getBarriers().getType().getNumSlots(); ++s)
        nvvm::mbarrierInval(rewriter, loc, barrierOfSlot(rewriter, loc, base, s));
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierExpectLowering : OpConversionPattern<MBarrierExpectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierExpectOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    nvvm::mbarrierArriveExpectTx(rewriter, loc, adaptor.getBarrier().front(), op.getBytes(),
                                 isThreadZero(rewriter, loc, op));
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierWaitLowering : OpConversionPattern<MBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierWaitOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // `cluster`: the partner of the cluster arrives on it (acquire at cluster scope).
    // Every thread waits: waiting in thread 0 alone, inside a branch while the products
    // run, costs ptxas 51 more registers (215 against 164 for matmul 128 x 256 x 64).
    if (op.getCluster())
      nvvm::mbarrierWaitParityCluster(rewriter, loc, adaptor.getBarrier().front(),
                                      adaptor.getPhase().front());
    else
      nvvm::mbarrierWaitParity(rewriter, loc, adaptor.getBarrier().front(),
                               adaptor.getPhase().front());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Each box of a bulk tensor copy between `tile` (at the shared address `base`) and the
/// array of `desc` at `coords` (outermost first): `copy(smem, coordsInnermostFirst)`.
void forEachBox(OpBuilder &b, Location loc, TensorMapType desc, SharedMemType tile, Value base,
                ArrayRef<Value> coords, int64_t boxes,
                function_ref<void(Value, ArrayRef<Value>)> copy) {
  SharedLayout layout = getSharedLayout(tile);
  ArrayRef<int64_t> box = desc.getBox(), shape = tile.getTileShape();
  unsigned rank = box.size();
  // Every box of the tile, the last dimension fastest.
  SmallVector<int64_t> origin(rank, 0);
  for (int64_t n = 0; n < boxes; ++n) {
    int64_t rest = n;
    for (int k = int(rank) - 1; k >= 0; --k) {
      int64_t count = shape[k] / box[k];
      origin[k] = rest % count * box[k];
      rest /= count;
    }
    int64_t offset = layout.offset(origin) * desc.getElementBytes();
    Value at = offset ? sharedElementPtr(b, loc, base, b.getI8Type(), i32Const(b, loc, offset))
                      : base;
    // The instruction's coordinates run innermost first.
    SmallVector<Value> c;
    for (int k = int(rank) - 1; k >= 0; --k)
      c.push_back(origin[k] ? arith::AddIOp::create(b, loc, coords[k], i32Const(b, loc, origin[k]))
                                  .getResult()
                            : coords[k]);
    copy(at, c);
  }
}

struct TmaLoadLowering : OpConversionPattern<TmaLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmaLoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value descPtr = adaptor.getDesc().front();
    Value bar = adaptor.getBarrier().front();
    SmallVector<Value> coords = coordinatesOf(adaptor.getCoords());
    Value first = isThreadZero(rewriter, loc, op);
    // Multicast: where %mc holds, each program of the cluster of two copies the boxes of
    // its rank's parity to both (mask 0b11); elsewhere every box to itself alone (mask
    // 1 << rank), by the same instruction.
    Value mc = op.getMulticast() ? adaptor.getMulticast().front() : Value();
    Value rank, mine, mask;
    if (mc) {
      rank = nvvm::clusterRank(rewriter, loc);
      Value self = arith::ShLIOp::create(rewriter, loc, i32Const(rewriter, loc, 1), rank);
      Value both = i32Const(rewriter, loc, 3);
      mask = arith::TruncIOp::create(rewriter, loc, rewriter.getI16Type(),
                                     arith::SelectOp::create(rewriter, loc, mc, both, self));
      mine = arith::XOrIOp::create(rewriter, loc, mc,
                                   arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    }
    int64_t box = 0;
    forEachBox(rewriter, loc, cast<TensorMapType>(op.getDesc().getType()), op.getDst().getType(),
               adaptor.getDst().front(), coords, op.getNumBoxes(),
               [&](Value dst, ArrayRef<Value> at) {
                 Value pred = first;
                 if (mc) {
                   // This program's box: not multicasting, or the box's parity its rank.
                   Value ours = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                                      rank, i32Const(rewriter, loc, box % 2));
                   pred = arith::AndIOp::create(
                       rewriter, loc, first, arith::OrIOp::create(rewriter, loc, mine, ours));
                 }
                 nvvm::tmaLoad(rewriter, loc, dst, descPtr, at, bar, pred, mask);
                 ++box;
               });
    rewriter.eraseOp(op);
    return success();
  }
};

/// One thread stores the boxes, commits them as one bulk group and waits until they have
/// read the tile.
struct TmaStoreLowering : OpConversionPattern<TmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmaStoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value descPtr = adaptor.getDesc().front();
    SmallVector<Value> coords = coordinatesOf(adaptor.getCoords());
    onThreadZero(rewriter, loc, op, [&] {
      forEachBox(rewriter, loc, cast<TensorMapType>(op.getDesc().getType()),
                 op.getSrc().getType(), adaptor.getSrc().front(), coords, op.getNumBoxes(),
                 [&](Value src, ArrayRef<Value> at) {
                   nvvm::tmaStore(rewriter, loc, src, descPtr, at);
                 });
      nvvm::bulkCommitAndWaitRead(rewriter, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierArriveLowering : OpConversionPattern<MBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierArriveOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Lane 0 of each warp, once the warp has converged (its reads are done).
    Value lane = emitLaneId(rewriter, loc, kernelLaunchThreads(op));
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane,
                                        i32Const(rewriter, loc, 0));
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), first, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    if (op.getPeer()) {
      // The partner of a cluster of two: the other rank.
      Value peer = arith::XOrIOp::create(rewriter, loc, nvvm::clusterRank(rewriter, loc),
                                         i32Const(rewriter, loc, 1));
      nvvm::mbarrierArriveRemote(rewriter, loc, adaptor.getBarrier().front(), peer);
    } else {
      nvvm::mbarrierArrive(rewriter, loc, adaptor.getBarrier().front());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// threadIdx.x / the group's threads on the consumer side of a kernel of several consumer
/// groups (nvvm::consumerGroup).
struct ConsumerGroupLowering : OpConversionPattern<ConsumerGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConsumerGroupOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!nvvm::warpSideOf(rewriter.getInsertionBlock()))
      return op.emitOpError("is outside the consumer side of its lowered tile.warp_specialize");
    rewriter.replaceOp(op, nvvm::consumerGroup(rewriter, op.getLoc()));
    return success();
  }
};

/// Every thread of the cluster arrives and waits (barrier.cluster).
struct ClusterSyncLowering : OpConversionPattern<ClusterSyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ClusterSyncOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    nvvm::clusterSync(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The registers of a program's threads in its scratch, register group `g` (of `width`
/// registers) of thread `tid` at element (g * threads + tid) * width: the same place in
/// every program of the cluster, whose code and layout are the same.
int64_t clusterReduceWidth(int64_t regs) { return regs % 4 == 0 ? 4 : regs % 2 == 0 ? 2 : 1; }

/// Each program's registers to its scratch; barrier.cluster; rank 0 adds, in rank order,
/// every other rank's (mapa + ld.shared::cluster); barrier.cluster again, before which no
/// program may exit or reuse its scratch while rank 0 reads it.
struct ClusterReduceLowering : OpConversionPattern<ClusterReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ClusterReduceOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op->hasAttr(kSharedOffsetAttr)) {
      (void)scratchBase(rewriter, op); // says why
      return failure();
    }
    auto func = op->getParentOfType<FunctionOpInterface>();
    int64_t ranks = func->getAttrOfType<IntegerAttr>(kClusterSizeAttrName).getInt();
    SmallVector<Value> values(adaptor.getSrc().begin(), adaptor.getSrc().end());
    int64_t width = clusterReduceWidth(int64_t(values.size()));
    unsigned threads = kernelNumThreads(op);
    Value base = scratchBase(rewriter, op);
    Type f32 = rewriter.getF32Type();
    Value tid = nvvm::threadIdX(rewriter, loc, threads);
    SmallVector<Value> slots;
    for (int64_t g = 0; g * width < int64_t(values.size()); ++g) {
      Value element = arith::MulIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, tid, i32Const(rewriter, loc, g * threads)),
          i32Const(rewriter, loc, width));
      slots.push_back(sharedElementPtr(rewriter, loc, base, f32, element));
      storeShared(rewriter, loc, slots.back(),
                  ArrayRef<Value>(values).slice(size_t(g * width), size_t(width)));
    }
    nvvm::clusterSync(rewriter, loc);
    Value rank = nvvm::clusterRank(rewriter, loc);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, rank,
                                        i32Const(rewriter, loc, 0));
    SmallVector<Type> types(values.size(), f32);
    auto ifOp = scf::IfOp::create(rewriter, loc, types, first, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      SmallVector<Value> sums = values;
      for (int64_t peer = 1; peer < ranks; ++peer)
        for (auto [g, slot] : llvm::enumerate(slots)) {
          Value remote = nvvm::mapaShared(rewriter, loc, slot, i32Const(rewriter, loc, peer));
          for (auto [i, v] : llvm::enumerate(loadShared(rewriter, loc, remote, f32, unsigned(width))))
            sums[g * width + i] = arith::AddFOp::create(rewriter, loc, sums[g * width + i], v);
        }
      scf::YieldOp::create(rewriter, loc, sums);
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(rewriter, loc, values);
    }
    nvvm::clusterSync(rewriter, loc);
    SmallVector<Value> results(ifOp.getResults().begin(), ifOp.getResults().end());
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// The kernel's body splits on the warpgroup: `if (tid >= consumers) { setmaxnreg.dec;
/// if (first producer warp) producer } else { setmaxnreg.inc; consumer }`. The scf.if
/// carries the consumers' thread count (nvvm::kWarpSpecializedAttr), by which barriers and
/// lone threads inside it know their side.
struct WarpSpecializeLowering : OpConversionPattern<WarpSpecializeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpSpecializeOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Every consumer group's threads (ping-pong: two groups of the kernel's warps).
    unsigned groups = getConsumerGroups(op);
    unsigned consumers = kernelNumThreads(op) * groups;
    Value tid = nvvm::threadIdX(rewriter, loc, kernelLaunchThreads(op));
    Value isProducer = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge, tid,
                                             i32Const(rewriter, loc, int32_t(consumers)));
    auto split = scf::IfOp::create(rewriter, loc, TypeRange(), isProducer, /*withElseRegion=*/true);
    split->setAttr(nvvm::kWarpSpecializedAttr, rewriter.getI32IntegerAttr(int32_t(consumers)));
    if (groups > 1)
      split->setAttr(nvvm::kConsumerGroupsAttr, rewriter.getI32IntegerAttr(int32_t(groups)));
    OpBuilder::InsertionGuard guard(rewriter);
    // The producer: every warp of the warpgroup gives up registers; one warp copies.
    rewriter.setInsertionPoint(split.thenBlock()->getTerminator());
    nvvm::setMaxRegisters(rewriter, loc, unsigned(op.getProducerRegs()), /*increase=*/false);
    unsigned warpSize = tile::getThreadsPerWarp(op);
    Value firstWarp = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, tid,
                                            i32Const(rewriter, loc, int32_t(consumers + warpSize)));
    auto copier = scf::IfOp::create(rewriter, loc, TypeRange(), firstWarp, /*withElseRegion=*/false);
    rewriter.inlineBlockBefore(&op.getProducer().front(), copier.thenBlock()->getTerminator());
    // The consumers.
    rewriter.setInsertionPoint(split.elseBlock()->getTerminator());
    nvvm::setMaxRegisters(rewriter, loc, unsigned(op.getConsumerRegs()), /*increase=*/true);
    rewriter.inlineBlockBefore(&op.getConsumer().front(), split.elseBlock()->getTerminator());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void budgetWarpSpecializedRegisters(func::FuncOp func) {
  WarpSpecializeOp ws;
  func.walk([&](WarpSpecializeOp op) { ws = op; });
  if (!ws)
    return;
  // Per thread, what one consumer group holds; in the budget, every group's threads.
  unsigned groupThreads = kernelNumThreads(func);
  unsigned consumerThreads = groupThreads * getConsumerGroups(func);
  unsigned launchThreads = kernelLaunchThreads(func);
  unsigned producerThreads = launchThreads - consumerThreads;
  // What the consumers' accumulators take per thread (32-bit registers): those of the
  // products of one loop live together (attention's scores and output), loops one after
  // another (its causal kernel's two) do not. And room beside.
  llvm::DenseMap<Operation *, int64_t> perLoop;
  int64_t accumulators = 0;
  ws.getConsumer().walk([&](WarpGroupDotOp dot) {
    auto type = cast<RankedTensorType>(dot.getType());
    int64_t bits = type.getNumElements() * type.getElementTypeBitWidth();
    int64_t &sum = perLoop[dot->getParentOp()];
    sum += bits / 32 / std::max(1u, groupThreads);
    accumulators = std::max(accumulators, sum);
  });
  // A persistent kernel's consumers hold the tile loop's state beside, and each dot loop's
  // ring count carried across the tiles: 16 more for each op that holds dots (their
  // loops). ptxas -v: tutorial 06's causal attention, two loops, persistent, spilled 40 B
  // at 216 registers and none at 232; the non-causal one, one loop, none at 216.
  int64_t beside = 64;
  if (func->hasAttr(kPersistentAttrName))
    beside += 16 * int64_t(perLoop.size());
  int64_t need = std::min<int64_t>(accumulators + beside, 256);
  // The programs one SM can hold by shared memory and warps, the most worth trying.
  auto shared = func->getAttrOfType<IntegerAttr>(kSharedBytesAttr);
  tcc::Occupancy limit = tcc::occupancy(tcc::smResources(getTarget(func).getArch().str()),
                                        /*registersPerThread=*/1, int(launchThreads / 32),
                                        shared ? shared.getInt() : 0);
  unsigned programs = unsigned(std::max(1, std::min({limit.bySharedMemory, limit.byWarps,
                                                     limit.byPrograms})));
  WarpSpecializeOp::RegisterBudget budget;
  for (; programs >= 1; --programs) {
    budget = WarpSpecializeOp::budgetRegisters(consumerThreads, producerThreads,
                                               ws.getProducerRegs(), programs);
    if (budget.consumer >= need && budget.consumer >= ws.getProducerRegs())
      break;
  }
  if (programs == 0)
    budget = WarpSpecializeOp::budgetRegisters(consumerThreads, producerThreads,
                                               ws.getProducerRegs(), 1);
  Builder b(func.getContext());
  ws.setConsumerRegs(budget.consumer);
  func->setAttr(kLaunchRegistersAttr, b.getI32IntegerAttr(budget.launch));
}

int64_t clusterReduceScratchBytes(Operation *op) {
  auto reduce = dyn_cast<ClusterReduceOp>(op);
  std::optional<Distribution> dist = reduce ? Distribution::get(reduce.getType()) : std::nullopt;
  // Every thread of the program stores its registers (ClusterReduceLowering's slots).
  return dist ? dist->getNumRegs() * int64_t(kernelNumThreads(op)) * 4 : 0;
}

void populateTmaLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MBarrierInitLowering, MBarrierInvalLowering, MBarrierExpectLowering,
               MBarrierWaitLowering, MBarrierArriveLowering, TmaLoadLowering,
               TmaStoreLowering, WarpSpecializeLowering, ConsumerGroupLowering, ClusterSyncLowering,
               ClusterReduceLowering>(
      converter, patterns.getContext());
}

} // namespace tcc
