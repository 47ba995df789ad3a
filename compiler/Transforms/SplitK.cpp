//===- SplitK.cpp - tile-split-k --------------------------------------------===//
//
// A GEMM with fewer tiles than the GPU has SMs (512 x 512 x 8192: 16 tiles of 128 x 128 on
// 132 SMs) leaves most SMs idle however long its K loop runs. Split over K, N programs
// share each tile: program p computes tile p / N over its rank's share of the K loop,
// and the N partial sums meet in rank 0 of a cluster of N programs through distributed
// shared memory, without a workspace in global memory or atomics:
//
//   %pid = tile.program_id 0              %pid = tile.program_id 0
//   ...(uses of %pid)...                  %t = %pid / N, %r = %pid % N  (uses: %t)
//   %acc = scf.for %k = lb to ub          %acc = scf.for %k = lb + first(r) * step
//       iter_args(zeros, %p = %p0)  =>               to lb + last(r) * step
//     ... tile.dot ...                        iter_args(zeros, %p = %p0 + first(r) * inc)
//   <epilogue: %acc's uses>               %sum = tile.cluster_reduce %acc
//                                         scf.if %r == 0 { <epilogue: %sum's uses> }
//
// with first(r) = min(r * cdiv(trips, N), trips), last(r) = min(first(r) + cdiv(trips, N),
// trips); the kernel gets `tile.cluster_size = N` and `tile.split_k = N`, its grid's x is
// multiplied by N (consecutive programs form a cluster, so rank = program id mod N).
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/LoopSlice.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tcc {
#define GEN_PASS_DEF_TILESPLITK
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

/// What the split changes in the K loop: the accumulator's position among its carried
/// values, the carried values advanced by a fixed increment (tcc::loopIncrement: each
/// one's position and increment) and the body's ops computing the increments.
struct SplitPlan {
  scf::ForOp loop;
  unsigned acc = 0;
  SmallVector<std::pair<unsigned, Value>> advanced;
  llvm::SetVector<Operation *> incrementOps;
};

bool isZeroTile(Value v) {
  return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
}

/// The kernel's K loop, if tile-split-k can take the kernel: on sm_90 or later (clusters),
/// a one-dimensional grid, a body of one block, one loop at its top level holding the
/// kernel's one dot directly, whose accumulator (f32) starts at zero and whose other
/// carried values are advanced by a fixed increment and unused after the loop.
std::optional<SplitPlan> planSplit(func::FuncOp func) {
  if (!isKernel(func) || !func.getBody().hasOneBlock() ||
      func->hasAttr(kClusterSizeAttrName) || getTarget(func).getComputeCapability() < 90)
    return std::nullopt;
  auto grid = func->getAttrOfType<ArrayAttr>(kGridAttrName);
  if (!grid || grid.size() != 3 || !isa<StringAttr>(grid[0]) ||
      grid[1] != StringAttr::get(func.getContext(), "1") ||
      grid[2] != StringAttr::get(func.getContext(), "1"))
    return std::nullopt;
  SmallVector<DotOp> dots;
  func.walk([&](DotOp dot) { dots.push_back(dot); });
  if (dots.size() != 1)
    return std::nullopt;
  DotOp dot = dots.front();
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  Block &entry = func.getBody().front();
  if (!loop || loop->getBlock() != &entry)
    return std::nullopt;
  // What the kernel writes before the loop, every rank would write again (an atomic N
  // times), and what the loop writes, the ranks would write at once where one iteration
  // may read the last one's: only reads and pure ops come before the loop and in it.
  auto writes = [](Operation *op) {
    if (isMemoryEffectFree(op))
      return false;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    return !effects || effects.hasEffect<MemoryEffects::Write>();
  };
  for (Operation &op : entry) {
    if (&op == loop.getOperation())
      break;
    if (writes(&op))
      return std::nullopt;
  }
  if (loop.getBody()
          ->walk([&](Operation *op) {
            return writes(op) ? WalkResult::interrupt() : WalkResult::advance();
          })
          .wasInterrupted())
    return std::nullopt;
  auto acc = dyn_cast<BlockArgument>(dot.getAcc());
  if (!acc || acc.getOwner() != loop.getBody() || acc == loop.getInductionVar())
    return std::nullopt;
  SplitPlan plan{loop, unsigned(acc.getArgNumber() - 1), {}, {}};
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (yield.getOperand(plan.acc) != dot.getResult() ||
      !cast<RankedTensorType>(dot.getType()).getElementType().isF32() ||
      !isZeroTile(loop.getInitArgs()[plan.acc]))
    return std::nullopt;
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (i == plan.acc)
      continue;
    Value inc = tcc::loopIncrement(loop, arg, plan.incrementOps);
    if (!inc || !loop.getResult(i).use_empty())
      return std::nullopt;
    plan.advanced.push_back({unsigned(i), inc});
  }
  return plan;
}

/// `v` (an integer or index) as `type` (an integer or index).
Value castInt(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  if (isa<IndexType>(type) || isa<IndexType>(v.getType()))
    return arith::IndexCastOp::create(b, loc, type, v);
  if (type.getIntOrFloatBitWidth() > v.getType().getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(b, loc, type, v);
  return arith::TruncIOp::create(b, loc, type, v);
}

void split(func::FuncOp func, SplitPlan &plan, unsigned splits) {
  Location loc = func.getLoc();
  Block &entry = func.getBody().front();
  scf::ForOp loop = plan.loop;
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Type i32 = b.getI32Type();
  Value n = arith::ConstantIntOp::create(b, loc, i32, splits);
  // The program's tile and its rank in the cluster of the tile's programs.
  Value pid = ProgramIdOp::create(b, loc, i32, 0);
  Value tile = arith::DivUIOp::create(b, loc, pid, n);
  Value rank = arith::RemUIOp::create(b, loc, pid, n);
  SmallVector<Operation *> ids;
  func.walk([&](Operation *op) {
    if (auto id = dyn_cast<ProgramIdOp>(op); id && id != pid.getDefiningOp() && id.getAxis() == 0)
      ids.push_back(op);
    if (auto programs = dyn_cast<NumProgramsOp>(op); programs && programs.getAxis() == 0)
      ids.push_back(op);
  });
  for (Operation *op : ids) {
    if (isa<ProgramIdOp>(op)) {
      op->getResult(0).replaceAllUsesWith(tile);
    } else {
      OpBuilder at(op);
      auto programs = NumProgramsOp::create(at, op->getLoc(), i32, 0);
      op->getResult(0).replaceAllUsesWith(
          arith::DivUIOp::create(at, op->getLoc(), programs, n).getResult());
    }
    op->erase();
  }

  // The rank's share of the iterations: [first, last) of `trips`, cdiv(trips, N) each.
  b.setInsertionPoint(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), step = loop.getStep();
  Type iv = lb.getType();
  auto constant = [&](int64_t v) -> Value {
    if (isa<IndexType>(iv))
      return arith::ConstantIndexOp::create(b, loc, v);
    return arith::ConstantIntOp::create(b, loc, iv, v);
  };
  Value trips = arith::MaxSIOp::create(
      b, loc, arith::CeilDivSIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb), step),
      constant(0));
  Value per = arith::CeilDivSIOp::create(b, loc, trips, constant(splits));
  Value first = arith::MinSIOp::create(
      b, loc, arith::MulIOp::create(b, loc, castInt(b, loc, rank, iv), per), trips);
  Value last =
      arith::MinSIOp::create(b, loc, arith::AddIOp::create(b, loc, first, per), trips);
  loop.setLowerBound(
      arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, first, step)));
  loop.setUpperBound(
      arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, last, step)));
  // Carried values start where the rank's first iteration finds them: the increments'
  // ops (invariant) cloned before the loop.
  IRMapping invariant;
  for (Operation *op : plan.incrementOps)
    b.clone(*op, invariant);
  for (auto [index, inc] : plan.advanced) {
    Value increment = invariant.lookupOrDefault(inc);
    Type type = increment.getType();
    auto tileType = dyn_cast<RankedTensorType>(type);
    Value count = castInt(b, loc, first, tileType ? tileType.getElementType() : type);
    if (tileType)
      count = SplatOp::create(b, loc, tileType, count);
    Value skipped = arith::MulIOp::create(b, loc, increment, count);
    Value init = loop.getInitArgs()[index];
    Value start = isa<RankedTensorType>(init.getType())
                      ? AddPtrOp::create(b, loc, init.getType(), init, skipped).getResult()
                      : arith::AddIOp::create(b, loc, init, skipped).getResult();
    loop.getInitArgsMutable()[index].assign(start);
  }

  // The partial sums meet in rank 0, which alone runs the rest of the kernel.
  b.setInsertionPointAfter(loop);
  Value partial = loop.getResult(plan.acc);
  auto sum = ClusterReduceOp::create(b, loc, partial.getType(), partial);
  partial.replaceAllUsesExcept(sum.getResult(), sum);
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                                        arith::ConstantIntOp::create(b, loc, i32, 0));
  auto epilogue = scf::IfOp::create(b, loc, TypeRange(), isFirst, /*withElseRegion=*/false);
  Block *then = epilogue.thenBlock();
  then->getOperations().splice(then->getTerminator()->getIterator(), entry.getOperations(),
                               std::next(epilogue->getIterator()),
                               entry.getTerminator()->getIterator());

  auto grid = func->getAttrOfType<ArrayAttr>(kGridAttrName);
  std::string x = "(" + cast<StringAttr>(grid[0]).getValue().str() + ") * " +
                  std::to_string(splits);
  func->setAttr(kGridAttrName, b.getStrArrayAttr({x, "1", "1"}));
  func->setAttr(kClusterSizeAttrName, b.getI32IntegerAttr(int32_t(splits)));
  func->setAttr(kSplitKAttrName, b.getI32IntegerAttr(int32_t(splits)));
}

struct SplitK : tcc::impl::TileSplitKBase<SplitK> {
  using TileSplitKBase::TileSplitKBase;
  void runOnOperation() override {
    if (splits != 1 && splits != 2 && splits != 4 && splits != 8) {
      getOperation().emitError() << "tile-split-k: " << unsigned(splits)
                                 << " programs per tile (expected 1, 2, 4 or 8)";
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      // The option splits every kernel it can; without it, a kernel whose configuration
      // asks (`config(..., split_k=N)`: `tile.split_k` from the front end) is split.
      auto asked = func->getAttrOfType<IntegerAttr>(kSplitKAttrName);
      unsigned n = splits > 1 ? unsigned(splits) : asked ? unsigned(asked.getInt()) : 1;
      if (n <= 1 || func->hasAttr(kClusterSizeAttrName))
        continue;
      if (std::optional<SplitPlan> plan = planSplit(func)) {
        split(func, *plan, n);
        continue;
      }
      if (asked) {
        func.emitWarning() << "split_k=" << asked.getInt()
                           << ": the kernel is built without split-K (tile-split-k takes a "
                              "kernel of sm_90 or later with a one-dimensional grid and one "
                              "dot in a loop at its top level, its accumulator from zero)";
        func->removeAttr(kSplitKAttrName);
      }
    }
  }
};

} // namespace
