//===- Driver.cpp - The one place that strings the stages together -------===//

#include "compiler/Driver/Driver.h"

#include "compiler/Driver/Codegen.h"
#include "compiler/Driver/TuningTable.h"
#include "compiler/Driver/VerifyDiagnostics.h"
#include "compiler/Target/ArtifactWriter.h"
#include "compiler/Target/HeaderWriter.h"
#include "tcc/atomic_file.h"
#include "tcc/identifier.h"

#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Lexer.h"
#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Frontend/Parser.h"
#include "compiler/Frontend/Sema.h"
#include "compiler/Frontend/TypedAST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <unistd.h>

using namespace tcc;

namespace {
struct StageName {
  EmitStage stage;
  const char *name;
};
// In pipeline order; later layers append theirs (llvm, ptx, cubin, header).
const StageName kStages[] = {
    {EmitStage::AST, "ast"},
    {EmitStage::Tile, "tile"},
    {EmitStage::LLVM, "llvm"},
    {EmitStage::PTX, "ptx"},
    {EmitStage::Cubin, "cubin"},
    {EmitStage::Header, "header"},
};

/// Everything runs on a thread with a large stack: recursion in the front end
/// is bounded by explicit limits, and this makes those limits comfortably safe.
constexpr unsigned kCompilerStackBytes = 256u << 20;
} // namespace

std::optional<EmitStage> tcc::parseEmitStage(llvm::StringRef name) {
  for (const StageName &s : kStages)
    if (name == s.name)
      return s.stage;
  return std::nullopt;
}

llvm::StringRef tcc::emitStageName(EmitStage stage) {
  for (const StageName &s : kStages)
    if (s.stage == stage)
      return s.name;
  return "?";
}

std::vector<std::string> tcc::emitStageNames() {
  std::vector<std::string> names;
  for (const StageName &s : kStages)
    names.push_back(s.name);
  return names;
}

struct Driver::Impl {
  Impl(DriverOptions options, llvm::raw_ostream &errs)
      : options(std::move(options)), errs(errs), diags(sourceMgr, errs) {}

  DriverOptions options;
  llvm::raw_ostream &errs;
  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diags;
  unsigned mainBuffer = 0;
  std::unique_ptr<ast::Module> module;
  std::vector<std::unique_ptr<ast::Module>> defineModules;
  std::unique_ptr<typed::Program> program;
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> tile;
  bool loaded = false, loadFailed = false;
  bool analyzed = false;
  bool built = false;
  std::mutex reportedMutex;
  llvm::StringSet<> reported; // firstReport's keys
};

Driver::Driver(DriverOptions options) : Driver(std::move(options), llvm::errs()) {}

Driver::Driver(DriverOptions options, llvm::raw_ostream &diagnosticStream)
    : impl(std::make_unique<Impl>(std::move(options), diagnosticStream)) {}

Driver::~Driver() = default;

const DriverOptions &Driver::options() const { return impl->options; }
DiagnosticEngine &Driver::diagnostics() { return impl->diags; }
llvm::raw_ostream &Driver::diagnosticStream() { return impl->errs; }

bool Driver::firstReport(llvm::StringRef key) {
  std::lock_guard<std::mutex> lock(impl->reportedMutex);
  return impl->reported.insert(key).second;
}

mlir::MLIRContext &Driver::context() {
  if (!impl->context)
    impl->context = std::make_unique<mlir::MLIRContext>();
  return *impl->context;
}

bool Driver::loadInput() {
  if (impl->loaded)
    return !impl->loadFailed;
  impl->loaded = true;
  const std::string &path = impl->options.inputPath;
  if (impl->options.inputText) {
    impl->mainBuffer = impl->sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(*impl->options.inputText, path), llvm::SMLoc());
    return true;
  }
  // Read in chunks up to a bound: a kernel file is small, and /dev/zero or an endless pipe
  // must end in an error, not in memory exhaustion.
  constexpr size_t kMaxInputBytes = 64u << 20;
  int fd = 0;
  if (path != "-") {
    if (std::error_code ec = llvm::sys::fs::openFileForRead(path, fd)) {
      impl->diags.error("cannot read '" + path + "': " + ec.message());
      impl->loadFailed = true;
      return false;
    }
  }
  std::string text;
  char chunk[1 << 16];
  bool tooLarge = false, readError = false;
  while (true) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      readError = n < 0;
      break;
    }
    text.append(chunk, size_t(n));
    if (text.size() > kMaxInputBytes) {
      tooLarge = true;
      break;
    }
  }
  int savedErrno = errno;
  if (path != "-")
    ::close(fd);
  if (tooLarge || readError) {
    impl->diags.error("cannot read '" + path + "': " +
                      (tooLarge ? "larger than " + std::to_string(kMaxInputBytes >> 20) +
                                      " MiB, which no kernel file is"
                                : std::string(std::strerror(savedErrno))));
    impl->loadFailed = true;
    return false;
  }
  std::unique_ptr<llvm::MemoryBuffer> contents =
      llvm::MemoryBuffer::getMemBufferCopy(text, path == "-" ? "<stdin>" : path);
  impl->mainBuffer = impl->sourceMgr.AddNewSourceBuffer(std::move(contents), llvm::SMLoc());
  return true;
}

const typed::Program *Driver::analyze() {
  if (impl->analyzed)
    return impl->program.get();
  impl->analyzed = true;
  if (!loadInput())
    return nullptr;
  DiagnosticEngine &diags = impl->diags;

  Lexer lexer(diags, impl->mainBuffer);
  Parser parser(diags, lexer.lexAll());
  impl->module = parser.parseModule();

  // -D NAME=VALUE: VALUE is an expression in a buffer of its own, so that a
  // mistake in it is reported against the command line.
  SemaOptions semaOptions;
  semaOptions.kernelName = impl->options.kernelName;
  semaOptions.deviceAsserts = !impl->options.noDeviceAssert;
  semaOptions.autotuneConfig = impl->options.autotuneConfig;
  if (impl->options.codegen.numWarps)
    semaOptions.autotuneOverride = "--num-warps";
  else if (impl->options.codegen.numStages)
    semaOptions.autotuneOverride = "--num-stages";
  for (const std::string &d : impl->options.defines) {
    llvm::StringRef text(d);
    auto [name, value] = text.split('=');
    name = name.trim();
    if (!tcc::isIdentifier(name.str())) {
      diags.error("invalid -D '" + d + "': expected NAME=VALUE, such as -D BLOCK=512");
      continue;
    }
    if (!text.contains('='))
      value = "1";
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(value, "<-D " + name.str() + ">");
    unsigned id = impl->sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    Lexer defineLexer(diags, id);
    Parser defineParser(diags, defineLexer.lexAll());
    auto holder = std::make_unique<ast::Module>();
    const ast::Expr *expr = defineParser.parseStandaloneExpression(*holder);
    impl->defineModules.push_back(std::move(holder));
    if (!expr)
      continue;
    semaOptions.defines.push_back({name.str(), expr});
  }
  if (diags.hasErrors())
    return nullptr;
  impl->program = tcc::analyze(diags, *impl->module, semaOptions);
  return impl->program.get();
}

const typed::Autotune *Driver::autotune(llvm::StringRef kernel) {
  if (llvm::StringRef(impl->options.inputPath).ends_with(".mlir"))
    return nullptr;
  if (const typed::Program *program = analyze())
    for (const auto &k : program->kernels)
      if (k->name == kernel)
        return k->autotune.get();
  return nullptr;
}

mlir::ModuleOp Driver::buildTileModule() {
  if (impl->built)
    return impl->tile ? *impl->tile : mlir::ModuleOp();
  impl->built = true;
  const typed::Program *program = analyze();
  if (!program)
    return mlir::ModuleOp();
  impl->tile = generateTileModule(context(), *program, impl->diags);
  return impl->tile ? *impl->tile : mlir::ModuleOp();
}

namespace {
/// Writes `text` to `path`; a located-nowhere error naming `what` on failure.
bool writeTextFile(DiagnosticEngine &diags, const std::string &path, llvm::StringRef text,
                   llvm::StringRef what) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (!ec) {
    os << text;
    os.close();
    if (!os.has_error())
      return true;
    ec = os.error();
    os.clear_error();
  }
  diags.error("cannot write " + what + "'" + path + "': " + ec.message());
  return false;
}
} // namespace

bool Driver::writeOutput(llvm::StringRef text) {
  const std::string &path = impl->options.outputPath;
  if (impl->options.discardOutput)
    return true;
  if (path == "-") {
    llvm::outs() << text;
    llvm::outs().flush();
    return true;
  }
  return writeTextFile(impl->diags, path, text, "");
}

int Driver::runOnCurrentThread() {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (impl->options.codegen.checkBounds &&
      (impl->options.emit == EmitStage::AST || impl->options.emit == EmitStage::Tile))
    diagnostics().warning("--check-bounds does nothing with --emit=" +
                          emitStageName(impl->options.emit) +
                          ": the checks are added in the GPU pipeline (--emit=llvm|ptx|cubin|"
                          "header; tile-opt -tile-check-bounds shows them on tile IR)");
  if (!impl->options.tuningTable.empty() && impl->options.emit != EmitStage::Header &&
      impl->options.emit != EmitStage::Cubin &&
      !(impl->options.emit == EmitStage::PTX && impl->options.outputPath != "-")) {
    diagnostics().error("--tuning applies to --emit=header (the table is embedded) and "
                        "--emit=cubin (written beside the cubins as <kernel>.tuning.json)");
    return 1;
  }
  switch (impl->options.emit) {
  case EmitStage::AST: {
    const typed::Program *program = analyze();
    if (!program)
      return 1;
    typed::print(*program, impl->sourceMgr, os);
    break;
  }
  case EmitStage::Tile: {
    mlir::ModuleOp module = buildTileModule();
    if (!module)
      return 1;
    mlir::OpPrintingFlags flags;
    if (impl->options.debugLocations)
      flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
    module.print(os, flags);
    os << "\n";
    break;
  }
  case EmitStage::LLVM:
  case EmitStage::PTX:
  case EmitStage::Cubin:
  case EmitStage::Header: {
    const DriverOptions &o = impl->options;
    if (o.autotuneConfig < 0 && !llvm::StringRef(o.inputPath).ends_with(".mlir")) {
      const typed::Program *program = analyze();
      if (!program)
        return 1;
      // An artifact of an autotuned kernel holds its whole space; the other outputs show
      // the first configuration (as Sema elaborated it).
      bool artifact = o.emit == EmitStage::Cubin || o.emit == EmitStage::Header ||
                      (o.emit == EmitStage::PTX && o.outputPath != "-");
      for (const auto &k : program->kernels) {
        if (!k->autotune || !artifact)
          continue;
        if (program->kernels.size() > 1) {
          impl->diags.error(k->range, "'" + k->name + "' is autotuned: compile it alone "
                                      "(--kernel " + k->name + "); this file has " +
                                      std::to_string(program->kernels.size()) + " kernels");
          return 1;
        }
        return runAutotuneSpace(*k);
      }
    }
    if (!o.tuningTable.empty()) {
      impl->diags.error("--tuning: no kernel compiled here has a search space: a tuning table "
                        "is for the whole space of an @autotune kernel (not one configuration "
                        "pinned by --config, -D, --num-warps or --num-stages)");
      return 1;
    }
    return runCodegen(*this, impl->options.emit);
  }
  }
  os.flush();
  return writeOutput(text) ? 0 : 1;
}

namespace {
/// Configuration `index`'s output beside `path`: k.cubin -> k.c2.cubin.
std::string configPath(llvm::StringRef path, unsigned index) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  return (path.drop_back(ext.size()) + ".c" + llvm::Twine(index) + ext).str();
}

/// The first error a compilation reported, without its location: why it was dropped.
std::string firstError(llvm::StringRef log) {
  for (llvm::StringRef line : llvm::split(log, '\n')) {
    size_t at = line.find("error: ");
    if (at != llvm::StringRef::npos)
      return line.drop_front(at + 7).trim().str();
  }
  return log.trim().empty() ? "it failed without a message" : log.trim().str();
}
} // namespace

int Driver::runAutotuneSpace(const typed::Kernel &kernel) {
  const DriverOptions &o = impl->options;
  const typed::Autotune &space = *kernel.autotune;
  llvm::raw_ostream &errs = impl->errs;
  const bool header = o.emit == EmitStage::Header;
  if (o.emit == EmitStage::Cubin && o.outputPath == "-") {
    impl->diags.error("--emit=cubin needs -o FILE.cubin (the metadata JSON and the PTX are "
                      "written beside it)");
    return 1;
  }
  // A folder that is not there fails every configuration alike: say so once, before
  // compiling any (not as one "dropped" warning per configuration).
  if (o.outputPath != "-") {
    llvm::StringRef folder = llvm::sys::path::parent_path(o.outputPath);
    if (!folder.empty() && !llvm::sys::fs::is_directory(folder)) {
      impl->diags.error("cannot write '" + o.outputPath + "': the folder '" + folder.str() +
                        "' does not exist");
      return 1;
    }
  }
  // --tuning: the table is checked before anything is compiled, and its configurations'
  // descriptions once they are built.
  unsigned table = 0;
  std::string tableText;
  if (!o.tuningTable.empty()) {
    table = loadTuningTable(impl->diags, o.tuningTable);
    if (!table ||
        !checkTuningTable(impl->diags, table, kernel.name, space, nullptr, &tableText))
      return 1;
  }
  struct Member {
    unsigned index;
    std::string output, log;
    int code = 1;
    std::vector<KernelArtifact> variants;
  };
  std::vector<Member> members;
  for (const typed::AutotuneConfig &c : space.configs) {
    if (!c.prunedBy.empty()) {
      if (o.codegen.verbose)
        errs << "tcc: " << kernel.name << " configuration " << c.index << " (" << c.description
             << ") pruned: " << c.prunedBy << " is false\n";
      continue;
    }
    // The first configuration kept is the output itself, the others sit beside it.
    members.push_back({c.index,
                       header ? std::string("-")
                       : members.empty() ? o.outputPath
                                         : configPath(o.outputPath, c.index),
                       "", 1, {}});
  }
  {
    llvm::DefaultThreadPool pool(o.codegen.jobs ? llvm::hardware_concurrency(o.codegen.jobs)
                                                : llvm::hardware_concurrency());
    for (Member &m : members)
      pool.async([this, &m] {
        DriverOptions child = impl->options;
        child.autotuneConfig = int(m.index);
        child.outputPath = m.output;
        child.codegen.depfile.clear();
        child.tuningTable.clear();
        child.collectVariants = &m.variants;
        child.codegen.jobs = 1; // its images one after the other: the configurations fill -j
        llvm::raw_string_ostream log(m.log);
        m.code = Driver(std::move(child), log).run();
      });
    pool.wait();
  }
  unsigned built = 0;
  for (const Member &m : members) {
    const typed::AutotuneConfig &c = space.configs[m.index];
    if (m.code == 0) {
      ++built;
      errs << m.log; // --verbose lines, warnings
      continue;
    }
    errs << "tcc: warning: " << kernel.name << " configuration " << m.index << " ("
         << c.description << ") dropped: " << firstError(m.log) << "\n";
    if (o.codegen.verbose)
      errs << m.log;
  }
  if (!built) {
    impl->diags.error(kernel.range, "no configuration of '" + kernel.name +
                                        "' could be built; the first one's messages follow");
    if (!members.empty())
      errs << members.front().log;
    return 1;
  }
  if (o.codegen.verbose)
    errs << "tcc: " << kernel.name << ": " << built << " of " << space.configs.size()
         << " configurations built (space " << space.space << ")\n";
  if (table) {
    std::map<unsigned, std::string> descriptions;
    for (const Member &m : members)
      if (m.code == 0 && !m.variants.empty())
        descriptions[m.index] = configurationString(m.variants.front());
    if (!checkTuningTable(impl->diags, table, kernel.name, space, &descriptions, &tableText))
      return 1;
  }
  if (header) {
    std::vector<std::vector<KernelArtifact>> configurations;
    for (Member &m : members)
      if (m.code == 0)
        configurations.push_back(std::move(m.variants));
    return writeAutotunedHeader(*this, configurations, tableText);
  }
  if (table) {
    // Beside the artifact, where tcc::Library(folder) finds it.
    llvm::SmallString<256> path(llvm::sys::path::parent_path(o.outputPath));
    llvm::sys::path::append(path, kernel.name + ".tuning.json");
    std::string error;
    if (!writeFileAtomically(path.str().str(), tableText, &error)) {
      impl->diags.error("cannot write the tuning table '" + path.str().str() + "': " + error);
      return 1;
    }
  }
  return 0;
}

namespace {
/// `path` with Make's special characters escaped, for a depfile.
std::string makeEscape(llvm::StringRef path) {
  std::string r;
  for (char c : path) {
    if (c == ' ' || c == '#' || c == '\\')
      r += '\\';
    if (c == '$')
      r += '$';
    r += c;
  }
  return r;
}
} // namespace

/// --depfile: "OUTPUT: INPUT" in Make syntax. The language has no includes, so the .tile
/// file is the one input; written only after a successful compilation.
bool Driver::writeDepfile() {
  const std::string &path = impl->options.codegen.depfile;
  if (path.empty())
    return true;
  std::string text = makeEscape(impl->options.outputPath) + ":";
  if (impl->options.inputPath != "-")
    text += " " + makeEscape(impl->options.inputPath);
  text += "\n";
  return writeTextFile(impl->diags, path, text, "the depfile ");
}

int Driver::run() {
  if (impl->options.verifyDiagnostics)
    return verifyDiagnostics(impl->options, impl->errs);
  int code = 1;
  llvm::thread worker(std::optional<unsigned>(kCompilerStackBytes), [&] {
    code = runOnCurrentThread();
    if (code == 0 && !writeDepfile())
      code = 1;
  });
  worker.join();
  impl->errs.flush();
  return code;
}
