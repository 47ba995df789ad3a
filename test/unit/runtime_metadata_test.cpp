// Reading kernel metadata: what the runtime accepts, and what it rejects and says why (the
// compiler's writer against this reader: target_artifact_test.cpp).
#include "tcc/error.h"
#include "tcc/metadata.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <tuple>
#include <vector>

namespace {

const char* kValid = R"json({
  "format": "tcc-kernel", "version": 1, "name": "vector_add", "arch": "sm_90",
  "cubin": "vector_add.cubin", "num_warps": 4, "shared_bytes": 0,
  "grid": ["cdiv(n, BLOCK)", "1", "1"],
  "params": [{"name": "x", "type": "*f32", "divisibility": 16}, {"name": "y", "type": "*f32"},
             {"name": "out", "type": "*f32"}, {"name": "n", "type": "i32"}],
  "constexprs": {"BLOCK": 1024}, "future_key": [1, 2]
})json";

std::string errorOf(const std::string& text) {
  try {
    tcc::parseMetadata(text, "k.json", "");
  } catch (const tcc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

// kValid with `from` replaced by `to`.
std::string with(const std::string& from, const std::string& to) {
  std::string s = kValid;
  size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return p == std::string::npos ? s : s.replace(p, from.size(), to);
}

TEST(RuntimeMetadata, ParsesAValidFile) {
  tcc::KernelMetadata m = tcc::parseMetadata(kValid, "k.json", "/art/cfg");
  EXPECT_EQ(m.name, "vector_add");
  EXPECT_EQ(m.entry, "vector_add");
  EXPECT_EQ(m.arch, "sm_90");
  EXPECT_EQ(m.archNumber, 90);
  EXPECT_FALSE(m.archSpecific);
  EXPECT_EQ(m.cubinPath, "/art/cfg/vector_add.cubin");
  EXPECT_EQ(m.numWarps, 4);
  EXPECT_EQ(m.threadsPerBlock(), 128);
  ASSERT_EQ(m.params.size(), 4u);
  EXPECT_TRUE(m.params[0].isPointer);
  EXPECT_EQ(m.params[0].elementBits, 32);
  EXPECT_EQ(m.params[0].divisibility, 16);
  EXPECT_FALSE(m.params[3].isPointer);
  EXPECT_EQ(m.params[3].elementKind, tcc::ScalarKind::Int);
  ASSERT_EQ(m.constexprs.size(), 1u);
  EXPECT_EQ(m.constexprs[0].second, 1024);
  EXPECT_EQ(m.grid[0], "cdiv(n, BLOCK)");
  EXPECT_EQ(m.specialisationScore(), 4);
  EXPECT_EQ(m.specialisationString(), "x%16");
  EXPECT_EQ(m.configString(), "BLOCK=1024, num_warps=4");
}

TEST(RuntimeMetadata, RejectsWhatIsWrongAndSaysWhat) {
  EXPECT_NE(errorOf("[1]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(errorOf(with("\"tcc-kernel\"", "\"other\"")).find("not \"tcc-kernel\""), std::string::npos);
  EXPECT_NE(errorOf(with("\"version\": 1", "\"version\": 3"))
                .find("version 3 is not supported (this runtime reads 1 and 2)"),
            std::string::npos);
  EXPECT_EQ(errorOf(with("\"version\": 1", "\"version\": 2")), "(no error)"); // no maps: fine
  EXPECT_NE(errorOf(with("\"name\": \"vector_add\", ", "")).find("missing \"name\""),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": \"4\"")).find("should be a number"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": 64")).find("outside 1..32"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": 4.5")).find("should be an integer"),
            std::string::npos);
  EXPECT_NE(errorOf(with("sm_90", "compute_90")).find("not of the form sm_NN"), std::string::npos);
  EXPECT_NE(errorOf(with("\"*f32\", \"divisibility\": 16", "\"*f32\", \"divisibility\": 12"))
                .find("not a power of two"),
            std::string::npos);
  EXPECT_NE(errorOf(with("{\"name\": \"y\", \"type\": \"*f32\"}",
                         "{\"name\": \"y\", \"type\": \"f32\", \"divisibility\": 16}"))
                .find("cannot carry a divisibility"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"i32\"", "\"int\"")).find("unknown type 'int'"), std::string::npos);
  EXPECT_NE(errorOf(with("\"name\": \"y\"", "\"name\": \"x\"")).find("'x' appears twice"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"1\", \"1\"]", "\"1\"]")).find("exactly three"), std::string::npos);
  EXPECT_NE(errorOf(with("cdiv(n, BLOCK)", "cdiv(x, BLOCK)")).find("not an integer parameter"),
            std::string::npos);
  EXPECT_NE(errorOf(with("cdiv(n, BLOCK)", "cdiv(N, BLOCK)")).find("unknown name 'N'"),
            std::string::npos);
  EXPECT_NE(errorOf(with("cdiv(n, BLOCK)", "n / 2")).find("write '//'"), std::string::npos);
  EXPECT_NE(errorOf(with("\"BLOCK\": 1024", "\"BLOCK\": \"1024\"")).find("not an integer"),
            std::string::npos);
  std::string e = errorOf(with("\"arch\"", "\"arch\" x"));
  EXPECT_NE(e.find("k.json"), std::string::npos) << e;
  EXPECT_NE(e.find("line 2"), std::string::npos) << e;
}

// tcc-fuzz-runtime: a constexpr named by 3000 characters that are no identifier gave a
// message quoting it whole; every string of the metadata a message quotes is shortened.
TEST(RuntimeMetadata, ErrorsQuoteLongInputsShortened) {
  std::string longText(5000, '-');
  for (const std::string &bad :
       {with("\"BLOCK\": 1024", "\"" + longText + "\": 1024"),
        with("\"tcc-kernel\"", "\"" + longText + "\""), with("sm_90", longText),
        with("\"BLOCK\": 1024", "\"" + longText + "\": \"x\", \"" + longText + "\": 1"),
        with("\"i32\"", "\"" + longText + "\"")}) {
    std::string e = errorOf(bad);
    EXPECT_FALSE(e.empty());
    EXPECT_LT(e.size(), 400u) << e.substr(0, 400);
    EXPECT_NE(e.find("(5000 characters)"), std::string::npos) << e.substr(0, 400);
  }
}

TEST(RuntimeMetadata, PtxOnlyArtifacts) {
  // `tcc --emit=ptx` without ptxas: "ptx" and no "cubin"; the driver JIT-compiles it.
  tcc::KernelMetadata m = tcc::parseMetadata(
      with("\"cubin\": \"vector_add.cubin\"", "\"ptx\": \"vector_add.ptx\""), "k.json", "/art");
  EXPECT_EQ(m.cubinPath, "");
  EXPECT_EQ(m.ptxPath, "/art/vector_add.ptx");
  // Both: the PTX kept beside the cubin.
  m = tcc::parseMetadata(with("\"cubin\": \"vector_add.cubin\"",
                              "\"cubin\": \"k.cubin\", \"ptx\": \"k.ptx\""),
                         "k.json", "/art");
  EXPECT_EQ(m.cubinPath, "/art/k.cubin");
  EXPECT_EQ(m.ptxPath, "/art/k.ptx");
  // Neither, or an empty one, is an error.
  const std::string cubin = "\"cubin\": \"vector_add.cubin\"";
  EXPECT_NE(errorOf(with(cubin + ",", "")).find("missing \"cubin\" (or \"ptx\""),
            std::string::npos);
  EXPECT_NE(errorOf(with(cubin, "\"ptx\": \"\"")).find("\"ptx\" is empty"), std::string::npos);
  EXPECT_NE(errorOf(with(cubin, "\"ptx\": 3")).find("should be a string"), std::string::npos);
}

TEST(RuntimeMetadata, ConstexprsOfEveryKind) {
  tcc::KernelMetadata m = tcc::parseMetadata(
      with("\"BLOCK\": 1024", "\"BLOCK\": 1024, \"ACT\": \"relu\", \"DTYPE\": \"f16\", "
                               "\"SCALE\": 0.5, \"BIG\": 1e300, \"ONE\": 1.0, \"RELU\": false, "
                               "\"NEG\": -3, \"Q\": \"a\\\"b\""),
      "k.json", "");
  ASSERT_EQ(m.constexprs.size(), 9u);
  using K = tcc::ConstexprValue::Kind;
  EXPECT_EQ(m.constexprs[0].second.kind(), K::Int);
  EXPECT_EQ(m.constexprs[1].second.kind(), K::String);
  EXPECT_EQ(m.constexprs[1].second.asString(), "relu");
  EXPECT_EQ(m.constexprs[3].second.kind(), K::Float);
  EXPECT_EQ(m.constexprs[3].second.asDouble(), 0.5);
  EXPECT_EQ(m.constexprs[5].second.kind(), K::Float); // 1.0 stays a number with a fraction
  EXPECT_EQ(m.constexprs[6].second.kind(), K::Bool);
  EXPECT_EQ(m.constexprs[6].second.asInt(), 0);
  EXPECT_EQ(m.constexprs[7].second, tcc::ConstexprValue(-3));
  EXPECT_EQ(m.configString(),
            "BLOCK=1024, ACT=\"relu\", DTYPE=\"f16\", SCALE=0.5, BIG=1e+300, ONE=1.0, RELU=False, "
            "NEG=-3, Q=\"a\\\"b\", num_warps=4");
  ASSERT_NE(m.constexprValue("ACT"), nullptr);
  EXPECT_TRUE(m.constexprValue("ACT")->isString());
  EXPECT_EQ(m.constexprValue("NOPE"), nullptr);
  // Equality is exact; lookups compare numbers by value, strings with strings only.
  EXPECT_NE(tcc::ConstexprValue(1), tcc::ConstexprValue(true));
  EXPECT_NE(tcc::ConstexprValue(1), tcc::ConstexprValue(1.0));
  EXPECT_TRUE(tcc::ConstexprValue(1).sameValue(true));
  EXPECT_TRUE(tcc::ConstexprValue(2).sameValue(2.0));
  EXPECT_FALSE(tcc::ConstexprValue("1").sameValue(1));
  EXPECT_TRUE(tcc::ConstexprValue(std::string("relu")).sameValue("relu"));
  // Grid expressions may use integer and boolean constexprs, not the others.
  std::string boolInGrid = with("cdiv(n, BLOCK)", "cdiv(n, BLOCK) + T");
  boolInGrid.replace(boolInGrid.find("\"BLOCK\": 1024"), 13, "\"BLOCK\": 1024, \"T\": true");
  EXPECT_EQ(errorOf(boolInGrid), "(no error)");
  std::string e = errorOf(with("\"BLOCK\": 1024", "\"BLOCK\": \"relu\""));
  EXPECT_NE(e.find("uses constexpr 'BLOCK', which is \"relu\", not an integer"), std::string::npos)
      << e;
  e = errorOf(with("\"BLOCK\": 1024", "\"BLOCK\": 2.5"));
  EXPECT_NE(e.find("which is 2.5, not an integer"), std::string::npos) << e;
  EXPECT_NE(errorOf(with("\"BLOCK\": 1024", "\"BLOCK\": [1]")).find("is an array"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"BLOCK\": 1024", "\"BLOCK\": null")).find("constexpr 'BLOCK' is null"),
            std::string::npos);
}

TEST(RuntimeMetadata, ArchSuffixes) {
  tcc::KernelMetadata m = tcc::parseMetadata(with("sm_90", "sm_90a"), "k.json", "");
  EXPECT_EQ(m.archNumber, 90);
  EXPECT_TRUE(m.archSpecific);
  m = tcc::parseMetadata(with("sm_90", "sm_100"), "k.json", "");
  EXPECT_EQ(m.archNumber, 100);
}


// Metadata version 2: "tensormaps", the TMA tensor maps a kernel takes after its parameters
// (docs/artifacts.md).
const char* kTensorMaps = R"json({
  "format": "tcc-kernel", "version": 2, "name": "matmul", "arch": "sm_90a", "cubin": "m.cubin",
  "num_warps": 4, "grid": ["cdiv(M, BM)", "1", "1"],
  "params": [{"name": "a", "type": "*f16", "divisibility": 16}, {"name": "c", "type": "*f32"},
             {"name": "q", "type": "*i8"}, {"name": "M", "type": "i32"},
             {"name": "K", "type": "i32"}, {"name": "stride_am", "type": "i32"},
             {"name": "s", "type": "f32"}],
  "constexprs": {"BM": 128, "ACT": "relu"},
  "tensormaps": [{"param": "a", "dtype": "f16", "dims": ["K", "M"],
                  "strides_bytes": ["stride_am * 2"], "box": [64, 128], "swizzle": 128,
                  "l2_promotion": 256, "oob_fill": "nan"},
                 {"param": "c", "dtype": "f32", "dims": ["BM"], "strides_bytes": [],
                  "box": [32]}]
})json";

std::string withMaps(const std::string& from, const std::string& to) {
  std::string s = kTensorMaps;
  size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return p == std::string::npos ? s : s.replace(p, from.size(), to);
}

TEST(RuntimeMetadata, ParsesTensorMaps) {
  tcc::KernelMetadata m = tcc::parseMetadata(kTensorMaps, "k.json", "");
  ASSERT_EQ(m.tensorMaps.size(), 2u);
  const tcc::TensorMapInfo& a = m.tensorMaps[0];
  EXPECT_EQ(a.param, "a");
  EXPECT_EQ(a.paramIndex, 0u);
  EXPECT_EQ(a.dtype, "f16");
  EXPECT_EQ(a.elementBytes, 2);
  EXPECT_EQ(a.dims, (std::vector<std::string>{"K", "M"}));
  EXPECT_EQ(a.stridesBytes, (std::vector<std::string>{"stride_am * 2"}));
  EXPECT_EQ(a.box, (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(a.swizzle, 128);
  EXPECT_EQ(a.l2Promotion, 256);
  EXPECT_TRUE(a.oobFillNan);
  // Without swizzle, l2_promotion and oob_fill: 0, 128 and zero; a constexpr in dims.
  const tcc::TensorMapInfo& c = m.tensorMaps[1];
  EXPECT_EQ(c.paramIndex, 1u);
  EXPECT_EQ(c.elementBytes, 4);
  EXPECT_EQ(c.dims, std::vector<std::string>{"BM"});
  EXPECT_TRUE(c.stridesBytes.empty());
  EXPECT_EQ(c.swizzle, 0);
  EXPECT_EQ(c.l2Promotion, 128);
  EXPECT_FALSE(c.oobFillNan);
  // Element sizes and CUtensorMapDataType values (<cuda.h>'s).
  int bytes = 0, type = -1;
  for (auto [dtype, b, t] : std::vector<std::tuple<const char*, int, int>>{
           {"i1", 1, 0}, {"i8", 1, 0}, {"f8e4nv", 1, 0}, {"f8e5", 1, 0}, {"i16", 2, 1},
           {"i32", 4, 3}, {"i64", 8, 5}, {"f16", 2, 6}, {"f32", 4, 7}, {"f64", 8, 8},
           {"bf16", 2, 9}}) {
    EXPECT_TRUE(tcc::tensorMapDataType(dtype, &bytes, &type)) << dtype;
    EXPECT_EQ(bytes, b) << dtype;
    EXPECT_EQ(type, t) << dtype;
  }
  EXPECT_FALSE(tcc::tensorMapDataType("f8", &bytes, &type));
  // A file without "tensormaps" has none.
  EXPECT_TRUE(tcc::parseMetadata(kValid, "k.json", "").tensorMaps.empty());
}

TEST(RuntimeMetadata, TensorMapsNeedVersion2) {
  EXPECT_NE(errorOf(withMaps("\"version\": 2", "\"version\": 1"))
                .find("k.json: \"tensormaps\" needs \"version\": 2 (a reader of version 1 would "
                      "launch without the tensor maps)"),
            std::string::npos)
      << errorOf(withMaps("\"version\": 2", "\"version\": 1"));
}

TEST(RuntimeMetadata, RejectsEveryMalformedTensorMap) {
  struct Case {
    std::string from, to, message;
  };
  const std::string map0 = "\"param\": \"a\", \"dtype\": \"f16\"";
  const std::vector<Case> cases = {
      {"\"tensormaps\": [", "\"tensormaps\": [1, ", "\"tensormaps\"[0] is a number, not an object"},
      {"\"tensormaps\": [", "\"tensormaps\": {}, \"later\": [", "\"tensormaps\" should be an array"},
      {"\"param\": \"a\", ", "", "missing \"param\" in \"tensormaps\"[0]"},
      {map0, "\"param\": \"z\", \"dtype\": \"f16\"",
       "\"tensormaps\"[0].\"param\" names 'z', which is not a parameter"},
      {map0, "\"param\": \"M\", \"dtype\": \"i32\"",
       "\"tensormaps\"[0].\"param\" names 'M' (i32), which is not a pointer parameter"},
      {map0, "\"param\": \"a\", \"dtype\": \"f8\"",
       "\"tensormaps\"[0].\"dtype\" \"f8\" is not a tensor map element type"},
      {map0, "\"param\": \"a\", \"dtype\": \"bf16\"",
       "\"tensormaps\"[0].\"dtype\" bf16 is not the element type of 'a' (*f16)"},
      {"\"dtype\": \"f16\", ", "", "missing \"dtype\" in \"tensormaps\"[0]"},
      {"[\"K\", \"M\"]", "[]", "\"tensormaps\"[0].\"dims\" has 0 entries; a tensor map has 1 to 5 dimensions"},
      {"[\"K\", \"M\"]", "[\"K\", \"M\", \"M\", \"M\", \"M\", \"M\"]", "\"dims\" has 6 entries"},
      {"[\"K\", \"M\"]", "[\"K\", 5]",
       "\"tensormaps\"[0].\"dims\"[1] is a number, not a grid expression (a string)"},
      {"[\"K\", \"M\"]", "[\"K\", \"Q\"]", "\"tensormaps\"[0].\"dims\"[1] 'Q' uses unknown name 'Q'"},
      {"[\"K\", \"M\"]", "[\"K\", \"s\"]", "'s' uses 's', which is not an integer parameter"},
      {"[\"K\", \"M\"]", "[\"K\", \"a\"]", "'a' uses 'a', which is not an integer parameter"},
      {"[\"K\", \"M\"]", "[\"K\", \"ACT\"]", "uses constexpr 'ACT', which is \"relu\", not an integer"},
      {"[\"K\", \"M\"]", "[\"K\", \"num_sms\"]", "uses unknown name 'num_sms'"},
      {"[\"K\", \"M\"]", "[\"K\", \"M //\"]", "\"tensormaps\"[0].\"dims\"[1]: grid expression 'M //'"},
      {"[\"stride_am * 2\"]", "[]",
       "\"tensormaps\"[0].\"strides_bytes\" has 0 entries; 2 dimensions need 1 (the byte strides of dims 1..)"},
      {"[\"stride_am * 2\"]", "[\"stride_am * s\"]", "\"tensormaps\"[0].\"strides_bytes\"[0] 'stride_am * s' uses 's'"},
      {"\"strides_bytes\": [\"stride_am * 2\"], ", "", "missing \"strides_bytes\" in \"tensormaps\"[0]"},
      {"[64, 128]", "[64]", "\"tensormaps\"[0].\"box\" has 1 entries; \"dims\" has 2"},
      {"[64, 128]", "[64, 0]", "\"tensormaps\"[0].\"box\"[1] 0 is outside 1..256"},
      {"[64, 128]", "[64, 257]", "\"tensormaps\"[0].\"box\"[1] 257 is outside 1..256"},
      {"[64, 128]", "[64.5, 128]", "\"tensormaps\"[0].\"box\"[0] is not an integer, not a box extent"},
      {"[64, 128]", "[\"64\", 128]", "\"tensormaps\"[0].\"box\"[0] is a string, not a box extent"},
      {"[64, 128]", "[4, 128]",
       "\"tensormaps\"[0].\"box\"[0] 4 of f16 is 8 bytes, not a multiple of 16 (as TMA requires)"},
      {"\"box\": [64, 128], ", "", "missing \"box\" in \"tensormaps\"[0]"},
      {"\"swizzle\": 128", "\"swizzle\": 16", "\"tensormaps\"[0].\"swizzle\" 16 is not 0, 32, 64 or 128"},
      {"\"swizzle\": 128", "\"swizzle\": 64",
       "\"tensormaps\"[0].\"box\"[0] 64 of f16 is 128 bytes, more than the 64-byte swizzle span"},
      {"\"swizzle\": 128", "\"swizzle\": \"128B\"", "\"swizzle\" in \"tensormaps\"[0] should be a number"},
      {"\"l2_promotion\": 256", "\"l2_promotion\": 32",
       "\"tensormaps\"[0].\"l2_promotion\" 32 is not 0, 64, 128 or 256"},
      {"\"oob_fill\": \"nan\"", "\"oob_fill\": \"inf\"", "\"tensormaps\"[0].\"oob_fill\" \"inf\" is not \"zero\" or \"nan\""},
      {"\"oob_fill\": \"nan\"", "\"oob_fill\": 0", "\"oob_fill\" in \"tensormaps\"[0] should be a string"},
      {"\"box\": [32]}", "\"box\": [32, 1]}", "\"tensormaps\"[1].\"box\" has 2 entries; \"dims\" has 1"},
      {"{\"param\": \"c\", \"dtype\": \"f32\", \"dims\": [\"BM\"], \"strides_bytes\": [],\n                  \"box\": [32]}",
       "{\"param\": \"q\", \"dtype\": \"i8\", \"dims\": [\"BM\"], \"strides_bytes\": [], \"box\": [64], "
       "\"oob_fill\": \"nan\"}",
       "\"tensormaps\"[1].\"oob_fill\" \"nan\" needs a floating-point dtype (f16, bf16, f32, f64), not i8"},
  };
  for (const Case& c : cases) {
    std::string e = errorOf(withMaps(c.from, c.to));
    EXPECT_NE(e.find(c.message), std::string::npos) << c.from << " -> " << c.to << ": " << e;
    EXPECT_NE(e.find("reading kernel metadata k.json"), std::string::npos) << e;
  }
  // What a generated header gives its kernel (EmbeddedKernel::setTensorMaps): the same
  // checks, naming where it comes from.
  tcc::KernelMetadata spec = tcc::parseTensorMapSpec(
      "{\"params\": [{\"name\": \"x\", \"type\": \"*bf16\"}, {\"name\": \"n\", \"type\": \"i64\"}],"
      " \"constexprs\": {\"B\": 8}, \"tensormaps\": [{\"param\": \"x\", \"dtype\": \"bf16\", "
      "\"dims\": [\"n\", \"B\", \"2\"], \"strides_bytes\": [\"n * 2\", \"n * 16\"], "
      "\"box\": [8, 8, 1]}]}",
      "the header");
  ASSERT_EQ(spec.tensorMaps.size(), 1u);
  EXPECT_EQ(spec.tensorMaps[0].dims.size(), 3u);
  EXPECT_EQ(spec.constexprs.size(), 1u);
  std::string e;
  try {
    tcc::parseTensorMapSpec("{\"params\": [], \"tensormaps\": [{\"param\": \"x\"}]}", "the header");
  } catch (const tcc::Error& err) {
    e = err.what();
  }
  EXPECT_EQ(e, "tcc: reading kernel metadata the header: \"tensormaps\"[0].\"param\" names 'x', "
               "which is not a parameter");
}

// docs/autotuning.md: "num_stages" (absent in older files: 0) and a configuration's
// "autotune" object.
const char* kAutotune = R"json("autotune": {"space": "9f3c2a17d0e4b5c6", "index": 1, "count": 3,
  "key": ["n"], "writes": ["out"], "restore": ["out", "y"]})json";

std::string withAutotune(const std::string& from = "", const std::string& to = "") {
  std::string a = kAutotune;
  if (!from.empty()) {
    size_t p = a.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    if (p != std::string::npos)
      a.replace(p, from.size(), to);
  }
  return with("\"future_key\"", a + ", \"future_key\"");
}

TEST(RuntimeMetadata, NumStagesIsOptionalAndDescribesTheConfiguration) {
  tcc::KernelMetadata m = tcc::parseMetadata(kValid, "k.json", "");
  EXPECT_EQ(m.numStages, 0);
  EXPECT_EQ(m.configString(), "BLOCK=1024, num_warps=4");
  m = tcc::parseMetadata(with("\"num_warps\": 4", "\"num_warps\": 4, \"num_stages\": 3"),
                         "k.json", "");
  EXPECT_EQ(m.numStages, 3);
  EXPECT_EQ(m.configString(), "BLOCK=1024, num_warps=4, num_stages=3");
  m = tcc::parseMetadata(with("\"num_warps\": 4", "\"num_warps\": 4, \"num_stages\": 0"),
                         "k.json", "");
  EXPECT_EQ(m.configString(), "BLOCK=1024, num_warps=4");
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": 4, \"num_stages\": -1"))
                .find("\"num_stages\" -1 is outside 0..64"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": 4, \"num_stages\": 65"))
                .find("outside 0..64"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": 4, \"num_stages\": \"3\""))
                .find("\"num_stages\" should be a number"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": 4, \"num_stages\": 2.5"))
                .find("\"num_stages\" should be an integer"),
            std::string::npos);
}

// A warp-specialised kernel launches its producer warpgroup beside num_warps consumer
// warps: the block is 32 * (num_warps + producer_warps) threads; the configuration is the
// user's num_warps.
TEST(RuntimeMetadata, ProducerWarpsWidenTheBlock) {
  tcc::KernelMetadata m = tcc::parseMetadata(kValid, "k.json", "");
  EXPECT_EQ(m.producerWarps, 0);
  m = tcc::parseMetadata(with("\"num_warps\": 4", "\"num_warps\": 8, \"producer_warps\": 4"),
                         "k.json", "");
  EXPECT_EQ(m.numWarps, 8);
  EXPECT_EQ(m.producerWarps, 4);
  EXPECT_EQ(m.threadsPerBlock(), 384);
  EXPECT_EQ(m.configString(), "BLOCK=1024, num_warps=8");
  m = tcc::parseMetadata(with("\"num_warps\": 4", "\"num_warps\": 8, \"producer_warps\": 4, "
                                                   "\"threads_per_block\": 384"),
                         "k.json", "");
  EXPECT_EQ(m.threadsPerBlock(), 384);
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": 8, \"producer_warps\": 4, "
                                              "\"threads_per_block\": 256"))
                .find("\"threads_per_block\" 256 is not 32 * (num_warps + producer_warps)"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": 8, \"producer_warps\": 2"))
                .find("\"producer_warps\" 2 is neither 0 nor 4 (one warpgroup)"),
            std::string::npos);
  EXPECT_NE(errorOf(with("\"num_warps\": 4", "\"num_warps\": 32, \"producer_warps\": 4"))
                .find("is 36, more than a block's 32 warps"),
            std::string::npos);
}

TEST(RuntimeMetadata, ParsesAutotune) {
  tcc::KernelMetadata m = tcc::parseMetadata(kValid, "k.json", "");
  EXPECT_FALSE(m.autotune.has_value());
  m = tcc::parseMetadata(withAutotune(), "k.json", "");
  ASSERT_TRUE(m.autotune.has_value());
  const tcc::AutotuneInfo& a = *m.autotune;
  EXPECT_EQ(a.space, "9f3c2a17d0e4b5c6");
  EXPECT_EQ(a.index, 1);
  EXPECT_EQ(a.count, 3);
  EXPECT_EQ(a.key, std::vector<std::string>{"n"});
  EXPECT_EQ(a.keyParams, std::vector<size_t>{3});
  EXPECT_EQ(a.writes, std::vector<std::string>{"out"});
  EXPECT_EQ(a.writesParams, std::vector<size_t>{2});
  EXPECT_EQ(a.restore, (std::vector<std::string>{"out", "y"}));
  EXPECT_EQ(a.restoreParams, (std::vector<size_t>{2, 1}));
  // Empty lists are allowed (a key of nothing: one choice per device); unknown fields of
  // the object are ignored; upper-case hex digits are hex digits.
  m = tcc::parseMetadata(withAutotune("\"key\": [\"n\"]", "\"key\": [], \"later\": {}"), "k.json", "");
  EXPECT_TRUE(m.autotune->key.empty());
  m = tcc::parseMetadata(withAutotune("9f3c2a17d0e4b5c6", "9F3C2A17D0E4B5C6"), "k.json", "");
  EXPECT_EQ(m.autotune->space, "9F3C2A17D0E4B5C6");
}

TEST(RuntimeMetadata, RejectsEveryMalformedAutotune) {
  struct Case {
    std::string from, to, message;
  };
  const std::vector<Case> cases = {
      {"", "", ""}, // placeholder replaced below
      {"\"space\": \"9f3c2a17d0e4b5c6\", ", "", "missing \"space\" in \"autotune\""},
      {"\"9f3c2a17d0e4b5c6\"", "12", "\"space\" in \"autotune\" should be a string"},
      {"9f3c2a17d0e4b5c6", "9f3c2a17d0e4b5c", "\"autotune\".\"space\" \"9f3c2a17d0e4b5c\" is not 16 hex digits"},
      {"9f3c2a17d0e4b5c6", "9f3c2a17d0e4b5c67", "is not 16 hex digits"},
      {"9f3c2a17d0e4b5c6", "9g3c2a17d0e4b5c6", "is not 16 hex digits"},
      {"\"index\": 1, ", "", "missing \"index\" in \"autotune\""},
      {"\"index\": 1", "\"index\": 3", "\"autotune\".\"index\" 3 is outside 0..2 (\"count\" is 3)"},
      {"\"index\": 1", "\"index\": -1", "\"autotune\".\"index\" -1 is outside 0..2"},
      {"\"index\": 1", "\"index\": 1.5", "\"index\" in \"autotune\" should be an integer"},
      {"\"index\": 1", "\"index\": \"1\"", "\"index\" in \"autotune\" should be a number"},
      {"\"count\": 3,", "", "missing \"count\" in \"autotune\""},
      {"\"count\": 3", "\"count\": 0", "\"autotune\".\"count\" 0 is outside 1..1000000"},
      {"\"key\": [\"n\"], ", "", "missing \"key\" in \"autotune\""},
      {"\"key\": [\"n\"]", "\"key\": \"n\"", "\"key\" in \"autotune\" should be an array"},
      {"\"key\": [\"n\"]", "\"key\": [3]", "\"autotune\".\"key\"[0] is a number, not a parameter name"},
      {"\"key\": [\"n\"]", "\"key\": [\"m\"]", "\"autotune\".\"key\" names 'm', which is not a parameter"},
      {"\"key\": [\"n\"]", "\"key\": [\"x\"]", "\"autotune\".\"key\" names 'x' (*f32), which is not an integer scalar parameter"},
      {"\"key\": [\"n\"]", "\"key\": [\"n\", \"n\"]", "\"autotune\".\"key\" names 'n' twice"},
      {"\"writes\": [\"out\"], ", "", "missing \"writes\" in \"autotune\""},
      {"\"writes\": [\"out\"]", "\"writes\": [\"n\"]", "\"autotune\".\"writes\" names 'n' (i32), which is not a pointer parameter"},
      {"\"writes\": [\"out\"]", "\"writes\": [\"z\"]", "\"autotune\".\"writes\" names 'z', which is not a parameter"},
      {"\"writes\": [\"out\"]", "\"writes\": [null]", "\"autotune\".\"writes\"[0] is null, not a parameter name"},
      {"\"restore\": [\"out\", \"y\"]", "", "missing \"restore\" in \"autotune\""},
      {"\"restore\": [\"out\", \"y\"]", "\"restore\": [\"out\", \"n\"]", "\"autotune\".\"restore\" names 'n' (i32), which is not a pointer parameter"},
      {"\"restore\": [\"out\", \"y\"]", "\"restore\": [\"y\", \"y\"]", "\"autotune\".\"restore\" names 'y' twice"},
      {"\"restore\": [\"out\", \"y\"]", "\"restore\": {}", "\"restore\" in \"autotune\" should be an array"},
  };
  for (size_t i = 1; i < cases.size(); ++i) {
    const Case& c = cases[i];
    std::string text = withAutotune(c.from, c.to);
    // A removed last member leaves a trailing comma: drop it.
    size_t comma = text.find(", }");
    if (comma != std::string::npos)
      text.erase(comma, 1);
    std::string e = errorOf(text);
    EXPECT_NE(e.find(c.message), std::string::npos) << c.from << " -> " << c.to << ": " << e;
    EXPECT_NE(e.find("k.json"), std::string::npos) << e;
  }
  EXPECT_NE(errorOf(with("\"future_key\"", "\"autotune\": [1], \"future_key\""))
                .find("\"autotune\" should be an object"),
            std::string::npos);
}

} // namespace
