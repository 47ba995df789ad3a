//===- ASTPrinter.cpp - The --emit=ast dump of the typed AST -------------===//
//
// One node per line, children indented by two spaces. Expressions end with
// `: type` and every node with `<line:col>` of the source it came from, so the
// dump shows exactly what Sema decided: promotions, broadcasts, inlined helpers.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/TypedAST.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace tcc;
using namespace tcc::typed;
using llvm::cast;

llvm::StringRef typed::spelling(ReduceKind k) {
  switch (k) {
  case ReduceKind::Sum: return "sum";
  case ReduceKind::Max: return "max";
  case ReduceKind::Min: return "min";
  case ReduceKind::ArgMax: return "argmax";
  case ReduceKind::ArgMin: return "argmin";
  }
  return "?";
}

llvm::StringRef typed::spelling(MathFn f) {
  switch (f) {
  case MathFn::Exp: return "exp";
  case MathFn::Exp2: return "exp2";
  case MathFn::Log: return "log";
  case MathFn::Log2: return "log2";
  case MathFn::Sqrt: return "sqrt";
  case MathFn::Rsqrt: return "rsqrt";
  case MathFn::Abs: return "abs";
  case MathFn::Sin: return "sin";
  case MathFn::Cos: return "cos";
  case MathFn::Sigmoid: return "sigmoid";
  case MathFn::Tanh: return "tanh";
  case MathFn::Erf: return "erf";
  case MathFn::Floor: return "floor";
  case MathFn::Ceil: return "ceil";
  case MathFn::Fma: return "fma";
  }
  return "?";
}

static std::string formatFloat(double v) {
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  if (std::isnan(v))
    return "nan";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.9g", v);
  os.flush();
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s;
}

std::string ConstexprValue::str() const {
  switch (kind) {
  case Kind::Int: return std::to_string(intValue);
  case Kind::Float: return formatFloat(floatValue);
  case Kind::Bool: return intValue ? "True" : "False";
  case Kind::DType: return scalarName(dtype).str();
  case Kind::String: return "\"" + stringValue + "\"";
  }
  return "?";
}

namespace {
class Printer {
public:
  Printer(const llvm::SourceMgr &sm, llvm::raw_ostream &os) : sm(sm), os(os) {}

  void kernel(const Kernel &k) {
    os << "kernel " << k.name << loc(k.range) << "\n";
    os << "  grid [\"" << k.grid[0] << "\", \"" << k.grid[1] << "\", \"" << k.grid[2]
       << "\"] num_warps " << k.numWarps << "\n";
    for (const ConstexprValue &c : k.constexprs)
      os << "  constexpr " << c.name << " = " << c.str() << "\n";
    for (const Variable *a : k.arguments)
      os << "  arg " << a->name << " : " << a->type.str() << loc(a->range) << "\n";
    block(k.body, 1);
  }

private:
  std::string loc(llvm::SMRange r) const {
    if (!r.Start.isValid())
      return "";
    unsigned id = sm.FindBufferContainingLoc(r.Start);
    if (!id)
      return "";
    auto [line, col] = sm.getLineAndColumn(r.Start, id);
    return " <" + std::to_string(line) + ":" + std::to_string(col) + ">";
  }

  void indent(unsigned depth) {
    for (unsigned i = 0; i < depth; ++i)
      os << "  ";
  }

  void block(const Block &b, unsigned depth) {
    for (const Stmt *s : b)
      stmt(s, depth);
  }

  void stmt(const Stmt *s, unsigned depth) {
    indent(depth);
    switch (s->getKind()) {
    case Stmt::Kind::Let: {
      auto *l = cast<LetStmt>(s);
      os << "let " << l->var->name << " : " << l->var->type.str() << loc(s->range) << "\n";
      expr(l->value, depth + 1, "");
      return;
    }
    case Stmt::Kind::Store: {
      auto *st = cast<StoreStmt>(s);
      os << "store" << loc(s->range) << "\n";
      expr(st->ptr, depth + 1, "ptr ");
      expr(st->value, depth + 1, "value ");
      if (st->mask)
        expr(st->mask, depth + 1, "mask ");
      return;
    }
    case Stmt::Kind::Print: {
      auto *p = cast<PrintStmt>(s);
      os << "print \"";
      os.write_escaped(p->prefix);
      os << "\"" << loc(s->range) << "\n";
      for (const Expr *a : p->args)
        expr(a, depth + 1, "");
      return;
    }
    case Stmt::Kind::Barrier:
      os << "debug_barrier" << loc(s->range) << "\n";
      return;
    case Stmt::Kind::Assume:
      if (cast<AssumeStmt>(s)->isAssert)
        os << "device_assert \"" << cast<AssumeStmt>(s)->message << "\"" << loc(s->range) << "\n";
      else
        os << "assume" << loc(s->range) << "\n";
      expr(cast<AssumeStmt>(s)->cond, depth + 1, "");
      return;
    case Stmt::Kind::For: {
      auto *f = cast<ForStmt>(s);
      os << "for " << f->inductionVar->name << " : i32" << loc(s->range) << "\n";
      expr(f->lower, depth + 1, "lower ");
      expr(f->upper, depth + 1, "upper ");
      expr(f->step, depth + 1, "step ");
      for (const LoopCarried &c : f->carried) {
        indent(depth + 1);
        os << "carried " << c.arg->name << " -> " << c.result->name << " : "
           << c.arg->type.str() << "\n";
        expr(c.init, depth + 2, "init ");
      }
      indent(depth + 1);
      os << "body\n";
      block(f->body, depth + 2);
      for (const LoopCarried &c : f->carried)
        expr(c.next, depth + 2, "yield ");
      return;
    }
    case Stmt::Kind::While: {
      auto *w = cast<WhileStmt>(s);
      os << "while" << loc(s->range) << "\n";
      for (size_t i = 0; i < w->carried.size(); ++i) {
        const LoopCarried &c = w->carried[i];
        indent(depth + 1);
        os << "carried " << c.arg->name << ", " << w->bodyArgs[i]->name << " -> "
           << c.result->name << " : " << c.arg->type.str() << "\n";
        expr(c.init, depth + 2, "init ");
      }
      indent(depth + 1);
      os << "before\n";
      block(w->condBody, depth + 2);
      expr(w->cond, depth + 2, "cond ");
      indent(depth + 1);
      os << "body\n";
      block(w->body, depth + 2);
      for (const LoopCarried &c : w->carried)
        expr(c.next, depth + 2, "yield ");
      return;
    }
    case Stmt::Kind::If: {
      auto *i = cast<IfStmt>(s);
      os << "if" << loc(s->range) << "\n";
      expr(i->cond, depth + 1, "cond ");
      for (const IfResult &r : i->results) {
        indent(depth + 1);
        os << "result " << r.result->name << " : " << r.result->type.str() << "\n";
      }
      indent(depth + 1);
      os << "then\n";
      block(i->thenBody, depth + 2);
      for (const IfResult &r : i->results)
        expr(r.thenValue, depth + 2, "yield ");
      if (!i->elseBody.empty() || !i->results.empty()) {
        indent(depth + 1);
        os << "else\n";
        block(i->elseBody, depth + 2);
        for (const IfResult &r : i->results)
          expr(r.elseValue, depth + 2, "yield ");
      }
      return;
    }
    case Stmt::Kind::Scan: {
      auto *sc = cast<ScanStmt>(s);
      os << "scan " << sc->combiner << " axis " << sc->axis << (sc->reverse ? " reverse" : "")
         << loc(s->range) << "\n";
      for (const Expr *e : sc->operands)
        expr(e, depth + 1, "operand ");
      indent(depth + 1);
      os << "combine";
      for (const Variable *p : sc->params)
        os << " " << p->name << " : " << p->type.str();
      os << "\n";
      block(sc->body, depth + 2);
      for (const Expr *e : sc->yields)
        expr(e, depth + 2, "yield ");
      for (const Variable *r : sc->results) {
        indent(depth + 1);
        os << "result " << r->name << " : " << r->type.str() << "\n";
      }
      return;
    }
    case Stmt::Kind::Inline: {
      auto *in = cast<InlineStmt>(s);
      os << "inline " << in->callee << loc(s->range) << "\n";
      block(in->body, depth + 1);
      return;
    }
    }
  }

  static const char *binaryName(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add: return "add";
    case BinaryOp::Sub: return "sub";
    case BinaryOp::Mul: return "mul";
    case BinaryOp::Div: return "div";
    case BinaryOp::Rem: return "rem";
    case BinaryOp::And: return "and";
    case BinaryOp::Or: return "or";
    case BinaryOp::Xor: return "xor";
    case BinaryOp::Shl: return "shl";
    case BinaryOp::Shr: return "shr";
    case BinaryOp::Min: return "min";
    case BinaryOp::Max: return "max";
    case BinaryOp::MinNaN: return "min_nan";
    case BinaryOp::MaxNaN: return "max_nan";
    }
    return "?";
  }

  static const char *compareName(CompareOp op) {
    switch (op) {
    case CompareOp::Lt: return "lt";
    case CompareOp::Le: return "le";
    case CompareOp::Gt: return "gt";
    case CompareOp::Ge: return "ge";
    case CompareOp::Eq: return "eq";
    case CompareOp::Ne: return "ne";
    }
    return "?";
  }

  void head(const Expr *e, unsigned depth, llvm::StringRef label, const llvm::Twine &text) {
    indent(depth);
    os << label << text << " : " << e->type.str() << loc(e->range) << "\n";
  }

  void expr(const Expr *e, unsigned depth, llvm::StringRef label) {
    switch (e->getKind()) {
    case Expr::Kind::Constant: {
      auto *c = cast<ConstantExpr>(e);
      std::string v = c->type.element().isFloat() ? formatFloat(c->floatValue)
                                                  : std::to_string(c->intValue);
      head(e, depth, label, "const " + v);
      return;
    }
    case Expr::Kind::VarRef:
      head(e, depth, label, "var " + cast<VarRefExpr>(e)->var->name);
      return;
    case Expr::Kind::Unary: {
      auto *u = cast<UnaryExpr>(e);
      head(e, depth, label, u->op == UnaryOp::Neg ? "neg" : "bitnot");
      expr(u->operand, depth + 1, "");
      return;
    }
    case Expr::Kind::Binary: {
      auto *b = cast<BinaryExpr>(e);
      head(e, depth, label, binaryName(b->op));
      expr(b->lhs, depth + 1, "");
      expr(b->rhs, depth + 1, "");
      return;
    }
    case Expr::Kind::Compare: {
      auto *c = cast<CompareExpr>(e);
      head(e, depth, label, llvm::Twine("cmp ") + compareName(c->op));
      expr(c->lhs, depth + 1, "");
      expr(c->rhs, depth + 1, "");
      return;
    }
    case Expr::Kind::AddPtr: {
      auto *a = cast<AddPtrExpr>(e);
      head(e, depth, label, "addptr");
      expr(a->ptr, depth + 1, "");
      expr(a->offset, depth + 1, "");
      return;
    }
    case Expr::Kind::Cast:
      head(e, depth, label, "cast");
      expr(cast<CastExpr>(e)->operand, depth + 1, "");
      return;
    case Expr::Kind::Splat:
      head(e, depth, label, "splat");
      expr(cast<SplatExpr>(e)->operand, depth + 1, "");
      return;
    case Expr::Kind::Broadcast:
      head(e, depth, label, "broadcast");
      expr(cast<BroadcastExpr>(e)->operand, depth + 1, "");
      return;
    case Expr::Kind::ExpandDims: {
      auto *x = cast<ExpandDimsExpr>(e);
      head(e, depth, label, "expand_dims " + llvm::Twine(x->axis));
      expr(x->operand, depth + 1, "");
      return;
    }
    case Expr::Kind::Select: {
      auto *s = cast<SelectExpr>(e);
      head(e, depth, label, "select");
      expr(s->cond, depth + 1, "");
      expr(s->trueValue, depth + 1, "");
      expr(s->falseValue, depth + 1, "");
      return;
    }
    case Expr::Kind::ProgramId:
      head(e, depth, label, "program_id " + llvm::Twine(cast<ProgramIdExpr>(e)->axis));
      return;
    case Expr::Kind::NumPrograms:
      head(e, depth, label, "num_programs " + llvm::Twine(cast<NumProgramsExpr>(e)->axis));
      return;
    case Expr::Kind::Arange: {
      auto *a = cast<ArangeExpr>(e);
      head(e, depth, label, "arange " + llvm::Twine(a->start) + ", " + llvm::Twine(a->end));
      return;
    }
    case Expr::Kind::Load: {
      auto *l = cast<LoadExpr>(e);
      head(e, depth, label, "load");
      expr(l->ptr, depth + 1, "ptr ");
      if (l->mask)
        expr(l->mask, depth + 1, "mask ");
      if (l->other)
        expr(l->other, depth + 1, "other ");
      return;
    }
    case Expr::Kind::AtomicAdd: {
      auto *at = cast<AtomicAddExpr>(e);
      head(e, depth, label, "atomic_add");
      expr(at->ptr, depth + 1, "ptr ");
      expr(at->value, depth + 1, "value ");
      if (at->mask)
        expr(at->mask, depth + 1, "mask ");
      return;
    }
    case Expr::Kind::Extern: {
      auto *x = cast<ExternExpr>(e);
      head(e, depth, label, "extern " + x->symbol);
      for (const Expr *a : x->args)
        expr(a, depth + 1, "");
      return;
    }
    case Expr::Kind::Atomic: {
      auto *at = cast<AtomicExpr>(e);
      head(e, depth, label, "atomic_" + at->op + " sem=" + at->sem + " scope=" + at->scope);
      expr(at->ptr, depth + 1, "ptr ");
      if (at->cmp)
        expr(at->cmp, depth + 1, "cmp ");
      expr(at->value, depth + 1, "value ");
      if (at->mask)
        expr(at->mask, depth + 1, "mask ");
      return;
    }
    case Expr::Kind::Reduce: {
      auto *r = cast<ReduceExpr>(e);
      head(e, depth, label,
           "reduce " + spelling(r->kind) + ", axis " + llvm::Twine(r->axis));
      expr(r->operand, depth + 1, "");
      return;
    }
    case Expr::Kind::Dot: {
      auto *d = cast<DotExpr>(e);
      head(e, depth, label, "dot");
      expr(d->a, depth + 1, "");
      expr(d->b, depth + 1, "");
      expr(d->acc, depth + 1, "acc ");
      return;
    }
    case Expr::Kind::Hint: {
      auto *h = cast<HintExpr>(e);
      std::string values;
      for (size_t i = 0; i < h->values.size(); ++i)
        values += (i ? ", " : "") + std::to_string(h->values[i]);
      head(e, depth, label,
           llvm::Twine(h->kind == HintKind::Divisibility ? "multiple_of [" : "max_contiguous [") +
               values + "]");
      expr(h->operand, depth + 1, "");
      return;
    }
    case Expr::Kind::Trans: {
      auto *t = cast<TransExpr>(e);
      std::string order;
      for (size_t i = 0; i < t->order.size(); ++i)
        order += (i ? ", " : "") + std::to_string(t->order[i]);
      head(e, depth, label, "trans [" + order + "]");
      expr(t->operand, depth + 1, "");
      return;
    }
    case Expr::Kind::Reshape:
      head(e, depth, label, "reshape");
      expr(cast<ReshapeExpr>(e)->operand, depth + 1, "");
      return;
    case Expr::Kind::PermuteXor: {
      auto *p = cast<PermuteXorExpr>(e);
      head(e, depth, label,
           "permute_xor axis " + std::to_string(p->axis) + " mask " + std::to_string(p->mask));
      expr(p->operand, depth + 1, "");
      return;
    }
    case Expr::Kind::Bitcast:
      head(e, depth, label, "bitcast");
      expr(cast<BitcastExpr>(e)->operand, depth + 1, "");
      return;
    case Expr::Kind::Math: {
      auto *m = cast<MathExpr>(e);
      head(e, depth, label, spelling(m->fn));
      expr(m->operand, depth + 1, "");
      if (m->second)
        expr(m->second, depth + 1, "");
      if (m->third)
        expr(m->third, depth + 1, "");
      return;
    }
    }
  }

  const llvm::SourceMgr &sm;
  llvm::raw_ostream &os;
};
} // namespace

void typed::print(const Program &program, const llvm::SourceMgr &sourceMgr,
                  llvm::raw_ostream &os) {
  Printer p(sourceMgr, os);
  bool first = true;
  for (const auto &k : program.kernels) {
    if (!first)
      os << "\n";
    first = false;
    p.kernel(*k);
  }
}
