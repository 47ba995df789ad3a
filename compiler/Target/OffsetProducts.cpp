//===- OffsetProducts.cpp - Products of offsets by one constant, shared ----===//

#include "OffsetProducts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace tcc {
namespace {

/// `value` as base + offset: strips additions of constants and `or`s of disjoint constant
/// bits (which are additions), summing the constants.
std::pair<Value *, APInt> splitOffset(Value *value) {
  auto *type = cast<IntegerType>(value->getType());
  APInt offset(type->getBitWidth(), 0);
  while (true) {
    const APInt *c = nullptr;
    Value *base = nullptr;
    if (match(value, m_Add(m_Value(base), m_APInt(c))) ||
        match(value, m_DisjointOr(m_Value(base), m_APInt(c)))) {
      offset += *c;
      value = base;
      continue;
    }
    return {value, offset};
  }
}

struct Product {
  BinaryOperator *mul;
  APInt offset;
};

} // namespace

unsigned shareOffsetProducts(Function &function) {
  unsigned removed = 0;
  for (BasicBlock &block : function) {
    // (base, constant) -> the products of base + offset by that constant, in block order.
    MapVector<std::pair<Value *, ConstantInt *>, SmallVector<Product, 8>> groups;
    for (Instruction &inst : block) {
      auto *mul = dyn_cast<BinaryOperator>(&inst);
      if (!mul || mul->getOpcode() != Instruction::Mul || !mul->getType()->isIntegerTy())
        continue;
      auto *factor = dyn_cast<ConstantInt>(mul->getOperand(1));
      if (!factor)
        continue;
      auto [base, offset] = splitOffset(mul->getOperand(0));
      groups[{base, factor}].push_back({mul, offset});
    }
    for (auto &[key, products] : groups) {
      if (products.size() < 2)
        continue;
      bool anyOffset = llvm::any_of(products, [](const Product &p) { return !p.offset.isZero(); });
      if (!anyOffset)
        continue; // equal products: CSE's business
      auto [base, factor] = key;
      IRBuilder<> builder(products.front().mul);
      Value *shared = builder.CreateMul(base, factor, "offset.product");
      for (Product &p : products) {
        builder.SetInsertPoint(p.mul);
        APInt addend = p.offset * factor->getValue(); // wraps, as the product's low bits do
        Value *replacement =
            addend.isZero() ? shared
                            : builder.CreateAdd(shared, ConstantInt::get(p.mul->getType(), addend));
        replacement->takeName(p.mul);
        p.mul->replaceAllUsesWith(replacement);
        p.mul->eraseFromParent();
      }
      removed += unsigned(products.size()) - 1;
    }
  }
  return removed;
}

PreservedAnalyses ShareOffsetProductsPass::run(Function &function, FunctionAnalysisManager &) {
  if (!shareOffsetProducts(function))
    return PreservedAnalyses::all();
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  return kept;
}

} // namespace tcc
