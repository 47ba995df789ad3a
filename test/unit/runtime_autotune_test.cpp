// Autotuned kernels on the fake driver (runtime_fake_cuda.cpp; main() is in
// runtime_driver_test.cpp): the choice by benchmark (the fake's event times follow each
// image's FAKE_MS), the memory the kernel writes restored around the trials (FAKE_INC adds 1
// to its output in fake memory), the disk cache written, read back without benchmarking,
// merged and distrusted when corrupt or stale, TCC_AUTOTUNE=off, verbose output, failing
// configurations and concurrent launches. docs/autotuning.md is the contract.
#include "tcc/json.h"
#include "tcc/runtime.h"

#include <gtest/gtest.h>

#include "fake_driver.h"

#include "fake_elf.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

namespace {

using fakedriver::errorOf;
using fakedriver::fake;

namespace fs = std::filesystem;


long launches() { return fake().launchCount(); }


// Sets an environment variable for one scope (unset: nullptr), then puts it back.
class Env {
public:
  Env(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    old_ = old ? old : "";
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~Env() {
    if (had_)
      ::setenv(name_.c_str(), old_.c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }

private:
  std::string name_, old_;
  bool had_ = false;
};

// A cache folder of one test, TCC_CACHE_DIR pointing at it.
class CacheDir {
public:
  CacheDir() {
    char tmpl[] = "/tmp/tcc-autotune-test-XXXXXX";
    path_ = ::mkdtemp(tmpl);
    env_ = std::make_unique<Env>("TCC_CACHE_DIR", path_.c_str());
  }
  ~CacheDir() {
    env_.reset();
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& space = kSpace) const {
    return path_ + "/autotune/inc-" + space + ".json";
  }
  static constexpr const char* kSpace = "0123456789abcdef";

private:
  std::string path_;
  std::unique_ptr<Env> env_;
};

std::string readText(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void writeText(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

// Configuration `index` of kernel `inc(out: *i32, n: i32)` (FAKE_INC: out[0..n) += 1), one
// launch taking `ms` on the fake's clock; `key` as the metadata's autotune.key.
struct Config {
  int index;
  int block;
  int warps;
  double ms;
  bool fail = false;
};

std::string configJson(const Config& c, const std::string& space, const std::string& key) {
  return "{\"format\": \"tcc-kernel\", \"version\": 1, \"name\": \"inc\", \"arch\": \"sm_90\", "
         "\"cubin\": \"inc.c" + std::to_string(c.index) + ".cubin\", \"num_warps\": " +
         std::to_string(c.warps) + ", \"num_stages\": 2, "
         "\"grid\": [\"cdiv(n, BLOCK)\", \"1\", \"1\"], \"params\": ["
         "{\"name\": \"out\", \"type\": \"*i32\"}, {\"name\": \"n\", \"type\": \"i32\"}], "
         "\"constexprs\": {\"BLOCK\": " + std::to_string(c.block) + "}, "
         "\"autotune\": {\"space\": \"" + space + "\", \"index\": " + std::to_string(c.index) +
         ", \"count\": 4, \"key\": " + key + ", \"writes\": [\"out\"], \"restore\": [\"out\"]}}";
}

std::string cubinFor(const Config& c) {
  std::string body = "FAKE_INC FAKE_MS=" + std::to_string(c.ms);
  if (c.fail)
    body += " FAKE_LAUNCH_FAIL";
  return faketest::cudaElf(8, 0x6000004u | (90u << 8), body);
}

// The default space: configuration 2 (BLOCK 1024, 4 warps) is the fastest; index 1 was
// pruned; 3 is the slowest.
std::vector<Config> defaultConfigs() {
  return {{0, 256, 1, 1.0}, {2, 1024, 4, 0.25}, {3, 2048, 8, 2.0}};
}

void addConfigs(tcc::Library& lib, const std::vector<Config>& cs,
                const std::string& space = CacheDir::kSpace, const std::string& key = "[\"n\"]") {
  for (const Config& c : cs)
    lib.add(tcc::parseMetadata(configJson(c, space, key), "inc.c" + std::to_string(c.index) + ".json",
                               ""),
            cubinFor(c), "");
}

// Device memory of the fake, filled with 0, 1, 2, ...
class Buffer {
public:
  explicit Buffer(size_t ints) : n_(ints) {
    tcc::ensureContext();
    EXPECT_EQ(tcc::driver().cuMemAlloc(&p_, ints * 4), tcc::cu::CUDA_SUCCESS);
    std::vector<int32_t> v(ints);
    for (size_t i = 0; i < ints; ++i)
      v[i] = static_cast<int32_t>(i);
    tcc::driver().cuMemcpyHtoD(p_, v.data(), ints * 4);
  }
  ~Buffer() { tcc::driver().cuMemFree(p_); }
  CUdeviceptr get() const { return p_; }
  std::vector<int32_t> read() const {
    std::vector<int32_t> v(n_);
    tcc::driver().cuMemcpyDtoH(v.data(), p_, n_ * 4);
    return v;
  }

private:
  CUdeviceptr p_ = 0;
  size_t n_;
};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
    ++n;
  return n;
}

class Autotune : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    ASSERT_TRUE(tcc::driverAvailable(&why)) << why;
    ASSERT_NE(fake().launchCount, nullptr) << "TCC_LIBCUDA is not the fake driver";
    fake().takeLog();
  }
  Env off_{"TCC_AUTOTUNE", nullptr};
  Env verbose_{"TCC_AUTOTUNE_VERBOSE", nullptr};
  Env budget_{"TCC_AUTOTUNE_BUDGET_MS", nullptr};
};

TEST_F(Autotune, ChoosesTheFastestConfigurationAndRemembersIt) {
  CacheDir cache;
  tcc::Library lib;
  addConfigs(lib, defaultConfigs());
  tcc::Kernel& k = lib.kernel("inc");
  ASSERT_TRUE(k.isTuned());
  Buffer out(1000);
  long before = launches();
  k.launch(nullptr, out.get(), int32_t(1000));
  long tuning = launches() - before;
  EXPECT_GT(tuning, 3 * 10); // warm-up, estimates and repetitions of each configuration
  // The last launch is the real one, with the fastest configuration (4 warps: 128 threads).
  std::string log = fake().takeLog();
  std::string last = log.substr(log.rfind("launch inc"));
  EXPECT_EQ(last.substr(0, last.find('\n')), "launch inc from cubin sm_90 grid 1x1x1 block 128");

  std::optional<tcc::TuningReport> r = k.lastTuning();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->source, tcc::TuningReport::Source::Benchmark);
  EXPECT_EQ(r->kernel, "inc");
  EXPECT_EQ(r->space, CacheDir::kSpace);
  EXPECT_EQ(r->key, "n=1024");
  EXPECT_EQ(r->device, "tcc fake GPU 0");
  EXPECT_EQ(r->computeCapability, 90);
  EXPECT_EQ(r->driverVersion, 13000);
  EXPECT_EQ(r->chosenIndex, 2);
  EXPECT_EQ(r->chosenConfig, "BLOCK=1024, num_warps=4, num_stages=2");
  ASSERT_EQ(r->trials.size(), 3u);
  const double ms[] = {1.0, 0.25, 2.0};
  const int index[] = {0, 2, 3};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r->trials[i].index, index[i]);
    EXPECT_TRUE(r->trials[i].ok);
    EXPECT_NEAR(r->trials[i].medianMs, ms[i], 1e-6);
    EXPECT_NEAR(r->trials[i].p20Ms, ms[i], 1e-6);
    EXPECT_NEAR(r->trials[i].p80Ms, ms[i], 1e-6);
    EXPECT_GE(r->trials[i].reps, 5);
  }
  EXPECT_EQ(r->trials[1].config, "BLOCK=1024, num_warps=4, num_stages=2");

  // Same bucket (1000 and 1024 share one): one launch, no new tuning; the query agrees.
  before = launches();
  k.launch(nullptr, out.get(), int32_t(1024));
  EXPECT_EQ(launches() - before, 1);
  EXPECT_EQ(k.chosen(nullptr, out.get(), int32_t(600)).autotune->index, 2);
  EXPECT_EQ(launches() - before, 1);
  EXPECT_EQ(k.tunings().size(), 1u);
  EXPECT_EQ(k.plan(out.get(), int32_t(1000)).variant->autotune->index, 2);
  // Another bucket is tuned anew.
  k.launch(nullptr, out.get(), int32_t(1025));
  EXPECT_GT(launches() - before, 2);
  EXPECT_EQ(k.tunings().size(), 2u);
  EXPECT_EQ(k.lastTuning()->key, "n=2048");
}

TEST_F(Autotune, ItsChoiceIsOnDiskAndAFreshLibraryDoesNotBenchmark) {
  CacheDir cache;
  Buffer out(256);
  {
    tcc::Library lib;
    addConfigs(lib, defaultConfigs());
    lib.launch("inc", nullptr, out.get(), int32_t(100));
  }
  tcc::json::Value v = tcc::json::parse(readText(cache.file()), cache.file());
  EXPECT_EQ(v.find("format")->asString(), "tcc-autotune-cache");
  EXPECT_EQ(v.find("version")->asInt(), 1);
  EXPECT_EQ(v.find("kernel")->asString(), "inc");
  EXPECT_EQ(v.find("space")->asString(), CacheDir::kSpace);
  ASSERT_EQ(v.find("entries")->items().size(), 1u);
  const tcc::json::Value& e = v.find("entries")->items()[0];
  EXPECT_EQ(e.find("device")->asString(), "tcc fake GPU 0");
  EXPECT_EQ(e.find("cc")->asInt(), 90);
  EXPECT_EQ(e.find("driver")->asInt(), 13000);
  EXPECT_EQ(e.find("key")->asString(), "n=128");
  EXPECT_EQ(e.find("index")->asInt(), 2);
  EXPECT_EQ(e.find("config")->asString(), "BLOCK=1024, num_warps=4, num_stages=2");
  const tcc::json::Value* medians = e.find("medians_ms");
  ASSERT_TRUE(medians && medians->isObject());
  EXPECT_NEAR(medians->find("0")->asDouble(), 1.0, 1e-6);
  EXPECT_NEAR(medians->find("2")->asDouble(), 0.25, 1e-6);
  EXPECT_NEAR(medians->find("3")->asDouble(), 2.0, 1e-6);
  // No temporary file is left behind.
  for (const auto& f : fs::directory_iterator(cache.path() + "/autotune"))
    EXPECT_EQ(f.path().string().find(".tmp."), std::string::npos) << f.path();

  tcc::Library fresh;
  addConfigs(fresh, defaultConfigs());
  tcc::Kernel& k = fresh.kernel("inc");
  long before = launches();
  k.launch(nullptr, out.get(), int32_t(100));
  EXPECT_EQ(launches() - before, 1); // the real launch only
  ASSERT_TRUE(k.lastTuning().has_value());
  EXPECT_EQ(k.lastTuning()->source, tcc::TuningReport::Source::DiskCache);
  EXPECT_EQ(k.lastTuning()->chosenIndex, 2);
  ASSERT_EQ(k.lastTuning()->trials.size(), 3u);
  EXPECT_NEAR(k.lastTuning()->trials[2].medianMs, 2.0, 1e-6);
  // plan() reads the disk cache too, and never benchmarks.
  tcc::Library planned;
  addConfigs(planned, defaultConfigs());
  EXPECT_EQ(planned.kernel("inc").plan(out.get(), int32_t(128)).variant->autotune->index, 2);
  EXPECT_EQ(planned.kernel("inc").plan(out.get(), int32_t(5000)).variant->autotune->index, 0);
  EXPECT_EQ(launches() - before, 1);
}

TEST_F(Autotune, CorruptOrStaleCachesAreIgnoredWithOneWarning) {
  Buffer out(64);
  // Each bad cache, and the part of the warning that says what is wrong with it.
  const std::string entry = "{\"device\": \"tcc fake GPU 0\", \"cc\": 90, \"driver\": 13000, "
                            "\"key\": \"n=64\", \"index\": INDEX, \"config\": \"CONFIG\", "
                            "\"medians_ms\": {}}";
  auto file = [&](const std::string& index, const std::string& config,
                  const std::string& space = CacheDir::kSpace, const std::string& format =
                      "tcc-autotune-cache", int version = 1) {
    std::string e = entry;
    e.replace(e.find("INDEX"), 5, index);
    e.replace(e.find("CONFIG"), 6, config);
    return "{\"format\": \"" + format + "\", \"version\": " + std::to_string(version) +
           ", \"kernel\": \"inc\", \"space\": \"" + space + "\", \"entries\": [" + e + "]}";
  };
  const std::string good = "BLOCK=256, num_warps=1, num_stages=2";
  struct Case {
    std::string text, warning;
  };
  const std::vector<Case> cases = {
      {"{\"format\": \"tcc-autotune-cache\", \"ver", "not valid JSON"},
      {"\x01\x02garbage", "not valid JSON"},
      {file("0", good, CacheDir::kSpace, "other"), "not a \"tcc-autotune-cache\" file"},
      {file("0", good, CacheDir::kSpace, "tcc-autotune-cache", 2),
       "of a version this runtime does not read"},
      {file("0", good, "fedcba9876543210"), "not the cache of kernel 'inc' in space " +
                                                std::string(CacheDir::kSpace)},
      {"{\"format\": \"tcc-autotune-cache\", \"version\": 1, \"kernel\": \"inc\", \"space\": \"" +
           std::string(CacheDir::kSpace) + "\", \"entries\": {}}",
       "\"entries\" is missing or not an array"},
      {file("1", "BLOCK=512, num_warps=2"), "it names configuration 1 (BLOCK=512, num_warps=2), "
                                            "which is not loaded"},
      {file("0", "BLOCK=4096, num_warps=1, num_stages=2"),
       "configuration 0 is \"BLOCK=4096, num_warps=1, num_stages=2\" there but \"" + good +
           "\" here"},
      {file("\"0\"", good), "1 malformed entry"},
  };
  for (const Case& c : cases) {
    CacheDir cache;
    writeText(cache.file(), c.text);
    tcc::Library lib;
    addConfigs(lib, defaultConfigs());
    tcc::Kernel& k = lib.kernel("inc");
    long before = launches();
    ::testing::internal::CaptureStderr();
    k.launch(nullptr, out.get(), int32_t(64));
    k.launch(nullptr, out.get(), int32_t(64));
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_GT(launches() - before, 10) << c.warning; // benchmarked: the cache was not trusted
    EXPECT_EQ(count(err, "tcc: warning: "), 1u) << err;
    EXPECT_NE(err.find(c.warning), std::string::npos) << err;
    EXPECT_NE(err.find(cache.file()), std::string::npos) << err;
    EXPECT_EQ(k.lastTuning()->source, tcc::TuningReport::Source::Benchmark);
    EXPECT_EQ(k.lastTuning()->chosenIndex, 2);
    // ... and replaced by a valid one holding the new choice.
    tcc::json::Value v = tcc::json::parse(readText(cache.file()), cache.file());
    bool found = false;
    for (const tcc::json::Value& e : v.find("entries")->items())
      found = found || (e.find("key")->asString() == "n=64" && e.find("index")->asInt() == 2);
    EXPECT_TRUE(found) << readText(cache.file());
  }
}

TEST_F(Autotune, TwoWritersMergeTheirEntries) {
  CacheDir cache;
  Buffer out(4096);
  // An entry of another device, already there.
  writeText(cache.file(),
            "{\"format\": \"tcc-autotune-cache\", \"version\": 1, \"kernel\": \"inc\", "
            "\"space\": \"" + std::string(CacheDir::kSpace) + "\", \"entries\": [{\"device\": "
            "\"NVIDIA H200\", \"cc\": 90, \"driver\": 12080, \"key\": \"n=128\", \"index\": 3, "
            "\"config\": \"BLOCK=2048, num_warps=8, num_stages=2\", \"medians_ms\": {\"3\": 0.1}}]}");
  tcc::Library a, b;
  addConfigs(a, defaultConfigs());
  addConfigs(b, defaultConfigs());
  // a reads the cache first (for n=128: not this device's), then b writes meanwhile.
  a.launch("inc", nullptr, out.get(), int32_t(128));
  b.launch("inc", nullptr, out.get(), int32_t(4096));
  a.launch("inc", nullptr, out.get(), int32_t(2000));
  tcc::json::Value v = tcc::json::parse(readText(cache.file()), cache.file());
  std::vector<std::string> keys;
  for (const tcc::json::Value& e : v.find("entries")->items())
    keys.push_back(e.find("device")->asString() + " " + e.find("key")->asString());
  EXPECT_EQ(keys, (std::vector<std::string>{"NVIDIA H200 n=128", "tcc fake GPU 0 n=128",
                                            "tcc fake GPU 0 n=4096", "tcc fake GPU 0 n=2048"}));
  // A third library finds all three of this device's choices without benchmarking.
  tcc::Library c;
  addConfigs(c, defaultConfigs());
  long before = launches();
  for (int32_t n : {100, 3000, 1500})
    c.launch("inc", nullptr, out.get(), n);
  EXPECT_EQ(launches() - before, 3);
}

TEST_F(Autotune, CacheLocationFollowsTheEnvironment) {
  Buffer out(16);
  char tmpl[] = "/tmp/tcc-autotune-xdg-XXXXXX";
  std::string xdg = ::mkdtemp(tmpl);
  {
    Env noDir("TCC_CACHE_DIR", nullptr);
    Env home("XDG_CACHE_HOME", xdg.c_str());
    tcc::Library lib;
    addConfigs(lib, defaultConfigs());
    lib.launch("inc", nullptr, out.get(), int32_t(16));
  }
  EXPECT_TRUE(fs::exists(xdg + "/tcc/autotune/inc-" + std::string(CacheDir::kSpace) + ".json"));
  {
    // An empty TCC_CACHE_DIR: no disk cache at all (nothing written, every Library tunes).
    Env noCache("TCC_CACHE_DIR", "");
    Env home("XDG_CACHE_HOME", (xdg + "/other").c_str());
    Env h("HOME", (xdg + "/home").c_str());
    for (int i = 0; i < 2; ++i) {
      tcc::Library lib;
      addConfigs(lib, defaultConfigs());
      long before = launches();
      lib.launch("inc", nullptr, out.get(), int32_t(16));
      EXPECT_GT(launches() - before, 10);
    }
    EXPECT_FALSE(fs::exists(xdg + "/other"));
    EXPECT_FALSE(fs::exists(xdg + "/home"));
  }
  {
    // Neither: ~/.cache/tcc.
    Env noDir("TCC_CACHE_DIR", nullptr);
    Env noXdg("XDG_CACHE_HOME", nullptr);
    Env h("HOME", (xdg + "/home").c_str());
    tcc::Library lib;
    addConfigs(lib, defaultConfigs());
    lib.launch("inc", nullptr, out.get(), int32_t(16));
    EXPECT_TRUE(fs::exists(xdg + "/home/.cache/tcc/autotune/inc-" + std::string(CacheDir::kSpace) +
                           ".json"));
  }
  std::error_code ec;
  fs::remove_all(xdg, ec);
}

TEST_F(Autotune, OffTakesTheFirstConfigurationWithoutMeasuring) {
  CacheDir cache;
  Env off("TCC_AUTOTUNE", "off");
  tcc::Library lib;
  std::vector<Config> cs = defaultConfigs();
  std::reverse(cs.begin(), cs.end());
  addConfigs(lib, cs);
  tcc::Kernel& k = lib.kernel("inc");
  Buffer out(1000);
  long before = launches();
  k.launch(nullptr, out.get(), int32_t(1000));
  EXPECT_EQ(launches() - before, 1);
  EXPECT_EQ(k.lastTuning()->source, tcc::TuningReport::Source::Disabled);
  EXPECT_EQ(k.lastTuning()->chosenIndex, 0);
  EXPECT_TRUE(k.lastTuning()->trials.empty());
  EXPECT_FALSE(fs::exists(cache.file()));
  // The output saw exactly one launch.
  std::vector<int32_t> v = out.read();
  EXPECT_EQ(v[0], 1);
  EXPECT_EQ(v[999], 1000);
}

TEST_F(Autotune, WrittenMemoryIsRestoredAroundTheTrials) {
  CacheDir cache;
  tcc::Library lib;
  addConfigs(lib, defaultConfigs());
  tcc::Kernel& k = lib.kernel("inc");
  Buffer out(1000);
  // An interior pointer: the whole allocation is saved and restored.
  CUdeviceptr mid = out.get() + 400; // element 100
  fake().takeLog();
  k.launch(nullptr, mid, int32_t(500));
  std::string log = fake().takeLog();
  EXPECT_GT(k.lastTuning()->trials[0].reps, 0);
  // After tuning and the real launch: exactly the real launch's effect.
  std::vector<int32_t> v = out.read();
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(v[i], i + (i >= 100 && i < 600 ? 1 : 0)) << "element " << i;
  // The copies: one save of the whole allocation, a restore before each of the three trials
  // and one after the last, all of 4000 bytes from or to its base.
  std::string base = [&] {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(out.get()));
    return std::string(b);
  }();
  std::vector<std::string> copies;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("copy ", 0) == 0)
      copies.push_back(line);
  ASSERT_EQ(copies.size(), 5u) << log.substr(0, 2000);
  std::string scratch = copies[0].substr(5, copies[0].find(' ', 5) - 5);
  EXPECT_EQ(copies[0], "copy " + scratch + " <- " + base + " 4000");
  for (size_t i = 1; i < 5; ++i)
    EXPECT_EQ(copies[i], "copy " + base + " <- " + scratch + " 4000");
  // The save comes before any launch, the last restore after every trial's launch and before
  // the real launch.
  EXPECT_LT(log.find("copy "), log.find("launch inc"));
  size_t lastCopy = log.rfind("copy ");
  size_t lastLaunch = log.rfind("launch inc");
  EXPECT_LT(lastCopy, lastLaunch);
  EXPECT_EQ(log.find("launch inc", log.find('\n', lastCopy)), lastLaunch);
}

TEST_F(Autotune, AFailingConfigurationIsSkippedWithAWarning) {
  CacheDir cache;
  std::vector<Config> cs = defaultConfigs();
  cs[1].fail = true; // the fastest cannot launch
  tcc::Library lib;
  addConfigs(lib, cs);
  tcc::Kernel& k = lib.kernel("inc");
  Buffer out(64);
  ::testing::internal::CaptureStderr();
  k.launch(nullptr, out.get(), int32_t(64));
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("tcc: warning: autotuning kernel 'inc': skipping configuration 2 "
                     "(BLOCK=1024, num_warps=4, num_stages=2): "),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("CUDA_ERROR"), std::string::npos) << err;
  EXPECT_EQ(k.lastTuning()->chosenIndex, 0);
  EXPECT_FALSE(k.lastTuning()->trials[1].ok);
  EXPECT_NE(k.lastTuning()->trials[1].error.find("launching"), std::string::npos);
  EXPECT_EQ(out.read()[63], 64);

  // All failing: an error listing each, and the memory as it was (in another cache folder:
  // this one holds the choice just made).
  CacheDir otherCache;
  for (Config& c : cs)
    c.fail = true;
  tcc::Library bad;
  addConfigs(bad, cs);
  Buffer out2(64);
  ::testing::internal::CaptureStderr();
  std::string e = errorOf([&] { bad.launch("inc", nullptr, out2.get(), int32_t(64)); });
  ::testing::internal::GetCapturedStderr();
  EXPECT_NE(e.find("kernel 'inc': autotuning (key [n=64]): every configuration failed to launch:"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("[3] BLOCK=2048, num_warps=8, num_stages=2: "), std::string::npos) << e;
  EXPECT_EQ(out2.read()[63], 63);
}

TEST_F(Autotune, VerboseReportsEachChoiceWithEveryMedian) {
  CacheDir cache;
  Env verbose("TCC_AUTOTUNE_VERBOSE", "1");
  tcc::Library lib;
  addConfigs(lib, defaultConfigs());
  Buffer out(64);
  ::testing::internal::CaptureStderr();
  lib.launch("inc", nullptr, out.get(), int32_t(64));
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("tcc: autotune: kernel 'inc' key [n=64] on tcc fake GPU 0 (sm_90, driver "
                     "13000): chose configuration 2 (BLOCK=1024, num_warps=4, num_stages=2) by "
                     "benchmark"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("  [0] BLOCK=256, num_warps=1, num_stages=2: median 1.0000 ms"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("  [2] BLOCK=1024, num_warps=4, num_stages=2: median 0.2500 ms"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("<- chosen"), std::string::npos) << err;
  // A choice from the disk cache is reported too.
  tcc::Library again;
  addConfigs(again, defaultConfigs());
  ::testing::internal::CaptureStderr();
  again.launch("inc", nullptr, out.get(), int32_t(64));
  err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("chose configuration 2 (BLOCK=1024, num_warps=4, num_stages=2) from the "
                     "disk cache"),
            std::string::npos)
      << err;
}

TEST_F(Autotune, ConcurrentLaunchesWithOneKeyWaitForOneTuning) {
  CacheDir cache;
  tcc::Library lib;
  addConfigs(lib, defaultConfigs());
  tcc::Kernel& k = lib.kernel("inc");
  std::vector<std::unique_ptr<Buffer>> outs;
  for (int i = 0; i < 4; ++i)
    outs.push_back(std::make_unique<Buffer>(512));
  std::vector<std::thread> threads;
  std::vector<std::string> errors(8);
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      // Each thread uses the primary context, as a real program would.
      errors[i] = errorOf([&] {
        tcc::ensureContext();
        k.launch(nullptr, outs[i % 4]->get(), int32_t(500 + i));
      });
    });
  for (auto& t : threads)
    t.join();
  for (const std::string& e : errors)
    EXPECT_EQ(e, "(no error)");
  EXPECT_EQ(k.tunings().size(), 1u);
  EXPECT_EQ(k.lastTuning()->key, "n=512");
  // Every buffer saw exactly its threads' real launches (two each), nothing of the trials.
  for (int b = 0; b < 4; ++b) {
    std::vector<int32_t> v = outs[b]->read();
    EXPECT_EQ(v[0], 2) << b;
    EXPECT_EQ(v[499], 499 + 2) << b;
  }
}

TEST_F(Autotune, AnEmptyKeyIsOneChoicePerDeviceAndAnEmptyGridMeasuresNothing) {
  CacheDir cache;
  tcc::Library lib;
  addConfigs(lib, defaultConfigs(), CacheDir::kSpace, "[]");
  tcc::Kernel& k = lib.kernel("inc");
  Buffer out(64);
  k.launch(nullptr, out.get(), int32_t(64));
  EXPECT_EQ(k.lastTuning()->key, "");
  long before = launches();
  k.launch(nullptr, out.get(), int32_t(7));
  EXPECT_EQ(launches() - before, 1);
  EXPECT_EQ(k.tunings().size(), 1u);

  // n = 0: no configuration launches anything, so nothing is measured or written.
  CacheDir other;
  tcc::Library lib2;
  addConfigs(lib2, defaultConfigs());
  tcc::Kernel& k2 = lib2.kernel("inc");
  before = launches();
  fake().takeLog();
  k2.launch(nullptr, out.get(), int32_t(0));
  EXPECT_EQ(launches() - before, 0);
  EXPECT_EQ(fake().takeLog(), std::string());
  EXPECT_EQ(k2.lastTuning()->source, tcc::TuningReport::Source::EmptyGrid);
  EXPECT_FALSE(fs::exists(other.file()));
}

// Issue 17: GPUs of two models in one process are tuned separately (the fake's devices
// have different names), each thread's launches use its own device's choice, and a device
// met again is not tuned again.
TEST_F(Autotune, EachDeviceModelIsTunedOnItsOwn) {
  ASSERT_TRUE(fake().setCc(1, 90)); // device 1 runs the sm_90 cubins, under another name
  CacheDir cache;
  tcc::Library lib;
  addConfigs(lib, defaultConfigs());
  tcc::Kernel& k = lib.kernel("inc");
  auto onDevice = [&](int dev, int32_t n) {
    std::string error;
    std::thread t([&] {
      error = errorOf([&] {
        tcc::useDevice(dev);
        Buffer out(2048);
        k.launch(nullptr, out.get(), n);
      });
    });
    t.join();
    return error;
  };
  EXPECT_EQ(onDevice(0, 1000), "(no error)");
  ASSERT_EQ(k.tunings().size(), 1u);
  EXPECT_EQ(k.tunings()[0].device, "tcc fake GPU 0");
  EXPECT_EQ(onDevice(1, 1000), "(no error)"); // same key, another model: tuned there
  ASSERT_EQ(k.tunings().size(), 2u);
  EXPECT_EQ(k.tunings()[1].device, "tcc fake GPU 1");
  EXPECT_EQ(k.tunings()[1].key, "n=1024");
  long before = launches();
  EXPECT_EQ(onDevice(0, 1000), "(no error)"); // known on device 0: one launch
  EXPECT_EQ(onDevice(1, 1000), "(no error)");
  EXPECT_EQ(launches() - before, 2);
  EXPECT_EQ(k.tunings().size(), 2u);
  // The disk cache holds one entry per device.
  std::string text = readText(cache.file());
  EXPECT_NE(text.find("tcc fake GPU 0"), std::string::npos) << text;
  EXPECT_NE(text.find("tcc fake GPU 1"), std::string::npos) << text;
  EXPECT_TRUE(fake().setCc(1, 80));
}

TEST_F(Autotune, RestoreNeedsDeviceMemory) {
  CacheDir cache;
  tcc::Library lib;
  addConfigs(lib, defaultConfigs());
  long before = launches();
  std::string e = errorOf([&] {
    lib.launch("inc", nullptr, CUdeviceptr(0x1000), int32_t(64)); // no allocation holds it
  });
  EXPECT_NE(e.find("finding the allocation of argument 'out' to save it before the trials"),
            std::string::npos)
      << e;
  EXPECT_EQ(launches() - before, 0);
  // Wrong arguments are reported as for any kernel, before anything is measured.
  e = errorOf([&] { lib.launch("inc", nullptr, 1.5f, int32_t(64)); });
  EXPECT_NE(e.find("argument 0 ('out', *i32) must be a device pointer"), std::string::npos) << e;
  e = errorOf([&] { lib.launch("inc", nullptr, CUdeviceptr(0x1000)); });
  EXPECT_NE(e.find("expects 2 arguments"), std::string::npos) << e;
}

// ---- Tuning tables beside a Library's cubins (<kernel>.tuning.json) ---------------------

// A folder holding the default space's metadata and cubins, and `table` as inc.tuning.json
// (none if empty).
class SpaceFolder {
public:
  explicit SpaceFolder(const std::string& table) {
    char tmpl[] = "/tmp/tcc-autotune-folder-XXXXXX";
    path_ = ::mkdtemp(tmpl);
    for (const Config& c : defaultConfigs()) {
      std::string stem = path_ + "/inc.c" + std::to_string(c.index);
      writeText(stem + ".json", configJson(c, CacheDir::kSpace, "[\"n\"]"));
      writeText(stem + ".cubin", cubinFor(c));
    }
    if (!table.empty())
      writeText(path_ + "/inc.tuning.json", table);
  }
  ~SpaceFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string table() const { return path_ + "/inc.tuning.json"; }

private:
  std::string path_;
};

std::string tableText(const std::string& entries, const std::string& kernel = "inc") {
  return "{\"format\": \"tcc-tuning-table\", \"version\": 1, \"kernel\": \"" + kernel +
         "\", \"space\": \"" + std::string(CacheDir::kSpace) + "\", \"entries\": [" + entries +
         "]}";
}

const char* const kSlowestEntry =
    "{\"device\": \"tcc fake GPU 0\", \"cc\": 90, \"key\": \"n=1024\", \"index\": 3, "
    "\"config\": \"BLOCK=2048, num_warps=8, num_stages=2\", \"medians_ms\": {\"3\": 0.5}}";

TEST_F(Autotune, ATuningTableBesideTheCubinsWinsOverTuning) {
  CacheDir cache;
  SpaceFolder folder(tableText(kSlowestEntry));
  tcc::Library lib(folder.path());
  tcc::Kernel& k = lib.kernel("inc");
  ASSERT_TRUE(k.isTuned());
  Buffer out(1000);
  long before = launches();
  fake().takeLog();
  k.launch(nullptr, out.get(), int32_t(1000));
  EXPECT_EQ(launches() - before, 1); // the real launch only: nothing benchmarked
  std::string log = fake().takeLog();
  EXPECT_NE(log.find("launch inc from cubin sm_90 grid 1x1x1 block 256"), std::string::npos) << log;
  ASSERT_TRUE(k.lastTuning().has_value());
  EXPECT_EQ(k.lastTuning()->source, tcc::TuningReport::Source::TuningTable);
  EXPECT_EQ(k.lastTuning()->origin, folder.table());
  EXPECT_EQ(k.lastTuning()->chosenIndex, 3);
  ASSERT_EQ(k.lastTuning()->trials.size(), 3u);
  EXPECT_TRUE(k.lastTuning()->trials[2].ok);
  EXPECT_NEAR(k.lastTuning()->trials[2].medianMs, 0.5, 1e-9);
  EXPECT_FALSE(k.lastTuning()->trials[0].ok);
  // A table's choice is not written to the disk cache; plan() sees it too.
  EXPECT_FALSE(fs::exists(cache.file()));
  EXPECT_EQ(k.plan(out.get(), int32_t(600)).variant->autotune->index, 3);
  EXPECT_EQ(out.read()[999], 1000);
  // A key the table lacks is tuned.
  before = launches();
  k.launch(nullptr, out.get(), int32_t(64));
  EXPECT_GT(launches() - before, 10);
  EXPECT_EQ(k.lastTuning()->source, tcc::TuningReport::Source::Benchmark);
  // The disk cache comes first: a choice measured on this machine is kept.
  writeText(cache.file(),
            "{\"format\": \"tcc-autotune-cache\", \"version\": 1, \"kernel\": \"inc\", \"space\": "
            "\"" + std::string(CacheDir::kSpace) + "\", \"entries\": [{\"device\": \"tcc fake GPU "
            "0\", \"cc\": 90, \"driver\": 13000, \"key\": \"n=1024\", \"index\": 0, \"config\": "
            "\"BLOCK=256, num_warps=1, num_stages=2\"}]}");
  tcc::Library again(folder.path());
  before = launches();
  again.launch("inc", nullptr, out.get(), int32_t(1000));
  EXPECT_EQ(launches() - before, 1);
  EXPECT_EQ(again.kernel("inc").lastTuning()->source, tcc::TuningReport::Source::DiskCache);
  EXPECT_EQ(again.kernel("inc").lastTuning()->chosenIndex, 0);
  // A single metadata file finds the table beside it too.
  CacheDir other;
  tcc::Library one(folder.path() + "/inc.c2.json");
  one.add(folder.path() + "/inc.c3.json");
  before = launches();
  one.launch("inc", nullptr, out.get(), int32_t(1000));
  EXPECT_EQ(launches() - before, 1);
  EXPECT_EQ(one.kernel("inc").lastTuning()->source, tcc::TuningReport::Source::TuningTable);
}

TEST_F(Autotune, ATuningTableOfAnotherDeviceIsNotUsed) {
  CacheDir cache;
  // Another GPU of another compute capability, and this GPU for another key.
  SpaceFolder folder(tableText(
      "{\"device\": \"NVIDIA A100-SXM4-80GB\", \"cc\": 80, \"key\": \"n=1024\", \"index\": 3, "
      "\"config\": \"BLOCK=2048, num_warps=8, num_stages=2\"}, "
      "{\"device\": \"tcc fake GPU 0\", \"cc\": 90, \"key\": \"n=2048\", \"index\": 3, "
      "\"config\": \"BLOCK=2048, num_warps=8, num_stages=2\"}"));
  tcc::Library lib(folder.path());
  Buffer out(1000);
  ::testing::internal::CaptureStderr();
  long before = launches();
  lib.launch("inc", nullptr, out.get(), int32_t(1000));
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_GT(launches() - before, 10);
  EXPECT_EQ(lib.kernel("inc").lastTuning()->source, tcc::TuningReport::Source::Benchmark);
  EXPECT_EQ(lib.kernel("inc").lastTuning()->chosenIndex, 2);
  EXPECT_EQ(err, "");
  // Another GPU of the same compute capability: its entry is taken.
  CacheDir other;
  SpaceFolder sameCc(tableText(
      "{\"device\": \"NVIDIA H100 80GB HBM3\", \"cc\": 90, \"key\": \"n=1024\", \"index\": 0, "
      "\"config\": \"BLOCK=256, num_warps=1, num_stages=2\"}"));
  tcc::Library lib2(sameCc.path());
  before = launches();
  lib2.launch("inc", nullptr, out.get(), int32_t(1000));
  EXPECT_EQ(launches() - before, 1);
  EXPECT_EQ(lib2.kernel("inc").lastTuning()->source, tcc::TuningReport::Source::TuningTable);
  EXPECT_EQ(lib2.kernel("inc").lastTuning()->chosenIndex, 0);
  EXPECT_EQ(lib2.kernel("inc").lastTuning()->origin,
            sameCc.table() + ", an entry for NVIDIA H100 80GB HBM3");
}

TEST_F(Autotune, ACorruptTuningTableIsIgnoredWithOneWarning) {
  struct Case {
    std::string text, warning;
  };
  const std::vector<Case> cases = {
      {"{\"format\": \"tcc-tuning-table\", \"ver", "not valid JSON"},
      {"\x01garbage", "not valid JSON"},
      {"[]", "not a \"tcc-tuning-table\" file"},
      {tableText(kSlowestEntry, "other"), "not the table of kernel 'inc' in space"},
      {"{\"format\": \"tcc-tuning-table\", \"version\": 2, \"kernel\": \"inc\"}",
       "of a version this runtime does not read (it reads 1)"},
      {tableText("{\"device\": \"tcc fake GPU 0\", \"cc\": 90, \"key\": \"n=1024\", \"index\": 3, "
                 "\"config\": \"BLOCK=4096, num_warps=8, num_stages=2\"}"),
       "configuration 3 is \"BLOCK=4096, num_warps=8, num_stages=2\" there but \"BLOCK=2048, "
       "num_warps=8, num_stages=2\" here"},
      {tableText("{\"device\": \"tcc fake GPU 0\", \"cc\": 90, \"key\": \"n=1024\", \"index\": 7, "
                 "\"config\": \"BLOCK=4096, num_warps=8, num_stages=2\"}"),
       "it names configuration 7 (BLOCK=4096, num_warps=8, num_stages=2), which is not loaded"},
      {tableText("{\"device\": \"tcc fake GPU 0\", \"cc\": \"90\", \"key\": \"n=1024\", "
                 "\"index\": 3, \"config\": \"BLOCK=2048, num_warps=8, num_stages=2\"}"),
       "1 malformed entry of the tuning table"},
  };
  Buffer out(1000);
  for (const Case& c : cases) {
    CacheDir cache;
    SpaceFolder folder(c.text);
    tcc::Library lib(folder.path());
    tcc::Kernel& k = lib.kernel("inc");
    ::testing::internal::CaptureStderr();
    long before = launches();
    k.launch(nullptr, out.get(), int32_t(1000));
    k.launch(nullptr, out.get(), int32_t(1000));
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_GT(launches() - before, 10) << c.warning; // benchmarked: the table was not trusted
    EXPECT_EQ(count(err, "tcc: warning: "), 1u) << err;
    EXPECT_NE(err.find(c.warning), std::string::npos) << err;
    EXPECT_NE(err.find(folder.table()), std::string::npos) << err;
    EXPECT_EQ(k.lastTuning()->source, tcc::TuningReport::Source::Benchmark);
    EXPECT_EQ(k.lastTuning()->chosenIndex, 2);
  }
}

} // namespace
