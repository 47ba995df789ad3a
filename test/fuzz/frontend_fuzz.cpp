// libFuzzer target: bytes as a .tile file through the whole front end (lexer, parser, Sema,
// MLIRGen and the tile IR verifier). A finding is a crash, a sanitizer report, a timeout
// (-timeout), or MLIRGen producing IR the verifier rejects after Sema accepted the program
// (an internal error: it aborts here). Built in the sanitizer build (-DTCC_SANITIZE=ON with
// clang); scripts/fuzz.sh runs it long, scripts/test-sanitizers.sh briefly on every CI run.
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Lexer.h"
#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Frontend/Parser.h"
#include "compiler/Frontend/Sema.h"
#include "compiler/Frontend/TypedAST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1u << 16))
    return 0; // kernels are small; long inputs only slow the search down
  llvm::SourceMgr sources;
  unsigned id = sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.tile"),
      llvm::SMLoc());
  tcc::DiagnosticEngine diags(sources, llvm::nulls());
  tcc::Lexer lexer(diags, id);
  tcc::Parser parser(diags, lexer.lexAll());
  std::unique_ptr<tcc::ast::Module> module = parser.parseModule();
  if (diags.hasErrors() || !module)
    return 0;
  std::unique_ptr<tcc::typed::Program> program = tcc::analyze(diags, *module, {});
  if (!program || diags.hasErrors())
    return 0;
  mlir::MLIRContext context;
  context.disableMultithreading();
  mlir::OwningOpRef<mlir::ModuleOp> tile = tcc::generateTileModule(context, *program, diags);
  if (!tile && !diags.hasErrors()) {
    // MLIRGen failed and said nothing: a front-end bug, reported as a finding.
    std::fprintf(stderr, "frontend_fuzz: MLIRGen failed without a diagnostic\n");
    std::abort();
  }
  return 0;
}
