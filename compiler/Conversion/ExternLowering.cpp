//===- ExternLowering.cpp - tile.extern_elementwise -----------------------===//
//
// A libdevice function applied element-wise: one call of the external function per
// register (`llvm.call @__nv_asinf`), declared in the module; the bitcode library is linked
// into the LLVM module before optimisation (compiler/Target/Libdevice.cpp), which inlines
// it. Where no libdevice.10.bc is found, the op is a located error saying where tcc looked.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"

#include "dialects/Tile/Libdevice.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

struct ExternElementwiseLowering : OpConversionPattern<ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ExternElementwiseOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (failed(checkExternAvailable(op))) // reported before the conversion
      return rewriter.notifyMatchFailure(op, "no libdevice");
    Type element = getElementTypeOrSelf(op.getType());
    auto module = op->getParentOfType<ModuleOp>();
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(op.getSymbol());
    if (!fn) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      auto type = LLVM::LLVMFunctionType::get(
          element, SmallVector<Type>(op.getArgs().size(), element));
      fn = LLVM::LLVMFuncOp::create(rewriter, loc, op.getSymbol(), type);
    }
    ArrayRef<ValueRange> args = adaptor.getArgs();
    SmallVector<Value> results;
    for (size_t i = 0; i < args.front().size(); ++i) {
      SmallVector<Value> operands;
      for (ValueRange regs : args)
        operands.push_back(regs[i]);
      results.push_back(LLVM::CallOp::create(rewriter, loc, fn, operands).getResult());
    }
    replaceWithRegisters(rewriter, op, results);
    return success();
  }
};

} // namespace

LogicalResult checkExternAvailable(Operation *op) {
  auto ext = dyn_cast<ExternElementwiseOp>(op);
  if (!ext)
    return success();
  std::string searched;
  if (!libdevice::findBitcode(&searched).empty())
    return success();
  Type element = getElementTypeOrSelf(ext.getType());
  std::string name = libdevice::nameOf(ext.getSymbol().str(), element.isF32());
  return op->emitError() << "libdevice." << name << " (" << ext.getSymbol()
                         << ") is a function of CUDA's libdevice, and tcc found no "
                            "libdevice.10.bc (looked at: "
                         << searched
                         << "); set TCC_LIBDEVICE to the file or CUDA_HOME to the toolkit";
}

void populateExternLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExternElementwiseLowering>(converter, patterns.getContext());
}

} // namespace tcc
