//===- SemaExpr.cpp - Expressions, promotion, broadcasting ---------------===//
//
// The rules (docs/language.md has the user-facing version):
//  * Compile-time numbers fold (integers with C's truncating `//` and `%`,
//    overflow is an error).
//  * A literal next to a runtime value adopts its type: an int literal takes
//    the other operand's integer or float type (widened if it does not fit),
//    a float literal takes a float type or makes an integer operand f32.
//  * Two runtime operands promote to the wider type; int with float gives the
//    float type; f16 with bf16 gives f32. `/` on integers divides in f32.
//  * Shapes broadcast like NumPy: scalars splat, lower ranks gain leading
//    axes, size-1 dimensions stretch.
//  * pointer + integer is pointer arithmetic (in elements).
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/Libdevice.h"
#include "compiler/Frontend/SemaInternal.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Casting.h"

#include <cmath>
#include <limits>

using namespace tcc;
using namespace tcc::sema;

/// The source name of a variable (`acc.2` was written `acc`).
static llvm::StringRef sourceName(const typed::Variable *v) {
  llvm::StringRef n = v->name;
  size_t dot = n.find('.');
  return dot == llvm::StringRef::npos ? n : n.take_front(dot);
}

void Sema::noteDefinition(const Value &v) {
  if (!v.isRuntime())
    return;
  if (auto *ref = dyn_cast<typed::VarRefExpr>(v.expr))
    diags.note(ref->var->range, "'" + sourceName(ref->var) + "' is defined here as " +
                                    ref->var->type.str());
}

void Sema::noteOperand(const Value &v, SMRange range, llvm::StringRef which) {
  if (v.isRuntime()) {
    if (auto *ref = dyn_cast<typed::VarRefExpr>(v.expr)) {
      diags.note(ref->var->range, which + " '" + sourceName(ref->var) + "' is " +
                                      ref->var->type.str() + ", defined here");
      return;
    }
  }
  diags.note(range, which + " is " + v.describe());
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

static const char *const kBuiltinNames[] = {
    "program_id", "num_programs", "arange", "cdiv", "zeros", "zeros_like", "full", "load",
    "store", "atomic_add", "where", "minimum", "maximum", "clamp", "exp", "exp2", "log", "log2",
    "sqrt", "rsqrt", "abs", "sin", "cos", "sigmoid", "tanh", "erf", "floor", "ceil", "fma", "sum", "max", "min", "argmax", "argmin", "dot",
    "multiple_of", "max_contiguous", "broadcast_to", "expand_dims", "join", "split", "trans",
    "permute", "reshape", "rand", "randn", "randint", "randint4x", "rand4x", "randn4x", "umulhi",
    "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas",
    "debug_barrier",
    "static_assert", "static_print", "print",
    "device_print", "assume", "range", "static_range", "float", "int", "cast", "inf", "nan",
    "pointer_type", "device_assert",
    "make_block_ptr", "advance", "make_tensor_descriptor", "tensor_descriptor", "isinstance",
    "cumsum", "cumprod", "associative_scan", "flip", "sort", "view", "ravel",
};

/// Triton names tcc knows but does not implement, for a better message than
/// "undefined name".
static bool isUnsupportedTritonName(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"cat"},
             true)
      .Cases({"reduce", "histogram", "xor_sum"},
             true)
      .Cases({"inline_asm_elementwise", "fdiv", "softmax",
              "swizzle2d"},
             true)
      .Default(false);
}

Value Sema::lookupBuiltin(llvm::StringRef name) const {
  if (std::optional<ScalarKind> k = parseScalarName(name))
    return Value::dtypeOf(*k);
  if (name == "inf")
    return Value::floating(std::numeric_limits<double>::infinity());
  if (name == "nan")
    return Value::floating(std::numeric_limits<double>::quiet_NaN());
  if (name == "tl" || name == "triton" || name == "language" || name == "PropagateNan" ||
      name == "libdevice") {
    Value v;
    v.kind = Value::Kind::Namespace;
    v.str = name.str();
    return v;
  }
  std::optional<Builtin> b = llvm::StringSwitch<std::optional<Builtin>>(name)
      .Case("program_id", Builtin::ProgramId)
      .Case("num_programs", Builtin::NumPrograms)
      .Case("arange", Builtin::Arange)
      .Case("cdiv", Builtin::Cdiv)
      .Case("zeros", Builtin::Zeros)
      .Case("zeros_like", Builtin::ZerosLike)
      .Case("full", Builtin::Full)
      .Case("load", Builtin::Load)
      .Case("store", Builtin::Store)
      .Case("atomic_add", Builtin::AtomicAdd)
      .Case("where", Builtin::Where)
      .Case("minimum", Builtin::Minimum)
      .Case("maximum", Builtin::Maximum)
      .Case("clamp", Builtin::Clamp)
      .Case("exp", Builtin::Exp)
      .Case("exp2", Builtin::Exp2)
      .Case("log", Builtin::Log)
      .Case("log2", Builtin::Log2)
      .Case("sqrt", Builtin::Sqrt)
      .Case("rsqrt", Builtin::Rsqrt)
      .Case("abs", Builtin::Abs)
      .Case("sin", Builtin::Sin)
      .Case("cos", Builtin::Cos)
      .Case("sigmoid", Builtin::Sigmoid)
      .Case("tanh", Builtin::Tanh)
      .Case("erf", Builtin::Erf)
      .Case("floor", Builtin::Floor)
      .Case("ceil", Builtin::Ceil)
      .Case("fma", Builtin::Fma)
      .Case("sum", Builtin::Sum)
      .Case("cumsum", Builtin::Cumsum)
      .Case("cumprod", Builtin::Cumprod)
      .Case("associative_scan", Builtin::AssociativeScan)
      .Case("flip", Builtin::Flip)
      .Case("sort", Builtin::Sort)
      .Case("max", Builtin::Max)
      .Case("min", Builtin::Min)
      .Case("argmax", Builtin::ArgMax)
      .Case("argmin", Builtin::ArgMin)
      .Case("dot", Builtin::Dot)
      .Case("multiple_of", Builtin::MultipleOf)
      .Case("max_contiguous", Builtin::MaxContiguous)
      .Case("broadcast_to", Builtin::BroadcastTo)
      .Case("expand_dims", Builtin::ExpandDims)
      .Case("join", Builtin::Join)
      .Case("split", Builtin::Split)
      .Case("trans", Builtin::Trans)
      .Case("permute", Builtin::Permute)
      .Case("reshape", Builtin::Reshape)
      .Case("view", Builtin::View)
      .Case("ravel", Builtin::Ravel)
      .Case("rand", Builtin::Rand)
      .Case("randn", Builtin::Randn)
      .Case("randint", Builtin::Randint)
      .Case("randint4x", Builtin::Randint4x)
      .Case("rand4x", Builtin::Rand4x)
      .Case("randn4x", Builtin::Randn4x)
      .Case("umulhi", Builtin::Umulhi)
      .Case("atomic_max", Builtin::AtomicMax)
      .Case("atomic_min", Builtin::AtomicMin)
      .Case("atomic_and", Builtin::AtomicAnd)
      .Case("atomic_or", Builtin::AtomicOr)
      .Case("atomic_xor", Builtin::AtomicXor)
      .Case("atomic_xchg", Builtin::AtomicXchg)
      .Case("atomic_cas", Builtin::AtomicCas)
      .Case("debug_barrier", Builtin::DebugBarrier)
      .Case("static_assert", Builtin::StaticAssert)
      .Case("static_print", Builtin::StaticPrint)
      .Cases({"print", "device_print"}, Builtin::Print)
      .Case("assume", Builtin::Assume)
      .Case("range", Builtin::Range)
      .Case("static_range", Builtin::StaticRange)
      .Case("float", Builtin::Float)
      .Case("int", Builtin::Int)
      .Case("cast", Builtin::Cast)
      .Case("pointer_type", Builtin::PointerType)
      .Case("device_assert", Builtin::DeviceAssert)
      .Case("make_block_ptr", Builtin::MakeBlockPtr)
      .Case("advance", Builtin::Advance)
      .Case("make_tensor_descriptor", Builtin::MakeTensorDescriptor)
      .Case("tensor_descriptor", Builtin::TensorDescriptorType)
      .Case("isinstance", Builtin::IsInstance)
      .Default(std::nullopt);
  if (!b)
    return Value::error();
  Value v;
  v.kind = Value::Kind::Builtin;
  v.builtin = *b;
  v.str = name.str();
  return v;
}

Value Sema::lookup(const ast::NameExpr *e) {
  auto it = frame->env.find(e->name);
  if (it != frame->env.end()) {
    // A fresh reference, so that the AST dump shows where each use is.
    const Value &v = it->second.value;
    if (v.isRuntime())
      if (auto *ref = dyn_cast<typed::VarRefExpr>(v.expr))
        return Value::runtime(make<typed::VarRefExpr>(ref->var, e->range));
    return v;
  }
  auto lost = frame->lost.find(e->name);
  if (lost != frame->lost.end()) {
    diags.error(e->range, "'" + e->name + "' is not defined here: " + lost->second.why);
    diags.note(lost->second.defRange, "'" + e->name + "' is assigned here");
    return Value::error();
  }
  auto g = globals.find(e->name);
  if (g != globals.end())
    return g->second.value;
  auto f = functions.find(e->name);
  if (f != functions.end()) {
    Value v;
    v.kind = Value::Kind::Function;
    v.function = f->second;
    v.str = e->name;
    return v;
  }
  Value b = lookupBuiltin(e->name);
  if (!b.isError())
    return b;
  if (isUnsupportedTritonName(e->name)) {
    diags.error(e->range, "'" + e->name + "' is not supported by tcc");
    return Value::error();
  }
  diags.error(e->range, "undefined name '" + e->name + "'");
  for (const ast::ImportedName &imported : module.imports)
    if (imported.name == e->name) {
      diags.note(imported.line, "tcc ignores imports: '" + e->name + "' is bound by this line "
                                "in Python only; tcc knows the tl.* builtins by name, and "
                                "other modules are not available in a kernel");
      return Value::error();
    }
  // Suggest the closest known name.
  // Suggest the closest known name, located at its definition (a builtin: at the use).
  std::string best;
  SMRange bestRange;
  unsigned bestDistance = 3;
  auto consider = [&](llvm::StringRef candidate, SMRange where) {
    unsigned d = llvm::StringRef(e->name).edit_distance(candidate, true, bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate.str();
      bestRange = where.isValid() ? where : e->range;
    }
  };
  for (const auto &entry : frame->env)
    consider(entry.getKey(), entry.getValue().defRange);
  for (const auto &entry : globals)
    consider(entry.getKey(), entry.getValue().defRange);
  for (const auto &entry : functions)
    consider(entry.getKey(), entry.getValue()->nameRange);
  for (const char *n : kBuiltinNames)
    consider(n, e->range);
  if (!best.empty() && e->name.size() > 1)
    diags.note(bestRange, bestRange.Start == e->range.Start
                              ? "did you mean '" + best + "'?"
                              : "did you mean '" + best + "', defined here?");
  return Value::error();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value Sema::expr(const ast::Expr *e) {
  if (auto it = preEvaluated.find(e); it != preEvaluated.end())
    return it->second;
  switch (e->getKind()) {
  case ast::Expr::Kind::Name:
    return lookup(cast<ast::NameExpr>(e));
  case ast::Expr::Kind::IntLit: {
    uint64_t v = cast<ast::IntLitExpr>(e)->value;
    if (v > uint64_t(std::numeric_limits<int64_t>::max())) {
      diags.error(e->range, "integer literal " + llvm::Twine(v) + " does not fit in 64 bits");
      return Value::error();
    }
    return Value::integer(int64_t(v));
  }
  case ast::Expr::Kind::FloatLit:
    return Value::floating(cast<ast::FloatLitExpr>(e)->value);
  case ast::Expr::Kind::BoolLit:
    return Value::boolean(cast<ast::BoolLitExpr>(e)->value);
  case ast::Expr::Kind::NoneLit:
    return Value::none();
  case ast::Expr::Kind::StringLit:
    return Value::string(cast<ast::StringLitExpr>(e)->value);
  case ast::Expr::Kind::Tuple: {
    std::vector<Value> elems;
    bool bad = false;
    for (const ast::Expr *el : cast<ast::TupleExpr>(e)->elements) {
      elems.push_back(expr(el));
      bad |= elems.back().isError();
    }
    return bad ? Value::error() : Value::tuple(std::move(elems));
  }
  case ast::Expr::Kind::Unary:
    return unary(cast<ast::UnaryExpr>(e));
  case ast::Expr::Kind::Binary: {
    auto *b = cast<ast::BinaryExpr>(e);
    if (b->op == ast::BinaryOp::And || b->op == ast::BinaryOp::Or)
      return logical(b);
    Value l = expr(b->lhs);
    Value r = expr(b->rhs);
    return binary(b->op, l, r, b->opRange, b->lhs->range, b->rhs->range, b->range);
  }
  case ast::Expr::Kind::Ternary:
    return ternary(cast<ast::TernaryExpr>(e));
  case ast::Expr::Kind::Call:
    return call(cast<ast::CallExpr>(e));
  case ast::Expr::Kind::Attribute:
    return attribute(cast<ast::AttributeExpr>(e));
  case ast::Expr::Kind::Subscript:
    return subscript(cast<ast::SubscriptExpr>(e));
  case ast::Expr::Kind::Slice:
    diags.error(e->range, "a slice ('a:b') can only appear inside '[...]'");
    return Value::error();
  case ast::Expr::Kind::Dict:
    diags.error(e->range, "dictionaries have no value in a kernel; they are written only in "
                          "triton.Config({...}) of @autotune");
    return Value::error();
  }
  return Value::error();
}

bool Sema::truthy(const Value &v, bool &result, SMRange range, llvm::StringRef what) {
  switch (v.kind) {
  case Value::Kind::Int:
  case Value::Kind::Bool:
    result = v.intValue != 0;
    return true;
  case Value::Kind::Float:
    result = v.floatValue != 0.0;
    return true;
  case Value::Kind::None:
    result = false;
    return true;
  case Value::Kind::Str:
    result = !v.str.empty();
    return true;
  case Value::Kind::Tuple:
    result = !v.elements.empty();
    return true;
  case Value::Kind::DType:
  case Value::Kind::Function:
  case Value::Kind::Builtin:
  case Value::Kind::Namespace:
  case Value::Kind::BlockPtr:
    result = true;
    return true;
  case Value::Kind::Runtime:
    diags.error(range, what + " must be known at compile time here, but it is a runtime " +
                           v.type().str());
    noteDefinition(v);
    return false;
  case Value::Kind::Error:
    return false;
  }
  return false;
}

Value Sema::ternary(const ast::TernaryExpr *e) {
  Value c = expr(e->cond);
  if (c.isError())
    return c;
  if (c.isRuntime()) {
    diags.error(e->cond->range, "the condition of 'a if c else b' must be known at compile "
                                "time; use where(c, a, b) to choose at run time");
    noteDefinition(c);
    return Value::error();
  }
  bool taken = false;
  if (!truthy(c, taken, e->cond->range, "the condition"))
    return Value::error();
  return expr(taken ? e->thenValue : e->elseValue);
}

Value Sema::unary(const ast::UnaryExpr *e) {
  Value v = expr(e->operand);
  if (v.isError())
    return v;
  SMRange r = e->range;
  if (e->op == ast::UnaryOp::Not) {
    if (!v.isRuntime()) {
      bool t = false;
      if (!truthy(v, t, e->operand->range, "the operand of 'not'"))
        return Value::error();
      return Value::boolean(!t);
    }
    const Type &t = v.type();
    if (t.element().isPointer) {
      diags.error(r, "'not' cannot be applied to pointers");
      return Value::error();
    }
    if (rejectFp8(t.element(), "'not'", r))
      return Value::error();
    Type i1 = t.withElement(ElementType::number(ScalarKind::I1));
    if (t.element().isBool())
      return Value::runtime(make<typed::BinaryExpr>(i1, r, typed::BinaryOp::Xor, v.expr,
                                                    constant(Value::boolean(true), i1, r)));
    return Value::runtime(make<typed::CompareExpr>(i1, r, typed::CompareOp::Eq, v.expr,
                                                   constant(Value::integer(0), t, r)));
  }
  if (!v.isRuntime()) {
    if (!v.isNumber()) {
      diags.error(r, "bad operand for unary '" + ast::spelling(e->op) + "': " + v.describe());
      return Value::error();
    }
    switch (e->op) {
    case ast::UnaryOp::Pos:
      return v.kind == Value::Kind::Bool ? Value::integer(v.intValue) : v;
    case ast::UnaryOp::Neg:
      if (v.kind == Value::Kind::Float)
        return Value::floating(-v.floatValue);
      if (v.intValue == std::numeric_limits<int64_t>::min()) {
        diags.error(r, "integer overflow in a constant expression");
        return Value::error();
      }
      return Value::integer(-v.intValue);
    case ast::UnaryOp::Invert:
      if (v.kind == Value::Kind::Float) {
        diags.error(r, "'~' needs an integer operand, not a floating-point constant");
        return Value::error();
      }
      return Value::integer(~v.intValue);
    case ast::UnaryOp::Not:
      break;
    }
    return Value::error();
  }
  const Type &t = v.type();
  if (t.element().isPointer) {
    diags.error(r, "unary '" + ast::spelling(e->op) + "' cannot be applied to pointers (" +
                       t.str() + ")");
    return Value::error();
  }
  switch (e->op) {
  case ast::UnaryOp::Pos:
    return v;
  case ast::UnaryOp::Neg: {
    typed::Expr *x = v.expr;
    if (rejectFp8(t.element(), "unary '-'", r))
      return Value::error();
    if (t.element().isBool())
      x = convertElement(x, ElementType::number(ScalarKind::I32), r);
    return Value::runtime(make<typed::UnaryExpr>(x->type, r, typed::UnaryOp::Neg, x));
  }
  case ast::UnaryOp::Invert:
    if (t.element().isFloat()) {
      diags.error(r, "'~' needs an integer operand, not " + t.str());
      noteDefinition(v);
      return Value::error();
    }
    return Value::runtime(make<typed::UnaryExpr>(t, r, typed::UnaryOp::BitNot, v.expr));
  case ast::UnaryOp::Not:
    break;
  }
  return Value::error();
}

Value Sema::logical(const ast::BinaryExpr *e) {
  bool isAnd = e->op == ast::BinaryOp::And;
  Value l = expr(e->lhs);
  if (l.isError())
    return l;
  if (!l.isRuntime()) {
    bool t = false;
    if (!truthy(l, t, e->lhs->range, "the operand"))
      return Value::error();
    // Python's short circuit: the right side is not even elaborated.
    if (isAnd ? !t : t)
      return l;
    return expr(e->rhs);
  }
  Value r = expr(e->rhs);
  if (r.isError())
    return r;
  for (const Value *v : {&l, &r}) {
    bool ok = v->isRuntime() ? v->type().element().isBool() : v->isNumber();
    if (!ok) {
      const ast::Expr *side = v == &l ? e->lhs : e->rhs;
      diags.error(side->range, "'" + ast::spelling(e->op) +
                                   "' with a runtime operand needs boolean (i1) operands, not " +
                                   v->describe() + "; compare first, or use '&' / '|'");
      noteDefinition(*v);
      return Value::error();
    }
  }
  if (!r.isRuntime()) {
    bool t = false;
    truthy(r, t, e->rhs->range, "the operand");
    r = Value::boolean(t);
  }
  return binary(isAnd ? ast::BinaryOp::BitAnd : ast::BinaryOp::BitOr, l, r, e->opRange,
                e->lhs->range, e->rhs->range, e->range);
}

//===----------------------------------------------------------------------===//
// Types of operands
//===----------------------------------------------------------------------===//

static bool fitsIn(int64_t v, ScalarKind k) {
  switch (k) {
  case ScalarKind::I1: return v == 0 || v == 1;
  case ScalarKind::I8: return v >= INT8_MIN && v <= INT8_MAX;
  case ScalarKind::I16: return v >= INT16_MIN && v <= INT16_MAX;
  case ScalarKind::I32: return v >= INT32_MIN && v <= INT32_MAX;
  default: return true;
  }
}

ElementType Sema::literalElement(const Value &c) const {
  switch (c.kind) {
  case Value::Kind::Float:
    return ElementType::number(ScalarKind::F32);
  case Value::Kind::Bool:
    return ElementType::number(ScalarKind::I1);
  default:
    return ElementType::number(fitsIn(c.intValue, ScalarKind::I32) ? ScalarKind::I32
                                                                   : ScalarKind::I64);
  }
}

ElementType Sema::promote(ElementType a, ElementType b) const {
  if (a == b)
    return a;
  if (a.isFloat() || b.isFloat()) {
    if (a.isFloat() && b.isFloat()) {
      unsigned wa = bitWidth(a.scalar), wb = bitWidth(b.scalar);
      if (wa == wb) // f16 with bf16
        return ElementType::number(ScalarKind::F32);
      return wa > wb ? a : b;
    }
    return a.isFloat() ? a : b;
  }
  return bitWidth(a.scalar) >= bitWidth(b.scalar) ? a : b;
}

std::optional<ElementType> Sema::operandElement(const Value &lit, ElementType other) const {
  if (other.isPointer)
    return std::nullopt;
  switch (lit.kind) {
  case Value::Kind::Float:
    return other.isFloat() ? other : ElementType::number(ScalarKind::F32);
  case Value::Kind::Bool:
    return other;
  case Value::Kind::Int:
    if (other.isFloat())
      return other;
    if (!other.isBool() && fitsIn(lit.intValue, other.scalar))
      return other;
    return literalElement(lit);
  default:
    return std::nullopt;
  }
}

ElementType Sema::commonElement(const Value &l, const Value &r) const {
  if (l.isRuntime() && r.isRuntime())
    return promote(l.type().element(), r.type().element());
  if (l.isRuntime())
    return promote(*operandElement(r, l.type().element()), l.type().element());
  if (r.isRuntime())
    return promote(*operandElement(l, r.type().element()), r.type().element());
  return promote(literalElement(l), literalElement(r));
}

//===----------------------------------------------------------------------===//
// Building typed expressions
//===----------------------------------------------------------------------===//

typed::Expr *Sema::constant(const Value &c, const Type &type, SMRange range) {
  int64_t i = 0;
  double f = 0.0;
  if (c.kind == Value::Kind::Float) {
    f = c.floatValue;
    if (std::isfinite(f) && std::fabs(f) < 9.2e18)
      i = int64_t(f);
  } else {
    i = c.intValue;
    f = double(c.intValue);
  }
  if (type.element().isBool())
    i = (c.kind == Value::Kind::Float ? f != 0.0 : i != 0) ? 1 : 0;
  if (type.element().isFp8()) // the value the constant has once stored (rounded, saturated)
    f = mlir::tile::fp8::round(f, fp8Format(type.element().scalar));
  return make<typed::ConstantExpr>(type, range, i, f);
}

typed::Expr *Sema::toRuntime(const Value &v, SMRange range) {
  if (v.isRuntime())
    return v.expr;
  if (v.isNumber())
    return constant(v, Type(literalElement(v)), range);
  diags.error(range, v.describe() + " cannot be used as a runtime value");
  return nullptr;
}

typed::Expr *Sema::convertElement(typed::Expr *e, ElementType to, SMRange range) {
  ElementType from = e->type.element();
  if (from == to || from.isPointer || to.isPointer)
    return e;
  if (auto *c = dyn_cast<typed::ConstantExpr>(e)) {
    // Fold conversions of constants so that the IR shows the final value.
    Value v = from.isFloat() ? Value::floating(c->floatValue) : Value::integer(c->intValue);
    if (to.isInteger() && !to.isBool() && from.isFloat() && !std::isfinite(c->floatValue))
      return make<typed::CastExpr>(e->type.withElement(to), range, e);
    return constant(v, e->type.withElement(to), range);
  }
  bool halfSwap = (from.scalar == ScalarKind::F16 && to.scalar == ScalarKind::BF16) ||
                  (from.scalar == ScalarKind::BF16 && to.scalar == ScalarKind::F16);
  // fp8 converts only to and from f16, bf16 and f32 (the GPU's cvt instructions): integers,
  // f64 and the other fp8 type go through f32 (exact from fp8; from f64 it rounds twice).
  auto direct = [](ElementType t) {
    return t.scalar == ScalarKind::F16 || t.scalar == ScalarKind::BF16 ||
           t.scalar == ScalarKind::F32;
  };
  if ((from.isFp8() && !direct(to)) || (to.isFp8() && !direct(from)))
    halfSwap = true;
  if (halfSwap)
    e = make<typed::CastExpr>(e->type.withElement(ElementType::number(ScalarKind::F32)), range, e);
  return make<typed::CastExpr>(e->type.withElement(to), range, e);
}

bool Sema::broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                           llvm::SmallVectorImpl<int64_t> &out) const {
  size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

typed::Expr *Sema::broadcastTo(typed::Expr *e, llvm::ArrayRef<int64_t> shape, SMRange range) {
  llvm::ArrayRef<int64_t> src = e->type.shape();
  if (src == shape)
    return e;
  if (src.empty()) {
    if (auto *c = dyn_cast<typed::ConstantExpr>(e))
      return make<typed::ConstantExpr>(e->type.withShape(shape), range, c->intValue,
                                       c->floatValue);
    return make<typed::SplatExpr>(e->type.withShape(shape), range, e);
  }
  while (e->type.rank() < shape.size()) {
    llvm::SmallVector<int64_t, 4> s{1};
    s.append(e->type.shape().begin(), e->type.shape().end());
    e = make<typed::ExpandDimsExpr>(e->type.withShape(s), range, e, 0);
  }
  if (e->type.shape() != shape)
    e = make<typed::BroadcastExpr>(e->type.withShape(shape), range, e);
  return e;
}

bool Sema::checkTileSize(llvm::ArrayRef<int64_t> shape, SMRange range) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d > kMaxTileElements || n * d > kMaxTileElements) {
      diags.error(range, "a tile of shape " + shapeStr(shape) +
                             " is too large: tiles hold at most 1048576 (2^20) elements");
      return false;
    }
    n *= d;
  }
  return true;
}

typed::Expr *Sema::coerce(const Value &v, const Type &target, SMRange range) {
  if (v.isError())
    return nullptr;
  if (v.isNumber()) {
    if (target.element().isPointer) {
      diags.error(range, "expected " + target.str() + ", not " + v.describe());
      return nullptr;
    }
    return constant(v, target, range);
  }
  if (!v.isRuntime()) {
    diags.error(range, "expected a value of type " + target.str() + ", not " + v.describe());
    return nullptr;
  }
  const Type &src = v.type();
  ElementType se = src.element(), te = target.element();
  if (se.isPointer != te.isPointer || (se.isPointer && se != te)) {
    diags.error(range, "expected " + target.str() + ", not " + src.str());
    noteDefinition(v);
    return nullptr;
  }
  llvm::SmallVector<int64_t, 4> shape;
  if (!broadcastShapes(src.shape(), target.shape(), shape) ||
      llvm::ArrayRef<int64_t>(shape) != target.shape()) {
    diags.error(range, "cannot broadcast " + src.str() + " to the shape " +
                           shapeStr(target.shape()));
    noteDefinition(v);
    return nullptr;
  }
  typed::Expr *e = convertElement(v.expr, te, range);
  return broadcastTo(e, target.shape(), range);
}

mlir::tile::fp8::Format sema::fp8Format(ScalarKind k) {
  return k == ScalarKind::F8E4NV ? mlir::tile::fp8::Format::E4M3FN : mlir::tile::fp8::Format::E5M2;
}

bool Sema::rejectFp8(ElementType e, llvm::StringRef what, SMRange range) {
  if (!e.isFp8())
    return false;
  diags.error(range, what.str() + " on " + e.str() +
                         " is not supported: fp8 values are loaded, stored, converted, "
                         "selected by where and multiplied by dot; convert with .to(f16) or "
                         ".to(f32) first");
  return true;
}

bool Sema::numericOperands(const Value &l, const Value &r, llvm::StringRef opName,
                           SMRange opRange, SMRange lRange, SMRange rRange, ElementType common,
                           typed::Expr *&le, typed::Expr *&re,
                           llvm::SmallVectorImpl<int64_t> &shape) {
  llvm::ArrayRef<int64_t> ls, rs;
  if (l.isRuntime())
    ls = l.type().shape();
  if (r.isRuntime())
    rs = r.type().shape();
  if (!broadcastShapes(ls, rs, shape)) {
    diags.error(opRange, "incompatible shapes " + shapeStr(ls) + " and " + shapeStr(rs) +
                             " for '" + opName + "'");
    noteOperand(l, lRange, "the left operand");
    noteOperand(r, rRange, "the right operand");
    return false;
  }
  if (!checkTileSize(shape, opRange))
    return false;
  Type t(common, shape);
  le = l.isRuntime() ? broadcastTo(convertElement(l.expr, common, lRange), shape, lRange)
                     : constant(l, t, lRange);
  re = r.isRuntime() ? broadcastTo(convertElement(r.expr, common, rRange), shape, rRange)
                     : constant(r, t, rRange);
  return true;
}

//===----------------------------------------------------------------------===//
// Binary operators
//===----------------------------------------------------------------------===//

Value Sema::pointerArithmetic(ast::BinaryOp op, const Value &l, const Value &r,
                              SMRange opRange, SMRange lRange, SMRange rRange, SMRange whole) {
  bool lPtr = l.isRuntime() && l.type().element().isPointer;
  bool rPtr = r.isRuntime() && r.type().element().isPointer;
  auto invalid = [&]() {
    diags.error(opRange, "invalid operands to '" + ast::spelling(op) + "': " + l.describe() +
                             " and " + r.describe() +
                             " (pointers support only '+' and '-' with an integer offset)");
    noteDefinition(lPtr ? l : r);
    return Value::error();
  };
  if (lPtr && rPtr)
    return invalid();
  if (!(op == ast::BinaryOp::Add || (op == ast::BinaryOp::Sub && lPtr)))
    return invalid();
  const Value &ptr = lPtr ? l : r;
  const Value &off = lPtr ? r : l;
  SMRange offRange = lPtr ? rRange : lRange;
  typed::Expr *offset = nullptr;
  if (off.kind == Value::Kind::Int) {
    Value o = off;
    if (op == ast::BinaryOp::Sub) {
      if (o.intValue == std::numeric_limits<int64_t>::min()) {
        diags.error(offRange, "integer overflow in a constant expression");
        return Value::error();
      }
      o.intValue = -o.intValue;
    }
    offset = constant(o, Type(literalElement(o)), offRange);
  } else if (off.isRuntime() && off.type().element().isInteger() &&
             !off.type().element().isBool()) {
    offset = off.expr;
    if (bitWidth(off.type().element().scalar) < 32)
      offset = convertElement(offset, ElementType::number(ScalarKind::I32), offRange);
    if (op == ast::BinaryOp::Sub)
      offset = make<typed::UnaryExpr>(offset->type, offRange, typed::UnaryOp::Neg, offset);
  } else {
    diags.error(offRange, "pointer offsets must be integers (wider than i1), not " +
                              off.describe());
    noteDefinition(off);
    return Value::error();
  }
  llvm::SmallVector<int64_t, 4> shape;
  if (!broadcastShapes(ptr.type().shape(), offset->type.shape(), shape)) {
    diags.error(opRange, "incompatible shapes " + shapeStr(ptr.type().shape()) + " and " +
                             shapeStr(offset->type.shape()) + " for '" + ast::spelling(op) +
                             "'");
    noteOperand(l, lRange, "the left operand");
    noteOperand(r, rRange, "the right operand");
    return Value::error();
  }
  if (!checkTileSize(shape, opRange))
    return Value::error();
  typed::Expr *p = broadcastTo(ptr.expr, shape, lPtr ? lRange : rRange);
  offset = broadcastTo(offset, shape, offRange);
  return Value::runtime(make<typed::AddPtrExpr>(Type(ptr.type().element(), shape), whole, p, offset));
}

Value Sema::binary(ast::BinaryOp op, Value l, Value r, SMRange opRange, SMRange lRange,
                   SMRange rRange, SMRange whole) {
  if (l.isError() || r.isError())
    return Value::error();
  llvm::StringRef opName = ast::spelling(op);
  if (!l.isRuntime() && !r.isRuntime()) {
    if (l.isNumber() && r.isNumber())
      return foldBinary(op, l, r, opRange);
    if (op == ast::BinaryOp::Eq || op == ast::BinaryOp::Ne) {
      bool same = false;
      if (l.kind == r.kind) {
        switch (l.kind) {
        case Value::Kind::Str: same = l.str == r.str; break;
        case Value::Kind::DType:
          same = l.dtype == r.dtype && l.dtypeIsPointer == r.dtypeIsPointer;
          break;
        case Value::Kind::None: same = true; break;
        default: same = false; break;
        }
      }
      return Value::boolean(op == ast::BinaryOp::Eq ? same : !same);
    }
    if (op == ast::BinaryOp::Add && l.kind == Value::Kind::Str && r.kind == Value::Kind::Str)
      return Value::string(l.str + r.str);
    diags.error(opRange, "unsupported operands for '" + opName + "': " + l.describe() +
                             " and " + r.describe());
    return Value::error();
  }
  for (const Value *v : {&l, &r})
    if (!v->isRuntime() && !v->isNumber()) {
      diags.error(opRange, "unsupported operands for '" + opName + "': " + l.describe() +
                               " and " + r.describe());
      return Value::error();
    }
  if (op == ast::BinaryOp::Pow) {
    diags.error(opRange, "'**' works only on compile-time constants; use exp/log or "
                         "multiplication at run time");
    return Value::error();
  }
  if (op == ast::BinaryOp::MatMul) {
    diags.error(opRange, "'@' is not supported; use dot(a, b)");
    return Value::error();
  }
  if ((l.isRuntime() && l.type().element().isPointer) ||
      (r.isRuntime() && r.type().element().isPointer)) {
    if (op != ast::BinaryOp::Add && op != ast::BinaryOp::Sub) {
      diags.error(opRange, "invalid operands to '" + opName + "': " + l.describe() + " and " +
                               r.describe() +
                               " (pointers support only '+' and '-' with an integer offset)");
      return Value::error();
    }
    return pointerArithmetic(op, l, r, opRange, lRange, rRange, whole);
  }

  ElementType common = commonElement(l, r);
  bool isArith = op == ast::BinaryOp::Add || op == ast::BinaryOp::Sub ||
                 op == ast::BinaryOp::Mul || op == ast::BinaryOp::Div ||
                 op == ast::BinaryOp::FloorDiv || op == ast::BinaryOp::Mod;
  if (isArith && common.isBool())
    common = ElementType::number(ScalarKind::I32);
  switch (op) {
  case ast::BinaryOp::Div:
    if (common.isInteger())
      common = ElementType::number(ScalarKind::F32);
    break;
  case ast::BinaryOp::FloorDiv:
    if (common.isFloat()) {
      diags.error(opRange, "'//' needs integer operands, not " + Type(common).str() +
                               "; use '/' for floating-point division");
      return Value::error();
    }
    break;
  case ast::BinaryOp::BitAnd:
  case ast::BinaryOp::BitOr:
  case ast::BinaryOp::BitXor:
  case ast::BinaryOp::Shl:
  case ast::BinaryOp::Shr:
    if (common.isFloat()) {
      diags.error(opRange, "operator '" + opName + "' needs integer or boolean operands, not " +
                               (l.isRuntime() && l.type().element().isFloat() ? l : r)
                                   .describe());
      noteDefinition(l.isRuntime() && l.type().element().isFloat() ? l : r);
      return Value::error();
    }
    break;
  default:
    break;
  }

  if (rejectFp8(common, "'" + opName.str() + "'", opRange))
    return Value::error();
  typed::Expr *le = nullptr, *re = nullptr;
  llvm::SmallVector<int64_t, 4> shape;
  if (!numericOperands(l, r, opName, opRange, lRange, rRange, common, le, re, shape))
    return Value::error();

  std::optional<typed::CompareOp> cmp;
  typed::BinaryOp bop = typed::BinaryOp::Add;
  switch (op) {
  case ast::BinaryOp::Add: bop = typed::BinaryOp::Add; break;
  case ast::BinaryOp::Sub: bop = typed::BinaryOp::Sub; break;
  case ast::BinaryOp::Mul: bop = typed::BinaryOp::Mul; break;
  case ast::BinaryOp::Div:
  case ast::BinaryOp::FloorDiv: bop = typed::BinaryOp::Div; break;
  case ast::BinaryOp::Mod: bop = typed::BinaryOp::Rem; break;
  case ast::BinaryOp::BitAnd: bop = typed::BinaryOp::And; break;
  case ast::BinaryOp::BitOr: bop = typed::BinaryOp::Or; break;
  case ast::BinaryOp::BitXor: bop = typed::BinaryOp::Xor; break;
  case ast::BinaryOp::Shl: bop = typed::BinaryOp::Shl; break;
  case ast::BinaryOp::Shr: bop = typed::BinaryOp::Shr; break;
  case ast::BinaryOp::Lt: cmp = typed::CompareOp::Lt; break;
  case ast::BinaryOp::Le: cmp = typed::CompareOp::Le; break;
  case ast::BinaryOp::Gt: cmp = typed::CompareOp::Gt; break;
  case ast::BinaryOp::Ge: cmp = typed::CompareOp::Ge; break;
  case ast::BinaryOp::Eq: cmp = typed::CompareOp::Eq; break;
  case ast::BinaryOp::Ne: cmp = typed::CompareOp::Ne; break;
  default:
    return Value::error();
  }
  if (cmp)
    return Value::runtime(make<typed::CompareExpr>(
        Type(ElementType::number(ScalarKind::I1), shape), whole, *cmp, le, re));
  return Value::runtime(make<typed::BinaryExpr>(Type(common, shape), whole, bop, le, re));
}

//===----------------------------------------------------------------------===//
// Calls, attributes, subscripts
//===----------------------------------------------------------------------===//

Value Sema::castTo(const Value &v, const Value &dtype, SMRange range, SMRange dtypeRange) {
  if (v.isError() || dtype.isError())
    return Value::error();
  if (dtype.kind != Value::Kind::DType) {
    diags.error(dtypeRange, "expected a type such as f16 or i32, not " + dtype.describe());
    return Value::error();
  }
  Type scalar(dtype.dtypeElement());
  if (v.isNumber() && !scalar.element().isPointer)
    return Value::runtime(constant(v, scalar, range));
  if (v.isNumber()) // an address given as a constant: an i64 first
    return castTo(Value::runtime(constant(v, Type::scalar(ScalarKind::I64), range)), dtype, range,
                  dtypeRange);
  if (!v.isRuntime()) {
    diags.error(range, "cannot convert " + v.describe() + " to " + scalar.str());
    return Value::error();
  }
  ElementType from = v.type().element(), to = scalar.element();
  if (from.isPointer || to.isPointer) {
    // Integer <-> pointer (an address in bytes, as Triton's inttoptr / ptrtoint) and
    // pointer <-> pointer of another pointee (the same address).
    if (from == to)
      return v;
    if ((from.isPointer ? to : from).isFloat() || (from.isPointer ? to : from).isBool()) {
      diags.error(range, "cannot convert " + v.type().str() + " to " + scalar.str() +
                             ": pointers convert to and from integers (addresses), and to "
                             "other pointers");
      noteDefinition(v);
      return Value::error();
    }
    typed::Expr *x = v.expr;
    ElementType i64 = ElementType::number(ScalarKind::I64);
    if (!from.isPointer)
      x = convertElement(x, i64, range); // sign-extended, as Triton's
    else
      x = make<typed::CastExpr>(x->type.withElement(i64), range, x);
    if (to.isPointer)
      return Value::runtime(make<typed::CastExpr>(x->type.withElement(to), range, x));
    return Value::runtime(convertElement(x, to, range));
  }
  return Value::runtime(convertElement(v.expr, scalar.element(), range));
}

Value Sema::bitcastTo(const Value &v, const Value &dtype, SMRange range, SMRange dtypeRange) {
  if (v.isError() || dtype.isError())
    return Value::error();
  if (dtype.kind != Value::Kind::DType) {
    diags.error(dtypeRange, "expected a type such as f16 or i32, not " + dtype.describe());
    return Value::error();
  }
  if (dtype.dtypeIsPointer) {
    diags.error(dtypeRange, "cannot bitcast to a pointer type; use .to(" +
                                dtype.dtypeElement().str() + ") without bitcast=True");
    return Value::error();
  }
  ElementType to = ElementType::number(dtype.dtype);
  Value src = v;
  if (v.isNumber())
    src = Value::runtime(toRuntime(v, range)); // a literal is i32, i64, f32 or i1 (section 8)
  if (!src.isRuntime()) {
    diags.error(range, "cannot bitcast " + v.describe() + " to " + scalarName(dtype.dtype).str());
    return Value::error();
  }
  ElementType from = src.type().element();
  if (from.isPointer) {
    diags.error(range, "cannot bitcast pointers; only numbers are bitcast");
    noteDefinition(src);
    return Value::error();
  }
  if (from == to)
    return src;
  unsigned fromBits = bitWidth(from.scalar), toBits = bitWidth(to.scalar);
  if (fromBits != toBits || from.isBool() || to.isBool()) {
    auto bits = [](unsigned n) { return std::to_string(n) + (n == 1 ? " bit" : " bits"); };
    diags.error(range, "cannot bitcast " + src.type().str() + " (" + bits(fromBits) + ") to " +
                           scalarName(dtype.dtype) + " (" + bits(toBits) +
                           "): a bitcast keeps the width, and i1 only bitcasts to i1");
    noteDefinition(src);
    return Value::error();
  }
  return Value::runtime(make<typed::BitcastExpr>(src.type().withElement(to), range, src.expr));
}

Value Sema::convertCall(const Value &v, const Value &dtype, const Value &bitcast, SMRange range,
                        SMRange dtypeRange, SMRange bitcastRange) {
  if (bitcast.isError())
    return Value::error();
  if (bitcast.kind != Value::Kind::None && bitcast.kind != Value::Kind::Bool) {
    diags.error(bitcastRange, "bitcast must be True or False, not " + bitcast.describe());
    return Value::error();
  }
  if (bitcast.kind == Value::Kind::Bool && bitcast.intValue)
    return bitcastTo(v, dtype, range, dtypeRange);
  return castTo(v, dtype, range, dtypeRange);
}

std::optional<Value> Sema::tensorMethod(const Value &base, const ast::AttributeExpr *attr,
                                        const ast::CallExpr *call) {
  // The builtins Triton also defines as methods of its tensors (@_tensor_member_fn).
  static const llvm::StringSet<> kMethods = {
      "abs",     "exp",     "exp2",     "log",     "log2",          "sqrt",   "rsqrt",
      "sin",     "cos",     "erf",      "floor",   "ceil",          "fma",    "cdiv",
      "sigmoid", "max",     "min",      "argmax",  "argmin",        "sum",    "cumsum",
      "cumprod", "sort",    "flip",     "ravel",   "broadcast_to",  "trans",  "permute",
      "reshape", "view",    "expand_dims", "split", "associative_scan"};
  if (!kMethods.contains(attr->name) || !base.isRuntime())
    return std::nullopt;
  Value builtin = lookupBuiltin(attr->name);
  if (builtin.kind != Value::Kind::Builtin)
    return std::nullopt;
  // The object is the first argument: the same syntax node, whose value is the one
  // already computed (evaluating it again would repeat its loads and calls).
  std::vector<ast::Expr *> args;
  args.push_back(attr->base);
  args.insert(args.end(), call->args.begin(), call->args.end());
  ast::CallExpr desugared(call->range, call->callee, std::move(args), call->kwargs);
  bool fresh = preEvaluated.try_emplace(attr->base, base).second;
  // Named as Triton's function (`x.max(1)` is tl.max(x, 1), a reduction, where a bare
  // max(x, 1) is Python's element-wise one).
  Value result = builtinCall(builtin.builtin, "tl." + attr->name, &desugared);
  if (fresh)
    preEvaluated.erase(attr->base);
  return result;
}

Value Sema::call(const ast::CallExpr *e) {
  if (auto *attr = dyn_cast<ast::AttributeExpr>(e->callee)) {
    Value base = expr(attr->base);
    if (base.isError())
      return base;
    if (base.kind == Value::Kind::BlockPtr)
      return descriptorMethod(base, attr, e); // desc.load / desc.store (SemaBlockPtr.cpp)
    if (base.kind != Value::Kind::Namespace) {
      if (attr->name != "to") {
        if (std::optional<Value> r = tensorMethod(base, attr, e))
          return *r;
        if (isUnsupportedTritonName(attr->name))
          diags.error(attr->nameRange, "'" + attr->name + "' (a method of Triton's tensors) "
                                       "is not supported by tcc");
        else
          diags.error(attr->nameRange, base.describe() + " has no method '" + attr->name +
                                           "' (methods: .to() and Triton's tensor methods "
                                           "that tcc has as builtins, such as .sum(axis), "
                                           ".max(axis), .trans(), .reshape(shape))");
        return Value::error();
      }
      // x.to(dtype, fp_downcast_rounding=None, bitcast=False), as Triton's.
      const ast::Expr *given[3] = {nullptr, nullptr, nullptr}; // dtype, rounding, bitcast
      static const char *const kNames[3] = {"dtype", "fp_downcast_rounding", "bitcast"};
      bool ok = e->args.size() <= 3;
      for (size_t i = 0; i < e->args.size() && i < 3; ++i)
        given[i] = e->args[i];
      for (const ast::KeywordArg &kw : e->kwargs) {
        auto *it = llvm::find_if(kNames, [&](const char *n) { return kw.name == n; });
        if (it == std::end(kNames) || given[it - kNames])
          ok = false;
        else
          given[it - kNames] = kw.value;
      }
      if (!given[0] || !ok) {
        diags.error(e->range, ".to() takes the type and, optionally, bitcast=True: x.to(f16), "
                              "x.to(i32, bitcast=True)");
        return Value::error();
      }
      const ast::Expr *dtypeExpr = given[0], *bitcastExpr = given[2];
      Value dtype = expr(dtypeExpr);
      if (given[1]) {
        Value rounding = expr(given[1]);
        if (rounding.isError())
          return rounding;
        if (!(rounding.kind == Value::Kind::None ||
              (rounding.kind == Value::Kind::Str && rounding.str == "rtne"))) {
          diags.error(given[1]->range, ".to() fp_downcast_rounding must be None or \"rtne\" "
                                       "(round to nearest even, what conversions do), not " +
                                       rounding.describe());
          return Value::error();
        }
      }
      Value bitcast = bitcastExpr ? expr(bitcastExpr) : Value::none();
      return convertCall(base, dtype, bitcast, e->range, dtypeExpr->range,
                         bitcastExpr ? bitcastExpr->range : e->range);
    }
  }
  Value callee = expr(e->callee);
  switch (callee.kind) {
  case Value::Kind::Error:
    return callee;
  case Value::Kind::Builtin:
    return builtinCall(callee.builtin, callee.str, e);
  case Value::Kind::Function:
    if (kernelNames.count(callee.str)) {
      diags.error(e->callee->range, "cannot call the kernel '" + callee.str +
                                        "' from device code; kernels are launched from the "
                                        "host (call a helper without @kernel instead)");
      return Value::error();
    }
    return callHelper(*callee.function, e);
  case Value::Kind::DType:
    diags.error(e->callee->range, "types are not callable; convert with x.to(" +
                                      scalarName(callee.dtype) + ")");
    return Value::error();
  default:
    diags.error(e->callee->range, callee.describe() + " is not callable");
    return Value::error();
  }
}

Value Sema::attribute(const ast::AttributeExpr *e) {
  Value base = expr(e->base);
  if (base.isError())
    return base;
  if (base.kind == Value::Kind::Namespace) {
    if (base.str == "triton" && e->name == "language") {
      Value ns = base;
      ns.str = "tl";
      return ns;
    }
    // Triton's libdevice: `from triton.language.extra import libdevice` (imports are
    // ignored: `libdevice` is known), tl.extra.libdevice, tl.extra.cuda.libdevice.
    if ((base.str == "tl" && e->name == "extra") ||
        (base.str == "tl.extra" && e->name == "cuda") ||
        ((base.str == "tl.extra" || base.str == "tl.extra.cuda") && e->name == "libdevice")) {
      Value ns = base;
      ns.str = base.str + "." + e->name;
      return ns;
    }
    if (llvm::StringRef(base.str).ends_with("libdevice")) {
      const tcc::libdevice::Function *f = tcc::libdevice::lookup(e->name);
      if (!f) {
        std::string names;
        for (const tcc::libdevice::Function &k : tcc::libdevice::kFunctions)
          names += (names.empty() ? "" : ", ") + std::string(k.name);
        diags.error(e->nameRange, "'" + base.str + "." + e->name + "' is not a libdevice "
                                  "function tcc knows; it knows " + names);
        return Value::error();
      }
      Value v;
      v.kind = Value::Kind::Builtin;
      v.builtin = Builtin::Libdevice;
      v.str = base.str + "." + e->name;
      return v;
    }
    if (base.str == "tl" && e->name == "math") {
      Value ns = base;
      ns.str = "tl.math";
      return ns;
    }
    // Triton's PropagateNan enumeration, with its values (NONE = 0, ALL = 0xFFFF).
    if (base.str == "PropagateNan" || base.str == "tl.PropagateNan") {
      if (e->name == "NONE")
        return Value::integer(0);
      if (e->name == "ALL")
        return Value::integer(0xFFFF);
      diags.error(e->nameRange, "'" + base.str + "' has no member '" + e->name +
                                    "' (it has NONE and ALL)");
      return Value::error();
    }
    // tl.math.*: the math functions tcc has, under Triton's names.
    static const char *const kMath[] = {"exp",  "exp2", "log",     "log2",    "sqrt",
                                        "rsqrt", "abs", "sin",     "cos",     "sigmoid",
                                        "maximum", "minimum", "clamp", "floor", "ceil",
                                        "erf",   "tanh",  "fma",  "cdiv"};
    auto mathNames = [&] {
      std::string names;
      for (const char *m : kMath)
        if (!lookupBuiltin(m).isError())
          names += (names.empty() ? "" : ", ") + std::string(m);
      return names;
    };
    Value b = lookupBuiltin(e->name);
    if (base.str == "tl.math" && !llvm::is_contained(kMath, llvm::StringRef(e->name)))
      b = Value::error();
    if (b.isError() || (b.kind == Value::Kind::Namespace && b.str != "PropagateNan")) {
      if (base.str == "tl.math")
        diags.error(e->nameRange, "'tl.math." + e->name + "' is not supported by tcc; its math "
                                  "functions are " + mathNames());
      else if (llvm::StringRef(e->name).starts_with("float8"))
        diags.error(e->nameRange, "'" + base.str + "." + e->name + "' is not supported by tcc; "
                                  "its fp8 types are float8e4nv (f8e4nv) and float8e5 (f8e5)");
      else if (isUnsupportedTritonName(e->name))
        diags.error(e->nameRange, "'" + base.str + "." + e->name + "' is not supported by tcc");
      else
        diags.error(e->nameRange, "'" + base.str + "' has no member '" + e->name + "'");
      return Value::error();
    }
    if (b.kind == Value::Kind::Builtin)
      b.str = base.str + "." + e->name; // messages say what was written: tl.max()
    if (b.kind == Value::Kind::Namespace && b.str == "PropagateNan")
      b.str = base.str + ".PropagateNan";
    return b;
  }
  if (base.kind == Value::Kind::DType) {
    // Types as values, at compile time: a pointer type's element type; what a type is.
    ElementType el = base.dtypeElement();
    if (e->name == "element_ty") {
      if (!el.isPointer) {
        diags.error(e->nameRange, "the type " + el.str() + " has no element_ty: only pointer "
                                  "types (tl.pointer_type(T), a pointer's .dtype) have one");
        return Value::error();
      }
      return Value::dtypeOf(el.scalar);
    }
    if (e->name == "primitive_bitwidth") {
      if (el.isPointer)
        return Value::integer(64);
      return Value::integer(bitWidth(el.scalar));
    }
  }
  if (base.isRuntime()) {
    const Type &t = base.type();
    if (e->name == "shape") {
      std::vector<Value> dims;
      for (int64_t d : t.shape())
        dims.push_back(Value::integer(d));
      return Value::tuple(std::move(dims));
    }
    if (e->name == "dtype") // a pointer's is its pointer type: .dtype.element_ty is the pointee
      return Value::dtypeOf(t.element());
    if (e->name == "to") {
      diags.error(e->range, "'.to' must be called with a type: x.to(f16)");
      return Value::error();
    }
    if (e->name == "T")
      return permuteDims(base, {}, e->range, e->nameRange, ".T");
  }
  diags.error(e->nameRange, base.describe() + " has no attribute '" + e->name + "'");
  return Value::error();
}

Value Sema::subscript(const ast::SubscriptExpr *e) {
  Value base = expr(e->base);
  if (base.isError())
    return base;
  if (base.kind == Value::Kind::Tuple) {
    if (e->indices.size() != 1 || isa<ast::SliceExpr>(e->indices[0])) {
      diags.error(e->range, "a tuple is indexed with a single integer");
      return Value::error();
    }
    Value i = expr(e->indices[0]);
    if (i.isError())
      return i;
    std::optional<int64_t> idx = constantInt(i, e->indices[0]->range, "a tuple index");
    if (!idx)
      return Value::error();
    int64_t n = base.elements.size();
    int64_t k = *idx < 0 ? *idx + n : *idx;
    if (k < 0 || k >= n) {
      diags.error(e->indices[0]->range, "tuple index " + llvm::Twine(*idx) +
                                            " is out of range (the tuple has " +
                                            llvm::Twine(n) + " elements)");
      return Value::error();
    }
    return base.elements[k];
  }
  if (!base.isRuntime() || !base.type().isTile()) {
    diags.error(e->range, "cannot subscript " + base.describe() +
                              " (only tiles, with ':' and None, and tuples)");
    noteDefinition(base);
    return Value::error();
  }
  unsigned rank = base.type().rank();
  unsigned kept = 0;
  std::vector<bool> isNewAxis;
  for (const ast::Expr *idx : e->indices) {
    if (isa<ast::NoneLitExpr>(idx)) {
      isNewAxis.push_back(true);
      continue;
    }
    if (auto *s = dyn_cast<ast::SliceExpr>(idx)) {
      if (s->lo || s->hi || s->step) {
        diags.error(idx->range, "slicing a tile with bounds is not supported; subscripts take "
                                "only ':' (keep an axis) and None (add an axis)");
        return Value::error();
      }
      isNewAxis.push_back(false);
      ++kept;
      continue;
    }
    Value v = expr(idx);
    if (v.isError())
      return v;
    if (v.kind == Value::Kind::None) {
      isNewAxis.push_back(true);
      continue;
    }
    diags.error(idx->range, "tiles cannot be indexed element by element; subscripts take only "
                            "':' (keep an axis) and None (add an axis)");
    return Value::error();
  }
  if (kept > rank) {
    diags.error(e->range, "too many ':' in the subscript: " + base.type().str() + " has rank " +
                              llvm::Twine(rank));
    noteDefinition(base);
    return Value::error();
  }
  while (kept < rank) {
    isNewAxis.push_back(false);
    ++kept;
  }
  typed::Expr *x = base.expr;
  for (unsigned axis = 0; axis < isNewAxis.size(); ++axis) {
    if (!isNewAxis[axis])
      continue;
    llvm::SmallVector<int64_t, 4> shape(x->type.shape().begin(), x->type.shape().end());
    shape.insert(shape.begin() + axis, 1);
    x = make<typed::ExpandDimsExpr>(x->type.withShape(shape), e->range, x, axis);
  }
  return Value::runtime(x);
}
