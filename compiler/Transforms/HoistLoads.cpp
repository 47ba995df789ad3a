//===- HoistLoads.cpp - tile-hoist-loads ------------------------------------===//
//
// matmul + bias loads its bias row after the K loop: the program has retired its last
// products and waits for global memory (about a microsecond under a GEMM's traffic)
// before the epilogue can go on. The row does not depend on the loop, so it can be
// loaded before it:
//
//   acc = for k ...: acc = dot(a_k, b_k, acc)          bias = load(p, mask)
//   bias = load(p, mask)                        =>     acc = for k ...: acc = dot(...)
//   out = acc + bias                                   out = acc + bias
//
// Walking back from a load in the same block, the load can pass an op that neither
// computes one of its operands nor writes global memory; the pure ops computing its
// operands come along. It stops at the first op it cannot pass, and at control flow other
// than a loop with a dot (a loop polling a flag another program sets once the data is
// there); of what it passed, it goes before the first loop with a dot (each op passed
// lengthens the load's registers' life). Writes are judged conservatively: a
// load, a shared-memory op, an asynchronous copy, a barrier, a product, an assume or a
// pure op is not one; any other op with effects (a store, an atomic, an assert, a print,
// an out-of-bounds record) is. A thread keeps what it loaded in registers through the
// loop, so only loads of at most 128 bits per thread move.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/Distribution.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_TILEHOISTLOADS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Registers' worth of a loaded value a thread may keep through a loop.
constexpr int64_t kMaxBitsPerThread = 128;

/// Whether `op` (or an op nested in it) may write global memory.
bool mayWriteGlobal(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (isa<LoadOp, LocalAllocOp, LocalLoadOp, AsyncCopyOp, AsyncCommitOp, AsyncWaitOp,
            BarrierOp, FenceAsyncSharedOp, WarpGroupDotOp, WarpGroupDotWaitOp, AssumeOp>(
            nested))
      return WalkResult::advance();
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance(); // its nested ops are visited
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (effects && effects.hasNoEffect())
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return result.wasInterrupted();
}

bool hasDot(scf::ForOp loop) {
  return loop.getBody()
      ->walk([](Operation *op) {
        return isa<DotOp, WarpGroupDotOp>(op) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Bits of `type` a thread holds; std::nullopt where its layout is not known.
std::optional<int64_t> bitsPerThread(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type.getIntOrFloatBitWidth();
  std::optional<Distribution> dist = Distribution::get(tensor);
  if (!dist)
    return std::nullopt;
  return dist->getNumRegs() * int64_t(tensor.getElementTypeBitWidth());
}

/// Moves `load` before the first dot loop it can pass, with the pure ops after that
/// point computing its operands; false if it stays.
bool hoist(LoadOp load) {
  Block *block = load->getBlock();
  std::optional<int64_t> bits = bitsPerThread(load.getType());
  if (!bits || *bits > kMaxBitsPerThread)
    return false;
  // The ops of this block the load depends on (found while walking back).
  llvm::SetVector<Operation *> needed;
  auto need = [&](Operation *op) {
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && def->getBlock() == block)
        needed.insert(def);
  };
  need(load);
  Operation *target = nullptr; // the first dot loop passed
  for (Operation *op = load->getPrevNode(); op; op = op->getPrevNode()) {
    if (needed.contains(op)) {
      if (!isPure(op) || op->getNumRegions() != 0)
        break; // a loop's result, or an op with effects: the load stays below it
      need(op);
      continue;
    }
    if (mayWriteGlobal(op))
      break;
    auto loop = dyn_cast<scf::ForOp>(op);
    bool dotLoop = loop && hasDot(loop);
    // Other control flow may wait for what the load reads (a loop polling a flag that
    // another program sets once the data is written): the load stays below it.
    if (op->getNumRegions() != 0 && !dotLoop)
      break;
    if (dotLoop)
      target = loop;
  }
  if (!target)
    return false;
  SmallVector<Operation *> moving;
  for (Operation *op : needed)
    if (target->isBeforeInBlock(op))
      moving.push_back(op);
  llvm::sort(moving, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : moving)
    op->moveBefore(target);
  load->moveBefore(target);
  return true;
}

struct HoistLoads : tcc::impl::TileHoistLoadsBase<HoistLoads> {
  using TileHoistLoadsBase::TileHoistLoadsBase;

  void runOnOperation() override {
    SmallVector<LoadOp> loads;
    getOperation()->walk([&](LoadOp load) { loads.push_back(load); });
    for (LoadOp load : loads)
      hoist(load);
  }
};

} // namespace
