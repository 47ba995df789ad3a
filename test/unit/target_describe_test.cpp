// A kernel's metadata from its tile IR (compiler/Target/KernelDescription.h): parameters with
// their types and the variant's assumptions, constexprs of every kind, the grid, the stages,
// what an @autotune configuration restores and what --check-bounds checks, read from the
// attributes of hand-written kernels (inputs/target/describe.mlir).
#include "KernelDescription.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

class Describe : public ::testing::Test {
protected:
  void SetUp() override {
    context.loadDialect<mlir::tile::TileDialect, mlir::arith::ArithDialect,
                        mlir::func::FuncDialect>();
    module = mlir::parseSourceFile<mlir::ModuleOp>(
        std::string(TCC_UNIT_INPUTS) + "/target/describe.mlir", &context);
    ASSERT_TRUE(module);
  }
  mlir::func::FuncOp kernel(llvm::StringRef name) {
    return module->lookupSymbol<mlir::func::FuncOp>(name);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

std::vector<std::string> names(const std::vector<tcc::KernelParam>& params) {
  std::vector<std::string> result;
  for (const tcc::KernelParam& p : params)
    result.push_back(p.name + ":" + p.type + (p.divisibility > 1 ? "%" + std::to_string(p.divisibility) : "") +
                     (p.equalToOne ? "==1" : ""));
  return result;
}

using Strings = std::vector<std::string>;

TEST_F(Describe, ParametersCarryTheirTypesAndTheVariantsAssumptions) {
  tcc::ArgumentAssumptions assumptions;
  assumptions["x"].divisibility = 16;
  assumptions["stride"].equalToOne = true;
  EXPECT_EQ(names(tcc::kernelParams(kernel("scale"), assumptions)),
            (Strings{"x:*f16%16", "out:*f32", "n:i32", "stride:i32==1", "alpha:f32"}));
  EXPECT_EQ(names(tcc::kernelParams(kernel("scale"), {})),
            (Strings{"x:*f16", "out:*f32", "n:i32", "stride:i32", "alpha:f32"}));
  EXPECT_EQ(names(tcc::kernelParams(kernel("plain"), {})), (Strings{"p:*f32", "count:i64"}));
}

TEST_F(Describe, ConstexprsGridAndStagesFromTheAttributes) {
  tcc::KernelArtifact a = tcc::describeKernel(kernel("scale"), {}, {});
  EXPECT_EQ(a.name, "scale");
  // The dictionary's order; a dtype is its name.
  std::vector<std::string> constexprs;
  for (const tcc::KernelConstexpr& c : a.constexprs)
    constexprs.push_back(c.name + "=" + c.display());
  EXPECT_EQ(constexprs, (Strings{"ACT=\"relu\"", "BLOCK=1024", "RELU=True", "SCALE=0.5", "T=\"f16\""}));
  EXPECT_EQ(a.constexprs[2].kind, tcc::KernelConstexpr::Kind::Bool);
  EXPECT_EQ(a.constexprs[3].kind, tcc::KernelConstexpr::Kind::Float);
  EXPECT_EQ(a.grid, (std::array<std::string, 3>{"cdiv(n, 1024)", "1", "1"}));
  EXPECT_EQ(a.numStages, 2);
  // One f16 load and one f32 store of 1024 elements a program.
  ASSERT_TRUE(a.costBytes.has_value());
  EXPECT_EQ(*a.costBytes, "6144 * cdiv(n, 1024)");
  EXPECT_FALSE(a.autotune.has_value());
  EXPECT_FALSE(a.checkBounds.has_value());

  tcc::KernelDescriptionOptions options;
  options.numStages = 4; // --num-stages wins over the kernel's
  EXPECT_EQ(tcc::describeKernel(kernel("scale"), {}, options).numStages, 4);

  tcc::KernelArtifact plain = tcc::describeKernel(kernel("plain"), {}, {});
  EXPECT_TRUE(plain.constexprs.empty());
  EXPECT_EQ(plain.grid, (std::array<std::string, 3>{"count", "2", "1"}));
  EXPECT_EQ(plain.numStages, 3);
}

TEST_F(Describe, AutotuneRestoresWhatTheKernelWritesAndCheckBoundsItsPointers) {
  tcc::KernelDescriptionOptions options;
  options.checkBounds = true;
  options.autotune = tcc::KernelAutotune{"0123456789abcdef", 1, 3, {"n"}, {}, {"x", "out"}};
  options.source = "d.tile";
  options.compiler = "tcc test";
  tcc::ArgumentAssumptions assumptions;
  assumptions["out"].divisibility = 16;
  tcc::KernelArtifact a = tcc::describeKernel(kernel("scale"), assumptions, options);
  ASSERT_TRUE(a.autotune.has_value());
  EXPECT_EQ(a.autotune->space, "0123456789abcdef");
  EXPECT_EQ(a.autotune->index, 1);
  EXPECT_EQ(a.autotune->count, 3);
  EXPECT_EQ(a.autotune->key, Strings{"n"});
  EXPECT_EQ(a.autotune->writes, Strings{"out"}); // x is only read
  EXPECT_EQ(a.autotune->restore, (Strings{"out", "x"}));
  ASSERT_TRUE(a.checkBounds.has_value());
  EXPECT_EQ(a.checkBounds->extents, (Strings{"x", "out"}));
  EXPECT_EQ(a.source, "d.tile");
  EXPECT_EQ(a.compiler, "tcc test");
  // With an image, what the writer would write.
  a.cubin = "image";
  EXPECT_EQ(tcc::validateArtifact(a), "");
}

} // namespace
