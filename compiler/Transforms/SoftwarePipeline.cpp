//===- SoftwarePipeline.cpp - tile-pipeline ---------------------------------===//
//
// A loop that loads tiles and stores them to shared memory for a tensor-core dot waits,
// every iteration, for global memory. Pipelined, the loads of an iteration are issued
// `distance` iterations ahead as cp.async copies straight into a ring of shared tiles:
//
//   prologue:  copies of iterations 0 .. D-1 into slots 0 .. D-1, one group each
//   iteration i: async_wait (the group of i has landed)
//                copies of iteration i + D into slot (i + D) mod S, one group
//                the dot reads slot i mod S
//   epilogue:  async_wait 0
//
// With S slots, D = S - 1: slot (i + D) mod S was read in iteration i - 1. With mma.sync
// the barrier tile-allocate-shared puts after the wait separates that read from the
// copies; with wgmma, whose product of iteration i keeps running while the next one is
// issued (`warpgroup_dot_wait {pending = 1}`), the copies follow the wait that retires
// the product of iteration i - 1 (and a barrier, for the other warpgroups). Copies of
// iterations past the end are masked off (zero-filled, nothing read). Ring slots are indexed (i + c) mod S, i the iteration
// number, so that tile-allocate-shared tells them apart.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/PersistentLoop.h"
#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/LoopSlice.h"
#include "compiler/Transforms/Passes.h"
#include "compiler/Transforms/SpecializeArguments.h"
#include "compiler/Transforms/TmaAccess.h"
#include "dialects/Tile/SharedLayout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_TILEPIPELINE
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A load to turn into copies: the load, the local_alloc storing it, and the ops in the
/// loop body that compute its pointers and mask (in program order). A load the kernel
/// transposes before storing it (`k = load(...).T` for `dot(q, k)`, through layout
/// conversions) is copied as it is, into slots of `slotType` (the alloc's shape and
/// order reversed), and the dot reads the slot through tile.memdesc_trans.
struct Stream {
  LoadOp load;
  LocalAllocOp alloc;
  SmallVector<Operation *> slice;
  LocalAllocOp ring;
  SharedMemType slotType;
  SmallVector<Operation *> between; // the trans and the conversions before it, last first
  /// Copied by TMA: the access, and the kernel's tensor-map argument.
  std::optional<tcc::TmaAccess> tma;
  BlockArgument map;
};

class Pipeliner {
public:
  Pipeliner(scf::ForOp loop, unsigned numStages, bool tma, bool warpSpecialize,
            bool multicast, bool pingPong)
      : loop(loop), numStages(numStages), useTma(tma), warpSpecialize(warpSpecialize),
        multicast(multicast), pingPong(pingPong) {}

  void run() {
    hoistInvariantTiles();
    collect();
    if (streams.empty() || numStages < 2)
      return;
    bool wgmma = false;
    loop.getBody()->walk([&](WarpGroupDotOp) { wgmma = true; });
    inFlight = wgmma && productsMayStayInFlight() ? 1 : 0;
    distance = int64_t(numStages) - 1;
    // TMA where one ring can serve every run of the loop: in the kernel's body, or in
    // loops through which the ring's count is carried (a persistent kernel's tile loop):
    // its mbarriers are initialised once, before them, and their phases continue.
    std::optional<SmallVector<scf::ForOp>> outer = tcc::ringEnclosingLoops(loop);
    // Every stream by TMA or none: a loop mixing bulk copies and cp.async has not been run
    // on a GPU yet.
    if (useTma && wgmma && outer && getTarget(loop).hasWgmma() &&
        loop.getLowerBound().getType().isInteger(32)) {
      SmallVector<TmaPlan> plans;
      for (Stream &s : streams)
        if (std::optional<TmaPlan> plan = planTma(s))
          plans.push_back(std::move(*plan));
      if (plans.size() == streams.size())
        for (auto [s, plan] : llvm::zip(streams, plans))
          applyTma(s, plan);
      if (anyTma())
        enclosing = *outer;
    }
    std::optional<ProducerSlice> producer;
    if (warpSpecialize && anyTma() && !anyCpAsync())
      producer = planProducer();
    // Ping-pong only where the loop gets its producer (the ring is fitted for its groups).
    groups = producer && planPingPong() ? 2 : 1;
    if (nestedRing())
      fitRingBesideEpilogue();
    if (producer) {
      rewriteWarpSpecialized(*producer);
      return;
    }
    rewrite();
  }

private:
  scf::ForOp loop;
  unsigned numStages;
  bool useTma;
  bool warpSpecialize;
  bool multicast;
  bool pingPong;
  /// Consumer groups (planPingPong): 2 where the warp-specialised loop gets the ping-pong
  /// schedule.
  unsigned groups = 1;
  /// Warp-specialised and multicasting (rewriteWarpSpecialized): each slot's `empty`
  /// mbarrier counts both programs' consumer warps.
  bool producerMulticast = false;
  Value barriers; // the mbarrier ring of the TMA streams, if any
  /// Multicast (planMulticast): the stream the two programs of a cluster copy in halves,
  /// the divisor of the tile's column, and, once the rings exist, the run-time condition
  /// (i1) and the ring of mbarriers on which the partner hands each slot back.
  Stream *sharedStream = nullptr;
  Value columns;
  Value multicastOn;
  Value handedBack;
  /// With TMA in a loop nest: the loops around `loop`, outermost first, through which the
  /// ring's count of iterations is carried (tcc::ringEnclosingLoops).
  SmallVector<scf::ForOp> enclosing;
  bool nestedRing() const { return !enclosing.empty(); }

  bool anyTma() const {
    return llvm::any_of(streams, [](const Stream &s) { return s.tma.has_value(); });
  }
  bool anyCpAsync() const {
    return llvm::any_of(streams, [](const Stream &s) { return !s.tma.has_value(); });
  }

  /// A stream's tensor map: the access and the map (TmaAccess.h).
  struct TmaPlan {
    tcc::TmaAccess access;
    tcc::TmaMap map;
  };

  /// The tensor map of a stream, if its load is one a tensor map describes, its slot a
  /// row-major tile swizzled by 128 bytes that bulk copies can fill, and the base and
  /// strides aligned to 16 bytes in this variant. Changes nothing.
  std::optional<TmaPlan> planTma(Stream &s) {
    // A stream transposed before its store (`between`) has a slot of the load's shape:
    // the copy fills it as loaded; the dot reads it through tile.memdesc_trans.
    std::optional<tcc::TmaAccess> access = tcc::matchTmaAccess(s.load);
    auto func = loop->getParentOfType<func::FuncOp>();
    if (!access || !func)
      return std::nullopt;
    std::optional<tcc::TmaMap> map = tcc::planTensorMap(*access, func, s.slotType);
    if (!map)
      return std::nullopt;
    return TmaPlan{std::move(*access), *map};
  }

  /// Copies the stream by TMA: the kernel gets the map as an argument, one per distinct
  /// map (a kernel with two loops over the same array, tutorial 06's causal stages,
  /// passes it once).
  void applyTma(Stream &s, TmaPlan &plan) {
    auto func = loop->getParentOfType<func::FuncOp>();
    BlockArgument arg = tcc::tensorMapArgument(func, plan.map, s.load.getLoc());
    if (!arg)
      return;
    s.tma = plan.access;
    s.map = arg;
  }
  unsigned inFlight = 0;
  int64_t distance = 1;
  SmallVector<Stream, 4> streams;

  /// Loop-carried pointers advanced by the same offset every iteration (`p = p + inc`,
  /// Triton's `a_ptrs += BLOCK_K * stride_ak`): the pointer `d` iterations ahead is
  /// p + d * inc. Loop-carried integers advanced so (`o = o + inc`, the row offsets of
  /// tutorial 06's K and V descriptors, `offsetv_y += BLOCK_N`) likewise: o + d * inc,
  /// the same value in wrapping arithmetic as d additions.
  DenseMap<Value, Value> advancing; // iteration argument -> its increment
  llvm::SetVector<Operation *> incrementOps; // the ops computing the increments

  /// The ops computing `v` inside the loop body from the induction variable, advancing
  /// pointers and values from outside; false if it needs anything else (another
  /// loop-carried value, an op with effects, a nested region).
  bool sliceOf(Value v, llvm::SetVector<Operation *> &ops) {
    return tcc::loopSliceOf(loop, v, ops, [&](BlockArgument arg) {
      return arg == loop.getInductionVar() || isAdvancing(arg, ops);
    });
  }

  bool isAdvancing(BlockArgument arg, llvm::SetVector<Operation *> &ops) {
    if (advancing.count(arg))
      return true;
    llvm::SetVector<Operation *> incOps;
    Value inc = tcc::loopIncrement(loop, arg, incOps);
    if (!inc)
      return false;
    advancing[arg] = inc;
    ops.insert(incOps.begin(), incOps.end());
    incrementOps.insert(incOps.begin(), incOps.end());
    return true;
  }

  /// A tile stored to shared memory in the body from a value made before the loop
  /// (tutorial 06's Q, `dot(q, k)` in every iteration) is stored once, before it: a
  /// local_alloc with a value is never written again.
  void hoistInvariantTiles() {
    for (Operation &op : llvm::make_early_inc_range(*loop.getBody())) {
      auto alloc = dyn_cast<LocalAllocOp>(&op);
      if (alloc && alloc.getSrc() && loop.isDefinedOutsideOfLoop(alloc.getSrc()))
        alloc->moveBefore(loop);
    }
  }

  void collect() {
    for (Operation &op : *loop.getBody()) {
      auto alloc = dyn_cast<LocalAllocOp>(&op);
      if (!alloc || !alloc.getSrc() || !isa<NVMMASharedEncodingAttr>(alloc.getType().getEncoding()))
        continue;
      // Only a tile this loop's own products read: one that an inner loop's products
      // read (hoisted there by hoistInvariantTiles: a persistent kernel's tile loop around
      // a K loop over resident operands) is that loop's invariant, not this loop's stream.
      if (llvm::none_of(alloc->getUsers(), [&](Operation *user) {
            return user->getParentOfType<LoopLikeOpInterface>().getOperation() == loop;
          }))
        continue;
      Value src = alloc.getSrc();
      SharedMemType slotType = alloc.getType();
      SmallVector<Operation *> between;
      if (auto trans = src.getDefiningOp<TransOp>()) {
        if (trans.getOrder().size() != 2 || trans.getOrder()[0] != 1 || !trans->hasOneUse())
          continue;
        between.push_back(trans);
        src = trans.getSrc();
        while (auto cvt = src.getDefiningOp<ConvertLayoutOp>()) {
          if (!cvt->hasOneUse())
            break;
          between.push_back(cvt);
          src = cvt.getSrc();
        }
        slotType = tcc::transposedSharedTile(slotType);
      }
      auto load = src.getDefiningOp<LoadOp>();
      if (!load || load->getBlock() != loop.getBody() || !load->hasOneUse() || !tcc::isZeroOrAbsent(load.getOther()))
        continue;
      auto type = cast<RankedTensorType>(load.getType());
      int64_t bytes = int64_t(getVectorWidth(load)) * type.getElementTypeBitWidth() / 8;
      if (bytes != 4 && bytes != 8 && bytes != 16)
        continue;
      // The copies move what a thread holds along its registers' dimension: it must be
      // the rows of the shared tile.
      std::optional<Distribution> dist = Distribution::get(type);
      auto encoding = cast<NVMMASharedEncodingAttr>(slotType.getEncoding());
      if (!dist || dist->getTileOrder().front() != encoding.getOrder().front())
        continue;
      llvm::SetVector<Operation *> ops;
      if (!sliceOf(load.getPtr(), ops) || (load.getMask() && !sliceOf(load.getMask(), ops)))
        continue;
      Stream stream{load, alloc, {}, {}, slotType, between};
      stream.slice = ops.takeVector();
      llvm::sort(stream.slice, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
      streams.push_back(stream);
    }
  }

  Value i32(OpBuilder &b, int64_t v) {
    return arith::ConstantIntOp::create(b, loop.getLoc(), b.getI32Type(), v);
  }

  /// Whether the products carried around the loop (a wait whose result only the yield
  /// takes) may stay in flight into the next iteration: only if the next iteration uses
  /// each as a product's accumulator and nothing else, and every shared tile they read is
  /// a ring slot or made before the loop (one staged by a plain local_alloc in the body is
  /// written again next iteration while the product would still read it). Otherwise they
  /// are waited for in their own iteration.
  bool productsMayStayInFlight() {
    llvm::SmallPtrSet<Operation *, 4> rings;
    for (Stream &s : streams)
      rings.insert(s.alloc);
    bool safe = true;
    loop.getBody()->walk([&](WarpGroupDotWaitOp wait) {
      // Carried around this loop: an inner loop's products are that loop's.
      Operation *yield = loop.getBody()->getTerminator();
      if (wait.getResult().use_empty() ||
          !llvm::all_of(wait.getResult().getUsers(),
                        [&](Operation *user) { return user == yield; }))
        return;
      auto dot = wait.getSrc().getDefiningOp<WarpGroupDotOp>();
      if (!dot)
        return;
      // In flight, the product is only what the next product accumulates onto: anything
      // else reading it next iteration (tutorial 06 rescales its O by alpha first) would
      // read registers still being written.
      for (OpOperand &use : wait.getResult().getUses()) {
        Value carried = loop.getRegionIterArgs()[use.getOperandNumber()];
        for (OpOperand &next : carried.getUses()) {
          auto reader = dyn_cast<WarpGroupDotOp>(next.getOwner());
          if (!reader || &next != &reader.getAccMutable())
            safe = false;
        }
      }
      for (Value operand : {Value(dot.getA()), Value(dot.getB())}) {
        auto alloc = operand.getDefiningOp<LocalAllocOp>();
        if (alloc && loop->isAncestor(alloc) && !rings.contains(alloc))
          safe = false;
      }
    });
    return safe;
  }

  /// `p` (a pointer tile or an integer) advanced `steps` times by its increment (as cloned
  /// into `mapping`).
  Value advance(OpBuilder &b, Value p, Value inc, int64_t steps) {
    if (steps == 0)
      return p;
    Location loc = loop.getLoc();
    if (!isa<RankedTensorType>(inc.getType())) {
      Value count = arith::ConstantIntOp::create(b, loc, inc.getType(), steps);
      return arith::AddIOp::create(b, loc, p, arith::MulIOp::create(b, loc, inc, count));
    }
    auto incType = cast<RankedTensorType>(inc.getType());
    Type element = incType.getElementType();
    Value count = SplatOp::create(b, loc, incType,
                                  arith::ConstantIntOp::create(b, loc, element, steps));
    Value offset = arith::MulIOp::create(b, loc, inc, count);
    return AddPtrOp::create(b, loc, p.getType(), p, offset);
  }

  /// The copies of one iteration (induction variable `iv`, valid when `valid`) into slot
  /// `slot` of every ring, then a commit. Each advancing pointer is `pointerBase(arg)`
  /// advanced `ahead` times.
  void issueCopies(OpBuilder &b, Value iv, Value valid, Value slot,
                   function_ref<Value(Value)> pointerBase, int64_t ahead,
                   const IRMapping *base = nullptr, Value ringStep = {}) {
    Location loc = loop.getLoc();
    // The TMA streams' coordinates, computed with the other copies', issued together.
    SmallVector<std::pair<Stream *, SmallVector<Value>>> bulk;
    SmallVector<Operation *> bulkSlices; // their clones of the pointers' and masks' ops
    for (Stream &s : streams) {
      IRMapping mapping = base ? *base : IRMapping();
      mapping.map(loop.getInductionVar(), iv);
      // The increments (invariant) first, then the pointers they advance, then the rest.
      for (Operation *op : s.slice)
        if (incrementOps.contains(op))
          b.clone(*op, mapping);
      for (auto &[arg, inc] : advancing) {
        bool used = llvm::any_of(arg.getUsers(), [&](Operation *user) {
          return user == s.load || llvm::is_contained(s.slice, user);
        });
        if (used)
          mapping.map(arg, advance(b, pointerBase(arg), mapping.lookupOrDefault(inc), ahead));
      }
      SmallVector<Operation *> cloned;
      for (Operation *op : s.slice)
        if (!incrementOps.contains(op))
          cloned.push_back(b.clone(*op, mapping));
      if (s.tma) {
        SmallVector<Value> coords = tcc::boxCoordinates(b, loc, *s.tma, mapping);
        bulkSlices.append(cloned.begin(), cloned.end());
        bulk.push_back({&s, coords});
        continue;
      }
      Value ptr = mapping.lookupOrDefault(s.load.getPtr());
      auto ptrType = cast<RankedTensorType>(ptr.getType());
      Value mask = SplatOp::create(b, loc, getI1SameShape(ptrType), valid);
      if (Value original = s.load.getMask())
        mask = arith::AndIOp::create(b, loc, mapping.lookupOrDefault(original), mask);
      Value dst = MemDescIndexOp::create(b, loc, s.slotType, s.ring, slot);
      int32_t vec = int32_t(getVectorWidth(s.load));
      AsyncCopyOp::create(b, loc, ptr, dst, mask, vec);
    }
    if (anyCpAsync())
      AsyncCommitOp::create(b, loc);
    if (bulk.empty())
      return;
    // Only for iterations the loop has: none is left in flight after it.
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(), valid, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value bar = MemDescIndexOp::create(b, loc, barrierType(), barriers, slot);
    int64_t bytes = 0;
    for (auto &[s, coords] : bulk)
      bytes += s->slotType.getTileBytes();
    MBarrierExpectOp::create(b, loc, bar, int32_t(bytes));
    // The shared stream last, after the wait for the partner's hand-back: the other
    // streams' copies (and tile-allocate-shared's barrier before the first) go first.
    std::stable_partition(bulk.begin(), bulk.end(),
                          [&](auto &entry) { return entry.first != sharedStream; });
    for (auto &[s, coords] : bulk) {
      if (s == sharedStream && multicastOn)
        awaitHandedBack(b, slot, ringStep);
      Value dst = MemDescIndexOp::create(b, loc, s->slotType, s->ring, slot);
      TmaLoadOp::create(b, loc, s->map, coords, dst, bar,
                        s == sharedStream ? multicastOn : Value());
    }
    // What computed the TMA streams' pointers and masks is not needed.
    for (Operation *op : llvm::reverse(bulkSlices))
      if (op->use_empty())
        op->erase();
  }

  /// One mbarrier of the ring.
  SharedMemType barrierType() {
    auto ring = cast<SharedMemType>(barriers.getType());
    return SharedMemType::get(loop.getContext(), ring.getTileShape(), ring.getElementType(),
                              ring.getEncoding());
  }

  /// A ring kept across the runs of the loop lives through what follows the loop in the
  /// enclosing loops (a persistent GEMM's epilogue), whose layout conversions could
  /// otherwise have used its bytes: fewer slots (not under 2) where the ring and the
  /// largest tile converted there would not fit in the program's shared memory together
  /// (128 x 256 x 64 at 4 stages, 192 KB, beside the 64 KB of a 128 x 256 f16 tile).
  void fitRingBesideEpilogue() {
    int64_t epilogue = 0;
    for (scf::ForOp around : enclosing)
      for (Operation &op : *around.getBody())
        op.walk([&](ConvertLayoutOp cvt) {
          if (loop->isAncestor(cvt))
            return;
          auto type = cast<RankedTensorType>(cvt.getType());
          epilogue = std::max(epilogue, type.getNumElements() *
                                            std::max<int64_t>(1, type.getElementTypeBitWidth() / 8));
        });
    int64_t slot = 0;
    for (Stream &s : streams)
      slot += s.slotType.getTileBytes();
    int64_t limit = getTarget(loop).getMaxSharedBytes();
    // The rings are aligned to 1024 bytes; the mbarriers take 8 bytes a slot twice.
    // Each consumer group converts its own tiles (ping-pong).
    epilogue *= groups;
    auto need = [&](int64_t stages) { return stages * (slot + 16) + epilogue + 2048; };
    while (numStages > 2 && need(numStages) > limit)
      --numStages;
    distance = int64_t(numStages) - 1;
  }

  /// A ring kept across the runs of the loop: its count of iterations before this run,
  /// carried as a new last iteration argument of each enclosing loop, starting at `init`
  /// (0 if null; the yields pass it through until finishCount sets them).
  Value threadCount(Value init = {}) {
    IRRewriter rewriter(loop.getContext());
    rewriter.setInsertionPoint(enclosing.front());
    Value count = init ? init : i32(rewriter, 0);
    for (scf::ForOp &outer : enclosing) {
      rewriter.setInsertionPoint(outer);
      DictionaryAttr attrs = outer->getDiscardableAttrDictionary();
      FailureOr<LoopLikeOpInterface> grown = outer.replaceWithAdditionalYields(
          rewriter, count, /*replaceInitOperandUsesInLoop=*/false,
          [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
            return SmallVector<Value>{args.back()};
          });
      outer = cast<scf::ForOp>(grown->getOperation());
      outer->setDiscardableAttrs(attrs);
      count = outer.getRegionIterArgs().back();
    }
    return count;
  }

  /// The iterations of a loop from `lb` to `ub` by `step` (positive).
  Value tripCount(OpBuilder &b, Value lb, Value ub, Value step) {
    Location loc = loop.getLoc();
    Value span = arith::SubIOp::create(b, loc, ub, lb);
    return arith::MaxSIOp::create(b, loc, arith::CeilDivSIOp::create(b, loc, span, step),
                                  i32(b, 0));
  }

  /// The count after this run of the loop (`before` plus its trip count, computed after
  /// it, or plus `advance` where given), yielded by the enclosing loops; returns the trip
  /// count.
  Value finishCount(Value before, Value advance = {}) {
    OpBuilder b(loop.getContext());
    b.setInsertionPointAfter(loop);
    Value trips = tripCount(b, loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    Value after = arith::AddIOp::create(b, loop.getLoc(), before, advance ? advance : trips);
    for (size_t i = enclosing.size(); i-- > 0;) {
      auto yield = cast<scf::YieldOp>(enclosing[i].getBody()->getTerminator());
      yield->setOperand(yield.getNumOperands() - 1,
                        i + 1 < enclosing.size() ? enclosing[i + 1].getResults().back() : after);
    }
    return trips;
  }

  /// `index` (this run's iteration) as the ring's: `count + index` where a count is
  /// carried.
  Value ringIndex(OpBuilder &b, Value count, Value index) {
    return count ? arith::AddIOp::create(b, loop.getLoc(), count, index).getResult() : index;
  }

  /// After the loop nest the ring serves: its mbarriers may be invalidated there.
  void invalidateAfterNest(ArrayRef<Value> rings, Operation *last) {
    OpBuilder b(loop.getContext());
    b.setInsertionPointAfter(nestedRing() ? enclosing.front().getOperation() : last);
    for (Value ring : rings)
      MBarrierInvalOp::create(b, loop.getLoc(), ring);
  }

  /// The copies of the loop's first D iterations at `b`: the values of the loop's bounds,
  /// pointers and coordinates taken through `base`, each copy only where `alsoValid`
  /// (if given) holds too, into slots (count + j) mod S (j without a count).
  void issuePrologue(OpBuilder &b, const IRMapping &base, Value alsoValid, Value count) {
    Location loc = loop.getLoc();
    Value lb = base.lookupOrDefault(loop.getLowerBound());
    Value ub = base.lookupOrDefault(loop.getUpperBound());
    Value step = base.lookupOrDefault(loop.getStep());
    for (int64_t j = 0; j < distance; ++j) {
      Value iv = j ? arith::AddIOp::create(b, loc, lb,
                                           arith::MulIOp::create(b, loc, step, i32(b, j)))
                         .getResult()
                   : lb;
      Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub);
      if (alsoValid)
        valid = arith::AndIOp::create(b, loc, valid, alsoValid);
      // Pointers of iteration j: the initial ones advanced j times.
      Value slot = count ? arith::RemUIOp::create(
                               b, loc, arith::AddIOp::create(b, loc, count, i32(b, j)),
                               i32(b, numStages))
                               .getResult()
                         : i32(b, j);
      Value ringStep;
      if (multicastOn)
        ringStep = count ? arith::AddIOp::create(b, loc, count, i32(b, j)).getResult() : i32(b, j);
      issueCopies(
          b, iv, valid, slot,
          [&](Value arg) {
            return base.lookupOrDefault(loop.getTiedLoopInit(cast<BlockArgument>(arg))->get());
          },
          j, &base, ringStep);
    }
  }

  /// A persistent kernel's prologue may move out of the tile loop's body when what the
  /// copies need from that body (the K loop's bounds, the pointers' and coordinates'
  /// operands, the advancing values' initial values) is scalar code without effects
  /// computed from the tile loop's induction variable and values from outside it: those
  /// ops, in order, in `ops`. Only for a loop directly in one tile loop of a kernel
  /// tile-persistent made.
  bool outerSlice(SmallVector<Operation *> &ops) {
    // Only in tile loops tile-persistent made: the tile loops kernels write themselves
    // (tutorial 09) keep the prologue in the body until a GPU run has checked the
    // rotation there too.
    if (enclosing.size() != 1 || loop->getParentOp() != enclosing.front() ||
        !tcc::isPersistentTileLoop(enclosing.front()))
      return false;
    scf::ForOp outer = enclosing.front();
    Block *body = outer.getBody();
    llvm::SetVector<Operation *> set;
    bool ok = true;
    std::function<void(Value)> need = [&](Value v) {
      if (!ok)
        return;
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() == body)
          ok = arg == outer.getInductionVar();
        return;
      }
      Operation *def = v.getDefiningOp();
      // Outside the tile loop, or inside the K loop (cloned with the copies): nothing else
      // nested in the tile loop's body is visible here. Not tcc::loopSliceOf, which wants
      // ops it may speculate: these divide by the grid's extents (pm = t / X), as the
      // kernel's own body does for every tile the loop runs.
      if (def->getBlock() != body)
        return;
      if (!isMemoryEffectFree(def) || def->getNumRegions() != 0 ||
          isa<SharedMemType>(v.getType())) {
        ok = false;
        return;
      }
      if (set.contains(def))
        return;
      for (Value operand : def->getOperands())
        need(operand);
      set.insert(def);
    };
    need(loop.getLowerBound());
    need(loop.getUpperBound());
    need(loop.getStep());
    for (Stream &s : streams) {
      for (Operation *op : s.slice)
        for (Value operand : op->getOperands())
          need(operand);
      if (s.tma)
        for (const tcc::TmaDim &d : s.tma->dims)
          for (Value o : d.origin)
            need(o);
    }
    for (auto &[arg, inc] : advancing) {
      need(loop.getTiedLoopInit(cast<BlockArgument>(arg))->get());
      need(inc);
    }
    if (!ok)
      return false;
    ops = set.takeVector();
    llvm::sort(ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    return true;
  }

  /// The prologue of the tile the tile loop's induction value `tile` names, at `b`: the
  /// slice cloned for that value, copies where that tile exists (`tile < ub`), into slots
  /// (count + j) mod S.
  void issueTilePrologue(OpBuilder &b, ArrayRef<Operation *> slice, Value tile, Value count) {
    scf::ForOp outer = enclosing.front();
    IRMapping base;
    base.map(outer.getInductionVar(), tile);
    SmallVector<Operation *> clones;
    for (Operation *op : slice)
      clones.push_back(b.clone(*op, base));
    Value exists = arith::CmpIOp::create(b, loop.getLoc(), arith::CmpIPredicate::slt, tile,
                                         outer.getUpperBound());
    issuePrologue(b, base, exists, count);
    // What the copies did not need (a TMA copy takes the scalars, not the pointer tiles).
    for (Operation *op : llvm::reverse(clones))
      if (op->use_empty())
        op->erase();
  }

  /// The first tile's prologue, before the tile loop, into slots 0 .. D-1 (the tile loop's
  /// count starts at 0: threadCount).
  void issueFirstPrologue(ArrayRef<Operation *> slice) {
    scf::ForOp outer = enclosing.front();
    OpBuilder b(outer);
    issueTilePrologue(b, slice, outer.getLowerBound(), i32(b, 0));
  }

  /// The next tile's prologue, after this tile's K loop and its last products (`last`),
  /// before the epilogue, into slots (count + trips + j) mod S, where the next run of the
  /// loop reads them. The epilogue then runs while they land.
  void issueNextPrologue(ArrayRef<Operation *> slice, Operation *last, Value count,
                         Value trips) {
    scf::ForOp outer = enclosing.front();
    Location loc = loop.getLoc();
    OpBuilder b(loop.getContext());
    // After the last products' waits and the trip count (computed right after the loop,
    // which is itself `last` where no product stays in flight).
    Operation *at = last;
    if (Operation *def = trips.getDefiningOp(); def && last->isBeforeInBlock(def))
      at = def;
    b.setInsertionPointAfter(at);
    Value next = arith::AddIOp::create(b, loc, outer.getInductionVar(), outer.getStep());
    issueTilePrologue(b, slice, next, arith::AddIOp::create(b, loc, count, trips));
  }

  void rewrite() {
    Location loc = loop.getLoc();
    if (!loop.getLowerBound().getType().isInteger(32))
      return; // the language's loops count in i32
    OpBuilder b(loop);
    Value count; // a ring kept across the enclosing loops: its count before this run
    if (nestedRing()) {
      b.setInsertionPoint(enclosing.front());
      createRings(b);
      if (planMulticast())
        setUpMulticast(b);
      count = threadCount();
      b.setInsertionPoint(loop);
    } else {
      createRings(b);
    }
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), step = loop.getStep();
    // Prologue: iterations 0 .. D-1 (in a persistent tile loop, rotated: those of the
    // first tile before the loop, those of the next tile at the end of each tile's K loop).
    SmallVector<Operation *> rotated;
    bool rotate = count && outerSlice(rotated);
    if (!rotate)
      issuePrologue(b, IRMapping(), Value(), count);
    else
      issueFirstPrologue(rotated);

    // The loop: wait for this iteration's group, issue the copies of iteration i + D.
    Block *body = loop.getBody();
    b.setInsertionPointToStart(body);
    Value k = loop.getInductionVar();
    Value index = ringIndex(
        b, count, arith::DivSIOp::create(b, loc, arith::SubIOp::create(b, loc, k, lb), step));
    auto slotAt = [&](int64_t c) -> Value {
      Value x = c ? arith::AddIOp::create(b, loc, index, i32(b, c)).getResult() : index;
      return arith::RemUIOp::create(b, loc, x, i32(b, numStages));
    };
    Value readSlot = slotAt(0), writeSlot = slotAt(distance);
    if (anyCpAsync())
      AsyncWaitOp::create(b, loc, int32_t(distance - 1));
    if (anyTma()) {
      // The bulk copies of this iteration: its slot's mbarrier, in the phase of the
      // index's pass around the ring.
      Value bar = MemDescIndexOp::create(b, loc, barrierType(), barriers, readSlot);
      Value pass = arith::DivUIOp::create(b, loc, index, i32(b, numStages));
      Value phase = arith::AndIOp::create(b, loc, pass, i32(b, 1));
      MBarrierWaitOp::create(b, loc, bar, phase);
    }
    // mma.sync computes synchronously: the copies go first, to fly during the compute.
    // wgmma runs asynchronously: its slot of iteration i - 1 is free once this iteration's
    // wait has retired that product (and, for the other warpgroups, after the barrier
    // tile-allocate-shared puts there): the copies follow the wait, while this iteration's
    // product runs.
    if (inFlight) {
      WarpGroupDotOp lastDot = lastProduct();
      WarpGroupDotWaitOp retire = waitOf(lastDot);
      b.setInsertionPointAfter(retire ? retire.getOperation() : lastDot.getOperation());
    }
    // Multicast: the slot of iteration i - 1, whose products the wait above retired, goes
    // back to the partner (in a run's first iteration there is none: the last run's last
    // slot went back after it).
    Value ringStep;
    if (multicastOn) {
      handBack(b, writeSlot, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, k, lb));
      ringStep = arith::AddIOp::create(b, loc, index, i32(b, distance));
    }
    Value ahead = arith::AddIOp::create(b, loc, k,
                                        arith::MulIOp::create(b, loc, step, i32(b, distance)));
    Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ahead, ub);
    issueCopies(b, ahead, valid, writeSlot, [](Value arg) { return arg; }, distance, nullptr,
                ringStep);
    readSlots(b, readSlot);
    Operation *last = keepProductsInFlight(b);
    b.setInsertionPointAfter(last);
    if (anyCpAsync())
      last = AsyncWaitOp::create(b, loc, 0);
    // Every copy issued was waited for in the loop: the mbarriers' bytes may be reused
    // once they are invalidated (after every thread's last wait: tile-allocate-shared),
    // after the loop nest where the ring serves every run of the loop.
    if (count) {
      Value trips = finishCount(count);
      if (rotate)
        issueNextPrologue(rotated, last, count, trips);
      // Multicast: the run's last slot, its products retired after the loop, back to the
      // partner (before the next tile's prologue).
      if (multicastOn) {
        Operation *at = last;
        if (Operation *def = trips.getDefiningOp(); def && last->isBeforeInBlock(def))
          at = def;
        b.setInsertionPointAfter(at);
        Value lastStep = arith::SubIOp::create(
            b, loc, arith::AddIOp::create(b, loc, count, trips), i32(b, 1));
        Value slot = arith::RemUIOp::create(b, loc, lastStep, i32(b, numStages));
        handBack(b, slot, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, trips, i32(b, 0)));
      }
    }
    if (anyTma()) {
      SmallVector<Value, 2> rings{barriers};
      if (multicastOn)
        rings.push_back(handedBack);
      invalidateAfterNest(rings, last);
    }
    // Multicast: no program leaves (or invalidates its mbarriers) while its partner may
    // still arrive on them.
    if (multicastOn) {
      b.setInsertionPointAfter(enclosing.front());
      ClusterSyncOp::create(b, loc);
    }
    finish();
  }

  //===--------------------------------------------------------------------===//
  // Multicast in clusters of two
  //===--------------------------------------------------------------------===//

  /// Whether `v` (in the tile loop `tiles` or outside it) depends on the tile's index
  /// only through its column (an op tile-persistent marked kTileColumnAttrName, whose
  /// divisor, the same in every tile, must be `divisor` or becomes it), the K loop's
  /// induction variable only where `allowK`, and pointers or integers the K loop advances
  /// likewise. False where it may depend on the tile otherwise, or this cannot tell.
  bool onlyThroughColumn(Value v, scf::ForOp tiles, bool allowK, Value &divisor,
                         DenseSet<Value> &seen) {
    if (!seen.insert(v).second)
      return true;
    auto outside = [&](Value x) {
      Operation *at = isa<BlockArgument>(x) ? cast<BlockArgument>(x).getOwner()->getParentOp()
                                            : x.getDefiningOp();
      return !tiles->isAncestor(at);
    };
    // From outside the loop: the same in both programs unless computed from the program
    // id (the tile loop's start).
    if (outside(v))
      return !tcc::fromProgramId(v);
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg == loop.getInductionVar())
        return allowK;
      if (arg.getOwner() == loop.getBody() && advancing.count(arg))
        return onlyThroughColumn(loop.getTiedLoopInit(arg)->get(), tiles, allowK, divisor,
                                 seen) &&
               onlyThroughColumn(advancing.lookup(arg), tiles, allowK, divisor, seen);
      return false; // the tile's index, or another carried value
    }
    Operation *def = v.getDefiningOp();
    if (def->hasAttr(kTileColumnAttrName) && def->getNumOperands() == 2) {
      Value x = def->getOperand(1);
      if (!invariantSlice(x, tiles) || (divisor && divisor != x))
        return false;
      divisor = x;
      return true;
    }
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return false;
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return onlyThroughColumn(operand, tiles, allowK, divisor, seen);
    });
  }

  /// The ops of the tile loop's body computing `x` the same in every tile (the kernel's
  /// `cdiv(N, BN)`, which tile-persistent moved into the loop), in order, if it is: from
  /// outside values only, not the program id's, by ops without effects.
  static std::optional<SmallVector<Operation *>> invariantSlice(Value x, scf::ForOp tiles) {
    llvm::SetVector<Operation *> ops;
    if (!tcc::loopSliceOf(tiles, x, ops, [](BlockArgument) { return false; }) ||
        tcc::fromProgramId(x))
      return std::nullopt;
    return ops.takeVector();
  }

  /// Whether the loop can multicast (tcc --multicast): the K loop directly in a
  /// persistent kernel's tile loop (tile-persistent's, in grouped order: tiles 2j and
  /// 2j + 1 share a column where the rows are even in number), not warp-specialised,
  /// every stream by TMA, products in flight, bounds that depend on the tile's column at
  /// most (the two programs of a cluster run the same iterations), and a stream whose
  /// coordinates do too (B of a GEMM), of an even number of boxes: the largest such is
  /// sharedStream.
  bool planMulticast() {
    // The slot iteration i - 1 read is the one iteration i + distance fills (handBack).
    if (!multicast || enclosing.size() != 1 || inFlight != 1 || anyCpAsync() || !anyTma() ||
        !waitOf(lastProduct()) || distance != int64_t(numStages) - 1)
      return false;
    scf::ForOp tiles = enclosing.front();
    auto func = loop->getParentOfType<func::FuncOp>();
    auto grid = func ? func->getAttrOfType<ArrayAttr>(kGridAttrName) : ArrayAttr();
    if (!tcc::isPersistentTileLoop(tiles) || !grid || grid.size() != 3 ||
        !tiles.getLowerBound().getDefiningOp<ProgramIdOp>() ||
        !tiles.getStep().getDefiningOp<NumProgramsOp>())
      return false;
    Value divisor;
    DenseSet<Value> seen;
    for (Value bound : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (!onlyThroughColumn(bound, tiles, /*allowK=*/false, divisor, seen))
        return false;
    for (Stream &s : streams) {
      auto map = cast<TensorMapType>(s.map.getType());
      int64_t boxes = 1;
      for (auto [extent, box] : llvm::zip(s.slotType.getTileShape(), map.getBox()))
        boxes *= box ? extent / box : 1;
      Value x = divisor;
      DenseSet<Value> visited;
      bool columnOnly = llvm::all_of(s.tma->dims, [&](const tcc::TmaDim &d) {
        return llvm::all_of(d.origin, [&](Value o) {
          return onlyThroughColumn(o, tiles, /*allowK=*/true, x, visited);
        });
      });
      if (!columnOnly || !x || boxes % 2 != 0)
        continue;
      if (!sharedStream || s.slotType.getTileBytes() > sharedStream->slotType.getTileBytes()) {
        sharedStream = &s;
        columns = x;
      }
    }
    return sharedStream != nullptr;
  }

  /// Before the tile loop, after the rings (at `b`): the ring of mbarriers on which the
  /// partner hands slots back (one arrival per warp), a cluster barrier after their
  /// initialisation, and the run-time condition: the tiles' count a multiple of twice the
  /// columns (the rows even in number, every group of the grouped order too). The kernel
  /// launches in clusters of two, its grid's x rounded up to even.
  void setUpMulticast(OpBuilder &b) {
    auto func = loop->getParentOfType<func::FuncOp>();
    handedBack = createBarrierRing(b, int32_t(getNumWarps(func)));
    ClusterSyncOp::create(b, loop.getLoc());
    IRMapping mapping;
    scf::ForOp tiles = enclosing.front();
    multicastOn = multicastCondition(b, mapping, [&](Operation *def) { return tiles->isAncestor(def); });
    launchInPairs(b, func);
  }

  /// `v` at `b`: the ops computing it that `mustClone` names cloned there first (with their
  /// own operands, through `mapping`), which must be pure, as invariantSlice's are.
  static Value cloneComputing(OpBuilder &b, Value v, IRMapping &mapping,
                              function_ref<bool(Operation *)> mustClone) {
    if (Value known = mapping.lookupOrNull(v))
      return known;
    Operation *def = v.getDefiningOp();
    if (!def || !mustClone(def))
      return v;
    for (Value operand : def->getOperands())
      cloneComputing(b, operand, mapping, mustClone);
    return b.clone(*def, mapping)->getResult(cast<OpResult>(v).getResultNumber());
  }

  /// At `b`, before the tile loop: whether the tiles' count is a multiple of twice the
  /// columns (the rows even in number, every group of the grouped order too), from the tile
  /// loop's bound and the divisor (planMulticast checked its ops in the tile loop), the ops
  /// `mustClone` names cloned at `b` through `mapping`.
  Value multicastCondition(OpBuilder &b, IRMapping &mapping,
                           function_ref<bool(Operation *)> mustClone) {
    Location loc = loop.getLoc();
    Value count = cloneComputing(b, enclosing.front().getUpperBound(), mapping, mustClone);
    Value divisor = cloneComputing(b, columns, mapping, mustClone);
    Value positive = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, divisor, i32(b, 0));
    Value x = arith::SelectOp::create(b, loc, positive, divisor, i32(b, 1));
    Value pairs = arith::RemUIOp::create(b, loc, count, arith::MulIOp::create(b, loc, x, i32(b, 2)));
    return arith::AndIOp::create(
        b, loc, positive,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, pairs, i32(b, 0)));
  }

  /// The kernel launches in clusters of two, its grid's x rounded up to even (once, where
  /// several versions of its body multicast).
  static void launchInPairs(OpBuilder &b, func::FuncOp func) {
    if (func->hasAttr(kClusterSizeAttrName))
      return;
    func->setAttr(kClusterSizeAttrName, b.getI32IntegerAttr(2));
    auto grid = func->getAttrOfType<ArrayAttr>(kGridAttrName);
    SmallVector<Attribute> dims(grid.begin(), grid.end());
    std::string x0 = cast<StringAttr>(dims[0]).getValue().str();
    dims[0] = b.getStringAttr("cdiv(" + x0 + ", 2) * 2");
    func->setAttr(kGridAttrName, b.getArrayAttr(dims));
  }

  /// Where multicasting (and `also`), every warp hands slot `slot` back to the partner
  /// (tile.mbarrier_arrive {peer} on its ring of handedBack).
  void handBack(OpBuilder &b, Value slot, Value also) {
    Location loc = loop.getLoc();
    Value when = arith::AndIOp::create(b, loc, multicastOn, also);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(), when, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    MBarrierArriveOp::create(b, loc, MemDescIndexOp::create(b, loc, barrierType(), handedBack, slot),
                             b.getUnitAttr());
  }

  /// Where multicasting, the program waits until the partner has handed back slot
  /// `slot` of ring step `ringStep` (n): its hand-back of step n - S, the phase
  /// (n / S - 1) mod 2, which a fresh mbarrier reports complete for n < S.
  void awaitHandedBack(OpBuilder &b, Value slot, Value ringStep) {
    Location loc = loop.getLoc();
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(), multicastOn, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value pass = arith::DivUIOp::create(b, loc, ringStep, i32(b, numStages));
    Value parity = arith::XOrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, pass, i32(b, 1)), i32(b, 1));
    MBarrierWaitOp::create(b, loc, MemDescIndexOp::create(b, loc, barrierType(), handedBack, slot),
                           parity, b.getUnitAttr());
  }

  //===--------------------------------------------------------------------===//
  // Warp specialisation
  //===--------------------------------------------------------------------===//

  /// Whether the loop nest the ring serves is the last thing the kernel does (its
  /// outermost loop followed by the return): the warp-specialised schedules that end
  /// without a barrier of all consumers (ping-pong, multicast) need it.
  bool tileLoopEndsKernel() const {
    return nestedRing() && isa_and_nonnull<func::ReturnOp>(enclosing.front()->getNextNode());
  }

  /// Whether a warp-specialised loop gets the ping-pong schedule (tcc --ping-pong): the
  /// K loop directly in a persistent kernel's tile loop, which ends the kernel's body (no
  /// barrier of all consumers is needed after it), in a kernel of one warpgroup, all its
  /// streams by TMA, its bounds the same in every tile (so that a group's ring count
  /// follows from its tiles' order alone).
  bool planPingPong() {
    if (!pingPong || !warpSpecialize || enclosing.size() != 1 || !anyTma() || anyCpAsync())
      return false;
    scf::ForOp tiles = enclosing.front();
    auto func = dyn_cast<func::FuncOp>(tiles->getParentOp());
    if (!func || getNumWarps(func) != WarpSpecializeOp::kProducerWarps ||
        !tcc::isPersistentTileLoop(tiles) || loop->getParentOp() != tiles || !tileLoopEndsKernel())
      return false;
    return llvm::all_of(ValueRange{loop.getLowerBound(), loop.getUpperBound(), loop.getStep()},
                        [&](Value bound) { return invariantSlice(bound, tiles).has_value(); });
  }

  /// Ping-pong, in the consumer region, before the tile loop `tiles` (at `b`): the group's
  /// index and the K loop's trip count (its bounds' ops cloned out of the tile loop).
  std::pair<Value, Value> pingPongSetUp(OpBuilder &b, scf::ForOp tiles) {
    Location loc = loop.getLoc();
    Value group = ConsumerGroupOp::create(b, loc, b.getI32Type());
    // The bounds' ops in the tile loop (planPingPong checked them: invariantSlice).
    IRMapping mapping;
    auto inTiles = [&](Operation *def) { return tiles->isAncestor(def); };
    Value lb = cloneComputing(b, loop.getLowerBound(), mapping, inTiles);
    Value ub = cloneComputing(b, loop.getUpperBound(), mapping, inTiles);
    Value step = cloneComputing(b, loop.getStep(), mapping, inTiles);
    return {group, tripCount(b, lb, ub, step)};
  }

  /// Ping-pong: group `group` takes tiles `lb + group * step, ... by 2 * step` of the tile
  /// loop; before its K loop it waits until the other group's K loop of the program's
  /// previous tile has passed its last wait for a slot (`turns[group]`, phase
  /// `j + group - 1` for its `j`-th tile, none for the program's first), and right after
  /// it (pingPongHandOver), tells the other group so (`turns[1 - group]`). The producer
  /// fills the ring in the program's tile order, so a group waits for its slots only once
  /// the ring has reached its tile: no slot's `full` phase can be two passes behind the one
  /// it waits for.
  void pingPongTurns(scf::ForOp tiles, Value group, Value turns) {
    Location loc = loop.getLoc();
    OpBuilder b(tiles);
    Value lb = arith::AddIOp::create(b, loc, tiles.getLowerBound(),
                                     arith::MulIOp::create(b, loc, group, tiles.getStep()));
    Value step = arith::MulIOp::create(b, loc, tiles.getStep(), i32(b, 2));
    tiles.setLowerBound(lb);
    tiles.setStep(step);
    b.setInsertionPoint(loop);
    Value j = arith::DivSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, tiles.getInductionVar(), lb), step);
    Value sequence = arith::AddIOp::create(b, loc, j, group);
    Value later = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, sequence, i32(b, 0));
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(), later, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      Value parity = arith::AndIOp::create(
          b, loc, arith::SubIOp::create(b, loc, sequence, i32(b, 1)), i32(b, 1));
      MBarrierWaitOp::create(b, loc, MemDescIndexOp::create(b, loc, barrierType(), turns, group),
                             parity);
    }
  }

  /// Ping-pong: right after the K loop, before its last product is waited for, the other
  /// group's turn (its K loop may start while this one's last product runs).
  void pingPongHandOver(Value group, Value turns) {
    Location loc = loop.getLoc();
    OpBuilder b(loop.getContext());
    b.setInsertionPointAfter(loop);
    Value other = arith::SubIOp::create(b, loc, i32(b, 1), group);
    MBarrierArriveOp::create(b, loc, MemDescIndexOp::create(b, loc, barrierType(), turns, other));
  }

  /// What the producer warpgroup computes: the scalar ops of the kernel's body before the
  /// loop (`outer`), of each enclosing loop's body (`levels`, outermost first) and of the
  /// loop's body (`body`) that the bulk copies' coordinates and the loops' bounds need,
  /// and the loop-carried integers among them (each advanced by a fixed increment).
  struct ProducerSlice {
    SmallVector<Operation *> outer, body;
    SmallVector<SmallVector<Operation *>> levels;
    SmallVector<BlockArgument> carried;
  };

  /// The producer's slice, if the loop can have one: the kernel's top-level loop, with
  /// products retired in the body, whole warpgroups of consumers, and coordinates and
  /// bounds that scalar code without effects computes from the kernel's arguments, the
  /// induction variable and advancing integers.
  std::optional<ProducerSlice> planProducer() {
    Operation *top = nestedRing() ? enclosing.front().getOperation() : loop.getOperation();
    auto func = dyn_cast<func::FuncOp>(top->getParentOp());
    // Not in a kernel launched in clusters (tile-split-k's): its cluster barriers wait for
    // every thread of the program, which the producer warpgroup would never bring.
    if (!func || !isKernel(func) || !func.getBody().hasOneBlock() || inFlight > 1 ||
        !waitOf(lastProduct()) || func->hasAttr(kClusterSizeAttrName))
      return std::nullopt;
    unsigned warps = getNumWarps(func);
    if (warps % WarpSpecializeOp::kProducerWarps != 0 ||
        (warps + WarpSpecializeOp::kProducerWarps) * getThreadsPerWarp(func) > 1024)
      return std::nullopt;
    bool already = false;
    func.walk([&](WarpSpecializeOp) { already = true; });
    if (already)
      return std::nullopt;
    Block *entry = &func.getBody().front();
    Block *body = loop.getBody();
    llvm::SetVector<Operation *> outer, inBody;
    SmallVector<llvm::SetVector<Operation *>> levels(enclosing.size());
    llvm::SetVector<BlockArgument> carried;
    bool ok = true;
    std::function<void(Value)> need = [&](Value v) {
      if (!ok || isa<RankedTensorType>(v.getType()) || isa<SharedMemType>(v.getType())) {
        ok = false;
        return;
      }
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() == entry)
          return; // a kernel argument
        for (scf::ForOp around : enclosing)
          if (arg == around.getInductionVar())
            return;
        if (arg.getOwner() != body || !advancing.count(arg)) {
          ok = ok && arg == loop.getInductionVar();
          return;
        }
        if (carried.insert(arg)) {
          need(loop.getTiedLoopInit(arg)->get());
          need(advancing.lookup(arg));
        }
        return;
      }
      Operation *def = v.getDefiningOp();
      llvm::SetVector<Operation *> *into = def->getBlock() == body    ? &inBody
                                           : def->getBlock() == entry ? &outer
                                                                      : nullptr;
      for (auto [around, level] : llvm::zip(enclosing, levels))
        if (def->getBlock() == around.getBody())
          into = &level;
      // Without effects (a division too: the consumers compute the same values).
      if (!into || !isMemoryEffectFree(def) || def->getNumRegions() != 0) {
        ok = false;
        return;
      }
      if (into->contains(def))
        return;
      for (Value operand : def->getOperands())
        need(operand);
      into->insert(def);
    };
    for (scf::ForOp around : enclosing) {
      need(around.getLowerBound());
      need(around.getUpperBound());
      need(around.getStep());
    }
    need(loop.getLowerBound());
    need(loop.getUpperBound());
    need(loop.getStep());
    for (Stream &s : streams)
      for (const tcc::TmaDim &d : s.tma->dims)
        for (Value o : d.origin)
          need(o);
    if (!ok)
      return std::nullopt;
    ProducerSlice slice{outer.takeVector(), inBody.takeVector(), {}, carried.takeVector()};
    for (llvm::SetVector<Operation *> &level : levels)
      slice.levels.push_back(level.takeVector());
    auto byOrder = [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); };
    llvm::sort(slice.outer, byOrder);
    llvm::sort(slice.body, byOrder);
    for (SmallVector<Operation *> &level : slice.levels)
      llvm::sort(level, byOrder);
    return slice;
  }

  /// Registers of each producer thread once setmaxnreg has moved them: few (it computes
  /// coordinates). The consumers get the rest of the register file of one program per SM;
  /// the lowering shares it with more programs where shared memory allows them
  /// (budgetWarpSpecializedRegisters in TmaLowering.cpp).
  static constexpr int32_t kProducerRegisters = 40;

  /// The loop on a producer warpgroup and the kernel on the consumer warps
  /// (tile.warp_specialize): every slot has a `full` mbarrier, which the producer's bulk
  /// copies complete and the consumers wait on, and an `empty` one, on which each
  /// consumer warp arrives once the products reading the slot have retired, and which
  /// the producer waits on before it refills the slot. The producer runs up to a whole
  /// ring ahead; no barrier of the program orders the ring.
  void rewriteWarpSpecialized(const ProducerSlice &slice) {
    Location loc = loop.getLoc();
    auto func = loop->getParentOfType<func::FuncOp>();
    Block *entry = &func.getBody().front();
    unsigned consumerWarps = getNumWarps(func);
    OpBuilder b = OpBuilder::atBlockBegin(entry);
    createRings(b);
    Value full = barriers;
    // Multicast (--multicast): in clusters of two programs whose tile loops take tiles of
    // one column together, each producer copies half of the shared stream's boxes into
    // both programs' slots, so a slot is free only once both programs' consumers have
    // handed it back: its `empty` mbarrier counts their warps, each consumer warp arriving
    // on its own program's and, where multicasting, on the partner's (else on its own
    // twice). Only the producers wait for the partner; the consumers never do. The tile
    // loop must end the kernel: a cluster barrier follows it, no program leaving while its
    // partner may still copy into it or arrive on its mbarriers.
    producerMulticast = groups == 1 && planMulticast() && tileLoopEndsKernel();
    Value empty = createBarrierRing(b, int32_t(consumerWarps * (producerMulticast ? 2 : 1)));
    if (producerMulticast) {
      // The partner may multicast into this program's slots and arrive on its mbarriers
      // from now on.
      ClusterSyncOp::create(b, loc);
      launchInPairs(b, func);
    }
    unsigned warpSize = getThreadsPerWarp(func);
    // Ping-pong: one mbarrier per group, on which the other group's warps arrive.
    Value turns = groups > 1 ? createBarrierRing(b, int32_t(consumerWarps), groups) : Value();
    auto ws = WarpSpecializeOp::create(
        b, loc, kProducerRegisters,
        WarpSpecializeOp::budgetRegisters(consumerWarps * warpSize * groups,
                                          WarpSpecializeOp::kProducerWarps * warpSize,
                                          kProducerRegisters, /*programs=*/1)
            .consumer);
    Block *producer = &ws.getProducer().emplaceBlock();
    Block *consumer = &ws.getConsumer().emplaceBlock();
    consumer->getOperations().splice(consumer->end(), entry->getOperations(),
                                     std::next(ws->getIterator()),
                                     entry->getTerminator()->getIterator());
    func->setAttr(kProducerWarpsAttrName,
                  b.getI32IntegerAttr(int32_t(WarpSpecializeOp::kProducerWarps)));
    if (groups > 1)
      func->setAttr(kConsumerGroupsAttrName, b.getI32IntegerAttr(int32_t(groups)));
    int64_t bytes = 0;
    for (Stream &s : streams)
      bytes += s.slotType.getTileBytes();

    // The producer: the scalars it needs, then the enclosing loops (if any) around a loop
    // of copies.
    b.setInsertionPointToStart(producer);
    IRMapping map;
    for (Operation *op : slice.outer)
      b.clone(*op, map);
    // Multicast: the producer's own copy of the run-time condition (from the consumer
    // region's ops, cloned).
    Value multicastHere;
    if (producerMulticast)
      multicastHere = multicastCondition(b, map, [&](Operation *def) {
        return ws->isAncestor(def) && !ws.getProducer().isAncestor(def->getParentRegion());
      });
    // The loop of copies at `b`, counting the ring from `count` (if carried); returns
    // the count after it.
    auto copyLoop = [&](OpBuilder &b, Value count) -> Value {
    SmallVector<Value> inits;
    for (BlockArgument arg : slice.carried)
      inits.push_back(map.lookupOrDefault(loop.getTiedLoopInit(arg)->get()));
    Value lb = map.lookupOrDefault(loop.getLowerBound());
    Value ub = map.lookupOrDefault(loop.getUpperBound());
    Value step = map.lookupOrDefault(loop.getStep());
    scf::ForOp::create(
        b, loc, lb, ub, step, inits,
        [&](OpBuilder &pb, Location, Value k, ValueRange args) {
          map.map(loop.getInductionVar(), k);
          for (auto [arg, value] : llvm::zip(slice.carried, args))
            map.map(arg, value);
          for (Operation *op : slice.body)
            pb.clone(*op, map);
          Value index = ringIndex(
              pb, count,
              arith::DivSIOp::create(pb, loc, arith::SubIOp::create(pb, loc, k, lb), step));
          Value slot = arith::RemUIOp::create(pb, loc, index, i32(pb, numStages));
          Value pass = arith::DivUIOp::create(pb, loc, index, i32(pb, numStages));
          // The slot's previous pass handed back: phase pass - 1 of its `empty` mbarrier
          // (in the first pass, the phase "before" phase 0, complete from the start).
          Value parity = arith::XOrIOp::create(
              pb, loc, arith::AndIOp::create(pb, loc, pass, i32(pb, 1)), i32(pb, 1));
          MBarrierWaitOp::create(pb, loc, MemDescIndexOp::create(pb, loc, barrierType(), empty, slot),
                                 parity);
          Value bar = MemDescIndexOp::create(pb, loc, barrierType(), full, slot);
          MBarrierExpectOp::create(pb, loc, bar, int32_t(bytes));
          for (Stream &s : streams) {
            SmallVector<Value> coords = tcc::boxCoordinates(pb, loc, *s.tma, map);
            Value dst = MemDescIndexOp::create(pb, loc, s.slotType, s.ring, slot);
            TmaLoadOp::create(pb, loc, s.map, coords, dst, bar,
                              &s == sharedStream ? multicastHere : Value());
          }
          SmallVector<Value> next;
          for (BlockArgument arg : slice.carried)
            next.push_back(advance(pb, map.lookup(arg), map.lookupOrDefault(advancing.lookup(arg)), 1));
          scf::YieldOp::create(pb, loc, next);
        });
    if (!count)
      return Value();
    return arith::AddIOp::create(b, loc, count, tripCount(b, lb, ub, step)).getResult();
    };
    // The enclosing loops from `level` in, each carrying the ring's count.
    std::function<Value(OpBuilder &, size_t, Value)> nest = [&](OpBuilder &b, size_t level,
                                                                Value count) -> Value {
      if (level == enclosing.size())
        return copyLoop(b, count);
      scf::ForOp around = enclosing[level];
      auto clone = scf::ForOp::create(
          b, loc, map.lookupOrDefault(around.getLowerBound()),
          map.lookupOrDefault(around.getUpperBound()), map.lookupOrDefault(around.getStep()),
          ValueRange{count}, [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
            map.map(around.getInductionVar(), iv);
            for (Operation *op : slice.levels[level])
              lb.clone(*op, map);
            scf::YieldOp::create(lb, loc, nest(lb, level + 1, args.front()));
          });
      return clone.getResult(0);
    };
    nest(b, 0, nestedRing() ? i32(b, 0) : Value());

    // The consumers: wait for the slot's copies, compute, hand the slot back once the
    // products reading it have retired. Ping-pong: each group's ring count starts at its
    // first tile's first iteration and skips the other group's tiles.
    Value group, advance, count;
    if (producerMulticast) {
      b.setInsertionPoint(enclosing.front());
      IRMapping mapping;
      scf::ForOp tiles = enclosing.front();
      multicastOn = multicastCondition(b, mapping,
                                       [&](Operation *def) { return tiles->isAncestor(def); });
    }
    if (groups > 1) {
      b.setInsertionPoint(enclosing.front());
      auto [g, trips] = pingPongSetUp(b, enclosing.front());
      group = g;
      advance = arith::MulIOp::create(b, loc, trips, i32(b, int64_t(groups)));
      count = threadCount(arith::MulIOp::create(b, loc, group, trips));
      pingPongTurns(enclosing.front(), group, turns);
    } else if (nestedRing()) {
      count = threadCount();
    }
    Block *body = loop.getBody();
    b.setInsertionPointToStart(body);
    Value k = loop.getInductionVar();
    Value index = arith::DivSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, k, loop.getLowerBound()), loop.getStep());
    Value ring = ringIndex(b, count, index);
    Value readSlot = arith::RemUIOp::create(b, loc, ring, i32(b, numStages));
    Value pass = arith::DivUIOp::create(b, loc, ring, i32(b, numStages));
    MBarrierWaitOp::create(b, loc, MemDescIndexOp::create(b, loc, barrierType(), full, readSlot),
                           arith::AndIOp::create(b, loc, pass, i32(b, 1)));
    WarpGroupDotWaitOp retire = waitOf(lastProduct());
    b.setInsertionPointAfter(retire);
    if (inFlight) {
      // The product of this iteration still reads its slot; the previous one's is free.
      Value started = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, index, i32(b, 0));
      handBackIf(b, started, arith::AddIOp::create(b, loc, ring, i32(b, numStages - 1)), empty);
    } else {
      releaseSlot(b, readSlot, empty);
    }
    readSlots(b, readSlot);
    Operation *last = keepProductsInFlight(b);
    if (groups > 1)
      pingPongHandOver(group, turns);
    b.setInsertionPointAfter(last);
    if (count) {
      Value trips = finishCount(count, advance);
      if (inFlight) {
        // The last product has retired: its slot goes back to the producer, which fills
        // it for the next run of the loop.
        Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, trips, i32(b, 0));
        handBackIf(b, any,
                   arith::AddIOp::create(b, loc, count,
                                         arith::SubIOp::create(b, loc, trips, i32(b, 1))),
                   empty);
      }
    }
    // Every copy was waited for and every slot handed back by the last wait: after every
    // consumer's (tile-allocate-shared puts a barrier of theirs first), the mbarriers'
    // bytes may be reused, after the loop nest where the ring serves every run of the loop.
    // Ping-pong: the tile loop ends the kernel (planPingPong), whose shared memory nothing
    // reuses; the groups have no barrier in common to invalidate after.
    if (groups == 1 && !producerMulticast)
      invalidateAfterNest({full, empty}, last);
    if (producerMulticast) {
      b.setInsertionPointAfter(ws);
      ClusterSyncOp::create(b, loc);
    }
    finish();
  }

  /// Where `condition` holds, one arrival on the `empty` mbarrier of slot `index mod S`:
  /// the slot goes back to the producer.
  void handBackIf(OpBuilder &b, Value condition, Value index, Value empty) {
    Location loc = loop.getLoc();
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(), condition, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value slot = arith::RemUIOp::create(b, loc, index, i32(b, numStages));
    releaseSlot(b, slot, empty);
  }

  /// Every consumer warp's arrival on `empty[slot]`: the slot goes back to the producer;
  /// with the producers multicasting, a second arrival, on the partner's where
  /// multicasting, else on this program's again.
  void releaseSlot(OpBuilder &b, Value slot, Value empty) {
    Location loc = loop.getLoc();
    Value bar = MemDescIndexOp::create(b, loc, barrierType(), empty, slot);
    MBarrierArriveOp::create(b, loc, bar);
    if (!producerMulticast)
      return;
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(), multicastOn, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    MBarrierArriveOp::create(b, loc, bar, b.getUnitAttr());
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    MBarrierArriveOp::create(b, loc, bar);
  }

  /// The rings of the streams and, for TMA, their mbarriers (one per slot, completed by
  /// that slot's bulk copies), made at `b`.
  void createRings(OpBuilder &b) {
    Location loc = loop.getLoc();
    for (Stream &s : streams) {
      SharedMemType tile = s.slotType;
      SmallVector<int64_t> shape{int64_t(numStages)};
      shape.append(tile.getShape().begin(), tile.getShape().end());
      auto ringType = SharedMemType::get(loop.getContext(), shape, tile.getElementType(),
                                         tile.getEncoding());
      s.ring = LocalAllocOp::create(b, loc, ringType, Value(), IntegerAttr());
    }
    if (anyTma())
      barriers = createBarrierRing(b, 1);
  }

  /// A ring of mbarriers, one per slot (or `slots`), expecting `count` arrivals each.
  Value createBarrierRing(OpBuilder &b, int32_t count, int64_t slots = 0) {
    Location loc = loop.getLoc();
    auto encoding = NVMMASharedEncodingAttr::get(loop.getContext(), 0, {0});
    auto ringType = SharedMemType::get(loop.getContext(), {slots ? slots : int64_t(numStages), 1},
                                       b.getI64Type(), encoding);
    Value ring = LocalAllocOp::create(b, loc, ringType, Value(), IntegerAttr());
    MBarrierInitOp::create(b, loc, ring, count);
    return ring;
  }

  /// The body's last tensor-core product, and the wait that retires it in the body.
  WarpGroupDotOp lastProduct() {
    WarpGroupDotOp lastDot;
    loop.getBody()->walk([&](WarpGroupDotOp dot) { lastDot = dot; });
    return lastDot;
  }
  static WarpGroupDotWaitOp waitOf(WarpGroupDotOp dot) {
    WarpGroupDotWaitOp retire;
    if (dot)
      for (Operation *user : dot->getUsers())
        if (auto wait = dyn_cast<WarpGroupDotWaitOp>(user))
          retire = wait;
    return retire;
  }

  /// The stored tiles become views of the rings' slot `readSlot`; their loads go.
  void readSlots(OpBuilder &b, Value readSlot) {
    Location loc = loop.getLoc();
    for (Stream &s : streams) {
      b.setInsertionPoint(s.alloc);
      Value slot = MemDescIndexOp::create(b, loc, s.slotType, s.ring, readSlot);
      if (!s.between.empty())
        slot = MemDescTransOp::create(b, loc, s.alloc.getType(), slot);
      s.alloc.getResult().replaceAllUsesWith(slot);
      s.alloc.erase();
      for (Operation *op : s.between)
        op->erase();
      s.load.erase();
    }
  }

  /// With products in flight, the product of an iteration stays in flight into the next
  /// one (the one before has landed) and is waited for after the loop. Returns the last op
  /// of the loop and those waits.
  Operation *keepProductsInFlight(OpBuilder &b) {
    Location loc = loop.getLoc();
    Block *body = loop.getBody();
    if (inFlight) {
      auto yield = cast<scf::YieldOp>(body->getTerminator());
      body->walk([&](WarpGroupDotWaitOp wait) {
        for (OpOperand &use : wait.getResult().getUses()) {
          if (use.getOwner() != yield)
            return;
        }
        wait.setPending(int32_t(inFlight));
        b.setInsertionPointAfter(loop);
        for (OpOperand &use : wait.getResult().getUses()) {
          Value result = loop.getResult(use.getOperandNumber());
          auto done = WarpGroupDotWaitOp::create(b, loc, result.getType(), result, 0);
          result.replaceAllUsesExcept(done, done);
        }
      });
    }
    // After the wgmma retirement (if any): no copy may still be writing the rings.
    Operation *last = loop;
    while (auto next = dyn_cast_or_null<WarpGroupDotWaitOp>(last->getNextNode()))
      last = next;
    return last;
  }

  /// The loop's stage count is used; the address arithmetic of the loads replaced, now
  /// unused, goes.
  void finish() {
    loop->removeAttr(kNumStagesAttrName);
    // The address arithmetic of the loads replaced, now unused.
    llvm::SetVector<Operation *> sliceOps;
    for (Stream &s : streams)
      sliceOps.insert(s.slice.begin(), s.slice.end());
    SmallVector<Operation *> ordered = sliceOps.takeVector();
    llvm::sort(ordered, [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
    for (Operation *op : ordered) // users before their operands' definitions
      if (op->use_empty())
        op->erase();
  }
};

struct SoftwarePipeline : tcc::impl::TilePipelineBase<SoftwarePipeline> {
  using TilePipelineBase::TilePipelineBase;

  void runOnOperation() override {
    tcc::forEachLoopWithStages(getOperation(), numStages, [&](scf::ForOp loop, unsigned stages) {
      // Warp-specialised everywhere (--warp-specialize), or where the source asked for it
      // on this loop or one around it (range(..., warp_specialize=True)).
      bool asked = false;
      for (Operation *op = loop; op && !isa<func::FuncOp>(op); op = op->getParentOp())
        asked |= op->hasAttr(kSpecializeWarpsAttrName);
      Pipeliner(loop, stages, tma, warpSpecialize || pingPong || asked, multicast, pingPong)
          .run();
    });
    // Which remainder is a tile's column served the multicast only.
    getOperation().walk([](Operation *op) { op->removeAttr(kTileColumnAttrName); });
  }
};

} // namespace
