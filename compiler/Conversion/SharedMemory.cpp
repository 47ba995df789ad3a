//===- SharedMemory.cpp - the kernel's scratch buffer ---------------------===//

#include "compiler/Conversion/SharedMemory.h"

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace tcc {

Value sharedBase(OpBuilder &b, Location loc) {
  return LLVM::AddressOfOp::create(b, loc, sharedPtrType(b.getContext()), kSharedBufferName);
}

Value sharedElementPtr(OpBuilder &b, Location loc, Value base, Type memType, Value index) {
  return LLVM::GEPOp::create(b, loc, sharedPtrType(b.getContext()), memType, base,
                             ValueRange{index}, LLVM::GEPNoWrapFlags::inbounds);
}

static unsigned byteSize(Type memType, unsigned count) {
  return memType.getIntOrFloatBitWidth() / 8 * count;
}

void storeShared(OpBuilder &b, Location loc, Value ptr, ArrayRef<Value> elements) {
  Type memType = elements[0].getType();
  if (elements.size() == 1) {
    LLVM::StoreOp::create(b, loc, elements[0], ptr, byteSize(memType, 1));
    return;
  }
  auto vecType = VectorType::get({int64_t(elements.size())}, memType);
  Value v = LLVM::PoisonOp::create(b, loc, vecType);
  for (auto [i, e] : llvm::enumerate(elements))
    v = LLVM::InsertElementOp::create(b, loc, v, e, i32Const(b, loc, i));
  LLVM::StoreOp::create(b, loc, v, ptr, byteSize(memType, elements.size()));
}

SmallVector<Value> loadShared(OpBuilder &b, Location loc, Value ptr, Type memType,
                              unsigned count) {
  if (count == 1)
    return {LLVM::LoadOp::create(b, loc, memType, ptr, byteSize(memType, 1))};
  auto vecType = VectorType::get({int64_t(count)}, memType);
  Value v = LLVM::LoadOp::create(b, loc, vecType, ptr, byteSize(memType, count));
  SmallVector<Value> elements;
  for (unsigned i = 0; i < count; ++i)
    elements.push_back(LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, i)));
  return elements;
}

Value toSharedMemory(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (type.isInteger(1))
    return arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
  return value;
}

Value fromSharedMemory(OpBuilder &b, Location loc, Value value, Type type) {
  if (type.isInteger(1))
    return arith::TruncIOp::create(b, loc, type, value);
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, value);
  return value;
}

} // namespace tcc
