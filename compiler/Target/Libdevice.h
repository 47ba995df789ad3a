//===- Libdevice.h - linking CUDA's libdevice ---------------------*- C++ -*-===//
#ifndef TCC_COMPILER_TARGET_LIBDEVICE_H
#define TCC_COMPILER_TARGET_LIBDEVICE_H

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace tcc {

/// Where `module` declares libdevice functions (`__nv_*`, from tile.extern_elementwise),
/// links the ones it uses from libdevice.10.bc (dialects/Tile/Libdevice.h finds it) and
/// makes them internal, so that the optimisation pipeline inlines them and drops the rest;
/// `nvvm-reflect-ftz` is set to 0 (no flush of subnormals, as the rest of tcc's code).
/// Nothing happens for a module without such declarations. False, with `error`, where the
/// library cannot be read or linked.
bool linkLibdevice(llvm::Module &module, std::string *error);

} // namespace tcc

#endif // TCC_COMPILER_TARGET_LIBDEVICE_H
