//===- SemaAutotune.cpp - @autotune search spaces --------------------------===//
//
// `@autotune(configs=[config(BLOCK=1024, num_warps=4), ...], key=["n"], prune=COND)` (or
// Triton's `@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4)], ...)`)
// declares configurations of a kernel's constexprs, warps and stages. One elaboration
// compiles one of them: the driver elaborates the kernel once per configuration kept
// (docs/autotuning.md). Here: reading and checking the space, evaluating the prune
// conditions per configuration, and binding the chosen configuration's values as if
// given with -D.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/xxhash.h"

using namespace tcc;
using namespace tcc::sema;

namespace {

bool isAutotuneName(llvm::StringRef name) {
  return name == "autotune" || name == "tcc.autotune" || name == "triton.autotune";
}

bool isConstexprParam(const ast::Param &p) {
  llvm::StringRef name = p.annotation.name;
  return p.annotation.pointerDepth == 0 &&
         (name == "constexpr" || name.ends_with(".constexpr"));
}

llvm::StringRef sourceText(SMRange range) {
  if (!range.isValid())
    return "";
  return llvm::StringRef(range.Start.getPointer(),
                         range.End.getPointer() - range.Start.getPointer());
}

std::string constexprNames(const ast::FunctionDef &fn) {
  std::string names;
  for (const ast::Param &p : fn.params)
    if (isConstexprParam(p))
      names += (names.empty() ? "" : ", ") + p.name;
  return names.empty() ? "none" : names;
}

} // namespace

const ast::CallExpr *Sema::autotuneDecorator(const ast::FunctionDef &fn) {
  for (const ast::Expr *d : fn.decorators) {
    auto *call = dyn_cast<ast::CallExpr>(d);
    if (isAutotuneName(dottedName(call ? call->callee : d)))
      return call;
  }
  return nullptr;
}

bool Sema::readAutotuneConfig(const ast::Expr *e, const ast::FunctionDef &fn,
                              AutotuneSpace::Config &out) {
  out.range = e->range;
  auto *call = dyn_cast<ast::CallExpr>(e);
  std::string callee = call ? dottedName(call->callee) : "";
  bool native = callee == "config" || callee == "tcc.config";
  bool triton = callee == "triton.Config" || callee == "Config";
  if (!native && !triton) {
    diags.error(e->range, "a configuration is config(NAME=VALUE, ..., num_warps=W, "
                          "num_stages=S) or triton.Config({\"NAME\": VALUE, ...}, num_warps=W, "
                          "num_stages=S)");
    return false;
  }
  bool ok = true;
  auto addValue = [&](const std::string &name, SMRange nameRange, const ast::Expr *value) {
    auto param = llvm::find_if(fn.params, [&](const ast::Param &p) { return p.name == name; });
    if (param == fn.params.end() || !isConstexprParam(*param)) {
      diags.error(nameRange, "the configuration sets '" + name + "', which is not a constexpr "
                             "parameter of '" + fn.name + "' (its constexpr parameters: " +
                             constexprNames(fn) + ")");
      ok = false;
      return;
    }
    for (const auto &[seen, v] : out.values)
      if (seen == name) {
        diags.error(nameRange, "the configuration sets '" + name + "' twice");
        ok = false;
        return;
      }
    out.values.push_back({name, value});
    out.nameRanges.push_back(nameRange);
  };
  if (native && !call->args.empty()) {
    diags.error(call->args.front()->range,
                "config() takes keyword arguments only: config(BLOCK=1024, num_warps=4)");
    ok = false;
  }
  if (triton) {
    if (call->args.size() > 1) {
      diags.error(call->args[1]->range, "triton.Config takes one dictionary of constexpr "
                                        "values; num_warps and num_stages are keywords");
      ok = false;
    }
    if (!call->args.empty()) {
      auto *dict = dyn_cast<ast::DictExpr>(call->args.front());
      if (!dict) {
        diags.error(call->args.front()->range,
                    "triton.Config's first argument is a dictionary: {\"BLOCK\": 1024}");
        ok = false;
      } else {
        for (const auto &[key, value] : dict->items) {
          auto *name = dyn_cast<ast::StringLitExpr>(key);
          if (!name) {
            diags.error(key->range, "a configuration's keys are constexpr names as strings");
            ok = false;
            continue;
          }
          addValue(name->value, key->range, value);
        }
      }
    }
  }
  for (const ast::KeywordArg &kw : call->kwargs) {
    if (kw.name == "num_warps") {
      out.numWarps = kw.value;
    } else if (kw.name == "num_stages") {
      out.numStages = kw.value;
    } else if (native && kw.name == "split_k") {
      out.splitK = kw.value;
    } else if (triton && kw.name == "num_ctas") {
      Value v = expr(kw.value);
      if (!v.isError() && !(v.kind == Value::Kind::Int && v.intValue == 1)) {
        diags.error(kw.value->range, "num_ctas other than 1 (thread-block clusters) is not "
                                     "supported");
        ok = false;
      }
    } else if (triton) {
      diags.error(kw.nameRange, "triton.Config option '" + kw.name + "' is not supported (the "
                                "options are num_warps, num_stages and num_ctas=1)");
      ok = false;
    } else {
      addValue(kw.name, kw.nameRange, kw.value);
    }
  }
  return ok;
}

std::unique_ptr<typed::Autotune>
Sema::beginAutotune(const ast::FunctionDef &fn, const ast::CallExpr *call, AutotuneSpace &space,
                    llvm::StringMap<const ast::Expr *> &saved) {
  space.decorator = call;
  const ast::Expr *configs = nullptr;
  if (call->args.size() > 2) {
    diags.error(call->args[2]->range, "@autotune takes configs and key positionally; the other "
                                      "options are keywords");
    return nullptr;
  }
  if (!call->args.empty())
    configs = call->args[0];
  if (call->args.size() > 1)
    space.key = call->args[1];
  bool ok = true;
  for (const ast::KeywordArg &kw : call->kwargs) {
    if (kw.name == "configs")
      configs = kw.value;
    else if (kw.name == "key")
      space.key = kw.value;
    else if (kw.name == "prune") {
      if (auto *list = dyn_cast<ast::TupleExpr>(kw.value))
        space.prune.assign(list->elements.begin(), list->elements.end());
      else
        space.prune.push_back(kw.value);
    } else if (kw.name == "restore_value" || kw.name == "reset_to_zero") {
      space.restore.push_back(kw.value);
    } else {
      diags.error(kw.nameRange, "unknown @autotune option '" + kw.name + "' (the options are "
                                "configs, key, prune, restore_value and reset_to_zero)");
      ok = false;
    }
  }
  if (!configs) {
    diags.error(call->range, "@autotune needs configs=[config(...), ...]");
    return nullptr;
  }
  if (!space.key) {
    diags.error(call->range, "@autotune needs key=[...]: the integer parameters whose values "
                             "decide the choice (key=[] for one choice per device)");
    ok = false;
  }
  auto *list = dyn_cast<ast::TupleExpr>(configs);
  if (!list) {
    diags.error(configs->range, "configs= is a list: [config(...), ...]");
    return nullptr;
  }
  if (list->elements.empty()) {
    diags.error(configs->range, "the search space is empty: give at least one configuration");
    return nullptr;
  }
  for (const ast::Expr *e : list->elements) {
    AutotuneSpace::Config c;
    ok &= readAutotuneConfig(e, fn, c);
    space.configs.push_back(std::move(c));
  }
  if (!ok)
    return nullptr;

  // A -D of a name the space sets, or --num-warps/--num-stages, asks for one configuration
  // outside the space: this build is not tuned (-D values and defaults as for any kernel).
  std::string override = options.autotuneOverride;
  for (const Define &d : options.defines)
    for (const AutotuneSpace::Config &c : space.configs)
      for (const auto &[name, value] : c.values)
        if (name == d.name && override.empty())
          override = "-D " + d.name;
  if (!override.empty()) {
    diags.note(call->range, override + " sets what @autotune tunes: this build of '" + fn.name +
                                "' is the one configuration the command line gives, not tuned");
    space.overridden = true;
    return nullptr;
  }

  // The @kernel decorator's warps and stages, the defaults of configurations without.
  const ast::Expr *kernelWarps = nullptr, *kernelStages = nullptr;
  for (const ast::Expr *d : fn.decorators)
    if (auto *c = dyn_cast<ast::CallExpr>(d))
      if (std::string n = dottedName(c->callee); n == "kernel" || n == "tcc.kernel")
        for (const ast::KeywordArg &kw : c->kwargs) {
          if (kw.name == "num_warps")
            kernelWarps = kw.value;
          else if (kw.name == "num_stages")
            kernelStages = kw.value;
        }

  auto result = std::make_unique<typed::Autotune>();
  Frame *outerFrame = frame;
  typed::Block *outerBlock = block;
  typed::Block scratch;
  std::string spaceText = fn.name;
  for (auto [i, c] : llvm::enumerate(space.configs)) {
    Frame f;
    f.function = &fn;
    frame = &f;
    block = &scratch;
    typed::AutotuneConfig described;
    described.index = unsigned(i);
    // The constexprs in order (a default may use an earlier one): the configuration's
    // value, else -D, else the default.
    for (const ast::Param &p : fn.params) {
      if (!isConstexprParam(p))
        continue;
      const ast::Expr *source = p.defaultValue;
      auto d = defines.find(p.name);
      if (d != defines.end())
        source = d->second;
      bool fromConfig = false;
      for (const auto &[name, value] : c.values)
        if (name == p.name) {
          source = value;
          fromConfig = true;
        }
      if (!source)
        continue; // unbound: a prune condition using it says so
      Value v = expr(source);
      typed::ConstexprValue cv;
      if (v.isError()) {
        ok = false;
        continue;
      }
      if (!toConstexprValue(p.name, v, cv)) {
        diags.error(source->range, "the value of constexpr parameter '" + p.name +
                                       "' must be a compile-time number, boolean, string or "
                                       "type, not " + v.describe());
        ok = false;
        continue;
      }
      if (fromConfig)
        described.description += (described.description.empty() ? "" : ", ") + p.name + "=" +
                                 cv.str();
      assign(p.name, v, p.nameRange);
    }
    auto number = [&](const ast::Expr *given, const ast::Expr *fallback, int64_t otherwise,
                      const char *name, int64_t lo, int64_t hi, bool powerOfTwo) -> int64_t {
      const ast::Expr *e = given ? given : fallback;
      if (!e)
        return otherwise;
      Value v = expr(e);
      if (v.isError())
        return 0;
      if (v.kind != Value::Kind::Int || v.intValue < lo || v.intValue > hi ||
          (powerOfTwo && (v.intValue & (v.intValue - 1)))) {
        diags.error(e->range, std::string(name) + " must be " +
                                  (powerOfTwo ? "a power of two" : "an integer") + " from " +
                                  std::to_string(lo) + " to " + std::to_string(hi) + ", not " +
                                  v.describe());
        return 0;
      }
      if (given)
        described.description += (described.description.empty() ? "" : ", ") +
                                 std::string(name) + "=" + std::to_string(v.intValue);
      return v.intValue;
    };
    int64_t warps = number(c.numWarps, kernelWarps, 4, "num_warps", 1, 32, true);
    int64_t stages = number(c.numStages, kernelStages, 3, "num_stages", 1, 8, false);
    // split_k=N: the programs of a tile share its K loop (tile-split-k; 1, 2, 4 or 8).
    int64_t splits = number(c.splitK, nullptr, 1, "split_k", 1, 8, true);
    ok &= warps != 0 && stages != 0 && splits != 0;
    space.numWarps.push_back(c.numWarps ? warps : 0);
    space.numStages.push_back(c.numStages ? stages : 0);
    space.splitK.push_back(splits ? splits : 1);
    if (ok) {
      assign("num_warps", Value::integer(warps), c.range);
      assign("num_stages", Value::integer(stages), c.range);
      assign("split_k", Value::integer(splits), c.range);
      for (const ast::Expr *p : space.prune) {
        Value v = expr(p);
        bool keep = true;
        if (v.isError() || !truthy(v, keep, p->range, "a prune condition")) {
          ok = false;
          break;
        }
        if (!keep) {
          described.prunedBy = sourceText(p->range).str();
          break;
        }
      }
    }
    if (described.description.empty())
      described.description = "(the kernel's defaults)";
    for (const typed::AutotuneConfig &earlier : result->configs)
      if (ok && earlier.description == described.description) {
        diags.error(c.range, "configuration " + std::to_string(i) + " repeats configuration " +
                                 std::to_string(earlier.index) + " (" + described.description +
                                 ")");
        ok = false;
      }
    spaceText += "\n" + described.description;
    result->configs.push_back(std::move(described));
  }
  frame = outerFrame;
  block = outerBlock;
  if (!ok)
    return nullptr;
  for (const ast::Expr *p : space.prune)
    spaceText += "\nprune " + sourceText(p->range).str();

  // The configuration to elaborate.
  int chosen = options.autotuneConfig;
  if (chosen < 0) {
    auto kept = llvm::find_if(result->configs,
                              [](const typed::AutotuneConfig &c) { return c.prunedBy.empty(); });
    if (kept == result->configs.end()) {
      diags.error(call->range, "every configuration of '" + fn.name +
                                   "' is pruned: nothing is left to compile");
      return nullptr;
    }
    chosen = int(kept->index);
  }
  if (size_t(chosen) >= result->configs.size() || !result->configs[chosen].prunedBy.empty()) {
    diags.error(call->range, "'" + fn.name + "' has no configuration " + std::to_string(chosen) +
                                 (size_t(chosen) < result->configs.size() ? " (it is pruned)"
                                                                          : ""));
    return nullptr;
  }
  result->chosen = unsigned(chosen);
  for (const auto &[name, value] : space.configs[chosen].values) {
    auto d = defines.find(name);
    saved[name] = d == defines.end() ? nullptr : d->second;
    defines[name] = value;
  }

  // The space's identity: the file's text, the kernel and the configurations.
  llvm::SourceMgr &sm = diags.getSourceMgr();
  if (unsigned id = sm.FindBufferContainingLoc(fn.nameRange.Start))
    spaceText = sm.getMemoryBuffer(id)->getBuffer().str() + "\n" + spaceText;
  result->space = llvm::formatv("{0:x-16}", llvm::xxh3_64bits(spaceText)).str();
  return result;
}

bool Sema::namesOfParameters(const ast::Expr *e, bool pointers, llvm::StringRef what,
                             std::vector<std::string> &out) {
  std::vector<const ast::Expr *> items;
  if (auto *list = dyn_cast<ast::TupleExpr>(e))
    items.assign(list->elements.begin(), list->elements.end());
  else
    items.push_back(e);
  bool ok = true;
  for (const ast::Expr *item : items) {
    auto *name = dyn_cast<ast::StringLitExpr>(item);
    if (!name) {
      diags.error(item->range, what.str() + " lists parameter names as strings: [\"n\"]");
      ok = false;
      continue;
    }
    auto arg = llvm::find_if(kernel->arguments,
                             [&](const typed::Variable *v) { return v->name == name->value; });
    const char *wanted = pointers ? "a pointer parameter" : "an integer parameter";
    if (arg == kernel->arguments.end()) {
      diags.error(item->range, what.str() + ": '" + name->value + "' is not " + wanted +
                                   " of '" + kernel->name + "'");
      ok = false;
      continue;
    }
    ElementType element = (*arg)->type.element();
    if (pointers ? !element.isPointer : !element.isInteger() || element.isBool()) {
      diags.error(item->range, what.str() + ": '" + name->value + "' is " +
                                   (*arg)->type.str() + ", not " + wanted);
      ok = false;
      continue;
    }
    if (llvm::is_contained(out, name->value)) {
      diags.error(item->range, what.str() + " names '" + name->value + "' twice");
      ok = false;
      continue;
    }
    out.push_back(name->value);
  }
  return ok;
}

bool Sema::finishAutotune(const AutotuneSpace &space, typed::Kernel &k) {
  typed::Autotune &a = *k.autotune;
  bool ok = namesOfParameters(space.key, /*pointers=*/false, "key", a.key);
  for (const ast::Expr *r : space.restore) {
    std::vector<std::string> names;
    ok &= namesOfParameters(r, /*pointers=*/true, "restore_value/reset_to_zero", names);
    for (std::string &n : names)
      if (!llvm::is_contained(a.restore, n))
        a.restore.push_back(std::move(n));
  }
  if (int64_t warps = space.numWarps[a.chosen])
    k.numWarps = warps;
  if (int64_t stages = space.numStages[a.chosen])
    k.numStages = stages;
  k.splitK = space.splitK[a.chosen];
  return ok;
}
