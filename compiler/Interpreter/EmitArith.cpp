//===- EmitArith.cpp - arith ops on scalars and tiles ---------------------===//
//
// Integers wrap around (two's complement) and divide truncating toward zero, as
// docs/language.md specifies. Where LLVM leaves a result undefined, the interpreter gives
// what the NVPTX instructions give (docs/interpreter.md): division by zero yields all ones
// (the remainder the dividend), shift amounts at or beyond the width clamp to the width,
// float-to-integer conversions truncate and saturate with NaN becoming 0.
//
//===----------------------------------------------------------------------===//

#include "compiler/Interpreter/Elementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tcc::interp {
namespace {

//===----------------------------------------------------------------------===//
// Integer binary ops
//===----------------------------------------------------------------------===//

enum class IB {
  Add, Sub, Mul, DivS, DivU, RemS, RemU, CeilDivS, CeilDivU, FloorDivS,
  And, Or, Xor, Shl, ShrS, ShrU, MaxS, MinS, MaxU, MinU, None
};

template <IB K, typename T> inline T intBinary(T a, T b) {
  using I = IntOps<T>;
  constexpr unsigned W = I::bits;
  uint64_t ua = I::u(a), ub = I::u(b);
  int64_t sa = I::s(a), sb = I::s(b);
  if constexpr (K == IB::Add)
    return I::wrap(ua + ub);
  else if constexpr (K == IB::Sub)
    return I::wrap(ua - ub);
  else if constexpr (K == IB::Mul)
    return I::wrap(ua * ub);
  else if constexpr (K == IB::DivS) {
    if (sb == 0)
      return I::wrap(~uint64_t(0));
    if (sb == -1) // INT_MIN / -1 wraps to INT_MIN
      return I::wrap(uint64_t(0) - ua);
    return I::wrap(uint64_t(sa / sb));
  } else if constexpr (K == IB::DivU) {
    return ub == 0 ? I::wrap(~uint64_t(0)) : I::wrap(ua / ub);
  } else if constexpr (K == IB::RemS) {
    if (sb == 0)
      return a;
    if (sb == -1)
      return I::wrap(0);
    return I::wrap(uint64_t(sa % sb));
  } else if constexpr (K == IB::RemU) {
    return ub == 0 ? a : I::wrap(ua % ub);
  } else if constexpr (K == IB::CeilDivS || K == IB::FloorDivS) {
    if (sb == 0)
      return I::wrap(~uint64_t(0));
    if (sb == -1)
      return I::wrap(uint64_t(0) - ua);
    int64_t q = sa / sb, r = sa % sb;
    if (r != 0) {
      bool sameSign = (r < 0) == (sb < 0);
      if (K == IB::CeilDivS && sameSign)
        ++q;
      if (K == IB::FloorDivS && !sameSign)
        --q;
    }
    return I::wrap(uint64_t(q));
  } else if constexpr (K == IB::CeilDivU) {
    if (ub == 0)
      return I::wrap(~uint64_t(0));
    return I::wrap(ua / ub + (ua % ub != 0));
  } else if constexpr (K == IB::And)
    return I::wrap(ua & ub);
  else if constexpr (K == IB::Or)
    return I::wrap(ua | ub);
  else if constexpr (K == IB::Xor)
    return I::wrap(ua ^ ub);
  else if constexpr (K == IB::Shl)
    return ub >= W ? I::wrap(0) : I::wrap(ua << ub);
  else if constexpr (K == IB::ShrS)
    return ub >= W ? I::wrap(sa < 0 ? ~uint64_t(0) : 0) : I::wrap(uint64_t(sa >> ub));
  else if constexpr (K == IB::ShrU)
    return ub >= W ? I::wrap(0) : I::wrap(ua >> ub);
  else if constexpr (K == IB::MaxS)
    return sa < sb ? b : a;
  else if constexpr (K == IB::MinS)
    return sb < sa ? b : a;
  else if constexpr (K == IB::MaxU)
    return ua < ub ? b : a;
  else
    return ub < ua ? b : a;
}

template <IB K> Inst intBinaryInst(const Slot &d, const Slot &a, const Slot &b) {
  return visitInt(d.dtype, [&](auto tag) -> Inst {
    using T = decltype(tag);
    return zipInst<T, T, T>(d, a, b, [](T x, T y) { return intBinary<K, T>(x, y); });
  });
}

IB intBinaryKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, IB>(op)
      .Case<arith::AddIOp>([](auto) { return IB::Add; })
      .Case<arith::SubIOp>([](auto) { return IB::Sub; })
      .Case<arith::MulIOp>([](auto) { return IB::Mul; })
      .Case<arith::DivSIOp>([](auto) { return IB::DivS; })
      .Case<arith::DivUIOp>([](auto) { return IB::DivU; })
      .Case<arith::RemSIOp>([](auto) { return IB::RemS; })
      .Case<arith::RemUIOp>([](auto) { return IB::RemU; })
      .Case<arith::CeilDivSIOp>([](auto) { return IB::CeilDivS; })
      .Case<arith::CeilDivUIOp>([](auto) { return IB::CeilDivU; })
      .Case<arith::FloorDivSIOp>([](auto) { return IB::FloorDivS; })
      .Case<arith::AndIOp>([](auto) { return IB::And; })
      .Case<arith::OrIOp>([](auto) { return IB::Or; })
      .Case<arith::XOrIOp>([](auto) { return IB::Xor; })
      .Case<arith::ShLIOp>([](auto) { return IB::Shl; })
      .Case<arith::ShRSIOp>([](auto) { return IB::ShrS; })
      .Case<arith::ShRUIOp>([](auto) { return IB::ShrU; })
      .Case<arith::MaxSIOp>([](auto) { return IB::MaxS; })
      .Case<arith::MinSIOp>([](auto) { return IB::MinS; })
      .Case<arith::MaxUIOp>([](auto) { return IB::MaxU; })
      .Case<arith::MinUIOp>([](auto) { return IB::MinU; })
      .Default([](Operation *) { return IB::None; });
}

Inst intBinaryInst(IB k, const Slot &d, const Slot &a, const Slot &b) {
  switch (k) {
#define TCC_CASE(K)                                                                          \
  case IB::K:                                                                                \
    return intBinaryInst<IB::K>(d, a, b);
    TCC_CASE(Add)
    TCC_CASE(Sub)
    TCC_CASE(Mul)
    TCC_CASE(DivS)
    TCC_CASE(DivU)
    TCC_CASE(RemS)
    TCC_CASE(RemU)
    TCC_CASE(CeilDivS)
    TCC_CASE(CeilDivU)
    TCC_CASE(FloorDivS)
    TCC_CASE(And)
    TCC_CASE(Or)
    TCC_CASE(Xor)
    TCC_CASE(Shl)
    TCC_CASE(ShrS)
    TCC_CASE(ShrU)
    TCC_CASE(MaxS)
    TCC_CASE(MinS)
    TCC_CASE(MaxU)
    TCC_CASE(MinU)
#undef TCC_CASE
  case IB::None:
    break;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Float binary ops (computed in float for f16/bf16/f32, double for f64; rounded once)
//===----------------------------------------------------------------------===//

enum class FB { Add, Sub, Mul, Div, Rem, Maximum, Minimum, MaxNum, MinNum, None };

template <FB K, typename C> inline C floatBinary(C a, C b) {
  if constexpr (K == FB::Add)
    return a + b;
  else if constexpr (K == FB::Sub)
    return a - b;
  else if constexpr (K == FB::Mul)
    return a * b;
  else if constexpr (K == FB::Div)
    return a / b;
  else if constexpr (K == FB::Rem)
    return std::fmod(a, b);
  else if constexpr (K == FB::Maximum || K == FB::Minimum) {
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<C>::quiet_NaN();
    if (a == b) // +0 and -0: maximum is +0, minimum -0
      return (std::signbit(a) == (K == FB::Maximum)) ? b : a;
    return (a < b) == (K == FB::Maximum) ? b : a;
  } else {
    if (std::isnan(a))
      return b;
    if (std::isnan(b))
      return a;
    if (a == b)
      return (std::signbit(a) == (K == FB::MaxNum)) ? b : a;
    return (a < b) == (K == FB::MaxNum) ? b : a;
  }
}

template <FB K> Inst floatBinaryInst(const Slot &d, const Slot &a, const Slot &b) {
  return visitFloat(d.dtype, [&](auto tag) -> Inst {
    using T = decltype(tag);
    using F = FloatOps<T>;
    return zipInst<T, T, T>(d, a, b, [](T x, T y) {
      return F::put(floatBinary<K, typename F::C>(F::get(x), F::get(y)));
    });
  });
}

FB floatBinaryKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, FB>(op)
      .Case<arith::AddFOp>([](auto) { return FB::Add; })
      .Case<arith::SubFOp>([](auto) { return FB::Sub; })
      .Case<arith::MulFOp>([](auto) { return FB::Mul; })
      .Case<arith::DivFOp>([](auto) { return FB::Div; })
      .Case<arith::RemFOp>([](auto) { return FB::Rem; })
      .Case<arith::MaximumFOp>([](auto) { return FB::Maximum; })
      .Case<arith::MinimumFOp>([](auto) { return FB::Minimum; })
      .Case<arith::MaxNumFOp>([](auto) { return FB::MaxNum; })
      .Case<arith::MinNumFOp>([](auto) { return FB::MinNum; })
      .Default([](Operation *) { return FB::None; });
}

Inst floatBinaryInst(FB k, const Slot &d, const Slot &a, const Slot &b) {
  switch (k) {
  case FB::Add:
    return floatBinaryInst<FB::Add>(d, a, b);
  case FB::Sub:
    return floatBinaryInst<FB::Sub>(d, a, b);
  case FB::Mul:
    return floatBinaryInst<FB::Mul>(d, a, b);
  case FB::Div:
    return floatBinaryInst<FB::Div>(d, a, b);
  case FB::Rem:
    return floatBinaryInst<FB::Rem>(d, a, b);
  case FB::Maximum:
    return floatBinaryInst<FB::Maximum>(d, a, b);
  case FB::Minimum:
    return floatBinaryInst<FB::Minimum>(d, a, b);
  case FB::MaxNum:
    return floatBinaryInst<FB::MaxNum>(d, a, b);
  case FB::MinNum:
    return floatBinaryInst<FB::MinNum>(d, a, b);
  case FB::None:
    break;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Comparisons and select
//===----------------------------------------------------------------------===//

template <arith::CmpIPredicate P, typename T> inline uint8_t cmpInt(T a, T b) {
  using I = IntOps<T>;
  using Pr = arith::CmpIPredicate;
  if constexpr (P == Pr::eq)
    return I::u(a) == I::u(b);
  else if constexpr (P == Pr::ne)
    return I::u(a) != I::u(b);
  else if constexpr (P == Pr::slt)
    return I::s(a) < I::s(b);
  else if constexpr (P == Pr::sle)
    return I::s(a) <= I::s(b);
  else if constexpr (P == Pr::sgt)
    return I::s(a) > I::s(b);
  else if constexpr (P == Pr::sge)
    return I::s(a) >= I::s(b);
  else if constexpr (P == Pr::ult)
    return I::u(a) < I::u(b);
  else if constexpr (P == Pr::ule)
    return I::u(a) <= I::u(b);
  else if constexpr (P == Pr::ugt)
    return I::u(a) > I::u(b);
  else
    return I::u(a) >= I::u(b);
}

template <arith::CmpIPredicate P> Inst cmpIntInst(const Slot &d, const Slot &a, const Slot &b) {
  return visitInt(a.dtype, [&](auto tag) -> Inst {
    using T = decltype(tag);
    return zipInst<uint8_t, T, T>(d, a, b, [](T x, T y) { return cmpInt<P, T>(x, y); });
  });
}

Inst cmpIntInst(arith::CmpIPredicate p, const Slot &d, const Slot &a, const Slot &b) {
  using Pr = arith::CmpIPredicate;
  switch (p) {
#define TCC_CASE(P)                                                                          \
  case Pr::P:                                                                                \
    return cmpIntInst<Pr::P>(d, a, b);
    TCC_CASE(eq)
    TCC_CASE(ne)
    TCC_CASE(slt)
    TCC_CASE(sle)
    TCC_CASE(sgt)
    TCC_CASE(sge)
    TCC_CASE(ult)
    TCC_CASE(ule)
    TCC_CASE(ugt)
    TCC_CASE(uge)
#undef TCC_CASE
  }
  return nullptr;
}

template <arith::CmpFPredicate P, typename C> inline uint8_t cmpFloat(C a, C b) {
  using Pr = arith::CmpFPredicate;
  bool unordered = std::isnan(a) || std::isnan(b);
  if constexpr (P == Pr::AlwaysFalse)
    return 0;
  else if constexpr (P == Pr::AlwaysTrue)
    return 1;
  else if constexpr (P == Pr::ORD)
    return !unordered;
  else if constexpr (P == Pr::UNO)
    return unordered;
  else if constexpr (P == Pr::OEQ)
    return !unordered && a == b;
  else if constexpr (P == Pr::OGT)
    return !unordered && a > b;
  else if constexpr (P == Pr::OGE)
    return !unordered && a >= b;
  else if constexpr (P == Pr::OLT)
    return !unordered && a < b;
  else if constexpr (P == Pr::OLE)
    return !unordered && a <= b;
  else if constexpr (P == Pr::ONE)
    return !unordered && a != b;
  else if constexpr (P == Pr::UEQ)
    return unordered || a == b;
  else if constexpr (P == Pr::UGT)
    return unordered || a > b;
  else if constexpr (P == Pr::UGE)
    return unordered || a >= b;
  else if constexpr (P == Pr::ULT)
    return unordered || a < b;
  else if constexpr (P == Pr::ULE)
    return unordered || a <= b;
  else
    return unordered || a != b;
}

template <arith::CmpFPredicate P> Inst cmpFloatInst(const Slot &d, const Slot &a, const Slot &b) {
  return visitFloat(a.dtype, [&](auto tag) -> Inst {
    using T = decltype(tag);
    using F = FloatOps<T>;
    return zipInst<uint8_t, T, T>(d, a, b, [](T x, T y) {
      return cmpFloat<P, typename F::C>(F::get(x), F::get(y));
    });
  });
}

Inst cmpFloatInst(arith::CmpFPredicate p, const Slot &d, const Slot &a, const Slot &b) {
  using Pr = arith::CmpFPredicate;
  switch (p) {
#define TCC_CASE(P)                                                                          \
  case Pr::P:                                                                                \
    return cmpFloatInst<Pr::P>(d, a, b);
    TCC_CASE(AlwaysFalse)
    TCC_CASE(OEQ)
    TCC_CASE(OGT)
    TCC_CASE(OGE)
    TCC_CASE(OLT)
    TCC_CASE(OLE)
    TCC_CASE(ONE)
    TCC_CASE(ORD)
    TCC_CASE(UEQ)
    TCC_CASE(UGT)
    TCC_CASE(UGE)
    TCC_CASE(ULT)
    TCC_CASE(ULE)
    TCC_CASE(UNE)
    TCC_CASE(UNO)
    TCC_CASE(AlwaysTrue)
#undef TCC_CASE
  }
  return nullptr;
}

Inst selectInst(const Slot &d, const Slot &cond, const Slot &a, const Slot &b) {
  return visitBytes(d.dtype, [&](auto tag) -> Inst {
    using E = decltype(tag);
    E *pd = d.as<E>();
    const E *pa = a.as<E>(), *pb = b.as<E>();
    const uint8_t *pc = cond.as<uint8_t>();
    int64_t n = d.numel;
    if (cond.numel == 1 && n != 1)
      return [=](ExecState &) {
        const E *src = *pc ? pa : pb;
        for (int64_t i = 0; i < n; ++i)
          pd[i] = src[i];
      };
    return [=](ExecState &) {
      for (int64_t i = 0; i < n; ++i)
        pd[i] = pc[i] ? pa[i] : pb[i];
    };
  });
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

/// Float (as double) to an integer of width W: truncated toward zero, saturated, NaN → 0
/// (PTX cvt.rzi.sN/uN.fM).
inline uint64_t floatToIntBits(double x, unsigned W, bool isSigned) {
  if (std::isnan(x))
    return 0;
  double t = std::trunc(x);
  if (isSigned) {
    double lim = std::ldexp(1.0, int(W) - 1);
    if (t >= lim)
      return (uint64_t(1) << (W - 1)) - 1;
    if (t <= -lim)
      return uint64_t(0) - (uint64_t(1) << (W - 1));
    return uint64_t(int64_t(t));
  }
  if (t <= 0)
    return 0;
  double lim = std::ldexp(1.0, int(W));
  if (t >= lim)
    return W == 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1;
  return uint64_t(t);
}

template <typename TD> inline TD intToFloat(int64_t s, uint64_t u, bool isSigned) {
  if constexpr (std::is_same_v<TD, Half>)
    return Half{isSigned ? int64ToHalf(s) : uint64ToHalf(u)};
  else if constexpr (std::is_same_v<TD, BHalf>)
    return BHalf{isSigned ? int64ToBHalf(s) : uint64ToBHalf(u)};
  else if constexpr (std::is_same_v<TD, F8E4> || std::is_same_v<TD, F8E5>)
    return FloatOps<TD>::fromDouble(isSigned ? double(s) : double(u)); // Sema goes through f32

  else
    return isSigned ? TD(s) : TD(u);
}

enum class Cast { ExtS, ExtU, Trunc, ExtF, TruncF, SIToFP, UIToFP, FPToSI, FPToUI, None };

Inst castInst(Cast k, const Slot &d, const Slot &a) {
  if (k == Cast::ExtS || k == Cast::ExtU || k == Cast::Trunc) {
    bool isSigned = k == Cast::ExtS;
    return visitInt(d.dtype, [&](auto dtag) -> Inst {
      using TD = decltype(dtag);
      return visitInt(a.dtype, [&](auto atag) -> Inst {
        using TA = decltype(atag);
        if (isSigned)
          return mapInst<TD, TA>(d, a, [](TA x) { return IntOps<TD>::wrap(uint64_t(IntOps<TA>::s(x))); });
        return mapInst<TD, TA>(d, a, [](TA x) { return IntOps<TD>::wrap(IntOps<TA>::u(x)); });
      });
    });
  }
  if (k == Cast::ExtF || k == Cast::TruncF)
    return visitFloat(d.dtype, [&](auto dtag) -> Inst {
      using TD = decltype(dtag);
      return visitFloat(a.dtype, [&](auto atag) -> Inst {
        using TA = decltype(atag);
        if constexpr (std::is_same_v<TA, float> && std::is_same_v<TD, Half>)
          return mapInst<TD, TA>(d, a, [](float x) { return Half{floatToHalf(x)}; });
        else if constexpr (std::is_same_v<TA, float> && std::is_same_v<TD, BHalf>)
          return mapInst<TD, TA>(d, a, [](float x) { return BHalf{floatToBHalf(x)}; });
        else
          return mapInst<TD, TA>(d, a, [](TA x) {
            return FloatOps<TD>::fromDouble(double(FloatOps<TA>::get(x)));
          });
      });
    });
  if (k == Cast::SIToFP || k == Cast::UIToFP) {
    bool isSigned = k == Cast::SIToFP;
    return visitFloat(d.dtype, [&](auto dtag) -> Inst {
      using TD = decltype(dtag);
      return visitInt(a.dtype, [&](auto atag) -> Inst {
        using TA = decltype(atag);
        if (isSigned)
          return mapInst<TD, TA>(d, a, [](TA x) { return intToFloat<TD>(IntOps<TA>::s(x), 0, true); });
        return mapInst<TD, TA>(d, a, [](TA x) { return intToFloat<TD>(0, IntOps<TA>::u(x), false); });
      });
    });
  }
  bool isSigned = k == Cast::FPToSI;
  return visitInt(d.dtype, [&](auto dtag) -> Inst {
    using TD = decltype(dtag);
    return visitFloat(a.dtype, [&](auto atag) -> Inst {
      using TA = decltype(atag);
      constexpr unsigned W = IntOps<TD>::bits;
      if (isSigned)
        return mapInst<TD, TA>(d, a, [](TA x) {
          return IntOps<TD>::wrap(floatToIntBits(double(FloatOps<TA>::get(x)), W, true));
        });
      return mapInst<TD, TA>(d, a, [](TA x) {
        return IntOps<TD>::wrap(floatToIntBits(double(FloatOps<TA>::get(x)), W, false));
      });
    });
  });
}

Cast castKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, Cast>(op)
      .Case<arith::ExtSIOp>([](auto) { return Cast::ExtS; })
      .Case<arith::ExtUIOp>([](auto) { return Cast::ExtU; })
      .Case<arith::TruncIOp>([](auto) { return Cast::Trunc; })
      .Case<arith::IndexCastOp>([](auto) { return Cast::ExtS; })
      .Case<arith::IndexCastUIOp>([](auto) { return Cast::ExtU; })
      .Case<arith::ExtFOp>([](auto) { return Cast::ExtF; })
      .Case<arith::TruncFOp>([](auto) { return Cast::TruncF; })
      .Case<arith::SIToFPOp>([](auto) { return Cast::SIToFP; })
      .Case<arith::UIToFPOp>([](auto) { return Cast::UIToFP; })
      .Case<arith::FPToSIOp>([](auto) { return Cast::FPToSI; })
      .Case<arith::FPToUIOp>([](auto) { return Cast::FPToUI; })
      .Default([](Operation *) { return Cast::None; });
}

//===----------------------------------------------------------------------===//
// Constants: written into their slot once, when compiling
//===----------------------------------------------------------------------===//

/// The bits of one integer or float attribute value, little-endian, in `out`.
bool constantBits(Attribute attr, DType dtype, void *out) {
  APInt bits;
  if (auto i = dyn_cast<IntegerAttr>(attr))
    bits = i.getValue();
  else if (auto f = dyn_cast<FloatAttr>(attr))
    bits = f.getValue().bitcastToAPInt();
  else if (auto b = dyn_cast<BoolAttr>(attr))
    bits = APInt(1, b.getValue());
  else
    return false;
  uint64_t word = bits.zextOrTrunc(64).getZExtValue();
  std::memcpy(out, &word, dtypeSize(dtype));
  return true;
}

Emitted emitConstant(Compiler &c, arith::ConstantOp op) {
  Slot &d = c.slot(op.getResult());
  size_t size = dtypeSize(d.dtype);
  auto *bytes = d.as<unsigned char>();
  Attribute value = op.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat()) {
      if (!constantBits(dense.getSplatValue<Attribute>(), d.dtype, bytes))
        return c.fail(op, "unsupported constant");
      for (int64_t i = 1; i < d.numel; ++i)
        std::memcpy(bytes + size_t(i) * size, bytes, size);
      return Emitted::Done;
    }
    int64_t i = 0;
    for (Attribute element : dense.getValues<Attribute>())
      if (!constantBits(element, d.dtype, bytes + size_t(i++) * size))
        return c.fail(op, "unsupported constant");
    return Emitted::Done;
  }
  if (!constantBits(value, d.dtype, bytes))
    return c.fail(op, "unsupported constant");
  return Emitted::Done;
}

} // namespace

Emitted emitArith(Compiler &c, Operation *op, InstList &out) {
  if (!isa_and_nonnull<arith::ArithDialect>(op->getDialect()))
    return Emitted::NotMine;
  if (auto cst = dyn_cast<arith::ConstantOp>(op))
    return emitConstant(c, cst);
  for (Value v : op->getOperands()) {
    DType t;
    if (!c.dtypeOf(v.getType(), &t))
      return c.fail(op, "the interpreter does not support values of type " +
                            llvm::Twine(v.getType().getAbstractType().getName()));
  }
  if (op->getNumResults() != 1)
    return Emitted::NotMine;
  Slot &d = c.slot(op->getResult(0));

  if (IB k = intBinaryKind(op); k != IB::None) {
    out.push_back(intBinaryInst(k, d, c.slot(op->getOperand(0)), c.slot(op->getOperand(1))));
    return Emitted::Done;
  }
  if (FB k = floatBinaryKind(op); k != FB::None) {
    out.push_back(floatBinaryInst(k, d, c.slot(op->getOperand(0)), c.slot(op->getOperand(1))));
    return Emitted::Done;
  }
  if (isa<arith::NegFOp>(op)) {
    const Slot &a = c.slot(op->getOperand(0));
    out.push_back(visitFloat(d.dtype, [&](auto tag) -> Inst {
      using T = decltype(tag);
      using F = FloatOps<T>;
      return mapInst<T, T>(d, a, [](T x) { return F::put(-F::get(x)); });
    }));
    return Emitted::Done;
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    out.push_back(cmpIntInst(cmp.getPredicate(), d, c.slot(cmp.getLhs()), c.slot(cmp.getRhs())));
    return Emitted::Done;
  }
  if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
    out.push_back(
        cmpFloatInst(cmp.getPredicate(), d, c.slot(cmp.getLhs()), c.slot(cmp.getRhs())));
    return Emitted::Done;
  }
  if (auto sel = dyn_cast<arith::SelectOp>(op)) {
    out.push_back(selectInst(d, c.slot(sel.getCondition()), c.slot(sel.getTrueValue()),
                             c.slot(sel.getFalseValue())));
    return Emitted::Done;
  }
  if (Cast k = castKind(op); k != Cast::None) {
    out.push_back(castInst(k, d, c.slot(op->getOperand(0))));
    return Emitted::Done;
  }
  if (isa<arith::BitcastOp>(op)) {
    const Slot &a = c.slot(op->getOperand(0));
    if (a.bytes() != d.bytes())
      return c.fail(op, "bitcast between types of different sizes");
    out.push_back(copyInst(d.data, a.data, d.bytes()));
    return Emitted::Done;
  }
  return Emitted::NotMine;
}

} // namespace tcc::interp
