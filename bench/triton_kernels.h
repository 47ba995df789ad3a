// Triton's own compiled kernels, timed by tcc's harness: bench/triton_bench.py --export DIR
// writes, per workload and Triton configuration it benchmarks, Triton's cubin and a JSON
// (kernel name, num_warps, shared bytes, grid, and the parameter list in the order Triton
// 3.6's launcher passes it: the non-constexpr arguments, then its trailing global and profile
// scratch pointers), each checked there by launching the cubin through ctypes against
// Triton's own output. tcc-bench --triton DIR loads them with the runtime's driver table,
// binds their pointer parameters to its own buffers by role ("x", "out", ...), checks their
// output like tcc's, and times tcc's best configuration and Triton's best alternately with
// tcc::bench::run (A/B/A/B, several rounds): one harness for both compilers.
#pragma once

#include "tcc/tcc.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace benchutil {

struct TritonParam {
  enum class Kind { Pointer, Scratch, I32, U32, I64, U64, F32, F64 };
  Kind kind = Kind::I32;
  std::string name, type; // Triton's argument name and signature type ("*fp32", "i32", ...)
  std::string buffer;     // Pointer: the role of the buffer it points to ("x", "out", ...)
  int64_t i = 0;          // integers
  double f = 0;           // floats
  size_t scratchBytes = 0, scratchAlign = 1; // Scratch: bytes per program (0: a null pointer)
};

struct TritonExport {
  std::string path;     // the JSON file
  std::string workload; // "softmax_16384x4096"
  std::string config;   // "BLOCK=4096,num_warps=4"
  std::string name;     // the cubin's kernel (compiled.metadata.name)
  std::string cubin;    // path of the cubin
  std::string tritonVersion;
  int numWarps = 0, numCtas = 1, shared = 0;
  bool cooperative = false, pdl = false;
  unsigned grid[3] = {1, 1, 1};
  int64_t M = 0, N = 0, K = 0, n = 0; // the workload's shape (n: elementwise)
  std::vector<TritonParam> params;
};

// Every export of `workload` (DIR/<workload>/*.json), sorted by file name; none when the
// folder is missing. Throws tcc::Error for a malformed file.
std::vector<TritonExport> tritonExports(const std::string& dir, const std::string& workload);

// One exported kernel, loaded into the current context and bound to buffers.
class TritonKernel {
public:
  // Loads the cubin, sets its shared memory as Triton's loader does (above 48 KiB: prefer
  // shared, and allow the device's opt-in maximum less the static part), checks the
  // parameter list against the cubin's own (cuFuncGetParamInfo: count and sizes), and binds
  // each pointer to buffer(role). Throws tcc::Error saying what does not match.
  TritonKernel(const TritonExport& e, const std::function<CUdeviceptr(const std::string&)>& buffer);
  ~TritonKernel();
  TritonKernel(const TritonKernel&) = delete;
  TritonKernel& operator=(const TritonKernel&) = delete;
  // Enqueues one launch (cuLaunchKernel: the export's grid, 32 x num_warps threads, its
  // shared bytes), as Triton 3.6's launcher does for num_ctas = 1.
  void launch(CUstream s);
  const TritonExport& info() const { return e_; }
  std::string paramCheck() const { return paramCheck_; } // how the parameter list was checked

private:
  TritonExport e_;
  CUmodule mod_ = nullptr;
  CUfunction fn_ = nullptr;
  std::vector<uint64_t> storage_;
  std::vector<void*> ptrs_;
  std::vector<tcc::bench::DeviceBuffer> scratch_;
  std::string paramCheck_;
};

// The same-harness comparison of one workload.
struct SameHarnessCandidate {
  std::string config, note; // note: why it was left out (wrong output, cannot load)
  bool correct = false;
  double value = 0; // one tcc::bench::run, in the metric
};

struct SameHarnessRow {
  std::string workload, metric, tccConfig, tritonConfig, note;
  bool ok = false;
  int rounds = 0;
  std::vector<double> tcc, triton, ratio; // per round: rates and tcc/Triton
  double tccMedian = 0, tritonMedian = 0;
  double ratioMedian = 0, ratioMin = 0, ratioMax = 0;
  std::vector<SameHarnessCandidate> candidates;
};

// A Triton configuration that passed its check, ready to time.
struct TritonCandidate {
  std::string config;
  std::function<void(CUstream)> launch;
};

// Times every candidate once (tcc::bench::run), takes the fastest, then times tcc's
// `tccLaunch` and it alternately, `rounds` times each (tcc first), with `options`. `amount`:
// bytes (metric "GB/s") or FLOPs ("TFLOP/s"). Prints the rounds. Fills `row` (whose
// candidates list the checked-out ones already).
void compareSameHarness(SameHarnessRow& row, double amount, const std::string& tccConfig,
                        const std::function<void(CUstream)>& tccLaunch,
                        const std::vector<TritonCandidate>& candidates, int rounds,
                        const tcc::bench::Options& options);

tcc::json::Value toJson(const SameHarnessRow& row);

// The summary table of every same-harness row (one line each).
void printSameHarnessSummary(const std::vector<SameHarnessRow>& rows);

} // namespace benchutil
