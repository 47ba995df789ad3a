//===- Driver.h - The one place that strings the stages together ---------===//
//
// tcc's pipeline as a small API: read the input, parse and check it, generate
// tile IR, and (as later layers land) lower it to LLVM IR, PTX, a cubin or a
// C++ header. `tools/tcc` only turns command-line options into DriverOptions
// and returns Driver::run()'s exit code. The header is free of MLIR so that the
// command-line tool compiles quickly.
//
// Extending: add a stage to EmitStage (in pipeline order) and to the name
// table in Driver.cpp, then a branch in Driver::run(); stages reuse the
// earlier steps through analyze() and buildTileModule().
//
//===----------------------------------------------------------------------===//
#ifndef TCC_DRIVER_DRIVER_H
#define TCC_DRIVER_DRIVER_H

#include "compiler/Driver/CodegenOptions.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class MLIRContext;
class ModuleOp;
} // namespace mlir

namespace tcc {

class DiagnosticEngine;
struct KernelArtifact;
namespace typed {
class Program;
struct Kernel;
struct Autotune;
} // namespace typed

/// How far the pipeline runs, in pipeline order.
enum class EmitStage {
  AST,  // the typed AST after Sema (--emit=ast)
  Tile, // verified tile IR after MLIRGen (--emit=tile)
  // The back half (compiler/Driver/Codegen.cpp):
  LLVM,   // LLVM IR after LLVM's optimisation pipeline (--emit=llvm)
  PTX,    // PTX from the NVPTX back end (--emit=ptx)
  Cubin,  // cubin + metadata JSON + PTX beside it (--emit=cubin -o FILE.cubin)
  Header, // a C++ header with the cubin(s) embedded and a typed launcher (--emit=header)
};

/// "ast" -> EmitStage::AST, ...; nullopt for an unknown name.
std::optional<EmitStage> parseEmitStage(llvm::StringRef name);
llvm::StringRef emitStageName(EmitStage stage);
/// Every stage name, in pipeline order (for --help and option checking).
std::vector<std::string> emitStageNames();

struct DriverOptions {
  /// The .tile file; "-" reads standard input.
  std::string inputPath = "-";
  /// The input's text, when it does not come from inputPath (which then only names it).
  std::optional<std::string> inputText;
  /// Where the result goes; "-" writes standard output. Nothing is written on error.
  std::string outputPath = "-";
  /// --verify-diagnostics: compile each `# -----`-separated part of the input on its own
  /// and check its diagnostics against the `# expected-error {{...}}` comments in it
  /// (compiler/Driver/VerifyDiagnostics.h); exit 0 when they match exactly.
  bool verifyDiagnostics = false;
  /// Not a command-line option: results are not written (standard output stays quiet).
  bool discardOutput = false;
  EmitStage emit = EmitStage::Tile;
  /// `-D NAME=VALUE` (VALUE is an expression: 128, 2*64, True, f16, 0.5); `-D NAME` means 1.
  std::vector<std::string> defines;
  /// Compile only this kernel (empty: every kernel of the file).
  std::string kernelName;
  /// --no-device-assert: device_assert(...) compiled out (SemaOptions::deviceAsserts).
  bool noDeviceAssert = false;
  /// Print IR with source locations (like -mlir-print-debuginfo).
  bool debugLocations = false;
  /// For a kernel with @autotune: compile this configuration only (its declared index), as
  /// the driver does for each configuration of the space; negative: the whole space where
  /// an artifact is written (--emit=cubin, --emit=ptx -o), else the first configuration.
  int autotuneConfig = -1;
  /// --arch, -O, --num-warps, --specialize, ... for --emit=llvm|ptx|cubin|header.
  CodegenOptions codegen;
  /// --tuning FILE (docs/autotuning.md): a tuning table for the @autotune kernel compiled,
  /// checked against its space, embedded in the header (--emit=header) or written beside
  /// the artifact as <kernel>.tuning.json (--emit=cubin, --emit=ptx -o).
  std::string tuningTable;
  /// Not a command-line option: where the compilation of one configuration of a space (a
  /// Driver runAutotuneSpace starts) hands its variants; with --emit=header they are not
  /// written (the space's header holds every configuration's).
  std::vector<KernelArtifact> *collectVariants = nullptr;
};

class Driver {
public:
  explicit Driver(DriverOptions options);
  Driver(DriverOptions options, llvm::raw_ostream &diagnosticStream);
  ~Driver();
  Driver(const Driver &) = delete;
  Driver &operator=(const Driver &) = delete;

  /// Runs the pipeline up to options.emit and writes the result. Returns the
  /// process exit code: 0 on success, 1 after errors (all of them reported).
  int run();

  // The steps run() is made of, for other entry points (the interpreter,
  // tests). Each runs the steps before it once, and reports its own errors.

  /// Reads the input into the source manager.
  bool loadInput();
  /// Parses and checks the input; null after errors.
  const typed::Program *analyze();
  /// The @autotune space of `kernel` as analyze() elaborated it; null without one (or for
  /// tile IR input).
  const typed::Autotune *autotune(llvm::StringRef kernel);
  /// Generates and verifies tile IR; null after errors. Owned by the Driver.
  mlir::ModuleOp buildTileModule();
  /// Writes --depfile (when asked) for a compilation that succeeded.
  bool writeDepfile();
  /// Writes `text` to the output (-o; "-" is standard output), reporting failures.
  bool writeOutput(llvm::StringRef text);

  mlir::MLIRContext &context();
  DiagnosticEngine &diagnostics();
  /// Where the diagnostics go (the constructor's stream): the back half's MLIR diagnostics
  /// print there too.
  llvm::raw_ostream &diagnosticStream();
  /// Whether `key` (a diagnostic's location and text) is reported for the first time by
  /// this Driver: a pass that warns once per compiled variant or architecture of a kernel
  /// is heard once. Thread-safe (images compile in parallel).
  bool firstReport(llvm::StringRef key);
  const DriverOptions &options() const;

private:
  int runOnCurrentThread();
  /// --emit=cubin|ptx -o|header of a kernel with @autotune: each configuration kept compiled
  /// by a Driver of its own, in parallel, beside the output or into one header, with the
  /// --tuning table checked and embedded or written beside (docs/autotuning.md).
  int runAutotuneSpace(const typed::Kernel &kernel);

  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace tcc

#endif // TCC_DRIVER_DRIVER_H
