// Autotuning (docs/autotuning.md): the tuner (tuner.h) that chooses a configuration per key
// (bucketed key arguments + device + driver) from memory, the disk cache, a tuning table, or
// by benchmarking with the arguments of the launch, the memory the kernel writes saved and
// restored around the trials; and tcc::Kernel over the configurations of an autotune space
// a Library loaded, which feeds it (generated headers feed it through EmbeddedTuning,
// embedded.cpp).
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

void Kernel::Tuning::keyValues(const Arg* args, int64_t* out) const {
  for (size_t i = 0; i < info.keyParams.size(); ++i) {
    const Arg& a = args[info.keyParams[i]];
    int64_t v = 0; // not an integer: the launch's argument check reports it
    if (a.kind() == Arg::Kind::Signed || a.kind() == Arg::Kind::Bool)
      v = a.asSigned();
    else if (a.kind() == Arg::Kind::Unsigned)
      v = a.asUnsigned() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
              ? std::numeric_limits<int64_t>::max()
              : static_cast<int64_t>(a.asUnsigned());
    out[i] = v;
  }
}

namespace {

namespace fs = std::filesystem;

const char* const kCacheFormat = "tcc-autotune-cache";
const int kCacheVersion = 1;
const char* const kTableFormat = "tcc-tuning-table";
const int kTableVersion = 1;

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

std::string fmtMs(double ms) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4f", ms);
  return b;
}

const KernelMetadata& general(const Kernel& k) { return k.variants().back(); }

void warnOnce(std::set<std::string>& warned, const std::string& msg) {
  if (warned.insert(msg).second)
    std::fprintf(stderr, "tcc: warning: %s\n", msg.c_str());
}

// ---- The disk cache and tuning tables -------------------------------------------------

// One entry's shape (docs/autotuning.md): a cache entry has a "driver", a table's has not;
// false with the reason otherwise.
bool entryShape(const json::Value& e, bool cache, std::string* why) {
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
    if (!cache && std::strcmp(s, "driver") == 0)
      continue;
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
  if (!cache)
    for (const auto& kv : e.members())
      if (kv.first != "device" && kv.first != "cc" && kv.first != "key" && kv.first != "index" &&
          kv.first != "config" && kv.first != "medians_ms") {
        *why = "an entry has the field \"" + kv.first + "\", which tables do not have" +
               (kv.first == "driver" ? " (a table applies across driver versions)" : "");
        return false;
      }
  return true;
}

struct EntryFile {
  bool exists = false;
  std::string problem;              // why the file as a whole is not used (empty: it is)
  std::vector<json::Value> entries; // the well-formed entries
  size_t malformed = 0;             // entries dropped for their shape
  std::string malformedWhy;
};

// A cache file's or a table's text, checked against its format, the kernel and the space.
EntryFile readEntries(const std::string& text, const std::string& origin, bool cache,
                      const std::string& kernel, const std::string& space) {
  EntryFile c;
  c.exists = true;
  const char* format = cache ? kCacheFormat : kTableFormat;
  const int version = cache ? kCacheVersion : kTableVersion;
  json::Value root;
  try {
    root = json::parse(text, origin);
  } catch (const Error& e) {
    c.problem = std::string("not valid JSON (") + e.what() + ")";
    return c;
  }
  const json::Value* f = root.isObject() ? root.find("format") : nullptr;
  if (!f || !f->isString() || f->asString() != format) {
    c.problem = std::string("not a \"") + format + "\" file";
    return c;
  }
  const json::Value* v = root.find("version");
  if (!v || !v->isInt() || v->asInt() != version) {
    c.problem = "of a version this runtime does not read (it reads " + std::to_string(version) +
                ")";
    return c;
  }
  const json::Value* k = root.find("kernel");
  const json::Value* s = root.find("space");
  if (!k || !k->isString() || k->asString() != kernel || !s || !s->isString() ||
      s->asString() != space) {
    c.problem = std::string(cache ? "not the cache" : "not the table") + " of kernel '" + kernel +
                "' in space " + space;
    return c;
  }
  const json::Value* entries = root.find("entries");
  if (!entries || !entries->isArray()) {
    c.problem = "\"entries\" is missing or not an array";
    return c;
  }
  for (const json::Value& e : entries->items()) {
    std::string why;
    if (entryShape(e, cache, &why))
      c.entries.push_back(e);
    else if (c.malformed++ == 0)
      c.malformedWhy = why;
  }
  return c;
}

EntryFile readCache(const std::string& path, const std::string& kernel, const std::string& space) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    return EntryFile();
  std::string text;
  try {
    text = readFile(path, "autotuning cache", kMaxMetadataBytes);
  } catch (const Error& e) {
    EntryFile c;
    c.exists = true;
    c.problem = std::string("unreadable (") + e.what() + ")";
    return c;
  }
  return readEntries(text, path, true, kernel, space);
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
  EntryFile now = readCache(path, kernel, space); // problems were reported when it was read
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

std::string sourceName(const TuningReport& r) {
  switch (r.source) {
  case TuningReport::Source::Benchmark:
    return "by benchmark";
  case TuningReport::Source::DiskCache:
    return "from the disk cache";
  case TuningReport::Source::TuningTable:
    return "from the tuning table (" + r.origin + ")";
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
                  r.chosenConfig + ") " + sourceName(r) + " in " + fmtMs(r.elapsedMs) +
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

// ---- The tuner --------------------------------------------------------------------------

namespace detail {

Tuner::Tuner(std::string kernel, std::string space, std::vector<std::string> key,
             std::vector<Config> configs, std::vector<std::string> saved)
    : kernel_(std::move(kernel)), space_(std::move(space)), key_(std::move(key)),
      configs_(std::move(configs)), saved_(std::move(saved)) {}

void Tuner::setTable(std::string text, std::string origin) {
  std::lock_guard<std::mutex> l(tuneMutex_);
  tableText_ = std::move(text);
  tableOrigin_ = std::move(origin);
  hasTable_ = true;
  tableRead_ = false;
  table_.clear();
}

void Tuner::makeKey(const int64_t* values, TuneKey* key) const {
  key->device = currentModel();
  key->resize(key_.size());
  int64_t* out = key->data();
  for (size_t i = 0; i < key_.size(); ++i)
    out[i] = autotuneBucket(values[i]);
}

TuningReport Tuner::reportFor(const TuneKey& key) const {
  TuningReport rep;
  rep.kernel = kernel_;
  rep.space = space_;
  rep.key = keyString(key);
  rep.device = dev_->name;
  rep.computeCapability = dev_->computeCapability;
  rep.driverVersion = dev_->driverVersion;
  return rep;
}

std::string Tuner::keyString(const TuneKey& key) const {
  std::string s;
  for (size_t i = 0; i < key.size(); ++i)
    s += (i ? ", " : "") + key_[i] + "=" + std::to_string(key.data()[i]);
  return s;
}

size_t Tuner::position(int64_t index) const {
  for (size_t i = 0; i < configs_.size(); ++i)
    if (configs_[i].index == index)
      return i;
  return kUnknown;
}

size_t Tuner::known(const int64_t* keyValues) const {
  TuneKey key;
  makeKey(keyValues, &key);
  std::shared_lock<std::shared_mutex> l(mapMutex_);
  auto it = choices_.find(key);
  return it == choices_.end() ? kUnknown : it->second;
}

int Tuner::currentModel() const {
  if (!driverAvailable())
    return -1;
  try {
    // A context whose device does not answer is asked again next time (nothing is added).
    return contextModels_.get(ensureContext(), [this] {
      DeviceModel m;
      CUdevice dev = currentDevice();
      char buf[256] = {0};
      check(driver().cuDeviceGetName(buf, sizeof buf - 1, dev), "querying the device name",
            kernel_);
      m.name = buf;
      m.computeCapability = deviceComputeCapability();
      m.driverVersion = driverVersion();
      m.known = true;
      std::lock_guard<std::mutex> lock(modelMutex_);
      for (size_t i = 0; i < models_.size(); ++i)
        if (models_[i]->name == m.name && models_[i]->computeCapability == m.computeCapability)
          return static_cast<int>(i);
      models_.push_back(std::make_unique<DeviceModel>(std::move(m)));
      return static_cast<int>(models_.size() - 1);
    });
  } catch (const Error&) {
    return -1;
  }
}

void Tuner::selectDevice(const TuneKey& key) {
  static const DeviceModel unknown;
  std::lock_guard<std::mutex> lock(modelMutex_);
  dev_ = key.device < 0 ? &unknown : models_[static_cast<size_t>(key.device)].get();
}

size_t Tuner::fromCache(const std::string& path, const std::string& key, TuningReport& rep) {
  EntryFile c = readCache(path, kernel_, space_);
  if (!c.problem.empty())
    warnOnce(warned_, "ignoring the autotuning cache " + path + ": " + c.problem);
  else if (c.malformed)
    warnOnce(warned_, "ignoring " + std::to_string(c.malformed) + " malformed entr" +
                          (c.malformed == 1 ? "y" : "ies") + " of the autotuning cache " + path +
                          " (" + c.malformedWhy + ")");
  const json::Value* hit = nullptr;
  for (const json::Value& e : c.entries)
    if (sameKey(e, dev_->name, dev_->computeCapability, dev_->driverVersion, key))
      hit = &e;
  if (!hit)
    return kUnknown;
  int64_t index = hit->find("index")->asInt();
  const std::string& config = hit->find("config")->asString();
  size_t at = position(index);
  if (at == kUnknown) {
    warnOnce(warned_, "ignoring the entry for key [" + key + "] of the autotuning cache " + path +
                          ": it names configuration " + std::to_string(index) + " (" + config +
                          "), which is not loaded");
    return kUnknown;
  }
  if (configs_[at].config != config) {
    warnOnce(warned_, "ignoring the entry for key [" + key + "] of the autotuning cache " + path +
                          ": configuration " + std::to_string(index) + " is \"" + config +
                          "\" there but \"" + configs_[at].config + "\" here");
    return kUnknown;
  }
  rep.source = TuningReport::Source::DiskCache;
  rep.origin = path;
  const json::Value* medians = hit->find("medians_ms");
  for (const Config& k : configs_) {
    TuningTrial tr;
    tr.index = k.index;
    tr.config = k.config;
    if (const json::Value* m = medians ? medians->find(std::to_string(tr.index)) : nullptr) {
      tr.ok = true;
      tr.medianMs = m->asDouble();
    }
    rep.trials.push_back(tr);
  }
  return at;
}

size_t Tuner::fromTable(const std::string& key, TuningReport& rep) {
  if (!hasTable_)
    return kUnknown;
  const std::string& origin = tableOrigin_;
  if (!tableRead_) {
    tableRead_ = true;
    EntryFile t = readEntries(tableText_, origin, false, kernel_, space_);
    tableText_.clear();
    if (!t.problem.empty()) {
      warnOnce(warned_, "ignoring the tuning table " + origin + ": " + t.problem);
      hasTable_ = false;
      return kUnknown;
    }
    if (t.malformed)
      warnOnce(warned_, "ignoring " + std::to_string(t.malformed) + " malformed entr" +
                            (t.malformed == 1 ? "y" : "ies") + " of the tuning table " + origin +
                            " (" + t.malformedWhy + ")");
    for (const json::Value& e : t.entries) {
      TableEntry te;
      te.device = e.find("device")->asString();
      te.key = e.find("key")->asString();
      te.config = e.find("config")->asString();
      te.cc = static_cast<int>(e.find("cc")->asInt());
      te.index = e.find("index")->asInt();
      if (const json::Value* m = e.find("medians_ms"))
        for (const auto& kv : m->members()) {
          char* end = nullptr;
          long i = std::strtol(kv.first.c_str(), &end, 10);
          if (end && *end == 0 && !kv.first.empty())
            te.medians.emplace_back(static_cast<int>(i), kv.second.asDouble());
        }
      table_.push_back(std::move(te));
    }
  }
  // This device's entry for the key, else the first of a device of the same compute
  // capability.
  const TableEntry* hit = nullptr;
  for (const TableEntry& e : table_)
    if (!hit && e.key == key && e.device == dev_->name)
      hit = &e;
  for (const TableEntry& e : table_)
    if (!hit && e.key == key && e.cc == dev_->computeCapability)
      hit = &e;
  if (!hit)
    return kUnknown;
  size_t at = position(hit->index);
  if (at == kUnknown) {
    warnOnce(warned_, "ignoring the entry for key [" + key + "] of the tuning table " + origin +
                          ": it names configuration " + std::to_string(hit->index) + " (" +
                          hit->config + "), which is not loaded");
    return kUnknown;
  }
  if (configs_[at].config != hit->config) {
    warnOnce(warned_, "ignoring the entry for key [" + key + "] of the tuning table " + origin +
                          ": configuration " + std::to_string(hit->index) + " is \"" +
                          hit->config + "\" there but \"" + configs_[at].config + "\" here");
    return kUnknown;
  }
  rep.source = TuningReport::Source::TuningTable;
  rep.origin = origin + (hit->device == dev_->name ? "" : ", an entry for " + hit->device);
  for (const Config& k : configs_) {
    TuningTrial tr;
    tr.index = k.index;
    tr.config = k.config;
    for (const auto& m : hit->medians)
      if (m.first == k.index) {
        tr.ok = true;
        tr.medianMs = m.second;
      }
    rep.trials.push_back(tr);
  }
  return at;
}

size_t Tuner::choose(CUstream stream, const int64_t* keyValues, TuneTarget& target,
                     bool benchmark) {
  TuneKey key;
  makeKey(keyValues, &key);
  {
    std::shared_lock<std::shared_mutex> l(mapMutex_);
    auto it = choices_.find(key);
    if (it != choices_.end())
      return it->second;
  }
  // Not known in memory: one choice at a time; another thread may have made this one while
  // this one waited.
  std::lock_guard<std::mutex> tuneLock(tuneMutex_);
  {
    std::shared_lock<std::shared_mutex> l(mapMutex_);
    auto it = choices_.find(key);
    if (it != choices_.end())
      return it->second;
  }
  const auto t0 = std::chrono::steady_clock::now();
  selectDevice(key);

  TuningReport rep = reportFor(key);
  size_t chosen = kUnknown;
  std::string dir = cacheDir();
  std::string path = dir.empty() ? "" : dir + "/autotune/" + kernel_ + "-" + space_ + ".json";

  if (autotuneOff()) {
    chosen = 0;
    rep.source = TuningReport::Source::Disabled;
  }
  if (chosen == kUnknown && dev_->known && !path.empty())
    chosen = fromCache(path, rep.key, rep);
  if (chosen == kUnknown && dev_->known)
    chosen = fromTable(rep.key, rep);

  if (chosen == kUnknown && !benchmark)
    return 0; // plan(): nothing known and nothing measured; the first configuration

  if (chosen == kUnknown) {
    if (!dev_->known) {
      std::string why;
      driverAvailable(&why);
      throw Error("autotuning", "benchmarking the configurations needs a GPU (" +
                                    (why.empty() ? "no device answered" : why) + ")",
                  kernel_);
    }
    // Nothing launches for these arguments (every grid is empty): nothing to measure.
    bool allEmpty = true;
    for (size_t i = 0; i < configs_.size() && allEmpty; ++i)
      allEmpty = target.launchesNothing(i);
    if (allEmpty) {
      chosen = 0;
      rep.source = TuningReport::Source::EmptyGrid;
    }
  }
  if (chosen == kUnknown)
    chosen = this->benchmark(stream, target, dir, path, rep);

  rep.chosenIndex = configs_[chosen].index;
  rep.chosenConfig = configs_[chosen].config;
  rep.elapsedMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  {
    std::unique_lock<std::shared_mutex> l(mapMutex_);
    choices_.emplace(std::move(key), chosen);
  }
  if (verbose())
    printChoice(rep);
  {
    std::lock_guard<std::mutex> l(reportMutex_);
    reports_.push_back(std::move(rep));
  }
  return chosen;
}

size_t Tuner::benchmark(CUstream stream, TuneTarget& target, const std::string& dir,
                        const std::string& path, TuningReport& rep) {
  rep.source = TuningReport::Source::Benchmark;
  size_t chosen = trials(stream, target, budgetMs(), rep);
  if (!path.empty()) {
    json::Value entry = json::Value::object();
    entry.set("device", dev_->name);
    entry.set("cc", dev_->computeCapability);
    entry.set("driver", dev_->driverVersion);
    entry.set("key", rep.key);
    entry.set("index", configs_[chosen].index);
    entry.set("config", configs_[chosen].config);
    json::Value medians = json::Value::object();
    for (const TuningTrial& tr : rep.trials)
      if (tr.ok)
        medians.set(std::to_string(tr.index), tr.medianMs);
    entry.set("medians_ms", medians);
    writeCache(warned_, dir + "/autotune", path, kernel_, space_, entry);
  }
  return chosen;
}

TuningReport Tuner::measure(CUstream stream, const int64_t* keyValues, TuneTarget& target,
                            double budget) {
  TuneKey key;
  makeKey(keyValues, &key);
  std::lock_guard<std::mutex> tuneLock(tuneMutex_); // no other benchmark disturbs this one
  const auto t0 = std::chrono::steady_clock::now();
  selectDevice(key);
  TuningReport rep = reportFor(key);
  rep.source = TuningReport::Source::Benchmark;
  if (!dev_->known) {
    std::string why;
    driverAvailable(&why);
    throw Error("measuring the configurations", "needs a GPU (" +
                                                    (why.empty() ? "no device answered" : why) +
                                                    ")",
                kernel_);
  }
  size_t chosen = trials(stream, target, budget > 0 ? budget : budgetMs(), rep);
  rep.chosenIndex = configs_[chosen].index;
  rep.chosenConfig = configs_[chosen].config;
  rep.elapsedMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

size_t Tuner::trials(CUstream stream, TuneTarget& target, double budget, TuningReport& rep) {
  const Driver* d = &driver();
  // Save the whole allocation of every pointer the kernel may write.
  struct Saved {
    std::string param;
    CUdeviceptr base = 0;
    size_t size = 0;
    bench::DeviceBuffer copy;
  };
  std::vector<Saved> saved;
  for (size_t p = 0; p < saved_.size(); ++p) {
    const std::string& pname = saved_[p];
    CUdeviceptr addr = target.savedPointer(p);
    if (addr == 0)
      continue;
    Saved s;
    s.param = pname;
    check(d->cuMemGetAddressRange(&s.base, &s.size, addr),
          "autotuning: finding the allocation of argument '" + pname +
              "' to save it before the trials (it must be device memory of this context)",
          kernel_);
    bool dup = false;
    for (const Saved& o : saved)
      dup = dup || o.base == s.base;
    if (dup || s.size == 0)
      continue;
    s.copy = bench::DeviceBuffer(s.size);
    check(d->cuMemcpyDtoDAsync(s.copy.get(), s.base, s.size, stream),
          "autotuning: saving argument '" + pname + "' (" + std::to_string(s.size) + " bytes)",
          kernel_);
    saved.push_back(std::move(s));
  }
  auto restore = [&] {
    for (const Saved& s : saved)
      check(d->cuMemcpyDtoDAsync(s.base, s.copy.get(), s.size, stream),
            "autotuning: restoring argument '" + s.param + "' (" + std::to_string(s.size) +
                " bytes)",
            kernel_);
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
    check(d->cuStreamSynchronize(stream), "autotuning: restoring the arguments", kernel_);
  }};

  bench::Options opts;
  opts.warmupMs = 5;
  opts.budgetMs = budget;
  opts.minReps = 5;
  opts.maxReps = 1000;
  opts.flushL2 = true;
  opts.stream = stream;
  for (size_t i = 0; i < configs_.size(); ++i) {
    TuningTrial tr;
    tr.index = configs_[i].index;
    tr.config = configs_[i].config;
    restore();
    try {
      target.launch(i, stream); // warm-up: loads the module, first-launch costs
      check(d->cuStreamSynchronize(stream), "running the warm-up launch", kernel_);
      bench::Result r = bench::run([&](CUstream s) { target.launch(i, s); }, opts);
      tr.ok = true;
      tr.medianMs = r.median;
      tr.p20Ms = r.p20;
      tr.p80Ms = r.p80;
      tr.reps = r.reps;
    } catch (const Error& e) {
      tr.error = e.what();
      warnOnce(warned_, "autotuning kernel '" + kernel_ + "': skipping configuration " +
                            std::to_string(tr.index) + " (" + tr.config + "): " + e.what());
    }
    rep.trials.push_back(tr);
  }
  guard.done = true;
  guard.fn(); // restore after the last trial (errors propagate)

  size_t chosen = kUnknown;
  for (size_t i = 0; i < rep.trials.size(); ++i)
    if (rep.trials[i].ok &&
        (chosen == kUnknown || rep.trials[i].medianMs < rep.trials[chosen].medianMs))
      chosen = i;
  if (chosen == kUnknown) {
    std::string list;
    for (const TuningTrial& tr : rep.trials)
      list += "\n  [" + std::to_string(tr.index) + "] " + tr.config + ": " + tr.error;
    throw Error("autotuning (key [" + rep.key + "])", "every configuration failed to launch:" + list,
                kernel_);
  }
  return chosen;
}

std::optional<TuningReport> Tuner::lastTuning() const {
  std::lock_guard<std::mutex> l(reportMutex_);
  if (reports_.empty())
    return std::nullopt;
  return reports_.back();
}

std::vector<TuningReport> Tuner::tunings() const {
  std::lock_guard<std::mutex> l(reportMutex_);
  return reports_;
}

} // namespace detail

// ---- tcc::Kernel over a Library's configurations ----------------------------------------

Kernel::Kernel(std::string name, std::vector<Kernel*> configs)
    : name_(std::move(name)), contextOrders_(std::make_unique<ContextOrders>()) {
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
  std::vector<detail::Tuner::Config> cs;
  for (Kernel* k : tuning_->configs)
    cs.push_back({general(*k).autotune->index, general(*k).configString()});
  std::vector<std::string> saved;
  for (size_t p : tuning_->savedParams)
    saved.push_back(metas_.front().params[p].name);
  tuning_->tuner = std::make_unique<detail::Tuner>(name_, info.space, info.key, std::move(cs),
                                                   std::move(saved));
}

void Kernel::setTuningTable(std::string text, std::string origin) {
  if (tuning_)
    tuning_->tuner->setTable(std::move(text), std::move(origin));
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
  return tuning_->tuner->lastTuning();
}

std::vector<TuningReport> Kernel::tunings() const {
  if (!tuning_)
    return {};
  return tuning_->tuner->tunings();
}

// The configurations of a Library's autotuned kernel, launched with one launch's arguments.
class Kernel::Tuning::Target : public detail::TuneTarget {
public:
  Target(const Tuning& t, const Arg* args, size_t count) : t_(t), args_(args), count_(count) {}
  void launch(size_t config, CUstream stream) override {
    t_.configs[config]->launchArgs(stream, args_, count_);
  }
  bool launchesNothing(size_t config) override {
    try {
      return t_.configs[config]->planArgs(args_, count_).empty();
    } catch (const Error&) {
      return false;
    }
  }
  CUdeviceptr savedPointer(size_t i) override {
    return static_cast<CUdeviceptr>(args_[t_.savedParams[i]].asUnsigned());
  }

private:
  const Tuning& t_;
  const Arg* args_;
  size_t count_;
};

TuningReport Kernel::measureArgs(CUstream stream, const Arg* args, size_t count,
                                 double budgetMs) {
  {
    Marshalled m;
    (tuning_ ? *tuning_->configs.front() : *this).marshal(args, count, &m); // the arguments
  }
  if (tuning_) {
    Tuning& t = *tuning_;
    std::vector<int64_t> key(t.info.keyParams.size() + 1);
    t.keyValues(args, key.data());
    Tuning::Target target(t, args, count);
    return t.tuner->measure(stream, key.data(), target, budgetMs);
  }
  // One configuration, nothing known to be written: nothing saved.
  class Plain : public detail::TuneTarget {
  public:
    Plain(Kernel& k, const Arg* args, size_t count) : k_(k), args_(args), count_(count) {}
    void launch(size_t, CUstream stream) override { k_.launchArgs(stream, args_, count_); }
    bool launchesNothing(size_t) override { return false; }
    CUdeviceptr savedPointer(size_t) override { return 0; }

  private:
    Kernel& k_;
    const Arg* args_;
    size_t count_;
  } target(*this, args, count);
  detail::Tuner one(name_, "", {}, {{0, configString()}}, {});
  return one.measure(stream, nullptr, target, budgetMs);
}

size_t Kernel::chooseConfiguration(CUstream stream, const Arg* args, size_t count,
                                   bool benchmark) const {
  Tuning& t = *tuning_;
  if (count != metas_.front().params.size()) {
    Marshalled m;
    t.configs.front()->marshal(args, count, &m); // throws: the argument count
  }
  int64_t keyInline[detail::TuneKey::kInline];
  std::vector<int64_t> keyHeap;
  int64_t* key = keyInline;
  if (t.info.keyParams.size() > detail::TuneKey::kInline) {
    keyHeap.resize(t.info.keyParams.size());
    key = keyHeap.data();
  }
  t.keyValues(args, key);
  size_t at = t.tuner->known(key);
  if (at != detail::Tuner::kUnknown)
    return at;
  {
    Marshalled m;
    t.configs.front()->marshal(args, count, &m); // nothing is measured with wrong arguments
  }
  Tuning::Target target(t, args, count);
  return t.tuner->choose(stream, key, target, benchmark);
}

} // namespace tcc
