//===- AST.h - The syntax tree of a .tile file ---------------------------===//
//
// What the parser builds: the file's structure with a source range on every
// node and no types yet. Sema elaborates each kernel over this tree into the
// typed AST (TypedAST.h); helpers are elaborated once per call, which is why
// the syntax tree itself stays untyped and shape-generic.
//
// Nodes are owned by the Module's arena and never freed individually.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_AST_H
#define TCC_FRONTEND_AST_H

#include "compiler/Frontend/NodeArena.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcc {
namespace ast {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class UnaryOp { Neg, Pos, Invert, Not };
enum class BinaryOp {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul,
  Shl, Shr, BitAnd, BitOr, BitXor,
  Lt, Le, Gt, Ge, Eq, Ne,
  And, Or,
};
llvm::StringRef spelling(UnaryOp op);
llvm::StringRef spelling(BinaryOp op);
bool isComparison(BinaryOp op);

enum class ExprKind {
  Name, IntLit, FloatLit, BoolLit, NoneLit, StringLit, Tuple,
  Unary, Binary, Ternary, Call, Attribute, Subscript, Slice, Dict,
};

class Expr : public KindedNode<ExprKind> {
public:
  /// Height of the tree below this node (a leaf is 1); bounded by the parser
  /// so that every recursive walk over expressions has a bounded depth.
  unsigned depth = 1;

protected:
  using KindedNode::KindedNode;
};

class NameExpr : public Expr {
public:
  NameExpr(llvm::SMRange r, std::string name) : Expr(Kind::Name, r), name(std::move(name)) {}
  std::string name;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }
};

class IntLitExpr : public Expr {
public:
  IntLitExpr(llvm::SMRange r, uint64_t v) : Expr(Kind::IntLit, r), value(v) {}
  uint64_t value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::IntLit; }
};

class FloatLitExpr : public Expr {
public:
  FloatLitExpr(llvm::SMRange r, double v) : Expr(Kind::FloatLit, r), value(v) {}
  double value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::FloatLit; }
};

class BoolLitExpr : public Expr {
public:
  BoolLitExpr(llvm::SMRange r, bool v) : Expr(Kind::BoolLit, r), value(v) {}
  bool value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolLit; }
};

class NoneLitExpr : public Expr {
public:
  explicit NoneLitExpr(llvm::SMRange r) : Expr(Kind::NoneLit, r) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::NoneLit; }
};

class StringLitExpr : public Expr {
public:
  StringLitExpr(llvm::SMRange r, std::string v) : Expr(Kind::StringLit, r), value(std::move(v)) {}
  std::string value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::StringLit; }
};

/// `(a, b)`, `a, b` and `[a, b]` (lists behave like tuples: shapes, hints).
class TupleExpr : public Expr {
public:
  TupleExpr(llvm::SMRange r, std::vector<Expr *> elems, bool isList)
      : Expr(Kind::Tuple, r), elements(std::move(elems)), isList(isList) {}
  std::vector<Expr *> elements;
  bool isList;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }
};

class UnaryExpr : public Expr {
public:
  UnaryExpr(llvm::SMRange r, UnaryOp op, Expr *operand)
      : Expr(Kind::Unary, r), op(op), operand(operand) {}
  UnaryOp op;
  Expr *operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }
};

class BinaryExpr : public Expr {
public:
  BinaryExpr(llvm::SMRange r, BinaryOp op, llvm::SMRange opRange, Expr *lhs, Expr *rhs)
      : Expr(Kind::Binary, r), op(op), opRange(opRange), lhs(lhs), rhs(rhs) {}
  BinaryOp op;
  llvm::SMRange opRange; // the operator token, where errors point
  Expr *lhs, *rhs;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }
};

/// `a if cond else b`
class TernaryExpr : public Expr {
public:
  TernaryExpr(llvm::SMRange r, Expr *cond, Expr *thenValue, Expr *elseValue)
      : Expr(Kind::Ternary, r), cond(cond), thenValue(thenValue), elseValue(elseValue) {}
  Expr *cond, *thenValue, *elseValue;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Ternary; }
};

struct KeywordArg {
  std::string name;
  llvm::SMRange nameRange;
  Expr *value;
};

class CallExpr : public Expr {
public:
  CallExpr(llvm::SMRange r, Expr *callee, std::vector<Expr *> args,
           std::vector<KeywordArg> kwargs)
      : Expr(Kind::Call, r), callee(callee), args(std::move(args)), kwargs(std::move(kwargs)) {}
  Expr *callee;
  std::vector<Expr *> args;
  std::vector<KeywordArg> kwargs;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }
};

/// `base.name`: `tl.load`, `x.to`, `x.shape`.
class AttributeExpr : public Expr {
public:
  AttributeExpr(llvm::SMRange r, Expr *base, std::string name, llvm::SMRange nameRange)
      : Expr(Kind::Attribute, r), base(base), name(std::move(name)), nameRange(nameRange) {}
  Expr *base;
  std::string name;
  llvm::SMRange nameRange;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Attribute; }
};

/// `base[i0, i1, ...]`; an index is an expression, `None` or a SliceExpr.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(llvm::SMRange r, Expr *base, std::vector<Expr *> indices)
      : Expr(Kind::Subscript, r), base(base), indices(std::move(indices)) {}
  Expr *base;
  std::vector<Expr *> indices;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }
};

/// `lo:hi:step` inside a subscript; each part may be missing.
/// `{key: value, ...}`: only meaningful where a configuration is written
/// (`triton.Config({"BLOCK": 1024})`); anywhere else Sema rejects it.
class DictExpr : public Expr {
public:
  DictExpr(llvm::SMRange r, std::vector<std::pair<Expr *, Expr *>> items)
      : Expr(Kind::Dict, r), items(std::move(items)) {}
  std::vector<std::pair<Expr *, Expr *>> items;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Dict; }
};

class SliceExpr : public Expr {
public:
  SliceExpr(llvm::SMRange r, Expr *lo, Expr *hi, Expr *step)
      : Expr(Kind::Slice, r), lo(lo), hi(hi), step(step) {}
  Expr *lo, *hi, *step;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt;
using Block = std::vector<Stmt *>;

/// A parameter annotation as written: `*f32` is {1, "f32"}, `tl.constexpr`
/// is {0, "tl.constexpr"}. Sema gives it meaning.
struct Annotation {
  unsigned pointerDepth = 0;
  std::string name; // dotted; empty when there is no annotation
  llvm::SMRange range;
  bool present() const { return !name.empty(); }
};

enum class StmtKind { Expr, Assign, AugAssign, Return, Pass, Break, Continue, If, For, While };

class Stmt : public KindedNode<StmtKind> {
protected:
  using KindedNode::KindedNode;
};

class ExprStmt : public Stmt {
public:
  ExprStmt(llvm::SMRange r, Expr *e) : Stmt(Kind::Expr, r), expr(e) {}
  Expr *expr;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Expr; }
};

/// `target = value`; the target is a NameExpr or a TupleExpr of NameExprs.
class AssignStmt : public Stmt {
public:
  AssignStmt(llvm::SMRange r, Expr *target, Expr *value)
      : Stmt(Kind::Assign, r), target(target), value(value) {}
  Expr *target;
  Expr *value;
  /// `name: constexpr = value` (or `tl.constexpr`): the value must be known at compile
  /// time. The annotation as written; empty for a plain assignment.
  Annotation annotation;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }
};

/// `name op= value`
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(llvm::SMRange r, NameExpr *target, BinaryOp op, llvm::SMRange opRange,
                Expr *value)
      : Stmt(Kind::AugAssign, r), target(target), op(op), opRange(opRange), value(value) {}
  NameExpr *target;
  BinaryOp op;
  llvm::SMRange opRange;
  Expr *value;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AugAssign; }
};

class ReturnStmt : public Stmt {
public:
  ReturnStmt(llvm::SMRange r, Expr *value) : Stmt(Kind::Return, r), value(value) {}
  Expr *value; // may be null
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(llvm::SMRange r) : Stmt(Kind::Pass, r) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Pass; }
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(llvm::SMRange r) : Stmt(Kind::Break, r) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Break; }
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(llvm::SMRange r) : Stmt(Kind::Continue, r) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Continue; }
};

/// `if`/`elif`/`else`; an `elif` is an IfStmt alone in the else block.
class IfStmt : public Stmt {
public:
  IfStmt(llvm::SMRange r, Expr *cond, Block thenBody, Block elseBody, bool isElif)
      : Stmt(Kind::If, r), cond(cond), thenBody(std::move(thenBody)),
        elseBody(std::move(elseBody)), isElif(isElif) {}
  Expr *cond;
  Block thenBody;
  Block elseBody;
  bool isElif;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }
};

/// `for target in iter:`
class ForStmt : public Stmt {
public:
  ForStmt(llvm::SMRange r, NameExpr *target, Expr *iter, Block body)
      : Stmt(Kind::For, r), target(target), iter(iter), body(std::move(body)) {}
  NameExpr *target;
  Expr *iter;
  Block body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }
};

/// Parsed so that Sema can say it is unsupported with a precise location.
class WhileStmt : public Stmt {
public:
  WhileStmt(llvm::SMRange r, Expr *cond, Block body)
      : Stmt(Kind::While, r), cond(cond), body(std::move(body)) {}
  Expr *cond;
  Block body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }
};

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//


struct Param {
  std::string name;
  llvm::SMRange nameRange;
  Annotation annotation;
  Expr *defaultValue = nullptr;
};

/// `def name(params):` with its decorators (`@kernel(...)` marks a kernel).
struct FunctionDef {
  std::string name;
  llvm::SMRange nameRange;
  llvm::SMRange headerRange; // `def` .. `:`
  std::vector<Expr *> decorators;
  std::vector<Param> params;
  Block body;
};

/// `NAME = expr` at the top level: a compile-time constant visible everywhere.
struct GlobalConstant {
  std::string name;
  llvm::SMRange nameRange;
  Expr *value;
};

/// A name an `import` or `from ... import` line would bind in Python; tcc ignores imports,
/// so an undefined name that one of them binds is worth a note.
struct ImportedName {
  std::string name;
  llvm::SMRange line; // the import statement
};

/// A parsed file, and the storage of all its nodes (make<T>(...)).
class Module : public NodeArena<Expr, Stmt, FunctionDef> {
public:
  std::vector<FunctionDef *> functions;
  std::vector<GlobalConstant> constants;
  std::vector<ImportedName> imports;
};

/// Compact S-expression of an expression, for tests and debugging:
/// `(+ a (* b 2))`, `(call load (+ x offs) mask=m)`.
std::string toSExpr(const Expr *e);

} // namespace ast
} // namespace tcc

#endif // TCC_FRONTEND_AST_H
