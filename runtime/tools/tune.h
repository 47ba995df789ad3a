// The offline tuner (docs/autotuning.md, "Offline tuning" and "The report"): benchmarks
// every configuration of an autotuned artifact for each of a list of argument sets, with
// the runtime's own tuner (tcc::Kernel::measureArgs), and writes the tuning table and a
// performance report (text, CSV, JSON, an SVG of the sweep and an SVG roofline against the
// ceilings measured in the same run). `tcc-tune` is a command line over it (no LLVM, no
// MLIR: it builds in the runtime-only configuration a GPU machine uses) and `tcc tune`
// compiles the space first and calls the same run(). Everything but run() and
// measureCeilings() works without a GPU (the unit tests use it so).
#pragma once

#include "tcc/arg_spec.h"
#include "tcc/metadata.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tcc {
namespace tune {

struct Options {
  std::string artifact;             // a folder or a metadata file, as tcc::Library takes
  std::string kernel;               // --kernel (empty: the artifact's only kernel)
  std::vector<std::string> shapes;  // --shape NAME=V1,V2,...: several flags, a cross product
  std::vector<std::string> args;    // NAME=SPEC for the other parameters (tcc/arg_spec.h)
  std::string argsFile;             // --args FILE.json: a list of argument sets instead
  std::string table;                // -o TABLE.json (empty: no table written)
  std::string reportDir;            // --report DIR (empty: no files)
  enum class Format { Text, Csv, Json } format = Format::Text; // standard output
  uint64_t seed = 0;                // of rand: and randn:
  double budgetMs = 0;              // --budget-ms: timed per configuration (0: as the tuner)
  std::string peak;                 // --peak ARTIFACT: the tensor_peak kernel (the
                                    // tensor-core ceiling); empty: not measured
  bool noCeilings = false;          // --no-ceilings: measure neither ceiling
  // --devices 0,2 / --devices all: the GPUs to measure on (empty: the current context's, or
  // $TCC_DEVICE's). Devices of one model (name and compute capability) share the argument
  // sets, each measuring its part concurrently, into one report; each model is tuned on
  // its own (a report each, their entries in one table).
  std::vector<int> devices;
  bool allDevices = false;
};

// The usage text of `tcc-tune` (`tcc tune` adds its compile options to it).
std::string usage(const std::string& program);

// Parses the tuner's options (after the program name; `positional` receives the words
// that are not options, in order: the artifact for tcc-tune, the .tile for tcc tune).
// Returns false with *error for a bad command line; sets *help for --help/-h.
bool parseCommandLine(const std::vector<std::string>& words, Options* options,
                      std::vector<std::string>* positional, bool* help, std::string* error);

// One argument set: a value or buffer for every parameter, in parameter order.
struct ArgSet {
  std::string label;                          // "M=4096, N=4096": the shape's scalars
  std::vector<std::pair<std::string, std::string>> scalars; // name, value text
  std::vector<args::Spec> buffers;            // pointer parameters
  // The scalar `name` as an integer (nullopt: absent or not an integer).
  std::optional<int64_t> integer(const std::string& name) const;
  const std::string* scalar(const std::string& name) const;
};

// The argument sets for `params`: the cross product of the --shape lists (the first flag
// varies slowest), each completed by the NAME=SPEC arguments; or the --args file's list.
// Every parameter must be given exactly once, pointers as buffers, scalars as values, and
// each buffer's shape must evaluate. False with the reason.
bool argumentSets(const Options& options, const std::vector<ParamInfo>& params,
                  std::vector<ArgSet>* sets, std::string* error);
// The --args file: a JSON list of objects, each parameter a number, a boolean or a string
// (a scalar's text or a buffer's SPEC): [{"n": 1024, "x": "rand:n", ...}, ...].
bool parseArgSetsJson(const std::string& text, const std::string& origin,
                      const std::vector<ParamInfo>& params, std::vector<ArgSet>* sets,
                      std::string* error);

// A cost count (metadata "cost") or any grid expression of kernel `m`, evaluated with the
// argument set's integers, the constexprs and `numSms` (occupancy is not known here: an
// expression naming it does not evaluate). nullopt with *why when it does not evaluate.
std::optional<double> evaluateCount(const std::string& expr, const KernelMetadata& m,
                                    const ArgSet& set, int64_t numSms, std::string* why);

struct ConfigResult {
  int index = 0;        // autotune index
  std::string config;   // its configString()
  bool ok = false;
  std::string error;
  double medianMs = 0, p20Ms = 0, p80Ms = 0;
  int reps = 0;
  std::optional<double> bytes, flops; // the compiler's counts for this argument set
  double gbps() const { return ok && bytes && medianMs > 0 ? *bytes / (medianMs * 1e6) : 0; }
  double tflops() const { return ok && flops && medianMs > 0 ? *flops / (medianMs * 1e9) : 0; }
};

struct ShapeResult {
  std::string label; // the argument set's label
  std::string key;   // the bucketed key, as the tuning table writes it
  std::vector<ConfigResult> configs; // by autotune index
};

struct Ceilings {
  double copyGBps = 0;      // device-to-device copy (read + written bytes); 0: not measured
  double tensorTFLOPs = 0;  // tensor_peak's rate; 0: not measured
  std::string copyNote, tensorNote; // how each was measured, or why not
};

// Where one measurement sits against the ceilings measured in the same run (the roofline):
// its achieved rates, their fractions of the ceilings, its arithmetic intensity, and which
// ceiling bounds it. One code for tcc-tune's report and the benchmark programs (bench/).
enum class Bound { Unknown, Memory, Compute };
struct Placement {
  std::optional<double> gbps, tflops;                    // bytes / median, flops / median
  std::optional<double> fractionOfCopy, fractionOfTensor; // of the ceilings
  std::optional<double> intensity;                       // flops / bytes (FLOP per byte)
  // The ridge point, tensor-core rate / copy bandwidth in FLOP per byte: a kernel whose
  // intensity is below it cannot reach the tensor-core rate, whatever it does.
  std::optional<double> ridge;
  // Memory where the intensity is below the ridge or there are no FLOPs (pure data
  // movement), compute at or above it; unknown without bytes, or with FLOPs but no ridge
  // (a ceiling not measured).
  Bound bound = Bound::Unknown;
};
// `bytes` and `flops` of one launch (nullopt: not counted), `medianMs` its median time
// (<= 0: not measured: no rates, no fractions; intensity and bound still placed).
Placement place(const Ceilings& c, double medianMs, std::optional<double> bytes,
                std::optional<double> flops);
// "memory", "compute" or "unknown".
const char* boundName(Bound b);

struct Report {
  std::string kernel, space, device;
  int computeCapability = 0, driverVersion = 0;
  Ceilings ceilings;
  std::vector<ShapeResult> shapes;
};

// The best and the runner-up of one argument set (positions in configs; -1: none), the
// gap between their medians in percent of the best, and whether it is inside the noise:
// the runner-up's p20 at or below the best's p80 (their p20-p80 spreads overlap).
struct Ranking {
  int best = -1, runnerUp = -1;
  double gapPercent = 0;
  bool withinNoise = false;
};
Ranking rank(const ShapeResult& shape);

std::string textReport(const Report& r);
std::string csvReport(const Report& r);
std::string jsonReport(const Report& r);
// Median time per configuration per argument set (grouped bars, log scale).
std::string sweepSvg(const Report& r);
// Each measured configuration and argument set at (flops / bytes, achieved TFLOP/s)
// under the roof min(copy bandwidth x intensity, tensor-core rate), log-log.
std::string rooflineSvg(const Report& r);
// The tuning table (docs/autotuning.md) choosing each argument set's best; where two sets
// share a key, the first's choice is kept and a line in *warnings says so.
std::string tuningTable(const Report& r, std::vector<std::string>* warnings);
// One table with the entries of several reports (one per device model).
std::string tuningTable(const std::vector<Report>& reports, std::vector<std::string>* warnings);
// The devices of --devices (or the current one), grouped by model in the order first met:
// each group's ordinals. False with the reason for an ordinal the driver does not have.
bool deviceGroups(const Options& options, std::vector<std::vector<int>>* groups,
                  std::string* error);
// report.txt, report.csv, report.json, sweep.svg and roofline.svg in `dir` (created).
bool writeReport(const Report& r, const std::string& dir, std::string* error);

// Measures the ceilings on the current device: the copy bandwidth (cuMemcpyDtoDAsync of
// 1 GiB, or a quarter of the free memory) and, when `peakArtifact` is given, the
// tensor_peak kernel's TFLOP/s. Needs a GPU; never throws (notes say what failed).
Ceilings measureCeilings(const std::string& peakArtifact, double budgetMs);

// Whether a CUDA driver and at least one device answer; false with the reason. (For the
// compiler's `tcc tune`, whose tcc::Driver is not the runtime's.)
bool gpuAvailable(std::string* why);

// The whole run: loads the artifact, measures every argument set, prints the report on
// standard output, writes the table and the report folder. Returns the exit code (0; 1
// with one "tcc-tune: error: ..." line on stderr, e.g. without a GPU).
int run(const Options& options, const std::string& program = "tcc-tune");

} // namespace tune
} // namespace tcc
