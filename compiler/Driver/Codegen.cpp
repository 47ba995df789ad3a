//===- Codegen.cpp - tile IR to LLVM IR, PTX, cubin and header ------------===//

#include "compiler/Driver/Codegen.h"

#include "compiler/Conversion/Passes.h"
#include "compiler/Driver/Driver.h"
#include "compiler/Frontend/Autotune.h"
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Target/ArtifactWriter.h"
#include "compiler/Target/Cubin.h"
#include "compiler/Target/HeaderWriter.h"
#include "compiler/Target/ImagePlan.h"
#include "compiler/Target/KernelDescription.h"
#include "compiler/Target/Libdevice.h"
#include "compiler/Target/Occupancy.h"
#include "compiler/Target/PtxEmitter.h"
#include "compiler/Transforms/Passes.h"
#include "compiler/Transforms/Pipeline.h"
#include "compiler/Transforms/SpecializeArguments.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <map>
#include <optional>

using namespace mlir;

namespace tcc {
namespace {

constexpr const char *kCompilerName = "tcc 0.1";

/// What one compilation assumes about its arguments (--specialize, --variants=auto):
/// compiler/Transforms/SpecializeArguments.h.
using Assumptions = ArgumentAssumptions;

SmallVector<func::FuncOp> kernelsOf(ModuleOp module) {
  SmallVector<func::FuncOp> kernels;
  for (auto func : module.getOps<func::FuncOp>())
    if (tile::isKernel(func))
      kernels.push_back(func);
  return kernels;
}

/// Whether `kernel` holds a tile.dot (such kernels get their own schedule and sm_90a images).
bool hasDot(func::FuncOp kernel) {
  return kernel.walk([](tile::DotOp) { return WalkResult::interrupt(); }).wasInterrupted();
}

/// --specialize NAME=D|NAME=eq1[,...] entries.
bool parseSpecializations(const CodegenOptions &options, Assumptions *out,
                          DiagnosticEngine &diags) {
  std::string error;
  if (parseArgumentAssumptions(options.specialize, "--specialize", out, &error))
    return true;
  diags.error(error);
  return false;
}

/// The assumptions each argument of `kernel` is compiled under: `all` (--specialize-all:
/// pointers 16-byte aligned, i32/i64 divisible by 16), overridden by `requested`.
bool resolveSpecializations(func::FuncOp kernel, const Assumptions &requested, bool all,
                            Assumptions *resolved, DiagnosticEngine &diags) {
  std::string error;
  if (resolveArgumentAssumptions(kernel, requested, all, "--specialize", resolved, &error))
    return true;
  diags.error(error);
  return false;
}

/// What one compilation of the module produced.
struct Compiled {
  std::string arch; // the target it was compiled for
  /// The kernels to compile (the others are dropped from the module); empty: all.
  std::vector<std::string> only;
  std::string llvmIR, ptx, cubin;
  struct Launch {
    int64_t sharedBytes = 0;
    int numWarps = 4;
    int producerWarps = 0;   // a warp-specialised kernel's producer warpgroup
    int threadsPerWarp = 32; // the target's (#tile.target)
    bool hasPtxasInfo = false;
    tcc::PtxasFunctionInfo ptxas;
    int unchecked = 0; // --check-bounds: accesses tile-check-bounds could not trace
    /// The TMA tensor maps the pipeline gave it (hidden parameters, tile.tensormaps).
    std::vector<tcc::KernelTensorMap> tensorMaps;
    /// The PTX is in NVPTX's register-pressure order (chooseSchedule).
    bool pressureSchedule = false;
    /// tile-persistent made it a loop over its tiles (`tile.persistent`).
    bool persistent = false;
    /// Programs per cluster (tile-pipeline's multicast: 2; `tile.cluster_size`).
    int64_t clusterSize = 1;
    /// tile-split-k split its K loop over the cluster's programs (`tile.split_k`).
    bool splitK = false;
    /// The grid the pipeline left (tile-persistent launches num_sms * occupancy programs);
    /// empty: the kernel's.
    std::vector<std::string> grid;
  };
  std::map<std::string, Launch> kernels; // by kernel name
};

/// One image of an artifact as planned (tcc::planImages: its kernels, architecture and
/// file-name suffix), the assumptions each of its kernels is compiled under, and what the
/// compilation produced.
struct ImageJob {
  tcc::PlannedImage plan;
  std::map<std::string, Assumptions> assumptions;
  Compiled compiled;
};

/// A compilation lowered to LLVM IR (Codegen::lower), waiting for LLVM's optimisation
/// pipeline, NVPTX code generation and ptxas (Codegen::finish). That half touches neither
/// MLIR nor the diagnostics, so the images of an artifact run it on several threads: it is
/// most of a compilation (six images of matmul: 0.1 s of MLIR passes against 0.8 s of LLVM
/// and ptxas, half of it ptxas starting up once per image).
struct PendingImage {
  std::unique_ptr<llvm::LLVMContext> context; // before `module`: destroyed after it
  std::unique_ptr<llvm::Module> module;
  PtxOptions ptxOptions;
  /// The last stage to run: LLVM (the optimised IR), PTX or Cubin.
  EmitStage stop = EmitStage::Cubin;
  /// --schedule=auto may generate the code a second time (chooseSchedule).
  bool mayReschedule = false;
  /// Set by finish: what failed, and ptxas -v's report for --ptxas-verbose.
  std::string error, ptxasLog;
};

/// A C++ identifier from `text`: other characters become '_', a leading digit gets one.
std::string identifierFrom(StringRef text) {
  std::string id;
  for (char c : text)
    id += llvm::isAlnum(c) ? c : '_';
  if (id.empty() || llvm::isDigit(id[0]))
    id = "_" + id;
  return id;
}

/// 32-bit FNV-1a, for the default namespace.
uint32_t fnv1a(StringRef text) {
  uint32_t h = 2166136261u;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}

/// Knows which pass runs on which operation, so that a pass that crashes, or fails without
/// saying why, is reported as a located error naming it.
class PassWatch : public PassInstrumentation {
public:
  explicit PassWatch(const unsigned &errors) : errors(errors) {}
  void runBeforePass(Pass *pass, Operation *op) override {
    current = pass->getArgument().empty() ? pass->getName().str() : pass->getArgument().str();
    loc = op->getLoc();
    errorsBefore = errors;
    // For the test of this very path (test/Target/internal-error.test).
    if (const char *crash = std::getenv("TCC_DEBUG_CRASH_IN_PASS"); crash && current == crash)
      std::raise(SIGABRT); // as an assert would; caught like any crash (ASan leaves SIGABRT alone)
  }
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    if (errors == errorsBefore)
      op->emitError() << "internal compiler error: pass '" << current
                      << "' failed without a diagnostic; please report it with the input file";
  }
  const std::string &pass() const { return current; }
  Location location(MLIRContext *context) const {
    return loc ? *loc : Location(UnknownLoc::get(context));
  }

private:
  const unsigned &errors;
  unsigned errorsBefore = 0;
  std::string current = "?";
  std::optional<Location> loc;
};

class Codegen {
public:
  Codegen(Driver &driver, EmitStage stage)
      : driver(driver), options(driver.options()), codegen(driver.options().codegen),
        diags(driver.diagnostics()), stage(stage) {}

  int run();
  /// writeAutotunedHeader (Codegen.h).
  int writeTunedHeader(const std::vector<std::vector<tcc::KernelArtifact>> &configurations,
                       const std::string &table);

private:
  ModuleOp loadModule();
  bool compile(ModuleOp tileModule, const std::map<std::string, Assumptions> &perKernel,
               Compiled *result);
  /// The first half of a compilation, on the thread that owns the MLIR context: tile IR to
  /// LLVM IR (errors reported). The second, `finish`, may run on any thread.
  bool lower(ModuleOp tileModule, const std::map<std::string, Assumptions> &perKernel,
             Compiled *result, TimingScope &scope, PendingImage *pending);
  bool finish(PendingImage &pending, Compiled *result, TimingScope &scope) const;
  bool finishStages(PendingImage &pending, Compiled *result, TimingScope &scope) const;
  bool chooseSchedule(llvm::Module &spare, const PtxOptions &ptxOptions,
                      const CubinOptions &cubinOptions, Compiled *result,
                      std::map<std::string, tcc::PtxasFunctionInfo> *infos, std::string *log,
                      TimingScope &scope, std::string *error) const;
  tcc::KernelArtifact describe(func::FuncOp kernel, const Assumptions &assumptions,
                               const Compiled &compiled);
  bool writeText(StringRef text);
  bool checkArchs();
  int runArtifacts(ModuleOp module, ArrayRef<func::FuncOp> kernels,
                   std::map<std::string, Assumptions> &specialised);
  std::string defaultNamespace() const;
  std::string configurationText() const;
  /// What every header of this build says of itself: source, options, namespace.
  tcc::HeaderOptions headerOptions() const;

  Driver &driver;
  const DriverOptions &options;
  const CodegenOptions &codegen;
  DiagnosticEngine &diags;
  EmitStage stage;
  std::vector<std::string> archs; // --arch, split at commas; sm_90 when none
  bool autoVariants = false;      // --variants=auto, given or by default
  std::string tableText;          // an autotuned header's tuning table (seeds the namespace)
  OwningOpRef<ModuleOp> parsed; // tile IR read from a .mlir input
  // --time-passes: a tree of wall times printed on stderr when the Codegen is destroyed
  // (the root scope first, then the manager).
  DefaultTimingManager timing;
  TimingScope rootScope;
};

ModuleOp Codegen::loadModule() {
  if (!StringRef(options.inputPath).ends_with(".mlir"))
    return driver.buildTileModule();
  MLIRContext &context = driver.context();
  loadFrontendDialects(context);
  SourceMgrDiagnosticHandler handler(diags.getSourceMgr(), &context, driver.diagnosticStream());
  parsed = parseSourceFile<ModuleOp>(options.inputPath, diags.getSourceMgr(), &context);
  if (!parsed)
    diags.error("cannot parse tile IR from '" + options.inputPath + "'");
  return parsed ? *parsed : ModuleOp();
}

bool Codegen::compile(ModuleOp tileModule,
                      const std::map<std::string, Assumptions> &perKernel, Compiled *result) {
  if (result->arch.empty())
    result->arch = archs.front();
  TimingScope scope = rootScope.nest("compile");
  PendingImage pending;
  if (!lower(tileModule, perKernel, result, scope, &pending))
    return false;
  if (!finish(pending, result, scope)) {
    diags.error(pending.error);
    return false;
  }
  if (codegen.ptxasVerbose)
    driver.diagnosticStream() << pending.ptxasLog;
  return true;
}

bool Codegen::lower(ModuleOp tileModule, const std::map<std::string, Assumptions> &perKernel,
                    Compiled *result, TimingScope &scope, PendingImage *pending) {
  MLIRContext *context = tileModule.getContext();
  OwningOpRef<ModuleOp> module = tileModule.clone();
  // The one description of the target the passes and the lowering read.
  (*module)->setAttr(tile::kTargetAttrName, tile::getTargetFor(context, result->arch));
  if (!result->only.empty())
    for (func::FuncOp kernel : kernelsOf(*module))
      if (!llvm::is_contained(result->only, kernel.getName().str()))
        kernel.erase();
  // A module with a dot in any kernel is generated in one order (chooseSchedule).
  bool anyDot = llvm::any_of(kernelsOf(*module), [](func::FuncOp k) { return hasDot(k); });
  for (func::FuncOp kernel : kernelsOf(*module)) {
    if (codegen.numStages)
      kernel->setAttr(tile::kNumStagesAttrName,
                      IntegerAttr::get(IntegerType::get(context, 32), codegen.numStages));
  }

  PassManager pm(context);
  if (codegen.printIRAfterAll) {
    context->disableMultithreading();
    // To the driver's stream: an @autotune space's configurations compile at once, each
    // into its own log, printed in order once all are done (on stderr, they interleaved).
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, driver.diagnosticStream());
  }
  // The variant's argument assumptions, one tile-specialize-arguments per kernel.
  for (func::FuncOp kernel : kernelsOf(*module))
    if (auto it = perKernel.find(kernel.getName().str());
        it != perKernel.end() && !it->second.empty()) {
      TileSpecializeArgumentsOptions specialise;
      specialise.kernel = kernel.getName().str();
      for (const std::string &entry : formatArgumentAssumptions(it->second))
        specialise.assume.push_back(entry);
      pm.addPass(createTileSpecializeArguments(specialise));
    }
  GpuPipelineOptions pipeline;
  pipeline.numWarps = codegen.numWarps;
  pipeline.checkBounds = codegen.checkBounds;
  pipeline.tma = codegen.tma && !codegen.checkBounds;
  pipeline.warpSpecialize = codegen.warpSpecialize;
  pipeline.tmaStore = codegen.tmaStore;
  pipeline.multicast = codegen.multicast;
  pipeline.pingPong = codegen.pingPong;
  pipeline.splitK = codegen.splitK;
  pipeline.persistent = codegen.checkBounds || codegen.persistent == CodegenOptions::Persistent::Off
                            ? GpuPipelineOptions::Persistence::Off
                        : codegen.persistent == CodegenOptions::Persistent::On
                            ? GpuPipelineOptions::Persistence::On
                            : GpuPipelineOptions::Persistence::Auto;
  buildTileGpuPipeline(pm, pipeline);
  pm.addPass(createTileAllocateShared());
  pm.addPass(createConvertTileToNVVM());
  TimingScope passesScope = scope.nest("MLIR passes");
  pm.enableTiming(passesScope);
  {
    SourceMgrDiagnosticHandler handler(diags.getSourceMgr(), context, driver.diagnosticStream());
    // Counts the errors the passes report (and lets the handler above print them).
    unsigned passErrors = 0;
    ScopedDiagnosticHandler counter(context, [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        ++passErrors;
      // A warning each compiled variant and architecture of the kernel would repeat (a
      // configuration built without split-K) is printed once.
      if (d.getSeverity() == DiagnosticSeverity::Warning) {
        std::string key;
        llvm::raw_string_ostream os(key);
        os << d.getLocation() << ": " << d;
        if (!driver.firstReport(key))
          return success(); // handled: already printed
      }
      return failure();
    });
    auto watch = std::make_unique<PassWatch>(passErrors);
    PassWatch *w = watch.get();
    pm.addInstrumentation(std::move(watch));
    // One thread, so that a crash happens where the recovery context can catch it.
    context->disableMultithreading();
    // Errors point at the source; the generic form of the op they are about is noise there.
    context->printOpOnDiagnostic(false);
    LogicalResult ran = failure();
    if (!codegen.recoverCrashes) {
      ran = pm.run(*module);
    } else {
      llvm::CrashRecoveryContext::Enable();
      llvm::CrashRecoveryContext recovery;
      if (!recovery.RunSafely([&] { ran = pm.run(*module); })) {
        emitError(w->location(context), "internal compiler error: pass '" + w->pass() +
                                     "' crashed on this input; please report it with the input "
                                     "file and the command line");
        // What the crashed pass held is in no state to be destroyed: leave at once, exit 1.
        // Where the messages go to a log that the caller would print later (an @autotune
        // configuration compiled beside the others, tcc tune's ceiling kernel), it is
        // printed now: exiting would lose it.
        driver.diagnosticStream().flush();
        if (auto *log = dynamic_cast<llvm::raw_string_ostream *>(&driver.diagnosticStream()))
          llvm::errs() << log->str();
        llvm::errs().flush();
        llvm::outs().flush();
        std::_Exit(1);
      }
    }
    if (failed(ran)) {
      diags.error("lowering to the GPU failed (see the errors above)");
      return false;
    }
  }
  passesScope.stop();
  for (auto func : module->getOps<LLVM::LLVMFuncOp>()) {
    if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
      continue;
    Compiled::Launch &launch = result->kernels[func.getName().str()];
    if (auto bytes = func->getAttrOfType<IntegerAttr>(tile::kSharedBytesAttrName))
      launch.sharedBytes = bytes.getInt();
    // Every consumer group's warps (ping-pong: two groups of the kernel's num_warps).
    launch.numWarps = int(tile::getNumWarps(func) * tile::getConsumerGroups(func));
    launch.producerWarps = int(tile::getLaunchWarps(func)) - launch.numWarps;
    launch.threadsPerWarp = int(tile::getThreadsPerWarp(func));
    if (auto unchecked = func->getAttrOfType<IntegerAttr>(tile::kCheckBoundsUncheckedAttrName))
      launch.unchecked = int(unchecked.getInt());
    if (auto maps = func->getAttrOfType<ArrayAttr>(tile::kTensorMapsAttrName))
      launch.tensorMaps = tcc::tensorMapsOf(maps);
    if (auto grid = func->getAttrOfType<ArrayAttr>(tile::kGridAttrName))
      for (Attribute g : grid)
        if (auto expr = dyn_cast<StringAttr>(g))
          launch.grid.push_back(expr.str());
    launch.persistent = func->hasAttr(tile::kPersistentAttrName);
    if (auto size = func->getAttrOfType<IntegerAttr>(tile::kClusterSizeAttrName))
      launch.clusterSize = size.getInt();
    launch.splitK = func->hasAttr(tile::kSplitKAttrName);
  }

  PendingImage &p = *pending;
  p.ptxOptions.arch = result->arch;
  p.ptxOptions.optLevel = codegen.optLevel;
  p.ptxOptions.fpFusion = codegen.fpFusion;
  p.ptxOptions.registerPressureSchedule = codegen.schedule == CodegenOptions::Schedule::Pressure;
  p.stop = stage == EmitStage::LLVM  ? EmitStage::LLVM
           : stage == EmitStage::PTX ? EmitStage::PTX
                                     : EmitStage::Cubin;
  p.mayReschedule = codegen.schedule == CodegenOptions::Schedule::Auto && !anyDot;
  std::string error;
  p.context = std::make_unique<llvm::LLVMContext>();
  TimingScope translateScope = scope.nest("translate to LLVM IR");
  p.module = translateToLLVMIR(*module, *p.context, p.ptxOptions, &error);
  translateScope.stop();
  if (!p.module) {
    diags.error(error);
    return false;
  }
  return true;
}

bool Codegen::finish(PendingImage &p, Compiled *result, TimingScope &scope) const {
  if (finishStages(p, result, scope))
    return true;
  if (p.error.empty())
    p.error = "internal compiler error: code generation for " + result->arch +
              " failed without a message";
  return false;
}

bool Codegen::finishStages(PendingImage &p, Compiled *result, TimingScope &scope) const {
  llvm::Module &llvmModule = *p.module;
  TimingScope optScope = scope.nest("LLVM optimisation pipeline");
  if (!linkLibdevice(llvmModule, &p.error) || !optimizeLLVMIR(llvmModule, p.ptxOptions, &p.error))
    return false;
  optScope.stop();
  if (p.stop == EmitStage::LLVM) {
    result->llvmIR = printLLVMIR(llvmModule);
    return true;
  }
  for (auto &[name, launch] : result->kernels)
    launch.pressureSchedule = p.ptxOptions.registerPressureSchedule;
  // --schedule=auto keeps a copy to generate code from a second time (chooseSchedule).
  std::unique_ptr<llvm::Module> spare;
  if (p.stop == EmitStage::Cubin && p.mayReschedule)
    spare = cloneLLVMModule(llvmModule);
  TimingScope ptxScope = scope.nest("NVPTX code generation");
  if (!emitPtx(llvmModule, p.ptxOptions, &result->ptx, &p.error))
    return false;
  ptxScope.stop();
  if (p.stop == EmitStage::PTX)
    return true;
  CubinOptions cubinOptions;
  cubinOptions.arch = result->arch;
  cubinOptions.optLevel = codegen.optLevel;
  cubinOptions.verbose = true; // registers and spills go into the metadata and the header
  std::string log;
  TimingScope ptxasScope = scope.nest("ptxas");
  if (!assembleCubin(result->ptx, cubinOptions, &result->cubin, &p.error, &log))
    return false;
  ptxasScope.stop();
  std::map<std::string, tcc::PtxasFunctionInfo> infos = tcc::parsePtxasLog(log);
  if (spare &&
      !chooseSchedule(*spare, p.ptxOptions, cubinOptions, result, &infos, &log, scope, &p.error))
    return false;
  p.ptxasLog = std::move(log);
  for (auto &[entry, info] : infos)
    if (auto it = result->kernels.find(entry); it != result->kernels.end()) {
      it->second.hasPtxasInfo = true;
      it->second.ptxas = info;
    }
  return true;
}

/// The programs an SM holds of each kernel in `infos` (by ptxas's registers, the kernel's
/// shared memory and warps), and whether registers alone limit one of them.
static std::map<std::string, tcc::Occupancy>
occupancies(const Compiled &compiled, const std::map<std::string, tcc::PtxasFunctionInfo> &infos) {
  tcc::SmResources sm = tcc::smResources(compiled.arch);
  std::map<std::string, tcc::Occupancy> result;
  for (auto &[name, launch] : compiled.kernels)
    if (auto it = infos.find(name); it != infos.end())
      result[name] = tcc::occupancy(sm, it->second.registers, launch.numWarps + launch.producerWarps,
                                    launch.sharedBytes + it->second.staticSharedBytes);
  return result;
}

/// --schedule=auto. ptxas allocates registers from the order of the PTX, and the IR's
/// order (NVPTX's default, which Triton's PTX has too) interleaves independent chains
/// less than a register-pressure list scheduler: tutorial 04's eight Philox streams per
/// thread run in lock step, 48 registers against 32. Where registers alone limit the
/// programs per SM, the code is generated again in register-pressure order, and that is
/// kept when every kernel then fits at least as many programs per SM, one more, and spills
/// no more. Kernels whose occupancy shared memory or warps decide are not generated twice,
/// nor kernels with a dot: a second code generation of a GEMM costs more than its compile
/// time allows (issue 10: matmul to a cubin in 0.3 s; its six images took 0.88 s in one order
/// and 1.25 s with the second), the configurations that matter for speed are bound by their
/// rings anyway, and the tensor-core instructions' order is the lowering's to choose.
bool Codegen::chooseSchedule(llvm::Module &spare, const PtxOptions &ptxOptions,
                             const CubinOptions &cubinOptions, Compiled *result,
                             std::map<std::string, tcc::PtxasFunctionInfo> *infos, std::string *log,
                             TimingScope &scope, std::string *error) const {
  std::map<std::string, tcc::Occupancy> before = occupancies(*result, *infos);
  if (llvm::none_of(before, [](auto &entry) { return entry.second.registerBound(); }))
    return true;
  // Only a second code generation shows in --time-passes.
  TimingScope retryScope = scope.nest("register-pressure schedule");
  PtxOptions pressure = ptxOptions;
  pressure.registerPressureSchedule = true;
  std::string ptx, cubin, pressureLog;
  if (!emitPtx(spare, pressure, &ptx, error) ||
      !assembleCubin(ptx, cubinOptions, &cubin, error, &pressureLog))
    return false;
  std::map<std::string, tcc::PtxasFunctionInfo> pressureInfos = tcc::parsePtxasLog(pressureLog);
  std::map<std::string, tcc::Occupancy> after = occupancies(*result, pressureInfos);
  bool better = false;
  for (auto &[name, occupancy] : before) {
    auto it = after.find(name);
    if (it == after.end())
      return true;
    const tcc::PtxasFunctionInfo &was = infos->at(name), &now = pressureInfos.at(name);
    if (it->second.programs() < occupancy.programs() ||
        now.spillStores + now.spillLoads > was.spillStores + was.spillLoads ||
        now.stackBytes > was.stackBytes)
      return true;
    better |= it->second.programs() > occupancy.programs();
  }
  if (!better)
    return true;
  result->ptx = std::move(ptx);
  result->cubin = std::move(cubin);
  *infos = std::move(pressureInfos);
  *log = std::move(pressureLog);
  for (auto &[name, launch] : result->kernels)
    launch.pressureSchedule = true;
  return true;
}

tcc::KernelArtifact Codegen::describe(func::FuncOp kernel, const Assumptions &assumptions,
                                      const Compiled &compiled) {
  tcc::KernelDescriptionOptions description;
  description.numStages = int(codegen.numStages);
  description.checkBounds = codegen.checkBounds;
  if (const typed::Autotune *space = driver.autotune(kernel.getName().str())) {
    tcc::KernelAutotune t;
    t.space = space->space;
    t.index = int(space->chosen);
    t.count = int(space->configs.size());
    t.key = space->key;
    t.restore = space->restore;
    description.autotune = std::move(t);
  }
  description.source = options.inputPath;
  description.compiler = kCompilerName;
  tcc::KernelArtifact artifact = tcc::describeKernel(kernel, assumptions, description);
  // What only the compilation tells: the lowered kernel's warps and shared memory, ptxas's
  // figures, the accesses tile-check-bounds could not trace, the image.
  if (auto it = compiled.kernels.find(artifact.name); it != compiled.kernels.end()) {
    const Compiled::Launch &launch = it->second;
    artifact.numWarps = launch.numWarps;
    artifact.producerWarps = launch.producerWarps;
    artifact.threadsPerWarp = launch.threadsPerWarp;
    artifact.sharedBytes = launch.sharedBytes;
    artifact.hasPtxasInfo = launch.hasPtxasInfo;
    artifact.registers = launch.ptxas.registers;
    artifact.stackBytes = launch.ptxas.stackBytes;
    artifact.spillStores = launch.ptxas.spillStores;
    artifact.spillLoads = launch.ptxas.spillLoads;
    if (artifact.checkBounds)
      artifact.checkBounds->unchecked = launch.unchecked;
    artifact.tensorMaps = launch.tensorMaps;
    for (size_t i = 0; i < 3 && i < launch.grid.size(); ++i)
      artifact.grid[i] = launch.grid[i];
  }
  artifact.arch = compiled.arch;
  artifact.cubin = compiled.cubin;
  artifact.ptx = compiled.ptx;
  return artifact;
}

bool Codegen::writeText(StringRef text) { return driver.writeOutput(text); }

bool Codegen::checkArchs() {
  for (const std::string &option : codegen.archs) {
    SmallVector<StringRef> items;
    StringRef(option).split(items, ',', -1, /*KeepEmpty=*/false);
    if (items.empty()) {
      diags.error("--arch '" + option + "' names no architecture: expected " +
                  supportedArchList());
      return false;
    }
    for (StringRef item : items) {
      std::string arch = item.trim().str();
      if (!isSupportedArch(arch)) {
        diags.error("unsupported --arch '" + arch + "': expected " + supportedArchList() +
                    " (several: --arch sm_80,sm_90)");
        return false;
      }
      if (llvm::is_contained(archs, arch)) {
        diags.error("--arch names '" + arch + "' twice");
        return false;
      }
      archs.push_back(arch);
    }
  }
  if (archs.empty())
    archs.push_back("sm_90");
  return true;
}

/// Everything that changes the generated code or the header, in a fixed order: the seed of
/// the default namespace and the "Configuration:" line of a header.
std::string Codegen::configurationText() const {
  std::string s;
  auto add = [&](const std::string &part) { s += (s.empty() ? "" : " ") + part; };
  for (const std::string &d : options.defines)
    add("-D " + d);
  if (!options.kernelName.empty())
    add("--kernel " + options.kernelName);
  std::string archList;
  for (const std::string &a : archs)
    archList += (archList.empty() ? "" : ",") + a;
  add("--arch " + archList);
  add("-O" + std::to_string(codegen.optLevel));
  if (!codegen.fpFusion)
    add("--no-fp-fusion");
  if (codegen.schedule != CodegenOptions::Schedule::Source)
    add(std::string("--schedule=") +
        (codegen.schedule == CodegenOptions::Schedule::Auto ? "auto" : "pressure"));
  if (codegen.numWarps)
    add("--num-warps " + std::to_string(codegen.numWarps));
  if (codegen.numStages)
    add("--num-stages " + std::to_string(codegen.numStages));
  for (const std::string &sp : codegen.specialize)
    add("--specialize " + sp);
  if (codegen.specializeAll)
    add("--specialize-all");
  add(std::string("--variants=") + (autoVariants ? "auto" : "single"));
  if (codegen.checkBounds)
    add("--check-bounds");
  if (!codegen.tma)
    add("--no-tma");
  if (codegen.warpSpecialize)
    add("--warp-specialize");
  if (codegen.tmaStore)
    add("--tma-store");
  if (codegen.multicast)
    add("--multicast");
  if (codegen.pingPong)
    add("--ping-pong");
  if (codegen.splitK > 1)
    add("--split-k " + std::to_string(codegen.splitK));
  if (codegen.persistent == CodegenOptions::Persistent::On)
    add("--persistent");
  else if (codegen.persistent == CodegenOptions::Persistent::Off)
    add("--no-persistent");
  if (!codegen.embed.empty())
    add("--embed=" + codegen.embed);
  if (!options.tuningTable.empty())
    add("--tuning " + options.tuningTable);
  return s;
}

/// tcc_<file stem>_<8 hex digits of the configuration>: two configurations of one file get
/// two namespaces, the same configuration always the same one.
tcc::HeaderOptions Codegen::headerOptions() const {
  tcc::HeaderOptions o;
  o.provenance = options.inputPath;
  o.configuration = configurationText();
  o.cxxNamespace = codegen.cxxNamespace;
  if (o.cxxNamespace.empty()) {
    o.cxxNamespace = defaultNamespace();
    o.globalUsing = true;
  }
  return o;
}

std::string Codegen::defaultNamespace() const {
  StringRef stem = llvm::sys::path::stem(options.inputPath);
  if (options.inputPath == "-")
    stem = "stdin";
  // The source text too: two files (or two versions of one) never share a namespace unless
  // they generate the same code.
  std::string seed = configurationText() + tableText;
  llvm::SourceMgr &sources = diags.getSourceMgr();
  if (sources.getNumBuffers() > 0)
    seed += "\n" + sources.getMemoryBuffer(sources.getMainFileID())->getBuffer().str();
  char hash[9];
  std::snprintf(hash, sizeof hash, "%08x", fnv1a(seed));
  std::string ns = "tcc_" + identifierFrom(stem) + "_" + hash;
  // No double underscores: those names are reserved in C++.
  while (ns.find("__") != std::string::npos)
    ns.replace(ns.find("__"), 2, "_");
  return ns;
}

int Codegen::run() {
  if (codegen.timePasses) {
    timing.setEnabled(true);
    timing.setDisplayMode(DefaultTimingManager::DisplayMode::Tree);
    timing.setOutput(createOutputStrategy(DefaultTimingManager::OutputFormat::Text,
                                          driver.diagnosticStream()));
  }
  rootScope = timing.getRootScope();
  if (!checkArchs())
    return 1;
  if (codegen.optLevel > 3) {
    diags.error("unsupported optimisation level -O" + std::to_string(codegen.optLevel) +
                ": expected -O0 to -O3");
    return 1;
  }
  bool toFile = options.outputPath != "-";
  bool artifacts = stage == EmitStage::Cubin || stage == EmitStage::Header ||
                   (stage == EmitStage::PTX && toFile);
  if (archs.size() > 1 && !artifacts) {
    diags.error("several architectures need --emit=cubin, --emit=header or --emit=ptx -o FILE "
                "(one output per architecture)");
    return 1;
  }
  if (!codegen.embed.empty() && stage != EmitStage::Header) {
    diags.error("--embed applies to --emit=header only");
    return 1;
  }
  if (!codegen.cxxNamespace.empty() && stage != EmitStage::Header) {
    diags.error("--namespace applies to --emit=header only");
    return 1;
  }
  if (codegen.ptxasVerbose && stage != EmitStage::Cubin &&
      !(stage == EmitStage::Header && codegen.embed != "ptx"))
    diags.warning("--ptxas-verbose does nothing with --emit=" + emitStageName(stage).str() +
                  ": ptxas runs only for --emit=cubin and --emit=header");
  Assumptions requested;
  if (!parseSpecializations(codegen, &requested, diags))
    return 1;
  // Fast by default: a cubin or a header holds the variant set the runtime dispatches over,
  // unless the command line asks for one variant (--variants=single, --specialize...).
  autoVariants = codegen.variantsGiven
                     ? codegen.autoVariants
                     : (stage == EmitStage::Cubin || stage == EmitStage::Header) &&
                           requested.empty() && !codegen.specializeAll;
  TimingScope frontScope = rootScope.nest("front end");
  ModuleOp module = loadModule();
  frontScope.stop();
  if (!module)
    return 1;
  SmallVector<func::FuncOp> kernels = kernelsOf(module);
  if (kernels.empty()) {
    diags.error("'" + options.inputPath + "' has no kernel to compile");
    return 1;
  }
  if (autoVariants && (!requested.empty() || codegen.specializeAll)) {
    diags.error("--variants=auto derives the specialisations from the kernel's signature: "
                "drop --specialize and --specialize-all");
    return 1;
  }
  if (autoVariants && !artifacts) {
    diags.error("--variants=auto needs --emit=cubin, --emit=header or --emit=ptx -o FILE (one "
                "output per variant)");
    return 1;
  }
  std::map<std::string, Assumptions> specialised;
  for (func::FuncOp kernel : kernels)
    if (!resolveSpecializations(kernel, requested, codegen.specializeAll,
                                &specialised[kernel.getName().str()], diags))
      return 1;

  Compiled compiled;
  int code = 1;
  switch (stage) {
  case EmitStage::LLVM:
    code = compile(module, specialised, &compiled) && writeText(compiled.llvmIR) ? 0 : 1;
    break;
  case EmitStage::PTX:
    if (!toFile) {
      code = compile(module, specialised, &compiled) && writeText(compiled.ptx) ? 0 : 1;
      break;
    }
    [[fallthrough]];
  case EmitStage::Cubin:
  case EmitStage::Header:
    code = runArtifacts(module, kernels, specialised);
    break;
  default:
    diags.error("internal error: --emit=" + emitStageName(stage).str() +
                " is not a code-generation stage");
    return 1;
  }
  return code;
}

/// --emit=cubin, --emit=header and --emit=ptx -o FILE: every kernel of the file, every
/// variant, every architecture, in the images tcc::planImages plans (compiler/Target/
/// ImagePlan.h). The primary image (all kernels, general or as asked, the first
/// architecture) goes to -o; the others beside it, named by the plan's suffixes.
int Codegen::runArtifacts(ModuleOp module, ArrayRef<func::FuncOp> kernels,
                          std::map<std::string, Assumptions> &specialised) {
  bool header = stage == EmitStage::Header;
  bool wantCubin = stage == EmitStage::Cubin;
  bool wantPtx = stage == EmitStage::PTX || stage == EmitStage::Cubin;
  if (header) {
    std::string embed = codegen.embed;
    if (embed.empty())
      embed = tcc::findPtxas().empty() ? "ptx" : "cubin";
    if (embed != "cubin" && embed != "ptx" && embed != "both") {
      diags.error("invalid --embed '" + codegen.embed + "': expected cubin, ptx or both");
      return 1;
    }
    if (codegen.embed.empty() && embed == "ptx")
      diags.warning("no ptxas found: the header embeds PTX, which the CUDA driver JIT-compiles "
                 "at first launch (--embed=ptx to say so; install the CUDA toolkit for cubins)");
    wantCubin = embed != "ptx";
    wantPtx = embed != "cubin";
  }
  if (wantCubin && tcc::findPtxas().empty()) {
    diags.error("no ptxas found (looked at $TCC_PTXAS, or in $CUDA_HOME/bin, /usr/local/cuda/bin "
                "and PATH): "
                "--emit=cubin needs the CUDA toolkit; without it, --emit=ptx -o FILE.ptx writes "
                "PTX with metadata and --emit=header --embed=ptx a header the driver "
                "JIT-compiles");
    return 1;
  }
  if (stage == EmitStage::Cubin && options.outputPath == "-") {
    diags.error("--emit=cubin needs -o FILE.cubin (the metadata JSON and the PTX are "
                "written beside it)");
    return 1;
  }
  bool several = kernels.size() > 1;
  // The variant sets of each kernel: --variants=auto derives them from the signature;
  // otherwise a file artifact is the one compilation asked for, and a header has the
  // general variant and, when specialisations were asked, the specialised one.
  std::map<std::string, std::vector<Assumptions>> sets;
  std::vector<tcc::KernelVariantSets> planned;
  for (func::FuncOp kernel : kernels) {
    std::string name = kernel.getName().str();
    std::vector<Assumptions> &s = sets[name];
    if (autoVariants) {
      s = deriveArgumentVariants(kernel);
    } else if (!header) {
      s.push_back(specialised[name]);
    } else {
      s.push_back({});
      if (!specialised[name].empty())
        s.push_back(specialised[name]);
    }
    tcc::KernelVariantSets &k = planned.emplace_back();
    k.name = name;
    for (const Assumptions &set : s)
      k.sets.push_back(tcc::kernelParams(kernel, set));
    k.hasDot = hasDot(kernel);
  }
  std::vector<ImageJob> jobs;
  for (tcc::PlannedImage &image : tcc::planImages(planned, archs, autoVariants)) {
    ImageJob &job = jobs.emplace_back();
    for (const tcc::PlannedImage::Member &m : image.members)
      job.assumptions[m.kernel] = sets[m.kernel][m.set];
    job.plan = std::move(image);
  }
  // Compile every image.
  std::map<std::string, func::FuncOp> byName;
  for (func::FuncOp kernel : kernels)
    byName[kernel.getName().str()] = kernel;
  std::map<std::string, std::vector<tcc::KernelArtifact>> variants; // header: per kernel
  // The MLIR half of each image on this thread (the context is this thread's), one after
  // the other; the other half (LLVM, NVPTX and ptxas) of each image as soon as its MLIR half
  // is done, on up to -j threads (one per core by default; one within a configuration of an
  // @autotune space, whose configurations already run at once); then, in order, what each
  // produced. Six images of matmul on two cores: 1.0 s -> 0.6 s (four since, 0.29 s).
  unsigned threads = std::min<unsigned>(
      jobs.size(),
      codegen.jobs ? codegen.jobs : llvm::hardware_concurrency().compute_thread_count());
  std::optional<llvm::DefaultThreadPool> pool;
  if (threads > 1)
    pool.emplace(llvm::hardware_concurrency(threads));
  // --time-passes: every image under one scope, whose children add up the images' times
  // (more than the scope's own wall time where images run at once).
  TimingScope compileScope = rootScope.nest("compile");
  std::vector<PendingImage> pending(jobs.size());
  bool failed = false;
  for (size_t i = 0; i < jobs.size() && !failed; ++i) {
    ImageJob &job = jobs[i];
    job.compiled.arch = job.plan.arch;
    if (job.plan.members.size() != kernels.size())
      for (const tcc::PlannedImage::Member &m : job.plan.members)
        job.compiled.only.push_back(m.kernel);
    EmitStage saved = stage;
    if (!wantCubin)
      stage = EmitStage::PTX; // stop before ptxas
    failed = !lower(module, job.assumptions, &job.compiled, compileScope, &pending[i]);
    stage = saved;
    if (failed)
      break;
    if (pool)
      pool->async([&, i] { finish(pending[i], &jobs[i].compiled, compileScope); });
    else
      failed = !finish(pending[i], &jobs[i].compiled, compileScope); // reported below
  }
  if (pool)
    pool->wait();
  compileScope.stop();
  for (size_t i = 0; i < jobs.size(); ++i) {
    ImageJob &job = jobs[i];
    if (codegen.ptxasVerbose && jobs.size() > 1) {
      std::string what;
      for (const tcc::PlannedImage::Member &m : job.plan.members)
        what += (what.empty() ? "" : "; ") + (several ? m.kernel + ": " : std::string()) +
                describeArgumentAssumptions(byName[m.kernel], job.assumptions[m.kernel]);
      driver.diagnosticStream() << "tcc: variant " << what << ", " << job.plan.arch << "\n";
    }
    if (!pending[i].error.empty()) {
      diags.error(pending[i].error);
      return 1;
    }
    if (!pending[i].module)
      return 1; // its MLIR half failed (reported)
    if (codegen.ptxasVerbose)
      driver.diagnosticStream() << pending[i].ptxasLog;
    pending[i].module.reset(); // no longer needed (the module before its context)
    pending[i].context.reset();
    for (const tcc::PlannedImage::Member &member : job.plan.members) {
      const std::string &k = member.kernel;
      tcc::KernelArtifact a = describe(byName[k], job.assumptions[k], job.compiled);
      if (codegen.verbose) {
        llvm::raw_ostream &os = driver.diagnosticStream();
        os << "tcc: " << k;
        if (const typed::Autotune *space = driver.autotune(k))
          os << " configuration " << space->chosen << " ("
             << space->configs[space->chosen].description << ")";
        os << " [" << describeArgumentAssumptions(byName[k], job.assumptions[k]) << "] " << a.arch
           << ": ";
        if (a.hasPtxasInfo)
          os << a.registers << " registers, " << a.stackBytes << " B stack, "
             << (a.spillStores + a.spillLoads
                     ? std::to_string(a.spillStores) + " B spill stores, " +
                           std::to_string(a.spillLoads) + " B spill loads"
                     : std::string("no spills"))
             << ", ";
        else
          os << "PTX only (no ptxas figures), ";
        os << a.sharedBytes << " B shared, " << a.numWarps << " warps";
        if (a.producerWarps)
          os << " + " << a.producerWarps << " producer warps";
        if (auto it = job.compiled.kernels.find(k); it != job.compiled.kernels.end()) {
          if (it->second.pressureSchedule)
            os << ", register-pressure order";
          // Persistent (tile-persistent): the grid it launches with.
          if (it->second.persistent && !it->second.grid.empty())
            os << ", persistent: grid " << it->second.grid.front();
          // Clusters: tile-split-k's (a tile's K loop shared) or multicast's (tile-pipeline:
          // two programs sharing B's tile).
          if (it->second.clusterSize > 1 && it->second.splitK)
            os << ", split over K in clusters of " << it->second.clusterSize;
          else if (it->second.clusterSize > 1)
            os << ", clusters of " << it->second.clusterSize << " multicasting B";
        }
        os << "\n";
      }
      // A configuration of a search space whose fast path spills is slower than one whose
      // does not: dropped (the driver says so), unless --max-spill-bytes allows it. The
      // fast path is the most specialised variant of each architecture; the general ones
      // (strided or unaligned arguments) may spill where it does not -- a large tile
      // loaded element by element -- and are kept: tuning with such arguments measures them.
      if (const typed::Autotune *space = driver.autotune(k);
          space && options.autotuneConfig >= 0 && a.hasPtxasInfo && codegen.maxSpillBytes >= 0 &&
          member.mostSpecialised &&
          a.spillStores + a.spillLoads > codegen.maxSpillBytes) {
        diags.error("it spills " + std::to_string(a.spillStores) + " B of stores and " +
                    std::to_string(a.spillLoads) + " B of loads (" + a.arch + ", " +
                    describeArgumentAssumptions(byName[k], job.assumptions[k]) +
                    "), more than --max-spill-bytes " + std::to_string(codegen.maxSpillBytes));
        return 1;
      }
      if (!wantCubin)
        a.cubin.clear();
      if (!wantPtx)
        a.ptx.clear();
      variants[k].push_back(std::move(a));
    }
  }
  if (header && options.collectVariants) {
    // One configuration of a space: the driver writes the header of them all.
    for (func::FuncOp kernel : kernels)
      for (tcc::KernelArtifact &a : variants[kernel.getName().str()])
        options.collectVariants->push_back(std::move(a));
    return 0;
  }
  if (header) {
    std::vector<std::vector<tcc::KernelArtifact>> perKernel;
    for (func::FuncOp kernel : kernels)
      perKernel.push_back(std::move(variants[kernel.getName().str()]));
    std::string text, error;
    if (!tcc::generateHeader(perKernel, headerOptions(), &text, &error)) {
      diags.error(error);
      return 1;
    }
    return writeText(text) ? 0 : 1;
  }
  // Files: k.cubin (or k.ptx) and, per kernel, k.json or k.<kernel>.json beside it.
  StringRef out(options.outputPath);
  std::string ext = wantCubin ? ".cubin" : ".ptx";
  std::string stem = out.ends_with(ext) ? out.drop_back(ext.size()).str() : out.str();
  std::map<std::string, size_t> taken; // variants[k] consumed in job order
  for (ImageJob &job : jobs) {
    std::string image =
        &job == &jobs.front() ? options.outputPath : stem + job.plan.suffix + ext;
    std::string base = tcc::replaceExtension(image, "");
    std::vector<tcc::KernelArtifact> members;
    std::vector<std::string> metadata;
    for (const tcc::PlannedImage::Member &m : job.plan.members) {
      members.push_back(variants[m.kernel][taken[m.kernel]++]);
      metadata.push_back(base + (job.plan.members.size() > 1 ? "." + m.kernel : std::string()) +
                         ".json");
    }
    std::string cubinPath = wantCubin ? image : "";
    std::string ptxPath = wantCubin ? tcc::replaceExtension(image, ".ptx") : image;
    if (wantCubin && !wantPtx)
      ptxPath.clear();
    std::string error;
    if (!tcc::writeModuleArtifacts(members, cubinPath, ptxPath, metadata, &error)) {
      diags.error(error);
      return 1;
    }
  }
  if (options.collectVariants)
    for (func::FuncOp kernel : kernels)
      for (tcc::KernelArtifact &a : variants[kernel.getName().str()])
        options.collectVariants->push_back(std::move(a));
  return 0;
}

int Codegen::writeTunedHeader(const std::vector<std::vector<tcc::KernelArtifact>> &configurations,
                              const std::string &table) {
  if (!checkArchs())
    return 1;
  autoVariants = codegen.variantsGiven ? codegen.autoVariants
                                       : codegen.specialize.empty() && !codegen.specializeAll;
  tableText = table;
  std::string text, error;
  if (!tcc::generateTunedHeader(configurations, table, headerOptions(), &text, &error)) {
    diags.error(error);
    return 1;
  }
  return writeText(text) ? 0 : 1;
}

} // namespace

int runCodegen(Driver &driver, EmitStage stage) { return Codegen(driver, stage).run(); }

int writeAutotunedHeader(Driver &driver,
                         const std::vector<std::vector<tcc::KernelArtifact>> &configurations,
                         const std::string &table) {
  return Codegen(driver, EmitStage::Header).writeTunedHeader(configurations, table);
}

} // namespace tcc
