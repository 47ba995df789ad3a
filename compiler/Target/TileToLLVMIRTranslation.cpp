//===- TileToLLVMIRTranslation.cpp - the tile dialect's LLVM IR translation -===//
//
// Predicated global accesses of the lowering (MemoryLowering.cpp) are side-effecting
// inline PTX whose address is an indirect memory operand (`*m`, printed `$A`): NVPTX
// selects it like the address of a plain load, so a constant offset from a base pointer
// folds into `[%rd+imm]`, and the machine instruction counts as a memory access. The
// lowering marks each with `tile.predicated_access = #tile.predicated_access<kind,
// address = k>`; here, on the translated call:
// - the address gets `elementtype(i8)` (an indirect operand needs one; MLIR's
//   `operand_attrs` cannot give it to an inline asm without results);
// - a load loses the side effect and gets `memory(argmem: read) nounwind willreturn`:
//   LLVM orders it like a plain load (freely among reads, never across a possible write:
//   a store, a predicated store, which stays side-effecting, a barrier, an atomic), may
//   merge identical ones and drop unused ones.
// Anything else carrying the attribute is an error: the contract is checked, not
// guessed at.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMIRTranslation.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "mlir/Target/LLVMIR/ModuleTranslation.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"

using namespace mlir;

namespace tcc {
namespace {

/// The constraint of call argument `arg` (outputs that are not indirect
/// take no argument).
const llvm::InlineAsm::ConstraintInfo *
constraintOfArgument(const llvm::InlineAsm::ConstraintInfoVector &infos, unsigned arg) {
  unsigned index = 0;
  for (const llvm::InlineAsm::ConstraintInfo &info : infos) {
    if (!info.hasArg())
      continue;
    if (index++ == arg)
      return &info;
  }
  return nullptr;
}

class TileTranslationInterface : public LLVMTranslationDialectInterface {
public:
  using LLVMTranslationDialectInterface::LLVMTranslationDialectInterface;

  LogicalResult amendOperation(Operation *op, ArrayRef<llvm::Instruction *> instructions,
                               NamedAttribute attribute,
                               LLVM::ModuleTranslation &) const override {
    // The other tile attributes on lowered IR (tile.num_warps, tile.shared_bytes, ...)
    // are for the driver, not for LLVM.
    if (attribute.getName() != tile::kPredicatedAccessAttrName)
      return success();
    auto access = dyn_cast<tile::PredicatedAccessAttr>(attribute.getValue());
    auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op);
    if (!access || !asmOp)
      return op->emitError() << "'" << tile::kPredicatedAccessAttrName
                             << "' expects an llvm.inline_asm marked with a "
                                "#tile.predicated_access";
    bool isLoad = access.getKind() == tile::PredicatedAccessKind::Load;
    llvm::CallInst *call = nullptr;
    for (llvm::Instruction *inst : instructions)
      if (auto *c = llvm::dyn_cast<llvm::CallInst>(inst); c && c->isInlineAsm())
        call = c;
    if (!call)
      return op->emitError("a predicated global access translated to no inline-asm call");
    auto *inlineAsm = llvm::cast<llvm::InlineAsm>(call->getCalledOperand());
    unsigned address = access.getAddress();
    if (address >= call->arg_size() || !call->getArgOperand(address)->getType()->isPointerTy())
      return op->emitError() << "a predicated global access: operand #" << address
                             << " is not its address (a pointer)";
    llvm::InlineAsm::ConstraintInfoVector infos = inlineAsm->ParseConstraints();
    const llvm::InlineAsm::ConstraintInfo *constraint =
        constraintOfArgument(infos, address);
    if (!constraint || constraint->Type != llvm::InlineAsm::isInput ||
        !constraint->isIndirect || constraint->Codes.size() != 1 ||
        constraint->Codes[0] != "m")
      return op->emitError() << "a predicated global access: the address operand #" << address
                             << " must have the constraint \"*m\" (constraints \""
                             << asmOp.getConstraints() << "\")";
    if (isLoad == call->getType()->isVoidTy())
      return op->emitError() << "a predicated global " << (isLoad ? "load" : "store")
                             << (isLoad ? " must have results" : " must have no result");
    if (!asmOp.getHasSideEffects())
      return op->emitError("a predicated global access must be marked has_side_effects (what "
                           "MLIR passes see until translation)");

    llvm::LLVMContext &context = call->getContext();
    call->addParamAttr(address, llvm::Attribute::get(context, llvm::Attribute::ElementType,
                                                     llvm::Type::getInt8Ty(context)));
    if (isLoad) {
      call->setCalledOperand(llvm::InlineAsm::get(
          inlineAsm->getFunctionType(), inlineAsm->getAsmString(),
          inlineAsm->getConstraintString(), /*hasSideEffects=*/false,
          inlineAsm->isAlignStack(), inlineAsm->getDialect(), inlineAsm->canThrow()));
      call->setMemoryEffects(llvm::MemoryEffects::argMemOnly(llvm::ModRefInfo::Ref));
      call->setDoesNotThrow();
      call->addFnAttr(llvm::Attribute::WillReturn);
    }
    return success();
  }
};

} // namespace

void registerTileDialectTranslation(DialectRegistry &registry) {
  registry.insert<tile::TileDialect>();
  registry.addExtension(+[](MLIRContext *, tile::TileDialect *dialect) {
    dialect->addInterfaces<TileTranslationInterface>();
  });
}

void registerTccTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerTileDialectTranslation(registry);
}

} // namespace tcc
