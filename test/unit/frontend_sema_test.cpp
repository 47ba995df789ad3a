// Sema through its API (no MLIR): the grid strings it writes parse and evaluate with the
// runtime's own grid-expression code, and elaboration decisions visible in the typed AST.

#include "frontend_test_util.h"

#include "runtime/include/tcc/grid_expr.h"

#include "llvm/Support/Casting.h"

#include <gtest/gtest.h>

using namespace tcc;
using namespace tcc::test;

namespace {

int64_t cdivRef(int64_t a, int64_t b) { return (a + b - 1) / b; }

TEST(Sema, GridStringsAreValidGridExpressions) {
  Source s("@kernel(grid=(cdiv(M, BM) * cdiv(N, BN), max(M - 1, 2) // 2 % 7 + -(-K), "
           "min(BM * 2, 3) + N - (M - K)))\n"
           "def k(x: *f32, M: i32, N: i32, K: i64, BM: constexpr = 64, BN: constexpr = 32):\n"
           "    pass\n");
  std::unique_ptr<typed::Program> p = s.analyze();
  ASSERT_NE(p, nullptr) << s.errors();
  const typed::Kernel &k = *p->kernels[0];
  EXPECT_EQ(k.grid[0], "cdiv(M, 64) * cdiv(N, 32)");
  EXPECT_EQ(k.grid[1], "max(M - 1, 2) // 2 % 7 + -(-K)");
  EXPECT_EQ(k.grid[2], "3 + N - (M - K)");

  std::vector<std::string> names = {"x", "M", "N", "K"};
  for (int64_t M : {1, 100, 1000})
    for (int64_t N : {1, 33, 4096})
      for (int64_t Kv : {0, 5}) {
        int64_t slots[] = {0, M, N, Kv};
        int64_t expected[3] = {cdivRef(M, 64) * cdivRef(N, 32),
                               std::max<int64_t>(M - 1, 2) / 2 % 7 + Kv, 3 + N - (M - Kv)};
        for (int d = 0; d < 3; ++d) {
          grid::Expr e;
          std::string error;
          ASSERT_TRUE(grid::parse(k.grid[d], &e, &error)) << k.grid[d] << ": " << error;
          ASSERT_TRUE(grid::bind(&e,
                                 [&](const std::string &n) {
                                   auto it = std::find(names.begin(), names.end(), n);
                                   return it == names.end() ? -1 : int(it - names.begin());
                                 },
                                 &error))
              << error;
          int64_t v = 0;
          ASSERT_TRUE(grid::evaluate(e, slots, &v, &error)) << error;
          EXPECT_EQ(v, expected[d]) << k.grid[d] << " M=" << M << " N=" << N << " K=" << Kv;
        }
      }
}

TEST(Sema, ConstexprsAreRecordedAndNotArguments) {
  Source s("@kernel(grid=(1,))\n"
           "def k(x: *f32, n: i32, B: constexpr = 16, D: constexpr = f16, S: constexpr = 0.5,"
           " F: constexpr = True):\n"
           "    pass\n");
  std::unique_ptr<typed::Program> p = s.analyze();
  ASSERT_NE(p, nullptr) << s.errors();
  const typed::Kernel &k = *p->kernels[0];
  ASSERT_EQ(k.arguments.size(), 2u);
  EXPECT_EQ(k.arguments[0]->type.str(), "*f32");
  EXPECT_EQ(k.arguments[1]->type.str(), "i32");
  ASSERT_EQ(k.constexprs.size(), 4u);
  EXPECT_EQ(k.constexprs[0].str(), "16");
  EXPECT_EQ(k.constexprs[1].str(), "f16");
  EXPECT_EQ(k.constexprs[2].str(), "0.5");
  EXPECT_EQ(k.constexprs[3].str(), "True");
}

TEST(Sema, DefinesOverrideDefaults) {
  Source s("@kernel(grid=(1,))\n"
           "def k(x: *f32, B: constexpr = 16):\n"
           "    r = arange(0, B)\n");
  Source value("64");
  ast::Module holder;
  Parser parser(value.diags, value.lex());
  const ast::Expr *e = parser.parseStandaloneExpression(holder);
  ASSERT_NE(e, nullptr);
  SemaOptions options;
  options.defines.push_back({"B", e});
  std::unique_ptr<typed::Program> p = s.analyze(options);
  ASSERT_NE(p, nullptr) << s.errors();
  EXPECT_EQ(p->kernels[0]->constexprs[0].intValue, 64);
  auto *let = llvm::dyn_cast<typed::LetStmt>(p->kernels[0]->body[0]);
  ASSERT_NE(let, nullptr);
  EXPECT_EQ(let->var->type.str(), "tile<64xi32>");
}

TEST(Sema, KernelSelection) {
  Source s("@kernel(grid=(1,))\ndef a(x: *f32):\n    pass\n"
           "@kernel(grid=(1,))\ndef b(x: *f32):\n    y = undefined\n");
  SemaOptions options;
  options.kernelName = "a";
  std::unique_ptr<typed::Program> p = s.analyze(options);
  ASSERT_NE(p, nullptr) << s.errors(); // b's error is never looked at
  ASSERT_EQ(p->kernels.size(), 1u);
  EXPECT_EQ(p->kernels[0]->name, "a");
}

TEST(Sema, LoopCarriesOnlyWhatIsUsedLater) {
  Source s("@kernel(grid=(1,))\n"
           "def k(x: *f32, n: i32):\n"
           "    acc = 0.0\n"
           "    tmp = 0.0\n"
           "    for i in range(0, n):\n"
           "        tmp = load(x + i)\n"
           "        acc = acc + tmp\n"
           "    store(x, acc)\n");
  std::unique_ptr<typed::Program> p = s.analyze();
  ASSERT_NE(p, nullptr) << s.errors();
  const typed::Block &body = p->kernels[0]->body;
  const typed::ForStmt *loop = nullptr;
  for (const typed::Stmt *st : body)
    if (auto *f = llvm::dyn_cast<typed::ForStmt>(st))
      loop = f;
  ASSERT_NE(loop, nullptr);
  ASSERT_EQ(loop->carried.size(), 1u); // tmp is not read after being reassigned
  EXPECT_EQ(loop->carried[0].arg->type.str(), "f32");
}

TEST(Sema, ManyErrorsInOneRun) {
  Source s("@kernel(grid=(1,))\n"
           "def k(x: *f32, n: i32):\n"
           "    a = nope1\n"
           "    b = nope2 + a\n"        // no second error for 'a'
           "    c = arange(0, 3)\n"
           "    d = x * 2\n");
  EXPECT_EQ(s.analyze(), nullptr);
  EXPECT_EQ(s.diags.errorCount(), 4u) << s.errors();
}

// advance() on a block pointer and desc.load/store on a descriptor take one offset per
// dimension: the error names both counts, and a note points at where the pointer is made.
TEST(Sema, OffsetsCountIsTheRank) {
  Source bp("@kernel(grid=(1,))\n"
            "def k(x: *f32, n: i32):\n"
            "    p = make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n"
            "    p = advance(p, (16, 0, 0))\n");
  EXPECT_EQ(bp.analyze(), nullptr);
  std::string e = bp.errors();
  EXPECT_NE(e.find("test.tile:4:20: error: advance() got 3 offsets for a block pointer of rank 2; "
                   "give one per dimension"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("test.tile:3:9: note: the block pointer is made here"), std::string::npos) << e;

  Source desc("@kernel(grid=(1,))\n"
              "def k(x: *f32, n: i32):\n"
              "    d = make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])\n"
              "    d.store([0], zeros((16, 16), dtype=f32))\n");
  EXPECT_EQ(desc.analyze(), nullptr);
  e = desc.errors();
  EXPECT_NE(e.find("test.tile:4:13: error: desc.store() got 1 offset for a descriptor of rank 2; "
                   "give one per dimension"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("note: the descriptor is made here"), std::string::npos) << e;
}

} // namespace
