// The 2-D workloads of issues 5 and 7 (transpose, softmax, bias add, layer norm, fp16
// matmul with and without a fused bias) on the shapes of shared/design/PERFORMANCE.md, and
// the ports of Triton's tutorials (lang-examples/triton/: 01 vector add, 02 fused softmax,
// 03 matmul, 04 dropout with and without a seed, 05 layer norm forward, 06 fused attention
// forward, 07 extern functions (libdevice asin), 08 grouped GEMM, 09 persistent matmul) at
// the tutorials' shapes (issue 13), for every applicable configuration of tcc's kernels:
// each checked (output poisoned, all elements or sampled rows against
// a CPU reference; the seeded dropout bit for bit against Triton's Philox), then timed with
// the runtime's harness (L2 flushed, median), as GB/s and fraction of the device copy, or
// TFLOP/s. bench/triton_bench.py runs Triton (for the tutorials, their original kernels:
// bench/triton_tutorials.py) and PyTorch on the same names and shapes.
#pragma once

#include "summary.h"
#include "tcc/tcc.h"
#include "triton_kernels.h"

#include <functional>
#include <string>
#include <vector>

namespace benchutil {

struct WorkloadRow {
  std::string workload; // "softmax_16384x4096": the key shared with triton_bench.py
  std::string kernel, source, config, variant, note;
  std::string metric; // "GB/s" or "TFLOP/s"
  bool ok = false, correct = false;
  double value = 0;          // in `metric`
  double fractionOfCopy = 0; // GB/s rows: of the measured device copy
  double bytes = 0, flops = 0; // what the workload moves (read + written) and computes
  tcc::bench::Result r;
  Measurement measurement() const; // for the roofline columns and the summary
};

struct WorkloadOptions {
  std::string artifacts;
  std::string filter;  // only workloads or configurations whose name contains it (A,B: either)
  double copyGbps = 0; // the device copy, for the fractions
  tcc::tune::Ceilings ceilings; // copy and tensor-core ceilings of this run (the roofline)
  tcc::bench::Options bench;
  std::string triton; // tcc-bench --triton: triton_bench.py --export's folder ("" : none)
  int rounds = 5;     // A/B rounds of the same-harness comparison
  // Called before each workload with the rows so far (tcc-bench writes its JSON and CSV
  // there, so that a run its time limit cuts short keeps every workload finished by then).
  std::function<void(const std::vector<WorkloadRow>&)> progress;
};

// The f32 buffers tcc-bench already holds for the elementwise kernels (n elements each;
// hx, hy their host copies, values in +-[0.5, 4]): the memory-bound workloads read x (and
// y for bias, weights and shifts) and write out; the matmul operands are made from hx, hy.
struct SharedInputs {
  CUdeviceptr x = 0, y = 0, out = 0;
  const float* hx = nullptr;
  const float* hy = nullptr;
  int64_t n = 0;
};

// Runs every workload over the configurations found; prints a table as it goes. With
// options.triton, also compares tcc's best configuration of each workload with Triton's
// exported cubins in the same harness (bench/triton_kernels.h), into *same.
std::vector<WorkloadRow> runWorkloads(const WorkloadOptions& options, const SharedInputs& in,
                                      std::vector<SameHarnessRow>* same = nullptr);

tcc::json::Value toJson(const WorkloadRow& row, const tcc::tune::Ceilings& ceilings);

} // namespace benchutil
