//===- SemaLiveness.cpp - Syntactic name collection, liveness -------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <cmath>

using namespace tcc;
using namespace tcc::sema;

//===----------------------------------------------------------------------===//
// Syntactic name collection
//===----------------------------------------------------------------------===//

void sema::collectReads(const ast::Expr *e, NameSet &out) {
  if (!e)
    return;
  switch (e->getKind()) {
  case ast::Expr::Kind::Name:
    out.insert(cast<ast::NameExpr>(e)->name);
    return;
  case ast::Expr::Kind::Tuple:
    for (const ast::Expr *el : cast<ast::TupleExpr>(e)->elements)
      collectReads(el, out);
    return;
  case ast::Expr::Kind::Unary:
    collectReads(cast<ast::UnaryExpr>(e)->operand, out);
    return;
  case ast::Expr::Kind::Binary:
    collectReads(cast<ast::BinaryExpr>(e)->lhs, out);
    collectReads(cast<ast::BinaryExpr>(e)->rhs, out);
    return;
  case ast::Expr::Kind::Ternary: {
    auto *t = cast<ast::TernaryExpr>(e);
    collectReads(t->cond, out);
    collectReads(t->thenValue, out);
    collectReads(t->elseValue, out);
    return;
  }
  case ast::Expr::Kind::Call: {
    auto *c = cast<ast::CallExpr>(e);
    collectReads(c->callee, out);
    for (const ast::Expr *a : c->args)
      collectReads(a, out);
    for (const ast::KeywordArg &k : c->kwargs)
      collectReads(k.value, out);
    return;
  }
  case ast::Expr::Kind::Attribute:
    collectReads(cast<ast::AttributeExpr>(e)->base, out);
    return;
  case ast::Expr::Kind::Subscript: {
    auto *s = cast<ast::SubscriptExpr>(e);
    collectReads(s->base, out);
    for (const ast::Expr *i : s->indices)
      collectReads(i, out);
    return;
  }
  case ast::Expr::Kind::Slice: {
    auto *s = cast<ast::SliceExpr>(e);
    collectReads(s->lo, out);
    collectReads(s->hi, out);
    collectReads(s->step, out);
    return;
  }
  case ast::Expr::Kind::Dict:
    for (const auto &[key, value] : cast<ast::DictExpr>(e)->items) {
      collectReads(key, out);
      collectReads(value, out);
    }
    return;
  default:
    return;
  }
}

void sema::collectReads(const ast::Stmt *s, NameSet &out) {
  switch (s->getKind()) {
  case ast::Stmt::Kind::Expr:
    collectReads(cast<ast::ExprStmt>(s)->expr, out);
    return;
  case ast::Stmt::Kind::Assign:
    collectReads(cast<ast::AssignStmt>(s)->value, out);
    return;
  case ast::Stmt::Kind::AugAssign:
    out.insert(cast<ast::AugAssignStmt>(s)->target->name);
    collectReads(cast<ast::AugAssignStmt>(s)->value, out);
    return;
  case ast::Stmt::Kind::Return:
    collectReads(cast<ast::ReturnStmt>(s)->value, out);
    return;
  case ast::Stmt::Kind::If: {
    auto *i = cast<ast::IfStmt>(s);
    collectReads(i->cond, out);
    collectReads(i->thenBody, out);
    collectReads(i->elseBody, out);
    return;
  }
  case ast::Stmt::Kind::For:
    collectReads(cast<ast::ForStmt>(s)->iter, out);
    collectReads(cast<ast::ForStmt>(s)->body, out);
    return;
  case ast::Stmt::Kind::While:
    collectReads(cast<ast::WhileStmt>(s)->cond, out);
    collectReads(cast<ast::WhileStmt>(s)->body, out);
    return;
  default:
    return;
  }
}

void sema::collectReads(const ast::Block &block, NameSet &out) {
  for (const ast::Stmt *s : block)
    collectReads(s, out);
}

const ast::NameExpr *sema::hintedName(const ast::Stmt *s) {
  auto *statement = dyn_cast<ast::ExprStmt>(s);
  if (!statement)
    return nullptr;
  auto *call = dyn_cast<ast::CallExpr>(statement->expr);
  if (!call || call->args.empty())
    return nullptr;
  llvm::StringRef callee;
  if (auto *n = dyn_cast<ast::NameExpr>(call->callee))
    callee = n->name;
  else if (auto *a = dyn_cast<ast::AttributeExpr>(call->callee))
    callee = a->name;
  if (callee != "multiple_of" && callee != "max_contiguous")
    return nullptr;
  return dyn_cast<ast::NameExpr>(call->args[0]);
}

void sema::collectAssigned(const ast::Block &block, std::vector<std::string> &out,
                           NameSet &seen) {
  auto add = [&](const std::string &n) {
    if (seen.insert(n).second)
      out.push_back(n);
  };
  for (const ast::Stmt *s : block) {
    switch (s->getKind()) {
    case ast::Stmt::Kind::Assign: {
      const ast::Expr *t = cast<ast::AssignStmt>(s)->target;
      if (auto *n = dyn_cast<ast::NameExpr>(t))
        add(n->name);
      else if (auto *tu = dyn_cast<ast::TupleExpr>(t))
        for (const ast::Expr *el : tu->elements)
          if (auto *n = dyn_cast<ast::NameExpr>(el))
            add(n->name);
      break;
    }
    case ast::Stmt::Kind::AugAssign:
      add(cast<ast::AugAssignStmt>(s)->target->name);
      break;
    case ast::Stmt::Kind::Expr:
      if (const ast::NameExpr *n = hintedName(s))
        add(n->name);
      break;
    case ast::Stmt::Kind::If:
      collectAssigned(cast<ast::IfStmt>(s)->thenBody, out, seen);
      collectAssigned(cast<ast::IfStmt>(s)->elseBody, out, seen);
      break;
    case ast::Stmt::Kind::For:
      add(cast<ast::ForStmt>(s)->target->name);
      collectAssigned(cast<ast::ForStmt>(s)->body, out, seen);
      break;
    case ast::Stmt::Kind::While:
      collectAssigned(cast<ast::WhileStmt>(s)->body, out, seen);
      break;
    default:
      break;
    }
  }
}

/// Backward liveness over one statement: `live` holds the names read after
/// `s` (before being reassigned) and becomes the names read after its start.
/// Loops may run zero times, so what is live after them stays live; a loop
/// also needs whatever its body reads before assigning it.
void sema::transferLiveness(const ast::Stmt *s, NameSet &live) {
  switch (s->getKind()) {
  case ast::Stmt::Kind::Assign: {
    auto *a = cast<ast::AssignStmt>(s);
    if (auto *n = dyn_cast<ast::NameExpr>(a->target))
      live.erase(n->name);
    else if (auto *t = dyn_cast<ast::TupleExpr>(a->target))
      for (const ast::Expr *el : t->elements)
        if (auto *n = dyn_cast<ast::NameExpr>(el))
          live.erase(n->name);
    collectReads(a->value, live);
    return;
  }
  case ast::Stmt::Kind::If: {
    auto *i = cast<ast::IfStmt>(s);
    NameSet elseLive = live;
    liveIn(i->thenBody, live);
    liveIn(i->elseBody, elseLive);
    for (const auto &n : elseLive)
      live.insert(n.getKey());
    collectReads(i->cond, live);
    return;
  }
  case ast::Stmt::Kind::For: {
    auto *f = cast<ast::ForStmt>(s);
    NameSet exposed;
    liveIn(f->body, exposed);
    exposed.erase(f->target->name);
    for (const auto &n : exposed)
      live.insert(n.getKey());
    collectReads(f->iter, live);
    return;
  }
  case ast::Stmt::Kind::While: {
    auto *w = cast<ast::WhileStmt>(s);
    NameSet exposed;
    liveIn(w->body, exposed);
    for (const auto &n : exposed)
      live.insert(n.getKey());
    collectReads(w->cond, live);
    return;
  }
  default:
    collectReads(s, live); // expressions, returns, augmented assignments
    return;
  }
}

void sema::liveIn(const ast::Block &block, NameSet &live) {
  for (size_t i = block.size(); i-- > 0;)
    transferLiveness(block[i], live);
}
