//===- PtxEmitter.cpp - LLVM dialect to PTX --------------------------------===//

#include "PtxEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
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

#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace tcc {

static constexpr const char *kTriple = "nvptx64-nvidia-cuda";

static void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // Shared-memory pointers in 32 bits: cheaper address arithmetic for ld/st.shared.
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("nvptx-short-ptr");
    if (it != options.end())
      if (auto *flag = static_cast<llvm::cl::opt<bool> *>(it->second))
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
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, options.arch, /*Features=*/"", targetOptions, std::nullopt, std::nullopt, level));
  if (!machine)
    *error = "could not create an NVPTX target machine for " + options.arch;
  return machine;
}

/// Predicated global accesses of the tile lowering (MemoryLowering.cpp) arrive as
/// side-effecting inline PTX with the address in a register: `@$P ld.global... {..}, [$A];`
/// and `@$0 st.global... [$1], {..};` (constraint "l"). MLIR's llvm.inline_asm can express
/// neither memory effects nor (reliably, in LLVM 22) the element type of an indirect
/// operand, so they are rewritten here, after translation:
/// - the address becomes an indirect memory operand ("*m", printed `$A`): NVPTX selects
///   it like the address of a plain load, so a constant offset from a base pointer is
///   folded into `[%rd+imm]`, and the machine instruction counts as a memory access;
/// - loads lose the side effect and get `memory(argmem: read) nounwind willreturn`: LLVM
///   orders them like plain loads (freely among reads, never across a possible write: a
///   store, a predicated store, which stays side-effecting, a barrier, an atomic), may
///   merge identical ones and drop unused ones.
static void relaxPredicatedGlobalAccesses(llvm::Module &module) {
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block) {
        auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
        if (!call)
          continue;
        auto *asmValue = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand());
        if (!asmValue || !asmValue->hasSideEffects())
          continue;
        std::string text = asmValue->getAsmString().str();
        llvm::StringRef rest(text);
        if (!rest.consume_front("@$"))
          continue;
        rest = rest.drop_while([](char c) { return c >= '0' && c <= '9'; });
        bool isLoad = rest.starts_with(" ld.global.");
        if (!isLoad && !rest.starts_with(" st.global."))
          continue;
        // The address: the last operand of a load, operand 1 of a store.
        unsigned address = isLoad ? call->arg_size() - 1 : 1;
        if (call->arg_size() < 2 || !call->getArgOperand(address)->getType()->isPointerTy())
          continue;
        // Operands are numbered outputs first, as are the constraints.
        llvm::SmallVector<llvm::StringRef> constraints;
        std::string constraintText = asmValue->getConstraintString().str();
        llvm::StringRef(constraintText).split(constraints, ',');
        unsigned asmIndex = llvm::count_if(constraints, [](llvm::StringRef c) {
                              return c.starts_with("=");
                            }) + address;
        std::string bracketed = "[$" + std::to_string(asmIndex) + "]";
        size_t at = text.find(bracketed);
        unsigned constraintIndex = asmIndex;
        if (at == std::string::npos || constraintIndex >= constraints.size() ||
            constraints[constraintIndex] != "l")
          continue;
        text.replace(at, bracketed.size(), "$" + std::to_string(asmIndex));
        std::string newConstraints;
        for (auto [i, c] : llvm::enumerate(constraints))
          newConstraints += (i ? "," : "") + (i == constraintIndex ? std::string("*m") : c.str());
        call->setCalledOperand(llvm::InlineAsm::get(
            asmValue->getFunctionType(), text, newConstraints, /*hasSideEffects=*/!isLoad,
            asmValue->isAlignStack(), asmValue->getDialect()));
        call->addParamAttr(address, llvm::Attribute::get(module.getContext(),
                                                         llvm::Attribute::ElementType,
                                                         llvm::Type::getInt8Ty(module.getContext())));
        if (isLoad) {
          call->setMemoryEffects(llvm::MemoryEffects::argMemOnly(llvm::ModRefInfo::Ref));
          call->setDoesNotThrow();
          call->addFnAttr(llvm::Attribute::WillReturn);
        }
      }
}

std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                                                const PtxOptions &options, std::string *error) {
  mlir::DialectRegistry registry;
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
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
  relaxPredicatedGlobalAccesses(*llvmModule);
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
