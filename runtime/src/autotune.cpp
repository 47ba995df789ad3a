// Autotuned kernels (docs/autotuning.md): one tcc::Kernel over the configurations of an
// autotune space, choosing one per key (bucketed key arguments + device + driver) from
// memory, the disk cache, or by benchmarking with the arguments of the launch, the memory
// the kernel writes saved and restored around the trials.
#include "kernel_internal.h"

#include "tcc/atomic_file.h"
#include "tcc/bench.h"
#include "tcc/json.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace tcc {

int64_t autotuneBucket(int64_t v) {
  if (v <= 1)
    return v;
  if (v > (int64_t(1) << 62))
    return std::numeric_limits<int64_t>::max();
  int64_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

void Kernel::Tuning::makeKey(const Arg* args, detail::TuneKey* key) const {
  key->resize(info.keyParams.size());
  int64_t* out = key->data();
  for (size_t i = 0; i < info.keyParams.size(); ++i) {
    const Arg& a = args[info.keyParams[i]];
    int64_t v = 0; // not an integer: the launch's argument check reports it
    if (a.kind() == Arg::Kind::Signed || a.kind() == Arg::Kind::Bool)
      v = a.asSigned();
    else if (a.kind() == Arg::Kind::Unsigned)
      v = a.asUnsigned() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
              ? std::numeric_limits<int64_t>::max()
              : static_cast<int64_t>(a.asUnsigned());
    out[i] = autotuneBucket(v);
  }
}

namespace {

namespace fs = std::filesystem;

const char* const kCacheFormat = "tcc-autotune-cache";
const int kCacheVersion = 1;

bool envIs(const char* name, const char* value) {
  const char* e = std::getenv(name);
  return e && std::strcmp(e, value) == 0;
}

bool autotuneOff() {
  const char* e = std::getenv("TCC_AUTOTUNE");
  return e && (std::strcmp(e, "off") == 0 || std::strcmp(e, "0") == 0);
}

bool verbose() { return envIs("TCC_AUTOTUNE_VERBOSE", "1"); }

// The cache folder: $TCC_CACHE_DIR (empty: no disk cache), else $XDG_CACHE_HOME/tcc, else
// ~/.cache/tcc; empty when there is none.
std::string cacheDir() {
  if (const char* d = std::getenv("TCC_CACHE_DIR"))
    return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/tcc";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.cache/tcc";
  return "";
}

std::string keyString(const AutotuneInfo& info, const detail::TuneKey& key) {
  std::string s;
  for (size_t i = 0; i < key.size(); ++i)
    s += (i ? ", " : "") + info.key[i] + "=" + std::to_string(key.data()[i]);
  return s;
}

std::string fmtMs(double ms) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4f", ms);
  return b;
}

const KernelMetadata& general(const Kernel& k) { return k.variants().back(); }
int indexOf(const Kernel& k) { return general(k).autotune->index; }

void warnOnce(std::set<std::string>& warned, const std::string& msg);

// ---- The disk cache -------------------------------------------------------------------

// One entry's shape (docs/autotuning.md); false with the reason otherwise.
bool entryShape(const json::Value& e, std::string* why) {
  if (!e.isObject()) {
    *why = "an entry is not an object";
    return false;
  }
  for (const char* s : {"device", "key", "config"}) {
    const json::Value* v = e.find(s);
    if (!v || !v->isString()) {
      *why = std::string("an entry's \"") + s + "\" is missing or not a string";
      return false;
    }
  }
  for (const char* s : {"cc", "driver", "index"}) {
    const json::Value* v = e.find(s);
    if (!v || !v->isInt()) {
      *why = std::string("an entry's \"") + s + "\" is missing or not an integer";
      return false;
    }
  }
  if (const json::Value* m = e.find("medians_ms")) {
    if (!m->isObject()) {
      *why = "an entry's \"medians_ms\" is not an object";
      return false;
    }
    for (const auto& kv : m->members())
      if (!kv.second.isNumber()) {
        *why = "an entry's \"medians_ms\" holds a value that is not a number";
        return false;
      }
  }
  return true;
}

struct CacheFile {
  bool exists = false;
  std::string problem;              // why the file as a whole is not used (empty: it is)
  std::vector<json::Value> entries; // the well-formed entries
  size_t malformed = 0;             // entries dropped for their shape
  std::string malformedWhy;
};

CacheFile readCache(const std::string& path, const std::string& kernel, const std::string& space) {
  CacheFile c;
  std::error_code ec;
  if (!fs::exists(path, ec))
    return c;
  c.exists = true;
  json::Value root;
  try {
    root = json::parse(readFile(path, "autotuning cache", kMaxMetadataBytes), path);
  } catch (const Error& e) {
    c.problem = std::string("not valid JSON (") + e.what() + ")";
    return c;
  }
  const json::Value* f = root.isObject() ? root.find("format") : nullptr;
  if (!f || !f->isString() || f->asString() != kCacheFormat) {
    c.problem = std::string("not a \"") + kCacheFormat + "\" file";
    return c;
  }
  const json::Value* v = root.find("version");
  if (!v || !v->isInt() || v->asInt() != kCacheVersion) {
    c.problem = "of a version this runtime does not read (it reads " +
                std::to_string(kCacheVersion) + ")";
    return c;
  }
  const json::Value* k = root.find("kernel");
  const json::Value* s = root.find("space");
  if (!k || !k->isString() || k->asString() != kernel || !s || !s->isString() ||
      s->asString() != space) {
    c.problem = "not the cache of kernel '" + kernel + "' in space " + space;
    return c;
  }
  const json::Value* entries = root.find("entries");
  if (!entries || !entries->isArray()) {
    c.problem = "\"entries\" is missing or not an array";
    return c;
  }
  for (const json::Value& e : entries->items()) {
    std::string why;
    if (entryShape(e, &why))
      c.entries.push_back(e);
    else if (c.malformed++ == 0)
      c.malformedWhy = why;
  }
  return c;
}

bool sameKey(const json::Value& e, const std::string& device, int cc, int driver,
             const std::string& key) {
  return e.find("device")->asString() == device && e.find("cc")->asInt() == cc &&
         e.find("driver")->asInt() == driver && e.find("key")->asString() == key;
}


// Adds (or replaces) `entry` in the cache file, merging what is there now: under an
// exclusive lock on `<path>.lock`, so that writers in other processes do not lose each
// other's entries. Failures are warnings (the cache is an optimisation).
void writeCache(std::set<std::string>& warned, const std::string& dir, const std::string& path,
                const std::string& kernel, const std::string& space, const json::Value& entry) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    warnOnce(warned, "autotuning kernel '" + kernel + "': cannot create the cache folder " + dir +
                    " (" + ec.message() + "); the choice is not saved");
    return;
  }
  int lock = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock >= 0)
    while (::flock(lock, LOCK_EX) != 0 && errno == EINTR) {
    }
  CacheFile now = readCache(path, kernel, space); // problems were reported when it was read
  json::Value entries = json::Value::array();
  bool replaced = false;
  const std::string device = entry.find("device")->asString();
  const int cc = static_cast<int>(entry.find("cc")->asInt());
  const int driver = static_cast<int>(entry.find("driver")->asInt());
  const std::string key = entry.find("key")->asString();
  if (now.problem.empty())
    for (const json::Value& e : now.entries) {
      if (sameKey(e, device, cc, driver, key)) {
        if (!replaced)
          entries.push(entry);
        replaced = true;
        continue;
      }
      entries.push(e);
    }
  if (!replaced)
    entries.push(entry);
  json::Value root = json::Value::object();
  root.set("format", kCacheFormat);
  root.set("version", kCacheVersion);
  root.set("kernel", kernel);
  root.set("space", space);
  root.set("entries", entries);
  std::string why;
  if (!writeFileAtomically(path, json::write(root, 2) + "\n", &why))
    warnOnce(warned, "autotuning kernel '" + kernel + "': the choice is not saved: " + why);
  if (lock >= 0)
    ::close(lock); // releases the lock
}

} // namespace

namespace {

void warnOnce(std::set<std::string>& warned, const std::string& msg) {
  if (warned.insert(msg).second)
    std::fprintf(stderr, "tcc: warning: %s\n", msg.c_str());
}

std::string sourceName(TuningReport::Source s) {
  switch (s) {
  case TuningReport::Source::Benchmark:
    return "by benchmark";
  case TuningReport::Source::DiskCache:
    return "from the disk cache";
  case TuningReport::Source::Disabled:
    return "TCC_AUTOTUNE=off: the first configuration";
  case TuningReport::Source::EmptyGrid:
    return "nothing to launch (every grid is empty): the first configuration";
  }
  return "?";
}

void printChoice(const TuningReport& r) {
  std::string s = "tcc: autotune: kernel '" + r.kernel + "' key [" + r.key + "] on " +
                  (r.device.empty() ? std::string("no device")
                                    : r.device + " (sm_" + std::to_string(r.computeCapability) +
                                          ", driver " + std::to_string(r.driverVersion) + ")") +
                  ": chose configuration " + std::to_string(r.chosenIndex) + " (" +
                  r.chosenConfig + ") " + sourceName(r.source) + " in " + fmtMs(r.elapsedMs) +
                  " ms\n";
  for (const TuningTrial& t : r.trials) {
    s += "  [" + std::to_string(t.index) + "] " + t.config + ": ";
    if (!t.ok)
      s += t.error.empty() ? "no median recorded" : "failed: " + t.error;
    else if (t.reps > 0)
      s += "median " + fmtMs(t.medianMs) + " ms (p20 " + fmtMs(t.p20Ms) + ", p80 " +
           fmtMs(t.p80Ms) + ", " + std::to_string(t.reps) + " reps)";
    else
      s += "median " + fmtMs(t.medianMs) + " ms";
    s += t.index == r.chosenIndex ? "  <- chosen\n" : "\n";
  }
  std::fputs(s.c_str(), stderr);
}

double budgetMs() {
  if (const char* e = std::getenv("TCC_AUTOTUNE_BUDGET_MS")) {
    double v = std::atof(e);
    if (v > 0)
      return v;
  }
  return 25;
}

} // namespace

Kernel::Kernel(std::string name, std::vector<Kernel*> configs) : name_(std::move(name)) {
  tuning_ = std::make_unique<Tuning>();
  tuning_->configs = std::move(configs);
  metas_ = tuning_->configs.front()->metas_;
  tuning_->info = *general(*tuning_->configs.front()).autotune;
  const AutotuneInfo& info = tuning_->info;
  tuning_->savedParams = info.restoreParams;
  for (size_t p : info.writesParams)
    if (std::find(info.restoreParams.begin(), info.restoreParams.end(), p) ==
        info.restoreParams.end())
      tuning_->savedParams.push_back(p);
}

size_t Kernel::numConfigurations() const { return tuning_ ? tuning_->configs.size() : 1; }

Kernel& Kernel::configuration(size_t i) {
  if (i >= numConfigurations())
    throw Error("looking up a configuration",
                "configuration " + std::to_string(i) + " does not exist (there " +
                    (numConfigurations() == 1 ? "is 1)" : "are " + std::to_string(numConfigurations()) + ")"),
                name_);
  return tuning_ ? *tuning_->configs[i] : *this;
}

std::string Kernel::configString() const {
  if (!tuning_)
    return metas_.front().configString();
  std::string s = "autotuned over " + std::to_string(tuning_->configs.size()) + " configurations: ";
  for (size_t i = 0; i < tuning_->configs.size(); ++i)
    s += (i ? " | " : "") + general(*tuning_->configs[i]).configString();
  return s;
}

const KernelMetadata& Kernel::chosenArgs(CUstream stream, const Arg* args, size_t count) {
  if (!tuning_) {
    Marshalled m;
    marshal(args, count, &m); // the same argument checks as a launch
    return metas_.back();
  }
  return general(*tuning_->configs[chooseConfiguration(stream, args, count, true)]);
}

std::optional<TuningReport> Kernel::lastTuning() const {
  if (!tuning_)
    return std::nullopt;
  std::lock_guard<std::mutex> l(tuning_->reportMutex);
  if (tuning_->reports.empty())
    return std::nullopt;
  return tuning_->reports.back();
}

std::vector<TuningReport> Kernel::tunings() const {
  if (!tuning_)
    return {};
  std::lock_guard<std::mutex> l(tuning_->reportMutex);
  return tuning_->reports;
}

size_t Kernel::chooseConfiguration(CUstream stream, const Arg* args, size_t count,
                                   bool benchmark) const {
  Tuning& t = *tuning_;
  if (count != metas_.front().params.size()) {
    Marshalled m;
    t.configs.front()->marshal(args, count, &m); // throws: the argument count
  }
  detail::TuneKey key;
  t.makeKey(args, &key);
  {
    std::shared_lock<std::shared_mutex> l(t.mapMutex);
    auto it = t.choices.find(key);
    if (it != t.choices.end())
      return it->second;
  }

  // Not known in memory: one choice at a time; another thread may have made this one while
  // this one waited.
  std::lock_guard<std::mutex> tuneLock(t.tuneMutex);
  {
    std::shared_lock<std::shared_mutex> l(t.mapMutex);
    auto it = t.choices.find(key);
    if (it != t.choices.end())
      return it->second;
  }
  {
    Marshalled m;
    t.configs.front()->marshal(args, count, &m); // nothing is measured with wrong arguments
  }
  const auto t0 = std::chrono::steady_clock::now();
  const Driver* d = nullptr;
  if (!t.deviceRead) {
    t.deviceRead = true;
    if (driverAvailable()) {
      try {
        CUdevice dev = currentDevice();
        char buf[256] = {0};
        check(driver().cuDeviceGetName(buf, sizeof buf - 1, dev), "querying the device name",
              name_);
        t.deviceName = buf;
        t.computeCapability = deviceComputeCapability();
        t.driverVersion = driverVersion();
        t.deviceKnown = true;
      } catch (const Error&) {
        t.deviceKnown = false;
      }
    }
  }
  if (t.deviceKnown)
    d = &driver();

  TuningReport rep;
  rep.kernel = name_;
  rep.space = t.info.space;
  rep.key = keyString(t.info, key);
  rep.device = t.deviceName;
  rep.computeCapability = t.computeCapability;
  rep.driverVersion = t.driverVersion;
  const size_t none = t.configs.size();
  size_t chosen = none;
  std::string dir = cacheDir();
  std::string path = dir.empty() ? "" : dir + "/autotune/" + name_ + "-" + t.info.space + ".json";

  if (autotuneOff()) {
    chosen = 0;
    rep.source = TuningReport::Source::Disabled;
  }

  // The disk cache.
  if (chosen == none && t.deviceKnown && !path.empty()) {
    CacheFile c = readCache(path, name_, t.info.space);
    if (!c.problem.empty())
      warnOnce(t.warned, "ignoring the autotuning cache " + path + ": " + c.problem);
    else if (c.malformed)
      warnOnce(t.warned, "ignoring " + std::to_string(c.malformed) + " malformed entr" +
                      (c.malformed == 1 ? "y" : "ies") + " of the autotuning cache " + path +
                      " (" + c.malformedWhy + ")");
    const json::Value* hit = nullptr;
    for (const json::Value& e : c.entries)
      if (sameKey(e, t.deviceName, t.computeCapability, t.driverVersion, rep.key))
        hit = &e;
    if (hit) {
      int64_t index = hit->find("index")->asInt();
      const std::string& config = hit->find("config")->asString();
      size_t at = none;
      for (size_t i = 0; i < t.configs.size(); ++i)
        if (indexOf(*t.configs[i]) == index)
          at = i;
      if (at == none)
        warnOnce(t.warned, "ignoring the entry for key [" + rep.key + "] of the autotuning cache " +
                        path + ": it names configuration " + std::to_string(index) + " (" +
                        config + "), which is not loaded");
      else if (general(*t.configs[at]).configString() != config)
        warnOnce(t.warned, "ignoring the entry for key [" + rep.key + "] of the autotuning cache " +
                        path + ": configuration " + std::to_string(index) + " is \"" + config +
                        "\" there but \"" + general(*t.configs[at]).configString() +
                        "\" here");
      else {
        chosen = at;
        rep.source = TuningReport::Source::DiskCache;
        const json::Value* medians = hit->find("medians_ms");
        for (Kernel* k : t.configs) {
          TuningTrial tr;
          tr.index = indexOf(*k);
          tr.config = general(*k).configString();
          if (const json::Value* m = medians ? medians->find(std::to_string(tr.index)) : nullptr) {
            tr.ok = true;
            tr.medianMs = m->asDouble();
          }
          rep.trials.push_back(tr);
        }
      }
    }
  }

  // (An embedded tuning table, written into the artifact by offline tuning, is consulted
  // here once artifacts carry one.)

  if (chosen == none && !benchmark)
    return 0; // plan(): nothing known and nothing measured; the first configuration

  if (chosen == none) {
    if (!d) {
      std::string why;
      driverAvailable(&why);
      throw Error("autotuning", "benchmarking the configurations needs a GPU (" +
                                    (why.empty() ? "no device answered" : why) + ")",
                  name_);
    }
    // Nothing launches for these arguments (every grid is empty): nothing to measure.
    bool allEmpty = true;
    for (Kernel* k : t.configs) {
      try {
        allEmpty = allEmpty && k->planArgs(args, count).empty();
      } catch (const Error&) {
        allEmpty = false;
      }
    }
    if (allEmpty) {
      chosen = 0;
      rep.source = TuningReport::Source::EmptyGrid;
    }
  }

  if (chosen == none) {
    rep.source = TuningReport::Source::Benchmark;
    // Save the whole allocation of every pointer the kernel may write.
    struct Saved {
      std::string param;
      CUdeviceptr base = 0;
      size_t size = 0;
      bench::DeviceBuffer copy;
    };
    std::vector<Saved> saved;
    for (size_t p : t.savedParams) {
      const std::string& pname = metas_.front().params[p].name;
      CUdeviceptr addr = static_cast<CUdeviceptr>(args[p].asUnsigned());
      if (addr == 0)
        continue;
      Saved s;
      s.param = pname;
      check(d->cuMemGetAddressRange(&s.base, &s.size, addr),
            "autotuning: finding the allocation of argument '" + pname +
                "' to save it before the trials (it must be device memory of this context)",
            name_);
      bool dup = false;
      for (const Saved& o : saved)
        dup = dup || o.base == s.base;
      if (dup || s.size == 0)
        continue;
      s.copy = bench::DeviceBuffer(s.size);
      check(d->cuMemcpyDtoDAsync(s.copy.get(), s.base, s.size, stream),
            "autotuning: saving argument '" + pname + "' (" + std::to_string(s.size) + " bytes)",
            name_);
      saved.push_back(std::move(s));
    }
    auto restore = [&] {
      for (const Saved& s : saved)
        check(d->cuMemcpyDtoDAsync(s.base, s.copy.get(), s.size, stream),
              "autotuning: restoring argument '" + s.param + "' (" + std::to_string(s.size) +
                  " bytes)",
              name_);
    };
    // Whatever happens, the memory is left as the launch was given it.
    struct Guard {
      std::function<void()> fn;
      bool done = false;
      ~Guard() {
        if (!done)
          try {
            fn();
          } catch (...) {
          }
      }
    } guard{[&] {
      restore();
      check(d->cuStreamSynchronize(stream), "autotuning: restoring the arguments", name_);
    }};

    bench::Options opts;
    opts.warmupMs = 5;
    opts.budgetMs = budgetMs();
    opts.minReps = 5;
    opts.maxReps = 1000;
    opts.flushL2 = true;
    opts.stream = stream;
    for (Kernel* k : t.configs) {
      TuningTrial tr;
      tr.index = indexOf(*k);
      tr.config = general(*k).configString();
      restore();
      try {
        k->launchArgs(stream, args, count); // warm-up: loads the module, first-launch costs
        check(d->cuStreamSynchronize(stream), "running the warm-up launch", name_);
        bench::Result r = bench::run([&](CUstream s) { k->launchArgs(s, args, count); }, opts);
        tr.ok = true;
        tr.medianMs = r.median;
        tr.p20Ms = r.p20;
        tr.p80Ms = r.p80;
        tr.reps = r.reps;
      } catch (const Error& e) {
        tr.error = e.what();
        warnOnce(t.warned, "autotuning kernel '" + name_ + "': skipping configuration " +
                        std::to_string(tr.index) + " (" + tr.config + "): " + e.what());
      }
      rep.trials.push_back(tr);
    }
    guard.done = true;
    guard.fn(); // restore after the last trial (errors propagate)

    for (size_t i = 0; i < rep.trials.size(); ++i)
      if (rep.trials[i].ok && (chosen == none || rep.trials[i].medianMs < rep.trials[chosen].medianMs))
        chosen = i;
    if (chosen == none) {
      std::string list;
      for (const TuningTrial& tr : rep.trials)
        list += "\n  [" + std::to_string(tr.index) + "] " + tr.config + ": " + tr.error;
      throw Error("autotuning (key [" + rep.key + "])",
                  "every configuration failed to launch:" + list, name_);
    }
    if (!path.empty()) {
      json::Value entry = json::Value::object();
      entry.set("device", t.deviceName);
      entry.set("cc", t.computeCapability);
      entry.set("driver", t.driverVersion);
      entry.set("key", rep.key);
      entry.set("index", indexOf(*t.configs[chosen]));
      entry.set("config", general(*t.configs[chosen]).configString());
      json::Value medians = json::Value::object();
      for (const TuningTrial& tr : rep.trials)
        if (tr.ok)
          medians.set(std::to_string(tr.index), tr.medianMs);
      entry.set("medians_ms", medians);
      writeCache(t.warned, dir + "/autotune", path, name_, t.info.space, entry);
    }
  }

  rep.chosenIndex = indexOf(*t.configs[chosen]);
  rep.chosenConfig = general(*t.configs[chosen]).configString();
  rep.elapsedMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  {
    std::unique_lock<std::shared_mutex> l(t.mapMutex);
    t.choices.emplace(std::move(key), chosen);
  }
  if (verbose())
    printChoice(rep);
  {
    std::lock_guard<std::mutex> l(t.reportMutex);
    t.reports.push_back(std::move(rep));
  }
  return chosen;
}

} // namespace tcc
