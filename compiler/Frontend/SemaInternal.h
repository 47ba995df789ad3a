//===- SemaInternal.h - Sema's state, shared by its source files ---------===//
//
// Sema.cpp: files, kernels, statements, control flow, helpers.
// SemaExpr.cpp: expressions, promotion, broadcasting, conversions.
// SemaBuiltins.cpp: binding a builtin's arguments, and the dispatch to its family's file
// (SemaValues, SemaMemory, SemaMath, SemaReduce, SemaScan, SemaSort, SemaShape, SemaRandom,
// SemaLibdevice, SemaBlockPtr, SemaDebug); each section below names its file.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_SEMAINTERNAL_H
#define TCC_FRONTEND_SEMAINTERNAL_H

#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Sema.h"

#include "dialects/Tile/Float8.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"

#include <memory>
#include <optional>

namespace tcc {
namespace sema {

// The LLVM names Sema's files use unqualified, declared once here (as
// mlir/Support/LLVM.h does for MLIR's).
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;
using llvm::SMRange;

enum class Builtin {
  ProgramId, NumPrograms, Arange, Cdiv, Zeros, ZerosLike, Full, Load, Store, AtomicAdd, Where,
  Minimum, Maximum, Clamp, Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Abs, Sin, Cos, Sigmoid, Tanh,
  Erf, Floor, Ceil, Fma,
  Sum, Max, Min, ArgMax, ArgMin, Dot, MultipleOf, MaxContiguous, BroadcastTo, ExpandDims,
  Join, Split, Trans, Permute, Reshape,
  Rand, Randn, Randint, Randint4x, Rand4x, Randn4x, Umulhi,
  AtomicMax, AtomicMin, AtomicAnd, AtomicOr, AtomicXor, AtomicXchg, AtomicCas, DebugBarrier,
  Libdevice,
  StaticAssert, StaticPrint, Print, Assume, Range, StaticRange, Float, Int, Cast,
  MakeBlockPtr, Advance, MakeTensorDescriptor, TensorDescriptorType, IsInstance,
  PointerType, DeviceAssert,
  Cumsum, Cumprod, AssociativeScan, Flip, Sort, View, Ravel,
};

struct BlockPointer;

/// What an expression denotes while Sema elaborates it: a runtime value
/// (a typed expression), a compile-time constant, or something that only
/// exists at compile time (a dtype, a tuple, a function, the `tl` namespace).
struct Value {
  enum class Kind {
    Error, Runtime, Int, Float, Bool, Str, None, DType, Tuple, Function, Builtin, Namespace,
    BlockPtr,
  };
  Kind kind = Kind::Error;
  typed::Expr *expr = nullptr;         // Runtime
  int64_t intValue = 0;                // Int, Bool
  double floatValue = 0.0;             // Float
  std::string str;                     // Str; Builtin/Function/Namespace: the name
  ScalarKind dtype = ScalarKind::I32;  // DType: the scalar type, or the pointee
  bool dtypeIsPointer = false;         // DType: pointer_type(dtype)
  std::vector<Value> elements;         // Tuple
  const ast::FunctionDef *function = nullptr;
  sema::Builtin builtin = sema::Builtin::Range;
  std::shared_ptr<const BlockPointer> blockPtr; // BlockPtr (SemaBlockPtr.cpp)

  static Value error() { return Value(); }
  static Value runtime(typed::Expr *e) { return with(Kind::Runtime, &Value::expr, e); }
  static Value integer(int64_t i) { return with(Kind::Int, &Value::intValue, i); }
  static Value floating(double f) { return with(Kind::Float, &Value::floatValue, f); }
  static Value boolean(bool b) { return with(Kind::Bool, &Value::intValue, int64_t(b)); }
  static Value string(std::string s) { return with(Kind::Str, &Value::str, std::move(s)); }
  static Value none() {
    Value v;
    v.kind = Kind::None;
    return v;
  }
  static Value dtypeOf(ScalarKind k) { return with(Kind::DType, &Value::dtype, k); }
  /// A scalar type, or a pointer type (`tl.pointer_type(T)`, a pointer's `.dtype`).
  static Value dtypeOf(ElementType e) {
    Value v = dtypeOf(e.scalar);
    v.dtypeIsPointer = e.isPointer;
    return v;
  }
  ElementType dtypeElement() const {
    return dtypeIsPointer ? ElementType::pointerTo(dtype) : ElementType::number(dtype);
  }
  static Value tuple(std::vector<Value> elems) {
    return with(Kind::Tuple, &Value::elements, std::move(elems));
  }

  bool isError() const { return kind == Kind::Error; }
  bool isRuntime() const { return kind == Kind::Runtime; }
  /// A number known at compile time (bools count as numbers, as in Python).
  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  bool isIntLike() const { return kind == Kind::Int || kind == Kind::Bool; }
  const Type &type() const { return expr->type; }
  /// For messages: "tile<128xf32>", "the constant 4", "a tuple", ...
  std::string describe() const;

private:
  /// A Value of kind k whose `field` is x (the constructors above).
  template <typename F, typename X> static Value with(Kind k, F Value::*field, X &&x) {
    Value v;
    v.kind = k;
    v.*field = std::forward<X>(x);
    return v;
  }
};

/// make_block_ptr / make_tensor_descriptor (SemaBlockPtr.cpp): a compile-time structure of
/// runtime scalars. Loads and stores through it become ordinary tiles of pointers with bounds
/// masks; a loop carries its offsets (the rest must not change in the loop).
struct BlockPointer {
  bool isDescriptor = false;
  typed::Expr *base = nullptr;       // a pointer scalar
  std::vector<Value> shape, strides; // integer scalars or compile-time integers
  std::vector<Value> offsets;        // block pointers only: i32 scalars or compile-time integers
  std::vector<int64_t> blockShape;   // powers of two
  std::vector<int64_t> order;        // block pointers only: a permutation (a layout hint)
  bool nanPadding = false;           // descriptors: padding_option="nan"
  llvm::SMRange range;               // where it was made
  std::string describe() const;
};

/// A name's current meaning in a function; `version` changes on every
/// assignment so that control flow can tell which names a block redefined.
struct Binding {
  Value value;
  unsigned version = 0;
  llvm::SMRange defRange;
};

/// Why a name is not visible although the source defines it somewhere.
struct LostName {
  llvm::SMRange defRange;
  std::string why;
};

/// One function being elaborated: the kernel, or one inlined call of a helper.
struct Frame {
  const ast::FunctionDef *function = nullptr;
  bool isKernel = false;
  llvm::StringMap<Binding> env;
  llvm::StringMap<LostName> lost;
  bool returned = false;
  Value returnValue = Value::none();
  unsigned runtimeControlDepth = 0; // enclosing runtime `if`s and loops
};

using NameSet = llvm::StringSet<>;

/// `a.b.c` for a name or attribute chain; empty for anything else.
std::string dottedName(const ast::Expr *e);

/// The format of an fp8 scalar kind (dialects/Tile/Float8.h).
mlir::tile::fp8::Format fp8Format(ScalarKind k);

/// A compile-time value as a kernel's constexpr (false for runtime values, tuples, ...).
bool toConstexprValue(const std::string &name, const Value &v, typed::ConstexprValue &out);

/// An @autotune decorator's space before elaboration (SemaAutotune.cpp).
struct AutotuneSpace {
  struct Config {
    llvm::SMRange range;
    std::vector<std::pair<std::string, const ast::Expr *>> values; // NAME = value
    std::vector<llvm::SMRange> nameRanges;
    const ast::Expr *numWarps = nullptr, *numStages = nullptr, *splitK = nullptr;
  };
  const ast::CallExpr *decorator = nullptr;
  std::vector<Config> configs;
  std::vector<const ast::Expr *> prune;
  const ast::Expr *key = nullptr;
  std::vector<const ast::Expr *> restore; // restore_value=, reset_to_zero=
  std::vector<int64_t> numWarps, numStages; // per configuration; 0 where not given
  std::vector<int64_t> splitK;              // per configuration; 1 where not given
  bool overridden = false; // the command line gives the configuration: not tuned
};

/// A grid expression being rebuilt as text (docs/ir.md's grid language).
struct GridTerm {
  std::string text;
  int precedence = 0; // 0 atom, 1 unary, 2 multiplicative, 3 additive
  std::optional<int64_t> value; // when the whole term is a constant
};

class PhiloxBuilder;

class Sema {
public:
  Sema(DiagnosticEngine &diags, const ast::Module &module, const SemaOptions &options);
  std::unique_ptr<typed::Program> run();

  // Sema.cpp ---------------------------------------------------------------
  void collectFunctions();
  void evaluateGlobals();
  void elaborateKernel(const ast::FunctionDef &fn);
  void bindKernelParams(const ast::FunctionDef &fn, typed::Kernel &k);
  void readKernelOptions(const ast::FunctionDef &fn, typed::Kernel &k);

  // SemaAutotune.cpp -------------------------------------------------------
  /// The @autotune decorator of `fn`, or null.
  static const ast::CallExpr *autotuneDecorator(const ast::FunctionDef &fn);
  /// Reads and checks the space of `decorator`, prunes it and picks the configuration to
  /// elaborate (options.autotuneConfig, else the first kept); its values go into `defines`
  /// (the previous entries saved in `saved`). Null after errors.
  std::unique_ptr<typed::Autotune> beginAutotune(const ast::FunctionDef &fn,
                                                 const ast::CallExpr *decorator,
                                                 AutotuneSpace &space,
                                                 llvm::StringMap<const ast::Expr *> &saved);
  bool readAutotuneConfig(const ast::Expr *e, const ast::FunctionDef &fn,
                          AutotuneSpace::Config &out);
  /// After the parameters: the key and restore names, the configuration's warps and stages.
  bool finishAutotune(const AutotuneSpace &space, typed::Kernel &k);
  bool namesOfParameters(const ast::Expr *e, bool pointers, llvm::StringRef what,
                         std::vector<std::string> &out);
  bool gridTerm(const ast::Expr *e, GridTerm &out);
  void statements(const ast::Block &stmts, const NameSet &liveOut);
  void statement(const ast::Stmt *s, const NameSet &liveAfter);
  void assignStmt(const ast::AssignStmt *s);
  void ifStmt(const ast::IfStmt *s, const NameSet &liveAfter);
  void forStmt(const ast::ForStmt *s, const NameSet &liveAfter);
  void whileStmt(const ast::WhileStmt *s, const NameSet &liveAfter);
  /// A runtime loop's carried values: the names `assigned` in its body (but `skip`) that
  /// are defined before it and `live` at its head, each with its value before the loop.
  struct CarriedName {
    std::string name;
    typed::Expr *init;
    llvm::SMRange defRange;
    int component = -1; // a block pointer's offset (SemaBlockPtr.cpp), else -1
  };
  std::vector<CarriedName> loopCarried(const std::vector<std::string> &assigned,
                                       const NameSet &live, llvm::StringRef skip,
                                       llvm::SMRange loopRange);
  /// Binds `name` to a new variable of `type` (a loop's block argument) and returns it.
  typed::Variable *bindLoopArgument(const CarriedName &c, const Type &type);
  /// The value of carried `name` at the end of the body, of `arg`'s type (an error
  /// otherwise, with notes from `saved`, the names before the loop).
  typed::Expr *loopNext(const std::string &name, typed::Variable *arg,
                        const llvm::StringMap<Binding> &saved, llvm::SMRange loopRange,
                        int component = -1);
  /// After a runtime loop: the names first assigned in it are lost, the others are as
  /// in `saved` but the carried ones, which hold `results`.
  void endLoop(const std::vector<std::string> &assigned, llvm::StringMap<Binding> saved,
               const std::vector<CarriedName> &carried,
               const std::vector<typed::Variable *> &results, llvm::SMRange loopRange);
  /// A runtime condition of an `if` or `while` as an i1 scalar; null (after an error) for
  /// a tile or a pointer.
  typed::Expr *runtimeCondition(const Value &c, llvm::SMRange range, llvm::StringRef what);
  void staticFor(const ast::ForStmt *s, const ast::CallExpr *range, const NameSet &liveAfter);
  void returnStmt(const ast::ReturnStmt *s);
  bool earlyReturn(const ast::Stmt *s, const ast::Block &stmts, size_t i, const NameSet &liveOut);
  Value callHelper(const ast::FunctionDef &fn, const ast::CallExpr *call);
  /// The body of helper `fn` elaborated here on `args` (one per parameter, defaults
  /// filled in), after its parameter annotations are checked; `callRange` is the call.
  Value inlineHelper(const ast::FunctionDef &fn, std::vector<Value> args,
                     const std::vector<llvm::SMRange> &argRanges, llvm::SMRange callRange);
  void assign(const std::string &name, Value v, llvm::SMRange range);
  bool carriable(const Value &v) const;
  bool chargeWork(llvm::SMRange range);

  // SemaExpr.cpp -----------------------------------------------------------
  Value expr(const ast::Expr *e);
  /// `x.sum(0)`, `x.trans()`, ...: Triton's tensor methods, the builtin of that name on
  /// `base` (the value of `attr->base`, not evaluated again) and the call's arguments;
  /// std::nullopt when `attr->name` is not one.
  std::optional<Value> tensorMethod(const Value &base, const ast::AttributeExpr *attr,
                                    const ast::CallExpr *call);
  /// Values of expressions already evaluated, which expr() returns instead of evaluating
  /// them again (a tensor method's object, passed on as its builtin's first argument).
  llvm::DenseMap<const ast::Expr *, Value> preEvaluated;
  Value lookup(const ast::NameExpr *e);
  Value lookupBuiltin(llvm::StringRef name) const;
  Value unary(const ast::UnaryExpr *e);
  Value binary(ast::BinaryOp op, Value lhs, Value rhs, llvm::SMRange opRange,
               llvm::SMRange lhsRange, llvm::SMRange rhsRange, llvm::SMRange whole);
  Value foldBinary(ast::BinaryOp op, const Value &lhs, const Value &rhs, llvm::SMRange opRange);
  Value logical(const ast::BinaryExpr *e);
  Value ternary(const ast::TernaryExpr *e);
  Value call(const ast::CallExpr *e);
  Value attribute(const ast::AttributeExpr *e);
  Value subscript(const ast::SubscriptExpr *e);
  Value castTo(const Value &v, const Value &dtype, llvm::SMRange range, llvm::SMRange dtypeRange);
  /// `.to(dtype, bitcast=True)`: the bits of `v` as `dtype`, of the same width.
  Value bitcastTo(const Value &v, const Value &dtype, llvm::SMRange range,
                  llvm::SMRange dtypeRange);
  /// `.to()` and `cast()`: `bitcast` (absent: None) chooses between the two.
  Value convertCall(const Value &v, const Value &dtype, const Value &bitcast,
                    llvm::SMRange range, llvm::SMRange dtypeRange, llvm::SMRange bitcastRange);
  bool truthy(const Value &v, bool &result, llvm::SMRange range, llvm::StringRef what);

  ElementType literalElement(const Value &c) const;
  ElementType commonElement(const Value &l, const Value &r) const;
  bool numericOperands(const Value &l, const Value &r, llvm::StringRef opName,
                       llvm::SMRange opRange, llvm::SMRange lRange, llvm::SMRange rRange,
                       ElementType common, typed::Expr *&le, typed::Expr *&re,
                       llvm::SmallVectorImpl<int64_t> &shape);
  Value pointerArithmetic(ast::BinaryOp op, const Value &l, const Value &r,
                          llvm::SMRange opRange, llvm::SMRange lRange, llvm::SMRange rRange,
                          llvm::SMRange whole);
  ElementType promote(ElementType a, ElementType b) const;
  std::optional<ElementType> operandElement(const Value &lit, ElementType other) const;
  typed::Expr *constant(const Value &c, const Type &type, llvm::SMRange range);
  typed::Expr *toRuntime(const Value &v, llvm::SMRange range);
  typed::Expr *convertElement(typed::Expr *e, ElementType to, llvm::SMRange range);
  typed::Expr *broadcastTo(typed::Expr *e, llvm::ArrayRef<int64_t> shape, llvm::SMRange range);
  bool broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                       llvm::SmallVectorImpl<int64_t> &out) const;
  typed::Expr *coerce(const Value &v, const Type &target, llvm::SMRange range);
  bool checkTileSize(llvm::ArrayRef<int64_t> shape, llvm::SMRange range);
  void noteOperand(const Value &v, llvm::SMRange range, llvm::StringRef which);
  void noteDefinition(const Value &v);
  /// An error where `what` would compute on an fp8 element type (only conversions, loads,
  /// stores, where and dot take fp8): true when `e` is fp8.
  bool rejectFp8(ElementType e, llvm::StringRef what, llvm::SMRange range);

  // SemaBuiltins.cpp: the dispatch and the argument readers -----------------
  Value builtinCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  bool bindArguments(const ast::CallExpr *call, llvm::StringRef name,
                     llvm::ArrayRef<const char *> params, unsigned required,
                     std::vector<Value> &out, std::vector<llvm::SMRange> &ranges,
                     llvm::ArrayRef<const char *> ignored = {});
  std::optional<int64_t> constantInt(const Value &v, llvm::SMRange range, llvm::StringRef what);
  bool shapeArgument(const Value &v, llvm::SMRange range, llvm::SmallVectorImpl<int64_t> &shape);
  std::optional<ScalarKind> dtypeArgument(const Value &v, llvm::SMRange range);
  /// A mask argument of `fn`: null for none (or a constant True), an i1 value otherwise.
  bool maskArgument(const Value &v, llvm::SMRange range, llvm::StringRef fn, typed::Expr *&mask);

  // SemaValues.cpp ---------------------------------------------------------
  Value programIdCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  Value arangeCall(llvm::StringRef name, const ast::CallExpr *call);
  /// zeros and full.
  Value fullCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  Value zerosLikeCall(llvm::StringRef name, const ast::CallExpr *call);
  Value floatCall(llvm::StringRef name, const ast::CallExpr *call);
  Value intCall(llvm::StringRef name, const ast::CallExpr *call);
  Value castCall(llvm::StringRef name, const ast::CallExpr *call);
  Value pointerTypeCall(llvm::StringRef name, const ast::CallExpr *call);

  // SemaMemory.cpp ---------------------------------------------------------
  Value loadCall(const ast::CallExpr *call);
  Value storeCall(const ast::CallExpr *call);
  Value atomicAddCall(const ast::CallExpr *call);
  /// atomic_max/min/and/or/xor/xchg/cas, and atomic_add with sem= or scope=.
  Value atomicCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  bool writeOperands(const ast::CallExpr *call, llvm::StringRef whatItDoes,
                     const std::vector<Value> &a, const std::vector<llvm::SMRange> &r,
                     typed::Expr *&ptr, typed::Expr *&v, typed::Expr *&mask);

  // SemaMath.cpp -----------------------------------------------------------
  Value mathFn(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  /// minimum/maximum of two numbers (folded for constants); `propagateNan`: a NaN operand
  /// gives NaN (PropagateNan.ALL) instead of being ignored.
  Value minMax(bool isMax, bool propagateNan, const Value &x, const Value &y, llvm::SMRange rx,
               llvm::SMRange ry, llvm::StringRef name, llvm::SMRange whole);
  /// propagate_nan=: PropagateNan.NONE / PropagateNan.ALL (also False / True, or absent).
  std::optional<bool> propagateNanArgument(const Value &v, llvm::SMRange range, llvm::StringRef name);
  Value minimumMaximumCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  Value clampCall(llvm::StringRef name, const ast::CallExpr *call);
  Value fmaCall(llvm::StringRef name, const ast::CallExpr *call);
  Value cdivCall(llvm::StringRef name, const ast::CallExpr *call);
  Value whereCall(llvm::StringRef name, const ast::CallExpr *call);
  /// libdevice.NAME(...) (SemaLibdevice.cpp); `name` as written, ending in .NAME.
  Value libdeviceCall(llvm::StringRef name, const ast::CallExpr *call);

  // SemaReduce.cpp ---------------------------------------------------------
  Value reduce(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  Value dotCall(const ast::CallExpr *call);
  /// cumsum, cumprod and associative_scan (SemaScan.cpp).
  Value scanCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  /// flip and sort (SemaSort.cpp).
  Value sortCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);

  // SemaShape.cpp, SemaRandom.cpp -------------------------------------------
  /// broadcast_to, expand_dims, join and split, made of broadcasts, selects and
  /// reductions (SemaShape.cpp).
  Value shapeCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  /// The arguments of `call` after its first, evaluated, as a list: the elements of a lone
  /// tuple (f(x, (1, 0))) or the arguments themselves (f(x, 1, 0)); false once one is an
  /// error (its message given).
  bool trailingArguments(const ast::CallExpr *call, std::vector<Value> &out);
  /// `x` with its dimensions permuted by `order` (given in `orderRange`); reversed for
  /// an empty `order` on a 2-D tile (trans and .T).
  Value permuteDims(const Value &x, std::vector<Value> order, llvm::SMRange range,
                    llvm::SMRange orderRange, llvm::StringRef name);
  /// rand, randn, randint, randint4x, rand4x, randn4x (Triton's Philox) and umulhi
  /// (SemaRandom.cpp).
  Value randomCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);

  // SemaDebug.cpp ----------------------------------------------------------
  /// multiple_of and max_contiguous.
  Value hint(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  /// print (at run time) and static_print (`compileTime`).
  Value printCall(const ast::CallExpr *call, bool compileTime);
  Value staticAssertCall(llvm::StringRef name, const ast::CallExpr *call);
  Value assumeCall(llvm::StringRef name, const ast::CallExpr *call);
  Value deviceAssertCall(llvm::StringRef name, const ast::CallExpr *call);
  Value debugBarrierCall(llvm::StringRef name, const ast::CallExpr *call);

  // SemaBlockPtr.cpp -------------------------------------------------------
  /// make_block_ptr, advance, make_tensor_descriptor, isinstance.
  Value blockPtrCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call);
  /// load(block_ptr, boundary_check=, padding_option=): `a`/`r` as loadCall binds them.
  Value blockPtrLoad(const ast::CallExpr *call, const std::vector<Value> &a,
                     const std::vector<llvm::SMRange> &r);
  Value blockPtrStore(const ast::CallExpr *call, const std::vector<Value> &a,
                      const std::vector<llvm::SMRange> &r);
  /// desc.load(offsets) / desc.store(offsets, value).
  Value descriptorMethod(const Value &desc, const ast::AttributeExpr *attr,
                         const ast::CallExpr *call);
  /// Loops: a block pointer's offsets are carried one by one.
  void carryBlockPointer(const std::string &name, const Value &init, llvm::SMRange defRange,
                         llvm::SMRange loopRange, std::vector<CarriedName> &out);
  typed::Variable *bindBlockPointerOffset(const CarriedName &c, const Type &type);
  typed::Expr *blockPointerNext(const std::string &name, int component, typed::Variable *arg,
                                const llvm::StringMap<Binding> &saved, llvm::SMRange loopRange);
  void setBlockPointerOffset(Binding &b, int component, typed::Expr *offset);

  // Helpers ------------------------------------------------------------------
  template <typename T, typename... Args> T *make(Args &&...args) {
    return program->make<T>(std::forward<Args>(args)...);
  }
  typed::Variable *newVariable(llvm::StringRef name, const Type &type, llvm::SMRange range);
  /// Emits `let name = e` and returns a reference to it.
  Value bind(llvm::StringRef name, typed::Expr *e, llvm::SMRange range);
  /// Like bind(), for a value that must be computed here and now (a load, so
  /// that it happens before the stores of helpers called later in the same
  /// expression); renamed after the variable it is first assigned to.
  Value bindTemporary(llvm::StringRef name, typed::Expr *e, llvm::SMRange range);
  std::string uniqueName(llvm::StringRef name);
  void emit(typed::Stmt *s) { block->push_back(s); }

  DiagnosticEngine &diags;
  const ast::Module &module;
  const SemaOptions &options;
  std::unique_ptr<typed::Program> program;

  llvm::StringMap<const ast::FunctionDef *> functions;
  llvm::StringSet<> kernelNames;
  llvm::StringMap<Binding> globals;
  llvm::StringMap<const ast::Expr *> defines;
  llvm::StringSet<> usedDefines;
  /// Statement lists after which nothing else in the function runs.
  llvm::SmallPtrSet<const ast::Block *, 8> tailBlocks;
  std::vector<std::unique_ptr<ast::Stmt>> syntheticStmts;
  llvm::SmallPtrSet<typed::Variable *, 16> temporaries;

  Frame *frame = nullptr;
  typed::Block *block = nullptr;
  typed::Kernel *kernel = nullptr;
  llvm::StringMap<unsigned> variableNames; // per kernel, for unique names
  unsigned inlineDepth = 0;
  unsigned versionCounter = 0;
  uint64_t work = 0;
  bool workExhausted = false;

  static constexpr unsigned kMaxInlineDepth = 32;
  static constexpr unsigned kMaxStaticIterations = 4096;
  static constexpr uint64_t kMaxWork = 200000;
};

/// Names read / assigned anywhere in a statement list (syntactically).
void collectReads(const ast::Block &block, NameSet &out);
void collectReads(const ast::Stmt *s, NameSet &out);
void collectReads(const ast::Expr *e, NameSet &out);
void collectAssigned(const ast::Block &block, std::vector<std::string> &out, NameSet &seen);
/// The name a statement `multiple_of(x, ...)` / `max_contiguous(x, ...)` (also as
/// `tl.multiple_of`) annotates, its result unused: Triton puts the hint on `x` itself, so
/// the statement rebinds `x` to the hinted value (tutorial 08 writes
/// `tl.multiple_of(a_ptrs, [16, 16])` before `tl.load(a_ptrs)`). Null for anything else.
const ast::NameExpr *hintedName(const ast::Stmt *s);
/// Backward liveness: turns the names live after `s` (or `block`) into the
/// names live before it.
void transferLiveness(const ast::Stmt *s, NameSet &live);
void liveIn(const ast::Block &block, NameSet &live);

} // namespace sema
} // namespace tcc

#endif // TCC_FRONTEND_SEMAINTERNAL_H
