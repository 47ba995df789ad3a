//===- Types.h - Types of the kernel language ----------------------------===//
//
// A value is a scalar (`i32`, `f16`, ...), a pointer to a scalar (`*f32`), or
// a tile: a static, power-of-two shaped block of scalars or pointers. Tiles
// are written `tile<128x64xf32>` in messages and in the AST dump, mirroring the
// `tensor<128x64xf32>` they become in the tile dialect.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_TYPES_H
#define TCC_FRONTEND_TYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tcc {

/// F8E4NV is fp8 e4m3fn (4 exponent bits, bias 7, no infinities, NaN 0x7F/0xFF; Triton's
/// float8e4nv), F8E5 fp8 e5m2 (IEEE-like with infinities; Triton's float8e5).
enum class ScalarKind : uint8_t { I1, I8, I16, I32, I64, F16, BF16, F32, F64, F8E4NV, F8E5 };

llvm::StringRef scalarName(ScalarKind k);
/// `i32`, `f16`, `f8e4nv`, ... and Triton's `int32`, `float16`, `bfloat16`, `float8e5`, ...
std::optional<ScalarKind> parseScalarName(llvm::StringRef name);
bool isFloat(ScalarKind k);
/// The two 8-bit float types: stored, loaded, converted and selected, never computed on.
inline bool isFp8(ScalarKind k) { return k == ScalarKind::F8E4NV || k == ScalarKind::F8E5; }
inline bool isInteger(ScalarKind k) { return !isFloat(k); }
unsigned bitWidth(ScalarKind k);

/// What a tile holds, or what a scalar is: a number or a pointer to numbers.
struct ElementType {
  ScalarKind scalar = ScalarKind::I32; // the pointee when isPointer
  bool isPointer = false;

  static ElementType number(ScalarKind k) { return {k, false}; }
  static ElementType pointerTo(ScalarKind k) { return {k, true}; }
  bool isFloat() const { return !isPointer && tcc::isFloat(scalar); }
  bool isInteger() const { return !isPointer && tcc::isInteger(scalar); }
  bool isBool() const { return !isPointer && scalar == ScalarKind::I1; }
  bool isFp8() const { return !isPointer && tcc::isFp8(scalar); }
  bool operator==(const ElementType &o) const {
    return scalar == o.scalar && isPointer == o.isPointer;
  }
  bool operator!=(const ElementType &o) const { return !(*this == o); }
  std::string str() const;
};

class Type {
public:
  Type() = default;
  explicit Type(ElementType elem, llvm::ArrayRef<int64_t> shape = {})
      : elem(elem), dims(shape.begin(), shape.end()) {}
  static Type scalar(ScalarKind k) { return Type(ElementType::number(k)); }
  static Type pointer(ScalarKind k) { return Type(ElementType::pointerTo(k)); }
  static Type tile(ElementType e, llvm::ArrayRef<int64_t> shape) { return Type(e, shape); }

  ElementType element() const { return elem; }
  llvm::ArrayRef<int64_t> shape() const { return dims; }
  unsigned rank() const { return dims.size(); }
  bool isTile() const { return !dims.empty(); }
  bool isScalarLike() const { return dims.empty(); }
  int64_t numElements() const;

  Type withElement(ElementType e) const { return Type(e, dims); }
  Type withShape(llvm::ArrayRef<int64_t> shape) const { return Type(elem, shape); }

  bool operator==(const Type &o) const { return elem == o.elem && dims == o.dims; }
  bool operator!=(const Type &o) const { return !(*this == o); }
  /// `i32`, `*f16`, `tile<128x64xf32>`, `tile<64x*f16>`.
  std::string str() const;

private:
  ElementType elem;
  llvm::SmallVector<int64_t, 2> dims;
};

/// `[128, 64]`, for messages about shapes.
std::string shapeStr(llvm::ArrayRef<int64_t> shape);

inline bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// The largest tile accepted (Triton's limit): 2^20 elements.
constexpr int64_t kMaxTileElements = int64_t(1) << 20;

} // namespace tcc

#endif // TCC_FRONTEND_TYPES_H
