//===- AST.cpp - The syntax tree of a .tile file -------------------------===//

#include "compiler/Frontend/AST.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace tcc;
using namespace tcc::ast;
using llvm::cast;

llvm::StringRef ast::spelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "-";
  case UnaryOp::Pos: return "+";
  case UnaryOp::Invert: return "~";
  case UnaryOp::Not: return "not";
  }
  return "?";
}

llvm::StringRef ast::spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::FloorDiv: return "//";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Pow: return "**";
  case BinaryOp::MatMul: return "@";
  case BinaryOp::Shl: return "<<";
  case BinaryOp::Shr: return ">>";
  case BinaryOp::BitAnd: return "&";
  case BinaryOp::BitOr: return "|";
  case BinaryOp::BitXor: return "^";
  case BinaryOp::Lt: return "<";
  case BinaryOp::Le: return "<=";
  case BinaryOp::Gt: return ">";
  case BinaryOp::Ge: return ">=";
  case BinaryOp::Eq: return "==";
  case BinaryOp::Ne: return "!=";
  case BinaryOp::And: return "and";
  case BinaryOp::Or: return "or";
  }
  return "?";
}

bool ast::isComparison(BinaryOp op) {
  switch (op) {
  case BinaryOp::Lt:
  case BinaryOp::Le:
  case BinaryOp::Gt:
  case BinaryOp::Ge:
  case BinaryOp::Eq:
  case BinaryOp::Ne:
    return true;
  default:
    return false;
  }
}

static void printSExpr(llvm::raw_ostream &os, const Expr *e) {
  if (!e) {
    os << "<null>";
    return;
  }
  switch (e->getKind()) {
  case Expr::Kind::Name:
    os << cast<NameExpr>(e)->name;
    return;
  case Expr::Kind::IntLit:
    os << cast<IntLitExpr>(e)->value;
    return;
  case Expr::Kind::FloatLit:
    os << llvm::format("%g", cast<FloatLitExpr>(e)->value);
    return;
  case Expr::Kind::BoolLit:
    os << (cast<BoolLitExpr>(e)->value ? "True" : "False");
    return;
  case Expr::Kind::NoneLit:
    os << "None";
    return;
  case Expr::Kind::StringLit:
    os << '"';
    os.write_escaped(cast<StringLitExpr>(e)->value);
    os << '"';
    return;
  case Expr::Kind::Tuple: {
    auto *t = cast<TupleExpr>(e);
    os << (t->isList ? "(list" : "(tuple");
    for (const Expr *el : t->elements) {
      os << ' ';
      printSExpr(os, el);
    }
    os << ')';
    return;
  }
  case Expr::Kind::Unary: {
    auto *u = cast<UnaryExpr>(e);
    os << '(' << spelling(u->op) << ' ';
    printSExpr(os, u->operand);
    os << ')';
    return;
  }
  case Expr::Kind::Binary: {
    auto *b = cast<BinaryExpr>(e);
    os << '(' << spelling(b->op) << ' ';
    printSExpr(os, b->lhs);
    os << ' ';
    printSExpr(os, b->rhs);
    os << ')';
    return;
  }
  case Expr::Kind::Ternary: {
    auto *t = cast<TernaryExpr>(e);
    os << "(if ";
    printSExpr(os, t->cond);
    os << ' ';
    printSExpr(os, t->thenValue);
    os << ' ';
    printSExpr(os, t->elseValue);
    os << ')';
    return;
  }
  case Expr::Kind::Call: {
    auto *c = cast<CallExpr>(e);
    os << "(call ";
    printSExpr(os, c->callee);
    for (const Expr *a : c->args) {
      os << ' ';
      printSExpr(os, a);
    }
    for (const KeywordArg &k : c->kwargs) {
      os << ' ' << k.name << '=';
      printSExpr(os, k.value);
    }
    os << ')';
    return;
  }
  case Expr::Kind::Attribute: {
    auto *a = cast<AttributeExpr>(e);
    os << "(. ";
    printSExpr(os, a->base);
    os << ' ' << a->name << ')';
    return;
  }
  case Expr::Kind::Subscript: {
    auto *s = cast<SubscriptExpr>(e);
    os << "([] ";
    printSExpr(os, s->base);
    for (const Expr *i : s->indices) {
      os << ' ';
      printSExpr(os, i);
    }
    os << ')';
    return;
  }
  case Expr::Kind::Dict: {
    os << "({}";
    for (const auto &[key, value] : cast<DictExpr>(e)->items) {
      os << " (";
      printSExpr(os, key);
      os << ' ';
      printSExpr(os, value);
      os << ')';
    }
    os << ')';
    return;
  }
  case Expr::Kind::Slice: {
    auto *s = cast<SliceExpr>(e);
    os << "(:";
    for (const Expr *p : {s->lo, s->hi, s->step}) {
      os << ' ';
      if (p)
        printSExpr(os, p);
      else
        os << '_';
    }
    os << ')';
    return;
  }
  }
}

std::string ast::toSExpr(const Expr *e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printSExpr(os, e);
  return s;
}
