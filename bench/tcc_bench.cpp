// tcc-bench: times every elementwise (copy/add) kernel configuration found under an
// artifacts folder at one size, then the 2-D workloads and the ports of Triton's tutorials
// (bench/workloads.h: transpose, softmax, bias add, layer norm, fp16 matmul; tutorials 01-05, 08, 09),
// each after checking its output, against the device's ceilings measured in the same run
// (tcc-tune's: the copy bandwidth, and the tensor-core rate of tcc/tensor_peak). Prints
// tables, then the per-workload summary (bench/summary.h: median, p20-p80, rate, fractions
// of both ceilings, arithmetic intensity, memory- or compute-bound, tcc/Triton); writes
// JSON and CSV with the same numbers.
//
//   tcc-bench --artifacts DIR [--n 268435456] [--budget-ms 200] [--filter STR[,STR...]]
//             [--skip-elementwise] [--skip-workloads] [--json FILE] [--csv FILE]
//             [--triton DIR [--rounds 6]] [--peak DIR] [--roofline FILE.svg]
//
// --triton DIR (from `python3 bench/triton_bench.py --export DIR`): Triton's own cubins of
// the same workloads (and vector add/copy at the same n), loaded with the runtime's driver
// table, checked like tcc's, and timed by this same harness (tcc::bench::run): every
// exported Triton configuration once, then tcc's best configuration and Triton's best
// alternately, --rounds times each (A/B, B/A, A/B, ...), per-round rates and the tcc/Triton
// ratio of each pair of rounds (one in each order), with its median and min-max over the
// pairs ("same harness" in the JSON and CSV).
#include "common.h"
#include "summary.h"
#include "tcc/atomic_file.h"
#include "triton_kernels.h"
#include "tune.h"
#include "workloads.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: tcc-bench --artifacts DIR [--n N] [--budget-ms MS] [--filter STR[,STR...]] "
               "[--skip-elementwise] [--skip-workloads] [--json FILE] [--csv FILE] "
               "[--triton DIR [--rounds N]] [--peak DIR] [--roofline FILE.svg]\n"
               "  --triton DIR  Triton's cubins exported by `bench/triton_bench.py --export DIR`:\n"
               "                each checked, then tcc's best and Triton's best timed by this\n"
               "                harness alternately (A/B, B/A), per-round rates and tcc/Triton ratio\n"
               "  --rounds N    rounds of that comparison, alternating the order (default 6:\n"
               "                three pairs)\n"
               "  --peak DIR    the tensor_peak artifact, the tensor-core ceiling (default\n"
               "                ARTIFACTS/tcc/tensor_peak when it exists; 'none': not measured)\n"
               "  --roofline F  the per-workload summary as tcc-tune's roofline chart (SVG)\n");
  std::exit(2);
}

void fillRandom(std::vector<float>& v, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (float& f : v) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    // +-[0.5, 4]: never zero, and a range in which softmax's check is meaningful.
    f = (0.5f + 3.5f * static_cast<float>(s >> 40) * (1.0f / 16777216.0f)) * ((s & 1) ? 1 : -1);
  }
}

struct Row {
  std::string source, kernel, config, variant, note;
  bool ok = false, correct = false;
  double bytes = 0, flops = 0; // flops: one add per element (vector_add), none (copy)
  tcc::bench::Result r;
  benchutil::Measurement measurement(int64_t n) const {
    return benchutil::measured(kernel + "_" + std::to_string(n), source, config, "GB/s", r, ok,
                               bytes, flops);
  }
};

} // namespace

int main(int argc, char** argv) {
  std::string artifacts, jsonPath, csvPath, filter;
  int64_t n = int64_t(1) << 28;
  double budget = 200;
  bool skipElementwise = false, skipWorkloads = false;
  std::string tritonDir, peak, rooflinePath;
  bool peakGiven = false;
  int rounds = 6;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc)
        usage();
      return argv[++i];
    };
    if (a == "--artifacts")
      artifacts = next();
    else if (a == "--n")
      n = std::atoll(next().c_str());
    else if (a == "--budget-ms")
      budget = std::atof(next().c_str());
    else if (a == "--filter")
      filter = next();
    else if (a == "--json")
      jsonPath = next();
    else if (a == "--csv")
      csvPath = next();
    else if (a == "--skip-elementwise")
      skipElementwise = true;
    else if (a == "--skip-workloads")
      skipWorkloads = true;
    else if (a == "--triton")
      tritonDir = next();
    else if (a == "--rounds")
      rounds = std::atoi(next().c_str());
    else if (a == "--roofline")
      rooflinePath = next();
    else if (a == "--peak") {
      peak = next();
      peakGiven = true;
    }
    else if (a == "--help" || a == "-h")
      usage();
    else
      usage();
  }
  if (artifacts.empty() || n <= 0 || n > INT32_MAX || rounds < 1)
    usage();
  std::string why;
  if (!tcc::driverAvailable(&why)) {
    std::fprintf(stderr, "tcc-bench: no GPU: %s\n", why.c_str());
    return 1;
  }
  try {
    tcc::ensureContext();
    const tcc::Driver& d = tcc::driver();
    std::string device = tcc::deviceDescription();
    tcc::bench::Options opt;
    opt.budgetMs = budget;
    const size_t bytes = static_cast<size_t>(n) * sizeof(float);
    // The ceilings as tcc-tune measures them (runtime/tools/tune.h): the device copy and,
    // with the tensor_peak artifact, the tensor-core rate.
    if (!peakGiven && tcc::isKernelMetadataFile(artifacts + "/tcc/tensor_peak/tensor_peak.json"))
      peak = artifacts + "/tcc/tensor_peak";
    if (peak == "none")
      peak.clear();
    const tcc::tune::Ceilings ceilings = tcc::tune::measureCeilings(peak, budget);
    const double copy = ceilings.copyGBps;
    std::printf("device %s, L2 %zu MiB, n = %lld fp32\nceilings: %s\n", device.c_str(),
                tcc::bench::l2Bytes() >> 20, static_cast<long long>(n),
                benchutil::ceilingsLine(ceilings).c_str());

    tcc::bench::DeviceBuffer x(bytes), y(bytes), out(bytes);
    std::vector<float> hx(static_cast<size_t>(n)), hy(static_cast<size_t>(n)),
        ho(static_cast<size_t>(n));
    fillRandom(hx, 11);
    fillRandom(hy, 12);
    tcc::check(d.cuMemcpyHtoD(x.get(), hx.data(), bytes), "uploading x");
    tcc::check(d.cuMemcpyHtoD(y.get(), hy.data(), bytes), "uploading y");

    // Compares the output of one elementwise launch with the host reference: "" when exact.
    auto checkElementwise = [&](bool isAdd, const std::function<void(CUstream)>& launch) {
      tcc::check(d.cuMemsetD32(out.get(), 0x7fbadbadu, static_cast<size_t>(n)), "poisoning");
      launch(nullptr);
      tcc::check(d.cuCtxSynchronize(), "running an elementwise kernel");
      tcc::check(d.cuMemcpyDtoH(ho.data(), out.get(), bytes), "downloading");
      int64_t bad = 0;
      for (int64_t i = 0; i < n; ++i) {
        float ref = isAdd ? hx[i] + hy[i] : hx[i];
        bad += std::memcmp(&ref, &ho[i], sizeof ref) != 0;
      }
      return bad ? std::to_string(bad) + " wrong elements" : std::string();
    };
    // tcc's fastest correct configuration of each elementwise kernel (same-harness runs).
    struct Best {
      double gbps = 0;
      std::string config;
      std::unique_ptr<tcc::Library> lib;
      tcc::Kernel* k = nullptr;
      bool isAdd = false;
    };
    std::map<std::string, Best> bestElementwise;

    std::vector<Row> rows;
    // tcc's own configurations (the nvcc cubins under fixture/ are there for the runtime's
    // tests of packaged foreign cubins, not to be timed).
    for (const std::string& dir : benchutil::configFolders(artifacts + "/tcc")) {
      std::string rel = benchutil::relative(artifacts, dir);
      if (skipElementwise || (rel.find("/vector_add/") == std::string::npos &&
                              rel.find("/vector_copy/") == std::string::npos))
        continue;
      if (!benchutil::matchesFilter(filter, rel))
        continue;
      Row row;
      size_t s1 = rel.find('/');
      size_t s2 = rel.find('/', s1 == std::string::npos ? 0 : s1 + 1);
      row.source = rel.substr(0, s1);
      row.config = s2 == std::string::npos ? rel : rel.substr(s2 + 1);
      try {
        auto lib = std::make_unique<tcc::Library>(dir);
        std::vector<std::string> names = lib->kernelNames();
        if (names.size() != 1)
          throw tcc::Error("benchmarking " + rel, "expected one kernel per folder");
        row.kernel = names.front();
        tcc::Kernel& k = lib->kernel(row.kernel);
        size_t ptrs = 0;
        for (const tcc::ParamInfo& p : k.params())
          ptrs += p.isPointer;
        if (!((ptrs == 2 || ptrs == 3) && k.params().size() == ptrs + 1))
          throw tcc::Error("benchmarking " + rel, "not an elementwise copy or add signature");
        bool isAdd = ptrs == 3;
        int32_t nn = static_cast<int32_t>(n);
        auto launch = [&](CUstream s) {
          if (isAdd)
            k.launch(s, x.get(), y.get(), out.get(), nn);
          else
            k.launch(s, x.get(), out.get(), nn);
        };
        row.variant = (isAdd ? k.plan(x.get(), y.get(), out.get(), nn) : k.plan(x.get(), out.get(), nn))
                          .variant->specialisationString();
        // Correct first: poison, run once, compare everything.
        row.note = checkElementwise(isAdd, launch);
        row.correct = row.note.empty();
        row.bytes = static_cast<double>(bytes) * static_cast<double>(ptrs);
        row.flops = isAdd ? static_cast<double>(n) : 0;
        row.r = tcc::bench::run(launch, opt);
        row.ok = true;
        Best& b = bestElementwise[row.kernel];
        if (row.correct && row.r.gbps(row.bytes) > b.gbps) {
          b.gbps = row.r.gbps(row.bytes);
          b.config = row.config;
          b.k = &k;
          b.isAdd = isAdd;
          b.lib = std::move(lib); // k lives in it (on the heap): still valid
        }
      } catch (const tcc::Error& e) {
        row.note = e.what();
      }
      rows.push_back(row);
    }

    std::printf("\n%-8s %-12s %-14s %-28s %9s %9s %9s %8s %7s\n", "source", "kernel", "config",
                "variant", "median_ms", "p20_ms", "p80_ms", "GB/s", "of_copy");
    for (const Row& r : rows) {
      if (!r.ok) {
        std::printf("%-8s %-12s %-14s FAILED: %s\n", r.source.c_str(), r.kernel.c_str(),
                    r.config.c_str(), r.note.c_str());
        continue;
      }
      std::printf("%-8s %-12s %-14s %-28s %9.4f %9.4f %9.4f %8.0f %6.1f%%%s\n", r.source.c_str(),
                  r.kernel.c_str(), r.config.c_str(), r.variant.c_str(), r.r.median, r.r.p20,
                  r.r.p80, r.r.gbps(r.bytes), copy > 0 ? 100 * r.r.gbps(r.bytes) / copy : 0.0,
                  r.correct ? "" : ("  WRONG: " + r.note).c_str());
    }

    // Triton's elementwise cubins (exported at this n) against tcc's best, same harness.
    std::vector<benchutil::SameHarnessRow> same;
    if (!tritonDir.empty() && !skipElementwise) {
      for (const char* kernel : {"vector_copy", "vector_add"}) {
        benchutil::SameHarnessRow sh;
        sh.workload = std::string(kernel) + "_" + std::to_string(n);
        sh.metric = "GB/s";
        std::vector<benchutil::TritonExport> exports;
        try {
          exports = benchutil::tritonExports(tritonDir, sh.workload);
        } catch (const tcc::Error& e) {
          sh.note = e.what();
        }
        if (exports.empty() && sh.note.empty())
          continue;
        auto it = bestElementwise.find(kernel);
        if (it == bestElementwise.end() || !it->second.k) {
          if (!filter.empty())
            continue;
          sh.note = "no correct tcc configuration in this run";
          same.push_back(sh);
          continue;
        }
        Best& b = it->second;
        std::printf("\n%s: Triton's cubins through the same harness\n", sh.workload.c_str());
        auto buffer = [&](const std::string& role) -> CUdeviceptr {
          return role == "x" ? x.get() : role == "y" ? y.get() : role == "out" ? out.get() : 0;
        };
        std::vector<std::unique_ptr<benchutil::TritonKernel>> kernels;
        std::vector<benchutil::TritonCandidate> candidates;
        for (const benchutil::TritonExport& e : exports) {
          benchutil::SameHarnessCandidate c;
          c.config = e.config;
          try {
            if (e.n != n)
              throw tcc::Error("checking " + e.path, "exported for another n");
            auto tk = std::make_unique<benchutil::TritonKernel>(e, buffer);
            benchutil::TritonKernel* p = tk.get();
            std::function<void(CUstream)> launch = [p](CUstream s) { p->launch(s); };
            c.note = checkElementwise(b.isAdd, launch);
            c.correct = c.note.empty();
            if (c.correct) {
              candidates.push_back({e.config, launch});
              kernels.push_back(std::move(tk));
            }
          } catch (const tcc::Error& err) {
            c.note = err.what();
          }
          std::printf("  triton %-32s %s\n", e.config.c_str(),
                      c.correct ? "cubin loaded, output exact" : ("FAILED: " + c.note).c_str());
          sh.candidates.push_back(c);
        }
        tcc::Kernel* k = b.k;
        const bool isAdd = b.isAdd;
        const int32_t nn = static_cast<int32_t>(n);
        benchutil::compareSameHarness(
            sh, static_cast<double>(bytes) * (isAdd ? 3 : 2), b.config,
            [&](CUstream s) {
              if (isAdd)
                k->launch(s, x.get(), y.get(), out.get(), nn);
              else
                k->launch(s, x.get(), out.get(), nn);
            },
            candidates, rounds, opt);
        same.push_back(sh);
      }
    }

    tcc::json::Value root = tcc::json::Value::object();
    root.set("device", device);
    root.set("n", static_cast<long long>(n));
    root.set("copy_gbps", copy);
    root.set("ceilings", benchutil::ceilingsJson(ceilings));
    tcc::json::Value& list = root.set("results", tcc::json::Value::array());
    for (const Row& r : rows) {
      tcc::json::Value o = tcc::json::Value::object();
      o.set("source", r.source);
      o.set("kernel", r.kernel);
      o.set("config", r.config);
      o.set("variant", r.variant);
      o.set("ok", r.ok);
      o.set("correct", r.correct);
      if (!r.note.empty())
        o.set("note", r.note);
      if (r.ok) {
        o.set("bytes", r.bytes);
        o.set("median_ms", r.r.median);
        o.set("p20_ms", r.r.p20);
        o.set("p80_ms", r.r.p80);
        o.set("min_ms", r.r.min);
        o.set("max_ms", r.r.max);
        o.set("reps", r.r.reps);
        benchutil::setRoofline(o, r.measurement(n), ceilings);
      }
      list.push(o);
    }
    // Written now and again after the workloads: a run cut short still leaves the first part.
    auto writeOutputs = [&](const std::vector<benchutil::WorkloadRow>& wrows) {
      if (!jsonPath.empty()) {
        tcc::json::Value& wl = root.set("workloads", tcc::json::Value::array());
        for (const benchutil::WorkloadRow& w : wrows)
          wl.push(benchutil::toJson(w, ceilings));
        if (!tritonDir.empty()) {
          tcc::json::Value& sj = root.set("same_harness", tcc::json::Value::array());
          for (const benchutil::SameHarnessRow& s : same)
            sj.push(benchutil::toJson(s));
          root.set("same_harness_rounds", rounds);
        }
        std::ofstream(jsonPath) << tcc::json::write(root);
      }
      if (!csvPath.empty()) {
        std::ofstream csv(csvPath);
        csv << "workload,source,kernel,config,variant,ok,correct,median_ms,p20_ms,p80_ms,rate,unit,"
               "fraction_of_copy,copy_gbps,ab_ratio,ab_ratio_min,ab_ratio_max,"
            << benchutil::kCsvRooflineHeader << "\n";
        for (const Row& r : rows)
          csv << r.kernel << "_" << n << "," << r.source << "," << r.kernel << "," << r.config
              << ",\"" << r.variant << "\"," << r.ok << "," << r.correct << "," << r.r.median
              << "," << r.r.p20 << "," << r.r.p80 << "," << r.r.gbps(r.bytes) << ",GB/s,"
              << (copy > 0 ? r.r.gbps(r.bytes) / copy : 0) << "," << copy << ",,,,"
              << benchutil::csvRoofline(r.measurement(n), ceilings) << "\n";
        for (const benchutil::WorkloadRow& w : wrows)
          csv << w.workload << "," << w.source << "," << w.kernel << "," << w.config << ",\""
              << w.variant << "\"," << w.ok << "," << w.correct << "," << w.r.median << ","
              << w.r.p20 << "," << w.r.p80 << "," << w.value << "," << w.metric << ","
              << w.fractionOfCopy << "," << copy << ",,,,"
              << benchutil::csvRoofline(w.measurement(), ceilings) << "\n";
        // Same harness: tcc's and Triton's medians over the A/B rounds, and the ratio.
        for (const benchutil::SameHarnessRow& s : same) {
          if (!s.ok)
            continue;
          const double f = s.metric == "GB/s" && copy > 0 ? 1 / copy : 0;
          csv << s.workload << ",tcc-same-harness,," << s.tccConfig << ",,1,1,,,," << s.tccMedian
              << "," << s.metric << "," << s.tccMedian * f << "," << copy << "," << s.ratioMedian
              << "," << s.ratioMin << "," << s.ratioMax << ",,,,,,\n";
          csv << s.workload << ",triton-same-harness,,\"" << s.tritonConfig << "\",,1,1,,,,"
              << s.tritonMedian << "," << s.metric << "," << s.tritonMedian * f << "," << copy
              << "," << s.ratioMedian << "," << s.ratioMin << "," << s.ratioMax << ",,,,,,\n";
        }
      }
    };
    writeOutputs({});

    std::vector<benchutil::WorkloadRow> wrows;
    if (!skipWorkloads) {
      benchutil::WorkloadOptions wo;
      wo.artifacts = artifacts;
      wo.filter = filter;
      wo.copyGbps = copy;
      wo.ceilings = ceilings;
      wo.bench = opt;
      wo.triton = tritonDir;
      wo.rounds = rounds;
      wo.progress = writeOutputs;
      benchutil::SharedInputs in;
      in.x = x.get();
      in.y = y.get();
      in.out = out.get();
      in.hx = hx.data();
      in.hy = hy.data();
      in.n = n;
      wrows = benchutil::runWorkloads(wo, in, &same);
      writeOutputs(wrows);
    }
    benchutil::printSameHarnessSummary(same);
    // The per-workload summary: tcc's best correct measurement of each, on the roofline.
    {
      std::vector<benchutil::SummaryLine> lines;
      auto sameOf = [&](benchutil::SummaryLine& l) {
        for (const benchutil::SameHarnessRow& s : same)
          if (s.ok && s.workload == l.m.workload) {
            l.ratio = s.ratioMedian;
            l.ratioMin = s.ratioMin;
            l.ratioMax = s.ratioMax;
          }
      };
      for (const char* kernel : {"vector_copy", "vector_add"}) {
        const Row* b = nullptr;
        for (const Row& r : rows)
          if (r.kernel == kernel && r.ok && r.correct &&
              (!b || r.r.median < b->r.median))
            b = &r;
        if (!b)
          continue;
        benchutil::SummaryLine l;
        l.m = b->measurement(n);
        sameOf(l);
        lines.push_back(l);
      }
      std::vector<std::string> order;
      for (const benchutil::WorkloadRow& w : wrows)
        if (std::find(order.begin(), order.end(), w.workload) == order.end())
          order.push_back(w.workload);
      for (const std::string& name : order) {
        const benchutil::WorkloadRow* b = nullptr;
        for (const benchutil::WorkloadRow& w : wrows)
          if (w.workload == name && w.ok && w.correct &&
              (!b || w.value > b->value))
            b = &w;
        benchutil::SummaryLine l;
        if (b) {
          l.m = b->measurement();
        } else {
          l.m.workload = name;
          l.m.config = "-";
          l.note = "no correct tcc configuration";
        }
        sameOf(l);
        lines.push_back(l);
      }
      if (!lines.empty())
        std::printf("\nper workload: tcc's best configuration against the ceilings of this run (%s)\n%s",
                    benchutil::ceilingsLine(ceilings).c_str(),
                    benchutil::summaryTable(lines, ceilings).c_str());
      std::string why;
      if (!rooflinePath.empty() &&
          !tcc::writeFileAtomically(
              rooflinePath,
              tcc::tune::rooflineSvg(benchutil::rooflineReport(lines, ceilings, device)), &why))
        std::fprintf(stderr, "tcc-bench: writing %s: %s\n", rooflinePath.c_str(), why.c_str());
      std::fflush(stdout);
    }
    bool allOk = true;
    for (const Row& r : rows)
      allOk = allOk && r.ok && r.correct;
    for (const benchutil::WorkloadRow& w : wrows)
      allOk = allOk && w.ok && w.correct;
    return allOk && !(rows.empty() && wrows.empty()) ? 0 : 1;
  } catch (const tcc::Error& e) {
    std::fprintf(stderr, "tcc-bench: %s\n", e.what());
    return 1;
  }
}
