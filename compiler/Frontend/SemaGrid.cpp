//===- SemaGrid.cpp - The grid of a kernel --------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <cmath>

using namespace tcc;
using namespace tcc::sema;

//===----------------------------------------------------------------------===//
// The grid: expressions over the kernel's integer arguments, written in the
// tiny language of docs/ir.md with constexprs substituted and constant parts
// folded.
//===----------------------------------------------------------------------===//

namespace {
enum GridPrec { Atom = 0, Unary = 1, Mul = 2, Add = 3 };
}

static std::string parenthesize(const GridTerm &t, int limit, bool strict) {
  bool need = strict ? t.precedence >= limit : t.precedence > limit;
  return need ? "(" + t.text + ")" : t.text;
}

static GridTerm gridConstant(int64_t v) {
  GridTerm t;
  t.value = v;
  t.text = std::to_string(v);
  t.precedence = v < 0 ? Unary : Atom;
  return t;
}

bool Sema::gridTerm(const ast::Expr *e, GridTerm &out) {
  auto unsupported = [&](const ast::Expr *at) {
    diags.error(at->range, "the grid may only use integer constants, integer parameters, "
                           "num_sms, occupancy, + - * // %, cdiv(), min() and max()");
    return false;
  };
  if (auto *n = dyn_cast<ast::NameExpr>(e)) {
    // The device's symbols, known at launch: its SM count and how many programs of this
    // kernel (the variant launched) fit on one SM. A parameter or constexpr of that name
    // wins.
    if (n->name == "num_sms" || n->name == "occupancy") {
      bool shadowed = llvm::any_of(kernel->arguments,
                                   [&](const typed::Variable *a) { return a->name == n->name; }) ||
                      llvm::any_of(kernel->constexprs, [&](const typed::ConstexprValue &c) {
                        return c.name == n->name;
                      });
      if (!shadowed) {
        out.text = n->name;
        out.precedence = Atom;
        out.value.reset();
        return true;
      }
    }
    Value v = lookup(n);
    if (v.isError())
      return false;
    if (v.isIntLike()) {
      out = gridConstant(v.intValue);
      return true;
    }
    if (v.isRuntime()) {
      auto *ref = dyn_cast<typed::VarRefExpr>(v.expr);
      bool isArg = ref && llvm::is_contained(kernel->arguments, ref->var);
      if (!isArg) {
        diags.error(e->range, "the grid can only use the kernel's parameters");
        return false;
      }
      if (!v.type().element().isInteger() || v.type().isTile()) {
        diags.error(e->range, "the grid can only use integer parameters; '" + n->name +
                                  "' is " + v.type().str());
        return false;
      }
      out.text = n->name;
      out.precedence = Atom;
      out.value.reset();
      return true;
    }
    diags.error(e->range, "'" + n->name + "' (" + v.describe() + ") cannot be used in the grid");
    return false;
  }
  if (auto *lit = dyn_cast<ast::IntLitExpr>(e)) {
    if (lit->value > uint64_t(INT64_MAX))
      return unsupported(e);
    out = gridConstant(int64_t(lit->value));
    return true;
  }
  if (auto *u = dyn_cast<ast::UnaryExpr>(e)) {
    if (u->op == ast::UnaryOp::Pos)
      return gridTerm(u->operand, out);
    if (u->op != ast::UnaryOp::Neg)
      return unsupported(e);
    GridTerm inner;
    if (!gridTerm(u->operand, inner))
      return false;
    if (inner.value && *inner.value != INT64_MIN) {
      out = gridConstant(-*inner.value);
      return true;
    }
    // "-(-K)", never "--K" (which C++ would read as a decrement).
    out.text = "-" + parenthesize(inner, Unary, true);
    out.precedence = Unary;
    out.value.reset();
    return true;
  }
  if (auto *b = dyn_cast<ast::BinaryExpr>(e)) {
    const char *op = nullptr;
    int prec = Add;
    switch (b->op) {
    case ast::BinaryOp::Add: op = "+"; break;
    case ast::BinaryOp::Sub: op = "-"; break;
    case ast::BinaryOp::Mul: op = "*"; prec = Mul; break;
    case ast::BinaryOp::FloorDiv: op = "//"; prec = Mul; break;
    case ast::BinaryOp::Mod: op = "%"; prec = Mul; break;
    case ast::BinaryOp::Div:
      diags.error(b->opRange, "use '//' or cdiv() in the grid: grid sizes are integers");
      return false;
    default:
      return unsupported(e);
    }
    GridTerm l, r;
    if (!gridTerm(b->lhs, l) || !gridTerm(b->rhs, r))
      return false;
    if (l.value && r.value) {
      Value folded = foldBinary(b->op, Value::integer(*l.value), Value::integer(*r.value),
                                b->opRange);
      if (folded.kind != Value::Kind::Int)
        return false;
      out = gridConstant(folded.intValue);
      return true;
    }
    out.text = parenthesize(l, prec, false) + " " + op + " " + parenthesize(r, prec, true);
    out.precedence = prec;
    out.value.reset();
    return true;
  }
  if (auto *c = dyn_cast<ast::CallExpr>(e)) {
    std::string name = dottedName(c->callee);
    for (llvm::StringRef prefix : {"triton.language.", "triton.", "tl."})
      if (llvm::StringRef(name).starts_with(prefix)) {
        name = name.substr(prefix.size());
        break;
      }
    if (name != "cdiv" && name != "min" && name != "max")
      return unsupported(e);
    if (c->args.size() != 2 || !c->kwargs.empty()) {
      diags.error(c->range, name + "() in the grid takes exactly two arguments");
      return false;
    }
    GridTerm l, r;
    if (!gridTerm(c->args[0], l) || !gridTerm(c->args[1], r))
      return false;
    if (l.value && r.value) {
      int64_t a = *l.value, bv = *r.value;
      if (name == "cdiv") {
        if (bv == 0) {
          diags.error(c->range, "division by zero in the grid");
          return false;
        }
        // Exact ceiling with C-style truncating division underneath.
        int64_t q = a / bv, rem = a % bv;
        out = gridConstant(q + ((rem != 0 && ((rem > 0) == (bv > 0))) ? 1 : 0));
      } else {
        out = gridConstant(name == "min" ? std::min(a, bv) : std::max(a, bv));
      }
      return true;
    }
    out.text = name + "(" + l.text + ", " + r.text + ")";
    out.precedence = Atom;
    out.value.reset();
    return true;
  }
  return unsupported(e);
}
