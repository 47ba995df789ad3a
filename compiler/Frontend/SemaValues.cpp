//===- SemaValues.cpp - Builtins that make values -------------------------===//
//
// program_id and num_programs, arange, zeros, full and zeros_like; the compile-time
// conversions float() and int(), cast(), and pointer_type().
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include <cmath>
#include <cstdlib>
#include <limits>

using namespace tcc;
using namespace tcc::sema;

Value Sema::programIdCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"axis"}, 1, a, r))
    return Value::error();
  std::optional<int64_t> axis = constantInt(a[0], r[0], "the axis of " + name.str() + "()");
  if (!axis)
    return Value::error();
  if (*axis < 0 || *axis > 2) {
    diags.error(r[0], "the axis of " + name + "() must be 0, 1 or 2, not " + llvm::Twine(*axis));
    return Value::error();
  }
  if (b == Builtin::ProgramId)
    return Value::runtime(make<typed::ProgramIdExpr>(call->range, unsigned(*axis)));
  return Value::runtime(make<typed::NumProgramsExpr>(call->range, unsigned(*axis)));
}

Value Sema::arangeCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"start", "end"}, 2, a, r))
    return Value::error();
  std::optional<int64_t> start =
      constantInt(a[0], r[0], "the start of arange() (it fixes the tile's size)");
  if (!start)
    return Value::error();
  std::optional<int64_t> end =
      constantInt(a[1], r[1], "the end of arange() (it fixes the tile's size)");
  if (!end)
    return Value::error();
  if (*start < 0 || *end > INT32_MAX || *end <= *start) {
    diags.error(call->range, "arange(" + llvm::Twine(*start) + ", " + llvm::Twine(*end) +
                                 ") is empty or out of range: it needs 0 <= start < end < 2^31");
    return Value::error();
  }
  int64_t n = *end - *start;
  if (!isPowerOfTwo(n)) {
    diags.error(call->range, "arange(" + llvm::Twine(*start) + ", " + llvm::Twine(*end) +
                                 ") has " + llvm::Twine(n) +
                                 " elements; tile sizes must be powers of two");
    return Value::error();
  }
  if (!checkTileSize({n}, call->range))
    return Value::error();
  return Value::runtime(make<typed::ArangeExpr>(
      Type(ElementType::number(ScalarKind::I32), {n}), call->range, *start, *end));
}

Value Sema::fullCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  bool isFull = b == Builtin::Full;
  if (isFull ? !bindArguments(call, name, {"shape", "value", "dtype"}, 3, a, r)
             : !bindArguments(call, name, {"shape", "dtype"}, 2, a, r))
    return Value::error();
  llvm::SmallVector<int64_t, 4> shape;
  if (!shapeArgument(a[0], r[0], shape))
    return Value::error();
  std::optional<ScalarKind> dtype = dtypeArgument(a[isFull ? 2 : 1], r[isFull ? 2 : 1]);
  if (!dtype)
    return Value::error();
  Type t(ElementType::number(*dtype), shape);
  Value value = isFull ? a[1] : Value::integer(0);
  if (value.isNumber())
    return Value::runtime(constant(value, t, call->range));
  if (!value.isRuntime() || value.type().isTile() || value.type().element().isPointer) {
    diags.error(r[1], "the value of full() must be a scalar number, not " + value.describe());
    noteDefinition(value);
    return Value::error();
  }
  return Value::runtime(coerce(value, t, r[1]));
}

Value Sema::zerosLikeCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"input", "dtype"}, 1, a, r))
    return Value::error();
  if (!a[0].isRuntime() || !a[0].type().isTile() || a[0].type().element().isPointer) {
    diags.error(r[0], "zeros_like() needs a tile of numbers, not " + a[0].describe());
    return Value::error();
  }
  Type t = a[0].type();
  if (a[1].kind != Value::Kind::None) {
    std::optional<ScalarKind> dtype = dtypeArgument(a[1], r[1]);
    if (!dtype)
      return Value::error();
    t = t.withElement(ElementType::number(*dtype));
  }
  return Value::runtime(constant(Value::integer(0), t, call->range));
}

Value Sema::floatCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"x"}, 1, a, r))
    return Value::error();
  if (a[0].isNumber())
    return Value::floating(a[0].kind == Value::Kind::Float ? a[0].floatValue
                                                           : double(a[0].intValue));
  if (a[0].kind == Value::Kind::Str) {
    llvm::StringRef s = llvm::StringRef(a[0].str).trim();
    std::string lower = s.lower();
    double inf = std::numeric_limits<double>::infinity();
    if (lower == "inf" || lower == "+inf" || lower == "infinity")
      return Value::floating(inf);
    if (lower == "-inf" || lower == "-infinity")
      return Value::floating(-inf);
    if (lower == "nan" || lower == "+nan" || lower == "-nan")
      return Value::floating(std::numeric_limits<double>::quiet_NaN());
    std::string text = s.str();
    char *end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (!text.empty() && end == text.c_str() + text.size())
      return Value::floating(v);
    diags.error(r[0], "float() cannot parse \"" + a[0].str + "\"");
    return Value::error();
  }
  diags.error(r[0], "float() converts compile-time numbers and strings; use x.to(f32) for "
                    "runtime values");
  return Value::error();
}

Value Sema::intCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"x"}, 1, a, r))
    return Value::error();
  if (a[0].isIntLike())
    return Value::integer(a[0].intValue);
  if (a[0].kind == Value::Kind::Float && std::isfinite(a[0].floatValue) &&
      std::fabs(a[0].floatValue) < 9.2e18)
    return Value::integer(int64_t(a[0].floatValue));
  diags.error(r[0], "int() converts finite compile-time numbers; use x.to(i32) for runtime "
                    "values");
  return Value::error();
}

Value Sema::castCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2, a,
                     r))
    return Value::error();
  if (!(a[2].kind == Value::Kind::None ||
        (a[2].kind == Value::Kind::Str && a[2].str == "rtne"))) {
    diags.error(r[2], name + "() fp_downcast_rounding must be None or \"rtne\" (round to "
                             "nearest even, what conversions do), not " + a[2].describe());
    return Value::error();
  }
  return convertCall(a[0], a[1], a[3], call->range, r[1], r[3]);
}

/// tl.pointer_type(T): the type of pointers to T, a compile-time value.
Value Sema::pointerTypeCall(llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (!bindArguments(call, name, {"element_ty", "address_space", "const"}, 1, a, r))
    return Value::error();
  if (a[0].kind != Value::Kind::DType) {
    diags.error(r[0], name + "() takes a number type such as f16, not " + a[0].describe());
    return Value::error();
  }
  if (a[0].dtypeIsPointer) {
    diags.error(r[0], "pointers to pointers are not supported");
    return Value::error();
  }
  if (!(a[1].kind == Value::Kind::None || (a[1].isIntLike() && a[1].intValue == 1))) {
    diags.error(r[1], name + "() address_space must be 1 (global memory), not " +
                          a[1].describe());
    return Value::error();
  }
  if (!(a[2].kind == Value::Kind::None || (a[2].kind == Value::Kind::Bool && !a[2].intValue))) {
    diags.error(r[2], name + "() const must be False: tcc has no const pointers");
    return Value::error();
  }
  return Value::dtypeOf(ElementType::pointerTo(a[0].dtype));
}
