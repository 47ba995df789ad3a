//===- PtxEmitter.cpp - LLVM dialect to PTX --------------------------------===//

#include "PtxEmitter.h"
#include "OffsetProducts.h"
#include "TileToLLVMIRTranslation.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace tcc {

static constexpr const char *kTriple = "nvptx64-nvidia-cuda";

/// A boolean option of LLVM's NVPTX backend by name (they are process-wide `cl::opt`s),
/// or null where this LLVM has none of that name.
static llvm::cl::opt<bool> *nvptxFlag(llvm::StringRef name) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  return it == options.end() ? nullptr : static_cast<llvm::cl::opt<bool> *>(it->second);
}

static void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // Two NVPTX options, off by default in LLVM 22:
    // - nvptx-short-ptr: shared-memory pointers in 32 bits, cheaper address arithmetic for
    //   ld/st.shared;
    // - nvptx-mad-wide-opt: `base + (i64)sext(i) * c` becomes one `mad.wide.s32` instead of
    //   `mul.wide.s32` + `add.s64`. ptxas assembles the mad.wide as LEA + LEA.HI.X on the
    //   integer ALU pipe where the pair becomes IMAD.WIDE on the FMA pipe; in a wgmma K loop
    //   the copies' addresses then stop throttling that pipe between the HGMMAs
    //   (bench/RESULTS.md, seventh session: 4096^3 fp16 +4 %).
    for (const char *name : {"nvptx-short-ptr", "nvptx-mad-wide-opt"})
      if (llvm::cl::opt<bool> *flag = nvptxFlag(name))
        flag->setValue(true);
  });
}

const std::vector<std::string> &supportedArchs() {
  // Ampere (sm_80 data centre, sm_86 consumer), Ada (sm_89) and Hopper (sm_90; sm_90a adds
  // wgmma). Each has its shared-memory limit in the tile target and is exercised by the
  // lit tests; a name LLVM knows but tcc has not checked is refused before LLVM runs.
  static const std::vector<std::string> archs = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"};
  return archs;
}

bool isSupportedArch(const std::string &arch) {
  for (const std::string &a : supportedArchs())
    if (a == arch)
      return true;
  return false;
}

std::string supportedArchList() {
  std::string s;
  const std::vector<std::string> &archs = supportedArchs();
  for (size_t i = 0; i < archs.size(); ++i)
    s += (i == 0 ? "" : i + 1 == archs.size() ? " or " : ", ") + archs[i];
  return s;
}

static std::unique_ptr<llvm::TargetMachine> createTargetMachine(const PtxOptions &options,
                                                                std::string *error) {
  initializeNVPTX();
  if (!isSupportedArch(options.arch)) {
    *error = "unsupported GPU architecture '" + options.arch + "' (expected sm_80, sm_90, ...)";
    return nullptr;
  }
  llvm::Triple triple(kTriple);
  std::string lookupError;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target) {
    *error = "LLVM has no NVPTX target: " + lookupError;
    return nullptr;
  }
  llvm::CodeGenOptLevel level = options.optLevel == 0   ? llvm::CodeGenOptLevel::None
                                : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                                        : llvm::CodeGenOptLevel::Aggressive;
  llvm::TargetOptions targetOptions;
  // As Triton (enable_fp_fusion=True): a multiply and the add that takes it become one
  // fma, with one rounding; without it NVPTX writes mul.rn / add.rn, which ptxas may not
  // contract either (tutorial 05's layer norm: x_hat * w + b, 32 fma a thread).
  targetOptions.AllowFPOpFusion =
      options.fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  // NVPTX reads its scheduling preference from a process-wide option when the target
  // machine builds its lowering, and nowhere else: it is set for this construction only,
  // under a lock, so that compilations on other threads (tcc's parallel configurations)
  // each get their own.
  static std::mutex scheduleLock;
  std::unique_ptr<llvm::TargetMachine> machine;
  {
    std::lock_guard<std::mutex> hold(scheduleLock);
    llvm::cl::opt<bool> *sched4reg = nvptxFlag("nvptx-sched4reg");
    if (options.registerPressureSchedule && !sched4reg) {
      *error = "this LLVM's NVPTX backend has no register-pressure scheduler (nvptx-sched4reg)";
      return nullptr;
    }
    if (sched4reg)
      sched4reg->setValue(options.registerPressureSchedule);
    machine.reset(target->createTargetMachine(triple, options.arch, /*Features=*/"",
                                              targetOptions, std::nullopt, std::nullopt, level));
    if (sched4reg)
      sched4reg->setValue(false);
  }
  if (!machine)
    *error = "could not create an NVPTX target machine for " + options.arch;
  return machine;
}

std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                                                const PtxOptions &options, std::string *error) {
  // The tile dialect's translation gives the lowering's predicated global accesses
  // their element type and memory effects (TileToLLVMIRTranslation.cpp).
  mlir::DialectRegistry registry;
  registerTccTranslations(registry);
  module->getContext()->appendDialectRegistry(registry);

  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "tcc");
  if (!llvmModule) {
    *error = "translation of the lowered module to LLVM IR failed";
    return nullptr;
  }
  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(options, error);
  if (!machine)
    return nullptr;
  llvmModule->setTargetTriple(llvm::Triple(kTriple));
  llvmModule->setDataLayout(machine->createDataLayout());
  std::string verifyMessage;
  llvm::raw_string_ostream verifyStream(verifyMessage);
  if (llvm::verifyModule(*llvmModule, &verifyStream)) {
    *error = "the LLVM IR is invalid: " + verifyMessage;
    return nullptr;
  }
  return llvmModule;
}

bool optimizeLLVMIR(llvm::Module &module, const PtxOptions &options, std::string *error) {
  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(options, error);
  if (!machine)
    return false;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = options.optLevel == 0   ? llvm::OptimizationLevel::O0
                                  : options.optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : options.optLevel == 2 ? llvm::OptimizationLevel::O2
                                                          : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager pipeline = options.optLevel == 0
                                         ? builder.buildO0DefaultPipeline(level)
                                         : builder.buildPerModuleDefaultPipeline(level);
  if (options.optLevel != 0)
    pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(ShareOffsetProductsPass()));
  pipeline.run(module, mam);
  return true;
}

namespace {

/// NVPTX's code generator runs straight-line strength reduction on the IR. In LLVM 22 it
/// asks ScalarEvolution, for candidate pairs, whether an instruction can be reused
/// (walking poison-generating operands such as `or disjoint` and scanning for UB), which
/// grows with the per-element address arithmetic of large tiles: 50 ms of an 80 ms code
/// generation for a 128x128 matmul or bias add. Its rewrites (address arithmetic shared
/// between unrolled accesses) are ones ptxas makes anyway: registers and spills of every
/// example configuration were compared with and without it. The legacy pass has no
/// switch and ignores the LLVMContext's pass gate, so it is left out when added.
class CodegenPassManager : public llvm::legacy::PassManager {
public:
  void add(llvm::Pass *pass) override {
    if (pass->getPassName() == "Straight line strength reduction") {
      delete pass;
      return;
    }
    llvm::legacy::PassManager::add(pass);
  }
};

} // namespace

std::unique_ptr<llvm::Module> cloneLLVMModule(const llvm::Module &module) {
  return llvm::CloneModule(module);
}

bool emitPtx(llvm::Module &module, const PtxOptions &options, std::string *ptx,
             std::string *error) {
  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(options, error);
  if (!machine)
    return false;
  module.setDataLayout(machine->createDataLayout());
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  CodegenPassManager passes;
  if (machine->addPassesToEmitFile(passes, stream, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
    *error = "the NVPTX target cannot emit assembly";
    return false;
  }
  passes.run(module);
  *ptx = std::string(buffer.str());
  return true;
}

std::string printLLVMIR(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return text;
}

} // namespace tcc
