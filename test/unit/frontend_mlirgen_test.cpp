// MLIRGen through its API: a checked program becomes verified tile IR, and IR that fails
// verification (a bug in tcc, simulated here with a hand-made, ill-typed typed AST) is
// reported as one clean internal error, without an IR dump.

#include "frontend_test_util.h"

#include "compiler/Frontend/MLIRGen.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace tcc;
using namespace tcc::test;

namespace {

TEST(MLIRGen, KernelAttributesAndArguments) {
  Source s("@kernel(grid=(cdiv(n, B),), num_warps=2)\n"
           "def k(x: *f16, n: i32, B: constexpr = 32):\n"
           "    r = arange(0, B)\n"
           "    store(x + r, 1.0, mask=r < n)\n");
  std::unique_ptr<typed::Program> p = s.analyze();
  ASSERT_NE(p, nullptr) << s.errors();
  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> m = generateTileModule(ctx, *p, s.diags);
  ASSERT_TRUE(m) << s.errors();
  auto fn = *m->getOps<mlir::func::FuncOp>().begin();
  EXPECT_EQ(fn.getName(), "k");
  EXPECT_TRUE(fn->hasAttr("tile.kernel"));
  EXPECT_EQ(fn.getNumArguments(), 2u);
  std::string text;
  llvm::raw_string_ostream os(text);
  m->print(os);
  os.flush();
  EXPECT_NE(text.find("tile.grid = [\"cdiv(n, 32)\", \"1\", \"1\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("tile.constexprs = {B = 32 : i64}"), std::string::npos) << text;
  EXPECT_NE(text.find("tile.num_warps = 2 : i32"), std::string::npos) << text;
  EXPECT_NE(text.find("tile.arg_names = [\"x\", \"n\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("arith.constant dense<1.000000e+00> : tensor<32xf16>"), std::string::npos)
      << text;
}

TEST(MLIRGen, VerificationFailureIsACleanInternalError) {
  Source s("@kernel(grid=(1,))\ndef k(x: *f32):\n    pass\n");
  std::unique_ptr<typed::Program> p = s.analyze();
  ASSERT_NE(p, nullptr) << s.errors();
  // An i32 + i64 addition that Sema would never build.
  typed::Kernel &k = *p->kernels[0];
  auto *lhs = p->make<typed::ConstantExpr>(Type::scalar(ScalarKind::I32), llvm::SMRange(), 1, 0.0);
  auto *rhs = p->make<typed::ConstantExpr>(Type::scalar(ScalarKind::I64), llvm::SMRange(), 2, 0.0);
  auto *add = p->make<typed::BinaryExpr>(Type::scalar(ScalarKind::I32), llvm::SMRange(),
                                         typed::BinaryOp::Add, lhs, rhs);
  auto *var = p->make<typed::Variable>();
  var->name = "bad";
  var->type = add->type;
  k.body.push_back(p->make<typed::LetStmt>(llvm::SMRange(), var, add));

  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> m = generateTileModule(ctx, *p, s.diags);
  EXPECT_FALSE(m);
  std::string e = s.errors();
  EXPECT_NE(e.find("tcc: error: internal compiler error: the generated tile IR does not verify"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.find("func.func"), std::string::npos) << "no IR dump expected:\n" << e;
  EXPECT_EQ(s.diags.errorCount(), 1u);
}

} // namespace
