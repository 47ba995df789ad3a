//===- EmitMath.cpp - math ops on scalars and tiles -----------------------===//
//
// Computed with the C library in float (f16, bf16, f32) or double (f64) and rounded once
// to the element type. The GPU's approximations (ex2.approx, rsqrt.approx, ...) may differ
// by a few ulp; docs/interpreter.md says so.
//
//===----------------------------------------------------------------------===//

#include "compiler/Interpreter/Elementwise.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;

namespace tcc::interp {
namespace {

enum class FU {
  Abs, Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Sqrt, Rsqrt, Cbrt, Sin, Cos, Tan, Tanh,
  Sinh, Cosh, Asin, Acos, Atan, Erf, Floor, Ceil, Round, RoundEven, Trunc, None
};

template <FU K, typename C> inline C floatUnary(C x) {
  if constexpr (K == FU::Abs)
    return std::fabs(x);
  else if constexpr (K == FU::Exp)
    return std::exp(x);
  else if constexpr (K == FU::Exp2)
    return std::exp2(x);
  else if constexpr (K == FU::Expm1)
    return std::expm1(x);
  else if constexpr (K == FU::Log)
    return std::log(x);
  else if constexpr (K == FU::Log2)
    return std::log2(x);
  else if constexpr (K == FU::Log10)
    return std::log10(x);
  else if constexpr (K == FU::Log1p)
    return std::log1p(x);
  else if constexpr (K == FU::Sqrt)
    return std::sqrt(x);
  else if constexpr (K == FU::Rsqrt)
    return C(1) / std::sqrt(x);
  else if constexpr (K == FU::Cbrt)
    return std::cbrt(x);
  else if constexpr (K == FU::Sin)
    return std::sin(x);
  else if constexpr (K == FU::Cos)
    return std::cos(x);
  else if constexpr (K == FU::Tan)
    return std::tan(x);
  else if constexpr (K == FU::Tanh)
    return std::tanh(x);
  else if constexpr (K == FU::Sinh)
    return std::sinh(x);
  else if constexpr (K == FU::Cosh)
    return std::cosh(x);
  else if constexpr (K == FU::Asin)
    return std::asin(x);
  else if constexpr (K == FU::Acos)
    return std::acos(x);
  else if constexpr (K == FU::Atan)
    return std::atan(x);
  else if constexpr (K == FU::Erf)
    return std::erf(x);
  else if constexpr (K == FU::Floor)
    return std::floor(x);
  else if constexpr (K == FU::Ceil)
    return std::ceil(x);
  else if constexpr (K == FU::Round)
    return std::round(x);
  else if constexpr (K == FU::RoundEven)
    return std::nearbyint(x); // the default rounding mode: to nearest, ties to even
  else
    return std::trunc(x);
}

FU unaryKind(StringRef name) {
  return llvm::StringSwitch<FU>(name)
      .Case("math.absf", FU::Abs)
      .Case("math.exp", FU::Exp)
      .Case("math.exp2", FU::Exp2)
      .Case("math.expm1", FU::Expm1)
      .Case("math.log", FU::Log)
      .Case("math.log2", FU::Log2)
      .Case("math.log10", FU::Log10)
      .Case("math.log1p", FU::Log1p)
      .Case("math.sqrt", FU::Sqrt)
      .Case("math.rsqrt", FU::Rsqrt)
      .Case("math.cbrt", FU::Cbrt)
      .Case("math.sin", FU::Sin)
      .Case("math.cos", FU::Cos)
      .Case("math.tan", FU::Tan)
      .Case("math.tanh", FU::Tanh)
      .Case("math.sinh", FU::Sinh)
      .Case("math.cosh", FU::Cosh)
      .Case("math.asin", FU::Asin)
      .Case("math.acos", FU::Acos)
      .Case("math.atan", FU::Atan)
      .Case("math.erf", FU::Erf)
      .Case("math.floor", FU::Floor)
      .Case("math.ceil", FU::Ceil)
      .Case("math.round", FU::Round)
      .Case("math.roundeven", FU::RoundEven)
      .Case("math.trunc", FU::Trunc)
      .Default(FU::None);
}

template <FU K> Inst unaryInst(const Slot &d, const Slot &a) {
  return visitFloat(d.dtype, [&](auto tag) -> Inst {
    using T = decltype(tag);
    using F = FloatOps<T>;
    return mapInst<T, T>(d, a, [](T x) { return F::put(floatUnary<K, typename F::C>(F::get(x))); });
  });
}

Inst unaryInst(FU k, const Slot &d, const Slot &a) {
  switch (k) {
#define TCC_CASE(K)                                                                          \
  case FU::K:                                                                                \
    return unaryInst<FU::K>(d, a);
    TCC_CASE(Abs)
    TCC_CASE(Exp)
    TCC_CASE(Exp2)
    TCC_CASE(Expm1)
    TCC_CASE(Log)
    TCC_CASE(Log2)
    TCC_CASE(Log10)
    TCC_CASE(Log1p)
    TCC_CASE(Sqrt)
    TCC_CASE(Rsqrt)
    TCC_CASE(Cbrt)
    TCC_CASE(Sin)
    TCC_CASE(Cos)
    TCC_CASE(Tan)
    TCC_CASE(Tanh)
    TCC_CASE(Sinh)
    TCC_CASE(Cosh)
    TCC_CASE(Asin)
    TCC_CASE(Acos)
    TCC_CASE(Atan)
    TCC_CASE(Erf)
    TCC_CASE(Floor)
    TCC_CASE(Ceil)
    TCC_CASE(Round)
    TCC_CASE(RoundEven)
    TCC_CASE(Trunc)
#undef TCC_CASE
  case FU::None:
    break;
  }
  return nullptr;
}

enum class FB2 { Pow, Atan2, CopySign, None };

Inst binaryInst(FB2 k, const Slot &d, const Slot &a, const Slot &b) {
  return visitFloat(d.dtype, [&](auto tag) -> Inst {
    using T = decltype(tag);
    using F = FloatOps<T>;
    switch (k) {
    case FB2::Pow:
      return zipInst<T, T, T>(d, a, b, [](T x, T y) { return F::put(std::pow(F::get(x), F::get(y))); });
    case FB2::Atan2:
      return zipInst<T, T, T>(d, a, b, [](T x, T y) { return F::put(std::atan2(F::get(x), F::get(y))); });
    default:
      return zipInst<T, T, T>(d, a, b, [](T x, T y) { return F::put(std::copysign(F::get(x), F::get(y))); });
    }
  });
}

} // namespace

Emitted emitMath(Compiler &c, Operation *op, InstList &out) {
  if (!isa_and_nonnull<math::MathDialect>(op->getDialect()))
    return Emitted::NotMine;
  if (op->getNumResults() != 1)
    return Emitted::NotMine;
  StringRef name = op->getName().getStringRef();
  Slot &d = c.slot(op->getResult(0));
  if (FU k = unaryKind(name); k != FU::None) {
    if (!isFloat(d.dtype))
      return c.fail(op, "expects floats");
    out.push_back(unaryInst(k, d, c.slot(op->getOperand(0))));
    return Emitted::Done;
  }
  FB2 k2 = llvm::StringSwitch<FB2>(name)
               .Case("math.powf", FB2::Pow)
               .Case("math.atan2", FB2::Atan2)
               .Case("math.copysign", FB2::CopySign)
               .Default(FB2::None);
  if (k2 != FB2::None) {
    out.push_back(binaryInst(k2, d, c.slot(op->getOperand(0)), c.slot(op->getOperand(1))));
    return Emitted::Done;
  }
  if (isa<math::FmaOp>(op)) {
    const Slot &a = c.slot(op->getOperand(0)), &b = c.slot(op->getOperand(1)),
               &e = c.slot(op->getOperand(2));
    out.push_back(visitFloat(d.dtype, [&](auto tag) -> Inst {
      using T = decltype(tag);
      using F = FloatOps<T>;
      return zip3Inst<T>(d, a, b, e, [](T x, T y, T z) {
        return F::put(std::fma(F::get(x), F::get(y), F::get(z)));
      });
    }));
    return Emitted::Done;
  }
  if (isa<math::AbsIOp>(op)) {
    const Slot &a = c.slot(op->getOperand(0));
    out.push_back(visitInt(d.dtype, [&](auto tag) -> Inst {
      using T = decltype(tag);
      using I = IntOps<T>;
      return mapInst<T, T>(d, a, [](T x) {
        return I::s(x) < 0 ? I::wrap(uint64_t(0) - I::u(x)) : x;
      });
    }));
    return Emitted::Done;
  }
  return Emitted::NotMine;
}

} // namespace tcc::interp
