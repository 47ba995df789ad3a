// MLIRGen through its API: a checked program becomes verified tile IR, and IR that fails
// verification (a bug in tcc, simulated here with a hand-made, ill-typed typed AST) is
// reported as one clean internal error, without an IR dump.

#include "frontend_test_util.h"

#include "compiler/Frontend/MLIRGen.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace tcc;
using namespace tcc::test;

namespace {

// The strings of an array attribute ("<not a string>" for any other element).
std::vector<std::string> strings(mlir::ArrayAttr array) {
  std::vector<std::string> r;
  for (mlir::Attribute a : array) {
    auto s = llvm::dyn_cast<mlir::StringAttr>(a);
    r.push_back(s ? s.str() : "<not a string>");
  }
  return r;
}

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
  EXPECT_TRUE(fn->hasAttr(mlir::tile::kKernelAttrName));
  EXPECT_TRUE(mlir::tile::isKernel(fn));
  EXPECT_EQ(fn.getNumArguments(), 2u);

  auto grid = fn->getAttrOfType<mlir::ArrayAttr>(mlir::tile::kGridAttrName);
  ASSERT_TRUE(grid);
  EXPECT_EQ(strings(grid), (std::vector<std::string>{"cdiv(n, 32)", "1", "1"}));
  auto constexprs = fn->getAttrOfType<mlir::DictionaryAttr>(mlir::tile::kConstexprsAttrName);
  ASSERT_TRUE(constexprs);
  EXPECT_EQ(constexprs.size(), 1u);
  auto block = constexprs.getAs<mlir::IntegerAttr>("B");
  ASSERT_TRUE(block);
  EXPECT_EQ(block.getInt(), 32);
  EXPECT_TRUE(block.getType().isInteger(64));
  auto warps = fn->getAttrOfType<mlir::IntegerAttr>(mlir::tile::kNumWarpsAttrName);
  ASSERT_TRUE(warps);
  EXPECT_EQ(warps.getInt(), 2);
  EXPECT_TRUE(warps.getType().isInteger(32));
  EXPECT_EQ(mlir::tile::getNumWarps(fn), 2u);
  auto argNames = fn->getAttrOfType<mlir::ArrayAttr>(mlir::tile::kArgNamesAttrName);
  ASSERT_TRUE(argNames);
  EXPECT_EQ(strings(argNames), (std::vector<std::string>{"x", "n"}));

  // The stored value: a splat constant of 1.0 as a tensor<32xf16>.
  int ones = 0;
  fn.walk([&](mlir::arith::ConstantOp c) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(c.getType());
    auto value = llvm::dyn_cast<mlir::DenseFPElementsAttr>(c.getValue());
    if (type && type.getShape() == llvm::ArrayRef<int64_t>{32} && type.getElementType().isF16() &&
        value && value.isSplat() && value.getSplatValue<llvm::APFloat>().convertToDouble() == 1.0)
      ++ones;
  });
  EXPECT_EQ(ones, 1);
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
