//===- SemaConstFold.cpp - Compile-time arithmetic ----------------------===//
//
// Binary operators on compile-time numbers and booleans (constexprs, literals, and what
// they fold to): integers with C's truncating `//` and `%`, overflow and division by
// zero located errors; comparisons and logic give booleans.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <limits>

using namespace tcc;
using namespace tcc::sema;

//===----------------------------------------------------------------------===//
// Compile-time arithmetic
//===----------------------------------------------------------------------===//

/// `a op b` for a comparison operator (ast::isComparison), in T's arithmetic.
template <typename T> static bool compareConstants(ast::BinaryOp op, T a, T b) {
  switch (op) {
  case ast::BinaryOp::Lt: return a < b;
  case ast::BinaryOp::Le: return a <= b;
  case ast::BinaryOp::Gt: return a > b;
  case ast::BinaryOp::Ge: return a >= b;
  case ast::BinaryOp::Eq: return a == b;
  case ast::BinaryOp::Ne: return a != b;
  default: llvm_unreachable("not a comparison");
  }
}

Value Sema::foldBinary(ast::BinaryOp op, const Value &l, const Value &r, SMRange opRange) {
  auto overflow = [&]() {
    diags.error(opRange, "integer overflow in a constant expression");
    return Value::error();
  };
  auto divByZero = [&]() {
    diags.error(opRange, "division by zero in a constant expression");
    return Value::error();
  };
  bool anyFloat = l.kind == Value::Kind::Float || r.kind == Value::Kind::Float;
  if (anyFloat) {
    double a = l.kind == Value::Kind::Float ? l.floatValue : double(l.intValue);
    double b = r.kind == Value::Kind::Float ? r.floatValue : double(r.intValue);
    if (ast::isComparison(op))
      return Value::boolean(compareConstants(op, a, b));
    switch (op) {
    case ast::BinaryOp::Add: return Value::floating(a + b);
    case ast::BinaryOp::Sub: return Value::floating(a - b);
    case ast::BinaryOp::Mul: return Value::floating(a * b);
    case ast::BinaryOp::Div:
      if (b == 0.0)
        return divByZero();
      return Value::floating(a / b);
    case ast::BinaryOp::Mod:
      if (b == 0.0)
        return divByZero();
      return Value::floating(std::fmod(a, b));
    case ast::BinaryOp::Pow: return Value::floating(std::pow(a, b));
    case ast::BinaryOp::FloorDiv:
      diags.error(opRange, "'//' needs integer operands; use '/' for floating-point division");
      return Value::error();
    default:
      diags.error(opRange, "operator '" + ast::spelling(op) +
                               "' needs integer operands, not floating-point constants");
      return Value::error();
    }
  }
  int64_t a = l.intValue, b = r.intValue, res = 0;
  if (ast::isComparison(op))
    return Value::boolean(compareConstants(op, a, b));
  bool bothBool = l.kind == Value::Kind::Bool && r.kind == Value::Kind::Bool;
  switch (op) {
  case ast::BinaryOp::Add:
    if (__builtin_add_overflow(a, b, &res))
      return overflow();
    return Value::integer(res);
  case ast::BinaryOp::Sub:
    if (__builtin_sub_overflow(a, b, &res))
      return overflow();
    return Value::integer(res);
  case ast::BinaryOp::Mul:
    if (__builtin_mul_overflow(a, b, &res))
      return overflow();
    return Value::integer(res);
  case ast::BinaryOp::Div:
    if (b == 0)
      return divByZero();
    return Value::floating(double(a) / double(b));
  case ast::BinaryOp::FloorDiv:
    if (b == 0)
      return divByZero();
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return overflow();
    return Value::integer(a / b);
  case ast::BinaryOp::Mod:
    if (b == 0)
      return divByZero();
    if (b == -1)
      return Value::integer(0);
    return Value::integer(a % b);
  case ast::BinaryOp::Pow: {
    if (b < 0)
      return Value::floating(std::pow(double(a), double(b)));
    int64_t acc = 1;
    for (int64_t i = 0; i < b; ++i) {
      if (__builtin_mul_overflow(acc, a, &acc))
        return overflow();
      if (acc == 0 || acc == 1)
        break;
    }
    return Value::integer(acc);
  }
  case ast::BinaryOp::Shl:
    if (b < 0 || b > 63) {
      diags.error(opRange, "shift amount " + llvm::Twine(b) + " is out of range (0 to 63)");
      return Value::error();
    }
    res = int64_t(uint64_t(a) << b);
    if ((res >> b) != a)
      return overflow();
    return Value::integer(res);
  case ast::BinaryOp::Shr:
    if (b < 0 || b > 63) {
      diags.error(opRange, "shift amount " + llvm::Twine(b) + " is out of range (0 to 63)");
      return Value::error();
    }
    return Value::integer(a >> b);
  case ast::BinaryOp::BitAnd:
    return bothBool ? Value::boolean(a & b) : Value::integer(a & b);
  case ast::BinaryOp::BitOr:
    return bothBool ? Value::boolean(a | b) : Value::integer(a | b);
  case ast::BinaryOp::BitXor:
    return bothBool ? Value::boolean(a ^ b) : Value::integer(a ^ b);
  case ast::BinaryOp::MatMul:
    diags.error(opRange, "'@' is not supported; use dot(a, b)");
    return Value::error();
  case ast::BinaryOp::Lt: // compared above
  case ast::BinaryOp::Le:
  case ast::BinaryOp::Gt:
  case ast::BinaryOp::Ge:
  case ast::BinaryOp::Eq:
  case ast::BinaryOp::Ne:
  case ast::BinaryOp::And:
  case ast::BinaryOp::Or:
    break;
  }
  return Value::error();
}
