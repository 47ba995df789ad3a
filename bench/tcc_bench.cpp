// tcc-bench: times every elementwise (copy/add) kernel configuration found under an
// artifacts folder at one size, then the 2-D workloads (bench/workloads.h: transpose,
// softmax, bias add, layer norm, fp16 matmul), each after checking its output, against a
// device-to-device copy measured in the same run. Prints tables; writes JSON and CSV.
//
//   tcc-bench --artifacts DIR [--n 268435456] [--budget-ms 200] [--filter STR]
//             [--skip-elementwise] [--skip-workloads] [--json FILE] [--csv FILE]
#include "common.h"
#include "workloads.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

void usage() {
  std::fprintf(stderr, "usage: tcc-bench --artifacts DIR [--n N] [--budget-ms MS] [--filter STR] "
                       "[--skip-elementwise] [--skip-workloads] [--json FILE] [--csv FILE]\n");
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
  double bytes = 0;
  tcc::bench::Result r;
};

} // namespace

int main(int argc, char** argv) {
  std::string artifacts, jsonPath, csvPath, filter;
  int64_t n = int64_t(1) << 28;
  double budget = 200;
  bool skipElementwise = false, skipWorkloads = false;
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
    else
      usage();
  }
  if (artifacts.empty() || n <= 0 || n > INT32_MAX)
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
    double copy = tcc::bench::copyBandwidth(bytes, opt);
    std::printf("device %s, L2 %zu MiB, n = %lld fp32; device copy (cuMemcpyDtoD): %.0f GB/s\n",
                device.c_str(), tcc::bench::l2Bytes() >> 20, static_cast<long long>(n), copy);

    tcc::bench::DeviceBuffer x(bytes), y(bytes), out(bytes);
    std::vector<float> hx(static_cast<size_t>(n)), hy(static_cast<size_t>(n)),
        ho(static_cast<size_t>(n));
    fillRandom(hx, 11);
    fillRandom(hy, 12);
    tcc::check(d.cuMemcpyHtoD(x.get(), hx.data(), bytes), "uploading x");
    tcc::check(d.cuMemcpyHtoD(y.get(), hy.data(), bytes), "uploading y");

    std::vector<Row> rows;
    for (const std::string& dir : benchutil::configFolders(artifacts)) {
      std::string rel = benchutil::relative(artifacts, dir);
      if (skipElementwise || (rel.find("/vector_add/") == std::string::npos &&
                              rel.find("/vector_copy/") == std::string::npos))
        continue;
      if (!filter.empty() && rel.find(filter) == std::string::npos)
        continue;
      Row row;
      size_t s1 = rel.find('/');
      size_t s2 = rel.find('/', s1 == std::string::npos ? 0 : s1 + 1);
      row.source = rel.substr(0, s1);
      row.config = s2 == std::string::npos ? rel : rel.substr(s2 + 1);
      try {
        tcc::Library lib(dir);
        std::vector<std::string> names = lib.kernelNames();
        if (names.size() != 1)
          throw tcc::Error("benchmarking " + rel, "expected one kernel per folder");
        row.kernel = names.front();
        tcc::Kernel& k = lib.kernel(row.kernel);
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
        tcc::check(d.cuMemsetD32(out.get(), 0x7fbadbadu, static_cast<size_t>(n)), "poisoning");
        launch(nullptr);
        tcc::check(d.cuCtxSynchronize(), "running " + row.kernel, row.kernel);
        tcc::check(d.cuMemcpyDtoH(ho.data(), out.get(), bytes), "downloading");
        int64_t bad = 0;
        for (int64_t i = 0; i < n; ++i) {
          float ref = isAdd ? hx[i] + hy[i] : hx[i];
          bad += std::memcmp(&ref, &ho[i], sizeof ref) != 0;
        }
        row.correct = bad == 0;
        if (!row.correct)
          row.note = std::to_string(bad) + " wrong elements";
        row.bytes = static_cast<double>(bytes) * static_cast<double>(ptrs);
        row.r = tcc::bench::run(launch, opt);
        row.ok = true;
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
                  r.r.p80, r.r.gbps(r.bytes), 100 * r.r.gbps(r.bytes) / copy,
                  r.correct ? "" : ("  WRONG: " + r.note).c_str());
    }

    tcc::json::Value root = tcc::json::Value::object();
    root.set("device", device);
    root.set("n", static_cast<long long>(n));
    root.set("copy_gbps", copy);
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
        o.set("gbps", r.r.gbps(r.bytes));
        o.set("fraction_of_copy", r.r.gbps(r.bytes) / copy);
      }
      list.push(o);
    }
    // Written now and again after the workloads: a run cut short still leaves the first part.
    auto writeOutputs = [&](const std::vector<benchutil::WorkloadRow>& wrows) {
      if (!jsonPath.empty()) {
        tcc::json::Value& wl = root.set("workloads", tcc::json::Value::array());
        for (const benchutil::WorkloadRow& w : wrows)
          wl.push(benchutil::toJson(w));
        std::ofstream(jsonPath) << tcc::json::write(root);
      }
      if (!csvPath.empty()) {
        std::ofstream csv(csvPath);
        csv << "workload,source,kernel,config,variant,ok,correct,median_ms,p20_ms,p80_ms,rate,unit,"
               "fraction_of_copy,copy_gbps\n";
        for (const Row& r : rows)
          csv << r.kernel << "_" << n << "," << r.source << "," << r.kernel << "," << r.config
              << ",\"" << r.variant << "\"," << r.ok << "," << r.correct << "," << r.r.median
              << "," << r.r.p20 << "," << r.r.p80 << "," << r.r.gbps(r.bytes) << ",GB/s,"
              << r.r.gbps(r.bytes) / copy << "," << copy << "\n";
        for (const benchutil::WorkloadRow& w : wrows)
          csv << w.workload << "," << w.source << "," << w.kernel << "," << w.config << ",\""
              << w.variant << "\"," << w.ok << "," << w.correct << "," << w.r.median << ","
              << w.r.p20 << "," << w.r.p80 << "," << w.value << "," << w.metric << ","
              << w.fractionOfCopy << "," << copy << "\n";
      }
    };
    writeOutputs({});

    std::vector<benchutil::WorkloadRow> wrows;
    if (!skipWorkloads) {
      benchutil::WorkloadOptions wo;
      wo.artifacts = artifacts;
      wo.filter = filter;
      wo.copyGbps = copy;
      wo.bench = opt;
      benchutil::SharedInputs in;
      in.x = x.get();
      in.y = y.get();
      in.out = out.get();
      in.hx = hx.data();
      in.hy = hy.data();
      in.n = n;
      wrows = benchutil::runWorkloads(wo, in);
      writeOutputs(wrows);
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
