//===- AllocateShared.cpp - tile-allocate-shared ----------------------------===//
//
// Shared memory is one buffer per program (`tcc_shared`); this pass decides where in it
// every user goes and which barriers and proxy fences order their accesses.
//
// Placement: each tile.local_alloc is live from its definition to its last use, through
// memdesc_index (a use inside a loop that does not hold the definition keeps it live to
// the loop's end; one made in a loop, to the body's end, but in a persistent kernel's
// tile loop); each scratch user (a conversion through shared memory, a reduction
// across warps, a CUDA-core dot) is live during its own op. Buffers are placed first-fit
// in order of decreasing size at the lowest offset, aligned (1024 bytes for swizzled
// tensor-core tiles, 16 otherwise), that no buffer of overlapping lifetime takes.
//
// Ordering: a walk in program order keeps the accesses made since the last barrier. A
// write conflicts with any earlier overlapping access, a read with an earlier write; a
// conflict puts a tile.barrier before the op. cp.async writes count at their issue (their
// target must be free) and again when an async_wait completes them; wgmma reads last
// until a warpgroup_dot_wait retires them. A bulk tensor copy (tile.tma_load) needs its
// target free at its issue, as cp.async does; the mbarrier_wait every reader makes orders
// it before their reads, with no barrier and no fence (it writes through the async proxy). Slots of a ring indexed (x + c) mod S with the
// same x are told apart by c; around a loop's back edge x advances, so c drops by one.
// Before a barrier that makes generic-proxy writes (st.shared, cp.async) to a buffer a
// wgmma reads visible, each writer fences (tile.fence_async_shared). In a warp-specialised
// kernel the walk covers the consumer region: the producer's copies are ordered by the
// rings' full and empty mbarriers, not by barriers.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/PersistentLoop.h"
#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/Passes.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

namespace tcc {
#define GEN_PASS_DEF_TILEALLOCATESHARED
#include "compiler/Conversion/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;
using tcc::convertLayoutScratchBytes;
using tcc::dotScratchBytes;
using tcc::kSharedBytesAttr;
using tcc::kSharedOffsetAttr;
using mlir::tile::kGroupStrideAttrName;
using tcc::reduceScratchBytes;

namespace {

/// One buffer to place: a local_alloc, or an op's scratch.
struct Buffer {
  Operation *owner;
  int64_t bytes, align;
  int64_t start, end; // live range in program order (op numbers)
  int64_t offset = -1;
  int64_t groupStride = 0; // a copy per consumer group, this far apart (ping-pong)
};

/// Where a ring slot is: slot (x + c) mod slots of the ring.
struct Slot {
  Value x;
  int64_t c = 0, slots = 1;
};

/// One shared-memory access.
struct Access {
  int64_t lo, hi; // bytes [lo, hi)
  bool write;
  std::optional<Slot> slot;
  Operation *ring = nullptr; // the local_alloc a slot is of
};

bool overlaps(const Access &a, const Access &b) {
  if (a.hi <= b.lo || b.hi <= a.lo)
    return false;
  if (a.slot && b.slot && a.ring == b.ring && a.slot->x == b.slot->x) {
    int64_t d = (a.slot->c - b.slot->c) % a.slot->slots;
    return d == 0;
  }
  return true;
}

/// The index as (x + c) mod S, when it has that form.
std::optional<Slot> slotOf(Value index, int64_t slots) {
  auto rem = index.getDefiningOp<arith::RemUIOp>();
  APInt divisor;
  if (!rem || !matchPattern(rem.getRhs(), m_ConstantInt(&divisor)) || divisor != slots)
    return std::nullopt;
  Value x = rem.getLhs();
  int64_t c = 0;
  if (auto add = x.getDefiningOp<arith::AddIOp>()) {
    APInt addend;
    if (matchPattern(add.getRhs(), m_ConstantInt(&addend))) {
      x = add.getLhs();
      c = addend.getSExtValue();
    }
  }
  return Slot{x, c, slots};
}

class Allocator {
public:
  explicit Allocator(func::FuncOp func) : func(func) {}

  LogicalResult run(int64_t maxBytes) {
    number();
    collectBuffers();
    place();
    if (total > maxBytes) {
      InFlightDiagnostic error = func.emitError()
                                 << "needs " << total << " bytes of shared memory, more than the "
                                 << maxBytes << " a program can have on this target: use smaller "
                                 << "tiles or fewer pipeline stages";
      if (func->hasAttr(kPersistentAttrName))
        error << " (persistent, the kernel keeps its operand ring beside the epilogue's "
                 "buffers, which could share it otherwise: a stage fewer, or --no-persistent)";
      return error;
    }
    for (Buffer &b : buffers) {
      auto i64 = IntegerType::get(func.getContext(), 64);
      auto attr = IntegerAttr::get(i64, b.offset);
      if (auto alloc = dyn_cast<LocalAllocOp>(b.owner))
        alloc.setOffsetAttr(attr);
      else
        b.owner->setAttr(kSharedOffsetAttr, attr);
      if (b.groupStride)
        b.owner->setAttr(kGroupStrideAttrName, IntegerAttr::get(i64, b.groupStride));
    }
    func->setAttr(kSharedBytesAttr, IntegerAttr::get(IntegerType::get(func.getContext(), 64), total));
    findWgmmaOperands();
    State state;
    walkBlock(func.getBody().front(), state, /*insert=*/true);
    return failure(!races.empty());
  }

private:
  func::FuncOp func;
  DenseMap<Operation *, int64_t> order;    // pre-order number
  llvm::SmallPtrSet<Operation *, 4> races; // copies into what a wgmma in flight reads

  DenseMap<Operation *, int64_t> lastInside; // an op's last nested op number
  SmallVector<Buffer> buffers;
  DenseMap<Operation *, int64_t> offsets;  // buffer owner -> offset
  DenseSet<Operation *> wgmmaRead;         // local_allocs the async proxy reads (a
                                           // warpgroup_dot, a tma_store)
  int64_t total = 0;

  void number() {
    int64_t n = 0;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) { order[op] = n++; });
    func.walk<WalkOrder::PostOrder>([&](Operation *op) {
      int64_t last = order[op];
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (Operation &inner : b)
            last = std::max(last, lastInside.lookup(&inner));
      lastInside[op] = last;
    });
  }

  /// The end of `v`'s live range: its last use, a loop's end for uses in loops that do
  /// not hold the definition, through memdesc_index to the slots' uses.
  int64_t lastUse(Value v, Operation *def) {
    // A buffer made in a loop body lives to the body's end: buffers of one iteration get
    // their own space rather than a barrier between them. Not in a persistent kernel's
    // tile loop (its outermost): each tile's buffers (a cp.async ring, the split loop's
    // second ring, the epilogue's conversion) share space as one program per tile's
    // would, at the cost of the barriers the ordering walk puts in (one a tile, where the
    // next tile's first copies overwrite what this one's epilogue read).
    int64_t end = order[def];
    if (auto loop = def->getParentOfType<LoopLikeOpInterface>();
        loop && !tcc::isPersistentTileLoop(loop))
      end = lastInside[loop];
    for (Operation *user : v.getUsers()) {
      int64_t at = order[user];
      for (Operation *p = user->getParentOp(); p && p != func; p = p->getParentOp())
        if (isa<LoopLikeOpInterface>(p) && !p->isAncestor(def))
          at = std::max(at, lastInside[p]);
      end = std::max(end, at);
      if (isa<MemDescIndexOp, MemDescTransOp>(user))
        end = std::max(end, lastUse(user->getResult(0), def));
    }
    return end;
  }

  void collectBuffers() {
    // Where the consumers of a warp-specialised kernel are several groups, each group has
    // its own copy of every buffer made in the consumer region.
    unsigned groups = getConsumerGroups(func);
    auto perGroup = [&](Operation *op, Buffer b) {
      if (groups > 1) {
        auto ws = op->getParentOfType<WarpSpecializeOp>();
        if (ws && ws.getConsumer().isAncestor(op->getParentRegion())) {
          b.groupStride = llvm::alignTo(b.bytes, b.align);
          b.bytes = b.groupStride * groups;
        }
      }
      buffers.push_back(b);
    };
    func.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
        SharedMemType type = alloc.getType();
        auto nvmma = dyn_cast<NVMMASharedEncodingAttr>(type.getEncoding());
        int64_t align = nvmma && nvmma.getSwizzle() ? 1024 : 16;
        perGroup(op, {op, type.getBytes(), align, order[op], lastUse(alloc, op)});
        return;
      }
      int64_t bytes = scratchBytes(op);
      if (bytes > 0)
        perGroup(op, {op, bytes, 16, order[op], order[op]});
    });
  }

  static int64_t scratchBytes(Operation *op) {
    if (isa<ConvertLayoutOp>(op))
      return convertLayoutScratchBytes(op);
    if (isa<ReduceOp>(op))
      return reduceScratchBytes(op);
    if (isa<ScanOp>(op))
      return tcc::scanScratchBytes(op);
    if (isa<PermuteXorOp>(op))
      return tcc::permuteXorScratchBytes(op);
    if (isa<ReshapeOp>(op))
      return tcc::reshapeScratchBytes(op);
    if (isa<ClusterReduceOp>(op))
      return tcc::clusterReduceScratchBytes(op);
    if (int64_t atomic = tcc::atomicScratchBytes(op))
      return atomic;
    if (auto dot = dyn_cast<DotOp>(op))
      return isa_and_nonnull<MmaEncodingAttr>(dot.getType().getEncoding()) ? 0
                                                                          : dotScratchBytes(op);
    return 0;
  }

  void place() {
    SmallVector<Buffer *> bySize;
    for (Buffer &b : buffers)
      bySize.push_back(&b);
    llvm::stable_sort(bySize, [](Buffer *a, Buffer *b) { return a->bytes > b->bytes; });
    SmallVector<Buffer *> placed;
    for (Buffer *b : bySize) {
      int64_t offset = 0;
      bool moved = true;
      while (moved) {
        moved = false;
        offset = llvm::alignTo(offset, b->align);
        for (Buffer *p : placed) {
          bool live = p->start <= b->end && b->start <= p->end;
          bool space = p->offset < offset + b->bytes && offset < p->offset + p->bytes;
          if (live && space) {
            offset = p->offset + p->bytes;
            moved = true;
          }
        }
      }
      b->offset = offset;
      offsets[b->owner] = offset;
      total = std::max(total, offset + b->bytes);
      placed.push_back(b);
    }
  }

  void findWgmmaOperands() {
    func.walk([&](WarpGroupDotOp dot) {
      for (Value operand : {Value(dot.getA()), Value(dot.getB())})
        if (Operation *root = rootAlloc(operand))
          wgmmaRead.insert(root);
    });
    // A bulk store reads its tile through the async proxy as well.
    func.walk([&](TmaStoreOp store) {
      if (Operation *root = rootAlloc(store.getSrc()))
        wgmmaRead.insert(root);
    });
  }

  /// `mem` without the views over it (memdesc_trans).
  static Value stripViews(Value mem) {
    while (auto trans = mem.getDefiningOp<MemDescTransOp>())
      mem = trans.getSrc();
    return mem;
  }

  static Operation *rootAlloc(Value mem) {
    mem = stripViews(mem);
    while (auto index = mem.getDefiningOp<MemDescIndexOp>())
      mem = stripViews(index.getSrc());
    return mem.getDefiningOp<LocalAllocOp>();
  }

  //===--------------------------------------------------------------------===//
  // Barriers and fences
  //===--------------------------------------------------------------------===//

  struct State {
    SmallVector<Access> pending;          // since the last barrier
    SmallVector<Access> asyncWrites;      // cp.async issued, not yet waited for
    SmallVector<SmallVector<Access>> inFlight; // per wgmma group, oldest first
    SmallVector<Access> unfenced;         // generic writes to wgmma operands, no fence since
  };

  /// The bytes a shared-memory value covers, and its slot.
  Access accessOf(Value mem, bool write) {
    Operation *root = rootAlloc(mem);
    int64_t base = offsets.lookup(root);
    auto rootType = cast<SharedMemType>(root->getResult(0).getType());
    Access a{base, base + rootType.getBytes(), write, std::nullopt, root};
    if (auto index = stripViews(mem).getDefiningOp<MemDescIndexOp>()) {
      APInt constant;
      int64_t tileBytes = index.getType().getTileBytes();
      if (matchPattern(index.getIndex(), m_ConstantInt(&constant))) {
        a.lo = base + constant.getSExtValue() * tileBytes;
        a.hi = a.lo + tileBytes;
      } else {
        a.slot = slotOf(index.getIndex(), rootType.getNumSlots());
      }
    }
    return a;
  }

  Access scratchOf(Operation *op, bool write) {
    int64_t lo = offsets.lookup(op);
    return {lo, lo + scratchBytes(op), write, std::nullopt, nullptr};
  }

  static bool conflicts(const State &s, const Access &a) {
    for (const Access &p : s.pending)
      if ((a.write || p.write) && overlaps(a, p))
        return true;
    return false;
  }

  /// A barrier before `op` (inserting it if `insert`), with a fence before it if writes
  /// a wgmma will read are still unfenced.
  void barrierBefore(Operation *op, State &s, bool insert) {
    if (insert) {
      OpBuilder b(op);
      if (!s.unfenced.empty())
        FenceAsyncSharedOp::create(b, op->getLoc());
      BarrierOp::create(b, op->getLoc());
    }
    s.unfenced.clear();
    s.pending.clear();
  }

  void access(Operation *op, State &s, Access a, bool insert) {
    if (conflicts(s, a))
      barrierBefore(op, s, insert);
    s.pending.push_back(a);
  }

  /// An asynchronous copy's target `a` must be free of wgmma reads in flight. A barrier
  /// cannot order these (wgmma reads asynchronously): only a wait that retires the
  /// product can, which changes values, so it is an error of whoever made the IR.
  void checkNotInFlight(Operation *op, const State &s, const Access &a, bool insert) {
    bool raced = false;
    for (auto &group : s.inFlight)
      for (const Access &r : group)
        raced = raced || overlaps(a, r);
    if (raced && insert && !races.contains(op)) {
      races.insert(op);
      op->emitOpError("copies into shared memory that a tile.warpgroup_dot still in flight "
                      "reads: retire it first (tile.warpgroup_dot_wait)");
    }
  }

  void generic(State &s, const Access &a) {
    if (a.ring && wgmmaRead.contains(a.ring))
      s.unfenced.push_back(a);
  }

  /// Advances the slots of ring accesses indexed from values of `body` by one iteration.
  static void nextIteration(State &s, Block *body) {
    auto shift = [&](SmallVector<Access> &list) {
      for (Access &a : list)
        if (a.slot && a.slot->x.getParentBlock() == body)
          --a.slot->c;
    };
    shift(s.pending);
    shift(s.asyncWrites);
    shift(s.unfenced);
    for (auto &group : s.inFlight)
      shift(group);
  }

  static void merge(State &into, const State &other) {
    auto add = [](SmallVector<Access> &a, const SmallVector<Access> &b) {
      a.append(b.begin(), b.end());
    };
    add(into.pending, other.pending);
    add(into.asyncWrites, other.asyncWrites);
    add(into.unfenced, other.unfenced);
    if (other.inFlight.size() > into.inFlight.size())
      into.inFlight.resize(other.inFlight.size());
    for (auto [i, group] : llvm::enumerate(llvm::reverse(other.inFlight)))
      add(into.inFlight[into.inFlight.size() - 1 - i], group);
  }

  void walkBlock(Block &block, State &s, bool insert) {
    for (Operation &op : llvm::make_early_inc_range(block))
      visit(&op, s, insert);
  }

  void visit(Operation *op, State &s, bool insert) {
    // A cluster barrier is one of the program's threads too.
    if (isa<BarrierOp, ClusterSyncOp>(op)) {
      s.pending.clear();
      s.unfenced.clear();
      return;
    }
    if (isa<FenceAsyncSharedOp>(op)) {
      s.unfenced.clear();
      return;
    }
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      if (alloc.getSrc()) {
        Access a = accessOf(alloc, true);
        access(op, s, a, insert);
        generic(s, a);
      }
      return;
    }
    if (auto load = dyn_cast<LocalLoadOp>(op))
      return access(op, s, accessOf(load.getSrc(), false), insert);
    if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
      Access a = accessOf(copy.getDst(), true);
      // The target must be free of earlier accesses, and of wgmma reads in flight.
      checkNotInFlight(op, s, a, insert);
      access(op, s, a, insert);
      s.asyncWrites.push_back(a);
      return;
    }
    if (auto tma = dyn_cast<TmaLoadOp>(op)) {
      // Like a cp.async, its target must be free of earlier accesses (a barrier orders
      // other threads' reads before thread 0 issues it) and of wgmma reads in flight. It
      // writes through the async proxy, which wgmma reads too: no fence; and every thread
      // that reads the tile waits on its mbarrier first, which makes it visible: no
      // barrier after.
      Access a = accessOf(tma.getDst(), true);
      checkNotInFlight(op, s, a, insert);
      if (conflicts(s, a))
        barrierBefore(op, s, insert);
      return;
    }
    if (auto store = dyn_cast<TmaStoreOp>(op)) {
      // Thread 0 reads the tile through the async proxy, after every thread's writes to it
      // (a barrier, with the writers' proxy fence before it), and waits until the copies
      // have read it: for later writers, a read by thread 0.
      return access(op, s, accessOf(store.getSrc(), false), insert);
    }
    if (auto wait = dyn_cast<MBarrierWaitOp>(op)) {
      // The copies it completes are visible to the waiting thread: nothing to record of
      // them. The wait reads the barrier's word (an invalidation must come after it).
      return access(op, s, accessOf(wait.getBarrier(), false), insert);
    }
    if (auto expect = dyn_cast<MBarrierExpectOp>(op))
      return access(op, s, accessOf(expect.getBarrier(), false), insert);
    if (auto arrive = dyn_cast<MBarrierArriveOp>(op))
      return access(op, s, accessOf(arrive.getBarrier(), false), insert);
    if (auto ws = dyn_cast<WarpSpecializeOp>(op)) {
      // The producer and the consumers order their uses of the rings by the rings'
      // mbarriers, and no barrier can join them: a barrier in the consumer region is the
      // consumers' only. The producer's copies need no barrier of their own (their slots
      // are handed back on `empty`).
      State producer;
      walkBlock(ws.getProducer().front(), producer, /*insert=*/false);
      walkBlock(ws.getConsumer().front(), s, insert);
      return;
    }
    if (auto init = dyn_cast<MBarrierInitOp>(op)) {
      // Thread 0 writes the words (after whatever read them last); the lowering ends with
      // a barrier.
      access(op, s, accessOf(init.getBarriers(), true), insert);
      s.pending.clear();
      s.unfenced.clear();
      return;
    }
    if (auto inval = dyn_cast<MBarrierInvalOp>(op))
      return access(op, s, accessOf(inval.getBarriers(), true), insert);
    if (isa<AsyncWaitOp>(op)) {
      // Conservatively, every copy issued so far has landed: for other threads, a write.
      for (const Access &a : s.asyncWrites) {
        s.pending.push_back(a);
        generic(s, a);
      }
      if (cast<AsyncWaitOp>(op).getPending() == 0)
        s.asyncWrites.clear();
      return;
    }
    if (auto dot = dyn_cast<WarpGroupDotOp>(op)) {
      SmallVector<Access> reads{accessOf(dot.getB(), false)};
      if (isa<SharedMemType>(dot.getA().getType())) // else in registers
        reads.push_back(accessOf(dot.getA(), false));
      for (const Access &r : reads)
        if (conflicts(s, r)) {
          barrierBefore(op, s, insert);
          break;
        }
      s.inFlight.push_back(reads);
      return;
    }
    if (auto wait = dyn_cast<WarpGroupDotWaitOp>(op)) {
      unsigned keep = wait.getPending();
      while (s.inFlight.size() > keep) {
        for (const Access &r : s.inFlight.front())
          s.pending.push_back(r);
        s.inFlight.erase(s.inFlight.begin());
      }
      return;
    }
    if (scratchBytes(op) > 0) {
      // Write, the op's own barrier, read.
      access(op, s, scratchOf(op, true), insert);
      s.pending.clear();
      s.pending.push_back(scratchOf(op, false));
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      // Twice around the body: the second time, with what the first left at the back
      // edge; barriers go in on that pass only, where the state is complete.
      State entry = s;
      State first = s;
      walkBlock(*loop.getBody(), first, /*insert=*/false);
      nextIteration(first, loop.getBody());
      State second = entry;
      merge(second, first);
      walkBlock(*loop.getBody(), second, insert);
      // After the loop: its last iteration, or no iteration at all.
      s = second;
      merge(s, entry);
      return;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      State thenState = s, elseState = s;
      walkBlock(ifOp.getThenRegion().front(), thenState, insert);
      if (!ifOp.getElseRegion().empty())
        walkBlock(ifOp.getElseRegion().front(), elseState, insert);
      s = thenState;
      merge(s, elseState);
      return;
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        walkBlock(block, s, insert);
  }
};

struct AllocateShared : tcc::impl::TileAllocateSharedBase<AllocateShared> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t maxBytes = getTarget(module).getMaxSharedBytes();
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && failed(Allocator(func).run(maxBytes)))
        return signalPassFailure();
  }
};

} // namespace
