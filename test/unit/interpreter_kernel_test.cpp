// The interpreter on hand-written tile IR (docs/ir.md): grid semantics, masks, the memory
// checker, reductions, dot, control flow, integer and float semantics, print.
#include "interpreter_test_util.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>

using namespace tcc::interp;
using namespace tcc::interp::testing;

namespace {

const char *kVectorAdd = R"IR(
func.func @vector_add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.grid = ["cdiv(n, 1024)", "1", "1"],
                tile.arg_names = ["x", "y", "out", "n"]} {
  %pid = tile.program_id 0
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %bs = tile.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %bs, %r : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %a = tile.load %xa, mask %mask : tensor<1024x!tile.ptr<f32>>
  %yp = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %ya = tile.addptr %yp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %b = tile.load %ya, mask %mask, other %zero : tensor<1024x!tile.ptr<f32>>
  %s = arith.addf %a, %b : tensor<1024xf32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %oa = tile.addptr %op, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %oa, %s, mask %mask : tensor<1024x!tile.ptr<f32>>
  return
}
)IR";

std::vector<float> iota(int n, float scale = 1) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[size_t(i)] = float(i) * scale;
  return v;
}

TEST(InterpreterKernel, VectorAddWithGridFromExpressions) {
  Compiled c = compileIR(kVectorAdd);
  ASSERT_TRUE(c.kernel) << c.error;
  for (int n : {1, 1000, 1024, 3000}) {
    Memory mem;
    std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "x", iota(n))),
                                  ArgValue::ofBuffer(addF32(mem, "y", iota(n, 0.5f))),
                                  ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {n})),
                                  ArgValue::ofInt(n)};
    std::array<int64_t, 3> grid;
    std::string err;
    ASSERT_TRUE(c.kernel->computeGrid(args, &grid, &err)) << err;
    EXPECT_EQ(grid[0], (n + 1023) / 1024);
    RunOutput r = run(*c.kernel, args, mem, grid);
    ASSERT_TRUE(r.result.ok) << r.result.error;
    EXPECT_EQ(r.result.programsRun, grid[0]);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(mem[2].data<float>()[i], 1.5f * float(i)) << i;
  }
}

TEST(InterpreterKernel, OneMillionElementVectorAddIsFast) {
  Compiled c = compileIR(kVectorAdd);
  ASSERT_TRUE(c.kernel) << c.error;
  const int n = 1 << 20;
  Memory mem;
  std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "x", iota(n))),
                                ArgValue::ofBuffer(addF32(mem, "y", iota(n))),
                                ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {n})),
                                ArgValue::ofInt(n)};
  auto start = std::chrono::steady_clock::now();
  RunOutput r = run(*c.kernel, args, mem, {n / 1024, 1, 1});
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.result.ok) << r.result.error;
  EXPECT_EQ(mem[2].data<float>()[n - 1], 2.0f * float(n - 1));
  EXPECT_LT(seconds, 2.0);
  std::printf("1M-element vector add interpreted in %.3f s\n", seconds);
}

// The planted bug: the store forgets its mask, so the last program writes past `out`.
const char *kUnmaskedStore = R"IR(
func.func @copy(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.grid = ["cdiv(n, 128)", "1", "1"], tile.arg_names = ["x", "out", "n"]} {
  %pid = tile.program_id 0
  %c128 = arith.constant 128 : i32
  %base = arith.muli %pid, %c128 : i32
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %bs = tile.splat %base : i32 -> tensor<128xi32>
  %offs = arith.addi %bs, %r : tensor<128xi32>
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %xa, mask %mask : tensor<128x!tile.ptr<f32>>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %oa = tile.addptr %op, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %oa, %v : tensor<128x!tile.ptr<f32>>
  return
}
)IR";

TEST(InterpreterKernel, UnmaskedStorePastTheEndIsLocated) {
  Compiled c = compileIR(kUnmaskedStore);
  ASSERT_TRUE(c.kernel) << c.error;
  Memory mem;
  int n = 300;
  std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "x", iota(n))),
                                ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {n})),
                                ArgValue::ofInt(n)};
  RunOutput r = run(*c.kernel, args, mem, {3, 1, 1});
  ASSERT_FALSE(r.result.ok);
  const std::string &e = r.result.error;
  EXPECT_NE(e.find("kernel.mlir:17:3: error: out-of-bounds store to 'out'"), std::string::npos)
      << e;
  EXPECT_NE(e.find("element 300 is past the end"), std::string::npos) << e;
  EXPECT_NE(e.find("program (2, 0, 0)"), std::string::npos) << e;
  EXPECT_NE(e.find("lane [44]"), std::string::npos) << e;
  EXPECT_NE(e.find("84 of its 128 lanes"), std::string::npos) << e;
  EXPECT_NE(e.find("has no mask"), std::string::npos) << e;
  EXPECT_EQ(r.result.programsRun, 2);
  // The failing store wrote nothing; the programs before it completed.
  EXPECT_EQ(mem[1].init[255], 1);
  EXPECT_EQ(mem[1].init[256], 0);
}

// A wrongly masked load: the mask tests `offs <= n`, one too many.
const char *kOffByOne = R"IR(
func.func @copy(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.arg_names = ["x", "out", "n"]} {
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %ns = tile.splat %n : i32 -> tensor<16xi32>
  %mask = arith.cmpi sle, %r, %ns : tensor<16xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %v = tile.load %xa, mask %mask : tensor<16x!tile.ptr<f32>>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %oa = tile.addptr %op, %r : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  tile.store %oa, %v, mask %mask : tensor<16x!tile.ptr<f32>>
  return
}
)IR";

TEST(InterpreterKernel, WronglyMaskedLoadIsReported) {
  Compiled c = compileIR(kOffByOne);
  ASSERT_TRUE(c.kernel) << c.error;
  Memory mem;
  std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "x", iota(10))),
                                ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {10})),
                                ArgValue::ofInt(10)};
  RunOutput r = run(*c.kernel, args, mem);
  ASSERT_FALSE(r.result.ok);
  EXPECT_NE(r.result.error.find("kernel.mlir:9:8: error: out-of-bounds load from 'x': element 10"),
            std::string::npos)
      << r.result.error;
  EXPECT_NE(r.result.error.find("mask is true on these lanes"), std::string::npos);
}

const char *kReadOut = R"IR(
func.func @twice(%out: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %oa = tile.addptr %op, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %v = tile.load %oa : tensor<4x!tile.ptr<f32>>
  %w = arith.addf %v, %v : tensor<4xf32>
  tile.store %oa, %w : tensor<4x!tile.ptr<f32>>
  return
}
)IR";

TEST(InterpreterKernel, ReadsOfNeverWrittenMemoryAreFlagged) {
  Compiled c = compileIR(kReadOut);
  ASSERT_TRUE(c.kernel) << c.error;
  {
    Memory mem;
    std::vector<ArgValue> args = {ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {4}))};
    RunOutput r = run(*c.kernel, args, mem);
    ASSERT_FALSE(r.result.ok);
    EXPECT_NE(r.result.error.find("uninitialised memory: element 0 of 'out' was never written"),
              std::string::npos)
        << r.result.error;
  }
  {
    Memory mem;
    std::vector<ArgValue> args = {ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {4}))};
    RunOutput r = run(*c.kernel, args, mem, {2, 1, 1}, UninitPolicy::Warn);
    ASSERT_TRUE(r.result.ok) << r.result.error;
    ASSERT_EQ(r.warnings.size(), 1u); // once per op
    EXPECT_EQ(r.result.warnings, 4);  // the 4 lanes of program 0; program 1 reads written data
  }
  {
    Memory mem;
    std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "out", {1, 2, 3, 4}))};
    RunOutput r = run(*c.kernel, args, mem);
    ASSERT_TRUE(r.result.ok) << r.result.error;
    EXPECT_EQ(mem[0].data<float>()[3], 8.0f);
  }
}

const char *kReduce = R"IR(
func.func @reduce(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %idx: !tile.ptr<i32>)
    attributes {tile.kernel} {
  %r4 = tile.make_range 0 to 4 : tensor<4xi32>
  %r8 = tile.make_range 0 to 8 : tensor<8xi32>
  %c8 = arith.constant dense<8> : tensor<4xi32>
  %rows = arith.muli %r4, %c8 : tensor<4xi32>
  %re = tile.expand_dims %rows, 1 : tensor<4xi32> -> tensor<4x1xi32>
  %ce = tile.expand_dims %r8, 0 : tensor<8xi32> -> tensor<1x8xi32>
  %rb = tile.broadcast %re : tensor<4x1xi32> -> tensor<4x8xi32>
  %cb = tile.broadcast %ce : tensor<1x8xi32> -> tensor<4x8xi32>
  %offs = arith.addi %rb, %cb : tensor<4x8xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<4x8x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %offs : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi32>
  %v = tile.load %xa : tensor<4x8x!tile.ptr<f32>>
  %sum1 = tile.reduce sum %v, axis 1 : tensor<4x8xf32> -> tensor<4xf32>
  %max1 = tile.reduce max %v, axis 1 : tensor<4x8xf32> -> tensor<4xf32>
  %min0 = tile.reduce min %v, axis 0 : tensor<4x8xf32> -> tensor<8xf32>
  %am1 = tile.reduce argmax %v, axis 1 : tensor<4x8xf32> -> tensor<4xi32>
  %an0 = tile.reduce argmin %v, axis 0 : tensor<4x8xf32> -> tensor<8xi32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %o1 = tile.addptr %op, %r4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %o1, %sum1 : tensor<4x!tile.ptr<f32>>
  %c4 = arith.constant dense<4> : tensor<4xi32>
  %r4b = arith.addi %r4, %c4 : tensor<4xi32>
  %o2 = tile.addptr %op, %r4b : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %o2, %max1 : tensor<4x!tile.ptr<f32>>
  %op8 = tile.splat %out : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %c8b = arith.constant dense<8> : tensor<8xi32>
  %r8b = arith.addi %r8, %c8b : tensor<8xi32>
  %o3 = tile.addptr %op8, %r8b : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %o3, %min0 : tensor<8x!tile.ptr<f32>>
  %ip = tile.splat %idx : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %i1 = tile.addptr %ip, %r4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %i1, %am1 : tensor<4x!tile.ptr<i32>>
  %ip8 = tile.splat %idx : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %i2 = tile.addptr %ip8, %r8b : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %i2, %an0 : tensor<8x!tile.ptr<i32>>
  return
}
)IR";

TEST(InterpreterKernel, ReductionsAlongBothAxes) {
  Compiled c = compileIR(kReduce);
  ASSERT_TRUE(c.kernel) << c.error;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Row 0: ascending. Row 1: ties for the max (first index wins). Row 2: a NaN. Row 3:
  // negative values, with a tie for the column minimum against row 1.
  std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7,         //
                          5, 9, 1, 9, -3, 9, 0, 0,        //
                          1, 2, nan, 4, 5, 6, 7, 8,       //
                          -1, -2, -3, -4, -5, -6, -7, -8};
  Memory mem;
  std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "x", x)),
                                ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {16})),
                                ArgValue::ofBuffer(addEmpty(mem, "idx", DType::I32, {16}))};
  RunOutput r = run(*c.kernel, args, mem);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  const float *out = mem[1].data<float>();
  const int32_t *idx = mem[2].data<int32_t>();
  EXPECT_EQ(out[0], 28.0f);
  EXPECT_EQ(out[1], 30.0f);
  EXPECT_TRUE(std::isnan(out[2])); // a NaN poisons the sum
  EXPECT_EQ(out[3], -36.0f);
  EXPECT_EQ(out[4], 7.0f);
  EXPECT_EQ(out[5], 9.0f);
  EXPECT_TRUE(std::isnan(out[6])); // max propagates NaN
  EXPECT_EQ(out[7], -1.0f);
  // Column minima.
  EXPECT_EQ(out[8], -1.0f);
  EXPECT_EQ(out[9], -2.0f);
  EXPECT_TRUE(std::isnan(out[10]));
  EXPECT_EQ(out[12], -5.0f);
  EXPECT_EQ(out[15], -8.0f);
  // argmax per row: first index among ties; a NaN wins.
  EXPECT_EQ(idx[0], 7);
  EXPECT_EQ(idx[1], 1);
  EXPECT_EQ(idx[2], 2);
  EXPECT_EQ(idx[3], 0);
  // argmin per column.
  EXPECT_EQ(idx[8], 3);
  EXPECT_EQ(idx[10], 2); // NaN
  EXPECT_EQ(idx[12], 3); // -5 (row 3) below -3 (row 1)
}

const char *kDot = R"IR(
func.func @dot(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel} {
  %r16 = tile.make_range 0 to 16 : tensor<16xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %c32 = arith.constant dense<32> : tensor<16xi32>
  %c16 = arith.constant dense<16> : tensor<32xi32>
  %arow = arith.muli %r16, %c32 : tensor<16xi32>
  %are = tile.expand_dims %arow, 1 : tensor<16xi32> -> tensor<16x1xi32>
  %arb = tile.broadcast %are : tensor<16x1xi32> -> tensor<16x32xi32>
  %ace = tile.expand_dims %r32, 0 : tensor<32xi32> -> tensor<1x32xi32>
  %acb = tile.broadcast %ace : tensor<1x32xi32> -> tensor<16x32xi32>
  %aoff = arith.addi %arb, %acb : tensor<16x32xi32>
  %ap = tile.splat %a : !tile.ptr<f16> -> tensor<16x32x!tile.ptr<f16>>
  %apa = tile.addptr %ap, %aoff : tensor<16x32x!tile.ptr<f16>>, tensor<16x32xi32>
  %av = tile.load %apa : tensor<16x32x!tile.ptr<f16>>
  %brow = arith.muli %r32, %c16 : tensor<32xi32>
  %bre = tile.expand_dims %brow, 1 : tensor<32xi32> -> tensor<32x1xi32>
  %brb = tile.broadcast %bre : tensor<32x1xi32> -> tensor<32x16xi32>
  %bce = tile.expand_dims %r16, 0 : tensor<16xi32> -> tensor<1x16xi32>
  %bcb = tile.broadcast %bce : tensor<1x16xi32> -> tensor<32x16xi32>
  %boff = arith.addi %brb, %bcb : tensor<32x16xi32>
  %bp = tile.splat %b : !tile.ptr<f16> -> tensor<32x16x!tile.ptr<f16>>
  %bpa = tile.addptr %bp, %boff : tensor<32x16x!tile.ptr<f16>>, tensor<32x16xi32>
  %bv = tile.load %bpa : tensor<32x16x!tile.ptr<f16>>
  %acc = arith.constant dense<1.0> : tensor<16x16xf32>
  %d = tile.dot %av, %bv, %acc : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>
  %c16b = arith.constant dense<16> : tensor<16xi32>
  %crow = arith.muli %r16, %c16b : tensor<16xi32>
  %cre = tile.expand_dims %crow, 1 : tensor<16xi32> -> tensor<16x1xi32>
  %crb = tile.broadcast %cre : tensor<16x1xi32> -> tensor<16x16xi32>
  %ccb = tile.broadcast %bce : tensor<1x16xi32> -> tensor<16x16xi32>
  %coff = arith.addi %crb, %ccb : tensor<16x16xi32>
  %cp = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  %cpa = tile.addptr %cp, %coff : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
  tile.store %cpa, %d : tensor<16x16x!tile.ptr<f32>>
  return
}
)IR";

TEST(InterpreterKernel, DotAccumulatesInF32) {
  Compiled c = compileIR(kDot);
  ASSERT_TRUE(c.kernel) << c.error;
  Memory mem;
  // Small integers and halves: every product and partial sum is exact in f32.
  Buffer a = makeBuffer("a", DType::F16, {16, 32}, true);
  Buffer b = makeBuffer("b", DType::F16, {32, 16}, true);
  for (int i = 0; i < 512; ++i) {
    a.set(i, double((i * 7) % 11 - 5) * 0.5);
    b.set(i, double((i * 3) % 13 - 6));
  }
  int64_t ia = mem.add(a), ib = mem.add(b);
  int64_t ic = addEmpty(mem, "c", DType::F32, {16, 16});
  RunOutput r = run(*c.kernel, {ArgValue::ofBuffer(ia), ArgValue::ofBuffer(ib), ArgValue::ofBuffer(ic)},
              mem);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      double want = 1;
      for (int k = 0; k < 32; ++k)
        want += mem[ia].get(m * 32 + k) * mem[ib].get(k * 16 + n);
      ASSERT_EQ(mem[ic].data<float>()[m * 16 + n], float(want)) << m << "," << n;
    }
}

// Loop-carried values that swap each iteration, a conditional and a call.
const char *kControl = R"IR(
func.func private @twice(%v: i32) -> i32 {
  %r = arith.addi %v, %v : i32
  return %r : i32
}
func.func @control(%out: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c1, %b = %c2, %s = %c0) -> (i32, i32, i32) : i32 {
    %rem = arith.remsi %i, %c2 : i32
    %even = arith.cmpi eq, %rem, %c0 : i32
    %t = scf.if %even -> (i32) {
      %d = func.call @twice(%i) : (i32) -> i32
      scf.yield %d : i32
    } else {
      scf.yield %i : i32
    }
    %s2 = arith.addi %s, %t : i32
    scf.yield %b, %a, %s2 : i32, i32, i32
  }
  %p1 = tile.addptr %out, %c1 : !tile.ptr<i32>, i32
  %p2 = tile.addptr %out, %c2 : !tile.ptr<i32>, i32
  tile.store %out, %res#0 : !tile.ptr<i32>
  tile.store %p1, %res#1 : !tile.ptr<i32>
  tile.store %p2, %res#2 : !tile.ptr<i32>
  return
}
)IR";

TEST(InterpreterKernel, LoopsIfsAndCalls) {
  Compiled c = compileIR(kControl, "control");
  ASSERT_TRUE(c.kernel) << c.error;
  for (int n : {0, 1, 5}) {
    Memory mem;
    int64_t out = addEmpty(mem, "out", DType::I32, {3});
    RunOutput r = run(*c.kernel, {ArgValue::ofBuffer(out), ArgValue::ofInt(n)}, mem);
    ASSERT_TRUE(r.result.ok) << r.result.error;
    const int32_t *o = mem[out].data<int32_t>();
    EXPECT_EQ(o[0], n % 2 ? 2 : 1) << n; // swapped n times
    EXPECT_EQ(o[1], n % 2 ? 1 : 2) << n;
    int want = 0;
    for (int i = 0; i < n; ++i)
      want += i % 2 == 0 ? 2 * i : i;
    EXPECT_EQ(o[2], want) << n;
  }
}

// Integer semantics of docs/ir.md: wrap-around, C division, and the NVPTX results where
// LLVM leaves things undefined (division by zero, over-wide shifts).
const char *kIntegers = R"IR(
func.func @ints(%a: !tile.ptr<i32>, %b: !tile.ptr<i32>, %out: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.make_range 0 to 8 : tensor<8xi32>
  %ap = tile.splat %a : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %aa = tile.addptr %ap, %r : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  %bp = tile.splat %b : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %ba = tile.addptr %bp, %r : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  %x = tile.load %aa : tensor<8x!tile.ptr<i32>>
  %y = tile.load %ba : tensor<8x!tile.ptr<i32>>
  %add = arith.addi %x, %y : tensor<8xi32>
  %div = arith.divsi %x, %y : tensor<8xi32>
  %rem = arith.remsi %x, %y : tensor<8xi32>
  %shl = arith.shli %x, %y : tensor<8xi32>
  %shr = arith.shrsi %x, %y : tensor<8xi32>
  %c8 = arith.constant dense<8> : tensor<8xi32>
  %op = tile.splat %out : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %o0 = tile.addptr %op, %r : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o0, %add : tensor<8x!tile.ptr<i32>>
  %r1 = arith.addi %r, %c8 : tensor<8xi32>
  %o1 = tile.addptr %op, %r1 : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o1, %div : tensor<8x!tile.ptr<i32>>
  %r2 = arith.addi %r1, %c8 : tensor<8xi32>
  %o2 = tile.addptr %op, %r2 : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o2, %rem : tensor<8x!tile.ptr<i32>>
  %r3 = arith.addi %r2, %c8 : tensor<8xi32>
  %o3 = tile.addptr %op, %r3 : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o3, %shl : tensor<8x!tile.ptr<i32>>
  %r4 = arith.addi %r3, %c8 : tensor<8xi32>
  %o4 = tile.addptr %op, %r4 : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o4, %shr : tensor<8x!tile.ptr<i32>>
  return
}
)IR";

TEST(InterpreterKernel, IntegerSemantics) {
  Compiled c = compileIR(kIntegers);
  ASSERT_TRUE(c.kernel) << c.error;
  const int32_t imax = std::numeric_limits<int32_t>::max(), imin = std::numeric_limits<int32_t>::min();
  std::vector<int32_t> a = {7, -7, 7, -7, imax, imin, 5, -5};
  std::vector<int32_t> b = {2, 2, -2, -2, 1, -1, 0, 40};
  Memory mem;
  Buffer ba = makeBuffer("a", DType::I32, {8}, true), bb = makeBuffer("b", DType::I32, {8}, true);
  std::memcpy(ba.bytes.data(), a.data(), 32);
  std::memcpy(bb.bytes.data(), b.data(), 32);
  int64_t ia = mem.add(ba), ib = mem.add(bb), io = addEmpty(mem, "out", DType::I32, {40});
  RunOutput r = run(*c.kernel, {ArgValue::ofBuffer(ia), ArgValue::ofBuffer(ib), ArgValue::ofBuffer(io)},
              mem);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  const int32_t *o = mem[io].data<int32_t>();
  EXPECT_EQ(o[4], imin); // imax + 1 wraps
  // Division truncates toward zero; the remainder takes the dividend's sign.
  EXPECT_EQ(o[8 + 0], 3);
  EXPECT_EQ(o[8 + 1], -3);
  EXPECT_EQ(o[8 + 2], -3);
  EXPECT_EQ(o[8 + 3], 3);
  EXPECT_EQ(o[8 + 5], imin); // INT_MIN / -1 wraps
  EXPECT_EQ(o[8 + 6], -1);   // x / 0: all ones
  EXPECT_EQ(o[16 + 0], 1);
  EXPECT_EQ(o[16 + 1], -1);
  EXPECT_EQ(o[16 + 2], 1);
  EXPECT_EQ(o[16 + 3], -1);
  EXPECT_EQ(o[16 + 5], 0);
  EXPECT_EQ(o[16 + 6], 5); // x % 0: x
  EXPECT_EQ(o[24 + 0], 28);
  EXPECT_EQ(o[24 + 7], 0);  // shift by >= 32 clamps: 0
  EXPECT_EQ(o[32 + 7], -1); // arithmetic shift of a negative by >= 32: -1
}

const char *kCasts = R"IR(
func.func @casts(%x: !tile.ptr<f32>, %h: !tile.ptr<f16>, %bf: !tile.ptr<bf16>, %i: !tile.ptr<i8>, %u: !tile.ptr<i8>)
    attributes {tile.kernel} {
  %r = tile.make_range 0 to 8 : tensor<8xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %v = tile.load %xa : tensor<8x!tile.ptr<f32>>
  %vh = arith.truncf %v : tensor<8xf32> to tensor<8xf16>
  %vb = arith.truncf %v : tensor<8xf32> to tensor<8xbf16>
  %vi = arith.fptosi %v : tensor<8xf32> to tensor<8xi8>
  %vu = arith.fptoui %v : tensor<8xf32> to tensor<8xi8>
  %hp = tile.splat %h : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
  %ha = tile.addptr %hp, %r : tensor<8x!tile.ptr<f16>>, tensor<8xi32>
  tile.store %ha, %vh : tensor<8x!tile.ptr<f16>>
  %bp = tile.splat %bf : !tile.ptr<bf16> -> tensor<8x!tile.ptr<bf16>>
  %ba = tile.addptr %bp, %r : tensor<8x!tile.ptr<bf16>>, tensor<8xi32>
  tile.store %ba, %vb : tensor<8x!tile.ptr<bf16>>
  %ip = tile.splat %i : !tile.ptr<i8> -> tensor<8x!tile.ptr<i8>>
  %ia = tile.addptr %ip, %r : tensor<8x!tile.ptr<i8>>, tensor<8xi32>
  tile.store %ia, %vi : tensor<8x!tile.ptr<i8>>
  %up = tile.splat %u : !tile.ptr<i8> -> tensor<8x!tile.ptr<i8>>
  %ua = tile.addptr %up, %r : tensor<8x!tile.ptr<i8>>, tensor<8xi32>
  tile.store %ua, %vu : tensor<8x!tile.ptr<i8>>
  return
}
)IR";

TEST(InterpreterKernel, CastsRoundLikeTheGpu) {
  Compiled c = compileIR(kCasts);
  ASSERT_TRUE(c.kernel) << c.error;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // 1 + 2^-11 is halfway between two f16 values: ties to even gives 1.
  // 1 + 3 * 2^-11 is halfway too: ties to even gives 1 + 2^-9.
  std::vector<float> x = {1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 70000.0f, -2.7f, 300.0f,
                          -300.0f, nan, 1.0f + 0x1p-8f};
  Memory mem;
  int64_t ix = addF32(mem, "x", x);
  int64_t ih = addEmpty(mem, "h", DType::F16, {8}), ib = addEmpty(mem, "bf", DType::BF16, {8});
  int64_t ii = addEmpty(mem, "i", DType::I8, {8}), iu = addEmpty(mem, "u", DType::I8, {8});
  RunOutput r = run(*c.kernel,
              {ArgValue::ofBuffer(ix), ArgValue::ofBuffer(ih), ArgValue::ofBuffer(ib),
               ArgValue::ofBuffer(ii), ArgValue::ofBuffer(iu)},
              mem);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  EXPECT_EQ(mem[ih].get(0), 1.0);
  EXPECT_EQ(mem[ih].get(1), 1.0 + 0x1p-9);
  EXPECT_TRUE(std::isinf(mem[ih].get(2))); // above the f16 range
  EXPECT_TRUE(std::isnan(mem[ih].get(6)));
  EXPECT_EQ(mem[ib].get(7), 1.0); // 1 + 2^-8 is a bf16 tie: to even
  EXPECT_EQ(mem[ib].get(2), 70144.0);
  const int8_t *i = mem[ii].data<int8_t>();
  EXPECT_EQ(i[3], -2);  // truncation toward zero
  EXPECT_EQ(i[4], 127); // saturation
  EXPECT_EQ(i[5], -128);
  EXPECT_EQ(i[6], 0); // NaN
  const uint8_t *u = reinterpret_cast<const uint8_t *>(mem[iu].data<int8_t>());
  EXPECT_EQ(u[3], 0);
  EXPECT_EQ(u[4], 255);
}

const char *kPrint = R"IR(
func.func @show(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %n = tile.num_programs 0
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %v = tile.load %xa : tensor<4x!tile.ptr<f32>>
  %e = tile.expand_dims %v, 0 : tensor<4xf32> -> tensor<1x4xf32>
  %m = arith.cmpf ogt, %v, %v : tensor<4xf32>
  tile.print "x = " %v, %e, %pid, %n, %m : tensor<4xf32>, tensor<1x4xf32>, i32, i32, tensor<4xi1>
  tile.print "ptr" %xa : tensor<4x!tile.ptr<f32>>
  return
}
)IR";

TEST(InterpreterKernel, PrintShowsProgramAndValues) {
  Compiled c = compileIR(kPrint);
  ASSERT_TRUE(c.kernel) << c.error;
  Memory mem;
  int64_t ix = addF32(mem, "x", {0.5f, -1, 0.1f, 1e20f});
  RunOutput r = run(*c.kernel, {ArgValue::ofBuffer(ix)}, mem, {2, 1, 1});
  ASSERT_TRUE(r.result.ok) << r.result.error;
  ASSERT_EQ(r.printed.size(), 4u);
  EXPECT_EQ(r.printed[0], "pid (0, 0, 0) x = [0.5, -1.0, 0.1, 1e+20], [[0.5, -1.0, 0.1, 1e+20]], "
                          "0, 2, [false, false, false, false]");
  EXPECT_EQ(r.printed[1], "pid (0, 0, 0) ptr [&x[0], &x[1], &x[2], &x[3]]");
  EXPECT_EQ(r.printed[2].substr(0, 14), "pid (1, 0, 0) ");
}

const char *kGrid3 = R"IR(
func.func @grid(%out: !tile.ptr<i32>) attributes {tile.kernel} {
  %x = tile.program_id 0
  %y = tile.program_id 1
  %z = tile.program_id 2
  %nx = tile.num_programs 0
  %ny = tile.num_programs 1
  %t = arith.muli %z, %ny : i32
  %t2 = arith.addi %t, %y : i32
  %t3 = arith.muli %t2, %nx : i32
  %lin = arith.addi %t3, %x : i32
  %p = tile.addptr %out, %lin : !tile.ptr<i32>, i32
  %c100 = arith.constant 100 : i32
  %code0 = arith.muli %z, %c100 : i32
  %c10 = arith.constant 10 : i32
  %code1 = arith.muli %y, %c10 : i32
  %code2 = arith.addi %code0, %code1 : i32
  %code = arith.addi %code2, %x : i32
  tile.store %p, %code : !tile.ptr<i32>
  return
}
)IR";

TEST(InterpreterKernel, ThreeDimensionalGrid) {
  Compiled c = compileIR(kGrid3);
  ASSERT_TRUE(c.kernel) << c.error;
  Memory mem;
  int64_t out = addEmpty(mem, "out", DType::I32, {24});
  RunOutput r = run(*c.kernel, {ArgValue::ofBuffer(out)}, mem, {4, 3, 2});
  ASSERT_TRUE(r.result.ok) << r.result.error;
  EXPECT_EQ(r.result.programsRun, 24);
  const int32_t *o = mem[out].data<int32_t>();
  EXPECT_EQ(o[0], 0);
  EXPECT_EQ(o[5], 11);
  EXPECT_EQ(o[23], 123);
}

TEST(InterpreterKernel, ArgumentsAreChecked) {
  Compiled c = compileIR(kVectorAdd);
  ASSERT_TRUE(c.kernel) << c.error;
  Memory mem;
  Buffer h = makeBuffer("x", DType::F16, {4}, true);
  int64_t ix = mem.add(h);
  RunOutput r = run(*c.kernel,
              {ArgValue::ofBuffer(ix), ArgValue::ofBuffer(ix), ArgValue::ofBuffer(ix),
               ArgValue::ofInt(4)},
              mem);
  ASSERT_FALSE(r.result.ok);
  EXPECT_NE(r.result.error.find("argument 'x': buffer 'x' holds f16, the kernel expects *f32"),
            std::string::npos)
      << r.result.error;
  RunOutput r2 = run(*c.kernel, {ArgValue::ofInt(1)}, mem);
  EXPECT_NE(r2.result.error.find("takes 4 arguments, got 1"), std::string::npos);
}

TEST(InterpreterKernel, UnsupportedOpsAreNamed) {
  Compiled c = compileIR(R"IR(
func.func @k(%x: i32) attributes {tile.kernel} {
  %y = math.ctpop %x : i32
  return
}
)IR");
  ASSERT_FALSE(c.kernel);
  EXPECT_NE(c.error.find("kernel.mlir:3:"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("does not support 'math.ctpop'"), std::string::npos) << c.error;
}

} // namespace

namespace {

// MLIRGen locates the ops of an inlined helper with call-site locations.
TEST(InterpreterKernel, ErrorsInInlinedHelpersNameTheCallSites) {
  Compiled c = compileIR(R"IR(
func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel, tile.arg_names = ["x"]} {
  %c9 = arith.constant 9 : i32
  %p = tile.addptr %x, %c9 : !tile.ptr<f32>, i32
  %v = tile.load %p : !tile.ptr<f32> loc(callsite("lib.tile":3:12 at callsite("k.tile":8:5 at "k.tile":20:3)))
  return
}
)IR");
  ASSERT_TRUE(c.kernel) << c.error;
  Memory mem;
  RunOutput r = run(*c.kernel, {ArgValue::ofBuffer(addF32(mem, "x", {1, 2}))}, mem);
  ASSERT_FALSE(r.result.ok);
  const std::string &e = r.result.error;
  EXPECT_EQ(e.find("lib.tile:3:12: error: out-of-bounds load from 'x': element 9"), 0u) << e;
  EXPECT_NE(e.find("the scalar access"), std::string::npos) << e;
  size_t inner = e.find("k.tile:8:5: note: called from here");
  size_t outer = e.find("k.tile:20:3: note: called from here");
  EXPECT_NE(inner, std::string::npos) << e;
  EXPECT_NE(outer, std::string::npos) << e;
  EXPECT_LT(inner, outer) << e;
}

} // namespace

namespace {

// scf.while, a select with a scalar condition over tiles, f16 arithmetic (rounded once per
// op), integer sums that wrap, and a bf16 dot.
const char *kMisc = R"IR(
func.func @misc(%h: !tile.ptr<f16>, %out: !tile.ptr<i32>, %hout: !tile.ptr<f16>, %flag: i1)
    attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  // while (i < 100) i = i * 2 + 1
  %w = scf.while (%i = %c1) : (i32) -> i32 {
    %lt = arith.cmpi slt, %i, %c100 : i32
    scf.condition(%lt) %i : i32
  } do {
  ^bb0(%j: i32):
    %d = arith.addi %j, %j : i32
    %e = arith.addi %d, %c1 : i32
    scf.yield %e : i32
  }
  tile.store %out, %w : !tile.ptr<i32>
  %big = arith.constant dense<[2147483647, 1, 0, 0]> : tensor<4xi32>
  %s = tile.reduce sum %big, axis 0 : tensor<4xi32> -> i32
  %p1 = tile.addptr %out, %c1 : !tile.ptr<i32>, i32
  tile.store %p1, %s : !tile.ptr<i32>
  %a = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = arith.constant dense<[5, 6, 7, 8]> : tensor<4xi32>
  %sel = arith.select %flag, %a, %b : tensor<4xi32>
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %c2 = arith.constant dense<2> : tensor<4xi32>
  %r2 = arith.addi %r, %c2 : tensor<4xi32>
  %op = tile.splat %out : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %oa = tile.addptr %op, %r2 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %oa, %sel : tensor<4x!tile.ptr<i32>>
  %hp = tile.splat %h : !tile.ptr<f16> -> tensor<4x!tile.ptr<f16>>
  %ha = tile.addptr %hp, %r : tensor<4x!tile.ptr<f16>>, tensor<4xi32>
  %hv = tile.load %ha : tensor<4x!tile.ptr<f16>>
  %hs = arith.addf %hv, %hv : tensor<4xf16>
  %hm = arith.mulf %hs, %hv : tensor<4xf16>
  %hop = tile.splat %hout : !tile.ptr<f16> -> tensor<4x!tile.ptr<f16>>
  %hoa = tile.addptr %hop, %r : tensor<4x!tile.ptr<f16>>, tensor<4xi32>
  tile.store %hoa, %hm : tensor<4x!tile.ptr<f16>>
  return
}
)IR";

TEST(InterpreterKernel, WhileSelectF16AndWrappingSums) {
  Compiled c = compileIR(kMisc);
  ASSERT_TRUE(c.kernel) << c.error;
  for (int flag : {0, 1}) {
    Memory mem;
    Buffer h = makeBuffer("h", DType::F16, {4}, true);
    double hv[4] = {1.0 + 0x1p-10, 3.0, 0.1, 60000};
    for (int i = 0; i < 4; ++i)
      h.set(i, hv[i]);
    int64_t ih = mem.add(h);
    int64_t io = addEmpty(mem, "out", DType::I32, {6});
    int64_t iho = addEmpty(mem, "hout", DType::F16, {4});
    RunOutput r = run(*c.kernel,
                      {ArgValue::ofBuffer(ih), ArgValue::ofBuffer(io), ArgValue::ofBuffer(iho),
                       ArgValue::ofInt(flag)},
                      mem);
    ASSERT_TRUE(r.result.ok) << r.result.error;
    const int32_t *o = mem[io].data<int32_t>();
    EXPECT_EQ(o[0], 127);
    EXPECT_EQ(o[1], std::numeric_limits<int32_t>::min()); // INT_MAX + 1 wraps
    EXPECT_EQ(o[2], flag ? 1 : 5);
    EXPECT_EQ(o[5], flag ? 4 : 8);
    // (x + x) * x in f16, rounded after each op: 2(1 + 2^-10)^2 = 2 + 2^-8 + 2^-19 rounds
    // to 2 + 2^-8; 60000 * 2 overflows f16 to inf.
    EXPECT_EQ(mem[iho].get(0), 2.0 + 0x1p-8);
    EXPECT_EQ(mem[iho].get(1), 18.0);
    EXPECT_TRUE(std::isinf(mem[iho].get(3)));
  }
}

} // namespace
