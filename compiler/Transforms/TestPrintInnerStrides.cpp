//===- TestPrintInnerStrides.cpp - test-print-inner-strides ---------------===//
//
// Makes compiler/Analysis/InnerStrides visible to lit tests: one remark per kernel
// listing its inner-stride arguments by name ("inner strides: stride_n"; "none").
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/InnerStrides.h"
#include "compiler/Transforms/Passes.h"
#include "compiler/Transforms/SpecializeArguments.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/BuiltinOps.h"

namespace tcc {
#define GEN_PASS_DEF_TESTPRINTINNERSTRIDES
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

struct TestPrintInnerStrides : tcc::impl::TestPrintInnerStridesBase<TestPrintInnerStrides> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!tile::isKernel(func))
        continue;
      SmallVector<std::string> names = tcc::kernelArgumentNames(func);
      std::string list;
      for (unsigned i : tcc::innerStrideArguments(func))
        list += (list.empty() ? "" : ", ") + names[i];
      func.emitRemark() << "inner strides: " << (list.empty() ? "none" : list);
    }
  }
};

} // namespace
