//===- AtomicLowering.cpp - tile.atomic_rmw and tile.atomic_cas ----------===//
//
// Each element of a tile atomic is performed once, by the thread that owns it (the first
// copy where the layout replicates elements), as PTX `atom.<sem>.<scope>.global.<op>`
// (Triton's sem= and scope=); lanes a mask turns off read 0. A scalar atomic is performed
// by thread 0; where its old value is used (a spin lock's `atomic_cas(lock, 0, 1)`),
// the program waits at a barrier, thread 0 writes it to the op's scratch in shared memory,
// the program waits again, and every thread reads it back (tile-allocate-shared places the scratch and
// orders it against earlier and later accesses, around loops too). The old values of a
// tile whose layout replicates elements would reach only the owners: a compile-time error
// (checkAtomicResults).
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/SharedMemory.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

/// The PTX instruction of an atomic on `element`: "atom.acq_rel.gpu.global.max.s32".
std::string atomInstruction(StringRef kind, StringRef sem, StringRef scope, Type element) {
  unsigned bits = element.getIntOrFloatBitWidth();
  std::string width = std::to_string(bits);
  std::string op, type;
  if (kind == "add") {
    op = "add";
    type = element.isF32() ? ".f32" : ".u" + width;
  } else if (kind == "max" || kind == "min") {
    op = kind.str();
    type = ".s" + width;
  } else if (kind == "umax" || kind == "umin") {
    op = kind.drop_front().str();
    type = ".u" + width;
  } else {
    op = kind == "xchg" ? "exch" : kind.str(); // and, or, xor, cas
    type = ".b" + width;
  }
  return "atom." + sem.str() + "." + scope.str() + ".global." + op + type;
}

/// The integer of the same width as `t` (floats travel through PTX as their bits).
Type bitsType(Type t) {
  return IntegerType::get(t.getContext(), t.getIntOrFloatBitWidth());
}

Value toBits(OpBuilder &b, Location loc, Value v) {
  if (isa<FloatType>(v.getType()))
    return LLVM::BitcastOp::create(b, loc, bitsType(v.getType()), v);
  return v;
}

Value fromBits(OpBuilder &b, Location loc, Value v, Type element) {
  if (isa<FloatType>(element))
    return LLVM::BitcastOp::create(b, loc, element, v);
  return v;
}

/// One thread's atomic on one element: `$0` the old value (0 where `pred` is false),
/// then the predicate, the address and the operands.
Value emitAtom(OpBuilder &b, Location loc, const std::string &instr, Value pred, Value ptr,
               ArrayRef<Value> operands, Type element) {
  unsigned bits = element.getIntOrFloatBitWidth();
  std::string c = bits == 64 ? "l" : "r";
  std::string text, constraints = "=" + c;
  SmallVector<Value> args;
  unsigned next = 1;
  if (pred) {
    text = "mov.b" + std::to_string(bits) + " $0, 0;\n\t@$1 ";
    constraints += ",b";
    args.push_back(pred);
    next = 2;
  }
  text += instr + " $0, [$" + std::to_string(next) + "]";
  constraints += ",l";
  args.push_back(ptr);
  for (size_t i = 0; i < operands.size(); ++i) {
    text += ", $" + std::to_string(next + 1 + i);
    constraints += "," + c;
    args.push_back(toBits(b, loc, operands[i]));
  }
  text += ";";
  auto asmOp = LLVM::InlineAsmOp::create(b, loc, bitsType(element), args, text, constraints,
                                         /*has_side_effects=*/true, /*is_align_stack=*/false,
                                         LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
                                         ArrayAttr());
  return fromBits(b, loc, asmOp.getResult(0), element);
}

Value conjoin(OpBuilder &b, Location loc, Value a, Value c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return arith::AndIOp::create(b, loc, a, c);
}

/// Both atomics: `operands[k]` are the registers of operand k (value; cmp and value for
/// cas), `masks` the mask's (empty without one).
LogicalResult lowerAtomic(Operation *op, const std::string &instr, ValueRange ptrs,
                          ArrayRef<ValueRange> operands, ValueRange masks,
                          ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  Type type = op->getResult(0).getType();
  auto tile = dyn_cast<RankedTensorType>(type);
  Type element = tile ? tile.getElementType() : type;
  bool resultUsed = !op->getResult(0).use_empty();
  FailureOr<Value> threads = emitAtomicOwner(op, type, rewriter);
  if (failed(threads))
    return failure();
  Value owner = *threads;
  SmallVector<Value> results;
  for (size_t i = 0; i < ptrs.size(); ++i) {
    Value pred = conjoin(rewriter, loc, masks.empty() ? Value() : masks[i], owner);
    SmallVector<Value> args;
    for (ValueRange r : operands)
      args.push_back(r[i]);
    results.push_back(emitAtom(rewriter, loc, instr, pred, ptrs[i], args, element));
  }
  if (!resultUsed) {
    rewriter.eraseOp(op);
    return success();
  }
  if (!tile) {
    // Thread 0 holds the old value: through shared memory to every thread. The first
    // barrier keeps the store from overtaking reads of the scratch by an earlier
    // execution of this op (a spin lock's scf.while, whose back edge tile-allocate-shared
    // does not order), the second makes it visible.
    Value base = scratchBase(rewriter, op);
    if (!base)
      return failure();
    Value bits = toBits(rewriter, loc, results[0]);
    unsigned width = element.getIntOrFloatBitWidth();
    std::string text = "@$0 st.shared.b" + std::to_string(width) + " [$1], $2;";
    Value address = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), base);
    nvvm::barrier(rewriter, loc);
    LLVM::InlineAsmOp::create(rewriter, loc, TypeRange(), ValueRange{owner, address, bits},
                              text, width == 64 ? "b,l,l" : "b,l,r",
                              /*has_side_effects=*/true, /*is_align_stack=*/false,
                              LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
    nvvm::barrier(rewriter, loc);
    Value loaded = LLVM::LoadOp::create(rewriter, loc, bitsType(element), base);
    results[0] = fromBits(rewriter, loc, loaded, element);
  }
  replaceWithRegisters(rewriter, op, results);
  return success();
}

struct AtomicRMWLowering : OpConversionPattern<AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AtomicRMWOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::string instr = atomInstruction(op.getKind(), op.getSem(), op.getScope(),
                                        getElementTypeOrSelf(op.getType()));
    ValueRange values = adaptor.getValue();
    return lowerAtomic(op, instr, adaptor.getPtr(), {values}, adaptor.getMask(), rewriter);
  }
};

struct AtomicCASLowering : OpConversionPattern<AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AtomicCASOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::string instr =
        atomInstruction("cas", op.getSem(), op.getScope(), getElementTypeOrSelf(op.getType()));
    ValueRange cmps = adaptor.getCmp(), values = adaptor.getValue();
    return lowerAtomic(op, instr, adaptor.getPtr(), {cmps, values}, ValueRange(), rewriter);
  }
};

} // namespace

FailureOr<Value> emitAtomicOwner(Operation *op, Type type, ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  if (!isa<RankedTensorType>(type)) {
    return emitIsThreadZero(rewriter, loc, kernelNumThreads(op));
  }
  std::optional<Distribution> dist = getDistributionOrError(op, type);
  if (!dist)
    return failure();
  if (!op->getResult(0).use_empty() && dist->hasReplicas()) // reported before the conversion
    return rewriter.notifyMatchFailure(op, "old values of replicated elements");
  return emitOwnerPredicate(rewriter, loc, *dist);
}

int64_t atomicScratchBytes(Operation *op) {
  if (!isa<AtomicRMWOp, AtomicCASOp>(op) || op->getResult(0).use_empty() ||
      isa<RankedTensorType>(op->getResult(0).getType()))
    return 0;
  return 8;
}

LogicalResult checkAtomicResults(Operation *op) {
  if (!isa<AtomicRMWOp, AtomicCASOp>(op) || op->getResult(0).use_empty())
    return success();
  auto tile = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!tile)
    return success(); // broadcast through shared memory
  std::optional<Distribution> dist = Distribution::get(tile);
  if (dist && dist->hasReplicas())
    return op->emitError("the old values of an atomic on a tile whose layout replicates "
                         "elements are not supported; use a tile of at least as many "
                         "elements as the program has threads, a scalar, or drop the result");
  return success();
}

void populateAtomicLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering>(converter, patterns.getContext());
}

} // namespace tcc
