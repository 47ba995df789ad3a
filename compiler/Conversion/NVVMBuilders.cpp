//===- NVVMBuilders.cpp - the few NVVM ops the lowering emits -------------===//

#include "compiler/Conversion/NVVMBuilders.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tcc::nvvm {

void registerTargetDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect>();
}

Value threadIdX(OpBuilder &b, Location loc, unsigned numThreads) {
  auto range = LLVM::ConstantRangeAttr::get(b.getContext(), 32, 0, numThreads);
  return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type(), range);
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

void barrier(OpBuilder &b, Location loc) { NVVM::Barrier0Op::create(b, loc); }

Value shuffleXor32(OpBuilder &b, Location loc, Value value, unsigned laneMask) {
  Type i32 = b.getI32Type();
  Value all = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(-1));
  Value offset = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(laneMask));
  // 0x1f: clamp at lane 31, no sub-warp segments.
  Value clamp = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0x1f));
  return NVVM::ShflOp::create(b, loc, value.getType(), all, value, offset, clamp,
                              NVVM::ShflKind::bfly, UnitAttr());
}

} // namespace tcc::nvvm
