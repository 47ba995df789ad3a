// The offline tuner's command line, argument sets and GPU run (tune.h); the report's
// rendering is in report.cpp.
#include "tune.h"

#include "tcc/atomic_file.h"
#include "tcc/bench.h"
#include "tcc/driver.h"
#include "tcc/error.h"
#include "tcc/json.h"
#include "tcc/runtime.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

namespace tcc {
namespace tune {

namespace fs = std::filesystem;

std::string usage(const std::string& program) {
  return "usage: " + program +
         " ARTIFACT --shape NAME=V1,V2,... [--shape ...] [NAME=SPEC ...] [-o TABLE.json]\n"
         "       [--report DIR] [--csv | --json] [--kernel K] [--args SETS.json] [--seed N]\n"
         "       [--budget-ms MS] [--peak TENSOR_PEAK_ARTIFACT] [--no-ceilings]\n"
         "       [--devices 0,1,... | --devices all]\n"
         "\n"
         "Benchmarks every configuration of an autotuned kernel (ARTIFACT: a folder or a\n"
         "metadata file, as tcc::Library loads) for each argument set, writes the tuning\n"
         "table (-o, for tcc --tuning or beside the cubins) and the report (standard output;\n"
         "--report DIR: report.txt, report.csv, report.json, sweep.svg, roofline.svg).\n"
         "  --shape NAME=V1,V2    values of an integer parameter; several --shape flags give\n"
         "                        every combination (the first varies slowest)\n"
         "  NAME=SPEC             the other parameters: a scalar (eps=1e-5; an integer may name\n"
         "                        the others: stride_am=K) or a buffer whose\n"
         "                        shape may use the integer arguments: x=rand:n, y=randn:M,N,\n"
         "                        out=zeros:M*N, w=ones:N, c=const:0.5:n, i=arange:n, o=empty:n\n"
         "  --args SETS.json      a list of argument sets instead of --shape:\n"
         "                        [{\"M\": 4096, \"N\": 1024, \"x\": \"rand:M,N\"}, ...]\n"
         "  --budget-ms MS        timed repetitions per configuration (default: 25, or\n"
         "                        TCC_AUTOTUNE_BUDGET_MS)\n"
         "  --peak ARTIFACT       the compiled runtime/tools/tensor_peak.tile: measures the\n"
         "                        tensor-core ceiling (without it only the copy bandwidth)\n"
         "  --devices LIST|all    the GPUs to measure on (default: $TCC_DEVICE, else 0): GPUs\n"
         "                        of one model share the argument sets, measuring in\n"
         "                        parallel, into one report; each model is tuned separately\n"
         "                        (a report each, all entries in the one table)\n";
}

bool parseCommandLine(const std::vector<std::string>& words, Options* o,
                      std::vector<std::string>* positional, bool* help, std::string* error) {
  *help = false;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    std::string value;
    bool hasValue = false;
    if (w.size() > 2 && w.compare(0, 2, "--") == 0 && w.find('=') != std::string::npos) {
      value = w.substr(w.find('=') + 1);
      w = w.substr(0, w.find('='));
      hasValue = true;
    }
    auto take = [&](std::string* out) {
      if (hasValue) {
        *out = value;
        return true;
      }
      if (i + 1 >= words.size()) {
        *error = w + " needs a value";
        return false;
      }
      *out = words[++i];
      return true;
    };
    auto number = [&](double* out, double lo) {
      std::string v;
      if (!take(&v))
        return false;
      char* end = nullptr;
      double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(d >= lo) || !std::isfinite(d)) {
        *error = w + ": '" + v + "' is not a number of at least " + std::to_string(int(lo));
        return false;
      }
      *out = d;
      return true;
    };
    if (w == "-h" || w == "--help") {
      *help = true;
      return true;
    }
    if (w == "--shape") {
      std::string s;
      if (!take(&s))
        return false;
      size_t eq = s.find('=');
      std::vector<std::string> values;
      bool ok = eq != std::string::npos && eq > 0 && eq + 1 < s.size();
      for (size_t at = eq + 1; ok && at <= s.size();) {
        size_t comma = s.find(',', at);
        std::string v = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        char* end = nullptr;
        errno = 0;
        std::strtoll(v.c_str(), &end, 10);
        ok = !v.empty() && !*end && errno == 0;
        if (comma == std::string::npos)
          break;
        at = comma + 1;
      }
      if (!ok) {
        *error = "--shape '" + s + "': expected NAME=V1,V2,... with integer values (e.g. "
                 "--shape n=1048576,268435456)";
        return false;
      }
      o->shapes.push_back(s);
    } else if (w == "--kernel") {
      if (!take(&o->kernel))
        return false;
    } else if (w == "-o") {
      if (!take(&o->table))
        return false;
    } else if (w == "--report") {
      if (!take(&o->reportDir))
        return false;
    } else if (w == "--args") {
      if (!take(&o->argsFile))
        return false;
    } else if (w == "--peak") {
      if (!take(&o->peak))
        return false;
    } else if (w == "--csv" || w == "--json") {
      Options::Format f = w == "--csv" ? Options::Format::Csv : Options::Format::Json;
      if (o->format != Options::Format::Text && o->format != f) {
        *error = "--csv and --json exclude each other";
        return false;
      }
      o->format = f;
    } else if (w == "--no-ceilings") {
      o->noCeilings = true;
    } else if (w == "--seed") {
      double d = 0;
      if (!number(&d, 0))
        return false;
      o->seed = static_cast<uint64_t>(d);
    } else if (w == "--devices") {
      std::string v;
      if (!take(&v))
        return false;
      if (v == "all") {
        o->allDevices = true;
        continue;
      }
      for (size_t at = 0; at <= v.size();) {
        size_t comma = v.find(',', at);
        std::string item = v.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        char* end = nullptr;
        errno = 0;
        long d = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end || errno != 0 || d < 0 || d > 1023) {
          *error = "--devices '" + v + "': expected device ordinals (0,1,...) or 'all'";
          return false;
        }
        for (int seen : o->devices)
          if (seen == d) {
            *error = "--devices '" + v + "': device " + item + " is listed twice";
            return false;
          }
        o->devices.push_back(static_cast<int>(d));
        if (comma == std::string::npos)
          break;
        at = comma + 1;
      }
    } else if (w == "--budget-ms") {
      if (!number(&o->budgetMs, 1))
        return false;
    } else if (!w.empty() && w[0] == '-' && w != "-") {
      *error = "unknown option '" + w + "'";
      return false;
    } else if (w.find('=') != std::string::npos) {
      args::Spec spec;
      if (!args::parseSpec(w, &spec, error))
        return false;
      o->args.push_back(w);
    } else {
      positional->push_back(w);
    }
  }
  if (o->allDevices && !o->devices.empty()) {
    *error = "--devices all and a list of devices exclude each other";
    return false;
  }
  if (!o->argsFile.empty() && !o->shapes.empty()) {
    *error = "--args and --shape exclude each other (the file lists whole argument sets)";
    return false;
  }
  return true;
}

// ---- Argument sets ----------------------------------------------------------------------

namespace {

bool parseInteger(const std::string& t, int64_t* out) {
  if (t == "true" || t == "false") {
    *out = t == "true";
    return true;
  }
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(t.c_str(), &end, 10);
  if (t.empty() || *end || errno != 0)
    return false;
  *out = v;
  return true;
}

const ParamInfo* findParam(const std::vector<ParamInfo>& params, const std::string& name) {
  for (const ParamInfo& p : params)
    if (p.name == name)
      return &p;
  return nullptr;
}

// Completes `given` (name -> spec text, in the order given) into an argument set for
// `params`, checking every parameter; `label` names the set in errors.
bool completeSet(const std::vector<std::pair<std::string, std::string>>& given,
                 const std::vector<std::string>& labelNames, const std::vector<ParamInfo>& params,
                 ArgSet* out, std::string* error) {
  ArgSet set;
  for (const std::string& n : labelNames)
    for (const auto& g : given)
      if (g.first == n)
        set.label += (set.label.empty() ? "" : ", ") + n + "=" + g.second;
  if (set.label.empty())
    set.label = "(the given arguments)";
  const std::string where = " (argument set " + set.label + ")";
  for (const auto& g : given) {
    if (!findParam(params, g.first)) {
      std::string names;
      for (const ParamInfo& p : params)
        names += (names.empty() ? "" : ", ") + p.name;
      *error = "'" + g.first + "' is not a parameter of the kernel (" + names + ")" + where;
      return false;
    }
    size_t n = 0;
    for (const auto& h : given)
      n += h.first == g.first;
    if (n > 1) {
      *error = "parameter '" + g.first + "' is given twice" + where;
      return false;
    }
  }
  for (const ParamInfo& p : params) {
    const std::pair<std::string, std::string>* g = nullptr;
    for (const auto& h : given)
      if (h.first == p.name)
        g = &h;
    if (!g) {
      *error = "no value for parameter '" + p.name + "' (" + p.type + "): give " + p.name +
               (p.isPointer ? "=rand:SHAPE (or zeros:, empty:, ...; SHAPE may use the "
                              "integer arguments)"
                            : "=VALUE or --shape " + p.name + "=V1,V2") +
               where;
      return false;
    }
    args::Spec spec;
    if (!args::parseSpec(p.name + "=" + g->second, &spec, error))
      return false;
    if (p.isPointer) {
      if (!spec.isBuffer()) {
        *error = "parameter '" + p.name + "' is a pointer (" + p.type + "): give a buffer, e.g. " +
                 p.name + "=rand:n" + where;
        return false;
      }
      if (spec.kind == args::Kind::File) {
        *error = "parameter '" + p.name + "': tcc-tune makes its buffers on the device; .npy "
                 "files are for the interpreter (use rand:, randn:, zeros:, ...)" + where;
        return false;
      }
      set.buffers.push_back(spec);
    } else {
      if (spec.isBuffer()) {
        *error = "parameter '" + p.name + "' is a scalar (" + p.type + "), not a buffer" + where;
        return false;
      }
      int64_t iv = 0;
      char* end = nullptr;
      grid::Expr e;
      if (p.elementKind == ScalarKind::Int ? !parseInteger(spec.text, &iv) &&
                                                 !grid::parse(spec.text, &e, nullptr)
                                           : (std::strtod(spec.text.c_str(), &end), *end != 0)) {
        *error = "parameter '" + p.name + "' (" + p.type + "): '" + spec.text + "' is not " +
                 (p.elementKind == ScalarKind::Int
                      ? "an integer or an expression of the other integer arguments"
                      : "a number") +
                 where;
        return false;
      }
      set.scalars.emplace_back(p.name, spec.text);
    }
  }
  // Integer scalars written as expressions of the others (stride_am=K): evaluated once
  // those they name are known, until none is left (a name that is not an integer argument,
  // or a cycle, is an error).
  for (bool progress = true; progress;) {
    progress = false;
    std::string pending, pendingWhy;
    for (auto& sc : set.scalars) {
      int64_t v = 0;
      const ParamInfo* p = findParam(params, sc.first);
      if (p->elementKind != ScalarKind::Int || parseInteger(sc.second, &v))
        continue;
      grid::Expr e;
      std::vector<int64_t> slots;
      std::string why;
      bool known = grid::parseWithValues(
          sc.second,
          [&](const std::string& n) { return n == sc.first ? std::nullopt : set.integer(n); },
          &e, &slots, &why);
      if (!known) {
        pending = sc.first;
        pendingWhy = why;
        continue;
      }
      if (!grid::evaluate(e, slots.data(), &v, &why)) {
        *error = "parameter '" + sc.first + "': " + why + where;
        return false;
      }
      sc.second = std::to_string(v);
      progress = true;
    }
    if (!progress && !pending.empty()) {
      *error = "parameter '" + pending + "': " + pendingWhy +
               " (an integer argument written as an expression names the other integer "
               "arguments, not itself or a cycle)" + where;
      return false;
    }
  }
  for (const args::Spec& b : set.buffers) {
    std::vector<int64_t> shape;
    std::string why;
    if (!args::evaluateShape(b, [&](const std::string& n) { return set.integer(n); }, &shape,
                             &why)) {
      *error = why + where;
      return false;
    }
  }
  *out = std::move(set);
  return true;
}

std::vector<std::pair<std::string, std::string>> splitArgs(const std::vector<std::string>& a) {
  std::vector<std::pair<std::string, std::string>> r;
  for (const std::string& s : a) {
    size_t eq = s.find('=');
    r.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return r;
}

} // namespace

const std::string* ArgSet::scalar(const std::string& name) const {
  for (const auto& s : scalars)
    if (s.first == name)
      return &s.second;
  return nullptr;
}

std::optional<int64_t> ArgSet::integer(const std::string& name) const {
  const std::string* t = scalar(name);
  int64_t v = 0;
  if (!t || !parseInteger(*t, &v))
    return std::nullopt;
  return v;
}

bool parseArgSetsJson(const std::string& text, const std::string& origin,
                      const std::vector<ParamInfo>& params, std::vector<ArgSet>* sets,
                      std::string* error) {
  json::Value root;
  try {
    root = json::parse(text, origin);
  } catch (const Error& e) {
    *error = e.what();
    return false;
  }
  if (!root.isArray() || root.items().empty()) {
    *error = origin + ": expected a non-empty JSON list of argument sets "
             "([{\"n\": 1024, \"x\": \"rand:n\"}, ...])";
    return false;
  }
  sets->clear();
  for (size_t i = 0; i < root.items().size(); ++i) {
    const json::Value& s = root.items()[i];
    const std::string where = origin + ": argument set " + std::to_string(i);
    if (!s.isObject()) {
      *error = where + " is not an object";
      return false;
    }
    std::vector<std::pair<std::string, std::string>> given;
    std::vector<std::string> labelNames;
    for (const auto& kv : s.members()) {
      const json::Value& v = kv.second;
      std::string t;
      if (v.isInt())
        t = std::to_string(v.asInt());
      else if (v.isNumber()) {
        char b[64];
        std::snprintf(b, sizeof b, "%.17g", v.asDouble());
        t = b;
      } else if (v.isBool())
        t = v.asBool() ? "true" : "false";
      else if (v.isString())
        t = v.asString();
      else {
        *error = where + ": '" + kv.first + "' is " + json::Value::kindName(v.kind()) +
                 " (a number, a boolean or a string expected)";
        return false;
      }
      given.emplace_back(kv.first, t);
      const ParamInfo* p = findParam(params, kv.first);
      if (p && !p->isPointer)
        labelNames.push_back(kv.first);
    }
    ArgSet set;
    if (!completeSet(given, labelNames, params, &set, error)) {
      *error = where + ": " + *error;
      return false;
    }
    sets->push_back(std::move(set));
  }
  return true;
}

bool argumentSets(const Options& o, const std::vector<ParamInfo>& params,
                  std::vector<ArgSet>* sets, std::string* error) {
  sets->clear();
  std::vector<std::pair<std::string, std::string>> fixed = splitArgs(o.args);
  if (!o.argsFile.empty()) {
    std::string text;
    try {
      text = readFile(o.argsFile, "argument sets", kMaxMetadataBytes);
    } catch (const Error& e) {
      *error = e.what();
      return false;
    }
    std::vector<ArgSet> fromFile;
    // The command line's NAME=SPEC complete every set of the file.
    json::Value root;
    try {
      root = json::parse(text, o.argsFile);
    } catch (const Error& e) {
      *error = e.what();
      return false;
    }
    if (root.isArray() && !fixed.empty()) {
      json::Value merged = json::Value::array();
      for (const json::Value& s : root.items()) {
        json::Value m = s;
        if (s.isObject())
          for (const auto& f : fixed)
            if (!s.find(f.first))
              m.set(f.first, f.second);
        merged.push(m);
      }
      text = json::write(merged, 0);
    }
    return parseArgSetsJson(text, o.argsFile, params, sets, error);
  }
  // The cross product of the --shape lists.
  std::vector<std::pair<std::string, std::vector<std::string>>> lists;
  for (const std::string& s : o.shapes) {
    size_t eq = s.find('=');
    std::pair<std::string, std::vector<std::string>> l{s.substr(0, eq), {}};
    for (size_t at = eq + 1;;) {
      size_t comma = s.find(',', at);
      l.second.push_back(s.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
      if (comma == std::string::npos)
        break;
      at = comma + 1;
    }
    for (const auto& m : lists)
      if (m.first == l.first) {
        *error = "--shape " + l.first + " is given twice (list every value in one: --shape " +
                 l.first + "=V1,V2)";
        return false;
      }
    lists.push_back(std::move(l));
  }
  std::vector<std::string> labelNames;
  for (const auto& l : lists)
    labelNames.push_back(l.first);
  std::vector<size_t> at(lists.size(), 0);
  while (true) {
    std::vector<std::pair<std::string, std::string>> given;
    for (size_t i = 0; i < lists.size(); ++i)
      given.emplace_back(lists[i].first, lists[i].second[at[i]]);
    given.insert(given.end(), fixed.begin(), fixed.end());
    ArgSet set;
    if (!completeSet(given, labelNames, params, &set, error))
      return false;
    sets->push_back(std::move(set));
    // Next combination: the last list varies fastest.
    size_t i = lists.size();
    while (i > 0 && ++at[i - 1] == lists[i - 1].second.size())
      at[--i] = 0;
    if (i == 0)
      break;
    if (sets->size() > 10000) {
      *error = "more than 10000 argument sets";
      return false;
    }
  }
  return true;
}

std::optional<double> evaluateCount(const std::string& text, const KernelMetadata& m,
                                    const ArgSet& set, int64_t numSms, std::string* why) {
  std::string err;
  int64_t r = 0;
  bool ok = grid::evaluateWithValues(
      text,
      [&](const std::string& n) {
        std::optional<int64_t> v = set.integer(n);
        if (!v)
          if (const ConstexprValue* c = m.constexprValue(n); c && c->isInteger())
            v = c->asInt();
        if (!v && n == "num_sms" && numSms > 0)
          v = numSms;
        return v;
      },
      &r, &err);
  if (!ok) {
    if (why)
      *why = err;
    return std::nullopt;
  }
  return static_cast<double>(std::max<int64_t>(r, 0));
}

// ---- The GPU side -------------------------------------------------------------------------

namespace {

uint16_t toHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
  int exp = int((x >> 23) & 0xffu);
  if (exp == 255)
    return uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0u));
  int e = exp - 127 + 15;
  if (e >= 31)
    return uint16_t(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10)
      return uint16_t(sign);
    mant |= 0x800000u;
    int shift = 14 - e;
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u)))
      ++h;
    return uint16_t(sign | h);
  }
  uint32_t h = (uint32_t(e) << 10) | (mant >> 13), rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
    ++h; // may carry into the exponent: rounds to the next binade or to infinity
  return uint16_t(sign | h);
}

uint16_t toBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40u);
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

// A buffer on the device filled as `spec` says, with `param`'s element type.
bench::DeviceBuffer makeBuffer(const args::Spec& spec, const ParamInfo& p,
                               const std::vector<int64_t>& shape, uint64_t seed) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (!grid::mul(n, d, &n))
      throw Error("making argument '" + spec.name + "'", "its size overflows");
  const size_t esize = size_t(std::max(8, p.elementBits) / 8);
  const size_t bytes = size_t(n) * esize;
  bench::DeviceBuffer buf(std::max<size_t>(bytes, 16));
  const Driver& d = driver();
  if (spec.kind == args::Kind::Empty || (spec.kind == args::Kind::Const && spec.value == 0)) {
    check(d.cuMemsetD8(buf.get(), 0, buf.bytes()), "clearing argument '" + spec.name + "'");
    return buf;
  }
  std::vector<unsigned char> host(bytes);
  args::Rng rng(args::streamSeed(seed, spec.name));
  const bool isInt = p.elementKind == ScalarKind::Int, isBool = p.type == "*i1";
  for (int64_t i = 0; i < n; ++i) {
    double v = args::generatedValue(spec, isInt, isBool, rng, i);
    unsigned char* dst = host.data() + size_t(i) * esize;
    if (isInt) {
      int64_t iv = isBool ? int64_t(v != 0) : static_cast<int64_t>(v);
      std::memcpy(dst, &iv, esize); // little-endian: the low bytes
    } else if (p.elementBits == 64) {
      std::memcpy(dst, &v, 8);
    } else if (p.elementBits == 32) {
      float f = float(v);
      std::memcpy(dst, &f, 4);
    } else {
      uint16_t h = p.type == "*bf16" ? toBf16(float(v)) : toHalf(float(v));
      std::memcpy(dst, &h, 2);
    }
  }
  if (bytes)
    check(d.cuMemcpyHtoD(buf.get(), host.data(), bytes), "filling argument '" + spec.name + "'");
  return buf;
}

Arg scalarArg(const ParamInfo& p, const std::string& text) {
  if (p.elementKind == ScalarKind::Int) {
    int64_t v = 0;
    parseInteger(text, &v);
    if (p.type == "i1")
      return Arg(v != 0);
    return Arg(v);
  }
  return Arg(std::strtod(text.c_str(), nullptr));
}

std::string ms(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4f", v);
  return b;
}

} // namespace

bool gpuAvailable(std::string* why) {
  std::string w;
  bool ok = false;
  try {
    ok = driverAvailable(&w) && deviceCount() > 0;
  } catch (const Error& e) {
    w = e.what();
  }
  if (!ok && why)
    *why = w.empty() ? "no CUDA device" : w;
  return ok;
}

Ceilings measureCeilings(const std::string& peakArtifact, double budgetMs) {
  Ceilings c;
  bench::Options opts;
  opts.warmupMs = 10;
  opts.budgetMs = budgetMs > 0 ? budgetMs : 50;
  try {
    DeviceInfo info = deviceInfo(currentDeviceOrdinal());
    size_t bytes = size_t(1) << 30;
    while (bytes > (size_t(1) << 24) && bytes * 8 > info.totalMemory)
      bytes /= 2;
    c.copyGBps = bench::copyBandwidth(bytes, opts);
    c.copyNote = c.copyGBps > 0 ? "cuMemcpyDtoDAsync of " + std::to_string(bytes >> 20) +
                                      " MiB, read + written bytes"
                                : "not measured: the copy took no measurable time";
  } catch (const Error& e) {
    c.copyNote = std::string("not measured: ") + e.what();
  }
  if (peakArtifact.empty()) {
    c.tensorNote = "not measured (no --peak artifact: compile runtime/tools/tensor_peak.tile)";
    return c;
  }
  try {
    Library lib(peakArtifact);
    Kernel& k = lib.kernel("tensor_peak");
    const KernelMetadata& m = k.variants().back();
    int64_t bm = m.constexprValue("BM") ? m.constexprValue("BM")->asInt() : 128;
    int64_t bn = m.constexprValue("BN") ? m.constexprValue("BN")->asInt() : 128;
    int64_t bk = m.constexprValue("BK") ? m.constexprValue("BK")->asInt() : 64;
    const int64_t programs = 4 * int64_t(deviceInfo(currentDeviceOrdinal()).smCount),
                  iters = 4096;
    ParamInfo half;
    parseParamType("*f16", &half);
    ParamInfo f32;
    parseParamType("*f32", &f32);
    args::Spec ra, rb, zo;
    ra.kind = rb.kind = args::Kind::Rand;
    ra.name = "a";
    rb.name = "b";
    zo.kind = args::Kind::Empty;
    zo.name = "out";
    bench::DeviceBuffer a = makeBuffer(ra, half, {bm, bk}, 0);
    bench::DeviceBuffer b = makeBuffer(rb, half, {bk, bn}, 0);
    bench::DeviceBuffer out = makeBuffer(zo, f32, {programs, bm * bn}, 0);
    const Arg argv[] = {Arg(a.get()), Arg(b.get()), Arg(out.get()), Arg(int32_t(iters)),
                        Arg(int32_t(programs))};
    TuningReport r = k.measureArgs(nullptr, argv, 5, opts.budgetMs);
    ArgSet set;
    set.scalars = {{"iters", std::to_string(iters)}, {"programs", std::to_string(programs)}};
    std::string why;
    std::optional<double> flops =
        m.cost && !m.cost->flops.empty() ? evaluateCount(m.cost->flops, m, set, 0, &why)
                                         : std::nullopt;
    if (!flops)
      throw Error("measuring the tensor-core ceiling",
                  "the tensor_peak artifact has no usable FLOP count (" +
                      (why.empty() ? std::string("no \"cost\" in its metadata") : why) + ")");
    if (r.trials.empty() || !r.trials.front().ok || r.trials.front().medianMs <= 0)
      throw Error("measuring the tensor-core ceiling",
                  r.trials.empty() || r.trials.front().error.empty()
                      ? std::string("tensor_peak took no measurable time")
                      : r.trials.front().error);
    c.tensorTFLOPs = *flops / (r.trials.front().medianMs * 1e9);
    c.tensorNote = "tensor_peak " + m.configString() + " (" + m.arch + "), " +
                   std::to_string(programs) + " programs x " + std::to_string(iters) +
                   " dots of " + std::to_string(bm) + "x" + std::to_string(bn) + "x" +
                   std::to_string(bk) + " f16, median " + ms(r.trials.front().medianMs) + " ms";
  } catch (const Error& e) {
    c.tensorTFLOPs = 0;
    c.tensorNote = std::string("not measured: ") + e.what();
  }
  return c;
}

bool deviceGroups(const Options& o, std::vector<std::vector<int>>* groups, std::string* error) {
  const int count = deviceCount();
  std::vector<int> list = o.devices;
  if (o.allDevices)
    for (int d = 0; d < count; ++d)
      list.push_back(d);
  if (list.empty()) {
    ensureContext();
    list.push_back(currentDeviceOrdinal());
  }
  std::vector<std::pair<std::string, int>> models; // name, cc of each group
  for (int d : list) {
    if (d >= count) {
      *error = "--devices: device " + std::to_string(d) + " does not exist (the driver sees " +
               std::to_string(count) + (count == 1 ? " device)" : " devices)");
      return false;
    }
    DeviceInfo info = deviceInfo(d);
    size_t g = 0;
    while (g < models.size() &&
           !(models[g].first == info.name && models[g].second == info.computeCapability))
      ++g;
    if (g == models.size()) {
      models.emplace_back(info.name, info.computeCapability);
      groups->emplace_back();
    }
    (*groups)[g].push_back(d);
  }
  return true;
}

namespace {

// One argument set measured with `k` on the current device: every configuration's result.
ShapeResult measureSet(const Options& o, Kernel& k, const ArgSet& set, int64_t smCount,
                       const std::string& program, int device) {
  std::vector<bench::DeviceBuffer> buffers;
  std::vector<Arg> argv;
  size_t b = 0;
  for (const ParamInfo& p : k.params()) {
    if (p.isPointer) {
      const args::Spec& spec = set.buffers[b++];
      std::vector<int64_t> shape;
      args::evaluateShape(spec, [&](const std::string& n) { return set.integer(n); }, &shape,
                          nullptr); // checked when the set was made
      buffers.push_back(makeBuffer(spec, p, shape, o.seed));
      argv.push_back(Arg(buffers.back().get()));
    } else {
      argv.push_back(scalarArg(p, *set.scalar(p.name)));
    }
  }
  TuningReport tr = k.measureArgs(nullptr, argv.data(), argv.size(), o.budgetMs);
  ShapeResult s;
  s.label = set.label;
  s.key = tr.key;
  double best = 0;
  for (size_t i = 0; i < tr.trials.size(); ++i) {
    const TuningTrial& t = tr.trials[i];
    ConfigResult c;
    c.index = t.index;
    c.config = t.config;
    c.ok = t.ok;
    c.error = t.error;
    c.medianMs = t.medianMs;
    c.p20Ms = t.p20Ms;
    c.p80Ms = t.p80Ms;
    c.reps = t.reps;
    if (t.index == tr.chosenIndex)
      best = t.medianMs;
    const KernelMetadata& m = k.configuration(i).variants().back();
    if (m.cost && !m.cost->bytes.empty())
      c.bytes = evaluateCount(m.cost->bytes, m, set, smCount, nullptr);
    if (m.cost && !m.cost->flops.empty())
      c.flops = evaluateCount(m.cost->flops, m, set, smCount, nullptr);
    s.configs.push_back(c);
  }
  std::fprintf(stderr, "%s: %s: %zu configurations measured on device %d, the fastest [%d] %s (%s ms)\n",
               program.c_str(), set.label.c_str(), s.configs.size(), device, tr.chosenIndex,
               tr.chosenConfig.c_str(), ms(best).c_str());
  return s;
}

// A file-name-safe form of a device name: "NVIDIA H200" -> "NVIDIA_H200".
std::string folderName(const std::string& device) {
  std::string f;
  for (char c : device)
    f += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return f.empty() ? "device" : f;
}

} // namespace

int run(const Options& o, const std::string& program) {
  auto fail = [&](const std::string& msg) {
    std::fprintf(stderr, "%s: error: %s\n", program.c_str(), msg.c_str());
    return 1;
  };
  std::string why;
  try {
    // The artifact and the argument sets first: their errors need no GPU.
    Library lib(o.artifact);
    std::string name = o.kernel;
    std::vector<std::string> names = lib.kernelNames();
    if (name.empty()) {
      if (names.size() != 1) {
        std::string list;
        for (const std::string& n : names)
          list += (list.empty() ? "" : ", ") + n;
        return fail(o.artifact + " holds several kernels (" + list + "): choose one with --kernel");
      }
      name = names.front();
    }
    Kernel& k = lib.kernel(name);
    std::vector<ArgSet> sets;
    if (!argumentSets(o, k.params(), &sets, &why))
      return fail(why);
    if (!gpuAvailable(&why))
      return fail("tuning needs a GPU (" + why +
                  "); compile the artifact here (tcc K.tile --emit=cubin -o DIR/) and run "
                  "tcc-tune DIR ... on a GPU machine");
    std::vector<std::vector<int>> groups;
    if (!deviceGroups(o, &groups, &why))
      return fail(why);

    std::vector<Report> reports;
    for (const std::vector<int>& group : groups) {
      DeviceScope onFirst(group.front());
      Report rep;
      rep.kernel = name;
      DeviceInfo info = deviceInfo(group.front());
      rep.device = info.name;
      rep.computeCapability = info.computeCapability;
      rep.driverVersion = driverVersion();
      if (k.isTuned())
        rep.space = k.variants().back().autotune->space;
      if (!o.noCeilings) {
        std::fprintf(stderr, "%s: measuring the ceilings of device %d (%s)\n", program.c_str(),
                     group.front(), info.name.c_str());
        rep.ceilings = measureCeilings(o.peak, o.budgetMs);
      } else {
        rep.ceilings.copyNote = rep.ceilings.tensorNote = "not measured (--no-ceilings)";
      }
      // The argument sets dealt round-robin to the group's devices, one thread each with a
      // library of its own (a kernel's measurements are serialised: one tuner each).
      rep.shapes.resize(sets.size());
      std::vector<std::string> errors(group.size());
      std::vector<std::thread> threads;
      for (size_t g = 0; g < group.size(); ++g)
        threads.emplace_back([&, g] {
          try {
            useDevice(group[g]);
            Library own(o.artifact);
            Kernel& mine = own.kernel(name);
            for (size_t i = g; i < sets.size(); i += group.size())
              rep.shapes[i] = measureSet(o, mine, sets[i], info.smCount, program, group[g]);
          } catch (const Error& e) {
            errors[g] = e.what();
          }
        });
      for (std::thread& t : threads)
        t.join();
      for (size_t g = 0; g < group.size(); ++g)
        if (!errors[g].empty())
          return fail("device " + std::to_string(group[g]) + ": " + errors[g]);
      reports.push_back(std::move(rep));
    }

    for (const Report& rep : reports) {
      std::string out = o.format == Options::Format::Csv    ? csvReport(rep)
                        : o.format == Options::Format::Json ? jsonReport(rep)
                                                            : textReport(rep);
      std::fwrite(out.data(), 1, out.size(), stdout);
    }
    std::fflush(stdout);
    if (!o.table.empty()) {
      if (!k.isTuned()) {
        std::fprintf(stderr, "%s: warning: '%s' is not an autotuned kernel: no table written\n",
                     program.c_str(), name.c_str());
      } else {
        std::vector<std::string> warnings;
        std::string table = tuningTable(reports, &warnings);
        for (const std::string& w : warnings)
          std::fprintf(stderr, "%s: warning: %s\n", program.c_str(), w.c_str());
        std::error_code ec;
        fs::path parent = fs::path(o.table).parent_path();
        if (!parent.empty())
          fs::create_directories(parent, ec); // a failure shows in the write below
        if (!writeFileAtomically(o.table, table, &why))
          return fail("writing the tuning table " + o.table + ": " + why);
        std::fprintf(stderr, "%s: wrote the tuning table %s\n", program.c_str(), o.table.c_str());
      }
    }
    if (!o.reportDir.empty()) {
      for (const Report& rep : reports) {
        // One model: the folder itself; several: a sub-folder per model.
        std::string dir = reports.size() == 1 ? o.reportDir
                                              : o.reportDir + "/" + folderName(rep.device);
        if (!writeReport(rep, dir, &why))
          return fail(why);
        std::fprintf(stderr, "%s: wrote the report into %s\n", program.c_str(), dir.c_str());
      }
    }
  } catch (const Error& e) {
    return fail(e.what());
  }
  return 0;
}

} // namespace tune
} // namespace tcc
