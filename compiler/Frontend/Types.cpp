//===- Types.cpp - Types of the kernel language --------------------------===//

#include "compiler/Frontend/Types.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tcc;

llvm::StringRef tcc::scalarName(ScalarKind k) {
  switch (k) {
  case ScalarKind::I1: return "i1";
  case ScalarKind::I8: return "i8";
  case ScalarKind::I16: return "i16";
  case ScalarKind::I32: return "i32";
  case ScalarKind::I64: return "i64";
  case ScalarKind::F16: return "f16";
  case ScalarKind::BF16: return "bf16";
  case ScalarKind::F32: return "f32";
  case ScalarKind::F64: return "f64";
  case ScalarKind::F8E4NV: return "f8e4nv";
  case ScalarKind::F8E5: return "f8e5";
  }
  return "?";
}

std::optional<ScalarKind> tcc::parseScalarName(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ScalarKind>>(name)
      .Cases({"i1", "int1"}, ScalarKind::I1)
      .Cases({"i8", "int8"}, ScalarKind::I8)
      .Cases({"i16", "int16"}, ScalarKind::I16)
      .Cases({"i32", "int32"}, ScalarKind::I32)
      .Cases({"i64", "int64"}, ScalarKind::I64)
      .Cases({"f16", "float16"}, ScalarKind::F16)
      .Cases({"bf16", "bfloat16"}, ScalarKind::BF16)
      .Cases({"f32", "float32"}, ScalarKind::F32)
      .Cases({"f64", "float64"}, ScalarKind::F64)
      .Cases({"f8e4nv", "float8e4nv"}, ScalarKind::F8E4NV)
      .Cases({"f8e5", "float8e5"}, ScalarKind::F8E5)
      .Default(std::nullopt);
}

bool tcc::isFloat(ScalarKind k) {
  return k == ScalarKind::F16 || k == ScalarKind::BF16 || k == ScalarKind::F32 ||
         k == ScalarKind::F64 || isFp8(k);
}

unsigned tcc::bitWidth(ScalarKind k) {
  switch (k) {
  case ScalarKind::I1: return 1;
  case ScalarKind::I8:
  case ScalarKind::F8E4NV:
  case ScalarKind::F8E5: return 8;
  case ScalarKind::I16:
  case ScalarKind::F16:
  case ScalarKind::BF16: return 16;
  case ScalarKind::I32:
  case ScalarKind::F32: return 32;
  case ScalarKind::I64:
  case ScalarKind::F64: return 64;
  }
  return 0;
}

std::string ElementType::str() const {
  return (isPointer ? "*" : "") + scalarName(scalar).str();
}

int64_t Type::numElements() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

std::string Type::str() const {
  if (dims.empty())
    return elem.str();
  std::string s = "tile<";
  for (int64_t d : dims)
    s += std::to_string(d) + "x";
  return s + elem.str() + ">";
}

std::string tcc::shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}
