//===- TileToNVVM.cpp - the convert-tile-to-nvvm pass ---------------------===//
//
// Stage 1: a 1:N dialect conversion from tiles to the scalars each thread holds (patterns
// from the *Lowering.cpp files). Stage 2: scf to cf, then arith, math, cf and ub to the
// LLVM dialect with the upstream patterns (after MathToNVVM's special functions).
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/AxisInfo.h"
#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/Passes.h"

#include "dialects/Tile/Distribution.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

namespace tcc {
#define GEN_PASS_DEF_CONVERTTILETONVVM
#include "compiler/Conversion/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace tcc {
namespace {

unsigned layoutWarps(Attribute layout) {
  if (auto distributed = dyn_cast_or_null<tile::DistributedLayoutInterface>(layout))
    return distributed.getNumWarps();
  return 0;
}

/// Every tile must have a layout for this kernel's warp count; f64 transcendental math
/// has no lowering without libdevice.
/// Registers a thread may use on every NVIDIA GPU tcc targets.
constexpr int64_t kMaxRegistersPerThread = 255;
/// The most registers' worth of one tile a thread may hold (four register files): tiles a
/// little over the file live (pointer tiles are recomputed from their base, products are
/// stored as they are converted, ptxas spills the rest), far beyond it nothing can.
constexpr int64_t kMaxTileRegisters = 4 * (kMaxRegistersPerThread + 1);

LogicalResult checkLowerable(func::FuncOp func) {
  unsigned numWarps = tile::getNumWarps(func);
  tile::TargetAttr target = tile::getTarget(func);
  auto checkType = [&](Operation *op, Type type) -> LogicalResult {
    auto tile = dyn_cast<RankedTensorType>(type);
    if (!tile)
      return success();
    if (!tile.getEncoding())
      return op->emitOpError() << "has a tile without a distribution layout: " << type
                               << " (run tile-assign-layouts before lowering)";
    unsigned warps = layoutWarps(tile.getEncoding());
    if (warps == 0)
      return op->emitOpError() << "has a tile whose layout the lowering does not know: " << type;
    if (warps != numWarps)
      return op->emitOpError() << "has a tile laid out over " << warps
                               << " warps in a kernel of " << numWarps << " warps: " << type;
    // What one thread holds of this tile must come near its registers (255 at most on
    // every NVIDIA GPU): a tile many times that size would be spilled element by element,
    // its code generation taking minutes (a 2^20-element tile: 110 s). Say so instead.
    if (std::optional<Distribution> dist = Distribution::get(tile)) {
      Type element = tile.getElementType();
      int64_t bits = isa<tile::PointerType>(element) ? 64
                     : element.isIntOrFloat()       ? std::max<int64_t>(element.getIntOrFloatBitWidth(), 32)
                                                    : 32;
      int64_t registers = dist->getNumRegs() * bits / 32;
      if (registers > kMaxTileRegisters)
        return op->emitError() << "this tile of " << tile.getNumElements()
                               << " elements needs " << registers
                               << " registers in each of the " << kernelNumThreads(func)
                               << " threads of a program (" << numWarps
                               << " warps), more than four times what a thread has ("
                               << kMaxRegistersPerThread
                               << "): use a smaller block or more warps (num_warps)";
    }
    return success();
  };
  WalkResult result = func.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (failed(checkType(op, t)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(checkType(op, arg.getType())))
            return WalkResult::interrupt();
    if (failed(checkAtomicResults(op)) || failed(checkExternAvailable(op)))
      return WalkResult::interrupt();
    if (auto atomic = dyn_cast<tile::AtomicAddOp>(op); atomic && !atomic->use_empty()) {
      // Only the owner of a replicated element adds it, so only it sees the old value.
      auto tile = dyn_cast<RankedTensorType>(atomic.getType());
      if (!tile) {
        op->emitError("the old value of a scalar atomic_add is not supported; use a tile, "
                      "or drop the result");
        return WalkResult::interrupt();
      }
      std::optional<Distribution> dist = Distribution::get(tile);
      if (dist && dist->hasReplicas()) {
        op->emitError("the old values of atomic_add on a tile whose layout replicates "
                      "elements are not supported; use a tile of at least as many elements "
                      "as the program has threads, or drop the result");
        return WalkResult::interrupt();
      }
    }
    // LLVM's NVPTX back end aborts ("Cannot select") on instructions the target lacks:
    // say so here, at the op.
    if (isa<tile::WarpSpecializeOp>(op) && !target.hasWgmma()) {
      op->emitOpError() << "needs setmaxnreg, which tcc emits for sm_90a only, not "
                        << target.getArch() << " (compile with --arch sm_90a)";
      return WalkResult::interrupt();
    }
    if (isa<tile::TmaLoadOp, tile::MBarrierInitOp, tile::MBarrierInvalOp, tile::MBarrierExpectOp,
            tile::MBarrierWaitOp, tile::MBarrierArriveOp, tile::TmaStoreOp>(op) &&
        !target.hasWgmma()) {
      op->emitOpError() << "is a TMA copy or its mbarrier, which tcc emits for sm_90a only, not "
                        << target.getArch() << " (compile with --arch sm_90a)";
      return WalkResult::interrupt();
    }
    if (isa<tile::WarpGroupDotOp>(op) && !target.hasWgmma()) {
      op->emitOpError() << "is a wgmma, which " << target.getArch()
                        << " lacks: wgmma needs sm_90a (compile with --arch sm_90a)";
      return WalkResult::interrupt();
    }
    if ((isa<tile::AsyncCopyOp, tile::LocalLoadOp>(op) ||
         (isa<tile::DotOp>(op) &&
          isa_and_nonnull<tile::MmaEncodingAttr>(cast<tile::DotOp>(op).getType().getEncoding()))) &&
        !target.hasMmaSync()) {
      op->emitOpError() << "needs sm_80 or later (cp.async, ldmatrix, mma.sync), not "
                        << target.getArch();
      return WalkResult::interrupt();
    }
    if (isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::SinOp, math::CosOp,
            math::TanhOp, math::ErfOp>(op)) {
      Type t = op->getResultTypes()[0];
      if (auto tile = dyn_cast<RankedTensorType>(t))
        t = tile.getElementType();
      if (t.isF64()) {
        op->emitOpError() << "on f64 needs libdevice, which tcc does not link";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct ConvertTileToNVVM : impl::ConvertTileToNVVMBase<ConvertTileToNVVM> {
  using ConvertTileToNVVMBase::ConvertTileToNVVMBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    nvvm::registerTargetDialects(registry);
    registry.insert<arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                    cf::ControlFlowDialect, ub::UBDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    // tile-allocate-shared placed every user of shared memory and sized it.
    int64_t sharedBytes = 0;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (failed(checkLowerable(func)))
        return signalPassFailure();
      auto bytes = func->getAttrOfType<IntegerAttr>(kSharedBytesAttr);
      if (!bytes)
        func->setAttr(kSharedBytesAttr, IntegerAttr::get(IntegerType::get(ctx, 64), 0));
      else
        sharedBytes = std::max<int64_t>(sharedBytes, bytes.getInt());
      budgetWarpSpecializedRegisters(func);
    }
    if (sharedBytes > 0 && !module.lookupSymbol(kSharedBufferName)) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0);
      LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                             LLVM::Linkage::External, kSharedBufferName, Attribute(),
                             /*alignment=*/1024, /*addrSpace=*/3);
    }

    // Stage 1: tiles to per-thread scalars, with AxisInfo of the tile IR as it is now.
    {
      AxisInfoAnalysis axisInfo(module);
      TileTypeConverter converter(ctx);
      RewritePatternSet patterns(ctx);
      ConversionTarget target(*ctx);
      target.addIllegalDialect<tile::TileDialect>();
      target.addLegalDialect("llvm", "nvvm");
      target.addIllegalOp<func::FuncOp, func::ReturnOp>();
      target.markUnknownOpDynamicallyLegal([&](Operation *op) { return converter.isLegal(op); });
      populateKernelLoweringPatterns(converter, patterns);
      populateElementwiseLoweringPatterns(converter, patterns, &axisInfo);
      populateShapeLoweringPatterns(converter, patterns);
      populateGridLoweringPatterns(converter, patterns);
      populatePointerLoweringPatterns(converter, patterns);
      populateMemoryLoweringPatterns(converter, patterns);
      populateAtomicLoweringPatterns(converter, patterns);
      populateExternLoweringPatterns(converter, patterns);
      populatePrintLoweringPatterns(converter, patterns);
      populateConvertLayoutLoweringPatterns(converter, patterns);
      populateReduceLoweringPatterns(converter, patterns);
      populateScanLoweringPatterns(converter, patterns);
      populatePermuteLoweringPatterns(converter, patterns);
      populateDotLoweringPatterns(converter, patterns);
      populateTensorCoreLoweringPatterns(converter, patterns);
      populateTmaLoweringPatterns(converter, patterns);
      scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }
    if (perThreadOnly)
      return;

    // Stage 2a: structured control flow to branches.
    {
      RewritePatternSet patterns(ctx);
      populateSCFToControlFlowConversionPatterns(patterns);
      arith::populateCeilFloorDivExpandOpsPatterns(patterns);
      ConversionTarget target(*ctx);
      target.addIllegalDialect<scf::SCFDialect>();
      target.addIllegalOp<arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }
    if (failed(expandMathWithoutLibdevice(module)))
      return signalPassFailure();
    // Stage 2b: everything to the LLVM dialect.
    {
      LLVMTypeConverter converter(ctx);
      RewritePatternSet patterns(ctx);
      populateMathToNVVMPatterns(converter, patterns);
      populateFp8LoweringPatterns(converter, patterns);
      arith::populateArithToLLVMConversionPatterns(converter, patterns);
      populateMathToLLVMConversionPatterns(converter, patterns);
      cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
      ub::populateUBToLLVMConversionPatterns(converter, patterns);
      LLVMConversionTarget target(*ctx);
      target.addLegalDialect("nvvm");
      target.addLegalOp<ModuleOp>();
      if (failed(applyFullConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }
    // Stage 3: NVVM ops that translate to inline PTX (wgmma.mma_async).
    if (failed(nvvm::lowerToInlinePtx(module)))
      return signalPassFailure();
  }
};

} // namespace
} // namespace tcc
