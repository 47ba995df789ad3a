//===- KernelLowering.cpp - kernels become NVVM kernel functions ----------===//
//
// A `func.func` with `tile.kernel` becomes an `llvm.func` marked `nvvm.kernel` (the
// `ptx_kernel` calling convention in LLVM IR) with `nvvm.reqntid = [32 * num_warps, 1, 1]`
// (32 * (num_warps + 4) and `nvvm.maxnreg` for a warp-specialised kernel);
// its `tile.*` attributes ride along for the driver. Pointer arguments become
// `!llvm.ptr<1>`; a TMA tensor map (`!tile.tensormap`) a byval, grid-constant `!llvm.ptr`
// to its 128 bytes (`.param .align 64 .b8 NAME[128]` in PTX).
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace tcc {

unsigned kernelNumThreads(Operation *op) { return tile::getNumThreads(op); }

unsigned kernelLaunchThreads(Operation *op) {
  return tile::getLaunchWarps(op) * tile::getThreadsPerWarp(op);
}

namespace {

struct FuncLowering : OpConversionPattern<func::FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(func::FuncOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    const TypeConverter &converter = *getTypeConverter();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    bool isKernel = op->hasAttr(tile::kKernelAttrName);
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      // A kernel takes scalars and pointers from the host; a device function (tests,
      // helpers left un-inlined) may take tiles: the registers of the calling thread.
      SmallVector<Type> converted;
      if (failed(converter.convertType(input, converted)) ||
          (isKernel && isa<RankedTensorType>(input)))
        return op.emitOpError() << "argument " << i << " of type " << input
                                << " cannot be passed to a " << (isKernel ? "kernel" : "GPU function");
      signature.addInputs(i, converted);
    }
    Type result = LLVM::LLVMVoidType::get(getContext());
    if (type.getNumResults() > 1)
      return op.emitOpError() << "returns several values";
    if (type.getNumResults() == 1) {
      result = converter.convertType(type.getResult(0));
      if (!result || isa<RankedTensorType>(type.getResult(0)))
        return op.emitOpError() << "returns a tile";
    }
    auto llvmType = LLVM::LLVMFunctionType::get(result, signature.getConvertedTypes());
    auto func = LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), op.getName(), llvmType);
    for (NamedAttribute attr : op->getDiscardableAttrs())
      func->setAttr(attr.getName(), attr.getValue());
    if (isKernel) {
      unsigned threads = kernelLaunchThreads(op);
      nvvm::markKernel(func, threads);
      // A warp-specialised kernel launches with its share of the register file for all
      // its warps (budgetWarpSpecializedRegisters); setmaxnreg then moves them from the
      // producer warpgroup to the consumers.
      if (auto regs = op->getAttrOfType<IntegerAttr>(kLaunchRegistersAttr)) {
        nvvm::limitRegisters(func, unsigned(regs.getInt()));
        func->removeAttr(kLaunchRegistersAttr);
      }
      // Launched in clusters (.reqnctapercluster): a plain launch forms them.
      if (auto size = op->getAttrOfType<IntegerAttr>(tile::kClusterSizeAttrName))
        nvvm::markCluster(func, int32_t(size.getInt()));
    }
    for (auto [i, input] : llvm::enumerate(type.getInputs()))
      if (isa<tile::TensorMapType>(input))
        nvvm::markTensorMapArgument(func, signature.getInputMapping(i)->inputNo);
    // What the metadata says of them (KernelDescription.cpp reads it back).
    if (ArrayAttr maps = tile::getTensorMapsDescription(op); !maps.empty())
      func->setAttr(tile::kTensorMapsAttrName, maps);
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), converter, &signature)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnLowering : OpConversionPattern<func::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(func::ReturnOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> operands;
    for (ValueRange range : adaptor.getOperands())
      operands.append(range.begin(), range.end());
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, operands);
    return success();
  }
};

} // namespace

void populateKernelLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<FuncLowering, ReturnLowering>(converter, patterns.getContext());
}

} // namespace tcc
