// Narrow-float rounding checked against LLVM's APFloat, .npy round trips, argument specs,
// and the printing format.
#include "compiler/Interpreter/ArgSpec.h"
#include "compiler/Interpreter/Format.h"
#include "compiler/Interpreter/Npy.h"
#include "compiler/Interpreter/Values.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tcc::interp;

namespace {

uint16_t apfloatBits(double v, const llvm::fltSemantics &sem) {
  llvm::APFloat f(v);
  bool lost;
  f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  return uint16_t(f.bitcastToAPInt().getZExtValue());
}

uint16_t apfloatFromInt(int64_t v, const llvm::fltSemantics &sem) {
  llvm::APFloat f(sem);
  f.convertFromAPInt(llvm::APInt(64, uint64_t(v), true), true, llvm::APFloat::rmNearestTiesToEven);
  return uint16_t(f.bitcastToAPInt().getZExtValue());
}

bool sameHalf(uint16_t a, uint16_t b, bool bf) {
  uint16_t expMask = bf ? 0x7f80 : 0x7c00, fracMask = bf ? 0x7f : 0x3ff;
  bool nanA = (a & expMask) == expMask && (a & fracMask);
  bool nanB = (b & expMask) == expMask && (b & fracMask);
  return nanA || nanB ? nanA == nanB : a == b;
}

TEST(InterpreterValues, NarrowFloatRoundingMatchesAPFloat) {
  Rng rng(42);
  std::vector<double> values = {0.0, -0.0, 1.0, 65504.0, 65520.0, 65519.99, 6e-8, 2.98e-8,
                                5.96e-8, 1e-10, INFINITY, -INFINITY, NAN, 3.3895313892515355e38,
                                1.0 + 0x1p-11, 1.0 + 0x1p-8, -1.0 - 3 * 0x1p-11};
  for (int i = 0; i < 200000; ++i) {
    uint32_t w = uint32_t(rng.next());
    float f;
    std::memcpy(&f, &w, 4);
    values.push_back(double(f));
    values.push_back(std::ldexp(rng.uniform() * 2 - 1, int(rng.next() % 64) - 40));
  }
  for (double v : values) {
    float f = float(v);
    ASSERT_TRUE(sameHalf(doubleToHalf(v), apfloatBits(v, llvm::APFloat::IEEEhalf()), false)) << v;
    ASSERT_TRUE(sameHalf(doubleToBHalf(v), apfloatBits(v, llvm::APFloat::BFloat()), true)) << v;
    ASSERT_TRUE(sameHalf(floatToHalf(f), apfloatBits(double(f), llvm::APFloat::IEEEhalf()), false))
        << f;
    ASSERT_TRUE(sameHalf(floatToBHalf(f), apfloatBits(double(f), llvm::APFloat::BFloat()), true))
        << f;
  }
}

TEST(InterpreterValues, HalfWideningIsExact) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = halfToFloat(uint16_t(h));
    llvm::APFloat a(llvm::APFloat::IEEEhalf(), llvm::APInt(16, h));
    if (a.isNaN()) {
      ASSERT_TRUE(std::isnan(f));
      continue;
    }
    ASSERT_EQ(double(f), a.convertToDouble()) << h;
    ASSERT_EQ(floatToHalf(f), h) << h; // and back
  }
}

TEST(InterpreterValues, IntegersRoundOnceToNarrowFloats) {
  Rng rng(7);
  std::vector<int64_t> values = {0, 1, -1, 2049, 2051, 65504, 65519, 65520, INT64_MAX, INT64_MIN,
                                 (int64_t(1) << 53) + 1, 257, 259};
  for (int i = 0; i < 100000; ++i)
    values.push_back(int64_t(rng.next()) >> (rng.next() % 64));
  for (int64_t v : values) {
    ASSERT_EQ(int64ToHalf(v), apfloatFromInt(v, llvm::APFloat::IEEEhalf())) << v;
    ASSERT_EQ(int64ToBHalf(v), apfloatFromInt(v, llvm::APFloat::BFloat())) << v;
  }
}

TEST(InterpreterValues, NpyRoundTrip) {
  for (DType t : {DType::I1, DType::I8, DType::I16, DType::I32, DType::I64, DType::F16,
                  DType::F32, DType::F64}) {
    Buffer b = makeBuffer("v", t, {3, 5}, true);
    for (int i = 0; i < 15; ++i)
      b.set(i, t == DType::I1 ? i % 2 : i - 7);
    std::string bytes = encodeNpy(b);
    EXPECT_EQ(bytes.size() % 64, size_t(15 * dtypeSize(t)) % 64) << "header is 64-byte aligned";
    Buffer r;
    std::string err;
    ASSERT_TRUE(parseNpy(bytes, "r", &r, &err)) << err;
    EXPECT_EQ(r.dtype, t);
    EXPECT_EQ(r.shape, (std::vector<int64_t>{3, 5}));
    EXPECT_EQ(r.bytes, b.bytes) << dtypeName(t);
  }
  Buffer bf = makeBuffer("bf", DType::BF16, {2}, true);
  bf.set(0, 1.5);
  bf.set(1, -3);
  Buffer r;
  std::string err;
  ASSERT_TRUE(parseNpy(encodeNpy(bf), "r", &r, &err)) << err;
  EXPECT_EQ(r.dtype, DType::F32); // NumPy has no bfloat16
  EXPECT_EQ(r.get(1), -3.0);
}

// tcc-fuzz-interpreter-args: an array with no elements was copied with memcpy from a null
// pointer (UBSan: null passed as a nonnull argument).
TEST(InterpreterValues, NpyEmptyArrays) {
  for (std::vector<int64_t> shape : {std::vector<int64_t>{0}, std::vector<int64_t>{3, 0}}) {
    Buffer b = makeBuffer("e", DType::F32, shape, true);
    Buffer r;
    std::string err;
    ASSERT_TRUE(parseNpy(encodeNpy(b), "r", &r, &err)) << err;
    EXPECT_EQ(r.shape, shape);
    EXPECT_EQ(r.numel(), 0);
  }
}

// tcc-fuzz-interpreter-args (hour-long run): extents whose product overflows 64 bits
// before a zero extent (checkShape accepts it: the buffer is empty) overflowed a signed
// multiplication in makeBuffer (UBSan). Printing and writing it back must not either.
TEST(InterpreterValues, ZeroExtentAfterHugeExtents) {
  ArgSpec s;
  std::string err;
  ASSERT_TRUE(parseArgSpec("x=rand:4294967296x4294967296x4294967296x0", &s, &err)) << err;
  Param p{"x", DType::Ptr, DType::F32};
  Memory m;
  ArgValue a;
  ASSERT_TRUE(materializeArg(s, p, 1, m, &a, &err)) << err;
  const Buffer &b = m[a.buffer];
  EXPECT_EQ(b.numel(), 0);
  EXPECT_TRUE(b.bytes.empty());
  EXPECT_EQ(formatTile(b.dtype, b.shape, b.bytes.data(), 64), "[]");
  Buffer r;
  ASSERT_TRUE(parseNpy(encodeNpy(b), "r", &r, &err)) << err;
  EXPECT_EQ(r.shape, b.shape);
}

// tcc-fuzz-interpreter-args: an i1 buffer's unwritten elements (the poison byte 0xff) were
// written to .npy as they are, which is no NumPy boolean.
TEST(InterpreterValues, NpyBooleansAreZeroOrOne) {
  Buffer b = makeBuffer("flags", DType::I1, {3}, /*initialised=*/false);
  b.set(1, 0);
  std::string bytes = encodeNpy(b);
  ASSERT_GE(bytes.size(), size_t(3));
  EXPECT_EQ(bytes.substr(bytes.size() - 3), std::string("\x01\x00\x01", 3));
}

TEST(InterpreterValues, NpyFortranOrderAndErrors) {
  // A 2x3 int32 array in Fortran order: memory holds columns.
  std::string header = "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + char(0) + header;
  int32_t cols[6] = {0, 3, 1, 4, 2, 5};
  bytes.append(reinterpret_cast<const char *>(cols), 24);
  Buffer r;
  std::string err;
  ASSERT_TRUE(parseNpy(bytes, "r", &r, &err)) << err;
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(r.data<int32_t>()[i], i);
  EXPECT_FALSE(parseNpy(bytes.substr(0, bytes.size() - 4), "r", &r, &err));
  EXPECT_NE(err.find("truncated"), std::string::npos);
  EXPECT_FALSE(parseNpy("hello world", "r", &r, &err));
}

TEST(InterpreterValues, ArgSpecs) {
  ArgSpec s;
  std::string err;
  ASSERT_TRUE(parseArgSpec("x=rand:2049x4097", &s, &err)) << err;
  EXPECT_EQ(s.kind, ArgSpec::Kind::Rand);
  EXPECT_EQ(s.shape, (std::vector<int64_t>{2049, 4097}));
  ASSERT_TRUE(parseArgSpec("c=const:-1.5:4", &s, &err)) << err;
  EXPECT_EQ(s.value, -1.5);
  ASSERT_TRUE(parseArgSpec("a=data/in.npy", &s, &err));
  EXPECT_EQ(s.kind, ArgSpec::Kind::File);
  ASSERT_TRUE(parseArgSpec("n=1000", &s, &err));
  EXPECT_EQ(s.kind, ArgSpec::Kind::Scalar);
  EXPECT_FALSE(parseArgSpec("x=rand:10xx2", &s, &err));
  EXPECT_NE(err.find("bad shape"), std::string::npos);
  EXPECT_FALSE(parseArgSpec("x=bogus:3", &s, &err));
  EXPECT_FALSE(parseArgSpec("=3", &s, &err));

  // Materialising: deterministic per seed and name, typed by the parameter.
  Param p{"x", DType::Ptr, DType::F16};
  Memory m1, m2, m3;
  ArgValue a;
  ASSERT_TRUE(parseArgSpec("x=rand:100", &s, &err));
  ASSERT_TRUE(materializeArg(s, p, 1, m1, &a, &err)) << err;
  ASSERT_TRUE(materializeArg(s, p, 1, m2, &a, &err));
  ASSERT_TRUE(materializeArg(s, p, 2, m3, &a, &err));
  EXPECT_EQ(m1[0].dtype, DType::F16);
  EXPECT_EQ(m1[0].bytes, m2[0].bytes);
  EXPECT_NE(m1[0].bytes, m3[0].bytes);
  for (int i = 0; i < 100; ++i)
    EXPECT_TRUE(m1[0].get(i) >= -1 && m1[0].get(i) < 1);
  ASSERT_TRUE(parseArgSpec("x=empty:4", &s, &err));
  ASSERT_TRUE(materializeArg(s, p, 1, m1, &a, &err));
  EXPECT_EQ(m1[a.buffer].init[0], 0);
  Param n{"n", DType::I32, DType::F32};
  ASSERT_TRUE(parseArgSpec("n=0x10", &s, &err));
  ASSERT_TRUE(materializeArg(s, n, 1, m1, &a, &err));
  EXPECT_EQ(a.i, 16);
  EXPECT_FALSE(materializeArg(s, p, 1, m1, &a, &err));
  EXPECT_NE(err.find("expects a buffer"), std::string::npos);
}

TEST(InterpreterValues, FormatTiles) {
  float v[8] = {1, 2.5f, 0.1f, -0.0f, INFINITY, NAN, 3, 1e-7f};
  EXPECT_EQ(formatTile(DType::F32, {2, 4}, v, 0),
            "[[1.0, 2.5, 0.1, -0.0], [inf, nan, 3.0, 1e-07]]");
  EXPECT_EQ(formatTile(DType::F32, {}, v + 1, 0), "2.5");
  int32_t w[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(formatTile(DType::I32, {10}, w, 8), "[0, 1, 2, ..., 7, 8, 9]");
  // tcc-fuzz-interpreter-args: an empty buffer of shape (10^10, 0) printed 10^10 "[]" (and
  // (0, 2^62, 2^62) overflowed its strides); elided, 40 extents of 10 before the zero still
  // printed 6^40. An empty tile prints as NumPy prints one, whatever its extents.
  EXPECT_EQ(formatTile(DType::F32, {10000000000, 0}, nullptr, 64), "[]");
  std::vector<int64_t> deep(40, 10);
  deep.push_back(0);
  EXPECT_EQ(formatTile(DType::F32, deep, nullptr, 64), "[]");
  EXPECT_EQ(formatTile(DType::F32, deep, nullptr, 0), "[]");
  EXPECT_EQ(formatTile(DType::F32, {0, int64_t(1) << 62, int64_t(1) << 62}, nullptr, 64), "[]");
  float w2[6] = {10, 20, 1.5e6f, 123456789.0f, 1e16f, 0.00025f};
  EXPECT_EQ(formatTile(DType::F32, {6}, w2, 0),
            "[10.0, 20.0, 1500000.0, 123456792.0, 1e+16, 0.00025]");
  uint16_t h = floatToHalf(0.1f);
  EXPECT_EQ(formatElement(DType::F16, &h), "0.1");
}

} // namespace
