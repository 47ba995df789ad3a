//===- PtxEmitter.h - LLVM dialect to PTX ------------------------*- C++ -*-===//
//
// The back half of the compiler: a module in the LLVM and NVVM dialects (what
// convert-tile-to-nvvm leaves) is translated to LLVM IR, optimised with LLVM's
// pipeline for the -O level, and emitted as PTX by an in-process NVPTX TargetMachine.
// No exceptions: failures come back as messages.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_TARGET_PTXEMITTER_H
#define TCC_COMPILER_TARGET_PTXEMITTER_H

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tcc {

struct PtxOptions {
  std::string arch = "sm_90"; // sm_80, sm_90, sm_90a, ...
  unsigned optLevel = 3;      // 0..3, for LLVM's pipeline and its code generator
  bool fpFusion = true;       // a*b + c may become fma (LLVM's FPOpFusion::Fast)
  /// Instruction selection orders each block's instructions to keep fewer values live
  /// (NVPTX's register-pressure list scheduler, `-nvptx-sched4reg`) instead of keeping
  /// the IR's order. ptxas allocates registers from the PTX's order, so this changes what
  /// it needs: tutorial 04's eight Philox streams per thread, 48 registers in the IR's
  /// order, take 32 in this one. The driver chooses it per kernel (Codegen.cpp).
  bool registerPressureSchedule = false;
};

/// The architectures tcc targets: sm_80, sm_86, sm_89, sm_90, sm_90a.
const std::vector<std::string> &supportedArchs();
/// True for one of supportedArchs().
bool isSupportedArch(const std::string &arch);
/// "sm_80, sm_86, sm_89, sm_90 or sm_90a", for messages.
std::string supportedArchList();

/// The LLVM IR of an LLVM-dialect module, with the NVPTX triple and data layout set.
/// Null with *error set on failure.
std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                                                const PtxOptions &options, std::string *error);

/// Runs LLVM's default pipeline for options.optLevel on `module`, then (above -O0)
/// shareOffsetProducts (OffsetProducts.h).
bool optimizeLLVMIR(llvm::Module &module, const PtxOptions &options, std::string *error);

/// A copy of `module` (code generation changes the module it runs on).
std::unique_ptr<llvm::Module> cloneLLVMModule(const llvm::Module &module);

/// Emits `module` as PTX text.
bool emitPtx(llvm::Module &module, const PtxOptions &options, std::string *ptx,
             std::string *error);

/// The LLVM IR as text (for --emit=llvm).
std::string printLLVMIR(const llvm::Module &module);

} // namespace tcc

#endif // TCC_COMPILER_TARGET_PTXEMITTER_H
