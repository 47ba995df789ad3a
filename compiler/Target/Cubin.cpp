//===- Cubin.cpp - PTX to cubin through ptxas ------------------------------===//

#include "Cubin.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace tcc {

std::string findPtxas() {
  // $TCC_PTXAS names the ptxas to use, and only that one (a path that is not executable
  // means none: how the tests check what tcc does on a machine without the toolkit).
  if (const char *forced = std::getenv("TCC_PTXAS"); forced && *forced)
    return llvm::sys::fs::can_execute(forced) ? std::string(forced) : std::string();
  llvm::SmallVector<std::string> candidates;
  if (const char *cudaHome = std::getenv("CUDA_HOME"); cudaHome && *cudaHome)
    candidates.push_back(std::string(cudaHome) + "/bin/ptxas");
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  for (const std::string &c : candidates)
    if (llvm::sys::fs::can_execute(c))
      return c;
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  return "";
}

std::map<std::string, PtxasFunctionInfo> parsePtxasLog(const std::string &log) {
  std::map<std::string, PtxasFunctionInfo> result;
  PtxasFunctionInfo *current = nullptr;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(log).split(lines, '\n');
  // The number just before `what` on this line ("14 registers", "0 bytes spill stores").
  auto numberBefore = [](llvm::StringRef line, llvm::StringRef what, int64_t *out) {
    size_t at = line.find(what);
    if (at == llvm::StringRef::npos)
      return;
    llvm::StringRef head = line.take_front(at).rtrim();
    size_t start = head.find_last_not_of("0123456789");
    start = start == llvm::StringRef::npos ? 0 : start + 1;
    int64_t v = 0;
    if (!head.drop_front(start).getAsInteger(10, v))
      *out = v;
  };
  for (llvm::StringRef line : lines) {
    size_t at = line.find("Compiling entry function '");
    if (at != llvm::StringRef::npos) {
      llvm::StringRef rest = line.drop_front(at + 26);
      current = &result[rest.take_until([](char c) { return c == '\''; }).str()];
      continue;
    }
    if (!current)
      continue;
    int64_t registers = -1;
    numberBefore(line, " registers", &registers);
    if (registers >= 0)
      current->registers = int(registers);
    numberBefore(line, " bytes stack frame", &current->stackBytes);
    numberBefore(line, " bytes spill stores", &current->spillStores);
    numberBefore(line, " bytes spill loads", &current->spillLoads);
    numberBefore(line, " bytes smem", &current->staticSharedBytes);
  }
  return result;
}

namespace {
/// A temporary file removed when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

std::string readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}
} // namespace

bool assembleCubin(const std::string &ptx, const CubinOptions &options, std::string *cubin,
                   std::string *error, std::string *log) {
  std::string ptxas = findPtxas();
  if (ptxas.empty()) {
    *error = "ptxas not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH): "
             "install the CUDA toolkit or set CUDA_HOME to emit a cubin";
    return false;
  }
  TempFile input, output, messages;
  if (llvm::sys::fs::createTemporaryFile("tcc", "ptx", input.path) ||
      llvm::sys::fs::createTemporaryFile("tcc", "cubin", output.path) ||
      llvm::sys::fs::createTemporaryFile("tcc", "log", messages.path)) {
    *error = "cannot create temporary files for ptxas";
    return false;
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream stream(input.path, ec);
    if (ec) {
      *error = "cannot write " + input.path.str().str() + ": " + ec.message();
      return false;
    }
    stream << ptx;
  }
  std::string archFlag = "-arch=" + options.arch;
  std::string optFlag = "-O" + std::to_string(std::min(options.optLevel, 3u));
  llvm::SmallVector<llvm::StringRef> args = {ptxas, archFlag, optFlag};
  if (options.verbose)
    args.push_back("-v");
  args.append({input.path, "-o", output.path});
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(messages.path),
                                                llvm::StringRef(messages.path)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &execError);
  std::string text = readFile(messages.path);
  if (log)
    *log = text;
  if (rc != 0) {
    *error = "ptxas " + archFlag + " failed" + (execError.empty() ? "" : " (" + execError + ")") +
             (text.empty() ? std::string() : ":\n" + text);
    return false;
  }
  *cubin = readFile(output.path);
  if (cubin->empty()) {
    *error = "ptxas produced an empty cubin";
    return false;
  }
  return true;
}

} // namespace tcc
