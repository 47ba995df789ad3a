//===- SemaBuiltins.cpp - The builtin functions ---------------------------===//
//
// Each builtin checks its arguments the way Triton's do (same parameter
// names, so keyword calls port unchanged) and builds typed nodes. Here: binding a
// call's arguments to those names, the readers of common arguments, and the dispatch to
// the file of each family (SemaValues, SemaMemory, SemaMath, SemaReduce, SemaScan,
// SemaSort, SemaShape, SemaRandom, SemaLibdevice, SemaBlockPtr, SemaDebug).
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/Support/Casting.h"

#include <algorithm>

using namespace tcc;
using namespace tcc::sema;
bool Sema::bindArguments(const ast::CallExpr *call, llvm::StringRef name,
                         llvm::ArrayRef<const char *> params, unsigned required,
                         std::vector<Value> &out, std::vector<SMRange> &ranges,
                         llvm::ArrayRef<const char *> ignored) {
  out.assign(params.size(), Value::none());
  ranges.assign(params.size(), call->range);
  std::vector<bool> given(params.size(), false);
  if (call->args.size() > params.size()) {
    diags.error(call->args[params.size()]->range,
                name + "() takes at most " + llvm::Twine(params.size()) + " argument" +
                    (params.size() == 1 ? "" : "s") + " but " + llvm::Twine(call->args.size()) +
                    " were given");
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < call->args.size(); ++i) {
    out[i] = expr(call->args[i]);
    ranges[i] = call->args[i]->range;
    given[i] = true;
    ok &= !out[i].isError();
  }
  for (const ast::KeywordArg &kw : call->kwargs) {
    auto it = std::find_if(params.begin(), params.end(),
                           [&](const char *p) { return kw.name == p; });
    if (it == params.end()) {
      if (llvm::is_contained(ignored, kw.name)) {
        Value v = expr(kw.value); // accepted for porting, but has no effect
        ok &= !v.isError();
        continue;
      }
      std::string known;
      for (const char *p : params)
        known += (known.empty() ? "" : ", ") + std::string(p);
      diags.error(kw.nameRange, name + "() has no parameter named '" + kw.name +
                                    "' (its parameters are: " + known + ")");
      return false;
    }
    size_t i = it - params.begin();
    if (given[i]) {
      diags.error(kw.nameRange, name + "() got argument '" + kw.name + "' twice");
      return false;
    }
    out[i] = expr(kw.value);
    ranges[i] = kw.value->range;
    given[i] = true;
    ok &= !out[i].isError();
  }
  for (unsigned i = 0; i < required; ++i)
    if (!given[i]) {
      diags.error(call->range, name + "() is missing its '" + params[i] + "' argument");
      return false;
    }
  return ok;
}

std::optional<int64_t> Sema::constantInt(const Value &v, SMRange range, llvm::StringRef what) {
  if (v.isIntLike())
    return v.intValue;
  if (v.isError())
    return std::nullopt;
  if (v.isRuntime()) {
    diags.error(range, what + " must be a compile-time constant, but it is a runtime " +
                           v.type().str() + " value");
    auto *ref = dyn_cast<typed::VarRefExpr>(v.expr);
    if (ref && kernel && llvm::is_contained(kernel->arguments, ref->var))
      diags.note(ref->var->range, "'" + ref->var->name + "' is a runtime parameter; declare it '" +
                                      ref->var->name + ": constexpr' to fix its value at "
                                      "compile time (for example with -D " + ref->var->name +
                                      "=...)");
    else
      noteDefinition(v);
    return std::nullopt;
  }
  diags.error(range, what + " must be an integer, not " + v.describe());
  return std::nullopt;
}

bool Sema::shapeArgument(const Value &v, SMRange range, llvm::SmallVectorImpl<int64_t> &shape) {
  std::vector<Value> dims;
  if (v.kind == Value::Kind::Tuple)
    dims = v.elements;
  else
    dims.push_back(v);
  if (dims.empty()) {
    diags.error(range, "a tile shape needs at least one dimension");
    return false;
  }
  for (const Value &d : dims) {
    std::optional<int64_t> n = constantInt(d, range, "a tile dimension");
    if (!n)
      return false;
    if (!isPowerOfTwo(*n)) {
      diags.error(range, "tile dimensions must be powers of two, but one is " +
                             llvm::Twine(*n));
      return false;
    }
    shape.push_back(*n);
  }
  return checkTileSize(shape, range);
}

std::optional<ScalarKind> Sema::dtypeArgument(const Value &v, SMRange range) {
  if (v.kind == Value::Kind::DType && v.dtypeIsPointer) {
    diags.error(range, "expected a number type such as f32 or i32, not the pointer type " +
                           v.dtypeElement().str());
    return std::nullopt;
  }
  if (v.kind == Value::Kind::DType)
    return v.dtype;
  if (!v.isError())
    diags.error(range, "expected a type such as f32 or i32, not " + v.describe());
  return std::nullopt;
}

/// A mask argument: null for none (or a constant True), an i1 value otherwise.
bool Sema::maskArgument(const Value &v, SMRange range, llvm::StringRef fn,
                        typed::Expr *&mask) {
  mask = nullptr;
  if (v.kind == Value::Kind::None)
    return true;
  if (v.kind == Value::Kind::Bool) {
    if (!v.intValue)
      mask = constant(v, Type::scalar(ScalarKind::I1), range);
    return true;
  }
  if (v.isRuntime() && v.type().element().isBool()) {
    mask = v.expr;
    return true;
  }
  diags.error(range, "the mask of " + fn + "() must be boolean (i1), not " + v.describe() +
                         "; build it with a comparison such as 'offs < n'");
  noteDefinition(v);
  return false;
}

Value Sema::builtinCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  switch (b) {
  // SemaValues.cpp
  case Builtin::ProgramId:
  case Builtin::NumPrograms:
    return programIdCall(b, name, call);
  case Builtin::Arange:
    return arangeCall(name, call);
  case Builtin::Zeros:
  case Builtin::Full:
    return fullCall(b, name, call);
  case Builtin::ZerosLike:
    return zerosLikeCall(name, call);
  case Builtin::Float:
    return floatCall(name, call);
  case Builtin::Int:
    return intCall(name, call);
  case Builtin::Cast:
    return castCall(name, call);
  case Builtin::PointerType:
    return pointerTypeCall(name, call);
  // SemaMemory.cpp
  case Builtin::Load:
    return loadCall(call);
  case Builtin::Store:
    return storeCall(call);
  case Builtin::AtomicAdd:
    return atomicAddCall(call);
  case Builtin::AtomicMax:
  case Builtin::AtomicMin:
  case Builtin::AtomicAnd:
  case Builtin::AtomicOr:
  case Builtin::AtomicXor:
  case Builtin::AtomicXchg:
  case Builtin::AtomicCas:
    return atomicCall(b, name, call);
  // SemaBlockPtr.cpp
  case Builtin::MakeBlockPtr:
  case Builtin::Advance:
  case Builtin::MakeTensorDescriptor:
  case Builtin::TensorDescriptorType:
  case Builtin::IsInstance:
    return blockPtrCall(b, name, call);
  // SemaMath.cpp
  case Builtin::Exp:
  case Builtin::Exp2:
  case Builtin::Log:
  case Builtin::Log2:
  case Builtin::Sqrt:
  case Builtin::Rsqrt:
  case Builtin::Abs:
  case Builtin::Sin:
  case Builtin::Cos:
  case Builtin::Sigmoid:
  case Builtin::Tanh:
  case Builtin::Erf:
  case Builtin::Floor:
  case Builtin::Ceil:
    return mathFn(b, name, call);
  case Builtin::Minimum:
  case Builtin::Maximum:
    return minimumMaximumCall(b, name, call);
  case Builtin::Clamp:
    return clampCall(name, call);
  case Builtin::Fma:
    return fmaCall(name, call);
  case Builtin::Cdiv:
    return cdivCall(name, call);
  case Builtin::Where:
    return whereCall(name, call);
  // SemaLibdevice.cpp
  case Builtin::Libdevice:
    return libdeviceCall(name, call);
  // SemaReduce.cpp, SemaScan.cpp, SemaSort.cpp
  case Builtin::Sum:
  case Builtin::Max:
  case Builtin::Min:
  case Builtin::ArgMax:
  case Builtin::ArgMin:
    return reduce(b, name, call);
  case Builtin::Dot:
    return dotCall(call);
  case Builtin::Cumsum:
  case Builtin::Cumprod:
  case Builtin::AssociativeScan:
    return scanCall(b, name, call);
  case Builtin::Flip:
  case Builtin::Sort:
    return sortCall(b, name, call);
  // SemaShape.cpp
  case Builtin::BroadcastTo:
  case Builtin::ExpandDims:
  case Builtin::Join:
  case Builtin::Split:
  case Builtin::Trans:
  case Builtin::Permute:
  case Builtin::Reshape:
  case Builtin::View:
  case Builtin::Ravel:
    return shapeCall(b, name, call);
  // SemaRandom.cpp
  case Builtin::Rand:
  case Builtin::Randn:
  case Builtin::Randint:
  case Builtin::Randint4x:
  case Builtin::Rand4x:
  case Builtin::Randn4x:
  case Builtin::Umulhi:
    return randomCall(b, name, call);
  // SemaDebug.cpp
  case Builtin::MultipleOf:
  case Builtin::MaxContiguous:
    return hint(b, name, call);
  case Builtin::Print:
    return printCall(call, /*compileTime=*/false);
  case Builtin::StaticPrint:
    return printCall(call, /*compileTime=*/true);
  case Builtin::StaticAssert:
    return staticAssertCall(name, call);
  case Builtin::Assume:
    return assumeCall(name, call);
  case Builtin::DeviceAssert:
    return deviceAssertCall(name, call);
  case Builtin::DebugBarrier:
    return debugBarrierCall(name, call);
  // SemaStmt.cpp: only as a for loop's iterable.
  case Builtin::Range:
  case Builtin::StaticRange:
    diags.error(call->range, name + "() can only be the iterable of a for loop");
    return Value::error();
  }
  return Value::error();
}
