//===- TypedAST.h - Elaborated, fully typed kernels ----------------------===//
//
// Sema's output and MLIRGen's input: one tree per kernel in which everything a
// C compiler would call "implicit" is explicit. Every expression has a Type;
// literal promotion, broadcasting (splat / expand_dims / broadcast) and element
// conversions are nodes of their own; constexpr parameters, compile-time `if`s
// and `static_range` loops are gone (folded, chosen, unrolled); helper calls
// are inlined bodies. Variables are single-assignment: each assignment to a
// name in the source creates a new Variable (`x`, `x.1`, ...), and loops and
// runtime `if`s say explicitly which Variables flow in and out.
//
// Because everything is decided here, MLIRGen is a direct translation that
// cannot fail on valid input.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_TYPEDAST_H
#define TCC_FRONTEND_TYPEDAST_H

#include "compiler/Frontend/Autotune.h"
#include "compiler/Frontend/NodeArena.h"
#include "compiler/Frontend/Types.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
class SourceMgr;
} // namespace llvm

namespace tcc {
namespace typed {

/// A single-assignment value: a kernel argument, a `let`, a loop's induction
/// variable, a loop-carried value inside or after the loop, an `if` result.
struct Variable {
  std::string name; // unique within its kernel: `acc`, `acc.1`, ...
  Type type;
  llvm::SMRange range; // where it was defined
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class ExprKind {
  Constant, VarRef, Unary, Binary, Compare, AddPtr, Cast, Splat, Broadcast, ExpandDims,
  Select, ProgramId, NumPrograms, Arange, Load, AtomicAdd, Reduce, Dot, Hint, Math, Bitcast,
  Trans, Atomic, Extern, PermuteXor, Reshape,
};

class Expr : public KindedNode<ExprKind> {
public:
  Type type;

protected:
  Expr(Kind kind, Type type, llvm::SMRange range)
      : KindedNode(kind, range), type(std::move(type)) {}
};

/// A scalar constant, or a tile with every element equal to it.
class ConstantExpr : public Expr {
public:
  ConstantExpr(Type t, llvm::SMRange r, int64_t i, double f)
      : Expr(Kind::Constant, std::move(t), r), intValue(i), floatValue(f) {}
  int64_t intValue;  // integer element types (i1: 0 or 1)
  double floatValue; // float element types
  static bool classof(const Expr *e) { return e->getKind() == Kind::Constant; }
};

class VarRefExpr : public Expr {
public:
  VarRefExpr(Variable *v, llvm::SMRange r) : Expr(Kind::VarRef, v->type, r), var(v) {}
  Variable *var;
  static bool classof(const Expr *e) { return e->getKind() == Kind::VarRef; }
};

enum class UnaryOp { Neg, BitNot };

class UnaryExpr : public Expr {
public:
  UnaryExpr(Type t, llvm::SMRange r, UnaryOp op, Expr *operand)
      : Expr(Kind::Unary, std::move(t), r), op(op), operand(operand) {}
  UnaryOp op;
  Expr *operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }
};

/// Element-wise arithmetic on two operands of the result's type. `Div` and
/// `Rem` truncate toward zero on integers (C and Triton semantics); `Min` and
/// `Max` ignore a NaN operand on floats (Triton's minimum/maximum); `MinNaN` and `MaxNaN`
/// give NaN when either operand is NaN (propagate_nan=PropagateNan.ALL), and are `Min` and
/// `Max` on integers.
enum class BinaryOp { Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max, MinNaN, MaxNaN };

class BinaryExpr : public Expr {
public:
  BinaryExpr(Type t, llvm::SMRange r, BinaryOp op, Expr *lhs, Expr *rhs)
      : Expr(Kind::Binary, std::move(t), r), op(op), lhs(lhs), rhs(rhs) {}
  BinaryOp op;
  Expr *lhs, *rhs;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }
};

/// Signed for integers (unsigned for i1), ordered for floats except `Ne`.
enum class CompareOp { Lt, Le, Gt, Ge, Eq, Ne };

/// Compares two operands of the same type; the result is i1 of their shape.
class CompareExpr : public Expr {
public:
  CompareExpr(Type t, llvm::SMRange r, CompareOp op, Expr *lhs, Expr *rhs)
      : Expr(Kind::Compare, std::move(t), r), op(op), lhs(lhs), rhs(rhs) {}
  CompareOp op;
  Expr *lhs, *rhs;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Compare; }
};

/// Pointer(s) advanced by an element offset of the same shape.
class AddPtrExpr : public Expr {
public:
  AddPtrExpr(Type t, llvm::SMRange r, Expr *ptr, Expr *offset)
      : Expr(Kind::AddPtr, std::move(t), r), ptr(ptr), offset(offset) {}
  Expr *ptr, *offset;
  static bool classof(const Expr *e) { return e->getKind() == Kind::AddPtr; }
};

/// Converts the element type, keeping the shape. Never between f16 and bf16
/// directly (Sema goes through f32). To i1 means "!= 0"; from i1 means 0 or 1. With
/// pointers: only i64 <-> pointer (the address in bytes) and pointer <-> pointer.
class CastExpr : public Expr {
public:
  CastExpr(Type t, llvm::SMRange r, Expr *operand)
      : Expr(Kind::Cast, std::move(t), r), operand(operand) {}
  Expr *operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Cast; }
};

/// `x.to(T, bitcast=True)`: the same bits read as another number type of the same width
/// (never i1, never pointers), keeping the shape.
class BitcastExpr : public Expr {
public:
  BitcastExpr(Type t, llvm::SMRange r, Expr *operand)
      : Expr(Kind::Bitcast, std::move(t), r), operand(operand) {}
  Expr *operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Bitcast; }
};

/// `trans` / `permute` / `.T`: dimension i of the result is dimension order[i] of the
/// operand (a permutation, not the identity).
class TransExpr : public Expr {
public:
  TransExpr(Type t, llvm::SMRange r, Expr *operand, std::vector<int32_t> order)
      : Expr(Kind::Trans, std::move(t), r), operand(operand), order(std::move(order)) {}
  Expr *operand;
  std::vector<int32_t> order;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Trans; }
};

/// `flip` and the exchanges of `sort`: element c along `axis` is the operand's element
/// c ^ mask (0 < mask < the axis' size), the other coordinates unchanged.
class PermuteXorExpr : public Expr {
public:
  PermuteXorExpr(Type t, llvm::SMRange r, Expr *operand, unsigned axis, int64_t mask)
      : Expr(Kind::PermuteXor, std::move(t), r), operand(operand), axis(axis), mask(mask) {}
  Expr *operand;
  unsigned axis;
  int64_t mask;
  static bool classof(const Expr *e) { return e->getKind() == Kind::PermuteXor; }
};

/// `reshape` / `view` / `ravel` that moves elements between threads: the operand's
/// elements in row-major order, in the result's shape (tile.reshape).
class ReshapeExpr : public Expr {
public:
  ReshapeExpr(Type t, llvm::SMRange r, Expr *operand)
      : Expr(Kind::Reshape, std::move(t), r), operand(operand) {}
  Expr *operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Reshape; }
};

/// A scalar repeated into a tile.
class SplatExpr : public Expr {
public:
  SplatExpr(Type t, llvm::SMRange r, Expr *operand)
      : Expr(Kind::Splat, std::move(t), r), operand(operand) {}
  Expr *operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Splat; }
};

/// A tile repeated along its size-1 dimensions (same rank).
class BroadcastExpr : public Expr {
public:
  BroadcastExpr(Type t, llvm::SMRange r, Expr *operand)
      : Expr(Kind::Broadcast, std::move(t), r), operand(operand) {}
  Expr *operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Broadcast; }
};

/// Inserts a size-1 dimension at `axis`.
class ExpandDimsExpr : public Expr {
public:
  ExpandDimsExpr(Type t, llvm::SMRange r, Expr *operand, unsigned axis)
      : Expr(Kind::ExpandDims, std::move(t), r), operand(operand), axis(axis) {}
  Expr *operand;
  unsigned axis;
  static bool classof(const Expr *e) { return e->getKind() == Kind::ExpandDims; }
};

/// `where(cond, a, b)`: all three already of one shape (cond i1).
class SelectExpr : public Expr {
public:
  SelectExpr(Type t, llvm::SMRange r, Expr *cond, Expr *a, Expr *b)
      : Expr(Kind::Select, std::move(t), r), cond(cond), trueValue(a), falseValue(b) {}
  Expr *cond, *trueValue, *falseValue;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Select; }
};

class ProgramIdExpr : public Expr {
public:
  ProgramIdExpr(llvm::SMRange r, unsigned axis)
      : Expr(Kind::ProgramId, Type::scalar(ScalarKind::I32), r), axis(axis) {}
  unsigned axis;
  static bool classof(const Expr *e) { return e->getKind() == Kind::ProgramId; }
};

class NumProgramsExpr : public Expr {
public:
  NumProgramsExpr(llvm::SMRange r, unsigned axis)
      : Expr(Kind::NumPrograms, Type::scalar(ScalarKind::I32), r), axis(axis) {}
  unsigned axis;
  static bool classof(const Expr *e) { return e->getKind() == Kind::NumPrograms; }
};

/// `arange(start, end)`: the i32 tile [start, end).
class ArangeExpr : public Expr {
public:
  ArangeExpr(Type t, llvm::SMRange r, int64_t start, int64_t end)
      : Expr(Kind::Arange, std::move(t), r), start(start), end(end) {}
  int64_t start, end;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Arange; }
};

/// Mask (i1, pointer shape) and other (result type) are optional; other
/// needs a mask.
class LoadExpr : public Expr {
public:
  LoadExpr(Type t, llvm::SMRange r, Expr *ptr, Expr *mask, Expr *other)
      : Expr(Kind::Load, std::move(t), r), ptr(ptr), mask(mask), other(other) {}
  Expr *ptr, *mask, *other;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Load; }
};

/// Atomically adds value to the pointees; the result is the old values (0 where the
/// optional mask is false). Pointer, value and mask share one shape.
class AtomicAddExpr : public Expr {
public:
  AtomicAddExpr(Type t, llvm::SMRange r, Expr *ptr, Expr *value, Expr *mask)
      : Expr(Kind::AtomicAdd, std::move(t), r), ptr(ptr), value(value), mask(mask) {}
  Expr *ptr, *value, *mask;
  static bool classof(const Expr *e) { return e->getKind() == Kind::AtomicAdd; }
};

/// atomic_max/min/and/or/xor/xchg (`op` "max", "min", "and", "or", "xor", "xchg", or "add"
/// with sem=/scope=) and atomic_cas (`op` "cas", with `cmp`; no mask): tile.atomic_rmw and
/// tile.atomic_cas. The result is the old values; `sem` and `scope` are PTX's.
class AtomicExpr : public Expr {
public:
  AtomicExpr(Type t, llvm::SMRange r, std::string op, Expr *ptr, Expr *value, Expr *cmp,
             Expr *mask, std::string sem, std::string scope)
      : Expr(Kind::Atomic, std::move(t), r), op(std::move(op)), ptr(ptr), value(value),
        cmp(cmp), mask(mask), sem(std::move(sem)), scope(std::move(scope)) {}
  std::string op;
  Expr *ptr, *value, *cmp, *mask;
  std::string sem, scope;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Atomic; }
};

/// `libdevice.NAME(args)`: the libdevice function `symbol` (__nv_NAMEf on f32, __nv_NAME on
/// f64) applied element-wise to operands of the result's type (tile.extern_elementwise).
class ExternExpr : public Expr {
public:
  ExternExpr(Type t, llvm::SMRange r, std::string symbol, std::vector<Expr *> args)
      : Expr(Kind::Extern, std::move(t), r), symbol(std::move(symbol)), args(std::move(args)) {}
  std::string symbol;
  std::vector<Expr *> args;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Extern; }
};

enum class ReduceKind { Sum, Max, Min, ArgMax, ArgMin };
llvm::StringRef spelling(ReduceKind k);

/// Removes dimension `axis`; a rank-1 operand gives a scalar.
class ReduceExpr : public Expr {
public:
  ReduceExpr(Type t, llvm::SMRange r, ReduceKind kind, Expr *operand, unsigned axis)
      : Expr(Kind::Reduce, std::move(t), r), kind(kind), operand(operand), axis(axis) {}
  ReduceKind kind;
  Expr *operand;
  unsigned axis;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Reduce; }
};

/// a (MxK) times b (KxN) plus acc (MxN, f32). `ieee`: f32 inputs multiplied in full
/// precision (input_precision="ieee"), not as tf32.
class DotExpr : public Expr {
public:
  DotExpr(Type t, llvm::SMRange r, Expr *a, Expr *b, Expr *acc, bool ieee)
      : Expr(Kind::Dot, std::move(t), r), a(a), b(b), acc(acc), ieee(ieee) {}
  Expr *a, *b, *acc;
  bool ieee;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Dot; }
};

enum class HintKind { Divisibility, Contiguity };

/// `multiple_of` / `max_contiguous`: one value per dimension (one for a scalar).
class HintExpr : public Expr {
public:
  HintExpr(Type t, llvm::SMRange r, HintKind kind, Expr *operand, std::vector<int32_t> values)
      : Expr(Kind::Hint, std::move(t), r), kind(kind), operand(operand),
        values(std::move(values)) {}
  HintKind kind;
  Expr *operand;
  std::vector<int32_t> values;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Hint; }
};

enum class MathFn {
  Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Abs, Sin, Cos, Sigmoid, Tanh, Erf, Floor, Ceil, Fma
};
llvm::StringRef spelling(MathFn f);

/// Element-wise math on floats (`abs` also on integers). `fma` has three operands of the
/// result's type: operand * second + third, rounded once.
class MathExpr : public Expr {
public:
  MathExpr(Type t, llvm::SMRange r, MathFn fn, Expr *operand, Expr *second = nullptr,
           Expr *third = nullptr)
      : Expr(Kind::Math, std::move(t), r), fn(fn), operand(operand), second(second),
        third(third) {}
  MathFn fn;
  Expr *operand;
  Expr *second, *third;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Math; }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt;
using Block = std::vector<Stmt *>;

enum class StmtKind { Let, Store, Print, Assume, Barrier, For, While, If, Inline, Scan };

class Stmt : public KindedNode<StmtKind> {
protected:
  using KindedNode::KindedNode;
};

class LetStmt : public Stmt {
public:
  LetStmt(llvm::SMRange r, Variable *var, Expr *value) : Stmt(Kind::Let, r), var(var), value(value) {}
  Variable *var;
  Expr *value;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Let; }
};

class StoreStmt : public Stmt {
public:
  StoreStmt(llvm::SMRange r, Expr *ptr, Expr *value, Expr *mask)
      : Stmt(Kind::Store, r), ptr(ptr), value(value), mask(mask) {}
  Expr *ptr, *value, *mask;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Store; }
};

class PrintStmt : public Stmt {
public:
  PrintStmt(llvm::SMRange r, std::string prefix, std::vector<Expr *> args)
      : Stmt(Kind::Print, r), prefix(std::move(prefix)), args(std::move(args)) {}
  std::string prefix;
  std::vector<Expr *> args;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Print; }
};

/// `assume(cond)`: the program may take `cond` (an i1 scalar or tile) to hold.
/// `assume(cond)`, or with `isAssert` `device_assert(cond, message)`: checked at run time,
/// reported with its message, file and line where it fails (tile.assert).
class AssumeStmt : public Stmt {
public:
  AssumeStmt(llvm::SMRange r, Expr *cond) : Stmt(Kind::Assume, r), cond(cond) {}
  AssumeStmt(llvm::SMRange r, Expr *cond, std::string message)
      : Stmt(Kind::Assume, r), cond(cond), isAssert(true), message(std::move(message)) {}
  Expr *cond;
  bool isAssert = false;
  std::string message;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assume; }
};

/// `debug_barrier()`: every thread of the program waits for the others (tile.barrier).
class BarrierStmt : public Stmt {
public:
  explicit BarrierStmt(llvm::SMRange r) : Stmt(Kind::Barrier, r) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Barrier; }
};

/// A value that flows around a loop: `init` before the first iteration,
/// `arg` inside the body, `next` at the end of each iteration, `result` after.
struct LoopCarried {
  Variable *arg;
  Expr *init;
  Expr *next;
  Variable *result;
};

/// `for iv in range(lower, upper, step)`, all i32, step > 0.
class ForStmt : public Stmt {
public:
  ForStmt(llvm::SMRange r) : Stmt(Kind::For, r) {}
  Variable *inductionVar = nullptr;
  Expr *lower = nullptr, *upper = nullptr, *step = nullptr;
  int64_t numStages = 0; // range(..., num_stages=): 0 when not given
  bool warpSpecialize = false; // range(..., warp_specialize=True)
  std::vector<LoopCarried> carried;
  Block body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }
};

/// `while cond: body` with a runtime condition (scf.while). Each carried value enters the
/// condition as `arg` (`init` the first time, `next` after each iteration), the body as
/// `bodyArg[i]` (the same value, once the condition held) and leaves as `result` (the
/// value when the condition failed). `condBody` holds what evaluating `cond` needs
/// (inlined helpers, named loads); it runs before every test.
class WhileStmt : public Stmt {
public:
  WhileStmt(llvm::SMRange r) : Stmt(Kind::While, r) {}
  std::vector<LoopCarried> carried;
  std::vector<Variable *> bodyArgs;
  Block condBody;
  Expr *cond = nullptr; // i1 scalar
  Block body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }
};

/// A value an `if` with a runtime condition defines in both branches.
struct IfResult {
  Variable *result;
  Expr *thenValue;
  Expr *elseValue;
};

class IfStmt : public Stmt {
public:
  IfStmt(llvm::SMRange r, Expr *cond) : Stmt(Kind::If, r), cond(cond) {}
  Expr *cond; // i1 scalar
  Block thenBody, elseBody;
  std::vector<IfResult> results;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }
};

/// The body of a helper, elaborated for one call site (`range` is the call).
class InlineStmt : public Stmt {
public:
  InlineStmt(llvm::SMRange r, std::string callee, llvm::SMRange calleeRange)
      : Stmt(Kind::Inline, r), callee(std::move(callee)), calleeRange(calleeRange) {}
  std::string callee;
  llvm::SMRange calleeRange; // the helper's `def` header
  Block body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Inline; }
};

/// `associative_scan` (and `cumsum`, `cumprod`): inclusive scans of the tiles `operands`
/// (one shape) along `axis`, from the end with `reverse`. The combining function is
/// elaborated once on scalars: `params` are its 2N arguments (the earlier part's scalars,
/// then the later part's), `body` computes `yields` (N scalars of the operands' element
/// types) from them and nothing else (no memory, no runtime control flow). `results[i]`
/// is the scan of `operands[i]` (tile.scan).
class ScanStmt : public Stmt {
public:
  ScanStmt(llvm::SMRange r, unsigned axis, bool reverse)
      : Stmt(Kind::Scan, r), axis(axis), reverse(reverse) {}
  unsigned axis;
  bool reverse;
  std::string combiner; // the combining function's name, for the dump
  std::vector<Expr *> operands;
  std::vector<Variable *> params;
  Block body;
  std::vector<Expr *> yields;
  std::vector<Variable *> results;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Scan; }
};

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// The value of a constexpr parameter after defaults and -D overrides.
struct ConstexprValue {
  enum class Kind { Int, Float, Bool, DType, String } kind = Kind::Int;
  std::string name;
  int64_t intValue = 0;
  double floatValue = 0.0;
  ScalarKind dtype = ScalarKind::I32;
  std::string stringValue;
  std::string str() const; // as written in the AST dump
};

struct Kernel {
  std::string name;
  llvm::SMRange range;               // the `def` header
  std::vector<Variable *> arguments; // the runtime parameters, in order
  std::vector<ConstexprValue> constexprs;
  std::string grid[3];               // docs/ir.md's grid language
  int64_t numWarps = 4;
  int64_t numStages = 0;             // @kernel(num_stages=): 0 when not given
  int64_t splitK = 1;                // an @autotune configuration's split_k= (tile-split-k)
  std::unique_ptr<Autotune> autotune; // @autotune: the space and the configuration used
  Block body;
};

/// Every elaborated kernel of a file, and the storage of all their nodes.
class Program : public NodeArena<Expr, Stmt, Variable> {
public:
  std::vector<std::unique_ptr<Kernel>> kernels;
};

/// The `--emit=ast` dump: one node per line, indented, with `line:col` and the
/// type of every expression.
void print(const Program &program, const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);

} // namespace typed
} // namespace tcc

#endif // TCC_FRONTEND_TYPEDAST_H
