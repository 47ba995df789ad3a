//===- Libdevice.cpp - linking CUDA's libdevice ---------------------------===//

#include "compiler/Target/Libdevice.h"

#include "dialects/Tile/Libdevice.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tcc {

bool linkLibdevice(llvm::Module &module, std::string *error) {
  bool needed = false;
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with("__nv_"))
      needed = true;
  if (!needed)
    return true;
  std::string searched;
  std::string path = libdevice::findBitcode(&searched);
  if (path.empty()) {
    *error = "the kernel calls libdevice functions, and tcc found no libdevice.10.bc (looked "
             "at: " + searched + ")";
    return false;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    *error = "cannot read " + path + ": " + buffer.getError().message();
    return false;
  }
  llvm::Expected<std::unique_ptr<llvm::Module>> lib =
      llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!lib) {
    *error = "cannot parse " + path + ": " + llvm::toString(lib.takeError());
    return false;
  }
  (*lib)->setTargetTriple(module.getTargetTriple());
  (*lib)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*lib), llvm::Linker::LinkOnlyNeeded)) {
    *error = "cannot link " + path + " into the kernel's module";
    return false;
  }
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && f.getName().starts_with("__nv_"))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  if (!module.getModuleFlag("nvvm-reflect-ftz"))
    module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  return true;
}

} // namespace tcc
