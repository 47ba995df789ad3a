//===- SemaMath.cpp - Elementwise math builtins ---------------------------===//
//
// exp, log, sqrt and the other math functions; minimum, maximum and clamp; fma, cdiv and
// where.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include <cmath>
#include <limits>

using namespace tcc;
using namespace tcc::sema;

Value Sema::mathFn(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"x"}, 1, a, r))
    return Value::error();
  typed::MathFn fn;
  switch (b) {
  case Builtin::Exp: fn = typed::MathFn::Exp; break;
  case Builtin::Exp2: fn = typed::MathFn::Exp2; break;
  case Builtin::Log: fn = typed::MathFn::Log; break;
  case Builtin::Log2: fn = typed::MathFn::Log2; break;
  case Builtin::Sqrt: fn = typed::MathFn::Sqrt; break;
  case Builtin::Rsqrt: fn = typed::MathFn::Rsqrt; break;
  case Builtin::Abs: fn = typed::MathFn::Abs; break;
  case Builtin::Sin: fn = typed::MathFn::Sin; break;
  case Builtin::Cos: fn = typed::MathFn::Cos; break;
  case Builtin::Tanh: fn = typed::MathFn::Tanh; break;
  case Builtin::Erf: fn = typed::MathFn::Erf; break;
  case Builtin::Floor: fn = typed::MathFn::Floor; break;
  case Builtin::Ceil: fn = typed::MathFn::Ceil; break;
  default: fn = typed::MathFn::Sigmoid; break;
  }
  Value x = a[0];
  if (x.isNumber()) {
    if (fn == typed::MathFn::Abs) {
      if (x.kind == Value::Kind::Float)
        return Value::floating(std::fabs(x.floatValue));
      if (x.intValue == std::numeric_limits<int64_t>::min()) {
        diags.error(call->range, "integer overflow in a constant expression");
        return Value::error();
      }
      return Value::integer(x.intValue < 0 ? -x.intValue : x.intValue);
    }
    x = Value::runtime(constant(x, Type::scalar(ScalarKind::F32), r[0]));
  }
  if (!x.isRuntime() || x.type().element().isPointer) {
    diags.error(r[0], name + "() needs a number or a tile of numbers, not " + x.describe());
    noteDefinition(x);
    return Value::error();
  }
  if (!x.type().element().isFloat() && fn != typed::MathFn::Abs) {
    diags.error(r[0], name + "() needs a floating-point operand, not " + x.type().str() +
                          "; convert it first, e.g. x.to(f32)");
    noteDefinition(x);
    return Value::error();
  }
  if (rejectFp8(x.type().element(), (name + "()").str(), r[0]))
    return Value::error();
  return Value::runtime(make<typed::MathExpr>(x.type(), call->range, fn, x.expr));
}

std::optional<bool> Sema::propagateNanArgument(const Value &v, SMRange range,
                                               llvm::StringRef name) {
  if (v.kind == Value::Kind::None)
    return false;
  if (v.kind == Value::Kind::Bool)
    return v.intValue != 0;
  if (v.kind == Value::Kind::Int && (v.intValue == 0 || v.intValue == 0xFFFF))
    return v.intValue != 0;
  if (!v.isError())
    diags.error(range, name + "() propagate_nan must be PropagateNan.NONE or PropagateNan.ALL "
                              "(or False / True), not " + v.describe());
  return std::nullopt;
}

Value Sema::minMax(bool isMax, bool propagateNan, const Value &x, const Value &y, SMRange rx,
                   SMRange ry, llvm::StringRef name, SMRange whole) {
  if (x.isNumber() && y.isNumber()) {
    auto isNan = [](const Value &v) {
      return v.kind == Value::Kind::Float && std::isnan(v.floatValue);
    };
    if (isNan(x) || isNan(y))
      return propagateNan ? Value::floating(std::numeric_limits<double>::quiet_NaN())
                          : (isNan(x) ? y : x);
    Value lt = foldBinary(ast::BinaryOp::Lt, x, y, whole);
    if (lt.isError())
      return lt;
    return isMax == (lt.intValue != 0) ? y : x;
  }
  const Value *operands[2] = {&x, &y};
  SMRange ranges[2] = {rx, ry};
  for (int i = 0; i < 2; ++i)
    if (!operands[i]->isNumber() &&
        !(operands[i]->isRuntime() && !operands[i]->type().element().isPointer)) {
      diags.error(ranges[i], name + "() compares numbers, not " + operands[i]->describe());
      noteDefinition(*operands[i]);
      return Value::error();
    }
  ElementType common = commonElement(x, y);
  if (rejectFp8(common, (name + "()").str(), whole))
    return Value::error();
  typed::Expr *xe = nullptr, *ye = nullptr;
  llvm::SmallVector<int64_t, 4> shape;
  if (!numericOperands(x, y, name, whole, rx, ry, common, xe, ye, shape))
    return Value::error();
  typed::BinaryOp op = isMax ? (propagateNan ? typed::BinaryOp::MaxNaN : typed::BinaryOp::Max)
                             : (propagateNan ? typed::BinaryOp::MinNaN : typed::BinaryOp::Min);
  return Value::runtime(make<typed::BinaryExpr>(Type(common, shape), whole, op, xe, ye));
}

// fma(x, y, z): x * y + z rounded once, on floats of one promoted type and shape.
Value Sema::fmaCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"x", "y", "z"}, 3, a, r))
    return Value::error();
  for (int i = 0; i < 3; ++i)
    if (!a[i].isNumber() && !(a[i].isRuntime() && !a[i].type().element().isPointer)) {
      diags.error(r[i], name + "() needs numbers, not " + a[i].describe());
      noteDefinition(a[i]);
      return Value::error();
    }
  // One element type for the three, by the promotion rules: runtime operands promote
  // together, constants adopt their type (section 8 of docs/language.md).
  std::optional<ElementType> joined;
  for (const Value &v : a)
    if (v.isRuntime())
      joined = joined ? promote(*joined, v.type().element()) : v.type().element();
  if (!joined) {
    joined = promote(promote(literalElement(a[0]), literalElement(a[1])), literalElement(a[2]));
  } else {
    for (const Value &v : a)
      if (!v.isRuntime())
        if (std::optional<ElementType> lit = operandElement(v, *joined))
          joined = promote(*lit, *joined);
  }
  ElementType common = *joined;
  if (rejectFp8(common, (name + "()").str(), call->range))
    return Value::error();
  if (!common.isFloat()) {
    diags.error(call->range, name + "() needs floating-point operands, not " + common.str() +
                                 "; convert them first, e.g. x.to(f32)");
    return Value::error();
  }
  // Shapes: the three broadcast together.
  llvm::SmallVector<int64_t, 4> shape;
  for (int i = 0; i < 3; ++i) {
    if (!a[i].isRuntime())
      continue;
    llvm::SmallVector<int64_t, 4> next;
    if (!broadcastShapes(shape, a[i].type().shape(), next)) {
      diags.error(r[i], name + "(): the shape " + shapeStr(a[i].type().shape()) +
                            " does not broadcast with " + shapeStr(shape));
      noteDefinition(a[i]);
      return Value::error();
    }
    shape = next;
  }
  if (!checkTileSize(shape, call->range))
    return Value::error();
  Type type(common, shape);
  typed::Expr *ops[3];
  for (int i = 0; i < 3; ++i) {
    typed::Expr *e = a[i].isRuntime() ? convertElement(a[i].expr, common, r[i])
                                      : constant(a[i], Type(common), r[i]);
    ops[i] = broadcastTo(e, shape, r[i]);
  }
  return Value::runtime(
      make<typed::MathExpr>(type, call->range, typed::MathFn::Fma, ops[0], ops[1], ops[2]));
}

/// cdiv(x, div): the quotient rounded up; folded for constants.
Value Sema::cdivCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"x", "div"}, 2, a, r))
    return Value::error();
  if (a[0].isIntLike() && a[1].isIntLike()) {
    int64_t x = a[0].intValue, d = a[1].intValue;
    if (d == 0) {
      diags.error(r[1], "division by zero in cdiv()");
      return Value::error();
    }
    int64_t q = x / d, rem = x % d;
    return Value::integer(q + ((rem != 0 && ((rem > 0) == (d > 0))) ? 1 : 0));
  }
  for (int i = 0; i < 2; ++i)
    if (!a[i].isIntLike() &&
        !(a[i].isRuntime() && a[i].type().element().isInteger())) {
      diags.error(r[i], "cdiv() needs integers, not " + a[i].describe());
      noteDefinition(a[i]);
      return Value::error();
    }
  // (x + div - 1) // div, with div evaluated once.
  Value d = a[1];
  if (d.isRuntime() && !isa<typed::VarRefExpr>(d.expr))
    d = bind("cdiv.divisor", d.expr, r[1]);
  Value sum = binary(ast::BinaryOp::Add, a[0], d, call->range, r[0], r[1], call->range);
  Value less = binary(ast::BinaryOp::Sub, sum, Value::integer(1), call->range, call->range,
                      call->range, call->range);
  return binary(ast::BinaryOp::FloorDiv, less, d, call->range, call->range, r[1], call->range);
}

Value Sema::whereCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"condition", "x", "y"}, 3, a, r))
    return Value::error();
  Value cond = a[0];
  if (cond.isNumber())
    cond = Value::runtime(constant(cond, Type::scalar(ScalarKind::I1), r[0]));
  // An integer condition is true where it is non-zero, as in Triton.
  if (cond.isRuntime() && cond.type().element().isInteger() && !cond.type().element().isBool())
    cond = binary(ast::BinaryOp::Ne, cond, Value::integer(0), r[0], r[0], r[0], r[0]);
  if (cond.isError())
    return Value::error();
  if (!cond.isRuntime() || !cond.type().element().isBool()) {
    diags.error(r[0], "the condition of where() must be boolean (i1) or an integer (true "
                      "where non-zero), not " + cond.describe() + "; compare first, e.g. "
                      "'x != 0'");
    noteDefinition(cond);
    return Value::error();
  }
  const Value &x = a[1], &y = a[2];
  for (int i = 1; i <= 2; ++i)
    if (!a[i].isNumber() && !(a[i].isRuntime() && !a[i].type().element().isPointer)) {
      diags.error(r[i], "where() chooses between numbers, not " + a[i].describe());
      noteDefinition(a[i]);
      return Value::error();
    }
  ElementType common = commonElement(x, y);
  typed::Expr *xe = nullptr, *ye = nullptr;
  llvm::SmallVector<int64_t, 4> shape, full;
  if (!numericOperands(x, y, "where", call->range, r[1], r[2], common, xe, ye, shape))
    return Value::error();
  if (!broadcastShapes(cond.type().shape(), shape, full)) {
    diags.error(r[0], "the condition's shape " + shapeStr(cond.type().shape()) +
                          " does not broadcast with the values' shape " + shapeStr(shape));
    noteDefinition(cond);
    return Value::error();
  }
  if (!checkTileSize(full, call->range))
    return Value::error();
  typed::Expr *c = broadcastTo(cond.expr, full, r[0]);
  xe = broadcastTo(xe, full, r[1]);
  ye = broadcastTo(ye, full, r[2]);
  return Value::runtime(make<typed::SelectExpr>(Type(common, full), call->range, c, xe, ye));
}

Value Sema::minimumMaximumCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"x", "y", "propagate_nan"}, 2, a, r))
    return Value::error();
  std::optional<bool> nan = propagateNanArgument(a[2], r[2], name);
  if (!nan)
    return Value::error();
  return minMax(b == Builtin::Maximum, *nan, a[0], a[1], r[0], r[1], name, call->range);
}

/// Triton's clamp: minimum(maximum(x, min), max), NaN in x propagated or not.
Value Sema::clampCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"x", "min", "max", "propagate_nan"}, 3, a, r))
    return Value::error();
  std::optional<bool> nan = propagateNanArgument(a[3], r[3], name);
  if (!nan)
    return Value::error();
  Value low = minMax(true, *nan, a[0], a[1], r[0], r[1], name, call->range);
  if (low.isError())
    return low;
  return minMax(false, *nan, low, a[2], call->range, r[2], name, call->range);
}
