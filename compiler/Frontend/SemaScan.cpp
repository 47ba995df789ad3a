//===- SemaScan.cpp - cumsum, cumprod and associative_scan ---------------===//
//
// A scan is a typed::ScanStmt: its tiles, and its combining function elaborated once on
// scalars into a body of its own (tile.scan's region). cumsum and cumprod synthesise the
// body (an add, a multiply); associative_scan inlines the combine_fn helper on scalar
// parameters of the tiles' element types, then checks that what it computes is values only:
// no loads, stores, atomics, prints, runtime control flow or tiles.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

namespace tcc {
namespace sema {
namespace {

/// The first thing in `e` a scan's combining function may not compute, or null.
const typed::Expr *impureExpr(const typed::Expr *e) {
  if (!e)
    return nullptr;
  if (e->type.isTile())
    return e;
  using K = typed::Expr::Kind;
  switch (e->getKind()) {
  case K::Load:
  case K::AtomicAdd:
  case K::Atomic:
    return e;
  case K::Constant:
  case K::VarRef:
  case K::ProgramId:
  case K::NumPrograms:
  case K::Arange:
    return nullptr;
  case K::Unary:
    return impureExpr(cast<typed::UnaryExpr>(e)->operand);
  case K::Binary: {
    auto *b = cast<typed::BinaryExpr>(e);
    if (const typed::Expr *bad = impureExpr(b->lhs))
      return bad;
    return impureExpr(b->rhs);
  }
  case K::Compare: {
    auto *c = cast<typed::CompareExpr>(e);
    if (const typed::Expr *bad = impureExpr(c->lhs))
      return bad;
    return impureExpr(c->rhs);
  }
  case K::AddPtr:
    return e; // pointers have no place in a scan
  case K::Cast:
    return impureExpr(cast<typed::CastExpr>(e)->operand);
  case K::Bitcast:
    return impureExpr(cast<typed::BitcastExpr>(e)->operand);
  case K::Select: {
    auto *s = cast<typed::SelectExpr>(e);
    for (const typed::Expr *x : {s->cond, s->trueValue, s->falseValue})
      if (const typed::Expr *bad = impureExpr(x))
        return bad;
    return nullptr;
  }
  case K::Math: {
    auto *m = cast<typed::MathExpr>(e);
    for (const typed::Expr *x : {m->operand, m->second, m->third})
      if (const typed::Expr *bad = impureExpr(x))
        return bad;
    return nullptr;
  }
  case K::Extern:
    for (const typed::Expr *x : cast<typed::ExternExpr>(e)->args)
      if (const typed::Expr *bad = impureExpr(x))
        return bad;
    return nullptr;
  case K::Hint:
    return impureExpr(cast<typed::HintExpr>(e)->operand);
  case K::Splat:
  case K::Broadcast:
  case K::ExpandDims:
  case K::Reduce:
  case K::Dot:
  case K::Trans:
  case K::PermuteXor:
  case K::Reshape:
    return e; // tiles (caught above unless the result is a scalar)
  }
  return e;
}

/// The first statement of `body` a combining function may not hold (with `bad` the
/// expression at fault, if any), or null.
const typed::Stmt *impureStmt(const typed::Block &body, const typed::Expr *&bad) {
  for (const typed::Stmt *s : body) {
    if (auto *let = dyn_cast<typed::LetStmt>(s)) {
      if ((bad = impureExpr(let->value)))
        return s;
      continue;
    }
    if (auto *in = dyn_cast<typed::InlineStmt>(s)) {
      if (const typed::Stmt *inner = impureStmt(in->body, bad))
        return inner;
      continue;
    }
    bad = nullptr;
    return s;
  }
  return nullptr;
}

} // namespace

Value Sema::scanCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  bool isGeneric = b == Builtin::AssociativeScan;
  std::vector<Value> a;
  std::vector<SMRange> r;
  // associative_scan(input, axis, combine_fn, reverse=False);
  // cumsum(input, axis=0, reverse=False, dtype=None); cumprod(input, axis=0, reverse=False).
  bool bound = isGeneric ? bindArguments(call, name, {"input", "axis", "combine_fn", "reverse"},
                                         3, a, r)
               : b == Builtin::Cumsum
                   ? bindArguments(call, name, {"input", "axis", "reverse", "dtype"}, 1, a, r)
                   : bindArguments(call, name, {"input", "axis", "reverse"}, 1, a, r);
  if (!bound)
    return Value::error();
  const Value &reverseArg = isGeneric ? a[3] : a[2];
  SMRange reverseRange = isGeneric ? r[3] : r[2];

  // The tiles: one, or a tuple of tiles of one shape (associative_scan only).
  bool isTuple = a[0].kind == Value::Kind::Tuple;
  if (isTuple && !isGeneric) {
    diags.error(r[0], name + "() scans one tile, not a tuple; associative_scan() takes tuples");
    return Value::error();
  }
  std::vector<Value> inputs = isTuple ? a[0].elements : std::vector<Value>{a[0]};
  if (inputs.empty()) {
    diags.error(r[0], name + "() needs at least one tile to scan, not an empty tuple");
    return Value::error();
  }
  for (const Value &x : inputs) {
    if (x.isError())
      return Value::error();
    if (!x.isRuntime() || !x.type().isTile()) {
      diags.error(r[0], name + "() scans a tile, but " +
                            (isTuple ? "an element of its input" : "its input") + " is " +
                            x.describe());
      noteDefinition(x);
      return Value::error();
    }
    if (x.type().element().isPointer) {
      diags.error(r[0], name + "() cannot scan pointers");
      noteDefinition(x);
      return Value::error();
    }
    if (rejectFp8(x.type().element(), (name + "()").str(), r[0]))
      return Value::error();
    if (x.type().shape() != inputs.front().type().shape()) {
      diags.error(r[0], name + "() scans tiles of one shape, but its input holds " +
                            inputs.front().type().str() + " and " + x.type().str());
      return Value::error();
    }
  }
  unsigned rank = inputs.front().type().rank();

  // The axis: a constant, negative counting from the end.
  int64_t axisValue = 0;
  if (a[1].kind != Value::Kind::None || isGeneric) {
    std::optional<int64_t> axis = constantInt(a[1], r[1], "the axis of " + name.str() + "()");
    if (!axis)
      return Value::error();
    axisValue = *axis;
  }
  int64_t ax = axisValue < 0 ? axisValue + rank : axisValue;
  if (ax < 0 || ax >= int64_t(rank)) {
    diags.error(r[1], "axis " + llvm::Twine(axisValue) + " is out of range for " +
                          inputs.front().type().str() + " (rank " + llvm::Twine(rank) + ")");
    noteDefinition(inputs.front());
    return Value::error();
  }

  bool reverse = false;
  if (reverseArg.kind != Value::Kind::None) {
    if (reverseArg.kind != Value::Kind::Bool &&
        !(reverseArg.kind == Value::Kind::Int && (reverseArg.intValue == 0 ||
                                                  reverseArg.intValue == 1))) {
      diags.error(reverseRange, "reverse must be True or False, not " + reverseArg.describe());
      return Value::error();
    }
    reverse = reverseArg.intValue != 0;
  }

  // The element types scanned: cumsum sums small integers in i32 (Triton's
  // _pick_sum_dtype, which takes i1 as unsigned: 0 or 1) or in dtype=; cumprod
  // multiplies bf16 in f32 (Triton's _promote_bfloat16_to_float32).
  std::vector<typed::Expr *> operands;
  for (const Value &x : inputs)
    operands.push_back(x.expr);
  if (b == Builtin::Cumsum) {
    ElementType elem = operands[0]->type.element();
    if (a[3].kind != Value::Kind::None) {
      std::optional<ScalarKind> dtype = dtypeArgument(a[3], r[3]);
      if (!dtype)
        return Value::error();
      if (isFp8(*dtype)) {
        diags.error(r[3], name + "() cannot sum in an fp8 type");
        return Value::error();
      }
      if (ElementType::number(*dtype) != elem)
        operands[0] = convertElement(operands[0], ElementType::number(*dtype), r[0]);
    } else if (elem.isInteger() && bitWidth(elem.scalar) < 32) {
      operands[0] = convertElement(operands[0], ElementType::number(ScalarKind::I32), r[0]);
    }
  } else if (b == Builtin::Cumprod && operands[0]->type.element().scalar == ScalarKind::BF16) {
    operands[0] = convertElement(operands[0], ElementType::number(ScalarKind::F32), r[0]);
  }

  size_t n = operands.size();
  auto *scan = make<typed::ScanStmt>(call->range, unsigned(ax), reverse);
  scan->operands = operands;
  std::vector<Value> params;
  for (size_t i = 0; i < 2 * n; ++i) {
    const typed::Expr *op = operands[i % n];
    std::string pname = (i < n ? "scan.a" : "scan.b") + (n == 1 ? "" : std::to_string(i % n));
    typed::Variable *v = newVariable(pname, Type(op->type.element()), call->range);
    scan->params.push_back(v);
    params.push_back(Value::runtime(make<typed::VarRefExpr>(v, call->range)));
  }

  if (!isGeneric) {
    scan->combiner = b == Builtin::Cumsum ? "add" : "mul";
    Type t = scan->params[0]->type;
    typed::BinaryOp op = b == Builtin::Cumsum ? typed::BinaryOp::Add : typed::BinaryOp::Mul;
    // i1 products are "and", as arith.muli on i1 is.
    scan->yields.push_back(make<typed::BinaryExpr>(t, call->range, op, params[0].expr,
                                                   params[1].expr));
  } else {
    const Value &fnValue = a[2];
    if (fnValue.kind != Value::Kind::Function) {
      diags.error(r[2], "combine_fn of associative_scan() must be a function (a helper taking " +
                            llvm::Twine(2 * n) + " scalars), not " + fnValue.describe());
      noteDefinition(fnValue);
      return Value::error();
    }
    if (kernelNames.count(fnValue.str)) {
      diags.error(r[2], "combine_fn of associative_scan() cannot be the kernel '" + fnValue.str +
                            "'");
      return Value::error();
    }
    const ast::FunctionDef &fn = *fnValue.function;
    scan->combiner = fn.name;
    if (fn.params.size() != 2 * n) {
      diags.error(r[2], "combine_fn '" + fn.name + "' takes " + llvm::Twine(fn.params.size()) +
                            " parameter" + (fn.params.size() == 1 ? "" : "s") + ", but a scan of " +
                            llvm::Twine(n) + " tile" + (n == 1 ? "" : "s") + " calls it with " +
                            llvm::Twine(2 * n) +
                            " (the earlier part's scalars, then the later part's)");
      diags.note(fn.headerRange, "'" + fn.name + "' is defined here");
      return Value::error();
    }
    if (inlineDepth >= kMaxInlineDepth) {
      diags.error(call->range, "helper calls nest more than " + llvm::Twine(kMaxInlineDepth) +
                                   " deep; is '" + fn.name + "' recursive?");
      return Value::error();
    }
    typed::Block *outer = block;
    block = &scan->body;
    Value result = inlineHelper(fn, params, std::vector<SMRange>(2 * n, call->range), call->range);
    block = outer;
    if (result.isError())
      return Value::error();
    std::vector<Value> returned =
        result.kind == Value::Kind::Tuple ? result.elements : std::vector<Value>{result};
    if (returned.size() != n || (n > 1 && result.kind != Value::Kind::Tuple)) {
      diags.error(call->range, "combine_fn '" + fn.name + "' returns " + result.describe() +
                                   "; a scan of " + llvm::Twine(n) + " tile" +
                                   (n == 1 ? "" : "s") + " needs " +
                                   (n == 1 ? "one scalar" : llvm::Twine(n).str() + " scalars") +
                                   " back");
      diags.note(fn.headerRange, "'" + fn.name + "' is defined here");
      return Value::error();
    }
    const typed::Expr *badExpr = nullptr;
    if (const typed::Stmt *bad = impureStmt(scan->body, badExpr)) {
      SMRange where = badExpr ? badExpr->range : bad->range;
      diags.error(where, "combine_fn '" + fn.name + "' of associative_scan() may only compute "
                         "values from its scalar arguments: " +
                             (badExpr && badExpr->type.isTile()
                                  ? "this makes a tile"
                                  : badExpr ? "this reads or writes memory"
                                            : "no stores, prints, asserts or runtime control "
                                              "flow (use where() for a choice)"));
      diags.note(call->range, "scanned here");
      return Value::error();
    }
    // A stable typing rule: the function must give back the element types it was given.
    // Constants take those types.
    for (size_t i = 0; i < n; ++i) {
      Type want = scan->params[i]->type;
      const Value &v = returned[i];
      if (v.isNumber()) {
        typed::Block *saved = block;
        block = &scan->body;
        scan->yields.push_back(coerce(v, want, call->range));
        block = saved;
        continue;
      }
      if (!v.isRuntime() || v.type() != want) {
        diags.error(call->range, "combine_fn '" + fn.name + "' returns " + v.describe() +
                                     (n > 1 ? " as its value " + llvm::Twine(i).str() : "") +
                                     " for a scan of " + want.str() +
                                     ": it must return the type it is given (convert with .to())");
        diags.note(fn.headerRange, "'" + fn.name + "' is defined here");
        return Value::error();
      }
      scan->yields.push_back(v.expr);
    }
    for (const typed::Expr *y : scan->yields)
      if (const typed::Expr *bad = impureExpr(y)) {
        diags.error(bad->range, "combine_fn '" + fn.name + "' of associative_scan() may only "
                                "compute scalar values from its arguments");
        return Value::error();
      }
  }

  std::vector<Value> results;
  for (size_t i = 0; i < n; ++i) {
    llvm::StringRef base = isGeneric ? llvm::StringRef("scan") : name.substr(name.rfind('.') + 1);
    typed::Variable *v = newVariable(base, operands[i]->type, call->range);
    scan->results.push_back(v);
    results.push_back(Value::runtime(make<typed::VarRefExpr>(v, call->range)));
  }
  emit(scan);
  if (!isTuple)
    return results.front();
  return Value::tuple(std::move(results));
}

} // namespace sema
} // namespace tcc
