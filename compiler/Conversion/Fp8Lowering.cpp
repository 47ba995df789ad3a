//===- Fp8Lowering.cpp - fp8 conversions and constants to LLVM -------------===//
//
// LLVM has no fp8 type: the LLVM type converter makes f8E4M3FN and f8E5M2 an i8 holding
// the bits, and the lowering's memory paths load and store them as bytes (memoryType).
// What remains are the scalar ops that see fp8 as a number, after stage 1:
//
//   arith.extf   fp8 -> f16/bf16/f32/f64   exact
//   arith.truncf f32/f16/bf16 -> fp8       round to nearest even, saturating (satfinite):
//                                          above the largest finite value (infinity
//                                          included) gives that value, NaN gives 0x7F
//   arith.constant of fp8                  its bits
//   arith.bitcast between fp8 and i8       nothing
//
// On sm_90 (and later) the conversions are PTX's cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32
// and cvt.rn.f16x2.{e4m3x2,e5m2x2}, as Triton's; an operand travels in one half of the
// pair. On older targets they are integer arithmetic computing the same bits
// (dialects/Tile/Float8.h is the reference, which the interpreter and constant folding
// use): e5m2 is the upper byte of an f16; e4m3 widens through f32 bit manipulation; the
// narrowing rounds the f32 bits with an add of the half-ulp (ties to even) and handles
// subnormal results by a round-to-even of the value scaled to units of the smallest
// subnormal (cvt.rni). f64 narrows to f32 first (Sema routes f64 through f32 already).
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"

#include "dialects/Tile/Float8.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <cmath>
#include <cstring>

using namespace mlir;

namespace tcc {
namespace {

bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }
bool isE4M3(Type t) { return isa<Float8E4M3FNType>(t); }

/// Whether the module's target has the fp8 cvt instructions (sm_89 and later; tcc's
/// targets: sm_90 and sm_90a).
bool hasFp8Cvt(Operation *op) { return tile::getTarget(op).getComputeCapability() >= 89; }

Value i32c(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(int32_t(v)));
}

Value inlineAsm(OpBuilder &b, Location loc, Type result, ValueRange args, StringRef text,
                StringRef constraints) {
  auto op = LLVM::InlineAsmOp::create(b, loc, result, args, text, constraints,
                                      /*has_side_effects=*/false, /*is_align_stack=*/false,
                                      LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
                                      ArrayAttr());
  return op.getResult(0);
}

/// fp8 bits (i8) to an f16 (e5m2: exactly) or f32 (e4m3) value.
Value widenFp8(OpBuilder &b, Location loc, Value bits, bool e4m3, bool hardware) {
  Type i16 = b.getI16Type(), i32 = b.getI32Type(), f16 = b.getF16Type(), f32 = b.getF32Type();
  if (hardware) {
    Value pair = LLVM::ZExtOp::create(b, loc, i16, bits);
    Value halves = inlineAsm(b, loc, i32, pair,
                             e4m3 ? "cvt.rn.f16x2.e4m3x2 $0, $1;" : "cvt.rn.f16x2.e5m2x2 $0, $1;",
                             "=r,h");
    Value low = LLVM::TruncOp::create(b, loc, i16, halves);
    return LLVM::BitcastOp::create(b, loc, f16, low);
  }
  if (!e4m3) {
    Value wide = LLVM::ZExtOp::create(b, loc, i16, bits);
    Value shifted = LLVM::ShlOp::create(b, loc, wide, LLVM::ConstantOp::create(
                                                          b, loc, i16, b.getI16IntegerAttr(8)));
    return LLVM::BitcastOp::create(b, loc, f16, shifted);
  }
  // e4m3fn: magnitude m = bits & 0x7F. Normal (exponent field > 0): the f32 with the same
  // exponent and mantissa, rebiased by 120 (127 - 7) << 23. Subnormal: (m & 7) * 2^-9.
  // 0x7F is NaN. The sign is bit 7, moved to bit 31.
  Value w = LLVM::ZExtOp::create(b, loc, i32, bits);
  Value mag = LLVM::AndOp::create(b, loc, w, i32c(b, loc, 0x7F));
  Value sign = LLVM::ShlOp::create(b, loc, LLVM::AndOp::create(b, loc, w, i32c(b, loc, 0x80)),
                                   i32c(b, loc, 24));
  Value normal = LLVM::AddOp::create(b, loc, LLVM::ShlOp::create(b, loc, mag, i32c(b, loc, 20)),
                                     i32c(b, loc, 120 << 23));
  Value subValue = LLVM::FMulOp::create(
      b, loc, LLVM::UIToFPOp::create(b, loc, f32, mag),
      LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(1.0f / 512.0f)));
  Value subBits = LLVM::BitcastOp::create(b, loc, i32, subValue);
  Value isSub = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, mag, i32c(b, loc, 8));
  Value isNan = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, mag, i32c(b, loc, 0x7F));
  Value m = LLVM::SelectOp::create(b, loc, isSub, subBits, normal);
  m = LLVM::SelectOp::create(b, loc, isNan, i32c(b, loc, 0x7FC00000), m);
  return LLVM::BitcastOp::create(b, loc, f32, LLVM::OrOp::create(b, loc, m, sign));
}

/// An f32 value to fp8 bits (i8), rounded to nearest even with saturation.
Value narrowToFp8(OpBuilder &b, Location loc, Value x, bool e4m3, bool hardware) {
  Type i8 = b.getI8Type(), i16 = b.getI16Type(), i32 = b.getI32Type(), f32 = b.getF32Type();
  if (hardware) {
    Value pair = inlineAsm(b, loc, i16, x,
                           e4m3 ? "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $1;"
                                : "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $1;",
                           "=h,f");
    return LLVM::TruncOp::create(b, loc, i8, pair);
  }
  mlir::tile::fp8::FormatInfo fi = mlir::tile::fp8::info(
      e4m3 ? mlir::tile::fp8::Format::E4M3FN : mlir::tile::fp8::Format::E5M2);
  int shift = 23 - fi.mantissaBits;          // f32 mantissa bits dropped
  int rebias = (127 - fi.bias) << fi.mantissaBits;
  int emin = 1 - fi.bias;                     // exponent of the smallest normal
  uint32_t minNormalBits = uint32_t(127 + emin) << 23;
  float maxFinite = float(fi.maxFinite);
  uint32_t maxBits;
  std::memcpy(&maxBits, &maxFinite, 4);

  Value u = LLVM::BitcastOp::create(b, loc, i32, x);
  Value sign = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, u, i32c(b, loc, 24)),
                                   i32c(b, loc, 0x80));
  Value a = LLVM::AndOp::create(b, loc, u, i32c(b, loc, 0x7FFFFFFF));
  // Normal results: round the dropped bits to nearest even, then rebias the exponent.
  Value lsb = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, a, i32c(b, loc, shift)),
                                  i32c(b, loc, 1));
  Value rounded = LLVM::AddOp::create(
      b, loc, a, LLVM::AddOp::create(b, loc, lsb, i32c(b, loc, (1 << (shift - 1)) - 1)));
  Value normal = LLVM::SubOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, rounded, i32c(b, loc, shift)), i32c(b, loc, rebias));
  // Subnormal results: |x| in units of the smallest subnormal, rounded to even (0 up to
  // 2^m, the last being the smallest normal's bits).
  Value absX = LLVM::BitcastOp::create(b, loc, f32, a);
  Value scaled = LLVM::FMulOp::create(
      b, loc, absX,
      LLVM::ConstantOp::create(b, loc, f32,
                               b.getF32FloatAttr(std::ldexp(1.0f, fi.mantissaBits - emin))));
  Value even = LLVM::RoundEvenOp::create(b, loc, f32, scaled);
  Value sub = LLVM::FPToUIOp::create(b, loc, i32, even);
  Value isSub = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, a,
                                     i32c(b, loc, int64_t(minNormalBits)));
  Value isSat = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, a,
                                     i32c(b, loc, int64_t(maxBits)));
  Value isNan = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, a,
                                     i32c(b, loc, 0x7F800000));
  Value mag = LLVM::SelectOp::create(b, loc, isSub, sub, normal);
  mag = LLVM::SelectOp::create(b, loc, isSat, i32c(b, loc, fi.maxFiniteBits), mag);
  Value bits = LLVM::OrOp::create(b, loc, mag, sign);
  bits = LLVM::SelectOp::create(b, loc, isNan, i32c(b, loc, mlir::tile::fp8::kNaN), bits);
  return LLVM::TruncOp::create(b, loc, i8, bits);
}

/// A float value (already converted to LLVM's types) to `to` (f16, bf16, f32 or f64).
Value resizeFloat(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  // f16 <-> bf16 goes through f32 (both directions exact here: fp8 values fit either).
  if (from.getIntOrFloatBitWidth() == to.getIntOrFloatBitWidth()) {
    v = LLVM::FPExtOp::create(b, loc, b.getF32Type(), v);
    from = v.getType();
  }
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return LLVM::FPExtOp::create(b, loc, to, v);
  return LLVM::FPTruncOp::create(b, loc, to, v);
}

struct ExtFromFp8 : ConvertOpToLLVMPattern<arith::ExtFOp> {
  ExtFromFp8(LLVMTypeConverter &converter) : ConvertOpToLLVMPattern(converter, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type src = op.getIn().getType();
    if (!isFp8(src) || isa<ShapedType>(op.getType()))
      return failure();
    Type to = getTypeConverter()->convertType(op.getType());
    Value v = widenFp8(rewriter, op.getLoc(), adaptor.getIn(), isE4M3(src), hasFp8Cvt(op));
    rewriter.replaceOp(op, resizeFloat(rewriter, op.getLoc(), v, to));
    return success();
  }
};

struct TruncToFp8 : ConvertOpToLLVMPattern<arith::TruncFOp> {
  TruncToFp8(LLVMTypeConverter &converter) : ConvertOpToLLVMPattern(converter, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type dst = op.getType();
    if (!isFp8(dst) || isa<ShapedType>(op.getIn().getType()))
      return failure();
    Value x = resizeFloat(rewriter, op.getLoc(), adaptor.getIn(), rewriter.getF32Type());
    rewriter.replaceOp(op, narrowToFp8(rewriter, op.getLoc(), x, isE4M3(dst), hasFp8Cvt(op)));
    return success();
  }
};

struct Fp8Constant : ConvertOpToLLVMPattern<arith::ConstantOp> {
  Fp8Constant(LLVMTypeConverter &converter) : ConvertOpToLLVMPattern(converter, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto attr = dyn_cast<FloatAttr>(op.getValue());
    if (!attr || !isFp8(attr.getType()))
      return failure();
    uint64_t bits = attr.getValue().bitcastToAPInt().getZExtValue();
    rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(op, rewriter.getI8Type(),
                                                  rewriter.getI8IntegerAttr(int8_t(bits)));
    return success();
  }
};

/// fp8 <-> i8 (and between the two fp8 types): the same i8 after conversion.
struct Fp8Bitcast : ConvertOpToLLVMPattern<arith::BitcastOp> {
  Fp8Bitcast(LLVMTypeConverter &converter) : ConvertOpToLLVMPattern(converter, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(arith::BitcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isFp8(op.getIn().getType()) && !isFp8(op.getType()))
      return failure();
    Type to = getTypeConverter()->convertType(op.getType());
    if (!to || adaptor.getIn().getType() != to)
      return failure();
    rewriter.replaceOp(op, adaptor.getIn());
    return success();
  }
};

} // namespace

void populateFp8LoweringPatterns(LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExtFromFp8, TruncToFp8, Fp8Constant, Fp8Bitcast>(converter);
}

} // namespace tcc
