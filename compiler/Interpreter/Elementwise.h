//===- Elementwise.h - loops that build element-wise instructions -*- C++ -*-===//
//
// Element-wise ops become one tight loop over the operands' contiguous storage, typed at
// compile time; scalars are one-element tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_ELEMENTWISE_H
#define TCC_INTERPRETER_ELEMENTWISE_H

#include "compiler/Interpreter/Compiler.h"

#include <type_traits>

namespace tcc::interp {

template <typename T>
inline constexpr bool isFloatStorage = isFloatStorageType<T>;

template <typename TD, typename TA, typename Fn>
Inst mapInst(const Slot &d, const Slot &a, Fn fn) {
  TD *pd = d.as<TD>();
  const TA *pa = a.as<TA>();
  int64_t n = d.numel;
  return [=](ExecState &) {
    for (int64_t i = 0; i < n; ++i)
      pd[i] = fn(pa[i]);
  };
}

template <typename TD, typename TA, typename TB, typename Fn>
Inst zipInst(const Slot &d, const Slot &a, const Slot &b, Fn fn) {
  TD *pd = d.as<TD>();
  const TA *pa = a.as<TA>();
  const TB *pb = b.as<TB>();
  int64_t n = d.numel;
  return [=](ExecState &) {
    for (int64_t i = 0; i < n; ++i)
      pd[i] = fn(pa[i], pb[i]);
  };
}

template <typename T, typename Fn>
Inst zip3Inst(const Slot &d, const Slot &a, const Slot &b, const Slot &c, Fn fn) {
  T *pd = d.as<T>();
  const T *pa = a.as<T>(), *pb = b.as<T>(), *pc = c.as<T>();
  int64_t n = d.numel;
  return [=](ExecState &) {
    for (int64_t i = 0; i < n; ++i)
      pd[i] = fn(pa[i], pb[i], pc[i]);
  };
}

/// An element of `bytes` bytes, for ops that only move elements around.
template <size_t N> struct Bytes {
  unsigned char b[N];
};

/// Calls `fn(Bytes<N>{})` for the element size of `dtype`.
template <typename Fn> auto visitBytes(DType dtype, Fn &&fn) {
  switch (dtypeSize(dtype)) {
  case 1:
    return fn(Bytes<1>{});
  case 2:
    return fn(Bytes<2>{});
  case 4:
    return fn(Bytes<4>{});
  case 8:
    return fn(Bytes<8>{});
  default:
    return fn(Bytes<16>{});
  }
}

} // namespace tcc::interp

#endif // TCC_INTERPRETER_ELEMENTWISE_H
