//===- Sema.cpp - Files, kernels, statements, control flow, helpers ------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <cmath>

using namespace tcc;
using namespace tcc::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;
using llvm::SMRange;

std::unique_ptr<typed::Program> tcc::analyze(DiagnosticEngine &diags, const ast::Module &module,
                                             const SemaOptions &options) {
  Sema sema(diags, module, options);
  return sema.run();
}

Sema::Sema(DiagnosticEngine &diags, const ast::Module &module, const SemaOptions &options)
    : diags(diags), module(module), options(options) {}

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

//===----------------------------------------------------------------------===//
// Values and variables
//===----------------------------------------------------------------------===//

std::string Value::describe() const {
  switch (kind) {
  case Kind::Error: return "an invalid value";
  case Kind::Runtime: return expr->type.str();
  case Kind::Int: return "the integer constant " + std::to_string(intValue);
  case Kind::Float: return "a floating-point constant";
  case Kind::Bool: return intValue ? "the constant True" : "the constant False";
  case Kind::Str: return "a string";
  case Kind::None: return "None";
  case Kind::DType: return "the type " + dtypeElement().str();
  case Kind::Tuple: return "a tuple";
  case Kind::Function: return "the function '" + str + "'";
  case Kind::Builtin: return "the builtin '" + str + "'";
  case Kind::Namespace: return "the namespace '" + str + "'";
  case Kind::BlockPtr: return blockPtr->describe();
  }
  return "a value";
}

std::string Sema::uniqueName(llvm::StringRef name) {
  unsigned n = variableNames[name]++;
  return n == 0 ? name.str() : (name + "." + llvm::Twine(n)).str();
}

typed::Variable *Sema::newVariable(llvm::StringRef name, const Type &type, SMRange range) {
  auto *v = make<typed::Variable>();
  v->name = uniqueName(name);
  v->type = type;
  v->range = range;
  return v;
}

Value Sema::bind(llvm::StringRef name, typed::Expr *e, SMRange range) {
  typed::Variable *var = newVariable(name, e->type, range);
  emit(make<typed::LetStmt>(range, var, e));
  return Value::runtime(make<typed::VarRefExpr>(var, range));
}

Value Sema::bindTemporary(llvm::StringRef name, typed::Expr *e, SMRange range) {
  Value v = bind(name, e, range);
  temporaries.insert(cast<typed::VarRefExpr>(v.expr)->var);
  return v;
}

void Sema::assign(const std::string &name, Value v, SMRange range) {
  if (v.isRuntime() && !isa<typed::VarRefExpr>(v.expr))
    v = bind(name, v.expr, range);
  // `a = load(...)`: the load's temporary takes the name it is given.
  if (v.isRuntime())
    if (auto *ref = dyn_cast<typed::VarRefExpr>(v.expr))
      if (temporaries.erase(ref->var)) {
        ref->var->name = uniqueName(name);
        ref->var->range = range;
      }
  Binding &b = frame->env[name];
  b.value = std::move(v);
  b.version = ++versionCounter;
  b.defRange = range;
  frame->lost.erase(name);
}

bool Sema::carriable(const Value &v) const { return v.isRuntime() || v.isNumber(); }

bool Sema::chargeWork(SMRange range) {
  if (workExhausted)
    return false;
  if (++work <= kMaxWork)
    return true;
  workExhausted = true;
  diags.error(range, "the kernel is too large: more than " + llvm::Twine(kMaxWork) +
                         " statements after inlining helpers and unrolling static_range loops");
  return false;
}

//===----------------------------------------------------------------------===//
// The file
//===----------------------------------------------------------------------===//

std::string sema::dottedName(const ast::Expr *e) {
  if (auto *n = dyn_cast<ast::NameExpr>(e))
    return n->name;
  if (auto *a = dyn_cast<ast::AttributeExpr>(e)) {
    std::string base = dottedName(a->base);
    return base.empty() ? "" : base + "." + a->name;
  }
  return "";
}

/// The decorator that makes `fn` a kernel, or null for a helper. `ok` turns
/// false on a decorator tcc does not know.
static const ast::Expr *kernelDecorator(const ast::FunctionDef &fn, DiagnosticEngine &diags,
                                        bool &ok) {
  const ast::Expr *found = nullptr;
  for (const ast::Expr *d : fn.decorators) {
    const ast::Expr *callee = d;
    if (auto *c = dyn_cast<ast::CallExpr>(d))
      callee = c->callee;
    std::string name = dottedName(callee);
    if (name == "kernel" || name == "tcc.kernel") {
      found = d;
    } else if (name == "jit" || name == "triton.jit") {
      // Triton marks helpers and kernels alike; tcc inlines helpers anyway.
    } else if (name == "autotune" || name == "tcc.autotune" || name == "triton.autotune") {
      // Read with the kernel (SemaAutotune.cpp).
    } else {
      diags.error(d->range, "unknown decorator '" + (name.empty() ? std::string("?") : name) +
                                "'; kernels are marked with @kernel(grid=..., num_warps=...)");
      ok = false;
    }
  }
  return found;
}

void Sema::collectFunctions() {
  for (const ast::FunctionDef *fn : module.functions) {
    auto [it, inserted] = functions.try_emplace(fn->name, fn);
    if (!inserted) {
      diags.error(fn->nameRange, "redefinition of '" + fn->name + "'");
      diags.note(it->second->nameRange, "the previous definition is here");
    }
  }
}

void Sema::evaluateGlobals() {
  Frame global;
  typed::Block scratch;
  frame = &global;
  block = &scratch;
  for (const ast::GlobalConstant &c : module.constants) {
    const ast::Expr *valueExpr = c.value;
    auto d = defines.find(c.name);
    if (d != defines.end()) {
      valueExpr = d->second;
      usedDefines.insert(c.name);
    }
    Value v = expr(valueExpr);
    if (v.isRuntime()) {
      diags.error(valueExpr->range, "the top-level constant '" + c.name +
                                        "' must be known at compile time");
      v = Value::error();
    }
    if (functions.count(c.name)) {
      diags.error(c.nameRange, "'" + c.name + "' is defined both as a constant and a function");
      continue;
    }
    Binding &b = globals[c.name];
    b.value = v;
    b.version = ++versionCounter;
    b.defRange = c.nameRange;
  }
  frame = nullptr;
  block = nullptr;
}

std::unique_ptr<typed::Program> Sema::run() {
  program = std::make_unique<typed::Program>();
  for (const Define &d : options.defines)
    defines[d.name] = d.value;
  collectFunctions();
  evaluateGlobals();

  std::vector<const ast::FunctionDef *> kernels;
  bool decoratorsOk = true;
  for (const ast::FunctionDef *fn : module.functions)
    if (kernelDecorator(*fn, diags, decoratorsOk)) {
      // A kernel's name is its entry symbol in the PTX, where an identifier that starts
      // with '_' needs another character after it.
      if (fn->name == "_") {
        diags.error(fn->nameRange, "a kernel cannot be named '_': its name is the PTX entry "
                                   "symbol, which needs a letter or digit after an underscore");
        decoratorsOk = false;
      }
      kernels.push_back(fn);
      kernelNames.insert(fn->name);
    }
  if (!decoratorsOk)
    return nullptr;

  if (!options.kernelName.empty()) {
    auto it = std::find_if(kernels.begin(), kernels.end(), [&](const ast::FunctionDef *fn) {
      return fn->name == options.kernelName;
    });
    if (it == kernels.end()) {
      auto f = functions.find(options.kernelName);
      if (f != functions.end()) {
        diags.error(f->second->nameRange, "'" + options.kernelName +
                                              "' is a helper, not a kernel: it has no @kernel "
                                              "decorator");
      } else {
        // At most a few names: a generated file may hold thousands of kernels.
        constexpr size_t kListed = 8;
        std::string names;
        for (size_t i = 0; i < kernels.size() && i < kListed; ++i)
          names += (names.empty() ? "" : ", ") + kernels[i]->name;
        if (kernels.size() > kListed)
          names += " and " + std::to_string(kernels.size() - kListed) + " more";
        diags.error("no kernel named '" + options.kernelName + "' in this file");
        if (!names.empty())
          diags.note("the kernels are: " + names);
      }
      return nullptr;
    }
    kernels = {*it};
  }
  if (kernels.empty() && !diags.hasErrors()) {
    // A Triton file: its entry points carry @triton.jit, which marks helpers too.
    const ast::FunctionDef *jitted = nullptr;
    for (const ast::FunctionDef *fn : module.functions)
      for (const ast::Expr *d : fn->decorators) {
        const ast::Expr *callee = d;
        if (auto *c = dyn_cast<ast::CallExpr>(d))
          callee = c->callee;
        std::string name = dottedName(callee);
        if (!jitted && (name == "jit" || name == "triton.jit"))
          jitted = fn;
      }
    if (jitted) {
      diags.error(jitted->nameRange,
                  "no kernel in this file: '" + jitted->name + "' is marked @triton.jit, which "
                  "tcc reads as a helper; mark the entry point with @kernel(grid=(...), "
                  "num_warps=...) as well (the launch grid moves there)");
      return nullptr;
    }
    diags.error("no kernel in this file: mark an entry point with @kernel(grid=(...), "
                "num_warps=...)");
    return nullptr;
  }
  for (const ast::FunctionDef *fn : kernels) {
    if (diags.tooManyErrors())
      break;
    elaborateKernel(*fn);
  }
  for (const Define &d : options.defines)
    if (!usedDefines.count(d.name)) {
      diags.error(d.value ? d.value->range : SMRange(),
                  "-D " + d.name + ": no kernel has a constexpr parameter named '" + d.name +
                      "', and there is no top-level constant of that name");
    }
  if (diags.hasErrors())
    return nullptr;
  return std::move(program);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

namespace {
/// A parameter annotation's meaning.
struct ParamKind {
  bool valid = false;
  bool isConstexpr = false;
  Type type;
};
} // namespace

static ParamKind resolveAnnotation(const ast::Annotation &a, DiagnosticEngine &diags) {
  ParamKind k;
  llvm::StringRef name = a.name;
  for (llvm::StringRef prefix : {"triton.language.", "tl.", "tcc."})
    if (name.starts_with(prefix)) {
      name = name.drop_front(prefix.size());
      break;
    }
  if (name == "constexpr") {
    if (a.pointerDepth) {
      diags.error(a.range, "'constexpr' cannot be a pointer");
      return k;
    }
    k.valid = k.isConstexpr = true;
    return k;
  }
  std::optional<ScalarKind> s = parseScalarName(name);
  if (!s) {
    diags.error(a.range, "unknown type '" + a.name +
                             "'; expected a scalar type (i1, i8, i16, i32, i64, f16, bf16, "
                             "f32, f64, f8e4nv, f8e5), a pointer such as *f32, or constexpr");
    return k;
  }
  if (a.pointerDepth > 1) {
    diags.error(a.range, "pointers to pointers are not supported");
    return k;
  }
  k.valid = true;
  k.type = a.pointerDepth ? Type::pointer(*s) : Type::scalar(*s);
  return k;
}

bool sema::toConstexprValue(const std::string &name, const Value &v,
                             typed::ConstexprValue &out) {
  out.name = name;
  switch (v.kind) {
  case Value::Kind::Int:
    out.kind = typed::ConstexprValue::Kind::Int;
    out.intValue = v.intValue;
    return true;
  case Value::Kind::Bool:
    out.kind = typed::ConstexprValue::Kind::Bool;
    out.intValue = v.intValue;
    return true;
  case Value::Kind::Float:
    out.kind = typed::ConstexprValue::Kind::Float;
    out.floatValue = v.floatValue;
    return true;
  case Value::Kind::DType:
    if (v.dtypeIsPointer) // not recorded as a constexpr (tile.constexprs holds number types)
      return false;
    out.kind = typed::ConstexprValue::Kind::DType;
    out.dtype = v.dtype;
    return true;
  case Value::Kind::Str:
    out.kind = typed::ConstexprValue::Kind::String;
    out.stringValue = v.str;
    return true;
  default:
    return false;
  }
}

void Sema::elaborateKernel(const ast::FunctionDef &fn) {
  auto k = std::make_unique<typed::Kernel>();
  kernel = k.get();
  k->name = fn.name;
  k->range = fn.headerRange;
  variableNames.clear();
  work = 0;
  workExhausted = false;
  Frame f;
  f.function = &fn;
  f.isKernel = true;
  frame = &f;
  block = &k->body;

  // @autotune: the chosen configuration's values are bound like -D values.
  AutotuneSpace space;
  llvm::StringMap<const ast::Expr *> saved;
  auto restoreDefines = [&] {
    for (auto &entry : saved) {
      if (entry.second)
        defines[entry.first()] = entry.second;
      else
        defines.erase(entry.first());
    }
    saved.clear();
  };
  bool autotuned = false;
  for (const ast::Expr *d : fn.decorators) {
    auto *c = dyn_cast<ast::CallExpr>(d);
    std::string n = dottedName(c ? c->callee : d);
    if (n == "autotune" || n == "tcc.autotune" || n == "triton.autotune") {
      if (autotuned || !c) {
        diags.error(d->range, autotuned ? "a kernel takes one @autotune"
                                        : "@autotune needs configs=[config(...), ...] and key=[...]");
        frame = nullptr, block = nullptr, kernel = nullptr;
        return;
      }
      autotuned = true;
      k->autotune = beginAutotune(fn, c, space, saved);
      if (!k->autotune && !space.overridden) {
        restoreDefines();
        frame = nullptr, block = nullptr, kernel = nullptr;
        return;
      }
      frame = &f;
      block = &k->body;
    }
  }

  for (const ast::Param &p : fn.params) {
    if (!p.annotation.present()) {
      diags.error(p.nameRange, "kernel parameter '" + p.name +
                                   "' needs a type, such as '" + p.name + ": *f32', '" +
                                   p.name + ": i32' or '" + p.name + ": constexpr'");
      assign(p.name, Value::error(), p.nameRange);
      continue;
    }
    ParamKind kind = resolveAnnotation(p.annotation, diags);
    if (!kind.valid) {
      assign(p.name, Value::error(), p.nameRange);
      continue;
    }
    if (!kind.isConstexpr) {
      if (p.defaultValue)
        diags.error(p.defaultValue->range,
                    "only constexpr parameters can have default values; '" + p.name +
                        "' is a runtime argument");
      if (kind.type.element().isFp8())
        diags.error(p.annotation.range, "a kernel parameter cannot be an fp8 scalar (" +
                                            kind.type.str() + "); pass an f16 or f32 and "
                                            "convert it with .to(), or a pointer *" +
                                            kind.type.str());
      typed::Variable *var = newVariable(p.name, kind.type, p.nameRange);
      k->arguments.push_back(var);
      assign(p.name, Value::runtime(make<typed::VarRefExpr>(var, p.nameRange)), p.nameRange);
      continue;
    }
    const ast::Expr *source = p.defaultValue;
    auto d = defines.find(p.name);
    if (d != defines.end()) {
      source = d->second;
      usedDefines.insert(p.name);
    }
    if (!source) {
      diags.error(p.nameRange, "constexpr parameter '" + p.name + "' has no value: give it a "
                               "default ('" + p.name + ": constexpr = 128') or pass -D " +
                               p.name + "=<value>");
      assign(p.name, Value::error(), p.nameRange);
      continue;
    }
    Value v = expr(source);
    typed::ConstexprValue cv;
    if (v.isError()) {
      assign(p.name, v, p.nameRange);
      continue;
    }
    if (!toConstexprValue(p.name, v, cv)) {
      diags.error(source->range, "the value of constexpr parameter '" + p.name +
                                     "' must be a compile-time number, boolean, string or "
                                     "type, not " + v.describe());
      assign(p.name, Value::error(), p.nameRange);
      continue;
    }
    k->constexprs.push_back(cv);
    assign(p.name, v, p.nameRange);
  }

  bool ok = true;
  const ast::Expr *decorator = kernelDecorator(fn, diags, ok);
  k->grid[0] = k->grid[1] = k->grid[2] = "1";
  if (auto *call = llvm::dyn_cast_or_null<ast::CallExpr>(decorator)) {
    if (!call->args.empty())
      diags.error(call->args.front()->range,
                  "@kernel takes keyword arguments only: grid=(...), num_warps=N");
    for (const ast::KeywordArg &kw : call->kwargs) {
      if (kw.name == "grid") {
        std::vector<const ast::Expr *> dims;
        if (auto *t = dyn_cast<ast::TupleExpr>(kw.value))
          dims.assign(t->elements.begin(), t->elements.end());
        else
          dims.push_back(kw.value);
        if (dims.empty() || dims.size() > 3) {
          diags.error(kw.value->range, "the grid has 1 to 3 dimensions, not " +
                                           llvm::Twine(dims.size()));
          continue;
        }
        for (size_t i = 0; i < dims.size(); ++i) {
          GridTerm term;
          if (gridTerm(dims[i], term))
            k->grid[i] = term.text;
        }
      } else if (kw.name == "num_warps") {
        Value v = expr(kw.value);
        if (v.isError())
          continue;
        if (v.kind != Value::Kind::Int || !isPowerOfTwo(v.intValue) || v.intValue > 32)
          diags.error(kw.value->range,
                      "num_warps must be a power of two from 1 to 32, not " + v.describe());
        else
          k->numWarps = v.intValue;
      } else if (kw.name == "num_stages") {
        Value v = expr(kw.value);
        if (v.isError())
          continue;
        if (v.kind != Value::Kind::Int || v.intValue < 1 || v.intValue > 8)
          diags.error(kw.value->range,
                      "num_stages must be an integer from 1 to 8, not " + v.describe());
        else
          k->numStages = v.intValue;
      } else {
        diags.error(kw.nameRange, "unknown @kernel option '" + kw.name +
                                      "' (the options are grid, num_warps and num_stages)");
      }
    }
  }

  if (k->autotune) {
    bool ok = finishAutotune(space, *k);
    restoreDefines();
    if (!ok) {
      frame = nullptr, block = nullptr, kernel = nullptr;
      return;
    }
  }

  NameSet none;
  tailBlocks.insert(&fn.body);
  statements(fn.body, none);
  program->kernels.push_back(std::move(k));
  frame = nullptr;
  block = nullptr;
  kernel = nullptr;
}

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

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void Sema::statements(const ast::Block &stmts, const NameSet &liveOut) {
  // liveAfter[i]: names whose value after statement i is read later (in this
  // block, or after it).
  std::vector<NameSet> liveAfter(stmts.size());
  NameSet acc = liveOut;
  for (size_t i = stmts.size(); i-- > 0;) {
    liveAfter[i] = acc;
    transferLiveness(stmts[i], acc);
  }
  bool tail = tailBlocks.count(&stmts) != 0;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (frame->returned || diags.tooManyErrors() || workExhausted)
      return;
    const ast::Stmt *s = stmts[i];
    if (tail && earlyReturn(s, stmts, i, liveOut))
      return;
    statement(s, liveAfter[i]);
  }
}

static bool isBareReturn(const ast::Stmt *s) {
  auto *r = dyn_cast<ast::ReturnStmt>(s);
  return r && !r->value;
}

// In the statements that end a function (its body, and recursively the blocks
// made here), `if c: ...; return` means "the rest runs only when c is false":
// it becomes `if c: ... else: <rest>`, which also works when c is only known
// at run time. This is Triton's common `if pid >= n: return`.
bool Sema::earlyReturn(const ast::Stmt *s, const ast::Block &stmts, size_t i,
                       const NameSet &liveOut) {
  if (isBareReturn(s))
    return true; // nothing after it runs
  auto *ifs = dyn_cast<ast::IfStmt>(s);
  if (!ifs || ifs->thenBody.empty() || !isBareReturn(ifs->thenBody.back()))
    return false;
  ast::Block thenBody(ifs->thenBody.begin(), ifs->thenBody.end() - 1);
  ast::Block elseBody = ifs->elseBody;
  elseBody.insert(elseBody.end(), stmts.begin() + i + 1, stmts.end());
  auto rewritten = std::make_unique<ast::IfStmt>(ifs->range, ifs->cond, std::move(thenBody),
                                                 std::move(elseBody), ifs->isElif);
  tailBlocks.insert(&rewritten->thenBody);
  tailBlocks.insert(&rewritten->elseBody);
  const ast::IfStmt *node = rewritten.get();
  syntheticStmts.push_back(std::move(rewritten));
  statement(node, liveOut);
  return true;
}

void Sema::statement(const ast::Stmt *s, const NameSet &liveAfter) {
  if (!chargeWork(s->range))
    return;
  switch (s->getKind()) {
  case ast::Stmt::Kind::Expr:
    (void)expr(cast<ast::ExprStmt>(s)->expr);
    return;
  case ast::Stmt::Kind::Assign:
    assignStmt(cast<ast::AssignStmt>(s));
    return;
  case ast::Stmt::Kind::AugAssign: {
    auto *a = cast<ast::AugAssignStmt>(s);
    Value current = lookup(a->target);
    Value rhs = expr(a->value);
    Value result = binary(a->op, current, rhs, a->opRange, a->target->range, a->value->range,
                          s->range);
    assign(a->target->name, result, s->range);
    return;
  }
  case ast::Stmt::Kind::Return:
    returnStmt(cast<ast::ReturnStmt>(s));
    return;
  case ast::Stmt::Kind::Pass:
    return;
  case ast::Stmt::Kind::Break:
    diags.error(s->range, "'break' is not supported: a 'for' loop runs its whole range and a "
                          "'while' loop ends only through its condition");
    return;
  case ast::Stmt::Kind::Continue:
    diags.error(s->range,
                "'continue' is not supported; guard the rest of the loop body with an 'if'");
    return;
  case ast::Stmt::Kind::If:
    ifStmt(cast<ast::IfStmt>(s), liveAfter);
    return;
  case ast::Stmt::Kind::For:
    forStmt(cast<ast::ForStmt>(s), liveAfter);
    return;
  case ast::Stmt::Kind::While:
    whileStmt(cast<ast::WhileStmt>(s), liveAfter);
    return;
  }
}

void Sema::assignStmt(const ast::AssignStmt *s) {
  Value v = expr(s->value);
  if (s->annotation.present()) {
    // `name: constexpr = value` (Triton's `tl.constexpr`): a compile-time value, like a
    // constexpr parameter. Other annotations would claim a type the value may not have.
    llvm::StringRef a = s->annotation.name;
    bool isConstexpr = s->annotation.pointerDepth == 0 &&
                       (a == "constexpr" || a == "tl.constexpr" || a == "triton.language.constexpr" ||
                        a == "tcc.constexpr");
    if (!isConstexpr) {
      diags.error(s->annotation.range, "only 'constexpr' can annotate an assignment ('" +
                                           std::string(s->annotation.pointerDepth, '*') +
                                           a.str() + "' cannot); a variable's type is inferred "
                                           "from its value");
      v = Value::error();
    } else if (v.isRuntime()) {
      diags.error(s->value->range, "'" + cast<ast::NameExpr>(s->target)->name +
                                       "' is annotated constexpr, but its value is only known "
                                       "at run time: " + v.describe());
      v = Value::error();
    }
  }
  if (auto *name = dyn_cast<ast::NameExpr>(s->target)) {
    assign(name->name, v, name->range);
    return;
  }
  auto *targets = cast<ast::TupleExpr>(s->target);
  size_t n = targets->elements.size();
  if (!v.isError() && (v.kind != Value::Kind::Tuple || v.elements.size() != n)) {
    diags.error(s->value->range,
                "cannot unpack " + v.describe() + " into " + llvm::Twine(n) + " names" +
                    (v.kind == Value::Kind::Tuple
                         ? " (it has " + llvm::Twine(v.elements.size()) + " elements)"
                         : llvm::Twine("")));
    v = Value::error();
  }
  for (size_t i = 0; i < n; ++i) {
    auto *name = cast<ast::NameExpr>(targets->elements[i]);
    assign(name->name, v.isError() ? Value::error() : v.elements[i], name->range);
  }
}

void Sema::returnStmt(const ast::ReturnStmt *s) {
  if (frame->runtimeControlDepth > 0) {
    diags.error(s->range, "'return' inside a loop or an 'if' whose condition is only known at "
                          "run time is not supported; assign the result to a variable and "
                          "return it at the end");
    return;
  }
  Value v = s->value ? expr(s->value) : Value::none();
  if (frame->isKernel && v.kind != Value::Kind::None && !v.isError()) {
    diags.error(s->value->range,
                "a kernel cannot return a value; write results through pointers with store()");
    v = Value::none();
  }
  frame->returned = true;
  frame->returnValue = v;
}

static bool sameConstant(const Value &a, const Value &b) {
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case Value::Kind::Int:
  case Value::Kind::Bool:
    return a.intValue == b.intValue;
  case Value::Kind::Float:
    return a.floatValue == b.floatValue ||
           (std::isnan(a.floatValue) && std::isnan(b.floatValue));
  case Value::Kind::Str:
    return a.str == b.str;
  case Value::Kind::DType:
    return a.dtype == b.dtype && a.dtypeIsPointer == b.dtypeIsPointer;
  case Value::Kind::None:
    return true;
  case Value::Kind::Runtime:
    return a.expr == b.expr;
  default:
    return false;
  }
}

typed::Expr *Sema::runtimeCondition(const Value &c, SMRange range, llvm::StringRef what) {
  const Type &ct = c.type();
  if (ct.isTile()) {
    diags.error(range, "the condition of " + what + " must be a scalar, not " + ct.str() +
                           "; use where(condition, a, b) to choose element by element");
    noteDefinition(c);
    return nullptr;
  }
  if (ct.element().isPointer) {
    diags.error(range, "the condition of " + what + " cannot be a pointer");
    return nullptr;
  }
  if (ct.element().isBool())
    return c.expr;
  Value zero = Value::integer(0);
  return make<typed::CompareExpr>(Type::scalar(ScalarKind::I1), range, typed::CompareOp::Ne,
                                  c.expr, constant(zero, ct, range));
}

void Sema::ifStmt(const ast::IfStmt *s, const NameSet &liveAfter) {
  Value c = expr(s->cond);
  if (c.isError()) {
    statements(s->thenBody, liveAfter); // still look for errors in it
    return;
  }
  if (!c.isRuntime()) {
    bool taken = false;
    if (!truthy(c, taken, s->cond->range, "the condition of 'if'"))
      return;
    statements(taken ? s->thenBody : s->elseBody, liveAfter);
    return;
  }
  typed::Expr *cond = runtimeCondition(c, s->cond->range, "an 'if'");
  if (!cond)
    return;

  auto *node = make<typed::IfStmt>(s->range, cond);
  llvm::StringMap<Binding> saved = frame->env;
  typed::Block *outer = block;
  ++frame->runtimeControlDepth;
  block = &node->thenBody;
  statements(s->thenBody, liveAfter);
  llvm::StringMap<Binding> thenEnv = std::move(frame->env);
  frame->env = saved;
  block = &node->elseBody;
  statements(s->elseBody, liveAfter);
  llvm::StringMap<Binding> elseEnv = std::move(frame->env);
  frame->env = saved;
  --frame->runtimeControlDepth;
  block = outer;

  std::vector<std::string> names;
  NameSet seen;
  collectAssigned(s->thenBody, names, seen);
  collectAssigned(s->elseBody, names, seen);
  for (const std::string &name : names) {
    auto t = thenEnv.find(name), e = elseEnv.find(name), before = saved.find(name);
    bool inThen = t != thenEnv.end(), inElse = e != elseEnv.end();
    bool changed = (inThen && (before == saved.end() || t->second.version != before->second.version)) ||
                   (inElse && (before == saved.end() || e->second.version != before->second.version));
    if (!changed || !liveAfter.count(name))
      continue;
    if (!inThen || !inElse) {
      const Binding &b = inThen ? t->second : e->second;
      frame->lost[name] = {b.defRange, "it is assigned in only one branch of an 'if' whose "
                                       "condition is only known at run time"};
      frame->env.erase(name);
      continue;
    }
    const Value &tv = t->second.value, &ev = e->second.value;
    if (tv.isError() || ev.isError()) {
      assign(name, Value::error(), s->range);
      continue;
    }
    if (!tv.isRuntime() && !ev.isRuntime() && sameConstant(tv, ev)) {
      Binding &b = frame->env[name];
      b = t->second;
      continue;
    }
    if (!carriable(tv) || !carriable(ev)) {
      const Value &bad = carriable(tv) ? ev : tv;
      diags.error(s->cond->range, "'" + name + "' is " + bad.describe() +
                                      " in one branch of this 'if', but the condition is only "
                                      "known at run time; make the condition constexpr");
      diags.note((carriable(tv) ? e : t)->second.defRange, "assigned here");
      assign(name, Value::error(), s->range);
      continue;
    }
    Type type;
    if (tv.isRuntime() && ev.isRuntime()) {
      if (tv.type() != ev.type()) {
        diags.error(s->range, "'" + name + "' has type " + tv.type().str() +
                                  " at the end of the 'if' branch but " + ev.type().str() +
                                  " at the end of the 'else' branch");
        diags.note(t->second.defRange, "assigned " + tv.type().str() + " here");
        diags.note(e->second.defRange, "assigned " + ev.type().str() + " here");
        assign(name, Value::error(), s->range);
        continue;
      }
      type = tv.type();
    } else if (tv.isRuntime()) {
      type = tv.type();
    } else if (ev.isRuntime()) {
      type = ev.type();
    } else {
      type = Type(promote(literalElement(tv), literalElement(ev)));
    }
    typed::Expr *thenValue = coerce(tv, type, t->second.defRange);
    typed::Expr *elseValue = coerce(ev, type, e->second.defRange);
    if (!thenValue || !elseValue) {
      assign(name, Value::error(), s->range);
      continue;
    }
    typed::Variable *result = newVariable(name, type, s->range);
    node->results.push_back({result, thenValue, elseValue});
    assign(name, Value::runtime(make<typed::VarRefExpr>(result, s->range)), s->range);
  }
  emit(node);
}

static const ast::CallExpr *rangeCall(const ast::Expr *iter) {
  return dyn_cast<ast::CallExpr>(iter);
}

void Sema::forStmt(const ast::ForStmt *s, const NameSet &liveAfter) {
  const ast::CallExpr *call = rangeCall(s->iter);
  Value callee = call ? expr(call->callee) : Value::error();
  if (callee.isError() && call)
    return;
  if (!call || callee.kind != Value::Kind::Builtin ||
      (callee.builtin != Builtin::Range && callee.builtin != Builtin::StaticRange)) {
    diags.error(s->iter->range, "a for loop must iterate over range(...) or static_range(...)");
    return;
  }
  if (callee.builtin == Builtin::StaticRange) {
    staticFor(s, call, liveAfter);
    return;
  }

  // range(end) / range(start, end) / range(start, end, step)
  std::vector<Value> args;
  std::vector<SMRange> ranges;
  if (call->args.empty() || call->args.size() > 3) {
    diags.error(call->range, "range() takes 1 to 3 arguments, not " +
                                 llvm::Twine(call->args.size()));
    return;
  }
  int64_t numStages = 0;
  for (const ast::KeywordArg &kw : call->kwargs) {
    // Triton's scheduling hints that are flags: evaluated and checked, no effect in tcc
    // (its pipeliner decides per loop; docs/language.md).
    if (kw.name == "flatten" || kw.name == "warp_specialize" ||
        kw.name == "disallow_acc_multi_buffer") {
      Value v = expr(kw.value);
      if (v.isError())
        return;
      if (v.kind != Value::Kind::Bool) {
        diags.error(kw.value->range, "range() " + llvm::Twine(kw.name) +
                                         " must be True or False, not " + v.describe());
        return;
      }
      continue;
    }
    if (kw.name != "num_stages" && kw.name != "loop_unroll_factor") {
      diags.error(kw.nameRange, "range() has no keyword argument '" + kw.name +
                                    "' (it takes num_stages, loop_unroll_factor, flatten, "
                                    "warp_specialize and disallow_acc_multi_buffer)");
      return;
    }
    Value v = expr(kw.value);
    if (v.isError())
      return;
    if (v.kind != Value::Kind::Int || v.intValue < 1 || v.intValue > 8) {
      diags.error(kw.value->range, "range() " + llvm::Twine(kw.name) +
                                       " must be an integer from 1 to 8, not " + v.describe());
      return;
    }
    if (kw.name == "num_stages")
      numStages = v.intValue;
  }
  for (const ast::Expr *a : call->args) {
    args.push_back(expr(a));
    ranges.push_back(a->range);
  }
  if (args.size() == 1) {
    args.insert(args.begin(), Value::integer(0));
    ranges.insert(ranges.begin(), call->range);
  }
  if (args.size() == 2) {
    args.push_back(Value::integer(1));
    ranges.push_back(call->range);
  }
  bool ok = true;
  typed::Expr *bounds[3] = {nullptr, nullptr, nullptr};
  const char *what[3] = {"start", "end", "step"};
  for (int i = 0; i < 3; ++i) {
    const Value &v = args[i];
    if (v.isError()) {
      ok = false;
      continue;
    }
    if (v.isIntLike()) {
      if (v.intValue < INT32_MIN || v.intValue > INT32_MAX) {
        diags.error(ranges[i], "the loop " + llvm::Twine(what[i]) + " " +
                                   llvm::Twine(v.intValue) + " does not fit in i32");
        ok = false;
        continue;
      }
      if (i == 2 && v.intValue <= 0) {
        diags.error(ranges[i], "the step of range() must be positive, not " +
                                   llvm::Twine(v.intValue) + " (loops count upwards)");
        ok = false;
        continue;
      }
      bounds[i] = constant(v, Type::scalar(ScalarKind::I32), ranges[i]);
      continue;
    }
    if (!v.isRuntime() || v.type().isTile() || !v.type().element().isInteger()) {
      diags.error(ranges[i], "the loop " + llvm::Twine(what[i]) +
                                 " must be an integer scalar, not " + v.describe());
      noteDefinition(v);
      ok = false;
      continue;
    }
    if (v.type().element().scalar == ScalarKind::I64) {
      diags.error(ranges[i], "loop bounds are i32; convert this i64 with .to(i32)");
      ok = false;
      continue;
    }
    bounds[i] = convertElement(v.expr, ElementType::number(ScalarKind::I32), ranges[i]);
  }
  if (!ok)
    return;

  auto *node = make<typed::ForStmt>(s->range);
  node->lower = bounds[0];
  node->upper = bounds[1];
  node->step = bounds[2];
  node->numStages = numStages;
  node->inductionVar = newVariable(s->target->name, Type::scalar(ScalarKind::I32),
                                   s->target->range);

  std::vector<std::string> assigned;
  NameSet seen;
  collectAssigned(s->body, assigned, seen);
  // Carried: assigned in the body, and read after the loop or by the next
  // iteration before being reassigned.
  NameSet live;
  liveIn(s->body, live);
  for (const auto &n : liveAfter)
    live.insert(n.getKey());

  llvm::StringMap<Binding> saved = frame->env;
  std::vector<CarriedName> carried = loopCarried(assigned, live, s->target->name, s->range);
  for (const CarriedName &c : carried) {
    typed::Variable *arg = bindLoopArgument(c, c.init->type);
    node->carried.push_back({arg, c.init, nullptr, newVariable(c.name, c.init->type, s->range)});
  }
  assign(s->target->name,
         Value::runtime(make<typed::VarRefExpr>(node->inductionVar, s->target->range)),
         s->target->range);

  typed::Block *outer = block;
  block = &node->body;
  ++frame->runtimeControlDepth;
  statements(s->body, live);
  --frame->runtimeControlDepth;
  for (size_t i = 0; i < node->carried.size(); ++i)
    node->carried[i].next = loopNext(carried[i].name, node->carried[i].arg, saved, s->range,
                                     carried[i].component);
  block = outer;

  std::vector<typed::Variable *> results;
  for (const typed::LoopCarried &c : node->carried)
    results.push_back(c.result);
  endLoop(assigned, std::move(saved), carried, results, s->range);
  if (!frame->env.count(s->target->name))
    frame->lost[s->target->name] = {s->target->range,
                                    "loop variables exist only inside their loop"};
  emit(node);
}

std::vector<Sema::CarriedName> Sema::loopCarried(const std::vector<std::string> &assigned,
                                                 const NameSet &live, llvm::StringRef skip,
                                                 SMRange loopRange) {
  std::vector<CarriedName> out;
  for (const std::string &name : assigned) {
    if (name == skip || !live.count(name))
      continue;
    auto it = frame->env.find(name);
    if (it == frame->env.end() || it->second.value.isError())
      continue;
    const Value &init = it->second.value;
    if (init.kind == Value::Kind::BlockPtr) { // its offsets, one by one (SemaBlockPtr.cpp)
      carryBlockPointer(name, init, it->second.defRange, loopRange, out);
      continue;
    }
    if (!carriable(init)) {
      diags.error(loopRange, "'" + name + "' is " + init.describe() +
                                 " and cannot change from one iteration of this loop to the next");
      diags.note(it->second.defRange, "'" + name + "' is defined here");
      continue;
    }
    typed::Expr *initExpr = init.isRuntime() ? init.expr : toRuntime(init, it->second.defRange);
    out.push_back({name, initExpr, it->second.defRange});
  }
  return out;
}

typed::Variable *Sema::bindLoopArgument(const CarriedName &c, const Type &type) {
  if (c.component >= 0)
    return bindBlockPointerOffset(c, type);
  typed::Variable *arg = newVariable(c.name, type, c.defRange);
  Binding &b = frame->env[c.name];
  b.value = Value::runtime(make<typed::VarRefExpr>(arg, c.defRange));
  b.version = ++versionCounter;
  return arg;
}

typed::Expr *Sema::loopNext(const std::string &name, typed::Variable *arg,
                            const llvm::StringMap<Binding> &saved, SMRange loopRange,
                            int component) {
  if (component >= 0)
    return blockPointerNext(name, component, arg, saved, loopRange);
  const Binding &b = frame->env[name];
  const Value &v = b.value;
  typed::Expr *keep = make<typed::VarRefExpr>(arg, loopRange);
  if (v.isError())
    return keep;
  if (v.isRuntime() && v.type() == arg->type)
    return v.expr;
  if (v.isNumber()) {
    typed::Expr *e = coerce(v, arg->type, b.defRange);
    return e ? e : keep;
  }
  diags.error(b.defRange, "'" + name + "' must keep its type in the loop: it is " +
                              arg->type.str() + " before the loop but " + v.describe() +
                              " here");
  const Binding &before = saved.lookup(name);
  if (before.value.isRuntime())
    diags.note(before.defRange, "'" + name + "' gets its type here");
  else
    diags.note(before.defRange, "'" + name + "' is initialised with " +
                                    before.value.describe() + ", which makes it " +
                                    arg->type.str() + "; initialise it with the type it "
                                    "has in the loop");
  return keep;
}

void Sema::endLoop(const std::vector<std::string> &assigned, llvm::StringMap<Binding> saved,
                   const std::vector<CarriedName> &carried,
                   const std::vector<typed::Variable *> &results, SMRange loopRange) {
  // After the loop: the carried names hold the loop's results; names first
  // assigned in the body are gone.
  unsigned line = diags.lineAndColumn(loopRange.Start).first;
  for (const std::string &name : assigned)
    if (!saved.count(name)) {
      auto it = frame->env.find(name);
      frame->lost[name] = {it != frame->env.end() ? it->second.defRange : loopRange,
                           "it is only defined inside the loop at line " +
                               std::to_string(line)};
    }
  frame->env = std::move(saved);
  for (size_t i = 0; i < carried.size(); ++i) {
    Binding &b = frame->env[carried[i].name];
    if (carried[i].component >= 0) {
      setBlockPointerOffset(b, carried[i].component,
                            make<typed::VarRefExpr>(results[i], loopRange));
      continue;
    }
    b.value = Value::runtime(make<typed::VarRefExpr>(results[i], loopRange));
    b.version = ++versionCounter;
  }
}

// `while cond: body`: the condition is evaluated before every iteration with the carried
// values of the previous one (scf.while). Carried: the names assigned in the body, defined
// before the loop, and read by the condition, by the body before it reassigns them, or
// after the loop. tcc has no `break`, so a condition known at compile time to hold would
// never end: an error; one known to fail makes a loop that tests it once.
void Sema::whileStmt(const ast::WhileStmt *s, const NameSet &liveAfter) {
  std::vector<std::string> assigned;
  NameSet seen;
  collectAssigned(s->body, assigned, seen);
  NameSet live;
  liveIn(s->body, live);
  collectReads(s->cond, live);
  for (const auto &n : liveAfter)
    live.insert(n.getKey());

  llvm::StringMap<Binding> saved = frame->env;
  std::vector<CarriedName> carried = loopCarried(assigned, live, "", s->range);
  auto *node = make<typed::WhileStmt>(s->range);
  for (const CarriedName &c : carried) {
    typed::Variable *arg = bindLoopArgument(c, c.init->type);
    node->carried.push_back({arg, c.init, nullptr, newVariable(c.name, c.init->type, s->range)});
  }

  typed::Block *outer = block;
  block = &node->condBody;
  ++frame->runtimeControlDepth;
  Value c = expr(s->cond);
  if (!c.isError()) {
    if (c.isRuntime()) {
      node->cond = runtimeCondition(c, s->cond->range, "a 'while'");
    } else {
      bool holds = false;
      if (truthy(c, holds, s->cond->range, "the condition of 'while'")) {
        if (holds)
          diags.error(s->cond->range,
                      "the condition of this 'while' is always true (it does not depend on "
                      "anything the loop changes), and tcc has no 'break': the loop would "
                      "never end");
        else
          node->cond = constant(Value::boolean(false), Type::scalar(ScalarKind::I1),
                                s->cond->range);
      }
    }
  }
  // The body sees the values for which the condition held.
  for (size_t i = 0; i < carried.size(); ++i)
    node->bodyArgs.push_back(bindLoopArgument(carried[i], carried[i].init->type));
  block = &node->body;
  statements(s->body, live); // also for its errors when the condition has one
  --frame->runtimeControlDepth;
  for (size_t i = 0; i < node->carried.size(); ++i)
    node->carried[i].next = loopNext(carried[i].name, node->bodyArgs[i], saved, s->range,
                                     carried[i].component);
  block = outer;

  std::vector<typed::Variable *> results;
  for (const typed::LoopCarried &lc : node->carried)
    results.push_back(lc.result);
  endLoop(assigned, std::move(saved), carried, results, s->range);
  if (!node->cond) {
    for (const CarriedName &cn : carried)
      assign(cn.name, Value::error(), s->range);
    return;
  }
  emit(node);
}

void Sema::staticFor(const ast::ForStmt *s, const ast::CallExpr *call, const NameSet &liveAfter) {
  std::vector<int64_t> b;
  if (call->args.empty() || call->args.size() > 3 || !call->kwargs.empty()) {
    diags.error(call->range, "static_range() takes 1 to 3 positional arguments");
    return;
  }
  for (const ast::Expr *a : call->args) {
    Value v = expr(a);
    if (v.isError())
      return;
    std::optional<int64_t> i = constantInt(v, a->range, "a static_range() bound");
    if (!i)
      return;
    b.push_back(*i);
  }
  int64_t start = b.size() == 1 ? 0 : b[0];
  int64_t end = b.size() == 1 ? b[0] : b[1];
  int64_t step = b.size() == 3 ? b[2] : 1;
  if (step == 0) {
    diags.error(call->range, "the step of static_range() cannot be zero");
    return;
  }
  int64_t count = step > 0 ? (end > start ? (end - start + step - 1) / step : 0)
                           : (start > end ? (start - end - step - 1) / -step : 0);
  if (count > int64_t(kMaxStaticIterations)) {
    diags.error(call->range, "static_range() unrolls " + llvm::Twine(count) +
                                 " iterations; the limit is " +
                                 llvm::Twine(kMaxStaticIterations) + " (use range())");
    return;
  }
  NameSet live;
  liveIn(s->body, live);
  for (const auto &n : liveAfter)
    live.insert(n.getKey());
  for (int64_t i = 0; i < count; ++i) {
    assign(s->target->name, Value::integer(start + i * step), s->target->range);
    statements(s->body, live);
    if (frame->returned || diags.tooManyErrors() || workExhausted)
      return;
  }
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value Sema::callHelper(const ast::FunctionDef &fn, const ast::CallExpr *call) {
  if (inlineDepth >= kMaxInlineDepth) {
    diags.error(call->range, "helper calls nest more than " + llvm::Twine(kMaxInlineDepth) +
                                 " deep; is '" + fn.name + "' recursive?");
    diags.note(fn.headerRange, "'" + fn.name + "' is defined here");
    return Value::error();
  }
  size_t n = fn.params.size();
  std::vector<std::optional<Value>> args(n);
  std::vector<SMRange> argRanges(n, call->range);
  if (call->args.size() > n) {
    diags.error(call->args[n]->range, "'" + fn.name + "' takes " + llvm::Twine(n) +
                                          " argument" + (n == 1 ? "" : "s") + " but " +
                                          llvm::Twine(call->args.size()) + " were given");
    diags.note(fn.headerRange, "'" + fn.name + "' is defined here");
    return Value::error();
  }
  bool failed = false;
  for (size_t i = 0; i < call->args.size(); ++i) {
    args[i] = expr(call->args[i]);
    argRanges[i] = call->args[i]->range;
    failed |= args[i]->isError();
  }
  for (const ast::KeywordArg &kw : call->kwargs) {
    auto it = std::find_if(fn.params.begin(), fn.params.end(),
                           [&](const ast::Param &p) { return p.name == kw.name; });
    if (it == fn.params.end()) {
      diags.error(kw.nameRange, "'" + fn.name + "' has no parameter named '" + kw.name + "'");
      diags.note(fn.headerRange, "'" + fn.name + "' is defined here");
      return Value::error();
    }
    size_t i = it - fn.params.begin();
    if (args[i]) {
      diags.error(kw.nameRange, "argument '" + kw.name + "' of '" + fn.name + "' given twice");
      return Value::error();
    }
    args[i] = expr(kw.value);
    argRanges[i] = kw.value->range;
    failed |= args[i]->isError();
  }
  for (size_t i = 0; i < n; ++i) {
    if (args[i])
      continue;
    const ast::Param &p = fn.params[i];
    if (!p.defaultValue) {
      diags.error(call->range, "missing argument '" + p.name + "' in the call to '" + fn.name + "'");
      diags.note(fn.headerRange, "'" + fn.name + "' is defined here");
      return Value::error();
    }
    Frame defaults;
    Frame *caller = frame;
    frame = &defaults;
    args[i] = expr(p.defaultValue);
    frame = caller;
    argRanges[i] = p.defaultValue->range;
    failed |= args[i]->isError();
  }
  if (failed)
    return Value::error();

  // Parameter annotations are checks (constexpr) or conversions (scalars).
  for (size_t i = 0; i < n; ++i) {
    const ast::Param &p = fn.params[i];
    if (!p.annotation.present())
      continue;
    ParamKind kind = resolveAnnotation(p.annotation, diags);
    if (!kind.valid)
      return Value::error();
    Value &v = *args[i];
    // A helper's constexpr parameter takes runtime values too, as Triton's inlined helpers
    // do (its fused-attention tutorial passes offset tiles to them); a use inside the helper
    // that needs a compile-time value says so there.
    if (kind.isConstexpr)
      continue;
    bool fits = v.isNumber() ? !kind.type.element().isPointer
                             : v.isRuntime() && !v.type().isTile() &&
                                   v.type().element().isPointer ==
                                       kind.type.element().isPointer &&
                                   (!kind.type.element().isPointer ||
                                    v.type().element() == kind.type.element());
    if (!fits) {
      diags.error(argRanges[i], "argument '" + p.name + "' of '" + fn.name + "' is " +
                                    v.describe() + ", but the parameter is declared " +
                                    kind.type.str());
      diags.note(p.annotation.range, "declared here");
      return Value::error();
    }
    if (v.isNumber() || v.type() != kind.type)
      v = Value::runtime(coerce(v, kind.type, argRanges[i]));
  }

  auto *inl = make<typed::InlineStmt>(call->range, fn.name, fn.headerRange);
  Frame callee;
  callee.function = &fn;
  Frame *caller = frame;
  typed::Block *outer = block;
  frame = &callee;
  block = &inl->body;
  ++inlineDepth;
  for (size_t i = 0; i < n; ++i)
    assign(fn.params[i].name, *args[i], argRanges[i]);
  NameSet none;
  tailBlocks.insert(&fn.body);
  statements(fn.body, none);
  // After the work limit the body was cut short: its result means nothing.
  Value result = workExhausted ? Value::error() : callee.returnValue;
  auto bindResult = [&](Value &v) {
    if (v.isRuntime() && !isa<typed::VarRefExpr>(v.expr))
      v = bind(fn.name + ".result", v.expr, call->range);
  };
  bindResult(result);
  if (result.kind == Value::Kind::Tuple)
    for (Value &el : result.elements)
      bindResult(el);
  --inlineDepth;
  frame = caller;
  block = outer;
  emit(inl);
  return result;
}
