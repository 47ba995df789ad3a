#include "summary.h"

#include <algorithm>
#include <cstdio>

namespace benchutil {
namespace {

std::string num(const char* f, std::optional<double> v) {
  if (!v)
    return "-";
  char b[64];
  std::snprintf(b, sizeof b, f, *v);
  return b;
}

std::string csvNum(const char* f, std::optional<double> v) {
  return v ? num(f, v) : std::string();
}

tcc::json::Value orNull(std::optional<double> v) {
  return v ? tcc::json::Value(*v) : tcc::json::Value();
}

} // namespace

Measurement measured(const std::string& workload, const std::string& source,
                     const std::string& config, const std::string& metric,
                     const tcc::bench::Result& r, bool ok, double bytes, double flops) {
  Measurement m;
  m.workload = workload;
  m.source = source;
  m.config = config;
  m.metric = metric;
  m.r = r;
  if (ok) {
    m.bytes = bytes;
    m.flops = flops;
  }
  return m;
}

tcc::tune::Placement placement(const Measurement& m, const tcc::tune::Ceilings& c) {
  return tcc::tune::place(c, m.r.median, m.bytes, m.flops);
}

double rate(const Measurement& m) {
  const tcc::tune::Placement p = tcc::tune::place({}, m.r.median, m.bytes, m.flops);
  const std::optional<double> v = m.metric == "TFLOP/s" ? p.tflops : p.gbps;
  return v ? *v : 0;
}

std::string ceilingsLine(const tcc::tune::Ceilings& c) {
  std::string s = "copy " + (c.copyGBps > 0 ? num("%.1f GB/s", c.copyGBps) + " (" + c.copyNote + ")"
                                            : c.copyNote);
  s += ", tensor cores " +
       (c.tensorTFLOPs > 0 ? num("%.1f TFLOP/s", c.tensorTFLOPs) + " (" + c.tensorNote + ")"
                           : c.tensorNote);
  const tcc::tune::Placement p = tcc::tune::place(c, 0, std::nullopt, std::nullopt);
  if (p.ridge)
    s += "; ridge " + num("%.1f", p.ridge) + " FLOP/B (below it a kernel is memory-bound)";
  return s;
}

std::string summaryTable(const std::vector<SummaryLine>& lines, const tcc::tune::Ceilings& c) {
  size_t ww = 8, cw = 6;
  for (const SummaryLine& l : lines) {
    ww = std::max(ww, l.m.workload.size());
    cw = std::max(cw, l.m.config.size());
  }
  char b[640];
  std::snprintf(b, sizeof b, "%-*s %-*s %10s %10s %10s %16s %6s %7s %9s %-7s %s\n", int(ww),
                "workload", int(cw), "config", "median_ms", "p20_ms", "p80_ms", "rate", "%copy",
                "%tensor", "FLOP/B", "bound", "tcc/Triton (min-max)");
  std::string t = b;
  for (const SummaryLine& l : lines) {
    if (!l.note.empty()) {
      std::snprintf(b, sizeof b, "%-*s %-*s %s\n", int(ww), l.m.workload.c_str(), int(cw),
                    l.m.config.c_str(), l.note.c_str());
      t += b;
      continue;
    }
    const tcc::tune::Placement p = placement(l.m, c);
    const std::optional<double> fc = p.fractionOfCopy, ft = p.fractionOfTensor;
    const std::string ratio =
        l.ratio ? num("%.3f", l.ratio) + " (" + num("%.3f", l.ratioMin) + "-" +
                      num("%.3f", l.ratioMax) + ")"
                : "-";
    std::snprintf(b, sizeof b, "%-*s %-*s %10.4f %10.4f %10.4f %16s %6s %7s %9s %-7s %s\n",
                  int(ww), l.m.workload.c_str(), int(cw), l.m.config.c_str(), l.m.r.median,
                  l.m.r.p20, l.m.r.p80,
                  (num(l.m.metric == "TFLOP/s" ? "%.1f" : "%.0f", rate(l.m)) + " " + l.m.metric)
                      .c_str(),
                  num("%.1f", fc ? std::optional<double>(*fc * 100) : std::nullopt).c_str(),
                  num("%.2f", ft ? std::optional<double>(*ft * 100) : std::nullopt).c_str(),
                  num("%.3g", p.intensity).c_str(), tcc::tune::boundName(p.bound), ratio.c_str());
    t += b;
  }
  return t;
}

tcc::tune::Report rooflineReport(const std::vector<SummaryLine>& lines,
                                 const tcc::tune::Ceilings& c, const std::string& device) {
  tcc::tune::Report r;
  r.kernel = "tcc-bench";
  r.device = device;
  r.ceilings = c;
  for (const SummaryLine& l : lines) {
    tcc::tune::ShapeResult s;
    s.label = l.m.workload;
    tcc::tune::ConfigResult k;
    k.config = l.m.config;
    k.ok = l.note.empty() && l.m.r.median > 0;
    k.error = l.note;
    k.medianMs = l.m.r.median;
    k.p20Ms = l.m.r.p20;
    k.p80Ms = l.m.r.p80;
    k.reps = l.m.r.reps;
    k.bytes = l.m.bytes;
    k.flops = l.m.flops;
    s.configs.push_back(k);
    r.shapes.push_back(s);
  }
  return r;
}

const char* const kCsvRooflineHeader =
    "fraction_of_tensor,tensor_tflops,bytes,flops,intensity,bound";

std::string csvRoofline(const Measurement& m, const tcc::tune::Ceilings& c) {
  const tcc::tune::Placement p = placement(m, c);
  return csvNum("%.6g", p.fractionOfTensor) + "," +
         csvNum("%.6g", c.tensorTFLOPs > 0 ? std::optional<double>(c.tensorTFLOPs) : std::nullopt) +
         "," + csvNum("%.0f", m.bytes) + "," + csvNum("%.0f", m.flops) + "," +
         csvNum("%.6g", p.intensity) + "," + tcc::tune::boundName(p.bound);
}

void setRoofline(tcc::json::Value& o, const Measurement& m, const tcc::tune::Ceilings& c) {
  const tcc::tune::Placement p = placement(m, c);
  o.set("bytes", orNull(m.bytes));
  o.set("flops", orNull(m.flops));
  o.set("gbps", orNull(p.gbps));
  o.set("tflops", orNull(p.tflops));
  o.set("fraction_of_copy", orNull(p.fractionOfCopy));
  o.set("fraction_of_tensor", orNull(p.fractionOfTensor));
  o.set("intensity", orNull(p.intensity));
  o.set("bound", tcc::tune::boundName(p.bound));
}

tcc::json::Value ceilingsJson(const tcc::tune::Ceilings& c) {
  tcc::json::Value o = tcc::json::Value::object();
  o.set("copy_gbps", c.copyGBps > 0 ? tcc::json::Value(c.copyGBps) : tcc::json::Value());
  o.set("copy_note", c.copyNote);
  o.set("tensor_tflops", c.tensorTFLOPs > 0 ? tcc::json::Value(c.tensorTFLOPs) : tcc::json::Value());
  o.set("tensor_note", c.tensorNote);
  o.set("ridge_flop_per_byte", orNull(tcc::tune::place(c, 0, std::nullopt, std::nullopt).ridge));
  return o;
}

} // namespace benchutil
