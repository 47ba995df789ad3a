//===- SemaMemory.cpp - Loads, stores and atomics -------------------------===//
//
// load, store, atomic_add and the other atomics on tiles of pointers (block pointers:
// SemaBlockPtr.cpp).
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

using namespace tcc;
using namespace tcc::sema;

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
  if (!readPointer(*this, a[0], r[0], "load") || !maskArgument(a[1], r[1], "load", mask))
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
  if (!readPointer(*this, a[0], r[0], "store") || !maskArgument(a[2], r[2], "store", mask))
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
      !maskArgument(a[2], r[2], "atomic_add", mask))
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
      (!cas && !maskArgument(a[2], r[2], name, mask)))
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
