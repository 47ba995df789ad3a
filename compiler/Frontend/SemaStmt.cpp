//===- SemaStmt.cpp - Statements and control flow -------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <cmath>

using namespace tcc;
using namespace tcc::sema;

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
  case ast::Stmt::Kind::Expr: {
    Value v = expr(cast<ast::ExprStmt>(s)->expr);
    // Only the builtin's hint (a user's own `multiple_of` helper is a call like any other).
    if (const ast::NameExpr *hinted = hintedName(s);
        hinted && v.kind == Value::Kind::Runtime && llvm::isa_and_nonnull<typed::HintExpr>(v.expr))
      assign(hinted->name, v, s->range);
    return;
  }
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
  bool warpSpecialize = false;
  for (const ast::KeywordArg &kw : call->kwargs) {
    // Triton's scheduling hints that are flags: evaluated and checked. warp_specialize=True
    // asks tile-pipeline for a producer warpgroup in the dot loop it names or holds (as
    // --warp-specialize does for every such loop); the others have no effect in tcc (its
    // pipeliner decides per loop; docs/language.md).
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
      if (kw.name == "warp_specialize")
        warpSpecialize = v.intValue != 0;
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
  node->warpSpecialize = warpSpecialize;
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
