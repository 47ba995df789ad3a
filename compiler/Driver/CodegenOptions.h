//===- CodegenOptions.h - options of the GPU back half -----------*- C++ -*-===//
//
// What `--emit=llvm|ptx|cubin|header` needs beyond the front end's options: the GPU
// architecture, optimisation level, warps, per-compilation specialisations and IR
// printing. Plain C++ so that Driver.h stays free of MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_DRIVER_CODEGENOPTIONS_H
#define TCC_DRIVER_CODEGENOPTIONS_H

#include <string>
#include <vector>

namespace tcc {

struct CodegenOptions {
  /// --arch: sm_80, sm_86, sm_89, sm_90 (default), sm_90a; several (--arch sm_80,sm_90 or
  /// repeated) build an image per architecture into one artifact. Empty: sm_90.
  std::vector<std::string> archs;
  /// -O0..-O3: LLVM's pipeline, its code generator and ptxas.
  unsigned optLevel = 3;
  /// Whether a multiply and a dependent add may become one fma (Triton's default,
  /// enable_fp_fusion=True); --no-fp-fusion keeps them apart (IEEE rounding of each).
  bool fpFusion = true;
  /// --schedule: the order NVPTX gives each block's instructions, from which ptxas
  /// allocates registers. Source (default): the IR's (LLVM's default, Triton's too);
  /// Pressure: NVPTX's register-pressure list scheduler; Auto: the IR's, and the other
  /// where registers alone limit the programs per SM and it fits more (--emit=cubin|header).
  /// Auto is not the default: on the H200 the one kernel it changed among the benchmarks
  /// (tutorial 04's seeded dropout, 48 -> 32 registers, 10 -> 16 programs an SM) ran 0.5 %
  /// slower in it (bench/RESULTS.md, tenth session).
  enum class Schedule { Auto, Source, Pressure };
  Schedule schedule = Schedule::Source;
  /// --num-warps: warps per program; 0 keeps the kernel's num_warps.
  unsigned numWarps = 0;
  /// --num-stages: pipeline stages of dot loops (tile-pipeline), overriding the kernel's
  /// num_stages (a loop's own range(..., num_stages=) still wins); 0 keeps them (default 3).
  unsigned numStages = 0;
  /// --specialize NAME=D[,NAME=D...]: argument NAME is a multiple of D (a pointer: its
  /// address in bytes). D is a power of two. NAME=eq1: integer argument NAME equals 1 (its
  /// uses are replaced by the constant; the parameter stays in the signature).
  std::vector<std::string> specialize;
  /// --specialize-all: every pointer 16-byte aligned, every i32/i64 divisible by 16
  /// (--specialize entries override it per argument).
  bool specializeAll = false;
  /// --variants=auto (--emit=cubin|header): the general variant, the --specialize-all one
  /// and, when the kernel has inner strides, the same with those strides equal to 1.
  bool autoVariants = false;
  /// Whether --variants was given. Without it, --emit=cubin and --emit=header build the
  /// --variants=auto set (unless --specialize or --specialize-all asks for one variant).
  bool variantsGiven = false;
  /// --check-bounds: every access checked against its argument's extent (tile-check-bounds;
  /// hidden parameters and "check_bounds" in the metadata; the runtime reports violations).
  bool checkBounds = false;
  /// --tma (default; --no-tma turns it off): dot-operand loads a TMA tensor map describes
  /// are copied by the tensor memory accelerator on sm_90a (tile-pipeline), their loops not
  /// split (tile-split-masked-loops).
  bool tma = true;
  /// --warp-specialize: on sm_90a, a dot loop whose operands all come by TMA runs on a
  /// producer warpgroup (the copies) beside the consumer warps (tile-pipeline).
  bool warpSpecialize = false;
  /// --tma-store: on sm_90a, a result tile stored after the loops goes by TMA bulk copies
  /// from a swizzled shared tile (tile-tma-store).
  bool tmaStore = false;
  /// --multicast: on sm_90a, a persistent GEMM launches in clusters of two programs that
  /// take tiles of one column together and multicast B's tile to both (tile-pipeline).
  bool multicast = false;
  /// --ping-pong: on sm_90a, a warp-specialised persistent GEMM of one warpgroup runs two
  /// consumer warpgroups that take its tiles in turn (tile-pipeline's ping-pong).
  bool pingPong = false;
  /// --split-k N: on sm_90, a GEMM (one K loop, accumulator from zero) launches N programs
  /// per tile in clusters of N, each computing a part of the K loop, rank 0 summing the
  /// parts through distributed shared memory and writing the tile (tile-split-k). 1: off.
  unsigned splitK = 1;
  /// On sm_90a, a dot kernel runs its grid's programs as iterations of a loop over the
  /// tiles on num_sms * occupancy programs, in grouped order, its TMA ring kept across the
  /// tiles (tile-persistent). Auto (the default): kernels of a one-dimensional grid whose
  /// dot loops are one loop nest and that do not schedule their own tiles; On
  /// (--persistent): every dot kernel the pass can take; Off (--no-persistent): one
  /// program per tile.
  enum class Persistent { Auto, On, Off };
  Persistent persistent = Persistent::Auto;
  /// --mlir-print-ir-after-all: the IR after every pass, on stderr.
  bool printIRAfterAll = false;
  /// --ptxas-verbose: ptxas -v (registers, spills, shared memory) on stderr.
  bool ptxasVerbose = false;
  /// --namespace (--emit=header): the C++ namespace of the launchers and images. Empty: one
  /// named after the file and a hash of the configuration, with global using-declarations.
  std::string cxxNamespace;
  /// --embed (--emit=header): "cubin", "ptx" or "both"; empty: cubin where ptxas exists,
  /// otherwise PTX (JIT-compiled by the driver at first launch).
  std::string embed;
  /// --depfile FILE: a Make-syntax file listing what the output depends on.
  std::string depfile;
  /// --verbose: one line per compiled variant on stderr (assumptions, architecture,
  /// registers, stack, spills, shared memory, warps).
  bool verbose = false;
  /// -j/--jobs: configurations of an @autotune space compiled at once, and the images of one
  /// configuration (variants x architectures) taken through LLVM, NVPTX and ptxas at once
  /// (0: one per core).
  unsigned jobs = 0;
  /// --max-spill-bytes: a configuration of an @autotune space whose variants spill more
  /// (stores plus loads, as ptxas reports them) is dropped from the space. -1: no limit.
  long long maxSpillBytes = 0;
  /// --time-passes: wall time of the front end, each MLIR pass, LLVM's optimisation
  /// pipeline, NVPTX code generation and ptxas, on stderr.
  bool timePasses = false;
  /// A pass that crashes is reported as an internal compiler error and tcc exits 1 (a crash
  /// recovery context around the pass manager). The fuzz targets turn it off, so that the
  /// crash reaches libFuzzer (and is recorded) as it is. Not a command-line option.
  bool recoverCrashes = true;
};

} // namespace tcc

#endif // TCC_DRIVER_CODEGENOPTIONS_H
