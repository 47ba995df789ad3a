// libFuzzer target: bytes as a .tile file through the whole compiler to PTX, the in-process
// path of `tcc --emit=ptx -o FILE.ptx` (Driver, front end, tile GPU pipeline, shared-memory
// allocation, convert-tile-to-nvvm, LLVM IR, LLVM's optimisation pipeline, NVPTX, and the
// artifact writer's metadata). An input whose first byte is below 0x10 chooses the target
// with it (bits 0-1: sm_90, sm_80, sm_90a, sm_86; bits 2-3: --num-warps 0 (the kernel's),
// 1, 8, 32); the rest is the source.
//
// A finding is a crash, a sanitizer report, a timeout (-timeout), or an internal failure:
// the front end failing without a diagnostic, or the back half failing with anything but
// the few errors it reports to users about their program (too much shared memory, a tile
// too large for the registers, an operation the target lacks: kUserErrors). A pass that
// fails verification, "internal compiler error", "lowering to the GPU failed" after an
// unlisted error, an LLVM IR or NVPTX failure all abort here. With TCC_FUZZ_PTXAS=PATH,
// PTX that tcc wrote with success is assembled by that ptxas, and a rejection is a finding.
#include "compiler/Driver/Codegen.h"
#include "compiler/Driver/Driver.h"
#include "compiler/Frontend/Diagnostics.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

namespace {

/// What the back half may legitimately report about a program the front end accepted.
const char *const kUserErrors[] = {
    "bytes of shared memory, more than the",    // tile-allocate-shared
    "registers in each of the",                  // convert-tile-to-nvvm: tile too large
    "atomic_add",                                // old values of replicated atomics
    "the old values of an atomic on a tile whose layout replicates", // (every atomic's)
    "is a wgmma, which",                         // wgmma before sm_90a
    "needs sm_80 or later",                      // mma.sync, cp.async on older targets
    "needs libdevice",                           // f64 transcendental functions
    "is a function of CUDA's libdevice, and tcc found no", // libdevice.NAME without the file
    "has no kernel to compile",                  // a file of helpers only
    "lowering to the GPU failed (see the errors above)", // after one of the above
};

std::string workDir;

/// The lines of `log` from `from` on that report an error; each must be a user error.
std::optional<std::string> unexpectedError(const std::string &log, size_t from) {
  llvm::StringRef rest = llvm::StringRef(log).drop_front(from);
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    rest = tail;
    if (!line.contains("error: "))
      continue;
    bool known = false;
    for (const char *user : kUserErrors)
      known = known || line.contains(user);
    if (!known)
      return line.str();
  }
  return std::nullopt;
}

[[noreturn]] void finding(const char *what, const std::string &log) {
  std::fprintf(stderr, "pipeline_fuzz: %s\n--- diagnostics ---\n%s\n-------------------\n", what,
               log.c_str());
  std::abort();
}

void checkWithPtxas(const std::string &ptxas, const std::string &ptxPath,
                    const std::string &arch) {
  std::string logPath = workDir + "/ptxas.log";
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(logPath),
                                                llvm::StringRef(logPath)};
  std::string archFlag = "-arch=" + arch;
  llvm::StringRef args[] = {ptxas, archFlag, ptxPath, "-o", "/dev/null"};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, /*SecondsToWait=*/60,
                                     0, &error);
  if (rc == 0)
    return;
  std::ifstream in(logPath);
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  finding(("ptxas rejects the PTX tcc wrote with success (exit " + std::to_string(rc) + " " +
           error + ")")
              .c_str(),
          log);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("tcc-fuzz-pipeline", dir)) {
    std::fprintf(stderr, "pipeline_fuzz: cannot create a temporary directory\n");
    std::abort();
  }
  workDir = dir.str().str();
  std::atexit([] {
    for (const char *f : {"/fuzz.tile", "/fuzz.ptx", "/fuzz.json", "/ptxas.log"})
      llvm::sys::fs::remove(workDir + f);
    llvm::sys::fs::remove(workDir);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Kernels are small; a long input only slows the search down (and a huge source could
  // legitimately take long to compile).
  if (size > 8192)
    return 0;
  static const char *const kArchs[] = {"sm_90", "sm_80", "sm_90a", "sm_86"};
  static const unsigned kWarps[] = {0, 1, 8, 32};
  std::string arch = "sm_90";
  unsigned numWarps = 0;
  if (size > 0 && data[0] < 0x10) {
    arch = kArchs[data[0] & 3];
    numWarps = kWarps[(data[0] >> 2) & 3];
    ++data;
    --size;
  }
  std::string source = workDir + "/fuzz.tile", ptx = workDir + "/fuzz.ptx";
  {
    std::ofstream out(source, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), std::streamsize(size));
  }
  llvm::sys::fs::remove(ptx);

  tcc::DriverOptions options;
  options.inputPath = source;
  options.outputPath = ptx;
  options.emit = tcc::EmitStage::PTX;
  options.codegen.archs = {arch};
  options.codegen.numWarps = numWarps;
  options.codegen.recoverCrashes = false; // a crash in a pass must reach libFuzzer
  std::string log;
  llvm::raw_string_ostream diagnostics(log);
  tcc::Driver driver(std::move(options), diagnostics);
  int code = 1;
  bool frontEndFailed = false;
  size_t frontEndLog = 0;
  // As tcc does: the compiler runs on a thread with a large stack (Driver::run).
  llvm::thread worker(std::optional<unsigned>(256u << 20), [&] {
    if (!driver.buildTileModule()) {
      frontEndFailed = true;
      return;
    }
    frontEndLog = log.size(); // warnings of the front end before this
    code = tcc::runCodegen(driver, tcc::EmitStage::PTX);
  });
  worker.join();
  diagnostics.flush();
  if (frontEndFailed) {
    if (!driver.diagnostics().hasErrors())
      finding("the front end failed without a diagnostic", log);
    return 0;
  }
  if (code != 0) {
    if (std::optional<std::string> line = unexpectedError(log, frontEndLog))
      finding(("internal error in the back half: " + *line).c_str(), log);
    if (log.find("error: ", frontEndLog) == std::string::npos)
      finding("the back half failed without a diagnostic", log);
    return 0;
  }
  if (!llvm::sys::fs::exists(ptx))
    finding("tcc succeeded without writing the PTX", log);
  if (const char *ptxas = std::getenv("TCC_FUZZ_PTXAS"); ptxas && *ptxas)
    checkWithPtxas(ptxas, ptx, arch);
  return 0;
}
