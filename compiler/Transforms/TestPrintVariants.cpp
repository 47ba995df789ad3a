//===- TestPrintVariants.cpp - test-print-variants --------------------------===//
//
// Makes --variants=auto's choice of argument assumptions (deriveArgumentVariants,
// SpecializeArguments.h) visible to lit tests: one remark per kernel, the variants most
// general first ("variants: general | x%16, n%16 | x%16, n%16, stride_n==1").
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"
#include "compiler/Transforms/SpecializeArguments.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace tcc {
#define GEN_PASS_DEF_TESTPRINTVARIANTS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

struct TestPrintVariants : tcc::impl::TestPrintVariantsBase<TestPrintVariants> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!tile::isKernel(func))
        continue;
      std::string list;
      for (const tcc::ArgumentAssumptions &set : tcc::deriveArgumentVariants(func))
        list += (list.empty() ? "" : " | ") + tcc::describeArgumentAssumptions(func, set);
      func.emitRemark() << "variants: " << list;
    }
  }
};

} // namespace
