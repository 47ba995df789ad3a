//===- MemoryLowering.cpp - loads, stores and atomics in global memory -----===//
//
// Each thread accesses its registers in groups of `vec` consecutive elements (the
// width tile-mask proved legal), one vector access per group. Unpredicated accesses are
// plain LLVM loads and stores; predicated ones are inline PTX (`@p ld.global.v4.b32`),
// which keeps them branch-free, as Triton does. Masked-off lanes of a load take `other`.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

/// How a group of `count` elements of type `memType` travels: as `words` words of
/// `wordBits` bits each.
struct AccessShape {
  unsigned count, elementBits, wordBits, words;
};

AccessShape accessShape(Type memType, unsigned count) {
  unsigned elementBits = memType.getIntOrFloatBitWidth();
  unsigned bits = elementBits * count;
  unsigned wordBits = elementBits >= 32 ? elementBits : std::min(32u, bits);
  // PTX has no 8-bit registers: a lone byte travels in a 16-bit one.
  return {count, elementBits, std::max(16u, wordBits), bits / wordBits == 0 ? 1 : bits / wordBits};
}

char constraintFor(unsigned wordBits) {
  return wordBits == 16 ? 'h' : wordBits == 32 ? 'r' : 'l';
}

std::string ptxAccessType(const AccessShape &s) {
  std::string vec = s.words > 1 ? ".v" + std::to_string(s.words) : "";
  if (s.elementBits == 8 && s.count == 1)
    return vec + ".u8";
  return vec + ".b" + std::to_string(s.wordBits);
}

/// The group of `count` memory-typed elements as words (for a predicated store).
SmallVector<Value> toWords(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                           const AccessShape &s) {
  Type wordType = b.getIntegerType(s.wordBits);
  if (s.elementBits == 8 && s.count == 1)
    return {LLVM::ZExtOp::create(b, loc, wordType, elements[0])};
  if (s.elementBits == s.wordBits) {
    SmallVector<Value> words;
    for (Value e : elements)
      words.push_back(LLVM::BitcastOp::create(b, loc, wordType, e));
    return words;
  }
  auto vecType = VectorType::get({int64_t(s.count)}, elements[0].getType());
  Value v = LLVM::PoisonOp::create(b, loc, vecType);
  for (auto [i, e] : llvm::enumerate(elements))
    v = LLVM::InsertElementOp::create(b, loc, v, e, i32Const(b, loc, i));
  auto wordsType = VectorType::get({int64_t(s.words)}, wordType);
  Value packed = LLVM::BitcastOp::create(b, loc, wordsType, v);
  SmallVector<Value> words;
  for (unsigned i = 0; i < s.words; ++i)
    words.push_back(LLVM::ExtractElementOp::create(b, loc, packed, i32Const(b, loc, i)));
  return words;
}

/// The inverse of toWords.
SmallVector<Value> fromWords(OpBuilder &b, Location loc, ArrayRef<Value> words, Type memType,
                             const AccessShape &s) {
  if (s.elementBits == 8 && s.count == 1)
    return {LLVM::TruncOp::create(b, loc, memType, words[0])};
  SmallVector<Value> elements;
  if (s.elementBits == s.wordBits) {
    for (Value w : words)
      elements.push_back(LLVM::BitcastOp::create(b, loc, memType, w));
    return elements;
  }
  unsigned perWord = s.wordBits / s.elementBits;
  auto vecType = VectorType::get({int64_t(perWord)}, memType);
  for (Value w : words) {
    Value v = LLVM::BitcastOp::create(b, loc, vecType, w);
    for (unsigned i = 0; i < perWord; ++i)
      elements.push_back(LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, i)));
  }
  return elements;
}

/// Memory type to register type: bytes back to i1, or to fp8 (the same bits).
Value fromMemory(OpBuilder &b, Location loc, Value v, Type type) {
  if (type.isInteger(1)) {
    Value zero = arith::ConstantIntOp::create(b, loc, v.getType(), 0);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
  }
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return arith::BitcastOp::create(b, loc, type, v);
  return v;
}

Value toMemory(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isInteger(1))
    return arith::ExtUIOp::create(b, loc, b.getI8Type(), v);
  if (isa<Float8E4M3FNType, Float8E5M2Type>(v.getType()))
    return arith::BitcastOp::create(b, loc, b.getI8Type(), v);
  return v;
}

/// A group of `count` elements at `ptr`. A predicated load with `others` (the masked-off
/// lanes' values, memory-typed) writes into registers that already hold them, as Triton's
/// `mov; @p ld` does: the `other` words are inputs tied to the outputs, so LLVM copies them
/// into the destination before the load and no select follows it. A select would keep
/// each load's predicate live until its data arrives (16 predicates for a 64-element row,
/// more than a thread has), and ptxas then holds the data of every load in flight twice.
/// The contract with the tile dialect's LLVM IR translation (TileToLLVMIRTranslation.cpp):
/// a predicated global access is a side-effecting inline asm with its address, operand
/// #address, under the constraint "*m", marked `tile.predicated_access`. The translation
/// adds the address's element type, and the memory effects of a load.
void markPredicatedAccess(LLVM::InlineAsmOp asmOp, PredicatedAccessKind kind,
                          unsigned address) {
  asmOp->setAttr(kPredicatedAccessAttrName,
                 PredicatedAccessAttr::get(asmOp.getContext(), kind, address));
}

SmallVector<Value> emitGlobalLoad(OpBuilder &b, Location loc, Value ptr, Value pred,
                                  Type memType, unsigned count, ArrayRef<Value> others = {}) {
  unsigned bytes = memType.getIntOrFloatBitWidth() / 8 * count;
  if (!pred) {
    if (count == 1)
      return {LLVM::LoadOp::create(b, loc, memType, ptr, bytes)};
    auto vecType = VectorType::get({int64_t(count)}, memType);
    Value v = LLVM::LoadOp::create(b, loc, vecType, ptr, bytes);
    SmallVector<Value> elements;
    for (unsigned i = 0; i < count; ++i)
      elements.push_back(LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, i)));
    return elements;
  }
  AccessShape s = accessShape(memType, count);
  // Operands: the output words, the predicate, the tied `other` words (if any), the address
  // (an indirect memory operand, "*m": printed with its brackets, `[%rd+imm]`).
  SmallVector<Value> inputs{pred};
  if (!others.empty())
    inputs.append(toWords(b, loc, others, s));
  inputs.push_back(ptr);
  std::string asmText = "@$" + std::to_string(s.words) + " ld.global" + ptxAccessType(s) + " ";
  std::string constraints;
  if (s.words > 1)
    asmText += "{";
  for (unsigned i = 0; i < s.words; ++i) {
    asmText += (i ? ", $" : "$") + std::to_string(i);
    constraints += std::string(i ? "," : "") + "=" + constraintFor(s.wordBits);
  }
  if (s.words > 1)
    asmText += "}";
  asmText += ", $" + std::to_string(s.words + inputs.size() - 1) + ";";
  constraints += ",b";
  if (!others.empty())
    for (unsigned i = 0; i < s.words; ++i)
      constraints += "," + std::to_string(i);
  constraints += ",*m";
  Type wordType = b.getIntegerType(s.wordBits);
  Type resultType = wordType;
  if (s.words > 1)
    resultType = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                  SmallVector<Type>(s.words, wordType));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, inputs, asmText, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false, LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  markPredicatedAccess(asmOp, PredicatedAccessKind::Load, inputs.size() - 1);
  SmallVector<Value> words;
  if (s.words == 1)
    words.push_back(asmOp.getResult(0));
  else
    for (unsigned i = 0; i < s.words; ++i)
      words.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return fromWords(b, loc, words, memType, s);
}

void emitGlobalStore(OpBuilder &b, Location loc, Value ptr, Value pred,
                     ArrayRef<Value> elements) {
  Type memType = elements[0].getType();
  unsigned count = elements.size();
  unsigned bytes = memType.getIntOrFloatBitWidth() / 8 * count;
  if (!pred) {
    if (count == 1) {
      LLVM::StoreOp::create(b, loc, elements[0], ptr, bytes);
      return;
    }
    auto vecType = VectorType::get({int64_t(count)}, memType);
    Value v = LLVM::PoisonOp::create(b, loc, vecType);
    for (auto [i, e] : llvm::enumerate(elements))
      v = LLVM::InsertElementOp::create(b, loc, v, e, i32Const(b, loc, i));
    LLVM::StoreOp::create(b, loc, v, ptr, bytes);
    return;
  }
  AccessShape s = accessShape(memType, count);
  SmallVector<Value> words = toWords(b, loc, elements, s);
  std::string asmText = "@$0 st.global" + ptxAccessType(s) + " $1, ";
  std::string constraints = "b,*m";
  if (s.words > 1)
    asmText += "{";
  for (unsigned i = 0; i < s.words; ++i) {
    asmText += (i ? ", $" : "$") + std::to_string(i + 2);
    constraints += std::string(",") + constraintFor(s.wordBits);
  }
  if (s.words > 1)
    asmText += "}";
  asmText += ";";
  SmallVector<Value> operands{pred, ptr};
  operands.append(words.begin(), words.end());
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, TypeRange(), operands, asmText, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false, LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  markPredicatedAccess(asmOp, PredicatedAccessKind::Store, /*address=*/1);
}

/// The vector width for a memory op on a tile: its `vec`, clamped to what the
/// registers and 128-bit accesses allow.
unsigned vectorWidth(Operation *op, const Distribution &dist, Type memType) {
  int64_t vec = getVectorWidth(op);
  int64_t maxByBits = std::max<int64_t>(1, 128 / memType.getIntOrFloatBitWidth());
  vec = std::min({vec, dist.getContigRun(), maxByBits});
  while (vec > 1 && dist.getNumRegs() % vec)
    vec /= 2;
  return std::max<int64_t>(1, int64_t(llvm::bit_floor(uint64_t(vec))));
}

Value conjoin(OpBuilder &b, Location loc, Value a, Value c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return arith::AndIOp::create(b, loc, a, c);
}

struct LoadLowering : OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getType();
    auto tile = dyn_cast<RankedTensorType>(type);
    Type element = tile ? tile.getElementType() : type;
    Type memType = memoryType(element);
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask(), others = adaptor.getOther();
    unsigned vec = 1;
    if (tile) {
      std::optional<Distribution> dist = getDistributionOrError(op, type);
      if (!dist)
        return failure();
      vec = vectorWidth(op, *dist, memType);
    }
    SmallVector<Value> values;
    for (size_t first = 0; first < ptrs.size(); first += vec) {
      Value mask = masks.empty() ? Value() : masks[first];
      SmallVector<Value> fill;
      if (mask && !others.empty())
        for (unsigned i = 0; i < vec; ++i)
          fill.push_back(toMemory(rewriter, loc, others[first + i]));
      SmallVector<Value> loaded =
          emitGlobalLoad(rewriter, loc, ptrs[first], mask, memType, vec, fill);
      for (unsigned i = 0; i < vec; ++i)
        values.push_back(fromMemory(rewriter, loc, loaded[i], element));
    }
    replaceWithRegisters(rewriter, op, values);
    return success();
  }
};

struct StoreLowering : OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getValue().getType();
    auto tile = dyn_cast<RankedTensorType>(type);
    Type element = tile ? tile.getElementType() : type;
    Type memType = memoryType(element);
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask(), values = adaptor.getValue();
    unsigned vec = 1;
    Value owner;
    if (tile) {
      std::optional<Distribution> dist = getDistributionOrError(op, type);
      if (!dist)
        return failure();
      vec = vectorWidth(op, *dist, memType);
      owner = emitOwnerPredicate(rewriter, loc, *dist);
    } else {
      // A scalar is the same in every thread: one store suffices.
      owner = emitIsThreadZero(rewriter, loc, kernelNumThreads(op));
    }
    for (size_t first = 0; first < ptrs.size(); first += vec) {
      Value pred = conjoin(rewriter, loc, masks.empty() ? Value() : masks[first], owner);
      SmallVector<Value> elements;
      for (unsigned i = 0; i < vec; ++i)
        elements.push_back(toMemory(rewriter, loc, values[first + i]));
      emitGlobalStore(rewriter, loc, ptrs[first], pred, elements);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// One element per instruction (atomics do not vectorise): `atom.global.add` where the
/// old value is used, `red.global.add` where it is not. Masked-off lanes yield 0.
/// Replicated elements are added by their owning thread alone, as stores are written; the
/// other copies would not see the old value, so a used result needs a layout without
/// replicas (and a tile, not a scalar).
struct AtomicAddLowering : OpConversionPattern<AtomicAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AtomicAddOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getType();
    auto tile = dyn_cast<RankedTensorType>(type);
    Type element = tile ? tile.getElementType() : type;
    bool resultUsed = !op.getResult().use_empty();
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask(), values = adaptor.getValue();
    if (!tile && resultUsed) // reported before the conversion
      return rewriter.notifyMatchFailure(op, "old value of a scalar");
    FailureOr<Value> threads = emitAtomicOwner(op, type, rewriter);
    if (failed(threads))
      return failure();
    Value owner = *threads;
    unsigned bits = element.getIntOrFloatBitWidth();
    std::string ptxType = element.isF32() ? ".f32" : bits == 32 ? ".u32" : ".u64";
    std::string valueConstraint = element.isF32() ? "f" : bits == 32 ? "r" : "l";
    SmallVector<Value> results;
    for (size_t i = 0; i < ptrs.size(); ++i) {
      Value pred = conjoin(rewriter, loc, masks.empty() ? Value() : masks[i], owner);
      if (!resultUsed) {
        // $0 predicate (if any), then address and value.
        unsigned base = pred ? 1 : 0;
        std::string text = (pred ? "@$0 " : std::string()) + "red.global.add" + ptxType +
                           " [$" + std::to_string(base) + "], $" +
                           std::to_string(base + 1) + ";";
        std::string constraints = std::string(pred ? "b," : "") + "l," + valueConstraint;
        SmallVector<Value> operands;
        if (pred)
          operands.push_back(pred);
        operands.append({ptrs[i], values[i]});
        LLVM::InlineAsmOp::create(rewriter, loc, TypeRange(), operands, text, constraints,
                                  /*has_side_effects=*/true, /*is_align_stack=*/false,
                                  LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
                                  ArrayAttr());
        continue;
      }
      // $0 the old value, $1 predicate (if any), then address and value. Zeroed first so
      // that masked-off lanes read 0.
      unsigned base = pred ? 2 : 1;
      std::string zero = element.isF32() ? "mov.b32 $0, 0f00000000;"
                                         : "mov.b" + std::to_string(bits) + " $0, 0;";
      std::string text = (pred ? zero + "\n\t@$1 " : std::string()) + "atom.global.add" +
                         ptxType + " $0, [$" + std::to_string(base) + "], $" +
                         std::to_string(base + 1) + ";";
      std::string constraints = "=" + valueConstraint + (pred ? ",b" : "") + ",l," +
                                valueConstraint;
      SmallVector<Value> operands;
      if (pred)
        operands.push_back(pred);
      operands.append({ptrs[i], values[i]});
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, element, operands, text, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false, LLVM::TailCallKind::None,
          LLVM::AsmDialectAttr(), ArrayAttr());
      results.push_back(asmOp.getResult(0));
    }
    if (resultUsed)
      replaceWithRegisters(rewriter, op, results);
    else
      rewriter.eraseOp(op);
    return success();
  }
};

/// tile.record_oob (tile-check-bounds): per thread, whether any of its elements is bad and
/// the offset of the first; then one branch-free PTX block: `@any atom.global.cas.b32` of
/// the record's word 0 from 0 to 1, and, where this thread won it, the stores of the
/// fields (docs/lowering.md, "--check-bounds"). Replicated elements may race for the
/// record; the compare-and-swap lets one of them write it.
struct RecordOutOfBoundsLowering : OpConversionPattern<RecordOutOfBoundsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(RecordOutOfBoundsOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange bad = adaptor.getBad(), offsets = adaptor.getOffset();
    if (bad.size() != offsets.size() || bad.empty() || adaptor.getRecord().size() != 1)
      return rewriter.notifyMatchFailure(op, "registers of the flags and offsets differ");
    Value any = bad.back();
    Value first = offsets.back();
    for (size_t i = bad.size() - 1; i-- > 0;) {
      any = arith::OrIOp::create(rewriter, loc, bad[i], any);
      first = arith::SelectOp::create(rewriter, loc, bad[i], offsets[i], first);
    }
    auto i32 = [&](int64_t v) { return i32Const(rewriter, loc, int32_t(v)); };
    SmallVector<Value> operands{any,
                                adaptor.getRecord()[0],
                                i32(op.getLine()),
                                i32(op.getColumn()),
                                i32(op.getKind()),
                                i32(op.getArg()),
                                adaptor.getPidX()[0],
                                adaptor.getPidY()[0],
                                adaptor.getPidZ()[0],
                                first};
    // Word 0: 0 (none) -> 1; words 1-7: line, column, kind, argument, program id; bytes
    // 32-39: the offset.
    std::string text = "{\n\t.reg .pred %won;\n\t.reg .b32 %old;\n\t"
                       "mov.b32 %old, 1;\n\t"
                       "@$0 atom.global.cas.b32 %old, [$1], 0, 1;\n\t"
                       "setp.eq.b32 %won, %old, 0;\n\t";
    for (unsigned field = 0; field < 7; ++field)
      text += "@%won st.global.b32 [$1+" + std::to_string(4 * (field + 1)) + "], $" +
              std::to_string(field + 2) + ";\n\t";
    text += "@%won st.global.b64 [$1+32], $9;\n\t}";
    LLVM::InlineAsmOp::create(rewriter, loc, TypeRange(), operands, text,
                              "b,l,r,r,r,r,r,r,r,l,~{memory}",
                              /*has_side_effects=*/true, /*is_align_stack=*/false,
                              LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateMemoryLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LoadLowering, StoreLowering, AtomicAddLowering, RecordOutOfBoundsLowering>(
      converter, patterns.getContext());
}

} // namespace tcc
