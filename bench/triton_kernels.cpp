#include "triton_kernels.h"

#include "common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace benchutil {
namespace {

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw tcc::Error("reading " + path, "cannot open the file");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// The key is a C string: a std::string temporary bound to a reference parameter of a
// function returning a reference makes g++ 13 warn (-Wdangling-reference) at every use.
const tcc::json::Value& need(const tcc::json::Value& o, const char* key,
                             const std::string& where) {
  const tcc::json::Value* v = o.find(key);
  if (!v)
    throw tcc::Error("reading " + where, "no \"" + std::string(key) + "\"");
  return *v;
}

int64_t intOr(const tcc::json::Value& o, const std::string& key, int64_t otherwise) {
  const tcc::json::Value* v = o.find(key);
  return v && v->isNumber() ? static_cast<int64_t>(v->asDouble()) : otherwise;
}

bool boolOr(const tcc::json::Value& o, const std::string& key, bool otherwise) {
  const tcc::json::Value* v = o.find(key);
  return v && v->isBool() ? v->asBool() : otherwise;
}

size_t sizeOf(TritonParam::Kind k) {
  switch (k) {
  case TritonParam::Kind::I32:
  case TritonParam::Kind::U32:
  case TritonParam::Kind::F32:
    return 4;
  default:
    return 8;
  }
}

// Driver entry points the runtime's table does not hold, resolved from the same library.
template <typename F> F optionalEntry(const char* name) {
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!h)
    return nullptr;
  return reinterpret_cast<F>(dlsym(h, name));
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

} // namespace

std::vector<TritonExport> tritonExports(const std::string& dir, const std::string& workload) {
  namespace fs = std::filesystem;
  std::vector<TritonExport> r;
  std::error_code ec;
  const fs::path folder = fs::path(dir) / workload;
  if (!fs::is_directory(folder, ec))
    return r;
  std::vector<std::string> files;
  for (const auto& f : fs::directory_iterator(folder, ec))
    if (f.path().extension() == ".json")
      files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& path : files) {
    tcc::json::Value j = tcc::json::parse(readFile(path), path);
    TritonExport e;
    e.path = path;
    e.workload = need(j, "workload", path).asString();
    e.config = need(j, "config", path).asString();
    e.name = need(j, "name", path).asString();
    e.cubin = (folder / need(j, "cubin", path).asString()).string();
    if (const tcc::json::Value* v = j.find("triton_version"))
      e.tritonVersion = v->asString();
    e.numWarps = static_cast<int>(need(j, "num_warps", path).asInt());
    e.numCtas = static_cast<int>(intOr(j, "num_ctas", 1));
    e.shared = static_cast<int>(need(j, "shared", path).asInt());
    e.cooperative = boolOr(j, "launch_cooperative_grid", false);
    e.pdl = boolOr(j, "launch_pdl", false);
    const tcc::json::Value& grid = need(j, "grid", path);
    if (!grid.isArray() || grid.items().empty() || grid.items().size() > 3)
      throw tcc::Error("reading " + path, "\"grid\" is not a list of 1 to 3 integers");
    for (size_t i = 0; i < grid.items().size(); ++i)
      e.grid[i] = static_cast<unsigned>(grid.items()[i].asInt());
    if (const tcc::json::Value* s = j.find("shape")) {
      e.M = intOr(*s, "M", 0);
      e.N = intOr(*s, "N", 0);
      e.K = intOr(*s, "K", 0);
      e.n = intOr(*s, "n", 0);
    }
    for (const tcc::json::Value& p : need(j, "params", path).items()) {
      TritonParam q;
      q.name = need(p, "name", path).asString();
      q.type = need(p, "type", path).asString();
      const std::string kind = need(p, "kind", path).asString();
      if (kind == "pointer") {
        q.kind = TritonParam::Kind::Pointer;
        q.buffer = need(p, "buffer", path).asString();
      } else if (kind == "scratch") {
        q.kind = TritonParam::Kind::Scratch;
        q.scratchBytes = static_cast<size_t>(intOr(p, "bytes", 0));
        q.scratchAlign = static_cast<size_t>(intOr(p, "align", 1));
      } else if (kind == "value") {
        const tcc::json::Value& v = need(p, "value", path);
        if (q.type == "i32" || q.type == "i1")
          q.kind = TritonParam::Kind::I32;
        else if (q.type == "u32")
          q.kind = TritonParam::Kind::U32;
        else if (q.type == "i64")
          q.kind = TritonParam::Kind::I64;
        else if (q.type == "u64")
          q.kind = TritonParam::Kind::U64;
        else if (q.type == "fp32")
          q.kind = TritonParam::Kind::F32;
        else if (q.type == "fp64")
          q.kind = TritonParam::Kind::F64;
        else
          throw tcc::Error("reading " + path, "parameter " + q.name + ": unsupported type " + q.type);
        q.i = v.isInt() ? v.asInt() : static_cast<int64_t>(v.asDouble());
        q.f = v.asDouble();
      } else {
        throw tcc::Error("reading " + path, "parameter " + q.name + ": unknown kind " + kind);
      }
      e.params.push_back(q);
    }
    r.push_back(std::move(e));
  }
  return r;
}

TritonKernel::TritonKernel(const TritonExport& e,
                           const std::function<CUdeviceptr(const std::string&)>& buffer)
    : e_(e) {
  tcc::ensureContext();
  const tcc::Driver& d = tcc::driver();
  const std::string what = "loading Triton's " + e.name + " (" + e.path + ")";
  if (e.numCtas != 1 || e.cooperative || e.pdl)
    throw tcc::Error(what, "clusters, cooperative grids and PDL launches are not supported here");
  const std::string image = readFile(e.cubin);
  tcc::check(d.cuModuleLoadData(&mod_, image.data()), what);
  tcc::check(d.cuModuleGetFunction(&fn_, mod_, e.name.c_str()), what + ": finding the kernel");
  // Triton's load_binary (driver.c): above 48 KiB, prefer shared memory and allow the opt-in
  // maximum less the static part.
  if (e.shared > 49152) {
    int optin = 0, statik = 0;
    tcc::check(d.cuDeviceGetAttribute(&optin, tcc::cu::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                      tcc::currentDevice()),
               what);
    if (optin > 49152) {
      using SetCache = tcc::cu::CUresult (*)(CUfunction, int);
      if (auto setCache = optionalEntry<SetCache>("cuFuncSetCacheConfig"))
        tcc::check(setCache(fn_, 1 /* CU_FUNC_CACHE_PREFER_SHARED */), what);
      tcc::check(d.cuFuncGetAttribute(&statik, tcc::cu::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn_), what);
      tcc::check(d.cuFuncSetAttribute(fn_, tcc::cu::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      optin - statik),
                 what);
    }
  }
  // The parameter list against the cubin's.
  using ParamInfo = tcc::cu::CUresult (*)(CUfunction, size_t, size_t*, size_t*);
  if (auto info = optionalEntry<ParamInfo>("cuFuncGetParamInfo")) {
    for (size_t i = 0; i < e.params.size(); ++i) {
      size_t off = 0, size = 0;
      if (info(fn_, i, &off, &size) != 0)
        throw tcc::Error(what, "the cubin has " + std::to_string(i) + " parameters, the export " +
                                   std::to_string(e.params.size()));
      if (size != sizeOf(e.params[i].kind))
        throw tcc::Error(what, "parameter " + std::to_string(i) + " (" + e.params[i].name +
                                   ") is " + std::to_string(size) + " bytes in the cubin, " +
                                   std::to_string(sizeOf(e.params[i].kind)) + " in the export");
    }
    size_t off = 0, size = 0;
    if (info(fn_, e.params.size(), &off, &size) == 0)
      throw tcc::Error(what, "the cubin has more than the export's " +
                                 std::to_string(e.params.size()) + " parameters");
    paramCheck_ = std::to_string(e.params.size()) + " parameters, sizes match the cubin";
  } else {
    paramCheck_ = "no cuFuncGetParamInfo: parameter list unchecked against the cubin";
  }
  const uint64_t programs = uint64_t(e.grid[0]) * e.grid[1] * e.grid[2];
  storage_.assign(e.params.size(), 0);
  for (size_t i = 0; i < e.params.size(); ++i) {
    const TritonParam& p = e.params[i];
    uint64_t& slot = storage_[i];
    switch (p.kind) {
    case TritonParam::Kind::Pointer: {
      const CUdeviceptr ptr = buffer(p.buffer);
      if (!ptr)
        throw tcc::Error(what, "no buffer \"" + p.buffer + "\" for parameter " + p.name);
      slot = ptr;
      break;
    }
    case TritonParam::Kind::Scratch:
      if (p.scratchBytes) {
        scratch_.emplace_back(static_cast<size_t>(programs) * e.numCtas * p.scratchBytes +
                              p.scratchAlign);
        const uint64_t base = scratch_.back().get();
        slot = (base + p.scratchAlign - 1) / p.scratchAlign * p.scratchAlign;
      }
      break;
    case TritonParam::Kind::I32:
    case TritonParam::Kind::U32: {
      const uint32_t v = static_cast<uint32_t>(p.i);
      std::memcpy(&slot, &v, 4);
      break;
    }
    case TritonParam::Kind::I64:
    case TritonParam::Kind::U64:
      std::memcpy(&slot, &p.i, 8);
      break;
    case TritonParam::Kind::F32: {
      const float v = static_cast<float>(p.f);
      std::memcpy(&slot, &v, 4);
      break;
    }
    case TritonParam::Kind::F64:
      std::memcpy(&slot, &p.f, 8);
      break;
    }
  }
  for (uint64_t& s : storage_)
    ptrs_.push_back(&s);
}

TritonKernel::~TritonKernel() {
  if (mod_)
    tcc::driver().cuModuleUnload(mod_);
}

void TritonKernel::launch(CUstream s) {
  tcc::check(tcc::driver().cuLaunchKernel(fn_, e_.grid[0], e_.grid[1], e_.grid[2],
                                          32u * static_cast<unsigned>(e_.numWarps), 1, 1,
                                          static_cast<unsigned>(e_.shared), s,
                                          ptrs_.empty() ? nullptr : ptrs_.data(), nullptr),
             "launching Triton's " + e_.name, e_.name);
}

void compareSameHarness(SameHarnessRow& row, double amount, const std::string& tccConfig,
                        const std::function<void(CUstream)>& tccLaunch,
                        const std::vector<TritonCandidate>& candidates, int rounds,
                        const tcc::bench::Options& options) {
  const bool flops = row.metric == "TFLOP/s";
  auto rate = [&](const tcc::bench::Result& r) { return flops ? r.tflops(amount) : r.gbps(amount); };
  row.tccConfig = tccConfig;
  if (candidates.empty()) {
    if (row.note.empty())
      row.note = "no Triton configuration passed its check";
    return;
  }
  // Triton's best, by one run of the same harness each.
  size_t best = 0;
  double bestValue = -1;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const double v = rate(tcc::bench::run(candidates[i].launch, options));
    for (SameHarnessCandidate& c : row.candidates)
      if (c.config == candidates[i].config)
        c.value = v;
    if (v > bestValue) {
      bestValue = v;
      best = i;
    }
  }
  row.tritonConfig = candidates[best].config;
  std::printf("  same harness: tcc %s vs Triton %s, tcc::bench::run alternately (A/B, B/A), "
              "%d rounds\n",
              tccConfig.c_str(), row.tritonConfig.c_str(), rounds);
  // The order alternates (tcc first in even rounds, Triton first in odd ones: A/B, B/A, ...)
  // so that a drift over the rounds (clocks, temperature) or an advantage of going first or
  // second does not favour one side.
  for (int r = 0; r < rounds; ++r) {
    double a = 0, b = 0;
    if (r % 2 == 0) {
      a = rate(tcc::bench::run(tccLaunch, options));
      b = rate(tcc::bench::run(candidates[best].launch, options));
    } else {
      b = rate(tcc::bench::run(candidates[best].launch, options));
      a = rate(tcc::bench::run(tccLaunch, options));
    }
    row.tcc.push_back(a);
    row.triton.push_back(b);
    row.ratio.push_back(b > 0 ? a / b : 0);
    std::printf("    round %d: tcc %9.1f  Triton %9.1f %-7s  tcc/Triton %.4f\n", r + 1, a, b,
                row.metric.c_str(), row.ratio.back());
  }
  row.rounds = rounds;
  row.tccMedian = median(row.tcc);
  row.tritonMedian = median(row.triton);
  // Going first or second changes a rate by up to a percent (seen on the H200: the same two
  // cubins 1.000 in one order, 0.990 in the other), so the ratio is taken per pair of
  // rounds, one in each order (the geometric mean of an A/B and a B/A ratio); its median
  // and min-max over the pairs are what is reported. An odd last round pairs with nothing.
  std::vector<double> pairs;
  for (size_t r = 0; r + 1 < row.ratio.size(); r += 2)
    pairs.push_back(std::sqrt(row.ratio[r] * row.ratio[r + 1]));
  if (pairs.empty())
    pairs = row.ratio;
  row.ratioMedian = median(pairs);
  row.ratioMin = *std::min_element(pairs.begin(), pairs.end());
  row.ratioMax = *std::max_element(pairs.begin(), pairs.end());
  row.ok = rounds > 0;
  std::printf("    %s: tcc/Triton %.3f (min %.3f, max %.3f over %zu pairs of rounds); medians "
              "tcc %.1f, Triton %.1f %s\n",
              row.workload.c_str(), row.ratioMedian, row.ratioMin, row.ratioMax, pairs.size(),
              row.tccMedian, row.tritonMedian, row.metric.c_str());
  std::fflush(stdout);
}

tcc::json::Value toJson(const SameHarnessRow& row) {
  tcc::json::Value o = tcc::json::Value::object();
  o.set("workload", row.workload);
  o.set("metric", row.metric);
  o.set("ok", row.ok);
  o.set("tcc_config", row.tccConfig);
  o.set("triton_config", row.tritonConfig);
  if (!row.note.empty())
    o.set("note", row.note);
  if (row.ok) {
    o.set("rounds", row.rounds);
    tcc::json::Value& per = o.set("per_round", tcc::json::Value::array());
    for (size_t i = 0; i < row.ratio.size(); ++i) {
      tcc::json::Value r = tcc::json::Value::object();
      r.set("tcc", row.tcc[i]);
      r.set("triton", row.triton[i]);
      r.set("ratio", row.ratio[i]);
      per.push(r);
    }
    o.set("tcc_median", row.tccMedian);
    o.set("triton_median", row.tritonMedian);
    o.set("ratio_median", row.ratioMedian);
    o.set("ratio_min", row.ratioMin);
    o.set("ratio_max", row.ratioMax);
  }
  tcc::json::Value& cands = o.set("triton_candidates", tcc::json::Value::array());
  for (const SameHarnessCandidate& c : row.candidates) {
    tcc::json::Value x = tcc::json::Value::object();
    x.set("config", c.config);
    x.set("correct", c.correct);
    if (c.value > 0)
      x.set("value", c.value);
    if (!c.note.empty())
      x.set("note", c.note);
    cands.push(x);
  }
  return o;
}

void printSameHarnessSummary(const std::vector<SameHarnessRow>& rows) {
  if (rows.empty())
    return;
  std::printf("\nsame harness (tcc::bench::run for both, A/B and B/A alternately): tcc's best vs "
              "Triton's best cubin\n");
  std::printf("%-30s %-16s %-28s %10s %10s %8s %8s %8s\n", "workload", "tcc config",
              "Triton config", "tcc", "Triton", "ratio", "min", "max");
  for (const SameHarnessRow& r : rows) {
    if (!r.ok) {
      std::printf("%-30s %-16s not compared: %s\n", r.workload.c_str(), r.tccConfig.c_str(),
                  r.note.c_str());
      continue;
    }
    std::printf("%-30s %-16s %-28s %10.1f %10.1f %8.3f %8.3f %8.3f\n", r.workload.c_str(),
                r.tccConfig.c_str(), r.tritonConfig.c_str(), r.tccMedian, r.tritonMedian,
                r.ratioMedian, r.ratioMin, r.ratioMax);
  }
  std::fflush(stdout);
}

} // namespace benchutil
