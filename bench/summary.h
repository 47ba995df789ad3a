// The per-workload report of tcc-bench (issue 12 item 5): for every workload, tcc's best
// configuration with its median, p20-p80 spread and achieved rate, the fractions of the
// device ceilings measured in the same run (copy bandwidth, tensor-core rate), the
// arithmetic intensity of the bytes the workload moves and the FLOPs it computes, whether
// that makes it memory- or compute-bound, and the same-harness tcc/Triton ratio where one
// was measured. The placement against the ceilings is tcc-tune's (tcc::tune::place in
// runtime/tools/tune.h): one code for both reports. Pure functions: no GPU.
#pragma once

#include "tcc/bench.h"
#include "tcc/json.h"
#include "tune.h"

#include <optional>
#include <string>
#include <vector>

namespace benchutil {

// One measured kernel of a workload.
struct Measurement {
  std::string workload, source, config;
  std::string metric = "GB/s"; // the workload's rate: "GB/s" or "TFLOP/s"
  tcc::bench::Result r;        // median, p20, p80 (ms)
  std::optional<double> bytes, flops; // what the workload moves and computes (nullopt: not counted)
};

// A measurement of `r`; the counts only when it ran (`ok`), else none.
Measurement measured(const std::string& workload, const std::string& source,
                     const std::string& config, const std::string& metric,
                     const tcc::bench::Result& r, bool ok, double bytes, double flops);

// Where it sits against the ceilings (tcc::tune::place at the median).
tcc::tune::Placement placement(const Measurement& m, const tcc::tune::Ceilings& c);

// Its rate in its metric at the median (0 when not counted or not timed).
double rate(const Measurement& m);

// "copy 4650.0 GB/s (how), tensor cores 690.0 TFLOP/s (how); ridge 148.4 FLOP/B", or what
// was not measured and why.
std::string ceilingsLine(const tcc::tune::Ceilings& c);

// One line of the summary: a workload's best tcc measurement, and the same-harness
// comparison with Triton's best cubin when there was one.
struct SummaryLine {
  Measurement m;
  std::optional<double> ratio, ratioMin, ratioMax; // tcc/Triton, same harness
  std::string note; // instead of the numbers when nothing correct was measured
};

// The table: a header, then one line per entry (workload, config, median, p20, p80, rate,
// %copy, %tensor, FLOP/B, bound, tcc/Triton with its min-max).
std::string summaryTable(const std::vector<SummaryLine>& lines, const tcc::tune::Ceilings& c);

// The summary as a tcc-tune report of one configuration per workload (label the workload,
// config its configuration), for tcc::tune::rooflineSvg: the same chart as tcc-tune's.
tcc::tune::Report rooflineReport(const std::vector<SummaryLine>& lines,
                                 const tcc::tune::Ceilings& c, const std::string& device);

// CSV columns appended to tcc-bench's rows (after kCsvRooflineHeader's names): the fraction
// of the tensor-core rate, the ceiling itself, bytes, FLOPs, intensity and bound; empty
// fields where not known.
extern const char* const kCsvRooflineHeader; // "fraction_of_tensor,tensor_tflops,bytes,..."
std::string csvRoofline(const Measurement& m, const tcc::tune::Ceilings& c);

// The same in JSON, set on `o`: bytes, flops (null when not counted), gbps, tflops,
// fraction_of_copy, fraction_of_tensor, intensity (null where unknown), bound.
void setRoofline(tcc::json::Value& o, const Measurement& m, const tcc::tune::Ceilings& c);

// The ceilings as JSON: copy_gbps, copy_note, tensor_tflops, tensor_note, ridge_flop_per_byte.
tcc::json::Value ceilingsJson(const tcc::tune::Ceilings& c);

} // namespace benchutil
