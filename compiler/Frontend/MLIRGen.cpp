//===- MLIRGen.cpp - Typed AST to the tile dialect -----------------------===//

#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/TypedAST.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tcc;
using llvm::cast;
using mlir::Value;

void tcc::loadFrontendDialects(mlir::MLIRContext &context) {
  context.loadDialect<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                      mlir::math::MathDialect, mlir::scf::SCFDialect,
                      mlir::tile::TileDialect>();
}

namespace {

class Generator {
public:
  Generator(mlir::MLIRContext &ctx, const llvm::SourceMgr &sm)
      : ctx(ctx), b(&ctx), sm(sm) {}

  mlir::OwningOpRef<mlir::ModuleOp> run(const typed::Program &program) {
    mlir::Location fileLoc = mlir::UnknownLoc::get(&ctx);
    if (!program.kernels.empty())
      fileLoc = loc(program.kernels.front()->range);
    mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(fileLoc);
    b.setInsertionPointToEnd(module->getBody());
    for (const auto &k : program.kernels)
      kernel(*k);
    return module;
  }

private:
  //===--------------------------------------------------------------------===//
  // Locations and types
  //===--------------------------------------------------------------------===//

  mlir::Location loc(llvm::SMRange r) {
    mlir::Location l = mlir::UnknownLoc::get(&ctx);
    if (r.Start.isValid()) {
      if (unsigned id = sm.FindBufferContainingLoc(r.Start)) {
        auto [line, col] = sm.getLineAndColumn(r.Start, id);
        l = mlir::FileLineColLoc::get(
            &ctx, sm.getMemoryBuffer(id)->getBufferIdentifier(), line, col);
      }
    }
    if (!callSites.empty())
      l = mlir::CallSiteLoc::get(l, callSites.back());
    return l;
  }

  mlir::Type scalar(ScalarKind k) {
    switch (k) {
    case ScalarKind::I1: return b.getI1Type();
    case ScalarKind::I8: return b.getI8Type();
    case ScalarKind::I16: return b.getI16Type();
    case ScalarKind::I32: return b.getI32Type();
    case ScalarKind::I64: return b.getI64Type();
    case ScalarKind::F16: return b.getF16Type();
    case ScalarKind::BF16: return b.getBF16Type();
    case ScalarKind::F32: return b.getF32Type();
    case ScalarKind::F64: return b.getF64Type();
    case ScalarKind::F8E4NV: return b.getType<mlir::Float8E4M3FNType>();
    case ScalarKind::F8E5: return b.getType<mlir::Float8E5M2Type>();
    }
    return b.getI32Type();
  }

  mlir::Type element(ElementType e) {
    mlir::Type s = scalar(e.scalar);
    return e.isPointer ? mlir::Type(mlir::tile::PointerType::get(&ctx, s)) : s;
  }

  mlir::Type type(const Type &t) {
    mlir::Type e = element(t.element());
    if (!t.isTile())
      return e;
    return mlir::RankedTensorType::get(t.shape(), e);
  }

  mlir::TypedAttr scalarAttr(mlir::Type elemTy, int64_t i, double f) {
    if (auto ft = llvm::dyn_cast<mlir::FloatType>(elemTy))
      return mlir::FloatAttr::get(ft, f);
    unsigned width = elemTy.getIntOrFloatBitWidth();
    return mlir::IntegerAttr::get(
        elemTy, llvm::APInt(width, uint64_t(i), /*isSigned=*/true, /*implicitTrunc=*/true));
  }

  Value constant(mlir::Location l, mlir::Type ty, int64_t i, double f) {
    mlir::Type elemTy = ty;
    if (auto t = llvm::dyn_cast<mlir::RankedTensorType>(ty))
      elemTy = t.getElementType();
    mlir::TypedAttr attr = scalarAttr(elemTy, i, f);
    if (auto t = llvm::dyn_cast<mlir::RankedTensorType>(ty))
      attr = mlir::DenseElementsAttr::get(t, mlir::Attribute(attr));
    return mlir::arith::ConstantOp::create(b, l, attr);
  }

  //===--------------------------------------------------------------------===//
  // Kernels and statements
  //===--------------------------------------------------------------------===//

  void kernel(const typed::Kernel &k) {
    llvm::SmallVector<mlir::Type> argTypes;
    llvm::SmallVector<mlir::Attribute> argNames;
    for (const typed::Variable *a : k.arguments) {
      argTypes.push_back(type(a->type));
      argNames.push_back(b.getStringAttr(a->name));
    }
    mlir::Location l = loc(k.range);
    auto fn = mlir::func::FuncOp::create(b, l, k.name, b.getFunctionType(argTypes, {}));
    fn->setAttr(mlir::tile::kKernelAttrName, b.getUnitAttr());
    fn->setAttr(mlir::tile::kNumWarpsAttrName, b.getI32IntegerAttr(int32_t(k.numWarps)));
    if (k.numStages)
      fn->setAttr(mlir::tile::kNumStagesAttrName, b.getI32IntegerAttr(int32_t(k.numStages)));
    if (k.splitK > 1) // asks tile-split-k to split it (tcc --split-k: every kernel)
      fn->setAttr(mlir::tile::kSplitKAttrName, b.getI32IntegerAttr(int32_t(k.splitK)));
    fn->setAttr(mlir::tile::kGridAttrName, b.getStrArrayAttr({k.grid[0], k.grid[1], k.grid[2]}));
    fn->setAttr(mlir::tile::kArgNamesAttrName, b.getArrayAttr(argNames));
    llvm::SmallVector<mlir::NamedAttribute> constexprs;
    for (const typed::ConstexprValue &c : k.constexprs) {
      mlir::Attribute v;
      switch (c.kind) {
      case typed::ConstexprValue::Kind::Int: v = b.getI64IntegerAttr(c.intValue); break;
      case typed::ConstexprValue::Kind::Bool: v = b.getBoolAttr(c.intValue != 0); break;
      case typed::ConstexprValue::Kind::Float: v = b.getF64FloatAttr(c.floatValue); break;
      case typed::ConstexprValue::Kind::DType: v = mlir::TypeAttr::get(scalar(c.dtype)); break;
      case typed::ConstexprValue::Kind::String: v = b.getStringAttr(c.stringValue); break;
      }
      constexprs.push_back(b.getNamedAttr(c.name, v));
    }
    fn->setAttr(mlir::tile::kConstexprsAttrName, b.getDictionaryAttr(constexprs));

    mlir::Block *entry = &fn.getBody().emplaceBlock();
    for (size_t i = 0; i < k.arguments.size(); ++i)
      values[k.arguments[i]] = entry->addArgument(argTypes[i], loc(k.arguments[i]->range));
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(entry);
    block(k.body);
    mlir::func::ReturnOp::create(b, l);
  }

  void block(const typed::Block &stmts) {
    for (const typed::Stmt *s : stmts)
      stmt(s);
  }

  void stmt(const typed::Stmt *s) {
    switch (s->getKind()) {
    case typed::Stmt::Kind::Let: {
      auto *let = cast<typed::LetStmt>(s);
      values[let->var] = expr(let->value);
      return;
    }
    case typed::Stmt::Kind::Store: {
      auto *st = cast<typed::StoreStmt>(s);
      Value ptr = expr(st->ptr);
      Value v = expr(st->value);
      Value mask = st->mask ? expr(st->mask) : Value();
      mlir::tile::StoreOp::create(b, loc(s->range), ptr, v, mask);
      return;
    }
    case typed::Stmt::Kind::Print: {
      auto *p = cast<typed::PrintStmt>(s);
      llvm::SmallVector<Value> args;
      for (const typed::Expr *a : p->args)
        args.push_back(expr(a));
      mlir::tile::PrintOp::create(b, loc(s->range), p->prefix, args);
      return;
    }
    case typed::Stmt::Kind::Barrier:
      mlir::tile::BarrierOp::create(b, loc(s->range));
      return;
    case typed::Stmt::Kind::Assume: {
      auto *a = cast<typed::AssumeStmt>(s);
      if (a->isAssert)
        mlir::tile::AssertOp::create(b, loc(s->range), expr(a->cond), a->message);
      else
        mlir::tile::AssumeOp::create(b, loc(s->range), expr(a->cond));
      return;
    }
    case typed::Stmt::Kind::For:
      forStmt(cast<typed::ForStmt>(s));
      return;
    case typed::Stmt::Kind::While:
      whileStmt(cast<typed::WhileStmt>(s));
      return;
    case typed::Stmt::Kind::If:
      ifStmt(cast<typed::IfStmt>(s));
      return;
    case typed::Stmt::Kind::Scan:
      scanStmt(cast<typed::ScanStmt>(s));
      return;
    case typed::Stmt::Kind::Inline: {
      auto *in = cast<typed::InlineStmt>(s);
      callSites.push_back(loc(in->range));
      block(in->body);
      callSites.pop_back();
      return;
    }
    }
  }

  void scanStmt(const typed::ScanStmt *s) {
    mlir::Location l = loc(s->range);
    llvm::SmallVector<Value> srcs;
    llvm::SmallVector<mlir::Type> types;
    for (const typed::Expr *e : s->operands) {
      srcs.push_back(expr(e));
      types.push_back(srcs.back().getType());
    }
    auto scan = mlir::tile::ScanOp::create(b, l, types, srcs, b.getI32IntegerAttr(s->axis),
                                           s->reverse ? b.getUnitAttr() : mlir::UnitAttr());
    mlir::Block *body = &scan.getCombiner().emplaceBlock();
    for (const typed::Variable *p : s->params)
      values[p] = body->addArgument(type(p->type), loc(p->range));
    {
      mlir::OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(body);
      block(s->body);
      llvm::SmallVector<Value> yields;
      for (const typed::Expr *e : s->yields)
        yields.push_back(expr(e));
      mlir::tile::ScanReturnOp::create(b, l, yields);
    }
    for (size_t i = 0; i < s->results.size(); ++i)
      values[s->results[i]] = scan.getResult(i);
  }

  void forStmt(const typed::ForStmt *f) {
    mlir::Location l = loc(f->range);
    Value lower = expr(f->lower), upper = expr(f->upper), step = expr(f->step);
    llvm::SmallVector<Value> inits;
    for (const typed::LoopCarried &c : f->carried)
      inits.push_back(expr(c.init));
    auto forOp = mlir::scf::ForOp::create(
        b, l, lower, upper, step, inits,
        [&](mlir::OpBuilder &, mlir::Location, Value iv, mlir::ValueRange args) {
          values[f->inductionVar] = iv;
          for (size_t i = 0; i < f->carried.size(); ++i)
            values[f->carried[i].arg] = args[i];
          block(f->body);
          llvm::SmallVector<Value> next;
          for (const typed::LoopCarried &c : f->carried)
            next.push_back(expr(c.next));
          mlir::scf::YieldOp::create(b, l, next);
        });
    if (f->numStages)
      forOp->setAttr(mlir::tile::kNumStagesAttrName, b.getI32IntegerAttr(int32_t(f->numStages)));
    if (f->warpSpecialize)
      forOp->setAttr(mlir::tile::kSpecializeWarpsAttrName, b.getUnitAttr());
    for (size_t i = 0; i < f->carried.size(); ++i)
      values[f->carried[i].result] = forOp.getResult(i);
  }

  void whileStmt(const typed::WhileStmt *w) {
    mlir::Location l = loc(w->range);
    llvm::SmallVector<Value> inits;
    llvm::SmallVector<mlir::Type> types;
    for (const typed::LoopCarried &c : w->carried) {
      inits.push_back(expr(c.init));
      types.push_back(inits.back().getType());
    }
    auto whileOp = mlir::scf::WhileOp::create(
        b, l, types, inits,
        [&](mlir::OpBuilder &, mlir::Location, mlir::ValueRange args) {
          for (size_t i = 0; i < w->carried.size(); ++i)
            values[w->carried[i].arg] = args[i];
          block(w->condBody);
          Value cond = expr(w->cond);
          mlir::scf::ConditionOp::create(b, l, cond, args);
        },
        [&](mlir::OpBuilder &, mlir::Location, mlir::ValueRange args) {
          for (size_t i = 0; i < w->bodyArgs.size(); ++i)
            values[w->bodyArgs[i]] = args[i];
          block(w->body);
          llvm::SmallVector<Value> next;
          for (const typed::LoopCarried &c : w->carried)
            next.push_back(expr(c.next));
          mlir::scf::YieldOp::create(b, l, next);
        });
    for (size_t i = 0; i < w->carried.size(); ++i)
      values[w->carried[i].result] = whileOp.getResult(i);
  }

  void ifStmt(const typed::IfStmt *s) {
    mlir::Location l = loc(s->range);
    Value cond = expr(s->cond);
    llvm::SmallVector<mlir::Type> resultTypes;
    for (const typed::IfResult &r : s->results)
      resultTypes.push_back(type(r.result->type));
    bool hasElse = !s->elseBody.empty() || !s->results.empty();
    auto ifOp = mlir::scf::IfOp::create(b, l, resultTypes, cond, /*addThenBlock=*/true,
                                        /*addElseBlock=*/hasElse);
    {
      mlir::OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      block(s->thenBody);
      llvm::SmallVector<Value> yields;
      for (const typed::IfResult &r : s->results)
        yields.push_back(expr(r.thenValue));
      mlir::scf::YieldOp::create(b, l, yields);
      if (hasElse) {
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
        block(s->elseBody);
        yields.clear();
        for (const typed::IfResult &r : s->results)
          yields.push_back(expr(r.elseValue));
        mlir::scf::YieldOp::create(b, l, yields);
      }
    }
    for (size_t i = 0; i < s->results.size(); ++i)
      values[s->results[i].result] = ifOp.getResult(i);
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Value expr(const typed::Expr *e) {
    mlir::Location l = loc(e->range);
    mlir::Type ty = type(e->type);
    switch (e->getKind()) {
    case typed::Expr::Kind::Constant: {
      auto *c = cast<typed::ConstantExpr>(e);
      return constant(l, ty, c->intValue, c->floatValue);
    }
    case typed::Expr::Kind::VarRef:
      return values.lookup(cast<typed::VarRefExpr>(e)->var);
    case typed::Expr::Kind::Unary: {
      auto *u = cast<typed::UnaryExpr>(e);
      Value x = expr(u->operand);
      if (u->op == typed::UnaryOp::Neg) {
        if (e->type.element().isFloat())
          return mlir::arith::NegFOp::create(b, l, x);
        return mlir::arith::SubIOp::create(b, l, constant(l, ty, 0, 0.0), x);
      }
      return mlir::arith::XOrIOp::create(b, l, x, constant(l, ty, -1, 0.0));
    }
    case typed::Expr::Kind::Binary:
      return binary(cast<typed::BinaryExpr>(e), l);
    case typed::Expr::Kind::Compare:
      return compare(cast<typed::CompareExpr>(e), l);
    case typed::Expr::Kind::AddPtr: {
      auto *a = cast<typed::AddPtrExpr>(e);
      Value p = expr(a->ptr);
      Value off = expr(a->offset);
      return mlir::tile::AddPtrOp::create(b, l, ty, p, off);
    }
    case typed::Expr::Kind::Cast:
      return castOp(cast<typed::CastExpr>(e), l, ty);
    case typed::Expr::Kind::Splat:
      return mlir::tile::SplatOp::create(b, l, ty, expr(cast<typed::SplatExpr>(e)->operand));
    case typed::Expr::Kind::Broadcast:
      return mlir::tile::BroadcastOp::create(b, l, ty,
                                             expr(cast<typed::BroadcastExpr>(e)->operand));
    case typed::Expr::Kind::ExpandDims: {
      auto *x = cast<typed::ExpandDimsExpr>(e);
      return mlir::tile::ExpandDimsOp::create(b, l, ty, expr(x->operand), x->axis);
    }
    case typed::Expr::Kind::Select: {
      auto *s = cast<typed::SelectExpr>(e);
      Value c = expr(s->cond);
      Value t = expr(s->trueValue);
      Value f = expr(s->falseValue);
      return mlir::arith::SelectOp::create(b, l, c, t, f);
    }
    case typed::Expr::Kind::ProgramId:
      return mlir::tile::ProgramIdOp::create(b, l, ty, cast<typed::ProgramIdExpr>(e)->axis);
    case typed::Expr::Kind::NumPrograms:
      return mlir::tile::NumProgramsOp::create(b, l, ty, cast<typed::NumProgramsExpr>(e)->axis);
    case typed::Expr::Kind::Arange: {
      auto *a = cast<typed::ArangeExpr>(e);
      return mlir::tile::MakeRangeOp::create(b, l, ty, b.getI32IntegerAttr(int32_t(a->start)),
                                             b.getI32IntegerAttr(int32_t(a->end)));
    }
    case typed::Expr::Kind::Load: {
      auto *ld = cast<typed::LoadExpr>(e);
      Value p = expr(ld->ptr);
      Value m = ld->mask ? expr(ld->mask) : Value();
      Value o = ld->other ? expr(ld->other) : Value();
      return mlir::tile::LoadOp::create(b, l, p, m, o);
    }
    case typed::Expr::Kind::AtomicAdd: {
      auto *at = cast<typed::AtomicAddExpr>(e);
      Value p = expr(at->ptr);
      Value v = expr(at->value);
      Value m = at->mask ? expr(at->mask) : Value();
      return mlir::tile::AtomicAddOp::create(b, l, v.getType(), p, v, m);
    }
    case typed::Expr::Kind::Extern: {
      auto *x = cast<typed::ExternExpr>(e);
      llvm::SmallVector<Value> args;
      for (const typed::Expr *a : x->args)
        args.push_back(expr(a));
      return mlir::tile::ExternElementwiseOp::create(b, l, args.front().getType(), x->symbol,
                                                     args);
    }
    case typed::Expr::Kind::Atomic: {
      auto *at = cast<typed::AtomicExpr>(e);
      Value p = expr(at->ptr);
      if (at->cmp) {
        Value c = expr(at->cmp);
        Value v = expr(at->value);
        return mlir::tile::AtomicCASOp::create(b, l, v.getType(), p, c, v, at->sem, at->scope);
      }
      Value v = expr(at->value);
      Value m = at->mask ? expr(at->mask) : Value();
      return mlir::tile::AtomicRMWOp::create(b, l, v.getType(), at->op, p, v, m, at->sem,
                                             at->scope);
    }
    case typed::Expr::Kind::Reduce: {
      auto *r = cast<typed::ReduceExpr>(e);
      mlir::tile::ReduceKind kind = mlir::tile::ReduceKind::Sum;
      switch (r->kind) {
      case typed::ReduceKind::Sum: kind = mlir::tile::ReduceKind::Sum; break;
      case typed::ReduceKind::Max: kind = mlir::tile::ReduceKind::Max; break;
      case typed::ReduceKind::Min: kind = mlir::tile::ReduceKind::Min; break;
      case typed::ReduceKind::ArgMax: kind = mlir::tile::ReduceKind::ArgMax; break;
      case typed::ReduceKind::ArgMin: kind = mlir::tile::ReduceKind::ArgMin; break;
      }
      return mlir::tile::ReduceOp::create(b, l, ty, expr(r->operand), kind, r->axis);
    }
    case typed::Expr::Kind::Dot: {
      auto *d = cast<typed::DotExpr>(e);
      Value a = expr(d->a);
      Value bv = expr(d->b);
      Value acc = expr(d->acc);
      auto dot = mlir::tile::DotOp::create(b, l, ty, a, bv, acc, mlir::StringAttr());
      if (d->ieee)
        dot.setInputPrecision("ieee");
      return dot;
    }
    case typed::Expr::Kind::Hint: {
      auto *h = cast<typed::HintExpr>(e);
      Value x = expr(h->operand);
      mlir::DenseI32ArrayAttr values = b.getDenseI32ArrayAttr(h->values);
      bool div = h->kind == typed::HintKind::Divisibility;
      return mlir::tile::HintOp::create(b, l, ty, x, div ? values : mlir::DenseI32ArrayAttr(),
                                        div ? mlir::DenseI32ArrayAttr() : values);
    }
    case typed::Expr::Kind::Math:
      return math(cast<typed::MathExpr>(e), l, ty);
    case typed::Expr::Kind::Trans: {
      auto *t = cast<typed::TransExpr>(e);
      return mlir::tile::TransOp::create(b, l, ty, expr(t->operand), t->order);
    }
    case typed::Expr::Kind::Bitcast:
      return mlir::arith::BitcastOp::create(b, l, ty, expr(cast<typed::BitcastExpr>(e)->operand));
    case typed::Expr::Kind::Reshape:
      return mlir::tile::ReshapeOp::create(b, l, ty, expr(cast<typed::ReshapeExpr>(e)->operand));
    case typed::Expr::Kind::PermuteXor: {
      auto *p = cast<typed::PermuteXorExpr>(e);
      return mlir::tile::PermuteXorOp::create(b, l, ty, expr(p->operand),
                                              b.getI32IntegerAttr(int32_t(p->axis)),
                                              b.getI64IntegerAttr(p->mask));
    }
    }
    return Value();
  }

  Value binary(const typed::BinaryExpr *e, mlir::Location l) {
    Value x = expr(e->lhs);
    Value y = expr(e->rhs);
    if (e->type.element().isFloat()) {
      switch (e->op) {
      case typed::BinaryOp::Add: return mlir::arith::AddFOp::create(b, l, x, y);
      case typed::BinaryOp::Sub: return mlir::arith::SubFOp::create(b, l, x, y);
      case typed::BinaryOp::Mul: return mlir::arith::MulFOp::create(b, l, x, y);
      case typed::BinaryOp::Div: return mlir::arith::DivFOp::create(b, l, x, y);
      case typed::BinaryOp::Rem: return mlir::arith::RemFOp::create(b, l, x, y);
      case typed::BinaryOp::Min: return mlir::arith::MinNumFOp::create(b, l, x, y);
      case typed::BinaryOp::Max: return mlir::arith::MaxNumFOp::create(b, l, x, y);
      case typed::BinaryOp::MinNaN: return mlir::arith::MinimumFOp::create(b, l, x, y);
      case typed::BinaryOp::MaxNaN: return mlir::arith::MaximumFOp::create(b, l, x, y);
      default: break; // Sema admits no bitwise operators on floats
      }
      return x;
    }
    switch (e->op) {
    case typed::BinaryOp::Add: return mlir::arith::AddIOp::create(b, l, x, y);
    case typed::BinaryOp::Sub: return mlir::arith::SubIOp::create(b, l, x, y);
    case typed::BinaryOp::Mul: return mlir::arith::MulIOp::create(b, l, x, y);
    case typed::BinaryOp::Div: return mlir::arith::DivSIOp::create(b, l, x, y);
    case typed::BinaryOp::Rem: return mlir::arith::RemSIOp::create(b, l, x, y);
    case typed::BinaryOp::And: return mlir::arith::AndIOp::create(b, l, x, y);
    case typed::BinaryOp::Or: return mlir::arith::OrIOp::create(b, l, x, y);
    case typed::BinaryOp::Xor: return mlir::arith::XOrIOp::create(b, l, x, y);
    case typed::BinaryOp::Shl: return mlir::arith::ShLIOp::create(b, l, x, y);
    case typed::BinaryOp::Shr: return mlir::arith::ShRSIOp::create(b, l, x, y);
    case typed::BinaryOp::Min:
    case typed::BinaryOp::MinNaN: return mlir::arith::MinSIOp::create(b, l, x, y);
    case typed::BinaryOp::Max:
    case typed::BinaryOp::MaxNaN: return mlir::arith::MaxSIOp::create(b, l, x, y);
    }
    return x;
  }

  Value compare(const typed::CompareExpr *e, mlir::Location l) {
    Value x = expr(e->lhs);
    Value y = expr(e->rhs);
    ElementType et = e->lhs->type.element();
    if (et.isFloat()) {
      using P = mlir::arith::CmpFPredicate;
      P p = P::OEQ;
      switch (e->op) {
      case typed::CompareOp::Lt: p = P::OLT; break;
      case typed::CompareOp::Le: p = P::OLE; break;
      case typed::CompareOp::Gt: p = P::OGT; break;
      case typed::CompareOp::Ge: p = P::OGE; break;
      case typed::CompareOp::Eq: p = P::OEQ; break;
      case typed::CompareOp::Ne: p = P::UNE; break;
      }
      return mlir::arith::CmpFOp::create(b, l, p, x, y);
    }
    using P = mlir::arith::CmpIPredicate;
    bool isBool = et.isBool(); // true is 1, not -1
    P p = P::eq;
    switch (e->op) {
    case typed::CompareOp::Lt: p = isBool ? P::ult : P::slt; break;
    case typed::CompareOp::Le: p = isBool ? P::ule : P::sle; break;
    case typed::CompareOp::Gt: p = isBool ? P::ugt : P::sgt; break;
    case typed::CompareOp::Ge: p = isBool ? P::uge : P::sge; break;
    case typed::CompareOp::Eq: p = P::eq; break;
    case typed::CompareOp::Ne: p = P::ne; break;
    }
    return mlir::arith::CmpIOp::create(b, l, p, x, y);
  }

  Value castOp(const typed::CastExpr *e, mlir::Location l, mlir::Type ty) {
    Value x = expr(e->operand);
    ElementType from = e->operand->type.element(), to = e->type.element();
    mlir::Type srcTy = x.getType();
    if (from.isPointer || to.isPointer) { // i64 <-> pointer, pointer <-> pointer
      if (from.isPointer && to.isPointer) {
        mlir::Type i64 = b.getI64Type();
        if (auto tile = llvm::dyn_cast<mlir::RankedTensorType>(srcTy))
          i64 = tile.clone(i64);
        x = mlir::tile::PtrToIntOp::create(b, l, i64, x);
      }
      if (to.isPointer)
        return mlir::tile::IntToPtrOp::create(b, l, ty, x);
      return mlir::tile::PtrToIntOp::create(b, l, ty, x);
    }
    if (from.isFloat() && to.isFloat()) {
      if (bitWidth(to.scalar) > bitWidth(from.scalar))
        return mlir::arith::ExtFOp::create(b, l, ty, x);
      return mlir::arith::TruncFOp::create(b, l, ty, x);
    }
    if (from.isInteger() && to.isFloat()) {
      if (from.isBool())
        return mlir::arith::UIToFPOp::create(b, l, ty, x);
      return mlir::arith::SIToFPOp::create(b, l, ty, x);
    }
    if (from.isFloat() && to.isInteger()) {
      if (to.isBool())
        return mlir::arith::CmpFOp::create(b, l, mlir::arith::CmpFPredicate::UNE, x,
                                           constant(l, srcTy, 0, 0.0));
      return mlir::arith::FPToSIOp::create(b, l, ty, x);
    }
    // Integer to integer.
    if (to.isBool())
      return mlir::arith::CmpIOp::create(b, l, mlir::arith::CmpIPredicate::ne, x,
                                         constant(l, srcTy, 0, 0.0));
    if (bitWidth(to.scalar) > bitWidth(from.scalar)) {
      if (from.isBool())
        return mlir::arith::ExtUIOp::create(b, l, ty, x);
      return mlir::arith::ExtSIOp::create(b, l, ty, x);
    }
    return mlir::arith::TruncIOp::create(b, l, ty, x);
  }

  Value math(const typed::MathExpr *e, mlir::Location l, mlir::Type ty) {
    Value x = expr(e->operand);
    switch (e->fn) {
    case typed::MathFn::Exp: return mlir::math::ExpOp::create(b, l, x);
    case typed::MathFn::Exp2: return mlir::math::Exp2Op::create(b, l, x);
    case typed::MathFn::Log: return mlir::math::LogOp::create(b, l, x);
    case typed::MathFn::Log2: return mlir::math::Log2Op::create(b, l, x);
    case typed::MathFn::Sqrt: return mlir::math::SqrtOp::create(b, l, x);
    case typed::MathFn::Rsqrt: return mlir::math::RsqrtOp::create(b, l, x);
    case typed::MathFn::Sin: return mlir::math::SinOp::create(b, l, x);
    case typed::MathFn::Cos: return mlir::math::CosOp::create(b, l, x);
    case typed::MathFn::Tanh: return mlir::math::TanhOp::create(b, l, x);
    case typed::MathFn::Erf: return mlir::math::ErfOp::create(b, l, x);
    case typed::MathFn::Floor: return mlir::math::FloorOp::create(b, l, x);
    case typed::MathFn::Ceil: return mlir::math::CeilOp::create(b, l, x);
    case typed::MathFn::Fma: {
      Value y = expr(e->second);
      Value z = expr(e->third);
      return mlir::math::FmaOp::create(b, l, x, y, z);
    }
    case typed::MathFn::Abs:
      if (e->type.element().isFloat())
        return mlir::math::AbsFOp::create(b, l, x);
      return mlir::math::AbsIOp::create(b, l, x);
    case typed::MathFn::Sigmoid: {
      // 1 / (1 + exp(-x))
      Value one = constant(l, ty, 1, 1.0);
      Value neg = mlir::arith::NegFOp::create(b, l, x);
      Value ex = mlir::math::ExpOp::create(b, l, neg);
      Value den = mlir::arith::AddFOp::create(b, l, one, ex);
      return mlir::arith::DivFOp::create(b, l, one, den);
    }
    }
    return x;
  }

  mlir::MLIRContext &ctx;
  mlir::OpBuilder b;
  const llvm::SourceMgr &sm;
  llvm::DenseMap<const typed::Variable *, Value> values;
  std::vector<mlir::Location> callSites;
};

} // namespace

mlir::OwningOpRef<mlir::ModuleOp> tcc::generateTileModule(mlir::MLIRContext &context,
                                                          const typed::Program &program,
                                                          DiagnosticEngine &diags) {
  loadFrontendDialects(context);
  Generator gen(context, diags.getSourceMgr());
  mlir::OwningOpRef<mlir::ModuleOp> module = gen.run(program);

  // Verification failures are bugs in tcc: say so plainly, without IR dumps.
  std::string messages;
  bool savedPrintOp = context.shouldPrintOpOnDiagnostic();
  context.printOpOnDiagnostic(false);
  mlir::LogicalResult ok = mlir::success();
  {
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << d.getLocation() << ": " << d;
      messages += "\n  " + os.str();
      return mlir::success();
    });
    ok = mlir::verify(*module);
  }
  context.printOpOnDiagnostic(savedPrintOp);
  if (mlir::failed(ok)) {
    diags.error("internal compiler error: the generated tile IR does not verify; please "
                "report this with the input file:" + messages);
    return nullptr;
  }
  return module;
}
