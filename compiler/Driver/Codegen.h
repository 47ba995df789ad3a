//===- Codegen.h - tile IR to LLVM IR, PTX, cubin and header -----*- C++ -*-===//
//
// The Driver's back half (`--emit=llvm|ptx|cubin|header`): the tile-level GPU pipeline
// (compiler/Transforms/Pipeline.h), convert-tile-to-nvvm (compiler/Conversion), then
// compiler/Target: LLVM IR, PTX, ptxas, and the artifact or header writers.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_DRIVER_CODEGEN_H
#define TCC_DRIVER_CODEGEN_H

#include <string>
#include <vector>

namespace tcc {

class Driver;
enum class EmitStage;
struct KernelArtifact;

/// Runs the back half for `stage` (one of the code-generation stages) on the Driver's
/// input (a .tile file, or tile IR in a .mlir file) and writes the result where the
/// options say. Returns the process exit code.
int runCodegen(Driver &driver, EmitStage stage);

/// Writes the header of an autotuned kernel (--emit=header of a space) to the output:
/// `configurations` holds each configuration's variants, as its own compilation handed
/// them over (DriverOptions::collectVariants); `table` the checked tuning table to embed,
/// or empty. Returns the process exit code.
int writeAutotunedHeader(Driver &driver,
                         const std::vector<std::vector<KernelArtifact>> &configurations,
                         const std::string &table);

} // namespace tcc

#endif // TCC_DRIVER_CODEGEN_H
