//===- tcc.cpp - The command-line compiler -------------------------------===//
//
// Options in, one Driver call, exit code out. All compilation logic lives in
// compiler/Driver.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/Driver.h"
#include "compiler/Driver/Run.h"
#include "compiler/Driver/Tune.h"
#include "Doctor.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <vector>

int main(int argc, char **argv) {
  // tcc tune KERNEL.tile --shape ... (docs/autotuning.md): its options are the offline
  // tuner's (tcc-tune's), parsed there; the subcommand below only lists it in --help.
  if (argc > 1 && std::string(argv[1]) == "tune")
    return tcc::runTuneCommand(std::vector<std::string>(argv + 2, argv + argc));
  CLI::App app{"tcc: ahead-of-time compiler for .tile GPU kernels"};
  app.footer(
      "Outputs: -o FILE writes the result there (default: stdout). --emit=cubin -o k.cubin also "
      "writes k.json (metadata) and k.ptx beside it; further variants and architectures go to "
      "k.<specialisation>.cubin and k.<arch>.cubin, each with its .json and .ptx; a file with "
      "several kernels gets one cubin holding them all and k.<kernel>.json per kernel. "
      "--emit=ptx -o k.ptx writes k.json beside it (a PTX-only artifact the runtime "
      "JIT-compiles). --emit=header embeds everything in one header.\n"
      "Exit status: 0 on success, 1 for bad input (a located error), 2 for bad usage.");
  app.set_version_flag("--version", "tcc 0.1");

  tcc::DriverOptions options;
  std::string emit = "tile";
  std::vector<std::string> stages = tcc::emitStageNames();
  std::string stageList;
  for (const std::string &s : stages)
    stageList += (stageList.empty() ? "" : "|") + s;

  CLI::Option *input =
      app.add_option("input", options.inputPath, "the .tile file to compile ('-' reads stdin)");
  app.add_option("--emit", emit, "how far to compile: " + stageList + " (default: tile)")
      ->check(CLI::IsMember(stages));
  app.add_option("-D", options.defines,
                 "set a constexpr parameter or top-level constant: -D BLOCK=512 (repeatable)");
  app.add_option("-o", options.outputPath,
                 "write the result here (default: stdout); a directory (-o out/) gets a file "
                 "named after the input (out/k.cubin)");
  app.add_option("--kernel", options.kernelName,
                 "compile only this kernel of the file (default: all)");
  app.add_option("--config", options.autotuneConfig,
                 "an @autotune kernel: compile only configuration N (its position in configs=; "
                 "default: the whole space for --emit=cubin|ptx -o, else the first kept)")
      ->check(CLI::Range(0, 4095));
  app.add_flag("--debug-locs", options.debugLocations,
               "print source locations in the IR (like -mlir-print-debuginfo)");
  app.add_flag("--verify-diagnostics", options.verifyDiagnostics,
               "compile each '# -----'-separated part of the input alone and check its "
               "diagnostics against its '# expected-error {{text}}' comments (@+N, @-N, "
               "@above, @below, @N, @unknown; also -warning, -remark, -note); exit 0 when "
               "they match");
  // Code generation (--emit=llvm|ptx|cubin|header).
  tcc::CodegenOptions &codegen = options.codegen;
  app.add_option("--arch", codegen.archs,
                 "GPU architecture: sm_80, sm_86, sm_89, sm_90 (default) or sm_90a; several, "
                 "comma-separated or repeated (--arch sm_80,sm_90,sm_90a), build an image for "
                 "each into one artifact");
  app.add_option("-O", codegen.optLevel, "optimisation level 0..3 (default 3): -O0 ... -O3");
  app.add_flag_function("--no-fp-fusion", [&codegen](int64_t) { codegen.fpFusion = false; },
               "keep each multiply and add apart (by default a*b + c may become one fma, "
               "as Triton's enable_fp_fusion=True)");
  app.add_option_function<std::string>(
         "--schedule",
         [&codegen](const std::string &v) {
           codegen.schedule = v == "source"     ? tcc::CodegenOptions::Schedule::Source
                              : v == "pressure" ? tcc::CodegenOptions::Schedule::Pressure
                                                : tcc::CodegenOptions::Schedule::Auto;
         },
         "the order of each block's instructions in the PTX, from which ptxas allocates "
         "registers: source (default) the IR's; pressure: NVPTX's register-pressure order; "
         "auto: the IR's, and the register-pressure order where registers alone limit the "
         "programs per SM and that order fits more (--emit=cubin|header)")
      ->check(CLI::Validator(
          [](std::string &v) -> std::string {
            if (v == "auto" || v == "source" || v == "pressure")
              return "";
            return "expected auto, source or pressure, not " + v;
          },
          "auto|source|pressure"));
  app.add_option("--num-warps", codegen.numWarps,
                 "warps per program, a power of two from 1 to 32 (default: the kernel's "
                 "num_warps)")
      ->check(CLI::Validator(
          [](std::string &v) -> std::string {
            unsigned n = 0;
            for (char c : v)
              n = (c >= '0' && c <= '9' && n < 1000) ? n * 10 + unsigned(c - '0') : 1000;
            if (v.empty() || n == 0 || n > 32 || (n & (n - 1)))
              return "--num-warps must be a power of two from 1 to 32, not " + v;
            return "";
          },
          "1|2|4|8|16|32"));
  app.add_option("--num-stages", codegen.numStages,
                 "shared-memory stages of loops feeding dot (default: the kernel's num_stages, "
                 "else 3; a loop's range(..., num_stages=) wins)")
      ->check(CLI::Range(1u, 8u));
  app.add_option("-j,--jobs", codegen.jobs,
                 "threads compiling at once: the configurations of an @autotune kernel, and "
                 "the images (variants, architectures) of one configuration (default: one per "
                 "core)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--tuning", options.tuningTable,
                 "TABLE.json: a tuning table of an @autotune kernel (docs/autotuning.md), "
                 "checked against its space; --emit=header embeds it, --emit=cubin writes it "
                 "beside the cubins as <kernel>.tuning.json; its entries choose a "
                 "configuration per device and key without benchmarking");
  app.add_option("--max-spill-bytes", codegen.maxSpillBytes,
                 "drop a configuration of an @autotune space whose code spills more than this "
                 "(stores + loads, bytes; default 0; -1: no limit)")
      ->check(CLI::Range(-1LL, 1LL << 40));
  app.add_option("--specialize", codegen.specialize,
                 "NAME=D|NAME=eq1[,...]: compile for argument NAME a multiple of D (a pointer: "
                 "D-byte aligned) or, with eq1, an integer equal to 1 (a unit stride), e.g. "
                 "--specialize x=16,n=16,stride_n=eq1 (repeatable)");
  app.add_flag("--specialize-all", codegen.specializeAll,
               "compile for 16-byte aligned pointers and integers divisible by 16 "
               "(--specialize entries override it)");
  std::string variants;
  app.add_option("--variants", variants,
                 "auto (the default of --emit=cubin|header without --specialize): general, "
                 "aligned/divisible by 16 (the integers reaching an address, a mask or a "
                 "loop), and that with unit inner strides where the kernel has strides, the "
                 "runtime picking the best the arguments allow "
                 "(--emit=cubin writes each beside -o, named by its specialisation; "
                 "--emit=header embeds them all); single: one variant (the one --specialize "
                 "asks for; a header adds the general one)")
      ->check(CLI::IsMember({"single", "auto"}));
  app.add_option("--namespace", codegen.cxxNamespace,
                 "--emit=header: the C++ namespace of the launchers (a::b allowed); default: "
                 "tcc_<file>_<hash of the configuration>, also declared globally");
  app.add_option("--embed", codegen.embed,
                 "--emit=header: cubin, ptx (JIT-compiled by the driver at first launch) or both "
                 "(default: cubin, or ptx when no ptxas is installed)")
      ->check(CLI::IsMember({"cubin", "ptx", "both"}));
  app.add_option("--depfile", codegen.depfile,
                 "write a Make-syntax depfile (OUTPUT: INPUT) for build systems");
  app.add_flag("--no-device-assert", options.noDeviceAssert,
               "compile device_assert(...) out, as C's -DNDEBUG does assert (its condition is "
               "still checked for errors)");
  app.add_flag("--check-bounds", codegen.checkBounds,
               "bounds-checked build: every access is checked against the allocation its "
               "pointer argument lies in; the runtime reports the first out-of-bounds one "
               "(kernel, source line, program id, offset) after the launch");
  app.add_flag("--tma,!--no-tma", codegen.tma,
               "sm_90a: copy a dot's operand tiles with the tensor memory accelerator (bulk "
               "tensor copies on an mbarrier ring) where a tensor map describes their loads "
               "(a pointer argument plus one index per dimension times a stride, the last "
               "contiguous, masked by one bound per dimension); the launcher encodes the maps. "
               "On by default; --no-tma keeps every load on cp.async");
  app.add_flag("--warp-specialize,!--no-warp-specialize", codegen.warpSpecialize,
               "sm_90a: run a dot loop whose operand tiles all come by TMA on a producer "
               "warpgroup (the bulk copies, registers lowered with setmaxnreg) beside the "
               "num_warps consumer warps (the products, registers raised), slots handed "
               "over on full/empty mbarriers; launches num_warps + 4 warps. Off by default "
               "(range(..., warp_specialize=True) asks it for one loop)");
  app.add_flag("--tma-store,!--no-tma-store", codegen.tmaStore,
               "sm_90a: store a kernel's result tile (written once, after its loops, under "
               "bounds masks a tensor map describes) with TMA bulk tensor copies from a "
               "swizzled shared tile instead of per-thread stores. Off by default");
  app.add_flag("--multicast,!--no-multicast", codegen.multicast,
               "sm_90a: launch a persistent GEMM (its K loop's bounds the same for every "
               "tile) in clusters of two programs that take two tiles of one column "
               "together and copy half of B's tile each, multicast to both (TMA "
               "multicast), where the rows of tiles are even in number; the partner hands "
               "each ring slot back on an mbarrier. With --warp-specialize, the producer "
               "warpgroups multicast and only they wait for the partner. Off by default: "
               "without --warp-specialize measured 0.35-0.67x of the default build on an "
               "H100 (bench/RESULTS.md, 2026-12-08)");
  app.add_flag("--ping-pong,!--no-ping-pong", codegen.pingPong,
               "sm_90a: warp-specialise a persistent GEMM of 4 warps (its K loop's bounds "
               "the same for every tile) with two consumer warpgroups that take its tiles "
               "in turn, one's epilogue under the other's K loop (the ping-pong schedule); "
               "launches 4 + 4 + 4 warps. Implies --warp-specialize for such kernels. Off "
               "by default");
  app.add_option("--split-k", codegen.splitK,
                 "sm_90: launch a GEMM (one K loop whose accumulator starts at zero) with N "
                 "programs per tile in clusters of N, each computing 1/N of the K loop; rank "
                 "0 sums the parts through distributed shared memory and runs the epilogue. "
                 "For shapes with fewer tiles than SMs and a long K. 1 (default): off; 2, 4, "
                 "8. Not with --check-bounds; such kernels are not persistent")
      ->check(CLI::IsMember({1u, 2u, 4u, 8u}));
  app.add_flag_callback(
      "--persistent", [&codegen] { codegen.persistent = tcc::CodegenOptions::Persistent::On; },
      "sm_90a: launch every dot kernel on num_sms * occupancy programs, each looping over "
      "the grid's tiles (pid, pid + programs, ..., in grouped order), its TMA ring and "
      "mbarriers kept across them; with --warp-specialize the producer loads the next "
      "tile while the consumers write this one. Not with --check-bounds. By default "
      "(neither flag), the kernels of a one-dimensional grid (GEMMs) whose dot loops form "
      "one loop nest and that do not schedule their own tiles")
      ->trigger_on_parse(); // the last of --persistent / --no-persistent wins
  app.add_flag_callback(
      "--no-persistent", [&codegen] { codegen.persistent = tcc::CodegenOptions::Persistent::Off; },
      "launch one program per tile (no kernel made persistent)")
      ->trigger_on_parse();
  app.add_flag("--mlir-print-ir-after-all", codegen.printIRAfterAll,
               "print the IR after every pass of the GPU pipeline (stderr)");
  app.add_flag("--ptxas-verbose", codegen.ptxasVerbose,
               "print ptxas -v (registers, spills, shared memory) for --emit=cubin|header");
  app.add_flag("--verbose", codegen.verbose,
               "say what was built: one line per variant with its assumptions, architecture, "
               "registers, stack, spills and shared memory (--emit=cubin|header|ptx -o)");
  app.add_flag("--time-passes", codegen.timePasses,
               "print the time spent in each stage and MLIR pass (stderr)");

  // tcc run --interpret KERNEL.tile --arg x=rand:1000 ... (docs/interpreter.md)
  tcc::RunCommandOptions runOptions;
  CLI::App *run = app.add_subcommand("run", "run a kernel on the CPU with --interpret");
  run->add_option("kernel-file", options.inputPath, "the .tile file (or tile IR, .mlir)")
      ->required();
  run->add_flag("--interpret", runOptions.interpret, "execute on the CPU (the interpreter)");
  run->add_option("--arg", runOptions.args,
                  "NAME=SPEC: 1000, rand:SHAPE, randn:SHAPE, const:V:SHAPE, zeros:SHAPE, "
                  "ones:SHAPE, arange:SHAPE, empty:SHAPE (an output), FILE.npy (repeatable)");
  run->add_option("--grid", runOptions.grid, "X[,Y[,Z]] (default: the kernel's grid=)");
  run->add_option("--seed", runOptions.seed, "seed of rand: and randn: (default 0)");
  run->add_option("--kernel", options.kernelName, "which kernel of the file");
  run->add_option("-D", options.defines, "set a constexpr parameter: -D BLOCK=512");
  run->add_flag("--no-device-assert", options.noDeviceAssert, "compile device_assert(...) out");
  run->add_option("--config", options.autotuneConfig,
                  "an @autotune kernel: run configuration N (default: the first kept)")
      ->check(CLI::Range(0, 4095));
  run->add_option("--print", runOptions.print, "print this buffer (default: the outputs)");
  run->add_flag("--no-print", runOptions.noPrint, "print no buffers");
  run->add_option("--save", runOptions.save, "NAME=PATH.npy: save a buffer (repeatable)");
  run->add_option("--print-limit", runOptions.printLimit,
                  "elide tiles and buffers longer than this (0: never; default 64)");
  run->add_flag("--allow-uninit", runOptions.allowUninit,
                "reads of never-written memory warn instead of failing");
  run->add_flag("-v", runOptions.verbose, "print the grid and the run time");

  // tcc tune: parsed before CLI11 (above); listed here for --help.
  CLI::App *tune = app.add_subcommand(
      "tune", "compile an @autotune kernel's space and benchmark it on this GPU: tcc tune "
              "K.tile --shape n=1048576,268435456 x=rand:n ... -o TABLE.json [--report DIR] "
              "(tcc tune --help for the options)");
  (void)tune;

  // tcc doctor: is this machine ready to compile and run kernels?
  CLI::App *doctor = app.add_subcommand(
      "doctor", "check the compiler, ptxas, the CUDA driver and every GPU (runs the "
                "verification kernel on each); exit 0 when everything that can run passes");
  bool doctorVerbose = false;
  doctor->add_flag("-v", doctorVerbose, "keep the compiled verification kernel and say where");

  // Usage errors read like every other error and exit 2 (bad input exits 1).
  app.failure_message([](const CLI::App *, const CLI::Error &e) {
    return std::string("tcc: error: ") + e.what() + "\n(run tcc --help for the options)\n";
  });
  try {
    app.parse(argc, argv);
    if (!*run && !*doctor && !*input)
      throw CLI::RequiredError(input->get_name());
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (*run)
    return tcc::runKernel(options, runOptions);
  if (*doctor)
    return tcc::runDoctor(doctorVerbose);
  options.emit = *tcc::parseEmitStage(emit);
  // -o DIR/ (or an existing directory): the output goes into it, named after the input
  // (out/vector_add.cubin), as a build system's output folder expects.
  if (!options.outputPath.empty() && options.outputPath != "-") {
    std::error_code ec;
    bool isDir = options.outputPath.back() == '/' ||
                 std::filesystem::is_directory(options.outputPath, ec);
    if (isDir) {
      std::string stem = options.inputPath == "-"
                             ? std::string("stdin")
                             : std::filesystem::path(options.inputPath).stem().string();
      static const std::map<std::string, std::string> extensions = {
          {"ast", ".ast"}, {"tile", ".mlir"}, {"llvm", ".ll"},
          {"ptx", ".ptx"}, {"cubin", ".cubin"}, {"header", ".h"}};
      auto ext = extensions.find(emit);
      std::filesystem::path dir(options.outputPath);
      options.outputPath =
          (dir / (stem + (ext == extensions.end() ? std::string() : ext->second))).string();
    }
  }
  codegen.autoVariants = variants == "auto";
  codegen.variantsGiven = !variants.empty();
  tcc::Driver driver(std::move(options));
  return driver.run();
}
