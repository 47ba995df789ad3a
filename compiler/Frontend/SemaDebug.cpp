//===- SemaDebug.cpp - Hints, printing and assertions ---------------------===//
//
// multiple_of and max_contiguous; print and static_print; static_assert, assume and
// device_assert; debug_barrier.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include <algorithm>
#include <cstdio>

using namespace tcc;
using namespace tcc::sema;

Value Sema::hint(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"input", "values"}, 2, a, r))
    return Value::error();
  const Value &x = a[0];
  if (x.isIntLike())
    return x; // a hint about a constant says nothing new
  if (!x.isRuntime() || x.type().element().isFloat()) {
    diags.error(r[0], name + "() applies to integers and pointers, not " + x.describe());
    noteDefinition(x);
    return Value::error();
  }
  unsigned n = std::max(1u, x.type().rank());
  std::vector<Value> given =
      a[1].kind == Value::Kind::Tuple ? a[1].elements : std::vector<Value>{a[1]};
  if (given.size() == 1 && n > 1)
    given.assign(n, given[0]);
  if (given.size() != n) {
    diags.error(r[1], name + "() needs " + llvm::Twine(n) + " value" + (n == 1 ? "" : "s") +
                          " (one per dimension of " + x.type().str() + "), not " +
                          llvm::Twine(given.size()));
    return Value::error();
  }
  std::vector<int32_t> values;
  for (const Value &v : given) {
    std::optional<int64_t> i = constantInt(v, r[1], "the value of " + name.str() + "()");
    if (!i)
      return Value::error();
    if (!isPowerOfTwo(*i) || *i > (int64_t(1) << 30)) {
      diags.error(r[1], name + "() values must be powers of two, not " + llvm::Twine(*i));
      return Value::error();
    }
    values.push_back(int32_t(*i));
  }
  typed::HintKind kind =
      b == Builtin::MultipleOf ? typed::HintKind::Divisibility : typed::HintKind::Contiguity;
  return Value::runtime(
      make<typed::HintExpr>(x.type(), call->range, kind, x.expr, std::move(values)));
}

static std::string constantText(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Int: return std::to_string(v.intValue);
  case Value::Kind::Bool: return v.intValue ? "True" : "False";
  case Value::Kind::Float: {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v.floatValue);
    return buf;
  }
  case Value::Kind::Str: return v.str;
  case Value::Kind::DType: return scalarName(v.dtype).str();
  case Value::Kind::None: return "None";
  case Value::Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < v.elements.size(); ++i)
      s += (i ? ", " : "") + constantText(v.elements[i]);
    return s + (v.elements.size() == 1 ? ",)" : ")");
  }
  case Value::Kind::Runtime: return "<runtime " + v.type().str() + ">";
  default: return v.describe();
  }
}

Value Sema::printCall(const ast::CallExpr *call, bool compileTime) {
  if (!call->kwargs.empty()) {
    diags.error(call->kwargs[0].nameRange, "print() takes no keyword arguments");
    return Value::error();
  }
  std::vector<Value> args;
  for (const ast::Expr *e : call->args) {
    args.push_back(expr(e));
    if (args.back().isError())
      return Value::error();
  }
  if (compileTime) {
    std::string text;
    for (size_t i = 0; i < args.size(); ++i)
      text += (i ? " " : "") + constantText(args[i]);
    diags.remark(call->range, "static_print: " + text);
    return Value::none();
  }
  std::string prefix;
  std::vector<typed::Expr *> values;
  for (size_t i = 0; i < args.size(); ++i) {
    const Value &v = args[i];
    if (v.kind == Value::Kind::Str) {
      if (i != 0) {
        diags.error(call->args[i]->range, "only the first argument of print() may be a string");
        return Value::error();
      }
      prefix = v.str;
      continue;
    }
    if (!v.isRuntime() && !v.isNumber()) {
      diags.error(call->args[i]->range, "print() cannot print " + v.describe());
      return Value::error();
    }
    values.push_back(toRuntime(v, call->args[i]->range));
  }
  emit(make<typed::PrintStmt>(call->range, prefix, std::move(values)));
  return Value::none();
}

Value Sema::staticAssertCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"cond", "msg"}, 1, a, r))
    return Value::error();
  if (a[0].isRuntime()) {
    diags.error(r[0], "static_assert() needs a compile-time condition, not a runtime " +
                          a[0].type().str());
    noteDefinition(a[0]);
    return Value::error();
  }
  bool holds = false;
  if (!truthy(a[0], holds, r[0], "the condition"))
    return Value::error();
  if (!holds) {
    std::string msg = a[1].kind == Value::Kind::Str ? ": " + a[1].str : "";
    diags.error(call->range, "static assertion failed" + msg);
  }
  return Value::none();
}

/// assume(cond): a promise the compiler may use (llvm.assume), checked by the interpreter.
Value Sema::assumeCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"cond"}, 1, a, r))
    return Value::error();
  if (a[0].kind == Value::Kind::Bool) {
    if (!a[0].intValue)
      diags.error(r[0], name + "() of a condition that is always false");
    return Value::none();
  }
  if (!a[0].isRuntime() || !a[0].type().element().isBool()) {
    diags.error(r[0], name + "() needs a boolean (i1) condition, such as 'n % 16 == 0', not " +
                          a[0].describe());
    noteDefinition(a[0]);
    return Value::error();
  }
  emit(make<typed::AssumeStmt>(call->range, a[0].expr));
  return Value::none();
}

/// device_assert(cond, msg="", mask=None): where cond (every element of a tile, where
/// mask holds) is false at run time, the launch fails with msg, file and line.
Value Sema::deviceAssertCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"cond", "msg", "mask"}, 1, a, r))
    return Value::error();
  std::string msg;
  if (a[1].kind == Value::Kind::Str)
    msg = a[1].str;
  else if (a[1].kind != Value::Kind::None) {
    diags.error(r[1], name + "() msg must be a string, not " + a[1].describe());
    return Value::error();
  }
  Value cond = a[0];
  if (cond.isNumber()) {
    bool holds = cond.kind == Value::Kind::Float ? cond.floatValue != 0.0 : cond.intValue != 0;
    if (!holds && options.deviceAsserts)
      diags.error(r[0], name + "() of a condition that is always false" +
                            (msg.empty() ? std::string() : ": " + msg));
    return Value::none();
  }
  if (!cond.isRuntime() || cond.type().element().isPointer) {
    diags.error(r[0], name + "() needs a condition (an i1, or a number: true where non-zero), "
                             "not " + cond.describe());
    noteDefinition(cond);
    return Value::error();
  }
  typed::Expr *c = cond.expr;
  if (!c->type.element().isBool()) { // non-zero is true, as Triton's
    if (rejectFp8(c->type.element(), (name + "()").str(), r[0]))
      return Value::error();
    c = make<typed::CompareExpr>(c->type.withElement(ElementType::number(ScalarKind::I1)),
                                 r[0], typed::CompareOp::Ne, c,
                                 constant(Value::integer(0), c->type, r[0]));
  }
  if (a[2].kind != Value::Kind::None) { // where the mask is false the condition holds
    typed::Expr *m = nullptr;
    if (!maskArgument(a[2], r[2], name, m))
      return Value::error();
    llvm::SmallVector<int64_t, 4> shape;
    if (!m) { // mask=True
    } else if (!broadcastShapes(c->type.shape(), m->type.shape(), shape)) {
      diags.error(r[2], name + "(): the mask's shape " + shapeStr(m->type.shape()) +
                            " does not broadcast with the condition's " +
                            shapeStr(c->type.shape()));
      return Value::error();
    } else {
      Type i1(ElementType::number(ScalarKind::I1), shape);
      c = broadcastTo(c, shape, r[0]);
      m = broadcastTo(m, shape, r[2]);
      typed::Expr *notM = make<typed::BinaryExpr>(i1, r[2], typed::BinaryOp::Xor, m,
                                                  constant(Value::boolean(true), i1, r[2]));
      c = make<typed::BinaryExpr>(i1, r[0], typed::BinaryOp::Or, c, notM);
    }
  }
  if (options.deviceAsserts)
    emit(make<typed::AssumeStmt>(call->range, c, msg));
  return Value::none();
}

Value Sema::debugBarrierCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {}, 0, a, r))
    return Value::error();
  emit(make<typed::BarrierStmt>(call->range));
  return Value::none();
}
