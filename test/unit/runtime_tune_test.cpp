// The offline tuner (runtime/tools/tune.h) on the fake driver (runtime_fake_cuda.cpp; main()
// is in runtime_driver_test.cpp): its command line, argument sets and shape expressions,
// cost counts, the report's numbers (CSV, JSON, the noise warning, the charts), the tuning
// table, and a whole run whose table the runtime then uses without benchmarking.
// docs/autotuning.md ("Offline tuning", "The report") is the contract.
#include "tune.h"

#include "tcc/bench.h"
#include "tcc/json.h"
#include "tcc/runtime.h"

#include <gtest/gtest.h>

#include "temp_dir.h"

#include "fake_elf.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace tcc::tune;

std::vector<tcc::ParamInfo> params(const std::vector<std::pair<std::string, std::string>>& ps) {
  std::vector<tcc::ParamInfo> r;
  for (const auto& p : ps) {
    tcc::ParamInfo i;
    i.name = p.first;
    i.type = p.second;
    EXPECT_TRUE(tcc::parseParamType(p.second, &i));
    r.push_back(i);
  }
  return r;
}

std::string readText(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

using tcctest::TempDir;

TEST(TuneCommandLine, OptionsShapesAndSpecs) {
  Options o;
  std::vector<std::string> pos;
  bool help = false;
  std::string err;
  ASSERT_TRUE(parseCommandLine({"art", "--shape", "M=1,2", "--shape=N=3", "x=rand:M,N",
                                "out=zeros:M*N", "-o", "t.json", "--report", "d", "--csv",
                                "--seed", "7", "--budget-ms", "3", "--peak", "p", "--kernel", "k"},
                               &o, &pos, &help, &err))
      << err;
  EXPECT_FALSE(help);
  EXPECT_EQ(pos, std::vector<std::string>{"art"});
  EXPECT_EQ(o.shapes, (std::vector<std::string>{"M=1,2", "N=3"}));
  EXPECT_EQ(o.args, (std::vector<std::string>{"x=rand:M,N", "out=zeros:M*N"}));
  EXPECT_EQ(o.table, "t.json");
  EXPECT_EQ(o.reportDir, "d");
  EXPECT_EQ(o.format, Options::Format::Csv);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.budgetMs, 3);
  EXPECT_EQ(o.peak, "p");
  EXPECT_EQ(o.kernel, "k");

  auto error = [](std::vector<std::string> words) {
    Options o;
    std::vector<std::string> pos;
    bool help = false;
    std::string err;
    EXPECT_FALSE(parseCommandLine(words, &o, &pos, &help, &err));
    return err;
  };
  EXPECT_NE(error({"--shape", "n="}).find("expected NAME=V1,V2"), std::string::npos);
  EXPECT_NE(error({"--shape", "n=1,,2"}).find("integer values"), std::string::npos);
  EXPECT_NE(error({"--shape", "n=99999999999999999999"}).find("integer values"), std::string::npos);
  EXPECT_EQ(error({"--frob"}), "unknown option '--frob'");
  EXPECT_EQ(error({"--csv", "--json"}), "--csv and --json exclude each other");
  EXPECT_EQ(error({"-o"}), "-o needs a value");
  EXPECT_NE(error({"--args", "a.json", "--shape", "n=1"}).find("exclude each other"),
            std::string::npos);
  EXPECT_NE(error({"x=bogus:3"}).find("unknown kind 'bogus'"), std::string::npos);
  EXPECT_NE(error({"x=rand:M,"}).find("bad shape"), std::string::npos);
  EXPECT_NE(error({"--budget-ms", "0"}).find("not a number of at least 1"), std::string::npos);
  EXPECT_EQ(error({"--devices", "0,x"}),
            "--devices '0,x': expected device ordinals (0,1,...) or 'all'");
  EXPECT_EQ(error({"--devices", "1,1"}), "--devices '1,1': device 1 is listed twice");
  EXPECT_EQ(error({"--devices", "all", "--devices", "0"}),
            "--devices all and a list of devices exclude each other");
  Options dv;
  ASSERT_TRUE(parseCommandLine({"a", "--devices=1,0"}, &dv, &pos, &help, &err)) << err;
  EXPECT_EQ(dv.devices, (std::vector<int>{1, 0}));
  Options all;
  ASSERT_TRUE(parseCommandLine({"a", "--devices", "all"}, &all, &pos, &help, &err)) << err;
  EXPECT_TRUE(all.allDevices);
  Options h;
  ASSERT_TRUE(parseCommandLine({"--help"}, &h, &pos, &help, &err));
  EXPECT_TRUE(help);
}

TEST(TuneArgumentSets, CrossProductInOrderWithExpressions) {
  auto ps = params({{"a", "*f16"}, {"c", "*f32"}, {"M", "i32"}, {"N", "i64"}, {"eps", "f32"}});
  Options o;
  o.shapes = {"M=1,2", "N=3,4"};
  o.args = {"a=rand:M,N", "c=zeros:M*N", "eps=1e-5"};
  std::vector<ArgSet> sets;
  std::string err;
  ASSERT_TRUE(argumentSets(o, ps, &sets, &err)) << err;
  ASSERT_EQ(sets.size(), 4u);
  EXPECT_EQ(sets[0].label, "M=1, N=3");
  EXPECT_EQ(sets[1].label, "M=1, N=4");
  EXPECT_EQ(sets[2].label, "M=2, N=3");
  EXPECT_EQ(sets[3].label, "M=2, N=4");
  EXPECT_EQ(sets[3].integer("M"), 2);
  EXPECT_EQ(sets[3].integer("N"), 4);
  EXPECT_EQ(*sets[3].scalar("eps"), "1e-5");
  ASSERT_EQ(sets[3].buffers.size(), 2u);
  std::vector<int64_t> shape;
  ASSERT_TRUE(tcc::args::evaluateShape(
      sets[3].buffers[1], [&](const std::string& n) { return sets[3].integer(n); }, &shape, &err));
  EXPECT_EQ(shape, std::vector<int64_t>{8});
  ASSERT_TRUE(tcc::args::evaluateShape(
      sets[2].buffers[0], [&](const std::string& n) { return sets[2].integer(n); }, &shape, &err));
  EXPECT_EQ(shape, (std::vector<int64_t>{2, 3}));

  auto error = [&](Options o) {
    std::vector<ArgSet> s;
    std::string e;
    EXPECT_FALSE(argumentSets(o, ps, &s, &e));
    return e;
  };
  Options missing = o;
  missing.args = {"a=rand:M,N", "eps=1"};
  EXPECT_EQ(error(missing), "no value for parameter 'c' (*f32): give c=rand:SHAPE (or zeros:, "
                            "empty:, ...; SHAPE may use the integer arguments) (argument set "
                            "M=1, N=3)");
  Options scalarPtr = o;
  scalarPtr.args = {"a=5", "c=zeros:4", "eps=1"};
  EXPECT_NE(error(scalarPtr).find("parameter 'a' is a pointer (*f16): give a buffer"),
            std::string::npos);
  Options bufScalar = o;
  bufScalar.shapes = {"M=1"};
  bufScalar.args = {"a=rand:4", "c=zeros:4", "eps=1", "N=rand:3"};
  EXPECT_NE(error(bufScalar).find("parameter 'N' is a scalar (i64), not a buffer"),
            std::string::npos);
  Options unknown = o;
  unknown.args.push_back("q=1");
  EXPECT_NE(error(unknown).find("'q' is not a parameter of the kernel (a, c, M, N, eps)"),
            std::string::npos);
  Options twice = o;
  twice.args.push_back("M=7");
  EXPECT_NE(error(twice).find("parameter 'M' is given twice"), std::string::npos);
  Options badShape = o;
  badShape.args = {"a=rand:K,N", "c=zeros:M*N", "eps=1"};
  EXPECT_NE(error(badShape).find("argument 'a': grid expression 'K': unknown name 'K'"),
            std::string::npos);
  Options negative = o;
  negative.args = {"a=rand:M-N", "c=zeros:M*N", "eps=1"};
  EXPECT_NE(error(negative).find("dimension 'M-N' is -2, negative"), std::string::npos);
  Options notNumber = o;
  notNumber.args = {"a=rand:M", "c=zeros:M", "eps=abc"};
  EXPECT_NE(error(notNumber).find("'abc' is not a number"), std::string::npos);
  Options npy = o;
  npy.args = {"a=in.npy", "c=zeros:M", "eps=1"};
  EXPECT_NE(error(npy).find(".npy files are for the interpreter"), std::string::npos);
  Options shapeTwice = o;
  shapeTwice.shapes = {"M=1", "M=2"};
  EXPECT_NE(error(shapeTwice).find("--shape M is given twice"), std::string::npos);
}

TEST(TuneArgumentSets, IntegerScalarsMayNameTheOthers) {
  // matmul's strides follow the shape: stride_am=K, in every combination.
  auto ps = params({{"a", "*f16"}, {"M", "i32"}, {"K", "i32"}, {"stride_am", "i32"},
                    {"stride_ak", "i32"}, {"lda2", "i64"}});
  Options o;
  o.shapes = {"M=64,128", "K=32"};
  o.args = {"a=rand:M,stride_am", "stride_am=K", "stride_ak=1", "lda2=2*stride_am+M"};
  std::vector<ArgSet> sets;
  std::string err;
  ASSERT_TRUE(argumentSets(o, ps, &sets, &err)) << err;
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[1].integer("stride_am"), 32);
  EXPECT_EQ(sets[1].integer("lda2"), 2 * 32 + 128); // names a resolved expression
  EXPECT_EQ(sets[0].integer("lda2"), 2 * 32 + 64);
  std::vector<int64_t> shape;
  ASSERT_TRUE(tcc::args::evaluateShape(
      sets[1].buffers[0], [&](const std::string& n) { return sets[1].integer(n); }, &shape, &err));
  EXPECT_EQ(shape, (std::vector<int64_t>{128, 32}));

  Options cycle = o;
  cycle.args = {"a=rand:M", "stride_am=stride_ak", "stride_ak=stride_am", "lda2=1"};
  EXPECT_FALSE(argumentSets(cycle, ps, &sets, &err));
  EXPECT_NE(err.find("not itself or a cycle"), std::string::npos) << err;
  Options bad = o;
  bad.args = {"a=rand:M", "stride_am=K//0", "stride_ak=1", "lda2=1"};
  EXPECT_FALSE(argumentSets(bad, ps, &sets, &err));
  EXPECT_NE(err.find("parameter 'stride_am'"), std::string::npos) << err;
  Options notExpr = o;
  notExpr.args = {"a=rand:M", "stride_am=K+", "stride_ak=1", "lda2=1"};
  EXPECT_FALSE(argumentSets(notExpr, ps, &sets, &err));
  EXPECT_NE(err.find("is not an integer or an expression of the other integer arguments"),
            std::string::npos)
      << err;
}

TEST(TuneArgumentSets, JsonListCompletedByTheCommandLine) {
  auto ps = params({{"x", "*f32"}, {"M", "i32"}, {"N", "i32"}, {"flag", "i1"}});
  TempDir d;
  std::string path = d.path() + "/sets.json";
  std::ofstream(path) << R"([{"M": 4096, "N": 1024, "flag": true}, {"N": 8, "M": 2, "x": "ones:M"}])";
  Options o;
  o.argsFile = path;
  o.args = {"x=randn:M,N", "flag=false"};
  std::vector<ArgSet> sets;
  std::string err;
  ASSERT_TRUE(argumentSets(o, ps, &sets, &err)) << err;
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].label, "M=4096, N=1024, flag=true");
  EXPECT_EQ(sets[0].buffers[0].kind, tcc::args::Kind::Randn);
  EXPECT_EQ(sets[1].label, "N=8, M=2, flag=false");
  EXPECT_EQ(sets[1].buffers[0].kind, tcc::args::Kind::Const);
  EXPECT_EQ(sets[1].buffers[0].value, 1.0);

  EXPECT_FALSE(parseArgSetsJson("{}", "s.json", ps, &sets, &err));
  EXPECT_NE(err.find("expected a non-empty JSON list"), std::string::npos);
  EXPECT_FALSE(parseArgSetsJson(R"([{"M": [1]}])", "s.json", ps, &sets, &err));
  EXPECT_NE(err.find("s.json: argument set 0: 'M' is an array"), std::string::npos);
  EXPECT_FALSE(parseArgSetsJson("[1", "s.json", ps, &sets, &err));
}

TEST(TuneCounts, EvaluatedWithArgumentsAndConstexprs) {
  tcc::KernelMetadata m;
  m.constexprs = {{"BLOCK", 1024}, {"ACT", "relu"}};
  ArgSet set;
  set.scalars = {{"n", "1000"}, {"M", "3"}};
  std::string why;
  EXPECT_EQ(evaluateCount("12 * BLOCK * cdiv(n, BLOCK)", m, set, 0, &why), 12288.0);
  EXPECT_EQ(evaluateCount("num_sms * M", m, set, 132, &why), 396.0);
  EXPECT_EQ(evaluateCount("n - 2000", m, set, 0, &why), 0.0); // clamped at 0
  EXPECT_FALSE(evaluateCount("occupancy * n", m, set, 132, &why));
  EXPECT_NE(why.find("unknown name 'occupancy'"), std::string::npos);
  EXPECT_FALSE(evaluateCount("ACT", m, set, 0, &why));
}

// Two argument sets of three configurations: in the first the winner is clear, in the
// second the runner-up's spread overlaps the best's.
Report sampleReport() {
  Report r;
  r.kernel = "k";
  r.space = "0123456789abcdef";
  r.device = "GPU";
  r.computeCapability = 90;
  r.driverVersion = 13000;
  r.ceilings.copyGBps = 4000;
  r.ceilings.tensorTFLOPs = 800;
  auto cfg = [](int index, const std::string& config, double med, double p20, double p80,
                double bytes, double flops) {
    ConfigResult c;
    c.index = index;
    c.config = config;
    c.ok = true;
    c.medianMs = med;
    c.p20Ms = p20;
    c.p80Ms = p80;
    c.reps = 100;
    c.bytes = bytes;
    c.flops = flops;
    return c;
  };
  ShapeResult a;
  a.label = "n=1048576";
  a.key = "n=1048576";
  a.configs = {cfg(0, "BLOCK=1024", 0.010, 0.0099, 0.0101, 12e6, 1e6),
               cfg(2, "ACT=\"relu\"", 0.008, 0.0079, 0.0081, 12e6, 1e6),
               cfg(3, "BLOCK=4096", 0.012, 0.0119, 0.0121, 12e6, 1e6)};
  ConfigResult failed;
  failed.index = 4;
  failed.config = "BLOCK=8192";
  failed.error = "too many resources";
  a.configs.push_back(failed);
  ShapeResult b;
  b.label = "n=4096";
  b.key = "n=4096";
  b.configs = {cfg(0, "BLOCK=1024", 0.0050, 0.0048, 0.0052, 49152, 4096),
               cfg(2, "ACT=\"relu\"", 0.0051, 0.0050, 0.0053, 49152, 4096),
               cfg(3, "BLOCK=4096", 0.0070, 0.0069, 0.0071, 49152, 4096)};
  r.shapes = {a, b};
  return r;
}

TEST(TuneReport, RankingAndNoise) {
  Report r = sampleReport();
  Ranking a = rank(r.shapes[0]);
  EXPECT_EQ(a.best, 1);
  EXPECT_EQ(a.runnerUp, 0);
  EXPECT_NEAR(a.gapPercent, 25.0, 1e-9);
  EXPECT_FALSE(a.withinNoise);
  Ranking b = rank(r.shapes[1]);
  EXPECT_EQ(b.best, 0);
  EXPECT_EQ(b.runnerUp, 1);
  EXPECT_NEAR(b.gapPercent, 2.0, 1e-9);
  EXPECT_TRUE(b.withinNoise); // 0.0050 <= 0.0052

  std::string t = textReport(r);
  EXPECT_NE(t.find("copy bandwidth: 4000.0 GB/s"), std::string::npos) << t;
  EXPECT_NE(t.find("best [2] ACT=\"relu\"; runner-up [0] BLOCK=1024, 25.00 % slower"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("best [0] BLOCK=1024; runner-up [2] ACT=\"relu\", 2.00 % slower\n  warning: "
                   "the gap is inside the noise (the runner-up's p20 0.0050 ms <= the best's "
                   "p80 0.0052 ms)"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("warning"), t.rfind("warning")) << "one warning: the second set's";
  EXPECT_NE(t.find("failed: too many resources"), std::string::npos);
}

TEST(TuneReport, CsvAndJsonNumbers) {
  Report r = sampleReport();
  std::string csv = csvReport(r);
  // 12e6 bytes in 0.008 ms: 1500 GB/s, 37.5 % of the copy; 1e6 FLOPs: 0.125 TFLOP/s,
  // 0.0156 % of the tensor cores.
  EXPECT_NE(csv.find("n=1048576,n=1048576,2,\"ACT=\"\"relu\"\"\",1,0.008000,0.007900,0.008100,"
                     "100,12000000,1000000,1500.000,0.125000,0.3750,0.0002,1,0\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("n=1048576,n=1048576,4,BLOCK=8192,0,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("n=4096,n=4096,0,BLOCK=1024,1,0.005000,0.004800,0.005200,100,49152,4096,"
                     "9.830,0.000819,0.0025,0.0000,1,1\n"),
            std::string::npos)
      << csv;

  tcc::json::Value j = tcc::json::parse(jsonReport(r));
  EXPECT_EQ(j.find("format")->asString(), "tcc-tune-report");
  EXPECT_EQ(j.find("ceilings")->find("copy_gbps")->asDouble(), 4000);
  const tcc::json::Value& s0 = j.find("shapes")->items()[0];
  EXPECT_EQ(s0.find("best")->asInt(), 2);
  EXPECT_EQ(s0.find("runner_up")->asInt(), 0);
  EXPECT_NEAR(s0.find("gap_percent")->asDouble(), 25.0, 1e-9);
  EXPECT_FALSE(s0.find("within_noise")->asBool());
  const tcc::json::Value& c1 = s0.find("configs")->items()[1];
  EXPECT_NEAR(c1.find("gbps")->asDouble(), 1500, 1e-6);
  EXPECT_NEAR(c1.find("tflops")->asDouble(), 0.125, 1e-12);
  EXPECT_NEAR(c1.find("fraction_of_copy")->asDouble(), 0.375, 1e-12);
  EXPECT_EQ(s0.find("configs")->items()[3].find("error")->asString(), "too many resources");
  EXPECT_TRUE(j.find("shapes")->items()[1].find("within_noise")->asBool());
}

TEST(TuneReport, ChartsAreSmallValidSvg) {
  Report r = sampleReport();
  for (const std::string& svg : {sweepSvg(r), rooflineSvg(r)}) {
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
    EXPECT_LT(svg.size(), 20000u);
    EXPECT_EQ(svg.find("\"relu\""), std::string::npos) << "quotes are escaped";
    EXPECT_NE(svg.find("ACT=&quot;relu&quot;"), std::string::npos);
    size_t open = 0, close = 0;
    for (size_t p = svg.find('<'); p != std::string::npos; p = svg.find('<', p + 1))
      svg[p + 1] == '/' ? ++close : ++open;
    size_t selfClosed = 0;
    for (size_t p = svg.find("/>"); p != std::string::npos; p = svg.find("/>", p + 1))
      ++selfClosed;
    EXPECT_EQ(open, close + selfClosed) << "every element is closed";
  }
  std::string roof = rooflineSvg(r);
  size_t circles = 0;
  for (size_t p = roof.find("<circle"); p != std::string::npos; p = roof.find("<circle", p + 1))
    ++circles;
  EXPECT_EQ(circles, 6u); // the failed configuration is not placed
  EXPECT_NE(roof.find("copy 4000 GB/s"), std::string::npos);
  EXPECT_NE(roof.find("tensor cores 800 TFLOP/s"), std::string::npos);
  size_t bars = 0;
  std::string sweep = sweepSvg(r);
  for (size_t p = sweep.find("<rect x="); p != std::string::npos; p = sweep.find("<rect x=", p + 1))
    ++bars;
  EXPECT_EQ(bars, 6u + 4u); // six bars, a legend square per configuration
}

TEST(TuneReport, TableChoosesTheBestAndKeepsTheFirstOfAKey) {
  Report r = sampleReport();
  r.shapes.push_back(r.shapes[1]);
  r.shapes.back().label = "n=4000";
  std::vector<std::string> warnings;
  tcc::json::Value t = tcc::json::parse(tuningTable(r, &warnings));
  EXPECT_EQ(t.find("format")->asString(), "tcc-tuning-table");
  EXPECT_EQ(t.find("space")->asString(), "0123456789abcdef");
  ASSERT_EQ(t.find("entries")->items().size(), 2u);
  const tcc::json::Value& e = t.find("entries")->items()[0];
  EXPECT_EQ(e.find("key")->asString(), "n=1048576");
  EXPECT_EQ(e.find("index")->asInt(), 2);
  EXPECT_EQ(e.find("config")->asString(), "ACT=\"relu\"");
  EXPECT_EQ(e.find("cc")->asInt(), 90);
  EXPECT_EQ(e.find("driver"), nullptr);
  EXPECT_NEAR(e.find("medians_ms")->find("3")->asDouble(), 0.012, 1e-12);
  EXPECT_EQ(e.find("medians_ms")->find("4"), nullptr);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "n=4000 has the key [n=4096] of n=4096 (keys are bucketed to powers "
                         "of two): the table keeps n=4096's choice");
}

// ---- A whole run on the fake driver -------------------------------------------------------

// Configuration `index` of `inc(out: *i32, n: i32)` (FAKE_INC), taking `ms` per launch.
void writeConfig(const std::string& dir, int index, int block, double ms) {
  std::string name = "inc.c" + std::to_string(index);
  std::ofstream(dir + "/" + name + ".json")
      << "{\"format\": \"tcc-kernel\", \"version\": 1, \"name\": \"inc\", \"arch\": \"sm_90\", "
         "\"cubin\": \"" + name + ".cubin\", \"num_warps\": 4, \"num_stages\": 2, "
         "\"grid\": [\"cdiv(n, BLOCK)\", \"1\", \"1\"], \"params\": ["
         "{\"name\": \"out\", \"type\": \"*i32\"}, {\"name\": \"n\", \"type\": \"i32\"}], "
         "\"constexprs\": {\"BLOCK\": " + std::to_string(block) + "}, "
         "\"cost\": {\"bytes\": \"8 * BLOCK * cdiv(n, BLOCK)\", \"flops\": \"0\"}, "
         "\"autotune\": {\"space\": \"00000000000000aa\", \"index\": " + std::to_string(index) +
         ", \"count\": 3, \"key\": [\"n\"], \"writes\": [\"out\"], \"restore\": [\"out\"]}}";
  std::ofstream(dir + "/" + name + ".cubin", std::ios::binary)
      << faketest::cudaElf(8, 0x6000004u | (90u << 8), "FAKE_INC FAKE_MS=" + std::to_string(ms));
}

// Three configurations of `inc` (1, 0.25 and 2 ms a launch) in d/art, and the options of a
// run over them: n = 1000 and 3000, the table and report in d, JSON, no ceilings.
Options threeConfigRun(const TempDir& d) {
  std::string art = d.path() + "/art";
  fs::create_directories(art);
  writeConfig(art, 0, 256, 1.0);
  writeConfig(art, 1, 1024, 0.25);
  writeConfig(art, 2, 2048, 2.0);
  Options o;
  o.artifact = art;
  o.shapes = {"n=1000,3000"};
  o.args = {"out=arange:n"};
  o.table = d.path() + "/table.json";
  o.reportDir = d.path() + "/report";
  o.budgetMs = 2;
  o.noCeilings = true;
  o.format = Options::Format::Json;
  return o;
}

TEST(TuneRun, TableAndReportThatTheRuntimeThenUses) {
  std::string why;
  ASSERT_TRUE(tcc::driverAvailable(&why)) << why;
  TempDir d;
  Options o = threeConfigRun(d);
  const std::string art = o.artifact;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int rc = run(o);
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  ASSERT_EQ(rc, 0) << err;
  tcc::json::Value rep = tcc::json::parse(out);
  ASSERT_EQ(rep.find("shapes")->items().size(), 2u);
  const tcc::json::Value& s0 = rep.find("shapes")->items()[0];
  EXPECT_EQ(s0.find("key")->asString(), "n=1024");
  EXPECT_EQ(s0.find("best")->asInt(), 1);
  EXPECT_EQ(s0.find("runner_up")->asInt(), 0);
  EXPECT_NEAR(s0.find("gap_percent")->asDouble(), 300, 1e-6);
  EXPECT_FALSE(s0.find("within_noise")->asBool());
  const tcc::json::Value& best = s0.find("configs")->items()[1];
  EXPECT_NEAR(best.find("median_ms")->asDouble(), 0.25, 1e-9);
  EXPECT_EQ(best.find("bytes")->asDouble(), 8192); // 8 x 1024 x cdiv(1000, 1024)
  EXPECT_NEAR(best.find("gbps")->asDouble(), 8192 / 0.25e6, 1e-9);
  EXPECT_EQ(rep.find("shapes")->items()[1].find("key")->asString(), "n=4096");
  EXPECT_NE(err.find("n=3000: 3 configurations measured on device 0, the fastest [1] BLOCK=1024"),
            std::string::npos)
      << err;
  for (const char* f : {"report.txt", "report.csv", "report.json", "sweep.svg", "roofline.svg"})
    EXPECT_TRUE(fs::exists(o.reportDir + "/" + f)) << f;
  tcc::json::parse(readText(o.reportDir + "/report.json"));

  // The table, beside the artifact, chooses without benchmarking.
  tcc::json::Value table = tcc::json::parse(readText(o.table));
  ASSERT_EQ(table.find("entries")->items().size(), 2u);
  EXPECT_EQ(table.find("entries")->items()[0].find("index")->asInt(), 1);
  fs::copy_file(o.table, art + "/inc.tuning.json");
  ::setenv("TCC_CACHE_DIR", "", 1);
  tcc::Library lib(art);
  tcc::Kernel& k = lib.kernel("inc");
  tcc::bench::DeviceBuffer buf(4 * 3000);
  EXPECT_EQ(k.chosen(nullptr, buf.get(), int32_t(3000)).autotune->index, 1);
  ASSERT_TRUE(k.lastTuning());
  EXPECT_EQ(k.lastTuning()->source, tcc::TuningReport::Source::TuningTable);
  ::unsetenv("TCC_CACHE_DIR");
}

// --devices (issue 17): the fake's two devices under two names are two models, each tuned
// separately (a report each, one table with both devices' entries); the argument sets of
// one model are dealt to its devices. An ordinal the driver lacks is an error.
TEST(TuneRun, DevicesOfTwoModelsAreTunedSeparately) {
  std::string why;
  ASSERT_TRUE(tcc::driverAvailable(&why)) << why; // the fake initialised (cuInit)
  void* h = ::dlopen(std::getenv("TCC_LIBCUDA"), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr);
  auto setCc = reinterpret_cast<bool (*)(int, int)>(::dlsym(h, "tcc_fake_set_cc"));
  ASSERT_TRUE(setCc(1, 90)); // device 1 runs the sm_90 cubins
  TempDir d;
  Options o = threeConfigRun(d);
  o.devices = {0, 1};
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int rc = run(o);
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  ASSERT_EQ(rc, 0) << err;
  EXPECT_NE(err.find("n=1000: 3 configurations measured on device 0"), std::string::npos) << err;
  EXPECT_NE(err.find("n=1000: 3 configurations measured on device 1"), std::string::npos) << err;
  EXPECT_NE(out.find("\"tcc fake GPU 0\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"tcc fake GPU 1\""), std::string::npos) << out;
  tcc::json::Value table = tcc::json::parse(readText(o.table));
  const auto& entries = table.find("entries")->items();
  ASSERT_EQ(entries.size(), 4u); // two keys on each device
  EXPECT_EQ(entries[0].find("device")->asString(), "tcc fake GPU 0");
  EXPECT_EQ(entries[2].find("device")->asString(), "tcc fake GPU 1");
  EXPECT_EQ(entries[3].find("index")->asInt(), 1);
  EXPECT_TRUE(fs::exists(o.reportDir + "/tcc_fake_GPU_0/report.json"));
  EXPECT_TRUE(fs::exists(o.reportDir + "/tcc_fake_GPU_1/report.json"));

  o.devices = {4};
  o.table.clear();
  o.reportDir.clear();
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  rc = run(o);
  testing::internal::GetCapturedStdout();
  err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, 1);
  EXPECT_NE(err.find("--devices: device 4 does not exist (the driver sees 2 devices)"),
            std::string::npos)
      << err;
  EXPECT_TRUE(setCc(1, 80));
}

TEST(TuneRun, TheTensorCeilingFromItsKernelsCount) {
  // A stand-in for the compiled tensor_peak: the fake's launch takes 2 ms; the count is the
  // metadata's, as tcc writes it for runtime/tools/tensor_peak.tile.
  TempDir d;
  std::ofstream(d.path() + "/tensor_peak.json")
      << "{\"format\": \"tcc-kernel\", \"version\": 1, \"name\": \"tensor_peak\", \"arch\": "
         "\"sm_90\", \"cubin\": \"tensor_peak.cubin\", \"num_warps\": 8, \"grid\": "
         "[\"programs\", \"1\", \"1\"], \"params\": [{\"name\": \"a\", \"type\": \"*f16\"}, "
         "{\"name\": \"b\", \"type\": \"*f16\"}, {\"name\": \"out\", \"type\": \"*f32\"}, "
         "{\"name\": \"iters\", \"type\": \"i32\"}, {\"name\": \"programs\", \"type\": \"i32\"}], "
         "\"constexprs\": {\"BM\": 128, \"BN\": 128, \"BK\": 64}, \"cost\": {\"bytes\": "
         "\"98304 * programs\", \"flops\": \"2097152 * iters * programs\"}}";
  std::ofstream(d.path() + "/tensor_peak.cubin", std::ios::binary)
      << faketest::cudaElf(8, 0x6000004u | (90u << 8), "FAKE_MS=2");
  Ceilings c = measureCeilings(d.path(), 2);
  // 4 x 132 programs x 4096 dots x 2 x 128 x 128 x 64 FLOPs in 2 ms.
  EXPECT_NEAR(c.tensorTFLOPs, 2097152.0 * 4096 * 528 / 2e9, 1e-6) << c.tensorNote;
  EXPECT_NE(c.tensorNote.find("528 programs x 4096 dots of 128x128x64 f16"), std::string::npos)
      << c.tensorNote;
  Ceilings none = measureCeilings(d.path() + "/missing", 2);
  EXPECT_EQ(none.tensorTFLOPs, 0);
  EXPECT_EQ(none.tensorNote.rfind("not measured: ", 0), 0u) << none.tensorNote;
}

} // namespace

namespace {

std::string metadataWith(const std::string& cost) {
  return "{\"format\": \"tcc-kernel\", \"version\": 1, \"name\": \"k\", \"arch\": \"sm_90\", "
         "\"cubin\": \"k.cubin\", \"num_warps\": 4, \"grid\": [\"cdiv(n, BLOCK)\", \"1\", \"1\"], "
         "\"params\": [{\"name\": \"x\", \"type\": \"*f32\"}, {\"name\": \"n\", \"type\": \"i32\"}], "
         "\"constexprs\": {\"BLOCK\": 256}" + cost + "}";
}

TEST(TuneMetadata, CostIsOptionalAndChecked) {
  tcc::KernelMetadata old = tcc::parseMetadata(metadataWith(""), "k.json", "");
  EXPECT_FALSE(old.cost); // files written before "cost" still load
  tcc::KernelMetadata m = tcc::parseMetadata(
      metadataWith(", \"cost\": {\"bytes\": \"8 * BLOCK * cdiv(n, BLOCK)\", \"flops\": \"n\"}"),
      "k.json", "");
  ASSERT_TRUE(m.cost);
  EXPECT_EQ(m.cost->bytes, "8 * BLOCK * cdiv(n, BLOCK)");
  EXPECT_EQ(m.cost->flops, "n");
  tcc::KernelMetadata half =
      tcc::parseMetadata(metadataWith(", \"cost\": {\"flops\": \"0\"}"), "k.json", "");
  ASSERT_TRUE(half.cost);
  EXPECT_EQ(half.cost->bytes, ""); // not expressible
  auto error = [](const std::string& cost) {
    try {
      tcc::parseMetadata(metadataWith(cost), "k.json", "");
    } catch (const tcc::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error(", \"cost\": {\"bytes\": \"8 * x\"}")
                .find("cost.bytes '8 * x' uses 'x', which is not an integer parameter"),
            std::string::npos);
  EXPECT_NE(error(", \"cost\": {\"flops\": \"m\"}").find("uses unknown name 'm'"),
            std::string::npos);
  EXPECT_NE(error(", \"cost\": {\"flops\": 3}").find("\"flops\" in \"cost\" should be a string"),
            std::string::npos);
  EXPECT_NE(error(", \"cost\": []").find("\"cost\" should be an object"), std::string::npos);
}

} // namespace
