//===- Doctor.cpp - tcc doctor -------------------------------------------===//
//
// The compiler side goes through the same Driver as `tcc K.tile --emit=...`; the GPU side
// through the runtime (libtccrt), which loads the CUDA driver at run time, so that this
// works, and says what it finds, on a machine without a GPU or a driver.
//
//===----------------------------------------------------------------------===//

#include "Doctor.h"

#include "VerifyKernel.h" // generated: kVerifyKernelSource, lang-examples/vector_copy.tile
#include "compiler/Driver/Driver.h"
#include "compiler/Target/Cubin.h"


#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace tcc {
namespace {

struct Report {
  llvm::raw_ostream &os = llvm::outs();
  int problems = 0;
  void line(const std::string &what, const std::string &value) {
    os << "  " << what;
    for (size_t i = what.size(); i < 16; ++i)
      os << ' ';
    os << value << "\n";
  }
  void problem(const std::string &what, const std::string &value) {
    line(what, "PROBLEM: " + value);
    ++problems;
  }
};

/// The first line of `ptxas --version` that says which release it is.
std::string ptxasVersion(const std::string &ptxas) {
  llvm::SmallString<128> out;
  if (llvm::sys::fs::createTemporaryFile("tcc-doctor", "txt", out))
    return "?";
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out),
                                                llvm::StringRef(out)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, {ptxas, "--version"}, std::nullopt, redirects,
                                     /*SecondsToWait=*/30, 0, &error);
  std::ifstream in(out.str().str());
  std::string text, l;
  while (std::getline(in, l))
    if (l.find("release") != std::string::npos)
      text = l;
  llvm::sys::fs::remove(out);
  if (rc != 0)
    return "does not run (" + (error.empty() ? "exit " + std::to_string(rc) : error) + ")";
  return text.empty() ? "unknown version" : text;
}

/// Compiles the verification kernel into `dir` (a cubin for sm_90 and sm_80, or PTX only
/// without ptxas); false with the diagnostics in *log on failure.
bool compileVerifyKernel(const std::string &dir, bool cubin, std::string *log) {
  std::string src = dir + "/vector_copy.tile";
  {
    std::ofstream f(src);
    f << kVerifyKernelSource;
  }
  DriverOptions options;
  options.inputPath = src;
  options.emit = cubin ? EmitStage::Cubin : EmitStage::PTX;
  options.outputPath = dir + (cubin ? "/vector_copy.cubin" : "/vector_copy.ptx");
  options.codegen.archs = {cubin ? "sm_90,sm_80" : "sm_80"};
  llvm::raw_string_ostream diagnostics(*log);
  Driver driver(std::move(options), diagnostics);
  return driver.run() == 0;
}


} // namespace

int runDoctor(bool verbose) {
  Report r;
  r.os << "tcc doctor\n";
  r.line("tcc", "0.1");
  r.line("LLVM/MLIR", LLVM_VERSION_STRING);
  std::string ptxas = findPtxas();
  if (ptxas.empty())
    r.line("ptxas", "not found ($TCC_PTXAS, $CUDA_HOME/bin, /usr/local/cuda/bin, PATH): "
                    "--emit=cubin is unavailable; --emit=ptx -o and --emit=header --embed=ptx "
                    "work (the driver JIT-compiles PTX)");
  else
    r.line("ptxas", ptxas + " (" + ptxasVersion(ptxas) + ")");

  // The compiler side: the verification kernel to PTX (and cubins).
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("tcc-doctor", dir)) {
    r.problem("compiler", "cannot create a temporary directory");
    r.os << "tcc doctor: PROBLEM: " << r.problems << " check(s) failed\n";
    return 1;
  }
  std::string log;
  bool cubin = !ptxas.empty();
  bool compiled = compileVerifyKernel(dir.str().str(), cubin, &log);
  if (compiled)
    r.line("compiler", std::string("compiles the verification kernel (vector copy) to ") +
                           (cubin ? "cubins for sm_90 and sm_80" : "PTX for sm_80"));
  else
    r.problem("compiler", "the verification kernel does not compile:\n" + log);

  // The GPU side.
  int gpus = 0, passed = 0;
  GpuReport gpu = checkGpus(compiled ? dir.str().str() : std::string());
  if (!gpu.runtime) {
    r.line("GPUs", "not checked: this tcc was built without the runtime (TCC_ENABLE_RUNTIME=OFF)");
  } else if (!gpu.driverOk) {
    r.line("CUDA driver", "none usable: " + gpu.why);
    r.line("GPUs", "none: kernels cannot run here (compiling still works)");
  } else {
    r.line("CUDA driver", std::to_string(gpu.driverVersion / 1000) + "." +
                              std::to_string(gpu.driverVersion % 1000 / 10));
    if (!gpu.why.empty())
      r.problem("runtime", gpu.why);
    gpus = int(gpu.gpus.size());
    for (size_t i = 0; i < gpu.gpus.size(); ++i) {
      const GpuReport::Gpu &g = gpu.gpus[i];
      int cc = g.computeCapability;
      std::string arch = "sm_" + std::to_string(cc);
      std::string runs = cc / 10 == 9 ? "the default --arch sm_90 runs here as a cubin"
                         : cc > 90   ? "the default --arch sm_90 runs here from its PTX (JIT)"
                                     : "the default --arch sm_90 does not run here: use --arch " +
                                           (cc >= 80 ? arch : std::string("sm_80 or newer"));
      r.line("GPU " + std::to_string(i), g.name + ", " + arch + ", " +
                                             std::to_string(g.totalMemory >> 20) + " MiB, " +
                                             std::to_string(g.smCount) + " SMs; " + runs);
      if (!g.ran)
        continue;
      if (g.error.empty()) {
        ++passed;
        r.line("", "verification kernel: passed (" + std::to_string(g.elements) +
                       " floats copied and compared)");
      } else {
        r.problem("", "verification kernel: " + g.error);
      }
    }
    if (gpus == 0)
      r.line("GPUs", "none: kernels cannot run here (compiling still works)");
  }
  if (!verbose)
    llvm::sys::fs::remove_directories(dir);
  else
    r.line("artifacts", dir.str().str());

  if (r.problems) {
    r.os << "tcc doctor: PROBLEM: " << r.problems << " check(s) failed (see above)\n";
    return 1;
  }
  if (gpus == 0)
    r.os << "tcc doctor: OK: the compiler works; no GPU here, so nothing was run\n";
  else
    r.os << "tcc doctor: OK: the compiler works and " << passed << " of " << gpus
         << " GPU(s) ran the verification kernel correctly\n";
  return 0;
}

} // namespace tcc
