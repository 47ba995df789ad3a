//===- SharedMemory.cpp - the kernel's scratch buffer ---------------------===//

#include "compiler/Conversion/SharedMemory.h"

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace tcc {

Value sharedBase(OpBuilder &b, Location loc) {
  return LLVM::AddressOfOp::create(b, loc, sharedPtrType(b.getContext()), kSharedBufferName);
}

Value bufferBase(OpBuilder &b, Operation *owner, int64_t offset) {
  Location loc = owner->getLoc();
  Value base = sharedBase(b, loc);
  Value at = offset ? i32Const(b, loc, offset) : Value();
  // A consumer group's own copy (ping-pong): the group's index times the stride further.
  if (auto stride = owner->getAttrOfType<IntegerAttr>(mlir::tile::kGroupStrideAttrName)) {
    Value group = arith::MulIOp::create(b, loc, nvvm::consumerGroup(b, loc),
                                        i32Const(b, loc, stride.getInt()));
    at = at ? arith::AddIOp::create(b, loc, at, group).getResult() : group;
  }
  return at ? sharedElementPtr(b, loc, base, b.getI8Type(), at) : base;
}

Value scratchBase(OpBuilder &b, Operation *op) {
  auto offset = op->getAttrOfType<IntegerAttr>(kSharedOffsetAttr);
  if (!offset) {
    op->emitOpError("exchanges data through shared memory that has no place: run "
                    "tile-allocate-shared before the lowering");
    return {};
  }
  return bufferBase(b, op, offset.getInt());
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

SharedAccesses::SharedAccesses(const SharedLayout &layout, const Distribution &dist,
                               unsigned width)
    : layout(layout), width(width) {
  reuse = planOffsetReuse(layout, llvm::divideCeil(dist.getNumRegs(), width), dist.getNumWarps(),
                          [&](int64_t access, unsigned lane, unsigned warp) {
                            SmallVector<int64_t> coords;
                            for (unsigned d = 0; d < dist.getRank(); ++d)
                              coords.push_back(dist.getThreadBase(d, lane, warp) +
                                               dist.getRegOffset(access * width, d));
                            return coords;
                          });
  offsets.reserve(reuse.size());
  for (int64_t access = 0; access < int64_t(reuse.size()); ++access)
    offsets.push_back(dist.getRegOffsets(access * width));
}

Value SharedAccesses::emit(OpBuilder &b, Location loc, Value base, Type memType,
                           ArrayRef<Value> bases, int64_t reg) {
  int64_t access = reg / width;
  const OffsetReuse &r = reuse[access];
  Value ptr;
  if (r.ref != access) {
    ptr = sharedElementPtr(b, loc, ptrs[r.ref], memType, i32Const(b, loc, r.delta));
  } else {
    SmallVector<Value> coords;
    for (auto [baseValue, offset] : llvm::zip(bases, offsets[access]))
      coords.push_back(offset == 0 ? baseValue
                                   : arith::AddIOp::create(b, loc, baseValue,
                                                           i32Const(b, loc, offset))
                                         .getResult());
    ptr = sharedElementPtr(b, loc, base, memType, layout.emitOffset(b, loc, coords));
  }
  ptrs.push_back(ptr);
  return ptr;
}

Value toSharedMemory(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (type.isInteger(1))
    return arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return arith::BitcastOp::create(b, loc, b.getI8Type(), value);
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
  return value;
}

Value fromSharedMemory(OpBuilder &b, Location loc, Value value, Type type) {
  if (type.isInteger(1))
    return arith::TruncIOp::create(b, loc, type, value);
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return arith::BitcastOp::create(b, loc, type, value);
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, value);
  return value;
}

SmallVector<Value> threadBases(OpBuilder &b, Location loc, const tile::Distribution &dist) {
  SmallVector<Value> bases;
  for (unsigned d = 0; d < dist.getRank(); ++d)
    bases.push_back(emitThreadBase(b, loc, dist, d));
  return bases;
}

void storeTile(OpBuilder &b, Location loc, Value base, const SharedLayout &layout,
               const tile::Distribution &dist, Type memType, ValueRange regs) {
  unsigned width = accessWidth(dist, layout.order[0], layout.vec);
  SmallVector<Value> bases = threadBases(b, loc, dist);
  SharedAccesses addresses(layout, dist, width);
  for (int64_t reg = 0; reg < dist.getNumRegs(); reg += width) {
    Value ptr = addresses.emit(b, loc, base, memType, bases, reg);
    SmallVector<Value> elements;
    for (unsigned i = 0; i < width; ++i)
      elements.push_back(toSharedMemory(b, loc, regs[reg + i]));
    storeShared(b, loc, ptr, elements);
  }
}

SmallVector<Value> loadTile(OpBuilder &b, Location loc, Value base, const SharedLayout &layout,
                            const tile::Distribution &dist, Type memType, Type element) {
  unsigned width = accessWidth(dist, layout.order[0], layout.vec);
  SmallVector<Value> bases = threadBases(b, loc, dist);
  SharedAccesses addresses(layout, dist, width);
  SmallVector<Value> values;
  for (int64_t reg = 0; reg < dist.getNumRegs(); reg += width) {
    Value ptr = addresses.emit(b, loc, base, memType, bases, reg);
    for (Value v : loadShared(b, loc, ptr, memType, width))
      values.push_back(fromSharedMemory(b, loc, v, element));
  }
  return values;
}

} // namespace tcc
