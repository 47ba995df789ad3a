// Offline tuning on the GPU (docs/autotuning.md, "Offline tuning" and "The report"):
// `tcc-tune` on the course's vector add as a new user builds it (`tcc vector_add.tile
// --emit=cubin`: the whole space in one folder, DIR/kinds/default/vector_add) with the
// tensor-core ceiling's kernel (runtime/tools/tensor_peak.tile, DIR/tcc/tensor_peak): the
// table chooses a configuration per key that the runtime then launches without
// benchmarking; the report's files exist and parse, and its rates are plausible against the
// ceilings measured in the same run.
#include "gpu_util.h"

#include "tcc/bench.h"
#include "tcc/json.h"
#include "tcc/runtime.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::string readText(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(OfflineTune, VectorAddTableAndReport) {
  TCC_REQUIRE_GPU();
  const std::string space = gputest::artifactsDir() + "/kinds/default/vector_add";
  const std::string peak = gputest::artifactsDir() + "/tcc/tensor_peak";
  if (!gputest::exists(space) || !gputest::exists(peak))
    GTEST_FAIL() << "no artifact at " << space << " or " << peak << " (scripts/build-artifacts.sh)";
  char pattern[] = "/tmp/tcc-offline-tune.XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string out = pattern;
  std::string cmd = "TCC_CACHE_DIR= '" TCC_TUNE_TOOL "' '" + space +
                    "' --shape n=1048576,67108864 x=rand:n y=randn:n out=empty:n -o '" + out +
                    "/table.json' --report '" + out + "/report' --peak '" + peak +
                    "' --budget-ms 10 --json > '" + out + "/stdout.json' 2> '" + out + "/stderr'";
  int code = std::system(cmd.c_str());
  std::string err = readText(out + "/stderr");
  ASSERT_EQ(code, 0) << err;

  // The table: one entry per key, each naming a configuration of the space.
  tcc::Library lib(space);
  tcc::Kernel& k = lib.kernel("vector_add");
  ASSERT_TRUE(k.isTuned());
  tcc::json::Value table = tcc::json::parse(readText(out + "/table.json"));
  EXPECT_EQ(table.find("format")->asString(), "tcc-tuning-table");
  EXPECT_EQ(table.find("space")->asString(), k.variants().back().autotune->space);
  ASSERT_EQ(table.find("entries")->items().size(), 2u) << readText(out + "/table.json");
  EXPECT_EQ(table.find("entries")->items()[0].find("key")->asString(), "n=1048576");
  EXPECT_EQ(table.find("entries")->items()[1].find("key")->asString(), "n=67108864");
  for (const tcc::json::Value& e : table.find("entries")->items()) {
    bool found = false;
    for (size_t i = 0; i < k.numConfigurations(); ++i) {
      const tcc::KernelMetadata& m = k.configuration(i).variants().back();
      found = found || (m.autotune->index == e.find("index")->asInt() &&
                        m.configString() == e.find("config")->asString());
    }
    EXPECT_TRUE(found) << e.find("config")->asString();
    EXPECT_EQ(e.find("medians_ms")->members().size(), k.numConfigurations());
  }

  // The report: on standard output (--json) and in the folder.
  for (const char* f : {"report.txt", "report.csv", "report.json", "sweep.svg", "roofline.svg"})
    EXPECT_TRUE(fs::exists(out + "/report/" + f)) << f;
  EXPECT_EQ(readText(out + "/report/sweep.svg").rfind("<svg", 0), 0u);
  EXPECT_EQ(readText(out + "/report/roofline.svg").rfind("<svg", 0), 0u);
  tcc::json::Value rep = tcc::json::parse(readText(out + "/stdout.json"));
  EXPECT_EQ(tcc::json::write(rep), tcc::json::write(tcc::json::parse(readText(out + "/report/report.json"))));
  const tcc::json::Value* ceil = rep.find("ceilings");
  ASSERT_TRUE(ceil->find("copy_gbps")->isNumber()) << ceil->find("copy_note")->asString();
  ASSERT_TRUE(ceil->find("tensor_tflops")->isNumber()) << ceil->find("tensor_note")->asString();
  double copy = ceil->find("copy_gbps")->asDouble(), tensor = ceil->find("tensor_tflops")->asDouble();
  std::printf("tcc-gpu: offline tune: copy %.0f GB/s, tensor cores %.0f TFLOP/s (%s)\n", copy,
              tensor, ceil->find("tensor_note")->asString().c_str());
  EXPECT_GT(copy, 500);
  EXPECT_GT(tensor, 50);
  const tcc::json::Value& big = rep.find("shapes")->items()[1];
  ASSERT_TRUE(big.find("best")->isInt());
  for (const tcc::json::Value& c : big.find("configs")->items()) {
    ASSERT_TRUE(c.find("ok")->asBool()) << tcc::json::write(c);
    // 2^26 floats: 12 x 2^26 bytes moved; a memory-bound kernel at 30..130 % of the copy
    // (a kernel may stream a little faster than the driver's copy).
    EXPECT_EQ(c.find("bytes")->asDouble(), 12.0 * 67108864);
    double f = c.find("fraction_of_copy")->asDouble();
    EXPECT_GT(f, 0.3) << c.find("config")->asString();
    EXPECT_LT(f, 1.3) << c.find("config")->asString();
    EXPECT_LE(c.find("p20_ms")->asDouble(), c.find("median_ms")->asDouble());
    EXPECT_LE(c.find("median_ms")->asDouble(), c.find("p80_ms")->asDouble());
  }
  std::printf("tcc-gpu: offline tune: %s\n", readText(out + "/report/report.txt").c_str());

  // The runtime takes the table beside the cubins and launches without benchmarking.
  const std::string copyDir = out + "/space";
  fs::copy(space, copyDir);
  fs::copy_file(out + "/table.json", copyDir + "/vector_add.tuning.json");
  setenv("TCC_CACHE_DIR", "", 1);
  tcc::Library tuned(copyDir);
  tcc::Kernel& t = tuned.kernel("vector_add");
  const int64_t n = 1 << 20;
  tcc::bench::DeviceBuffer x(n * 4), y(n * 4), o(n * 4);
  EXPECT_EQ(t.chosen(nullptr, x.get(), y.get(), o.get(), int32_t(n)).autotune->index,
            table.find("entries")->items()[0].find("index")->asInt());
  ASSERT_TRUE(t.lastTuning());
  EXPECT_EQ(t.lastTuning()->source, tcc::TuningReport::Source::TuningTable);
  unsetenv("TCC_CACHE_DIR");
  fs::remove_all(out);
}

} // namespace
