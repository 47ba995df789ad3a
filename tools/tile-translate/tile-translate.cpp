//===- tile-translate.cpp - the tile dialect's translate driver ------------===//
//
// mlir-translate for lowered tile IR: `--mlir-to-llvmir` translates the LLVM and NVVM
// dialects with the tile dialect's translation interface, as tcc does, so that
// `tile-opt ... -convert-tile-to-nvvm | tile-translate --mlir-to-llvmir` gives the LLVM
// IR tcc hands to its LLVM pipeline (before the target triple and data layout).
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMIRTranslation.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::TranslateFromMLIRRegistration toLLVMIR(
      "mlir-to-llvmir", "translate lowered tile IR (LLVM and NVVM dialects) to LLVM IR",
      [](mlir::Operation *op, llvm::raw_ostream &output) {
        llvm::LLVMContext context;
        std::unique_ptr<llvm::Module> module = mlir::translateModuleToLLVMIR(op, context);
        if (!module)
          return mlir::failure();
        module->print(output, nullptr);
        return mlir::success();
      },
      [](mlir::DialectRegistry &registry) {
        registry.insert<mlir::arith::ArithDialect, mlir::LLVM::LLVMDialect,
                        mlir::NVVM::NVVMDialect>();
        tcc::registerTccTranslations(registry);
      });
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "tile-translate"));
}
