//===- Run.cpp - `tcc run`: compile to tile IR, then execute --------------===//

#include "compiler/Driver/Run.h"

#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Interpreter/RunCommand.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

using namespace tcc;

namespace {
/// The request for the interpreter; false (after reporting) on a malformed option.
bool makeRequest(const DriverOptions &compile, const RunCommandOptions &run,
                 interp::RunRequest *request) {
  request->kernel = compile.kernelName;
  request->args = run.args;
  request->seed = run.seed;
  request->print = run.print;
  request->printNothing = run.noPrint;
  request->printLimit = run.printLimit;
  request->uninit = run.allowUninit ? interp::UninitPolicy::Warn : interp::UninitPolicy::Error;
  request->verbose = run.verbose;
  if (!run.grid.empty()) {
    std::array<int64_t, 3> grid;
    std::string error;
    if (!interp::parseGrid(run.grid, &grid, &error)) {
      llvm::errs() << "tcc: error: " << error << "\n";
      return false;
    }
    request->grid = grid;
  }
  for (const std::string &s : run.save) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size()) {
      llvm::errs() << "tcc: error: --save '" << s << "': expected NAME=PATH.npy\n";
      return false;
    }
    request->save.push_back({s.substr(0, eq), s.substr(eq + 1)});
  }
  return true;
}
} // namespace

static int runKernelOnCurrentThread(const DriverOptions &compile, const RunCommandOptions &run) {
  if (!run.interpret) {
    llvm::errs() << "tcc: error: tcc run needs --interpret (kernels run on the CPU); GPU launches "
                    "go through the runtime (libtccrt)\n";
    return 1;
  }
  interp::RunRequest request;
  if (!makeRequest(compile, run, &request))
    return 1;

  // Tile IR as it is: hand-written or saved from `tcc --emit=tile`.
  if (llvm::StringRef(compile.inputPath).ends_with(".mlir")) {
    mlir::MLIRContext context;
    loadFrontendDialects(context);
    llvm::SourceMgr sourceMgr;
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, llvm::errs());
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceFile<mlir::ModuleOp>(compile.inputPath, sourceMgr, &context);
    if (!module)
      return 1;
    return interp::runInterpreted(*module, request, llvm::outs(), llvm::errs());
  }

  Driver driver(compile);
  mlir::ModuleOp module = driver.buildTileModule();
  if (!module)
    return 1;
  return interp::runInterpreted(module, request, llvm::outs(), llvm::errs());
}

int tcc::runKernel(const DriverOptions &compile, const RunCommandOptions &run) {
  // Like Driver::run: the front end runs on a thread with a large stack.
  int code = 1;
  llvm::thread worker(std::optional<unsigned>(256u << 20),
                      [&] { code = runKernelOnCurrentThread(compile, run); });
  worker.join();
  llvm::outs().flush();
  llvm::errs().flush();
  return code;
}
