//===- Values.h - element types and their host representation ---*- C++ -*-===//
//
// The interpreter keeps every tile as a contiguous row-major array of one element type.
// This header fixes how each tile element type is stored on the host and how the
// narrow floats round, so that every part of the interpreter agrees. Plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_VALUES_H
#define TCC_INTERPRETER_VALUES_H

#include "dialects/Tile/Float8.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace tcc::interp {

/// The element types a tile (or scalar) may have; Ptr is a `!tile.ptr<T>`.
/// F8E4NV and F8E5 are fp8 e4m3fn and e5m2 (dialects/Tile/Float8.h).
enum class DType : uint8_t { I1, I8, I16, I32, I64, F16, BF16, F32, F64, F8E4NV, F8E5, Ptr };

/// Bytes one element occupies in a tile (and, for scalars, in a buffer).
size_t dtypeSize(DType t);
/// The language's spelling: "i1" ... "f64", "f8e4nv", "f8e5", "ptr".
const char *dtypeName(DType t);
/// Parses "i1" ... "f64" (not "ptr"); false for anything else.
bool parseDType(const std::string &s, DType *out);
inline bool isFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 || t == DType::F64 ||
         t == DType::F8E4NV || t == DType::F8E5;
}
inline bool isInt(DType t) { return t <= DType::I64; }
/// Bit width of an integer type (1 for i1).
unsigned intWidth(DType t);

/// Host storage of the narrow floats: their IEEE bits.
struct Half {
  uint16_t bits;
};
struct BHalf {
  uint16_t bits;
};
/// fp8 e4m3fn and e5m2: their bits.
struct F8E4 {
  uint8_t bits;
};
struct F8E5 {
  uint8_t bits;
};

/// A pointer value: which buffer, and a byte offset that may lie anywhere (it is checked
/// only when memory is accessed through it, and only on lanes that are not masked off).
struct PtrVal {
  int64_t offset;
  int64_t buffer;
};

/// The address the interpreter gives a pointer (ptr_to_int; int_to_ptr takes it back):
/// buffer b's byte o is at (b + 1) * 2^40 + o, for offsets within +-2^39. Address 0 is no
/// buffer's (a null pointer, which no access passes). A host that passes an array of
/// pointers (Triton's grouped GEMM) writes these addresses into an i64 buffer.
inline int64_t addressOf(PtrVal p) {
  return int64_t(uint64_t(p.buffer + 1) << 40) + p.offset;
}
inline int64_t addressOf(int64_t buffer, int64_t offset = 0) {
  return addressOf(PtrVal{offset, buffer});
}
inline PtrVal pointerAt(int64_t address) {
  int64_t buffer = ((address + (int64_t(1) << 39)) >> 40) - 1;
  return PtrVal{address - int64_t(uint64_t(buffer + 1) << 40), buffer};
}

/// i1 is stored as uint8_t holding 0 or 1; i8 as int8_t; the other integers as their
/// signed C types.
template <DType T> struct Storage;
template <> struct Storage<DType::I1> { using type = uint8_t; };
template <> struct Storage<DType::I8> { using type = int8_t; };
template <> struct Storage<DType::I16> { using type = int16_t; };
template <> struct Storage<DType::I32> { using type = int32_t; };
template <> struct Storage<DType::I64> { using type = int64_t; };
template <> struct Storage<DType::F16> { using type = Half; };
template <> struct Storage<DType::BF16> { using type = BHalf; };
template <> struct Storage<DType::F32> { using type = float; };
template <> struct Storage<DType::F64> { using type = double; };
template <> struct Storage<DType::F8E4NV> { using type = F8E4; };
template <> struct Storage<DType::F8E5> { using type = F8E5; };
template <> struct Storage<DType::Ptr> { using type = PtrVal; };

//===----------------------------------------------------------------------===//
// Narrow floats: conversions round to nearest, ties to even (what cvt.rn does on the GPU)
//===----------------------------------------------------------------------===//

/// Exact widening.
float halfToFloat(uint16_t bits);
inline float bhalfToFloat(uint16_t bits) {
  uint32_t w = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}
/// Rounds to nearest even; overflow gives infinity, NaN stays NaN (quiet).
uint16_t doubleToHalf(double v);
uint16_t doubleToBHalf(double v);
uint16_t floatToHalf(float v);
uint16_t floatToBHalf(float v);
/// Exact conversions of 64-bit integers (a double would round twice).
uint16_t int64ToHalf(int64_t v);
uint16_t uint64ToHalf(uint64_t v);
uint16_t int64ToBHalf(int64_t v);
uint16_t uint64ToBHalf(uint64_t v);

/// Integer access for every integer storage type: sign- or zero-extended to 64 bits, and
/// back by truncation (two's complement wrap-around, as on the GPU).
template <typename T> struct IntOps {
  static int64_t s(T v) { return int64_t(v); }
  static uint64_t u(T v) {
    using U = std::make_unsigned_t<T>;
    return uint64_t(U(v));
  }
  static T wrap(uint64_t v) { return T(std::make_unsigned_t<T>(v)); }
  static constexpr unsigned bits = sizeof(T) * 8;
};
template <> struct IntOps<uint8_t> { // i1
  static int64_t s(uint8_t v) { return -int64_t(v & 1); }
  static uint64_t u(uint8_t v) { return v & 1; }
  static uint8_t wrap(uint64_t v) { return uint8_t(v & 1); }
  static constexpr unsigned bits = 1;
};

/// Float access: compute type (float for f16/bf16/f32, double for f64), and back with
/// round-to-nearest-even.
template <typename T> struct FloatOps;
template <> struct FloatOps<float> {
  using C = float;
  static float get(float v) { return v; }
  static float put(float v) { return v; }
  static float fromDouble(double v) { return float(v); }
};
template <> struct FloatOps<double> {
  using C = double;
  static double get(double v) { return v; }
  static double put(double v) { return v; }
  static double fromDouble(double v) { return v; }
};
template <> struct FloatOps<Half> {
  using C = float;
  static float get(Half v) { return halfToFloat(v.bits); }
  static Half put(float v) { return Half{floatToHalf(v)}; }
  static Half fromDouble(double v) { return Half{doubleToHalf(v)}; }
};
template <> struct FloatOps<BHalf> {
  using C = float;
  static float get(BHalf v) { return bhalfToFloat(v.bits); }
  static BHalf put(float v) { return BHalf{floatToBHalf(v)}; }
  static BHalf fromDouble(double v) { return BHalf{doubleToBHalf(v)}; }
};
/// fp8: exact widening; narrowing rounds to nearest even and saturates (satfinite).
template <> struct FloatOps<F8E4> {
  using C = float;
  static constexpr mlir::tile::fp8::Format F = mlir::tile::fp8::Format::E4M3FN;
  static float get(F8E4 v) { return float(mlir::tile::fp8::decode(v.bits, F)); }
  static F8E4 put(float v) { return F8E4{mlir::tile::fp8::encode(v, F)}; }
  static F8E4 fromDouble(double v) { return F8E4{mlir::tile::fp8::encode(v, F)}; }
};
template <> struct FloatOps<F8E5> {
  using C = float;
  static constexpr mlir::tile::fp8::Format F = mlir::tile::fp8::Format::E5M2;
  static float get(F8E5 v) { return float(mlir::tile::fp8::decode(v.bits, F)); }
  static F8E5 put(float v) { return F8E5{mlir::tile::fp8::encode(v, F)}; }
  static F8E5 fromDouble(double v) { return F8E5{mlir::tile::fp8::encode(v, F)}; }
};
/// The float storage types (FloatOps exists for them).
template <typename T>
inline constexpr bool isFloatStorageType =
    std::is_same_v<T, Half> || std::is_same_v<T, BHalf> || std::is_same_v<T, float> ||
    std::is_same_v<T, double> || std::is_same_v<T, F8E4> || std::is_same_v<T, F8E5>;

/// Calls `fn(T{})` with T the storage type of `t` (an integer type).
template <typename Fn> auto visitInt(DType t, Fn &&fn) {
  switch (t) {
  case DType::I1:
    return fn(uint8_t{});
  case DType::I8:
    return fn(int8_t{});
  case DType::I16:
    return fn(int16_t{});
  case DType::I32:
    return fn(int32_t{});
  default:
    return fn(int64_t{});
  }
}
/// Calls `fn(T{})` with T the storage type of `t` (a float type).
template <typename Fn> auto visitFloat(DType t, Fn &&fn) {
  switch (t) {
  case DType::F16:
    return fn(Half{});
  case DType::BF16:
    return fn(BHalf{});
  case DType::F32:
    return fn(float{});
  case DType::F8E4NV:
    return fn(F8E4{});
  case DType::F8E5:
    return fn(F8E5{});
  default:
    return fn(double{});
  }
}
/// Calls `fn(T{})` with T the storage type of any non-pointer `t`.
template <typename Fn> auto visitScalar(DType t, Fn &&fn) {
  if (isFloat(t))
    return visitFloat(t, fn);
  return visitInt(t, fn);
}

/// One element read as a double (integers sign-extended; i1 as 0/1) and written from
/// one (rounding to nearest even, integers truncated toward zero and wrapped).
double elementAsDouble(DType t, const void *p);
void elementFromDouble(DType t, double v, void *p);
/// One integer element sign-extended (i1: 0/1, the language's boolean).
int64_t elementAsInt(DType t, const void *p);
void elementFromInt(DType t, int64_t v, void *p);

} // namespace tcc::interp

#endif // TCC_INTERPRETER_VALUES_H
