//===- OffsetProducts.h - Products of offsets by one constant, shared ------===//
//
// A thread's elements of a tile sit at `base + j` for a few constants j (`base | j` where
// the bits are disjoint, as LLVM writes it once it knows). A product of such an offset by a
// constant, `(base + j) * C` for every j, is then one product `base * C` and an addition of
// the constant `j * C` each (the low bits of the product distribute over the sum). Philox
// (tl.rand) multiplies every counter by its round constants this way. LLVM's instcombine
// leaves these alone where the offset has other uses, and straight-line strength reduction,
// which would catch them, is left out of tcc's code generation for its compile time
// (PtxEmitter.cpp); ptxas does not see through `or`.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_TARGET_OFFSETPRODUCTS_H
#define TCC_COMPILER_TARGET_OFFSETPRODUCTS_H

#include "llvm/IR/PassManager.h"

namespace tcc {

/// In each basic block, the integer products `(b + j) * C` (also `(b | j) * C` with
/// disjoint bits, and chains of those) sharing b and C, at least two of them, become one
/// product `b * C` placed before the first, plus the constant `j * C` each. Returns the
/// number of products removed.
unsigned shareOffsetProducts(llvm::Function &function);

/// shareOffsetProducts as a pass of LLVM's new pass manager.
struct ShareOffsetProductsPass : llvm::PassInfoMixin<ShareOffsetProductsPass> {
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

} // namespace tcc

#endif // TCC_COMPILER_TARGET_OFFSETPRODUCTS_H
