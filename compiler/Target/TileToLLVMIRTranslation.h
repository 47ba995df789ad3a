//===- TileToLLVMIRTranslation.h - the tile dialect's LLVM IR translation -*- C++ -*-===//
//
// What the tile dialect contributes to the translation of lowered (LLVM dialect) IR to
// LLVM IR: the `tile.predicated_access` attribute of the lowering's inline asm becomes
// the element type and memory effects of the LLVM call (docs/lowering.md).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_TARGET_TILETOLLVMIRTRANSLATION_H
#define TCC_COMPILER_TARGET_TILETOLLVMIRTRANSLATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tcc {

/// Registers the tile dialect's LLVMTranslationDialectInterface.
void registerTileDialectTranslation(mlir::DialectRegistry &registry);

/// Every translation tcc needs: builtin, LLVM, NVVM and tile (what tcc and
/// tile-translate register).
void registerTccTranslations(mlir::DialectRegistry &registry);

} // namespace tcc

#endif // TCC_COMPILER_TARGET_TILETOLLVMIRTRANSLATION_H
