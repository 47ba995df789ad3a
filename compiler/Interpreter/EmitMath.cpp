//===- EmitMath.cpp - math ops on scalars and tiles -----------------------===//
//
// Computed with the C library in float (f16, bf16, f32) or double (f64) and rounded once
// to the element type. The GPU's approximations (ex2.approx, rsqrt.approx, ...) may differ
// by a few ulp; docs/interpreter.md says so.
//
//===----------------------------------------------------------------------===//

#include "compiler/Interpreter/Elementwise.h"

#include "dialects/Tile/Libdevice.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

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

FU unaryKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, FU>(op)
      .Case<math::AbsFOp>([](auto) { return FU::Abs; })
      .Case<math::ExpOp>([](auto) { return FU::Exp; })
      .Case<math::Exp2Op>([](auto) { return FU::Exp2; })
      .Case<math::ExpM1Op>([](auto) { return FU::Expm1; })
      .Case<math::LogOp>([](auto) { return FU::Log; })
      .Case<math::Log2Op>([](auto) { return FU::Log2; })
      .Case<math::Log10Op>([](auto) { return FU::Log10; })
      .Case<math::Log1pOp>([](auto) { return FU::Log1p; })
      .Case<math::SqrtOp>([](auto) { return FU::Sqrt; })
      .Case<math::RsqrtOp>([](auto) { return FU::Rsqrt; })
      .Case<math::CbrtOp>([](auto) { return FU::Cbrt; })
      .Case<math::SinOp>([](auto) { return FU::Sin; })
      .Case<math::CosOp>([](auto) { return FU::Cos; })
      .Case<math::TanOp>([](auto) { return FU::Tan; })
      .Case<math::TanhOp>([](auto) { return FU::Tanh; })
      .Case<math::SinhOp>([](auto) { return FU::Sinh; })
      .Case<math::CoshOp>([](auto) { return FU::Cosh; })
      .Case<math::AsinOp>([](auto) { return FU::Asin; })
      .Case<math::AcosOp>([](auto) { return FU::Acos; })
      .Case<math::AtanOp>([](auto) { return FU::Atan; })
      .Case<math::ErfOp>([](auto) { return FU::Erf; })
      .Case<math::FloorOp>([](auto) { return FU::Floor; })
      .Case<math::CeilOp>([](auto) { return FU::Ceil; })
      .Case<math::RoundOp>([](auto) { return FU::Round; })
      .Case<math::RoundEvenOp>([](auto) { return FU::RoundEven; })
      .Case<math::TruncOp>([](auto) { return FU::Trunc; })
      .Default([](Operation *) { return FU::None; });
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

/// The C library's version of libdevice function `name` on T (float or double), as a
/// function of up to three operands; null if the table lacks it.
template <typename T> using Extern3 = T (*)(T, T, T);
template <typename T> Extern3<T> externFunction(llvm::StringRef name) {
#define TCC_UNARY(N, E)                                                                       \
  if (name == N)                                                                               \
    return [](T x, T, T) -> T { return E; };
#define TCC_BINARY(N, E)                                                                      \
  if (name == N)                                                                               \
    return [](T x, T y, T) -> T { return E; };
  TCC_UNARY("acos", std::acos(x)) TCC_UNARY("acosh", std::acosh(x)) TCC_UNARY("asin", std::asin(x))
  TCC_UNARY("asinh", std::asinh(x)) TCC_UNARY("atan", std::atan(x)) TCC_UNARY("atanh", std::atanh(x))
  TCC_UNARY("cbrt", std::cbrt(x)) TCC_UNARY("ceil", std::ceil(x)) TCC_UNARY("cos", std::cos(x))
  TCC_UNARY("cosh", std::cosh(x)) TCC_UNARY("erf", std::erf(x)) TCC_UNARY("erfc", std::erfc(x))
  TCC_UNARY("exp", std::exp(x)) TCC_UNARY("exp10", std::pow(T(10), x))
  TCC_UNARY("exp2", std::exp2(x)) TCC_UNARY("expm1", std::expm1(x)) TCC_UNARY("fabs", std::fabs(x))
  TCC_UNARY("floor", std::floor(x)) TCC_UNARY("lgamma", std::lgamma(x)) TCC_UNARY("log", std::log(x))
  TCC_UNARY("log10", std::log10(x)) TCC_UNARY("log1p", std::log1p(x)) TCC_UNARY("log2", std::log2(x))
  TCC_UNARY("logb", std::logb(x)) TCC_UNARY("nearbyint", std::nearbyint(x))
  TCC_UNARY("rint", std::rint(x)) TCC_UNARY("round", std::round(x))
  TCC_UNARY("rsqrt", T(1) / std::sqrt(x)) TCC_UNARY("sin", std::sin(x)) TCC_UNARY("sinh", std::sinh(x))
  TCC_UNARY("sqrt", std::sqrt(x)) TCC_UNARY("tan", std::tan(x)) TCC_UNARY("tanh", std::tanh(x))
  TCC_UNARY("tgamma", std::tgamma(x)) TCC_UNARY("trunc", std::trunc(x))
  TCC_BINARY("atan2", std::atan2(x, y)) TCC_BINARY("copysign", std::copysign(x, y))
  TCC_BINARY("fdim", std::fdim(x, y)) TCC_BINARY("fmax", std::fmax(x, y))
  TCC_BINARY("fmin", std::fmin(x, y)) TCC_BINARY("fmod", std::fmod(x, y))
  TCC_BINARY("hypot", std::hypot(x, y)) TCC_BINARY("nextafter", std::nextafter(x, y))
  TCC_BINARY("pow", std::pow(x, y)) TCC_BINARY("remainder", std::remainder(x, y))
#undef TCC_UNARY
#undef TCC_BINARY
  if (name == "fma")
    return [](T x, T y, T z) -> T { return std::fma(x, y, z); };
  return nullptr;
}

/// tile.extern_elementwise: libdevice's function computed with the C library in the
/// operands' precision (f32 or f64), element by element.
Emitted emitExtern(Compiler &c, tile::ExternElementwiseOp op, InstList &out) {
  Slot &d = c.slot(op.getResult());
  bool single = d.dtype == DType::F32;
  if (!single && d.dtype != DType::F64)
    return c.fail(op, "expects f32 or f64");
  std::string name = libdevice::nameOf(op.getSymbol().str(), single);
  std::vector<const Slot *> args;
  for (Value a : op.getArgs())
    args.push_back(&c.slot(a));
  while (args.size() < 3)
    args.push_back(args.front()); // unused operands of the 3-operand form
  auto emit = [&](auto tag) -> Inst {
    using T = decltype(tag);
    Extern3<T> fn = externFunction<T>(name);
    return zip3Inst<T>(d, *args[0], *args[1], *args[2], [fn](T x, T y, T z) { return fn(x, y, z); });
  };
  if (name.empty() || !externFunction<float>(name))
    return c.fail(op, "the interpreter has no version of '" + op.getSymbol().str() + "'");
  out.push_back(single ? emit(float{}) : emit(double{}));
  return Emitted::Done;
}

Emitted emitMath(Compiler &c, Operation *op, InstList &out) {
  if (auto ext = dyn_cast<tile::ExternElementwiseOp>(op))
    return emitExtern(c, ext, out);
  if (!isa_and_nonnull<math::MathDialect>(op->getDialect()))
    return Emitted::NotMine;
  if (op->getNumResults() != 1)
    return Emitted::NotMine;
  Slot &d = c.slot(op->getResult(0));
  if (FU k = unaryKind(op); k != FU::None) {
    if (!isFloat(d.dtype))
      return c.fail(op, "expects floats");
    out.push_back(unaryInst(k, d, c.slot(op->getOperand(0))));
    return Emitted::Done;
  }
  FB2 k2 = llvm::TypeSwitch<Operation *, FB2>(op)
               .Case<math::PowFOp>([](auto) { return FB2::Pow; })
               .Case<math::Atan2Op>([](auto) { return FB2::Atan2; })
               .Case<math::CopySignOp>([](auto) { return FB2::CopySign; })
               .Default([](Operation *) { return FB2::None; });
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
