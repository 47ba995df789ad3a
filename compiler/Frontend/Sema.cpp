//===- Sema.cpp - Files, kernels, values, helpers -------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <cmath>

using namespace tcc;
using namespace tcc::sema;

std::unique_ptr<typed::Program> tcc::analyze(DiagnosticEngine &diags, const ast::Module &module,
                                             const SemaOptions &options) {
  Sema sema(diags, module, options);
  return sema.run();
}

Sema::Sema(DiagnosticEngine &diags, const ast::Module &module, const SemaOptions &options)
    : diags(diags), module(module), options(options) {}

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

/// An annotation's name without its module prefix (`tl.constexpr` is `constexpr`).
static llvm::StringRef resolveAnnotationName(llvm::StringRef name) {
  for (llvm::StringRef prefix : {"triton.language.", "tl.", "tcc."})
    if (name.starts_with(prefix))
      return name.drop_front(prefix.size());
  return name;
}

static ParamKind resolveAnnotation(const ast::Annotation &a, DiagnosticEngine &diags) {
  ParamKind k;
  llvm::StringRef name = resolveAnnotationName(a.name);
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

  bindKernelParams(fn, *k);

  readKernelOptions(fn, *k);

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

/// The kernel's parameters, in order: a runtime parameter becomes a variable and an
/// argument of the kernel; a constexpr one is bound to its default or `-D` value; one typed
/// by a constexpr type (`x: *T`) is typed once every constexpr has its value.
void Sema::bindKernelParams(const ast::FunctionDef &fn, typed::Kernel &kern) {
  typed::Kernel *k = &kern;
  // A runtime parameter of a runtime type: its variable, in parameter order.
  auto runtimeParam = [&](const ast::Param &p, Type type) {
    if (p.defaultValue)
      diags.error(p.defaultValue->range,
                  "only constexpr parameters can have default values; '" + p.name +
                      "' is a runtime argument");
    if (type.element().isFp8())
      diags.error(p.annotation.range, "a kernel parameter cannot be an fp8 scalar (" +
                                          type.str() + "); pass an f16 or f32 and "
                                          "convert it with .to(), or a pointer *" +
                                          type.str());
    typed::Variable *var = newVariable(p.name, type, p.nameRange);
    assign(p.name, Value::runtime(make<typed::VarRefExpr>(var, p.nameRange)), p.nameRange);
    return var;
  };
  // Parameters typed by a constexpr one (`x: *T` with `T: constexpr = f16`, or `-D T=bf16`)
  // are typed once every constexpr parameter has its value; their slots wait in
  // k->arguments.
  auto isConstexprParam = [&](llvm::StringRef name) {
    return llvm::any_of(fn.params, [&](const ast::Param &q) {
      return q.name == name && q.annotation.present() &&
             resolveAnnotationName(q.annotation.name) == "constexpr";
    });
  };
  std::vector<std::pair<const ast::Param *, size_t>> typedByConstexpr;
  for (const ast::Param &p : fn.params) {
    llvm::StringRef annotation = resolveAnnotationName(p.annotation.name);
    if (p.annotation.present() && annotation != "constexpr" && !parseScalarName(annotation) &&
        isConstexprParam(p.annotation.name)) {
      typedByConstexpr.push_back({&p, k->arguments.size()});
      k->arguments.push_back(nullptr);
      continue;
    }
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
      k->arguments.push_back(runtimeParam(p, kind.type));
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
  for (auto [p, slot] : typedByConstexpr) {
    const ast::Annotation &a = p->annotation;
    auto bound = frame->env.find(a.name);
    if (bound == frame->env.end() || bound->second.value.isError()) {
      assign(p->name, Value::error(), p->nameRange); // its value's error is reported
      continue;
    }
    const Value &t = bound->second.value;
    if (t.kind != Value::Kind::DType) {
      diags.error(a.range, "the type of '" + p->name + "' names constexpr parameter '" +
                               a.name + "', whose value is " + t.describe() +
                               ", not a type (such as f16, bf16 or f32)");
      diags.note(bound->second.defRange, "'" + a.name + "' is given its value here");
      assign(p->name, Value::error(), p->nameRange);
      continue;
    }
    if (a.pointerDepth > 1) {
      diags.error(a.range, "pointers to pointers are not supported");
      assign(p->name, Value::error(), p->nameRange);
      continue;
    }
    // (A constexpr's value is never a pointer type: toConstexprValue refuses those.)
    Type type = a.pointerDepth ? Type::pointer(t.dtype) : Type::scalar(t.dtype);
    k->arguments[slot] = runtimeParam(*p, type);
  }
  llvm::erase(k->arguments, nullptr);
}

/// The options of `@kernel(...)`: the grid's expressions, num_warps and num_stages.
void Sema::readKernelOptions(const ast::FunctionDef &fn, typed::Kernel &kern) {
  typed::Kernel *k = &kern;
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
  std::vector<Value> values;
  for (std::optional<Value> &v : args)
    values.push_back(std::move(*v));
  return inlineHelper(fn, std::move(values), argRanges, call->range);
}

Value Sema::inlineHelper(const ast::FunctionDef &fn, std::vector<Value> args,
                         const std::vector<SMRange> &argRanges, SMRange callRange) {
  size_t n = fn.params.size();
  // Parameter annotations are checks (constexpr) or conversions (scalars).
  for (size_t i = 0; i < n; ++i) {
    const ast::Param &p = fn.params[i];
    if (!p.annotation.present())
      continue;
    ParamKind kind = resolveAnnotation(p.annotation, diags);
    if (!kind.valid)
      return Value::error();
    Value &v = args[i];
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

  auto *inl = make<typed::InlineStmt>(callRange, fn.name, fn.headerRange);
  Frame callee;
  callee.function = &fn;
  Frame *caller = frame;
  typed::Block *outer = block;
  frame = &callee;
  block = &inl->body;
  ++inlineDepth;
  for (size_t i = 0; i < n; ++i)
    assign(fn.params[i].name, args[i], argRanges[i]);
  NameSet none;
  tailBlocks.insert(&fn.body);
  statements(fn.body, none);
  // After the work limit the body was cut short: its result means nothing.
  Value result = workExhausted ? Value::error() : callee.returnValue;
  auto bindResult = [&](Value &v) {
    if (v.isRuntime() && !isa<typed::VarRefExpr>(v.expr))
      v = bind(fn.name + ".result", v.expr, callRange);
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
