// tile.scan in the interpreter (issue 13 item 9), on hand-written tile IR
// (inputs/interpreter/scan.mlir), against references computed here: sums along each axis
// (one reversed) and a non-commutative scan of pairs, forward and reversed.
#include "interpreter_test_util.h"

#include <gtest/gtest.h>

#include <random>

using namespace tcc::interp;
using namespace tcc::interp::testing;

namespace {

TEST(InterpreterScan, SumsAlongBothAxesAndPairsInOrder) {
  Compiled c = compileIRFile("scan.mlir");
  ASSERT_TRUE(c.kernel) << c.error;
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> small(-50, 50);
  std::vector<float> x(32);
  for (float &v : x)
    v = float(small(gen)) * 0.25f; // exact sums in f32
  std::vector<int32_t> pairs(32);
  for (int32_t &v : pairs)
    v = small(gen);
  Memory mem;
  Buffer p = makeBuffer("pairs", DType::I32, {32}, true);
  for (size_t i = 0; i < 32; ++i)
    p.data<int32_t>()[i] = pairs[i];
  std::vector<ArgValue> args = {ArgValue::ofBuffer(addF32(mem, "x", x)),
                                ArgValue::ofBuffer(addEmpty(mem, "out", DType::F32, {64})),
                                ArgValue::ofBuffer(mem.add(std::move(p))),
                                ArgValue::ofBuffer(addEmpty(mem, "res", DType::I32, {64}))};
  RunOutput r = run(*c.kernel, args, mem);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  const float *out = mem[1].data<float>();
  const int32_t *res = mem[3].data<int32_t>();
  for (int i = 0; i < 4; ++i) {
    float sum = 0;
    for (int j = 0; j < 8; ++j) {
      sum += x[size_t(i * 8 + j)];
      EXPECT_EQ(out[i * 8 + j], sum) << "row " << i << " col " << j;
    }
  }
  for (int j = 0; j < 8; ++j) {
    float sum = 0;
    for (int i = 3; i >= 0; --i) {
      sum += x[size_t(i * 8 + j)];
      EXPECT_EQ(out[32 + i * 8 + j], sum) << "reversed column " << j << " row " << i;
    }
  }
  // (m1, c1) then (m2, c2) is (m1 m2, c1 m2 + c2), wrapping.
  uint32_t m = 1, cc = 0;
  for (int i = 0; i < 16; ++i) {
    cc = cc * uint32_t(pairs[size_t(i)]) + uint32_t(pairs[size_t(16 + i)]);
    m *= uint32_t(pairs[size_t(i)]);
    EXPECT_EQ(uint32_t(res[i]), m) << i;
    EXPECT_EQ(uint32_t(res[16 + i]), cc) << i;
  }
  m = 1, cc = 0;
  for (int i = 15; i >= 0; --i) {
    cc = cc * uint32_t(pairs[size_t(i)]) + uint32_t(pairs[size_t(16 + i)]);
    m *= uint32_t(pairs[size_t(i)]);
    EXPECT_EQ(uint32_t(res[32 + i]), m) << i;
    EXPECT_EQ(uint32_t(res[48 + i]), cc) << i;
  }
}

} // namespace
