//===- NVVMBuilders.cpp - the few NVVM ops the lowering emits -------------===//

#include "compiler/Conversion/NVVMBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace tcc::nvvm {

void registerTargetDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect>();
}

void markKernel(Operation *func, int32_t numThreads) {
  Builder b(func->getContext());
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                b.getDenseI32ArrayAttr({numThreads, 1, 1}));
}

void markCluster(Operation *func, int32_t size) {
  Builder b(func->getContext());
  func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(), b.getDenseI32ArrayAttr({size, 1, 1}));
}

static Value rawThreadIdX(OpBuilder &b, Location loc, unsigned numThreads) {
  auto range = LLVM::ConstantRangeAttr::get(b.getContext(), 32, 0, numThreads);
  return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type(), range);
}

/// The consumer side of a kernel whose consumers form several groups, if `b` is in it.
static std::optional<WarpSide> groupedConsumers(OpBuilder &b) {
  std::optional<WarpSide> side = warpSideOf(b.getInsertionBlock());
  if (side && !side->producer && side->groups > 1)
    return side;
  return std::nullopt;
}

Value threadIdX(OpBuilder &b, Location loc, unsigned numThreads) {
  std::optional<WarpSide> side = groupedConsumers(b);
  if (!side)
    return rawThreadIdX(b, loc, numThreads);
  // Group threads are a power of two (whole warpgroups of a power-of-two num_warps).
  Value tid = rawThreadIdX(b, loc, side->consumerThreads);
  return arith::AndIOp::create(
      b, loc, tid,
      LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                               b.getI32IntegerAttr(int32_t(side->groupThreads() - 1))));
}

Value consumerGroup(OpBuilder &b, Location loc) {
  std::optional<WarpSide> side = groupedConsumers(b);
  if (!side)
    return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(0));
  Value tid = rawThreadIdX(b, loc, side->consumerThreads);
  return arith::DivUIOp::create(
      b, loc, tid,
      LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                               b.getI32IntegerAttr(int32_t(side->groupThreads()))));
}

Value programId(OpBuilder &b, Location loc, unsigned axis) {
  Type i32 = b.getI32Type();
  switch (axis) {
  case 0:
    return NVVM::BlockIdXOp::create(b, loc, i32);
  case 1:
    return NVVM::BlockIdYOp::create(b, loc, i32);
  default:
    return NVVM::BlockIdZOp::create(b, loc, i32);
  }
}

Value numPrograms(OpBuilder &b, Location loc, unsigned axis) {
  Type i32 = b.getI32Type();
  switch (axis) {
  case 0:
    return NVVM::GridDimXOp::create(b, loc, i32);
  case 1:
    return NVVM::GridDimYOp::create(b, loc, i32);
  default:
    return NVVM::GridDimZOp::create(b, loc, i32);
  }
}

std::optional<WarpSide> warpSideOf(Block *block) {
  for (Region *region = block ? block->getParent() : nullptr; region;
       region = region->getParentRegion()) {
    Operation *parent = region->getParentOp();
    if (auto threads = parent->getAttrOfType<IntegerAttr>(kWarpSpecializedAttr)) {
      auto groups = parent->getAttrOfType<IntegerAttr>(kConsumerGroupsAttr);
      return WarpSide{region->getRegionNumber() == 0, unsigned(threads.getInt()),
                      groups ? unsigned(groups.getInt()) : 1u};
    }
  }
  return std::nullopt;
}

void barrier(OpBuilder &b, Location loc) {
  std::optional<WarpSide> side = warpSideOf(b.getInsertionBlock());
  if (!side || side->producer) {
    NVVM::Barrier0Op::create(b, loc);
    return;
  }
  // Barrier 0 is the whole program's (__syncthreads); the consumers use barrier 1, or
  // each group of them its own, 1 + its index.
  Type i32 = b.getI32Type();
  Value id = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1));
  if (side->groups > 1)
    id = arith::AddIOp::create(b, loc, id, consumerGroup(b, loc));
  Value threads =
      LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(int32_t(side->groupThreads())));
  NVVM::BarrierOp::create(b, loc, Type(), id, threads, NVVM::BarrierReductionAttr(), Value());
}

void setMaxRegisters(OpBuilder &b, Location loc, unsigned regs, bool increase) {
  NVVM::SetMaxRegisterOp::create(b, loc, regs,
                                 increase ? NVVM::SetMaxRegisterAction::increase
                                          : NVVM::SetMaxRegisterAction::decrease);
}

void mbarrierArrive(OpBuilder &b, Location loc, Value bar) {
  NVVM::MBarrierArriveOp::create(b, loc, Type(), bar, Value());
}

void limitRegisters(Operation *func, unsigned regs) {
  Builder b(func->getContext());
  func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(), b.getI32IntegerAttr(int32_t(regs)));
}

/// shfl.sync over the whole warp: `kind` with `operand` (a lane mask or a source lane),
/// clamped at lane 31 (0x1f: no sub-warp segments).
static Value shuffle32(OpBuilder &b, Location loc, Value value, NVVM::ShflKind kind,
                       unsigned operand) {
  Type i32 = b.getI32Type();
  auto constant = [&](int32_t v) {
    return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
  };
  return NVVM::ShflOp::create(b, loc, value.getType(), constant(-1), value,
                              constant(int32_t(operand)), constant(0x1f), kind, UnitAttr());
}

Value shuffleXor32(OpBuilder &b, Location loc, Value value, unsigned laneMask) {
  return shuffle32(b, loc, value, NVVM::ShflKind::bfly, laneMask);
}

/// shfl.bfly of any scalar up to 64 bits, through 32-bit words.
Value shuffleXor(OpBuilder &b, Location loc, Value value, unsigned laneMask) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  if (type.isF32() || type.isInteger(32))
    return shuffleXor32(b, loc, value, laneMask);
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Value asInt = isa<FloatType>(type) ? arith::BitcastOp::create(b, loc, intType, value).getResult()
                                     : value;
  Value result;
  if (bits < 32) {
    Value wide = arith::ExtUIOp::create(b, loc, i32, asInt);
    Value shuffled = shuffleXor32(b, loc, wide, laneMask);
    result = arith::TruncIOp::create(b, loc, intType, shuffled);
  } else {
    Value lo = arith::TruncIOp::create(b, loc, i32, asInt);
    Value hiWide = arith::ShRUIOp::create(b, loc, asInt,
                                          arith::ConstantIntOp::create(b, loc, intType, 32));
    Value hi = arith::TruncIOp::create(b, loc, i32, hiWide);
    lo = arith::ExtUIOp::create(b, loc, intType, shuffleXor32(b, loc, lo, laneMask));
    hi = arith::ExtUIOp::create(b, loc, intType, shuffleXor32(b, loc, hi, laneMask));
    hi = arith::ShLIOp::create(b, loc, hi, arith::ConstantIntOp::create(b, loc, intType, 32));
    result = arith::OrIOp::create(b, loc, hi, lo);
  }
  return isa<FloatType>(type) ? arith::BitcastOp::create(b, loc, type, result).getResult()
                              : result;
}

Value shuffleIdx32(OpBuilder &b, Location loc, Value value, unsigned srcLane) {
  return shuffle32(b, loc, value, NVVM::ShflKind::idx, srcLane);
}

LogicalResult lowerToInlinePtx(Operation *module) {
  // Only those ops: a greedy rewrite of the whole module would also fold and move
  // everything else.
  SmallVector<Operation *> ops;
  module->walk([&](NVVM::BasicPtxBuilderInterface op) {
    if (!op.hasIntrinsic())
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  RewritePatternSet patterns(module->getContext());
  populateNVVMToLLVMConversionPatterns(patterns);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  bool changed = false;
  if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config, &changed)))
    return failure();
  bool left = false;
  module->walk([&](NVVM::BasicPtxBuilderInterface op) { left = left || !op.hasIntrinsic(); });
  return failure(left);
}

SmallVector<Value> ldmatrix(OpBuilder &b, Location loc, Value ptr, unsigned count, bool trans) {
  Type i32 = b.getI32Type();
  Type result = count == 1 ? i32
                           : LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                              SmallVector<Type>(count, i32));
  auto op = NVVM::LdMatrixOp::create(
      b, loc, result, ptr, b.getI32IntegerAttr(count),
      NVVM::MMALayoutAttr::get(b.getContext(), trans ? NVVM::MMALayout::col : NVVM::MMALayout::row),
      NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
      NVVM::LdStMatrixEltTypeAttr::get(b.getContext(), NVVM::LdStMatrixEltType::B16));
  if (count == 1)
    return {op.getResult()};
  SmallVector<Value> regs;
  for (unsigned i = 0; i < count; ++i)
    regs.push_back(LLVM::ExtractValueOp::create(b, loc, op.getResult(), i));
  return regs;
}

static NVVM::MMATypes mmaType(MmaType type) {
  switch (type) {
  case MmaType::F16:
    return NVVM::MMATypes::f16;
  case MmaType::BF16:
    return NVVM::MMATypes::bf16;
  case MmaType::TF32:
    return NVVM::MMATypes::tf32;
  }
  return NVVM::MMATypes::f16;
}

SmallVector<Value> mmaSync(OpBuilder &b, Location loc, MmaType type, ValueRange a, ValueRange bv,
                           ValueRange c) {
  Type f32 = b.getF32Type();
  Type result = LLVM::LLVMStructType::getLiteral(b.getContext(), SmallVector<Type>(4, f32));
  int64_t k = type == MmaType::TF32 ? 8 : 16;
  auto op = NVVM::MmaOp::create(b, loc, result, a, bv, c, ArrayRef<int64_t>{16, 8, k},
                                std::nullopt, std::nullopt,
                                std::array<NVVM::MMATypes, 2>{mmaType(type), mmaType(type)},
                                std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                               NVVM::MMALayout::col});
  SmallVector<Value> d;
  for (unsigned i = 0; i < 4; ++i)
    d.push_back(LLVM::ExtractValueOp::create(b, loc, op.getResult(), i));
  return d;
}

void cpAsync(OpBuilder &b, Location loc, Value dst, Value src, unsigned bytes, Value srcBytes) {
  // 16-byte copies bypass L1 (.cg): the operands are reused from shared memory, not L1.
  auto modifier = bytes == 16 ? NVVM::LoadCacheModifierKind::CG : NVVM::LoadCacheModifierKind::CA;
  NVVM::CpAsyncOp::create(b, loc, dst, src, bytes, modifier, srcBytes);
}

void cpAsyncCommit(OpBuilder &b, Location loc) { NVVM::CpAsyncCommitGroupOp::create(b, loc); }

void cpAsyncWait(OpBuilder &b, Location loc, unsigned pending) {
  NVVM::CpAsyncWaitGroupOp::create(b, loc, pending);
}

void fenceProxyAsyncShared(OpBuilder &b, Location loc) {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
}

void mbarrierInit(OpBuilder &b, Location loc, Value bar, unsigned count, Value pred) {
  Value n = LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(count));
  NVVM::MBarrierInitOp::create(b, loc, bar, n, pred);
}

void fenceMbarrierInit(OpBuilder &b, Location loc) { NVVM::FenceMbarrierInitOp::create(b, loc); }

void mbarrierInval(OpBuilder &b, Location loc, Value bar) { NVVM::MBarrierInvalOp::create(b, loc, bar); }

void mbarrierArriveExpectTx(OpBuilder &b, Location loc, Value bar, unsigned bytes, Value pred) {
  Value n = LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(bytes));
  NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), bar, n, NVVM::MemScopeKind::CTA,
                                         /*relaxed=*/false, pred);
}

void mbarrierWaitParity(OpBuilder &b, Location loc, Value bar, Value phase) {
  // The suspend-time hint of each try (ns), as CUTLASS's ClusterBarrier::wait.
  Value ticks = LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(0x989680));
  NVVM::MBarrierTryWaitParityOp::create(b, loc, bar, phase, ticks);
}

void tmaLoad(OpBuilder &b, Location loc, Value dst, Value desc, ValueRange coords, Value bar,
             Value pred, Value ctaMask) {
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, dst, desc, coords, bar, ValueRange(), ctaMask, Value(), NVVM::TMALoadMode::TILE,
      /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(), pred);
}

Value clusterRank(OpBuilder &b, Location loc) {
  return NVVM::ClusterId::create(b, loc, b.getI32Type());
}

Value mapaShared(OpBuilder &b, Location loc, Value ptr, Value rank) {
  auto cluster = LLVM::LLVMPointerType::get(b.getContext(),
                                            unsigned(NVVM::NVVMMemorySpace::SharedCluster));
  return NVVM::MapaOp::create(b, loc, cluster, ptr, rank);
}

void mbarrierArriveRemote(OpBuilder &b, Location loc, Value bar, Value rank) {
  Value remote = mapaShared(b, loc, bar, rank);
  NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(), NVVM::MemScopeKind::CLUSTER);
}

void clusterSync(OpBuilder &b, Location loc) {
  // Not .aligned: nothing then depends on the warp's threads arriving together.
  NVVM::ClusterArriveOp::create(b, loc, UnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, UnitAttr());
}

void mbarrierWaitParityCluster(OpBuilder &b, Location loc, Value bar, Value phase) {
  // The retried try_wait of mbarrierWaitParity with acquire at cluster scope: it pairs
  // with the partner's release.cluster arrive. The labels are local to the braces.
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), bar);
  std::string text = "{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\t"
                     "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [$0], $1, "
                     "10000000;\n\t@P1 bra.uni DONE;\n\tbra.uni LAB_WAIT;\n\tDONE:\n\t}";
  LLVM::InlineAsmOp::create(b, loc, TypeRange(), ValueRange{address, phase}, text, "r,r",
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
}

void tmaStore(OpBuilder &b, Location loc, Value src, Value desc, ValueRange coords) {
  NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(b, loc, desc, src, coords, Value(),
                                                     NVVM::TMAStoreMode::TILE, Value());
}

void bulkCommitAndWaitRead(OpBuilder &b, Location loc) {
  NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
  NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, 0, b.getUnitAttr());
}

void markTensorMapArgument(Operation *func, unsigned index) {
  auto f = cast<LLVM::LLVMFuncOp>(func);
  MLIRContext *ctx = func->getContext();
  Builder b(ctx);
  f.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
               TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
  f.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(64));
  f.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(), b.getUnitAttr());
}

void wgmmaFence(OpBuilder &b, Location loc) { NVVM::WgmmaFenceAlignedOp::create(b, loc); }

void wgmmaCommit(OpBuilder &b, Location loc) { NVVM::WgmmaGroupSyncAlignedOp::create(b, loc); }

Value wgmma(OpBuilder &b, Location loc, MmaType type, unsigned n, Value acc, Value descA,
            Value descB, bool transA, bool transB, bool accumulate) {
  NVVM::WGMMATypes t = type == MmaType::F16    ? NVVM::WGMMATypes::f16
                       : type == MmaType::BF16 ? NVVM::WGMMATypes::bf16
                                               : NVVM::WGMMATypes::tf32;
  int k = type == MmaType::TF32 ? 8 : 16;
  // A: row = K-major, col = M-major; B: col = K-major, row = N-major (PTX's "column-major B").
  auto layoutA = transA ? NVVM::MMALayout::col : NVVM::MMALayout::row;
  auto layoutB = transB ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  return NVVM::WgmmaMmaAsyncOp::create(
      b, loc, acc.getType(), acc, descA, descB,
      NVVM::MMAShapeAttr::get(b.getContext(), 64, n, k), t, t, NVVM::WGMMATypes::f32,
      accumulate ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, layoutA,
      layoutB, NVVM::MMAIntOverflowAttr());
}

} // namespace tcc::nvvm
