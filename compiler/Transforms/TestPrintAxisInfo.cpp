//===- TestPrintAxisInfo.cpp - test-print-axis-info -------------------------===//
//
// Makes AxisInfo visible to lit tests: a remark per analysed value, checked with
// -verify-diagnostics so that each fact is tied to the op that produces it.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/AxisInfo.h"
#include "compiler/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/raw_ostream.h"

namespace tcc {
#define GEN_PASS_DEF_TESTPRINTAXISINFO
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

bool isAnalysed(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    type = tile.getElementType();
  return !isa<FloatType>(type);
}

std::string describe(const tcc::AxisInfoAnalysis &axis, Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  axis.getAxisInfo(value).print(os);
  return text;
}

struct TestPrintAxisInfo : tcc::impl::TestPrintAxisInfoBase<TestPrintAxisInfo> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      tcc::AxisInfoAnalysis axis(func);
      for (BlockArgument arg : func.getArguments())
        if (isAnalysed(arg.getType()))
          func.emitRemark() << "arg #" << arg.getArgNumber() << ": " << describe(axis, arg);
      func.walk([&](Operation *op) {
        if (auto forOp = dyn_cast<scf::ForOp>(op)) {
          op->emitRemark() << "iv: " << describe(axis, forOp.getInductionVar());
          for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs()))
            if (isAnalysed(arg.getType()))
              op->emitRemark() << "iter_arg #" << i << ": " << describe(axis, arg);
        }
        if (op->getNumResults() == 1 && isAnalysed(op->getResult(0).getType()))
          op->emitRemark() << describe(axis, op->getResult(0));
        else if (op->getNumResults() > 1)
          for (auto [i, result] : llvm::enumerate(op->getResults()))
            if (isAnalysed(result.getType()))
              op->emitRemark() << "result #" << i << ": " << describe(axis, result);
      });
    }
  }
};

} // namespace
