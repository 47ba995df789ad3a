//===- SemaBuiltins.cpp - The builtin functions --------------------------===//
//
// Each builtin checks its arguments the way Triton's do (same parameter
// names, so keyword calls port unchanged) and builds typed nodes.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/Support/Casting.h"

#include <cmath>
#include <cstdlib>
#include <limits>

using namespace tcc;
using namespace tcc::sema;

bool Sema::bindArguments(const ast::CallExpr *call, llvm::StringRef name,
                         llvm::ArrayRef<const char *> params, unsigned required,
                         std::vector<Value> &out, std::vector<SMRange> &ranges,
                         llvm::ArrayRef<const char *> ignored) {
  out.assign(params.size(), Value::none());
  ranges.assign(params.size(), call->range);
  std::vector<bool> given(params.size(), false);
  if (call->args.size() > params.size()) {
    diags.error(call->args[params.size()]->range,
                name + "() takes at most " + llvm::Twine(params.size()) + " argument" +
                    (params.size() == 1 ? "" : "s") + " but " + llvm::Twine(call->args.size()) +
                    " were given");
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < call->args.size(); ++i) {
    out[i] = expr(call->args[i]);
    ranges[i] = call->args[i]->range;
    given[i] = true;
    ok &= !out[i].isError();
  }
  for (const ast::KeywordArg &kw : call->kwargs) {
    auto it = std::find_if(params.begin(), params.end(),
                           [&](const char *p) { return kw.name == p; });
    if (it == params.end()) {
      if (llvm::is_contained(ignored, kw.name)) {
        Value v = expr(kw.value); // accepted for porting, but has no effect
        ok &= !v.isError();
        continue;
      }
      std::string known;
      for (const char *p : params)
        known += (known.empty() ? "" : ", ") + std::string(p);
      diags.error(kw.nameRange, name + "() has no parameter named '" + kw.name +
                                    "' (its parameters are: " + known + ")");
      return false;
    }
    size_t i = it - params.begin();
    if (given[i]) {
      diags.error(kw.nameRange, name + "() got argument '" + kw.name + "' twice");
      return false;
    }
    out[i] = expr(kw.value);
    ranges[i] = kw.value->range;
    given[i] = true;
    ok &= !out[i].isError();
  }
  for (unsigned i = 0; i < required; ++i)
    if (!given[i]) {
      diags.error(call->range, name + "() is missing its '" + params[i] + "' argument");
      return false;
    }
  return ok;
}

std::optional<int64_t> Sema::constantInt(const Value &v, SMRange range, llvm::StringRef what) {
  if (v.isIntLike())
    return v.intValue;
  if (v.isError())
    return std::nullopt;
  if (v.isRuntime()) {
    diags.error(range, what + " must be a compile-time constant, but it is a runtime " +
                           v.type().str() + " value");
    auto *ref = dyn_cast<typed::VarRefExpr>(v.expr);
    if (ref && kernel && llvm::is_contained(kernel->arguments, ref->var))
      diags.note(ref->var->range, "'" + ref->var->name + "' is a runtime parameter; declare it '" +
                                      ref->var->name + ": constexpr' to fix its value at "
                                      "compile time (for example with -D " + ref->var->name +
                                      "=...)");
    else
      noteDefinition(v);
    return std::nullopt;
  }
  diags.error(range, what + " must be an integer, not " + v.describe());
  return std::nullopt;
}

bool Sema::shapeArgument(const Value &v, SMRange range, llvm::SmallVectorImpl<int64_t> &shape) {
  std::vector<Value> dims;
  if (v.kind == Value::Kind::Tuple)
    dims = v.elements;
  else
    dims.push_back(v);
  if (dims.empty()) {
    diags.error(range, "a tile shape needs at least one dimension");
    return false;
  }
  for (const Value &d : dims) {
    std::optional<int64_t> n = constantInt(d, range, "a tile dimension");
    if (!n)
      return false;
    if (!isPowerOfTwo(*n)) {
      diags.error(range, "tile dimensions must be powers of two, but one is " +
                             llvm::Twine(*n));
      return false;
    }
    shape.push_back(*n);
  }
  return checkTileSize(shape, range);
}

std::optional<ScalarKind> Sema::dtypeArgument(const Value &v, SMRange range) {
  if (v.kind == Value::Kind::DType && v.dtypeIsPointer) {
    diags.error(range, "expected a number type such as f32 or i32, not the pointer type " +
                           v.dtypeElement().str());
    return std::nullopt;
  }
  if (v.kind == Value::Kind::DType)
    return v.dtype;
  if (!v.isError())
    diags.error(range, "expected a type such as f32 or i32, not " + v.describe());
  return std::nullopt;
}

/// A mask argument: null for none (or a constant True), an i1 value otherwise.
static bool readMask(Sema &s, const Value &v, SMRange range, llvm::StringRef fn,
                     typed::Expr *&mask) {
  mask = nullptr;
  if (v.kind == Value::Kind::None)
    return true;
  if (v.kind == Value::Kind::Bool) {
    if (!v.intValue)
      mask = s.constant(v, Type::scalar(ScalarKind::I1), range);
    return true;
  }
  if (v.isRuntime() && v.type().element().isBool()) {
    mask = v.expr;
    return true;
  }
  s.diags.error(range, "the mask of " + fn + "() must be boolean (i1), not " + v.describe() +
                           "; build it with a comparison such as 'offs < n'");
  s.noteDefinition(v);
  return false;
}

static bool readPointer(Sema &s, const Value &v, SMRange range, llvm::StringRef fn) {
  if (v.isRuntime() && v.type().element().isPointer)
    return true;
  s.diags.error(range, fn + "() needs a pointer or a tile of pointers, not " + v.describe());
  s.noteDefinition(v);
  return false;
}

/// boundary_check= and padding_option= (from argument `first` on) are for block pointers.
static bool blockOnly(Sema &s, const std::vector<Value> &a, const std::vector<SMRange> &r,
                      size_t first, llvm::StringRef fn) {
  for (size_t i = first; i < a.size(); ++i)
    if (a[i].kind != Value::Kind::None) {
      s.diags.error(r[i], fn + "()'s " + (i == 3 ? "boundary_check" : "padding_option") +
                              " is for block pointers (make_block_ptr); with a tile of "
                              "pointers, give mask= (and other=) instead");
      return false;
    }
  return true;
}

Value Sema::loadCall(const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, "load", {"pointer", "mask", "other", "boundary_check", "padding_option"},
                     1, a, r, {"cache_modifier", "eviction_policy", "volatile"}))
    return Value::error();
  if (a[0].kind == Value::Kind::BlockPtr)
    return blockPtrLoad(call, a, r); // SemaBlockPtr.cpp
  if (!blockOnly(*this, a, r, 3, "load"))
    return Value::error();
  typed::Expr *mask = nullptr;
  if (!readPointer(*this, a[0], r[0], "load") || !readMask(*this, a[1], r[1], "load", mask))
    return Value::error();
  if (a[2].kind != Value::Kind::None && a[1].kind == Value::Kind::None) {
    diags.error(r[2], "other= needs mask=: it is the value of the lanes the mask turns off");
    return Value::error();
  }
  typed::Expr *ptr = a[0].expr;
  llvm::SmallVector<int64_t, 4> shape(ptr->type.shape().begin(), ptr->type.shape().end());
  if (mask && !broadcastShapes(ptr->type.shape(), mask->type.shape(), shape)) {
    diags.error(r[1], "the mask's shape " + shapeStr(mask->type.shape()) +
                          " does not broadcast with the pointers' shape " +
                          shapeStr(ptr->type.shape()));
    noteOperand(a[0], r[0], "the pointer");
    noteOperand(a[1], r[1], "the mask");
    return Value::error();
  }
  if (!checkTileSize(shape, call->range))
    return Value::error();
  ptr = broadcastTo(ptr, shape, r[0]);
  if (mask)
    mask = broadcastTo(mask, shape, r[1]);
  Type result(ElementType::number(ptr->type.element().scalar), shape);
  typed::Expr *other = nullptr;
  if (a[2].kind != Value::Kind::None && mask) {
    other = coerce(a[2], result, r[2]);
    if (!other)
      return Value::error();
  }
  // Bound at once: memory is read where the source reads it, even if a helper
  // called later in the same expression stores to it.
  return bindTemporary("load", make<typed::LoadExpr>(result, call->range, ptr, mask, other),
                       call->range);
}

/// What store() and atomic_add() share: the value must be a number (or a tile of them);
/// pointers, value and mask broadcast together; the value converts implicitly to the
/// pointee type, like Triton. On success ptr, v and mask are all of the common shape.
bool Sema::writeOperands(const ast::CallExpr *call, llvm::StringRef whatItDoes,
                         const std::vector<Value> &a, const std::vector<SMRange> &r,
                         typed::Expr *&ptr, typed::Expr *&v, typed::Expr *&mask) {
  const Value &value = a[1];
  if (!value.isNumber() && !(value.isRuntime() && !value.type().element().isPointer)) {
    diags.error(r[1], (whatItDoes + " numbers, not " + value.describe()).str());
    noteDefinition(value);
    return false;
  }
  llvm::SmallVector<int64_t, 4> shape, withValue;
  llvm::ArrayRef<int64_t> valueShape;
  if (value.isRuntime())
    valueShape = value.type().shape();
  if (!broadcastShapes(ptr->type.shape(), valueShape, withValue)) {
    diags.error(r[1], "the value's shape " + shapeStr(valueShape) +
                          " does not broadcast with the pointers' shape " +
                          shapeStr(ptr->type.shape()));
    noteOperand(a[0], r[0], "the pointer");
    noteOperand(value, r[1], "the value");
    return false;
  }
  shape = withValue;
  if (mask && !broadcastShapes(withValue, mask->type.shape(), shape)) {
    diags.error(r[2], "the mask's shape " + shapeStr(mask->type.shape()) +
                          " does not broadcast with the pointers' shape " +
                          shapeStr(withValue));
    noteOperand(a[0], r[0], "the pointer");
    noteOperand(a[2], r[2], "the mask");
    return false;
  }
  if (!checkTileSize(shape, call->range))
    return false;
  ptr = broadcastTo(ptr, shape, r[0]);
  if (mask)
    mask = broadcastTo(mask, shape, r[2]);
  v = coerce(value, Type(ElementType::number(ptr->type.element().scalar), shape), r[1]);
  return v != nullptr;
}

Value Sema::storeCall(const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, "store", {"pointer", "value", "mask", "boundary_check"}, 2, a, r,
                     {"cache_modifier", "eviction_policy"}))
    return Value::error();
  if (a[0].kind == Value::Kind::BlockPtr)
    return blockPtrStore(call, a, r); // SemaBlockPtr.cpp
  if (!blockOnly(*this, a, r, 3, "store"))
    return Value::error();
  typed::Expr *mask = nullptr;
  if (!readPointer(*this, a[0], r[0], "store") || !readMask(*this, a[2], r[2], "store", mask))
    return Value::error();
  typed::Expr *ptr = a[0].expr, *v = nullptr;
  if (!writeOperands(call, "store() writes", a, r, ptr, v, mask))
    return Value::error();
  emit(make<typed::StoreStmt>(call->range, ptr, v, mask));
  return Value::none();
}

Value Sema::atomicAddCall(const ast::CallExpr *call) {
  // With sem= or scope=: tile.atomic_rmw "add" (atomicCall); without, tile.atomic_add.
  for (const ast::KeywordArg &kw : call->kwargs)
    if (kw.name == "sem" || kw.name == "scope")
      return atomicCall(Builtin::AtomicAdd, "atomic_add", call);
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, "atomic_add", {"pointer", "val", "mask", "sem", "scope"}, 2, a, r))
    return Value::error();
  typed::Expr *mask = nullptr;
  if (!readPointer(*this, a[0], r[0], "atomic_add") ||
      !readMask(*this, a[2], r[2], "atomic_add", mask))
    return Value::error();
  typed::Expr *ptr = a[0].expr;
  ScalarKind pointee = ptr->type.element().scalar;
  if (pointee != ScalarKind::I32 && pointee != ScalarKind::I64 && pointee != ScalarKind::F32) {
    diags.error(r[0], "atomic_add() adds to i32, i64 or f32, but the pointer is " +
                          ptr->type.str());
    noteDefinition(a[0]);
    return Value::error();
  }
  typed::Expr *v = nullptr;
  if (!writeOperands(call, "atomic_add() adds", a, r, ptr, v, mask))
    return Value::error();
  // Bound at once, like load: the memory is updated where the source says, and the
  // update happens even if the old values are never used.
  return bindTemporary("old",
                       make<typed::AtomicAddExpr>(v->type, call->range, ptr, v, mask),
                       call->range);
}

/// sem= / scope= of an atomic: a string PTX knows, Triton's defaults (acq_rel, gpu) when
/// absent. False after an error.
static bool readOrdering(Sema &s, const Value &v, SMRange range, llvm::StringRef fn,
                         bool isScope, std::string &out) {
  static const char *const scopes[] = {"gpu", "cta", "sys"};
  static const char *const sems[] = {"acq_rel", "acquire", "release", "relaxed"};
  llvm::ArrayRef<const char *> known =
      isScope ? llvm::ArrayRef<const char *>(scopes) : llvm::ArrayRef<const char *>(sems);
  if (v.kind == Value::Kind::None) {
    out = known[0];
    return true;
  }
  if (v.kind == Value::Kind::Str && llvm::is_contained(known, v.str)) {
    out = v.str;
    return true;
  }
  std::string list;
  for (const char *k : known)
    list += (list.empty() ? "\"" : ", \"") + std::string(k) + "\"";
  if (!v.isError())
    s.diags.error(range, fn + "() " + (isScope ? "scope" : "sem") + " must be one of " + list +
                             ", not " +
                             (v.kind == Value::Kind::Str ? "\"" + v.str + "\"" : v.describe()));
  return false;
}

Value Sema::atomicCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  const bool cas = b == Builtin::AtomicCas;
  // atomic_cas(pointer, cmp, val, sem, scope); the others (pointer, val, mask, sem, scope).
  if (cas ? !bindArguments(call, name, {"pointer", "cmp", "val", "sem", "scope"}, 3, a, r)
          : !bindArguments(call, name, {"pointer", "val", "mask", "sem", "scope"}, 2, a, r))
    return Value::error();
  std::string sem, scope;
  if (!readOrdering(*this, a[3], r[3], name, false, sem) ||
      !readOrdering(*this, a[4], r[4], name, true, scope))
    return Value::error();
  typed::Expr *mask = nullptr;
  if (!readPointer(*this, a[0], r[0], name) ||
      (!cas && !readMask(*this, a[2], r[2], name, mask)))
    return Value::error();
  typed::Expr *ptr = a[0].expr;
  ScalarKind pointee = ptr->type.element().scalar;
  std::string op;
  bool integerOnly = false;
  switch (b) {
  case Builtin::AtomicMax: op = "max"; integerOnly = true; break;
  case Builtin::AtomicMin: op = "min"; integerOnly = true; break;
  case Builtin::AtomicAnd: op = "and"; integerOnly = true; break;
  case Builtin::AtomicOr: op = "or"; integerOnly = true; break;
  case Builtin::AtomicXor: op = "xor"; integerOnly = true; break;
  case Builtin::AtomicXchg: op = "xchg"; break;
  case Builtin::AtomicAdd: op = "add"; break;
  default: op = "cas"; break;
  }
  bool integer = pointee == ScalarKind::I32 || pointee == ScalarKind::I64;
  // Floating-point max/min as Triton does them: on the bits, signed max (min) where the
  // value is >= 0, unsigned min (max) where it is negative.
  bool floatMinMax = (b == Builtin::AtomicMax || b == Builtin::AtomicMin) &&
                     (pointee == ScalarKind::F32 || pointee == ScalarKind::F64);
  bool ok = floatMinMax ? true
            : integerOnly ? integer
            : op == "add" ? integer || pointee == ScalarKind::F32
                          : integer || pointee == ScalarKind::F32 || pointee == ScalarKind::F64;
  if (!ok) {
    const char *what = b == Builtin::AtomicMax || b == Builtin::AtomicMin
                           ? "i32, i64 (signed), f32 or f64"
                       : integerOnly ? "i32 or i64"
                       : op == "add" ? "i32, i64 or f32"
                                     : "i32, i64, f32 or f64";
    diags.error(r[0], name + "() works on " + what + " in memory, but the pointer is " +
                          ptr->type.str());
    noteDefinition(a[0]);
    return Value::error();
  }
  typed::Expr *v = nullptr, *cmp = nullptr;
  std::string what = name.str() + "() writes";
  if (cas) {
    // cmp, then val, each broadcast with the pointers (the mask slot stays empty).
    std::vector<Value> withCmp = {a[0], a[1], Value::none()}, withVal = {a[0], a[2], Value::none()};
    std::vector<SMRange> rc = {r[0], r[1], r[1]}, rv = {r[0], r[2], r[2]};
    typed::Expr *none = nullptr;
    if (!writeOperands(call, what, withCmp, rc, ptr, cmp, none))
      return Value::error();
    if (!writeOperands(call, what, withVal, rv, ptr, v, none))
      return Value::error();
    cmp = broadcastTo(cmp, ptr->type.shape(), r[1]);
  } else if (!writeOperands(call, what, a, r, ptr, v, mask)) {
    return Value::error();
  }
  if (floatMinMax) {
    SMRange at = call->range;
    ScalarKind ik = pointee == ScalarKind::F32 ? ScalarKind::I32 : ScalarKind::I64;
    Type ivType = v->type.withElement(ElementType::number(ik));
    Type i1 = v->type.withElement(ElementType::number(ScalarKind::I1));
    typed::Expr *iptr = make<typed::CastExpr>(ptr->type.withElement(ElementType::pointerTo(ik)),
                                              at, ptr);
    typed::Expr *bits = bindTemporary("bits", make<typed::BitcastExpr>(ivType, at, v), at).expr;
    typed::Expr *zero = constant(Value::floating(0.0), v->type, at);
    typed::Expr *pos =
        bindTemporary("pos", make<typed::CompareExpr>(i1, at, typed::CompareOp::Ge, v, zero), at)
            .expr;
    typed::Expr *neg = make<typed::CompareExpr>(i1, at, typed::CompareOp::Lt, v, zero);
    typed::Expr *onPos = mask ? make<typed::BinaryExpr>(i1, at, typed::BinaryOp::And, mask, pos) : pos;
    typed::Expr *onNeg = mask ? make<typed::BinaryExpr>(i1, at, typed::BinaryOp::And, mask, neg) : neg;
    bool isMax = b == Builtin::AtomicMax;
    typed::Expr *oldPos = bindTemporary("old", make<typed::AtomicExpr>(ivType, at, isMax ? "max" : "min",
                                                                    iptr, bits, nullptr, onPos,
                                                                    sem, scope),
                                        at).expr;
    typed::Expr *oldNeg = bindTemporary("old", make<typed::AtomicExpr>(ivType, at, isMax ? "umin" : "umax",
                                                                    iptr, bits, nullptr, onNeg,
                                                                    sem, scope),
                                        at).expr;
    typed::Expr *old = make<typed::SelectExpr>(ivType, at, pos, oldPos, oldNeg);
    return Value::runtime(make<typed::BitcastExpr>(v->type, at, old));
  }
  // Bound at once, like atomic_add: the memory is updated where the source says, even if
  // the old values are never used.
  return bindTemporary("old",
                       make<typed::AtomicExpr>(v->type, call->range, op, ptr, v, cmp, mask, sem,
                                               scope),
                       call->range);
}

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

Value Sema::builtinCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  switch (b) {
  case Builtin::ProgramId:
  case Builtin::NumPrograms: {
    if (!bindArguments(call, name, {"axis"}, 1, a, r))
      return Value::error();
    std::optional<int64_t> axis = constantInt(a[0], r[0], "the axis of " + name.str() + "()");
    if (!axis)
      return Value::error();
    if (*axis < 0 || *axis > 2) {
      diags.error(r[0], "the axis of " + name + "() must be 0, 1 or 2, not " + llvm::Twine(*axis));
      return Value::error();
    }
    if (b == Builtin::ProgramId)
      return Value::runtime(make<typed::ProgramIdExpr>(call->range, unsigned(*axis)));
    return Value::runtime(make<typed::NumProgramsExpr>(call->range, unsigned(*axis)));
  }
  case Builtin::Arange: {
    if (!bindArguments(call, name, {"start", "end"}, 2, a, r))
      return Value::error();
    std::optional<int64_t> start =
        constantInt(a[0], r[0], "the start of arange() (it fixes the tile's size)");
    if (!start)
      return Value::error();
    std::optional<int64_t> end =
        constantInt(a[1], r[1], "the end of arange() (it fixes the tile's size)");
    if (!end)
      return Value::error();
    if (*start < 0 || *end > INT32_MAX || *end <= *start) {
      diags.error(call->range, "arange(" + llvm::Twine(*start) + ", " + llvm::Twine(*end) +
                                   ") is empty or out of range: it needs 0 <= start < end < 2^31");
      return Value::error();
    }
    int64_t n = *end - *start;
    if (!isPowerOfTwo(n)) {
      diags.error(call->range, "arange(" + llvm::Twine(*start) + ", " + llvm::Twine(*end) +
                                   ") has " + llvm::Twine(n) +
                                   " elements; tile sizes must be powers of two");
      return Value::error();
    }
    if (!checkTileSize({n}, call->range))
      return Value::error();
    return Value::runtime(make<typed::ArangeExpr>(
        Type(ElementType::number(ScalarKind::I32), {n}), call->range, *start, *end));
  }
  case Builtin::Cdiv: {
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
  case Builtin::Zeros:
  case Builtin::Full: {
    bool isFull = b == Builtin::Full;
    if (isFull ? !bindArguments(call, name, {"shape", "value", "dtype"}, 3, a, r)
               : !bindArguments(call, name, {"shape", "dtype"}, 2, a, r))
      return Value::error();
    llvm::SmallVector<int64_t, 4> shape;
    if (!shapeArgument(a[0], r[0], shape))
      return Value::error();
    std::optional<ScalarKind> dtype = dtypeArgument(a[isFull ? 2 : 1], r[isFull ? 2 : 1]);
    if (!dtype)
      return Value::error();
    Type t(ElementType::number(*dtype), shape);
    Value value = isFull ? a[1] : Value::integer(0);
    if (value.isNumber())
      return Value::runtime(constant(value, t, call->range));
    if (!value.isRuntime() || value.type().isTile() || value.type().element().isPointer) {
      diags.error(r[1], "the value of full() must be a scalar number, not " + value.describe());
      noteDefinition(value);
      return Value::error();
    }
    return Value::runtime(coerce(value, t, r[1]));
  }
  case Builtin::ZerosLike: {
    if (!bindArguments(call, name, {"input", "dtype"}, 1, a, r))
      return Value::error();
    if (!a[0].isRuntime() || !a[0].type().isTile() || a[0].type().element().isPointer) {
      diags.error(r[0], "zeros_like() needs a tile of numbers, not " + a[0].describe());
      return Value::error();
    }
    Type t = a[0].type();
    if (a[1].kind != Value::Kind::None) {
      std::optional<ScalarKind> dtype = dtypeArgument(a[1], r[1]);
      if (!dtype)
        return Value::error();
      t = t.withElement(ElementType::number(*dtype));
    }
    return Value::runtime(constant(Value::integer(0), t, call->range));
  }
  case Builtin::MakeBlockPtr:
  case Builtin::Advance:
  case Builtin::MakeTensorDescriptor:
  case Builtin::TensorDescriptorType:
  case Builtin::IsInstance:
    return blockPtrCall(b, name, call); // SemaBlockPtr.cpp
  case Builtin::Load:
    return loadCall(call);
  case Builtin::Store:
    return storeCall(call);
  case Builtin::AtomicAdd:
    return atomicAddCall(call);
  case Builtin::Where: {
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
  case Builtin::Minimum:
  case Builtin::Maximum: {
    if (!bindArguments(call, name, {"x", "y", "propagate_nan"}, 2, a, r))
      return Value::error();
    std::optional<bool> nan = propagateNanArgument(a[2], r[2], name);
    if (!nan)
      return Value::error();
    return minMax(b == Builtin::Maximum, *nan, a[0], a[1], r[0], r[1], name, call->range);
  }
  case Builtin::Clamp: {
    // Triton's clamp: minimum(maximum(x, min), max), NaN in x propagated or not.
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
  case Builtin::Fma:
    return fmaCall(name, call);
  case Builtin::BroadcastTo:
  case Builtin::ExpandDims:
  case Builtin::Join:
  case Builtin::Split:
  case Builtin::Trans:
  case Builtin::Permute:
  case Builtin::Reshape:
  case Builtin::View:
  case Builtin::Ravel:
    return shapeCall(b, name, call);
  case Builtin::Rand:
  case Builtin::Randn:
  case Builtin::Randint:
  case Builtin::Randint4x:
  case Builtin::Rand4x:
  case Builtin::Randn4x:
  case Builtin::Umulhi:
    return randomCall(b, name, call);
  case Builtin::AtomicMax:
  case Builtin::AtomicMin:
  case Builtin::AtomicAnd:
  case Builtin::AtomicOr:
  case Builtin::AtomicXor:
  case Builtin::AtomicXchg:
  case Builtin::AtomicCas:
    return atomicCall(b, name, call);
  case Builtin::Libdevice:
    return libdeviceCall(name, call);
  case Builtin::DebugBarrier: {
    if (!bindArguments(call, name, {}, 0, a, r))
      return Value::error();
    emit(make<typed::BarrierStmt>(call->range));
    return Value::none();
  }
  case Builtin::Exp:
  case Builtin::Exp2:
  case Builtin::Log:
  case Builtin::Log2:
  case Builtin::Sqrt:
  case Builtin::Rsqrt:
  case Builtin::Abs:
  case Builtin::Sin:
  case Builtin::Cos:
  case Builtin::Sigmoid:
  case Builtin::Tanh:
  case Builtin::Erf:
  case Builtin::Floor:
  case Builtin::Ceil:
    return mathFn(b, name, call);
  case Builtin::Sum:
  case Builtin::Max:
  case Builtin::Min:
  case Builtin::ArgMax:
  case Builtin::ArgMin:
    return reduce(b, name, call);
  case Builtin::Cumsum:
  case Builtin::Cumprod:
  case Builtin::AssociativeScan:
    return scanCall(b, name, call);
  case Builtin::Flip:
  case Builtin::Sort:
    return sortCall(b, name, call);
  case Builtin::Dot:
    return dotCall(call);
  case Builtin::MultipleOf:
  case Builtin::MaxContiguous:
    return hint(b, name, call);
  case Builtin::StaticAssert: {
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
  case Builtin::StaticPrint:
    return printCall(call, /*compileTime=*/true);
  case Builtin::Print:
    return printCall(call, /*compileTime=*/false);
  case Builtin::Range:
  case Builtin::StaticRange:
    diags.error(call->range, name + "() can only be the iterable of a for loop");
    return Value::error();
  case Builtin::Float: {
    if (!bindArguments(call, name, {"x"}, 1, a, r))
      return Value::error();
    if (a[0].isNumber())
      return Value::floating(a[0].kind == Value::Kind::Float ? a[0].floatValue
                                                             : double(a[0].intValue));
    if (a[0].kind == Value::Kind::Str) {
      llvm::StringRef s = llvm::StringRef(a[0].str).trim();
      std::string lower = s.lower();
      double inf = std::numeric_limits<double>::infinity();
      if (lower == "inf" || lower == "+inf" || lower == "infinity")
        return Value::floating(inf);
      if (lower == "-inf" || lower == "-infinity")
        return Value::floating(-inf);
      if (lower == "nan" || lower == "+nan" || lower == "-nan")
        return Value::floating(std::numeric_limits<double>::quiet_NaN());
      std::string text = s.str();
      char *end = nullptr;
      double v = std::strtod(text.c_str(), &end);
      if (!text.empty() && end == text.c_str() + text.size())
        return Value::floating(v);
      diags.error(r[0], "float() cannot parse \"" + a[0].str + "\"");
      return Value::error();
    }
    diags.error(r[0], "float() converts compile-time numbers and strings; use x.to(f32) for "
                      "runtime values");
    return Value::error();
  }
  case Builtin::Int: {
    if (!bindArguments(call, name, {"x"}, 1, a, r))
      return Value::error();
    if (a[0].isIntLike())
      return Value::integer(a[0].intValue);
    if (a[0].kind == Value::Kind::Float && std::isfinite(a[0].floatValue) &&
        std::fabs(a[0].floatValue) < 9.2e18)
      return Value::integer(int64_t(a[0].floatValue));
    diags.error(r[0], "int() converts finite compile-time numbers; use x.to(i32) for runtime "
                      "values");
    return Value::error();
  }
  case Builtin::Assume: {
    // assume(cond): a promise the compiler may use (llvm.assume), checked by the interpreter.
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
  case Builtin::Cast: {
    if (!bindArguments(call, name, {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2, a,
                       r))
      return Value::error();
    if (!(a[2].kind == Value::Kind::None ||
          (a[2].kind == Value::Kind::Str && a[2].str == "rtne"))) {
      diags.error(r[2], name + "() fp_downcast_rounding must be None or \"rtne\" (round to "
                               "nearest even, what conversions do), not " + a[2].describe());
      return Value::error();
    }
    return convertCall(a[0], a[1], a[3], call->range, r[1], r[3]);
  }
  case Builtin::DeviceAssert: {
    // device_assert(cond, msg="", mask=None): where cond (every element of a tile, where
    // mask holds) is false at run time, the launch fails with msg, file and line.
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
      if (!readMask(*this, a[2], r[2], name, m))
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
  case Builtin::PointerType: {
    // tl.pointer_type(T): the type of pointers to T, a compile-time value.
    if (!bindArguments(call, name, {"element_ty", "address_space", "const"}, 1, a, r))
      return Value::error();
    if (a[0].kind != Value::Kind::DType) {
      diags.error(r[0], name + "() takes a number type such as f16, not " + a[0].describe());
      return Value::error();
    }
    if (a[0].dtypeIsPointer) {
      diags.error(r[0], "pointers to pointers are not supported");
      return Value::error();
    }
    if (!(a[1].kind == Value::Kind::None || (a[1].isIntLike() && a[1].intValue == 1))) {
      diags.error(r[1], name + "() address_space must be 1 (global memory), not " +
                            a[1].describe());
      return Value::error();
    }
    if (!(a[2].kind == Value::Kind::None || (a[2].kind == Value::Kind::Bool && !a[2].intValue))) {
      diags.error(r[2], name + "() const must be False: tcc has no const pointers");
      return Value::error();
    }
    return Value::dtypeOf(ElementType::pointerTo(a[0].dtype));
  }
  }
  return Value::error();
}
