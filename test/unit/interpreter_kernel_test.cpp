// The interpreter on hand-written tile IR (docs/ir.md): grid semantics, masks, the memory
// checker, reductions, dot, control flow, integer and float semantics, print.
#include "interpreter_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tcc::interp;
using namespace tcc::interp::testing;

namespace {

std::vector<float> iota(int n, float scale = 1) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[size_t(i)] = float(i) * scale;
  return v;
}

TEST(InterpreterKernel, VectorAddWithGridFromExpressions) {
  Compiled c = compileIRFile("vector_add.mlir");
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

// A grid of 1024 programs (speed belongs in benchmarks, not in a unit test).
TEST(InterpreterKernel, OneMillionElementVectorAdd) {
  Compiled c = compileIRFile("vector_add.mlir");
  ASSERT_TRUE(c.kernel) << c.error;
  const int n = 1 << 20;
  Memory mem;
  std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "x", iota(n))),
                                ArgValue::ofBuffer(addF32(mem, "y", iota(n))),
                                ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {n})),
                                ArgValue::ofInt(n)};
  RunOutput r = run(*c.kernel, args, mem, {n / 1024, 1, 1});
  ASSERT_TRUE(r.result.ok) << r.result.error;
  EXPECT_EQ(r.result.programsRun, n / 1024);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(mem[2].data<float>()[i], 2.0f * float(i)) << i;
}

// The planted bug: the store forgets its mask, so the last program writes past `out`.

TEST(InterpreterKernel, UnmaskedStorePastTheEndIsLocated) {
  Compiled c = compileIRFile("unmasked_store.mlir");
  ASSERT_TRUE(c.kernel) << c.error;
  Memory mem;
  int n = 300;
  std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "x", iota(n))),
                                ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {n})),
                                ArgValue::ofInt(n)};
  RunOutput r = run(*c.kernel, args, mem, {3, 1, 1});
  ASSERT_FALSE(r.result.ok);
  const std::string &e = r.result.error;
  EXPECT_NE(e.find("unmasked_store.mlir:17:3: error: out-of-bounds store to 'out'"), std::string::npos)
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

TEST(InterpreterKernel, WronglyMaskedLoadIsReported) {
  Compiled c = compileIRFile("off_by_one.mlir");
  ASSERT_TRUE(c.kernel) << c.error;
  Memory mem;
  std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "x", iota(10))),
                                ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {10})),
                                ArgValue::ofInt(10)};
  RunOutput r = run(*c.kernel, args, mem);
  ASSERT_FALSE(r.result.ok);
  EXPECT_NE(r.result.error.find("off_by_one.mlir:9:8: error: out-of-bounds load from 'x': element 10"),
            std::string::npos)
      << r.result.error;
  EXPECT_NE(r.result.error.find("mask is true on these lanes"), std::string::npos);
}

TEST(InterpreterKernel, ReadsOfNeverWrittenMemoryAreFlagged) {
  Compiled c = compileIRFile("read_out.mlir");
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

TEST(InterpreterKernel, ReductionsAlongBothAxes) {
  Compiled c = compileIRFile("reduce.mlir");
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

TEST(InterpreterKernel, DotAccumulatesInF32) {
  Compiled c = compileIRFile("dot.mlir");
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

TEST(InterpreterKernel, LoopsIfsAndCalls) {
  Compiled c = compileIRFile("control.mlir", "control");
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

TEST(InterpreterKernel, IntegerSemantics) {
  Compiled c = compileIRFile("integers.mlir");
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

TEST(InterpreterKernel, CastsRoundLikeTheGpu) {
  Compiled c = compileIRFile("casts.mlir");
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

TEST(InterpreterKernel, PrintShowsProgramAndValues) {
  Compiled c = compileIRFile("print.mlir");
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

TEST(InterpreterKernel, ThreeDimensionalGrid) {
  Compiled c = compileIRFile("grid_3d.mlir");
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
  Compiled c = compileIRFile("vector_add.mlir");
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
  Compiled c = compileIRFile("unsupported_op.mlir");
  ASSERT_FALSE(c.kernel);
  EXPECT_NE(c.error.find("unsupported_op.mlir:3:"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("does not support 'math.ctpop'"), std::string::npos) << c.error;
}

} // namespace

namespace {

// MLIRGen locates the ops of an inlined helper with call-site locations.
TEST(InterpreterKernel, ErrorsInInlinedHelpersNameTheCallSites) {
  Compiled c = compileIRFile("inlined_helper_error.mlir");
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

TEST(InterpreterKernel, WhileSelectF16AndWrappingSums) {
  Compiled c = compileIRFile("misc.mlir");
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
