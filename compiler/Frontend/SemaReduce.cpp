//===- SemaReduce.cpp - Reductions and dot --------------------------------===//
//
// sum, max, min, argmax and argmin along an axis (or all of a tile), and dot.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

using namespace tcc;
using namespace tcc::sema;

Value Sema::dotCall(const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, "dot",
                     {"input", "other", "acc", "out_dtype", "input_precision", "allow_tf32"}, 2,
                     a, r, {"max_num_imprecise_acc"}))
    return Value::error();
  // f32 inputs: tf32 on tensor cores by default, as Triton; "ieee" (or allow_tf32=False)
  // keeps full f32 products (CUDA cores). "tf32x3" asks for f32 accuracy too: ieee.
  bool ieee = false;
  if (a[4].kind != Value::Kind::None) {
    if (a[4].kind != Value::Kind::Str ||
        !llvm::is_contained({"tf32", "tf32x3", "ieee"}, llvm::StringRef(a[4].str))) {
      diags.error(r[4], "dot() input_precision must be \"tf32\", \"tf32x3\" or \"ieee\", not " +
                            a[4].describe());
      return Value::error();
    }
    ieee = a[4].str != "tf32";
  }
  if (a[5].kind != Value::Kind::None) {
    if (a[5].kind != Value::Kind::Bool) {
      diags.error(r[5], "dot() allow_tf32 must be True or False, not " + a[5].describe());
      return Value::error();
    }
    if (a[4].kind != Value::Kind::None) {
      diags.error(r[5], "dot() takes input_precision or allow_tf32, not both");
      return Value::error();
    }
    ieee = a[5].intValue == 0;
  }
  if (a[3].kind != Value::Kind::None &&
      !(a[3].kind == Value::Kind::DType && a[3].dtype == ScalarKind::F32)) {
    diags.error(r[3], "dot() accumulates in f32; out_dtype can only be f32");
    return Value::error();
  }
  const char *names[2] = {"the first operand", "the second operand"};
  for (int i = 0; i < 2; ++i) {
    if (!a[i].isRuntime() || a[i].type().rank() != 2) {
      diags.error(r[i], "dot() needs 2-D tiles, but " + llvm::Twine(names[i]) + " is " +
                            a[i].describe());
      noteDefinition(a[i]);
      return Value::error();
    }
    ElementType e = a[i].type().element();
    if (e.isPointer || !(e.scalar == ScalarKind::F16 || e.scalar == ScalarKind::BF16 ||
                         e.scalar == ScalarKind::F32 || e.isFp8())) {
      diags.error(r[i], "dot() multiplies f16, bf16, f32 or fp8 tiles, not " + a[i].type().str());
      noteDefinition(a[i]);
      return Value::error();
    }
  }
  // fp8 operands (either format, or one fp8 and one f16) are widened to f16, which holds
  // every fp8 value exactly: the products and sums are those of an fp8 dot in f32.
  {
    ElementType ea = a[0].type().element(), eb = a[1].type().element();
    bool f16ish[2] = {ea.isFp8() || ea.scalar == ScalarKind::F16,
                      eb.isFp8() || eb.scalar == ScalarKind::F16};
    if ((ea.isFp8() || eb.isFp8()) && f16ish[0] && f16ish[1])
      for (int i = 0; i < 2; ++i)
        a[i] = Value::runtime(
            convertElement(a[i].expr, ElementType::number(ScalarKind::F16), r[i]));
  }
  const Type &ta = a[0].type(), &tb = a[1].type();
  if (ta.element() != tb.element()) {
    diags.error(call->range, "dot() operands must have the same element type, not " +
                                 ta.element().str() + " and " + tb.element().str() +
                                 "; convert one with .to()");
    noteOperand(a[0], r[0], "the first operand");
    noteOperand(a[1], r[1], "the second operand");
    return Value::error();
  }
  if (ta.shape()[1] != tb.shape()[0]) {
    diags.error(call->range, "dot() inner dimensions differ: " + shapeStr(ta.shape()) + " times " +
                                 shapeStr(tb.shape()));
    noteOperand(a[0], r[0], "the first operand");
    noteOperand(a[1], r[1], "the second operand");
    return Value::error();
  }
  Type result(ElementType::number(ScalarKind::F32), {ta.shape()[0], tb.shape()[1]});
  typed::Expr *acc = nullptr;
  if (a[2].kind == Value::Kind::None) {
    acc = constant(Value::floating(0.0), result, call->range);
  } else if (a[2].isNumber()) {
    acc = constant(a[2], result, r[2]);
  } else if (a[2].isRuntime() && a[2].type() == result) {
    acc = a[2].expr;
  } else {
    diags.error(r[2], "the accumulator of dot() must be " + result.str() + ", not " +
                          a[2].describe());
    noteDefinition(a[2]);
    return Value::error();
  }
  bool f32 = ta.element().scalar == ScalarKind::F32;
  return Value::runtime(
      make<typed::DotExpr>(result, call->range, a[0].expr, a[1].expr, acc, f32 && ieee));
}

Value Sema::reduce(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  // Like Triton: bare max(a, b) / min(a, b) are Python's builtins, element-wise
  // on tiles; tl.max / tl.min (and max(x, axis=...)) reduce.
  bool namespaced = name.contains('.');
  if ((b == Builtin::Max || b == Builtin::Min) && !namespaced && call->args.size() == 2 &&
      call->kwargs.empty())
    return builtinCall(b == Builtin::Max ? Builtin::Maximum : Builtin::Minimum, name, call);
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"input", "axis", "keep_dims"}, 1, a, r,
                     {"return_indices_tie_break_left"}))
    return Value::error();
  // max(a, b) / min(a, b) on compile-time numbers is Python's.
  if ((b == Builtin::Max || b == Builtin::Min) && a[0].isNumber()) {
    if (!a[1].isNumber() || a[2].kind != Value::Kind::None) {
      diags.error(call->range, name + "() of compile-time numbers takes two numbers");
      return Value::error();
    }
    Value lt = foldBinary(ast::BinaryOp::Lt, a[0], a[1], call->range);
    bool aLess = lt.intValue != 0;
    return (b == Builtin::Max) == aLess ? a[1] : a[0];
  }
  if ((b == Builtin::Max || b == Builtin::Min) && a[1].isRuntime()) {
    diags.error(r[1], "the second argument of " + name + "() is the axis to reduce along; use " +
                          (b == Builtin::Max ? "maximum" : "minimum") +
                          "(a, b) for the element-wise " + (b == Builtin::Max ? "maximum" : "minimum") +
                          " of two values");
    return Value::error();
  }
  const Value &x = a[0];
  if (!x.isRuntime() || !x.type().isTile()) {
    diags.error(r[0], name + "() reduces a tile, but its input is " + x.describe());
    noteDefinition(x);
    return Value::error();
  }
  if (x.type().element().isPointer) {
    diags.error(r[0], name + "() cannot reduce pointers");
    return Value::error();
  }
  if (rejectFp8(x.type().element(), (name + "()").str(), r[0]))
    return Value::error();
  bool keepDims = false;
  if (a[2].kind != Value::Kind::None) {
    if (a[2].kind != Value::Kind::Bool) {
      diags.error(r[2], "keep_dims must be True or False");
      return Value::error();
    }
    keepDims = a[2].intValue;
  }
  typed::ReduceKind kind = b == Builtin::Sum      ? typed::ReduceKind::Sum
                           : b == Builtin::Max    ? typed::ReduceKind::Max
                           : b == Builtin::Min    ? typed::ReduceKind::Min
                           : b == Builtin::ArgMax ? typed::ReduceKind::ArgMax
                                                  : typed::ReduceKind::ArgMin;
  bool isArg = kind == typed::ReduceKind::ArgMax || kind == typed::ReduceKind::ArgMin;
  typed::Expr *src = x.expr;
  unsigned rank = src->type.rank();
  // Sums of small integers accumulate in i32, as in Triton.
  if (kind == typed::ReduceKind::Sum && src->type.element().isInteger() &&
      bitWidth(src->type.element().scalar) < 32)
    src = convertElement(src, ElementType::number(ScalarKind::I32), r[0]);

  auto reduceAlong = [&](typed::Expr *in, unsigned axis) -> typed::Expr * {
    llvm::SmallVector<int64_t, 4> shape(in->type.shape().begin(), in->type.shape().end());
    shape.erase(shape.begin() + axis);
    ElementType elem = isArg ? ElementType::number(ScalarKind::I32) : in->type.element();
    return make<typed::ReduceExpr>(Type(elem, shape), call->range, kind, in, axis);
  };

  if (a[1].kind == Value::Kind::None) {
    if (rank == 1)
      return Value::runtime(reduceAlong(src, 0));
    if (isArg) {
      diags.error(call->range, name + "() needs an axis for a tile of rank " + llvm::Twine(rank));
      return Value::error();
    }
    if (keepDims) {
      diags.error(r[2], "keep_dims needs an axis");
      return Value::error();
    }
    typed::Expr *e = src;
    while (e->type.rank() > 0)
      e = reduceAlong(e, e->type.rank() - 1);
    return Value::runtime(e);
  }
  std::optional<int64_t> axis = constantInt(a[1], r[1], "the axis of " + name.str() + "()");
  if (!axis)
    return Value::error();
  int64_t ax = *axis < 0 ? *axis + rank : *axis;
  if (ax < 0 || ax >= int64_t(rank)) {
    diags.error(r[1], "axis " + llvm::Twine(*axis) + " is out of range for " + x.type().str() +
                          " (rank " + llvm::Twine(rank) + ")");
    noteDefinition(x);
    return Value::error();
  }
  typed::Expr *e = reduceAlong(src, unsigned(ax));
  if (keepDims) {
    if (e->type.rank() == 0) {
      e = broadcastTo(e, {1}, call->range);
    } else {
      llvm::SmallVector<int64_t, 4> shape(e->type.shape().begin(), e->type.shape().end());
      shape.insert(shape.begin() + ax, 1);
      e = make<typed::ExpandDimsExpr>(e->type.withShape(shape), call->range, e, unsigned(ax));
    }
  }
  return Value::runtime(e);
}
