//===- MathToNVVM.cpp - transcendental math on the GPU's special units ----===//
//
// Without libdevice, f32 exp/exp2/log/log2/sin/cos/rsqrt map to PTX's approximate
// special-function instructions as Triton does (exp(x) = ex2.approx(x * log2 e), exp2(x) =
// ex2.approx.ftz(x), log(x) = lg2.approx(x) * ln 2); f16 and bf16 compute in f32. sqrt
// stays llvm.sqrt (sqrt.rn).
// f32 division is div.full.f32, as Triton's `/`: within 2 ulp over the whole range, and
// a divisor shared by many quotients costs one reciprocal (ptxas reuses it), where IEEE
// div.rn.f32 costs a Newton sequence with a slow path for each quotient.
//
// tanh and erf have neither an accurate PTX instruction (tanh.approx.f32 is good to about
// 2^-11 only) nor an LLVM lowering without libdevice: MLIR's polynomial approximations
// replace them by f32 arithmetic (rational polynomials with FMAs and one division, within
// about 5 ulp of the exact value over the whole range; 0 and ±1 exact at the ends; NaN
// stays NaN), f16 and bf16 going through f32. Floor, ceil and fma are PTX instructions
// (cvt.rmi, cvt.rpi, fma.rn) through the upstream patterns.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

using namespace mlir;

namespace tcc {
namespace {

/// Which intrinsic, and what to scale the argument and the result by.
struct SpecialFunction {
  const char *intrinsic;
  double argScale, resultScale;
};

template <typename MathOp>
struct SpecialFunctionLowering : ConvertOpToLLVMPattern<MathOp> {
  SpecialFunctionLowering(LLVMTypeConverter &converter, SpecialFunction fn)
      : ConvertOpToLLVMPattern<MathOp>(converter, /*benefit=*/10), fn(fn) {}

  LogicalResult matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF16() && !type.isBF16()) {
      if (type.isF64())
        return op.emitOpError() << "on f64 needs libdevice, which tcc does not link";
      return failure();
    }
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value x = adaptor.getOperand();
    if (!type.isF32())
      x = LLVM::FPExtOp::create(rewriter, loc, f32, x);
    auto scale = [&](Value v, double factor) -> Value {
      if (factor == 1.0)
        return v;
      Value c = LLVM::ConstantOp::create(rewriter, loc, f32, rewriter.getF32FloatAttr(factor));
      return LLVM::FMulOp::create(rewriter, loc, v, c);
    };
    x = scale(x, fn.argScale);
    Value y = LLVM::CallIntrinsicOp::create(rewriter, loc, f32,
                                            rewriter.getStringAttr(fn.intrinsic), ValueRange{x})
                  .getResult(0);
    y = scale(y, fn.resultScale);
    if (!type.isF32())
      y = LLVM::FPTruncOp::create(rewriter, loc, type, y);
    rewriter.replaceOp(op, y);
    return success();
  }

  SpecialFunction fn;
};

/// f32 (and f16/bf16, computed in f32) division through div.full.f32.
struct DivFLowering : ConvertOpToLLVMPattern<arith::DivFOp> {
  DivFLowering(LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<arith::DivFOp>(converter, /*benefit=*/10) {}

  LogicalResult matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF16() && !type.isBF16())
      return failure(); // f64 keeps IEEE division (div.rn.f64)
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value a = adaptor.getLhs(), b = adaptor.getRhs();
    if (!type.isF32()) {
      a = LLVM::FPExtOp::create(rewriter, loc, f32, a);
      b = LLVM::FPExtOp::create(rewriter, loc, f32, b);
    }
    Value q = LLVM::CallIntrinsicOp::create(rewriter, loc, f32,
                                            rewriter.getStringAttr("llvm.nvvm.div.full"),
                                            ValueRange{a, b})
                  .getResult(0);
    if (!type.isF32())
      q = LLVM::FPTruncOp::create(rewriter, loc, type, q);
    rewriter.replaceOp(op, q);
    return success();
  }
};

} // namespace

LogicalResult expandMathWithoutLibdevice(Operation *root) {
  auto approximated = [](StringRef name) {
    name.consume_front("math.");
    return name == "tanh" || name == "erf";
  };
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::TanhOp, math::ErfOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  RewritePatternSet patterns(root->getContext());
  populateMathF32ExpansionPatterns(patterns, approximated);
  populateMathPolynomialApproximationPatterns(patterns, approximated);
  // Only these ops and what replaces them; nothing else is folded or moved.
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
      .enableFolding(false)
      .enableConstantCSE(false)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  bool changed = false;
  if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config, &changed)))
    return root->emitError("tcc: the approximation of tanh and erf did not converge");
  WalkResult left = root->walk([](Operation *op) {
    if (!isa<math::TanhOp, math::ErfOp>(op))
      return WalkResult::advance();
    op->emitOpError() << "has no lowering for " << op->getResultTypes()[0];
    return WalkResult::interrupt();
  });
  return failure(left.wasInterrupted());
}

void populateMathToNVVMPatterns(LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  const double log2e = 1.0 / std::log(2.0), ln2 = std::log(2.0);
  patterns.add<SpecialFunctionLowering<math::ExpOp>>(
      converter, SpecialFunction{"llvm.nvvm.ex2.approx.f32", log2e, 1.0});
  // exp2 flushes subnormal results to zero (below 2^-126), as Triton's tl.math.exp2 (its
  // PTX has `ex2.approx.ftz.f32`, one MUFU.EX2): without ftz, ptxas wraps each in a range
  // test and two multiplies (FSETP, FMUL, MUFU, FMUL), about a fifth of tutorial 06's loop.
  // exp keeps subnormal results, as Triton's tl.exp.
  patterns.add<SpecialFunctionLowering<math::Exp2Op>>(
      converter, SpecialFunction{"llvm.nvvm.ex2.approx.ftz.f32", 1.0, 1.0});
  patterns.add<SpecialFunctionLowering<math::LogOp>>(
      converter, SpecialFunction{"llvm.nvvm.lg2.approx.f", 1.0, ln2});
  patterns.add<SpecialFunctionLowering<math::Log2Op>>(
      converter, SpecialFunction{"llvm.nvvm.lg2.approx.f", 1.0, 1.0});
  patterns.add<SpecialFunctionLowering<math::SinOp>>(
      converter, SpecialFunction{"llvm.nvvm.sin.approx.f", 1.0, 1.0});
  patterns.add<SpecialFunctionLowering<math::CosOp>>(
      converter, SpecialFunction{"llvm.nvvm.cos.approx.f", 1.0, 1.0});
  patterns.add<SpecialFunctionLowering<math::RsqrtOp>>(
      converter, SpecialFunction{"llvm.nvvm.rsqrt.approx.f", 1.0, 1.0});
  patterns.add<DivFLowering>(converter);
}

} // namespace tcc
