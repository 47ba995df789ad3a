//===- EmitControl.cpp - scf.for, scf.if, scf.while and calls -------------===//
//
// Regions become nested instruction lists. Loop-carried values live in the body's block
// argument slots; the loop's results share those slots, so a loop ends with its results
// already in place. A call is inlined at compile time with its own set of slots.
//
//===----------------------------------------------------------------------===//

#include "compiler/Interpreter/Compiler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace tcc::interp {
namespace {

/// Copies values into slots "in parallel": when a source is also a destination (a yield
/// that swaps loop-carried values), everything goes through a staging copy first.
struct ParallelCopy {
  std::vector<std::pair<void *, const void *>> moves; // dst, src
  std::vector<size_t> sizes;
  bool staged = false;
  std::vector<unsigned char> staging;

  void add(const Slot &dst, const Slot &src) {
    if (dst.data == src.data)
      return;
    moves.push_back({dst.data, src.data});
    sizes.push_back(dst.bytes());
  }
  void finish() {
    size_t total = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
      total += sizes[i];
      for (auto &other : moves)
        if (other.second == moves[i].first)
          staged = true;
    }
    if (staged)
      staging.resize(total);
  }
  void run() {
    if (!staged) {
      for (size_t i = 0; i < moves.size(); ++i)
        std::memcpy(moves[i].first, moves[i].second, sizes[i]);
      return;
    }
    size_t at = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
      std::memcpy(staging.data() + at, moves[i].second, sizes[i]);
      at += sizes[i];
    }
    at = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
      std::memcpy(moves[i].first, staging.data() + at, sizes[i]);
      at += sizes[i];
    }
  }
};

std::shared_ptr<ParallelCopy> copies(Compiler &c, ValueRange dsts, ValueRange srcs) {
  auto pc = std::make_shared<ParallelCopy>();
  for (auto [d, s] : llvm::zip(dsts, srcs))
    pc->add(c.slot(d), c.slot(s));
  pc->finish();
  return pc;
}

Emitted emitFor(Compiler &c, scf::ForOp op, InstList &out) {
  Block &body = *op.getBody();
  const Slot &lb = c.slot(op.getLowerBound()), &ub = c.slot(op.getUpperBound()),
             &step = c.slot(op.getStep()), &iv = c.slot(op.getInductionVar());
  auto inits = copies(c, op.getRegionIterArgs(), op.getInitArgs());
  for (auto [result, arg] : llvm::zip(op.getResults(), op.getRegionIterArgs()))
    c.alias(result, arg);
  auto list = std::make_shared<InstList>();
  if (!c.emitBlock(body, *list))
    return Emitted::Failed;
  auto yields = copies(c, op.getRegionIterArgs(), body.getTerminator()->getOperands());
  bool isUnsigned = op.getUnsignedCmp();
  OpSite *site = c.site(op);
  DType ivType = iv.dtype;
  unsigned width = intWidth(ivType);
  out.push_back([=, lb = lb.data, ub = ub.data, step = step.data, ivp = iv.data](ExecState &st) {
    inits->run();
    int64_t lo = elementAsInt(ivType, lb), hi = elementAsInt(ivType, ub),
            s = elementAsInt(ivType, step);
    if (isUnsigned && width < 64) {
      uint64_t m = (uint64_t(1) << width) - 1;
      lo = int64_t(uint64_t(lo) & m);
      hi = int64_t(uint64_t(hi) & m);
    }
    if (s <= 0 && lo < hi) {
      st.fail(site, "scf.for step " + std::to_string(s) + " is not positive");
      return;
    }
    for (int64_t i = lo; i < hi; i += s) {
      elementFromInt(ivType, i, ivp);
      runList(*list, st);
      if (st.failed)
        return;
      yields->run();
    }
  });
  return Emitted::Done;
}

Emitted emitIf(Compiler &c, scf::IfOp op, InstList &out) {
  const uint8_t *cond = c.slot(op.getCondition()).as<uint8_t>();
  auto thenList = std::make_shared<InstList>(), elseList = std::make_shared<InstList>();
  std::shared_ptr<ParallelCopy> thenYield, elseYield;
  if (!c.emitBlock(*op.thenBlock(), *thenList))
    return Emitted::Failed;
  thenYield = copies(c, op.getResults(), op.thenYield().getOperands());
  if (op.elseBlock()) {
    if (!c.emitBlock(*op.elseBlock(), *elseList))
      return Emitted::Failed;
    elseYield = copies(c, op.getResults(), op.elseYield().getOperands());
  }
  out.push_back([=](ExecState &st) {
    if (*cond & 1) {
      runList(*thenList, st);
      if (!st.failed)
        thenYield->run();
    } else if (elseYield) {
      runList(*elseList, st);
      if (!st.failed)
        elseYield->run();
    }
  });
  return Emitted::Done;
}

Emitted emitWhile(Compiler &c, scf::WhileOp op, InstList &out) {
  Block &before = op.getBefore().front(), &after = op.getAfter().front();
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  auto inits = copies(c, before.getArguments(), op.getInits());
  auto beforeList = std::make_shared<InstList>(), afterList = std::make_shared<InstList>();
  if (!c.emitBlock(before, *beforeList))
    return Emitted::Failed;
  auto toAfter = copies(c, after.getArguments(), cond.getArgs());
  auto toResults = copies(c, op.getResults(), cond.getArgs());
  const uint8_t *flag = c.slot(cond.getCondition()).as<uint8_t>();
  if (!c.emitBlock(after, *afterList))
    return Emitted::Failed;
  auto back = copies(c, before.getArguments(), after.getTerminator()->getOperands());
  out.push_back([=](ExecState &st) {
    inits->run();
    for (;;) {
      runList(*beforeList, st);
      if (st.failed)
        return;
      if (!(*flag & 1)) {
        toResults->run();
        return;
      }
      toAfter->run();
      runList(*afterList, st);
      if (st.failed)
        return;
      back->run();
    }
  });
  return Emitted::Done;
}

Emitted emitCall(Compiler &c, func::CallOp call, InstList &out) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(call, call.getCalleeAttr());
  if (!callee || callee.isExternal())
    return c.fail(call, "calls '" + call.getCallee() + "', which has no body to interpret");
  if (c.inlineDepth > 32)
    return c.fail(call, "calls nest too deeply (recursion cannot be interpreted)");
  if (!callee.getBody().hasOneBlock())
    return c.fail(call, "'" + call.getCallee() + "' has more than one block");
  std::vector<Slot> args;
  for (Value v : call.getOperands())
    args.push_back(c.slot(v));
  Block &body = callee.getBody().front();
  // The callee's values get slots of their own for this call.
  Compiler::SlotMap caller = c.swapSlots(Compiler::SlotMap());
  for (auto [arg, s] : llvm::zip(body.getArguments(), args))
    c.bind(arg, s);
  ++c.inlineDepth;
  bool ok = c.emitBlock(body, out);
  --c.inlineDepth;
  std::vector<Slot> results;
  if (ok)
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(c.slot(v));
  c.swapSlots(std::move(caller));
  if (!ok)
    return Emitted::Failed;
  for (auto [res, s] : llvm::zip(call.getResults(), results))
    c.bind(res, s);
  return Emitted::Done;
}

} // namespace

Emitted emitControl(Compiler &c, Operation *op, InstList &out) {
  if (auto f = dyn_cast<scf::ForOp>(op))
    return emitFor(c, f, out);
  if (auto i = dyn_cast<scf::IfOp>(op))
    return emitIf(c, i, out);
  if (auto w = dyn_cast<scf::WhileOp>(op))
    return emitWhile(c, w, out);
  if (auto call = dyn_cast<func::CallOp>(op))
    return emitCall(c, call, out);
  return Emitted::NotMine;
}

} // namespace tcc::interp
