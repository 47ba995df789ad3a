//===- SemaLibdevice.cpp - libdevice.NAME(...) ----------------------------===//
//
// Triton's `libdevice.asin(x)` (tl.extra.cuda.libdevice): a function of CUDA's libdevice
// applied element-wise. Its operands broadcast together and promote like those of `+`;
// integers are an error (as for the math builtins); f16 and bf16 are an error too, since
// libdevice has f32 and f64 versions only (convert with .to(f32)). The symbol is chosen by
// the operand type: __nv_NAMEf for f32, __nv_NAME for f64 (dialects/Tile/Libdevice.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "dialects/Tile/Libdevice.h"

using namespace tcc;
using namespace tcc::sema;

Value Sema::libdeviceCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::string fn = name.rsplit('.').second.str();
  if (fn.empty())
    fn = name.str();
  const libdevice::Function *f = libdevice::lookup(fn);
  if (!f) {
    diags.error(call->range, "'" + name + "' is not a libdevice function tcc knows");
    return Value::error();
  }
  if (!call->kwargs.empty()) {
    diags.error(call->kwargs.front().nameRange,
                name + "() takes no keyword arguments (libdevice functions take their operands "
                       "by position)");
    return Value::error();
  }
  if (call->args.size() != f->arity) {
    diags.error(call->range, name + "() takes " + llvm::Twine(f->arity) + " operand" +
                                 (f->arity == 1 ? "" : "s") + ", not " +
                                 llvm::Twine(call->args.size()));
    return Value::error();
  }
  std::vector<Value> args;
  bool ok = true;
  for (const ast::Expr *a : call->args) {
    args.push_back(expr(a));
    ok &= !args.back().isError();
  }
  if (!ok)
    return Value::error();
  // The common element type and shape, as `+` would give them.
  std::optional<ElementType> common;
  llvm::SmallVector<int64_t, 4> shape;
  for (size_t i = 0; i < args.size(); ++i) {
    const Value &v = args[i];
    SMRange r = call->args[i]->range;
    if (v.isRuntime()) {
      if (v.type().element().isPointer) {
        diags.error(r, name + "() needs numbers, not " + v.describe());
        noteDefinition(v);
        return Value::error();
      }
      llvm::SmallVector<int64_t, 4> joined;
      if (!broadcastShapes(shape, v.type().shape(), joined)) {
        diags.error(r, name + "() operand of shape " + shapeStr(v.type().shape()) +
                           " does not broadcast with the others' " + shapeStr(shape));
        return Value::error();
      }
      shape = joined;
    } else if (!v.isNumber()) {
      diags.error(r, name + "() needs numbers, not " + v.describe());
      return Value::error();
    }
  }
  for (const Value &v : args) {
    ElementType e = v.isRuntime() ? v.type().element()
                                  : ElementType::number(v.kind == Value::Kind::Float
                                                            ? ScalarKind::F32
                                                            : ScalarKind::I32);
    common = common ? (v.isRuntime() ? promote(*common, e) : *common) : e;
  }
  // Compile-time operands alone are f32 (as for the math builtins).
  if (!common || !common->isFloat()) {
    bool anyRuntime = false;
    for (const Value &v : args)
      anyRuntime |= v.isRuntime();
    if (anyRuntime) {
      diags.error(call->range, name + "() needs floating-point operands (f32 or f64), not " +
                                   common->str() + "; convert them first, e.g. x.to(f32)");
      return Value::error();
    }
    common = ElementType::number(ScalarKind::F32);
  }
  if (common->scalar != ScalarKind::F32 && common->scalar != ScalarKind::F64) {
    diags.error(call->range, name + "() has f32 and f64 versions in libdevice, not " +
                                 common->str() + "; convert first, e.g. x.to(f32)");
    return Value::error();
  }
  Type type(*common, shape);
  std::vector<typed::Expr *> operands;
  for (size_t i = 0; i < args.size(); ++i) {
    typed::Expr *e = coerce(args[i], type, call->args[i]->range);
    if (!e)
      return Value::error();
    operands.push_back(e);
  }
  return Value::runtime(make<typed::ExternExpr>(
      type, call->range, libdevice::symbol(fn, common->scalar == ScalarKind::F32), operands));
}
