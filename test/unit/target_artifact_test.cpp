// The contract between the compiler's artifact writer (compiler/Target/ArtifactWriter.h) and
// the runtime's metadata reader: what tcc::writeArtifact writes, the runtime reads back
// unchanged; and what the writer refuses to write.
#include "ArtifactWriter.h"

#include "tcc/json.h"
#include "tcc/metadata.h"

#include <filesystem>
#include <gtest/gtest.h>

#include "temp_dir.h"

#include <cmath>
#include <cstdlib>
#include <unistd.h>

namespace {

using tcctest::TempDir;

tcc::KernelArtifact sampleArtifact() {
  tcc::KernelArtifact a;
  a.name = "vector_add";
  a.params = {{"x", "*f32", 16}, {"y", "*f32", 16}, {"out", "*f32", 16}, {"n", "i32", 16}};
  a.constexprs = {{"BLOCK", 1024}, tcc::KernelConstexpr::boolean("RELU", true),
                  tcc::KernelConstexpr::number("SCALE", 0.25),
                  tcc::KernelConstexpr::string("ACT", "relu")};
  a.numWarps = 8;
  a.sharedBytes = 512;
  a.grid = {"cdiv(n, BLOCK)", "1", "1"};
  a.arch = "sm_90a";
  a.cubin = std::string("\x7f" "ELF fake cubin \0 with a NUL", 27);
  a.ptx = ".version 8.0\n";
  a.source = "lang-examples/vector_add.tile";
  a.compiler = "tcc test \"quoted\"";
  return a;
}

// A warp-specialised kernel: "producer_warps" written, the block widened, read back.
TEST(ArtifactContract, ProducerWarpsReadBack) {
  TempDir dir;
  tcc::KernelArtifact a = sampleArtifact();
  a.producerWarps = 4;
  std::string err;
  tcc::WrittenArtifact w;
  ASSERT_TRUE(tcc::writeArtifact(a, dir.path() + "/vector_add.cubin", &err, &w)) << err;
  tcc::json::Value written = tcc::json::parse(tcc::readFile(w.metadataPath, "metadata"));
  ASSERT_NE(written.find("producer_warps"), nullptr);
  EXPECT_EQ(written.find("producer_warps")->asInt(), 4);
  EXPECT_EQ(written.find("threads_per_block")->asInt(), 384);
  tcc::KernelMetadata m = tcc::loadMetadataFile(w.metadataPath);
  EXPECT_EQ(m.numWarps, 8);
  EXPECT_EQ(m.producerWarps, 4);
  EXPECT_EQ(m.threadsPerBlock(), 384);
  // An ordinary kernel writes no "producer_warps".
  TempDir other;
  a.producerWarps = 0;
  ASSERT_TRUE(tcc::writeArtifact(a, other.path() + "/vector_add.cubin", &err, &w)) << err;
  written = tcc::json::parse(tcc::readFile(w.metadataPath, "metadata"));
  EXPECT_EQ(written.find("producer_warps"), nullptr);
}

TEST(ArtifactContract, WriterOutputReadsBackUnchanged) {
  TempDir dir;
  tcc::KernelArtifact a = sampleArtifact();
  std::string err;
  tcc::WrittenArtifact w;
  std::string cubinPath = dir.path() + "/vector_add" + tcc::variantSuffix(a.params) + ".cubin";
  ASSERT_TRUE(tcc::writeArtifact(a, cubinPath, &err, &w)) << err;
  EXPECT_EQ(w.metadataPath, dir.path() + "/vector_add.d16_d16_d16_d16.json");
  EXPECT_EQ(w.ptxPath, dir.path() + "/vector_add.d16_d16_d16_d16.ptx");
  EXPECT_EQ(tcc::readFile(w.cubinPath, "cubin"), a.cubin);
  // threads_per_block: the target's threads per warp times num_warps (8).
  tcc::json::Value written = tcc::json::parse(tcc::readFile(w.metadataPath, "metadata"));
  ASSERT_NE(written.find("threads_per_block"), nullptr);
  EXPECT_EQ(written.find("threads_per_block")->asInt(), 256);
  EXPECT_EQ(tcc::readFile(w.ptxPath, "ptx"), a.ptx);

  tcc::KernelMetadata m = tcc::loadMetadataFile(w.metadataPath);
  EXPECT_EQ(m.name, a.name);
  EXPECT_EQ(m.entry, a.name);
  EXPECT_EQ(m.arch, "sm_90a");
  EXPECT_TRUE(m.archSpecific);
  EXPECT_EQ(m.cubinPath, w.cubinPath);
  EXPECT_EQ(m.ptxPath, w.ptxPath);
  EXPECT_EQ(m.numWarps, 8);
  EXPECT_EQ(m.sharedBytes, 512);
  ASSERT_EQ(m.params.size(), a.params.size());
  for (size_t i = 0; i < a.params.size(); ++i) {
    EXPECT_EQ(m.params[i].name, a.params[i].name);
    EXPECT_EQ(m.params[i].type, a.params[i].type);
    EXPECT_EQ(m.params[i].divisibility, a.params[i].divisibility);
  }
  // Every kind of constexpr reads back as written, in order, and prints as in a header.
  ASSERT_EQ(m.constexprs.size(), a.constexprs.size());
  for (size_t i = 0; i < a.constexprs.size(); ++i) {
    EXPECT_EQ(m.constexprs[i].first, a.constexprs[i].name);
    EXPECT_EQ(m.constexprs[i].second.toString(), a.constexprs[i].display());
  }
  EXPECT_EQ(m.constexprs[0].second, tcc::ConstexprValue(1024));
  EXPECT_EQ(m.constexprs[1].second, tcc::ConstexprValue(true));
  EXPECT_EQ(m.constexprs[2].second, tcc::ConstexprValue(0.25));
  EXPECT_EQ(m.constexprs[3].second, tcc::ConstexprValue("relu"));
  EXPECT_EQ(m.configString(), "BLOCK=1024, RELU=True, SCALE=0.25, ACT=\"relu\", num_warps=8");
  for (int d = 0; d < 3; ++d)
    EXPECT_EQ(m.grid[d], a.grid[d]);
  EXPECT_EQ(m.source, a.source);
  EXPECT_EQ(m.compiler, a.compiler);
  EXPECT_TRUE(tcc::isKernelMetadataFile(w.metadataPath));
  EXPECT_FALSE(tcc::isKernelMetadataFile(w.cubinPath));
}

TEST(ArtifactContract, GeneralVariantHasNoSuffixAndNoPtxFile) {
  TempDir dir;
  tcc::KernelArtifact a = sampleArtifact();
  for (auto& p : a.params)
    p.divisibility = 1;
  a.ptx.clear();
  EXPECT_EQ(tcc::variantSuffix(a.params), "");
  a.params[0].divisibility = 16;
  EXPECT_EQ(tcc::variantSuffix(a.params), ".d16___");
  a.params[0].divisibility = 1;
  std::string err;
  tcc::WrittenArtifact w;
  ASSERT_TRUE(tcc::writeArtifact(a, dir.path() + "/k.cubin", &err, &w)) << err;
  EXPECT_EQ(w.ptxPath, "");
  tcc::KernelMetadata m = tcc::loadMetadataFile(w.metadataPath);
  EXPECT_EQ(m.specialisationScore(), 0);
  EXPECT_EQ(m.ptxPath, "");
}

TEST(ArtifactContract, EqualToOneRoundTrips) {
  TempDir dir;
  tcc::KernelArtifact a = sampleArtifact();
  for (auto& p : a.params)
    p.divisibility = 1;
  a.params[3].equalToOne = true; // n == 1
  a.params[0].divisibility = 16;
  EXPECT_EQ(tcc::variantSuffix(a.params), ".d16___e1");
  EXPECT_EQ(tcc::specialisationScore(a.params), 4 + tcc::kEqualToOneScore);
  tcc::json::Value n = tcc::json::parse(tcc::artifactMetadataJson(a, "k.cubin"))
                          .find("params")->items().at(3);
  EXPECT_EQ(tcc::json::write(n, 0), "{\"name\":\"n\",\"type\":\"i32\",\"equal_to\":1}");
  std::string err;
  tcc::WrittenArtifact w;
  ASSERT_TRUE(tcc::writeArtifact(a, dir.path() + "/k" + tcc::variantSuffix(a.params) + ".cubin", &err, &w))
      << err;
  tcc::KernelMetadata m = tcc::loadMetadataFile(w.metadataPath);
  EXPECT_TRUE(m.params[3].equalToOne);
  EXPECT_FALSE(m.params[0].equalToOne);
  EXPECT_EQ(m.specialisationScore(), tcc::specialisationScore(a.params));
  EXPECT_EQ(m.specialisationString(), "x%16, n==1");
  // Integers only, and not together with a divisibility.
  tcc::KernelArtifact b = a;
  b.params[0].equalToOne = true;
  EXPECT_NE(tcc::validateArtifact(b).find("integers only"), std::string::npos);
  b = a;
  b.params[3].divisibility = 16;
  EXPECT_NE(tcc::validateArtifact(b).find("both equal to 1"), std::string::npos);
}

// Numbers keep their kind through the metadata (a whole number is written 3.0, not the
// integer 3) in the shortest spelling that reads back exactly; infinities and NaN, which JSON
// lacks, are the strings a header's comment shows; quotes, backslashes and control characters
// of a string are escaped in the metadata and in the header's comment alike; bytes that are not UTF-8 (a
// Latin-1 path) become U+FFFD, so that the file stays JSON.
TEST(ArtifactContract, ConstexprValuesReadBackWithTheirKinds) {
  tcc::KernelArtifact a = sampleArtifact();
  a.constexprs = {{"BLOCK", 1024}, tcc::KernelConstexpr::number("WHOLE", 3.0),
                  tcc::KernelConstexpr::number("TENTH", 0.1),
                  tcc::KernelConstexpr::number("BIG", 1e300),
                  tcc::KernelConstexpr::number("NEGZERO", -0.0),
                  tcc::KernelConstexpr::number("INF", HUGE_VAL),
                  tcc::KernelConstexpr::string("TEXT", "a\"b\\c\nd\te\x01")};
  a.source = "caf\xe9.tile";
  std::string text = tcc::artifactMetadataJson(a, "k.cubin");
  for (const char* spelled : {"\"WHOLE\": 3.0", "\"TENTH\": 0.1", "\"BIG\": 1e+300",
                              "\"NEGZERO\": -0.0", "\"INF\": \"inf\""})
    EXPECT_NE(text.find(spelled), std::string::npos) << spelled << " in\n" << text;
  tcc::KernelMetadata m = tcc::parseMetadata(text, "k.json", "");
  ASSERT_EQ(m.constexprs.size(), a.constexprs.size());
  EXPECT_EQ(m.constexprs[1].second, tcc::ConstexprValue(3.0));
  EXPECT_EQ(m.constexprs[2].second, tcc::ConstexprValue(0.1));
  EXPECT_EQ(m.constexprs[3].second, tcc::ConstexprValue(1e300));
  EXPECT_EQ(m.constexprs[4].second.kind(), tcc::ConstexprValue::Kind::Float);
  EXPECT_TRUE(std::signbit(m.constexprs[4].second.asDouble()));
  EXPECT_EQ(m.constexprs[5].second, tcc::ConstexprValue("inf"));
  EXPECT_EQ(m.constexprs[6].second, tcc::ConstexprValue(a.constexprs[6].text));
  EXPECT_EQ(a.constexprs[6].display(), "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
  EXPECT_EQ(m.source, "caf\xef\xbf\xbd.tile");
}

// --check-bounds (docs/artifacts.md): "check_bounds" written and read back; the extents must
// name the pointer parameters in order.
TEST(ArtifactContract, CheckBoundsRoundTrips) {
  TempDir dir;
  tcc::KernelArtifact a = sampleArtifact();
  a.checkBounds = tcc::KernelBoundsCheck{{"x", "y", "out"}, 2};
  tcc::json::Value written = tcc::json::parse(tcc::artifactMetadataJson(a, "k.cubin"));
  const tcc::json::Value* check = written.find("check_bounds");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(tcc::json::write(*check, 0),
            "{\"extents\":[\"x\",\"y\",\"out\"],\"record_bytes\":40,\"unchecked\":2}");
  std::string err;
  tcc::WrittenArtifact w;
  ASSERT_TRUE(tcc::writeArtifact(a, dir.path() + "/k.cubin", &err, &w)) << err;
  tcc::KernelMetadata m = tcc::loadMetadataFile(w.metadataPath);
  ASSERT_TRUE(m.checkBounds.has_value());
  EXPECT_EQ(m.checkBounds->extents, a.checkBounds->extents);
  EXPECT_EQ(m.checkBounds->extentParams, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(m.checkBounds->recordBytes, tcc::kBoundsRecordBytes);
  EXPECT_EQ(m.checkBounds->unchecked, 2);
  EXPECT_EQ(m.params.size(), 4u);
  EXPECT_FALSE(tcc::loadMetadataFile(w.metadataPath).autotune.has_value());
  tcc::KernelArtifact b = a;
  b.checkBounds->extents = {"x", "out"};
  EXPECT_NE(tcc::validateArtifact(b).find("check_bounds extents must name the pointer parameters"),
            std::string::npos);
  b = a;
  b.checkBounds->unchecked = -1;
  EXPECT_NE(tcc::validateArtifact(b).find("is negative"), std::string::npos);
  b = a;
  b.checkBounds.reset();
  EXPECT_EQ(tcc::artifactMetadataJson(b, "k.cubin").find("check_bounds"), std::string::npos);
}

// TMA tensor maps (docs/artifacts.md, "tensormaps"): written as version 2 and read back as
// written; an artifact without them is version 1, with no trace of them.
tcc::KernelArtifact tensorMapArtifact() {
  tcc::KernelArtifact a = sampleArtifact();
  a.tensorMaps = {{"x", "f32", {"n", "BLOCK"}, {"n * 4"}, {32, 8}, 128, 256, "nan"},
                  {"out", "f32", {"n"}, {}, {64}, 0, 0, "zero"}};
  return a;
}

TEST(ArtifactContract, TensorMapsRoundTripAsVersion2) {
  TempDir dir;
  tcc::KernelArtifact a = tensorMapArtifact();
  EXPECT_EQ(tcc::validateArtifact(a), "");
  tcc::json::Value written = tcc::json::parse(tcc::artifactMetadataJson(a, "k.cubin"));
  EXPECT_EQ(written.find("version")->asInt(), 2);
  ASSERT_NE(written.find("tensormaps"), nullptr);
  EXPECT_EQ(tcc::json::write(*written.find("tensormaps"), 0),
            "[{\"param\":\"x\",\"dtype\":\"f32\",\"dims\":[\"n\",\"BLOCK\"],\"strides_bytes\":"
            "[\"n * 4\"],\"box\":[32,8],\"swizzle\":128,\"l2_promotion\":256,\"oob_fill\":\"nan\"},"
            "{\"param\":\"out\",\"dtype\":\"f32\",\"dims\":[\"n\"],\"strides_bytes\":[],\"box\":"
            "[64],\"swizzle\":0,\"l2_promotion\":0,\"oob_fill\":\"zero\"}]");
  std::string err;
  tcc::WrittenArtifact w;
  ASSERT_TRUE(tcc::writeArtifact(a, dir.path() + "/k.cubin", &err, &w)) << err;
  tcc::KernelMetadata m = tcc::loadMetadataFile(w.metadataPath);
  ASSERT_EQ(m.tensorMaps.size(), a.tensorMaps.size());
  for (size_t i = 0; i < a.tensorMaps.size(); ++i) {
    const tcc::KernelTensorMap& t = a.tensorMaps[i];
    const tcc::TensorMapInfo& r = m.tensorMaps[i];
    EXPECT_EQ(r.param, t.param);
    EXPECT_EQ(m.params[r.paramIndex].name, t.param);
    EXPECT_EQ(r.dtype, t.dtype);
    EXPECT_EQ(r.elementBytes, 4);
    EXPECT_EQ(r.dims, t.dims);
    EXPECT_EQ(r.stridesBytes, t.stridesBytes);
    EXPECT_EQ(r.box, t.box);
    EXPECT_EQ(r.swizzle, t.swizzle);
    EXPECT_EQ(r.l2Promotion, t.l2Promotion);
    EXPECT_EQ(r.oobFillNan, t.oobFill == "nan");
  }
  // The spec a generated header gives its kernel: the same params, constexprs and maps.
  std::string spec = tcc::artifacts::tensorMapSpecJson(a);
  EXPECT_EQ(spec.find('\n'), std::string::npos) << spec;
  tcc::KernelMetadata s = tcc::parseTensorMapSpec(spec, "spec");
  EXPECT_EQ(s.params.size(), a.params.size());
  EXPECT_EQ(s.constexprs.size(), a.constexprs.size());
  ASSERT_EQ(s.tensorMaps.size(), 2u);
  EXPECT_EQ(s.tensorMaps[0].dims, a.tensorMaps[0].dims);
  EXPECT_EQ(tcc::artifacts::tensorMapSpecJson(sampleArtifact()), "");
}

// Without tensor maps nothing changes: the metadata of vector_add as version 1 wrote it.
TEST(ArtifactContract, WithoutTensorMapsTheMetadataIsVersion1AsBefore) {
  tcc::KernelArtifact a;
  a.name = "vector_add";
  a.params = {{"x", "*f32", 16}, {"n", "i32"}};
  a.constexprs = {{"BLOCK", 1024}};
  a.grid = {"cdiv(n, BLOCK)", "1", "1"};
  a.numStages = 3;
  a.cubin = "c";
  a.source = "lang-examples/vector_add.tile";
  a.compiler = "tcc 0.1";
  EXPECT_EQ(tcc::artifactMetadataJson(a, "vector_add.cubin", "vector_add.ptx"),
            R"json({
  "format": "tcc-kernel",
  "version": 1,
  "name": "vector_add",
  "entry": "vector_add",
  "arch": "sm_90",
  "cubin": "vector_add.cubin",
  "ptx": "vector_add.ptx",
  "num_warps": 4,
  "threads_per_block": 128,
  "shared_bytes": 0,
  "num_stages": 3,
  "grid": [
    "cdiv(n, BLOCK)",
    "1",
    "1"
  ],
  "params": [
    {
      "name": "x",
      "type": "*f32",
      "divisibility": 16
    },
    {
      "name": "n",
      "type": "i32"
    }
  ],
  "constexprs": {
    "BLOCK": 1024
  },
  "source": "lang-examples/vector_add.tile",
  "compiler": "tcc 0.1"
}
)json");
}

TEST(ArtifactContract, WriterValidatesTensorMaps) {
  auto invalid = [](auto mutate) {
    tcc::KernelArtifact a = tensorMapArtifact();
    mutate(a.tensorMaps[0]);
    return tcc::validateArtifact(a);
  };
  using M = tcc::KernelTensorMap;
  const std::string k = "kernel 'vector_add': tensor map 0 ('x'): ";
  EXPECT_EQ(invalid([](M&) {}), "");
  EXPECT_EQ(invalid([](M& t) { t.param = "n"; }), "kernel 'vector_add': tensor map 0 ('n'): "
                                                   "'n' is not a pointer parameter");
  EXPECT_EQ(invalid([](M& t) { t.param = "z"; }), "kernel 'vector_add': tensor map 0 ('z'): "
                                                   "'z' is not a pointer parameter");
  EXPECT_EQ(invalid([](M& t) { t.dtype = "f8"; }), k + "dtype 'f8' is not a tensor map element type");
  EXPECT_EQ(invalid([](M& t) { t.dtype = "f16"; }),
            k + "dtype f16 is not the element type of 'x' (*f32)");
  EXPECT_EQ(invalid([](M& t) { t.dims.clear(); }), k + "rank 0 is outside 1..5");
  EXPECT_EQ(invalid([](M& t) { t.dims.assign(6, "n"); }), k + "rank 6 is outside 1..5");
  EXPECT_EQ(invalid([](M& t) { t.stridesBytes.clear(); }),
            k + "0 strides for rank 2 (the byte strides of dims 1..: 1)");
  EXPECT_EQ(invalid([](M& t) { t.box = {32}; }), k + "1 box extents for rank 2");
  EXPECT_EQ(invalid([](M& t) { t.box = {32, 0}; }), k + "box[1] 0 is outside 1..256");
  EXPECT_EQ(invalid([](M& t) { t.box = {32, 257}; }), k + "box[1] 257 is outside 1..256");
  EXPECT_EQ(invalid([](M& t) { t.box = {2, 8}; }),
            k + "the inner box (box[0] 2 of f32, 8 bytes) is not a multiple of 16 bytes");
  EXPECT_EQ(invalid([](M& t) { t.swizzle = 64; }),
            k + "the inner box (box[0] 32 of f32, 128 bytes) is wider than the 64-byte swizzle");
  EXPECT_EQ(invalid([](M& t) { t.swizzle = 16; }), k + "swizzle 16 is not 0, 32, 64 or 128");
  EXPECT_EQ(invalid([](M& t) { t.l2Promotion = 32; }), k + "l2Promotion 32 is not 0, 64, 128 or 256");
  EXPECT_EQ(invalid([](M& t) { t.oobFill = "inf"; }), k + "oobFill 'inf' is not \"zero\" or \"nan\"");
  EXPECT_EQ(invalid([](M& t) { t.dims[1] = "cdiv(n, BLOCK"; })
                .find("kernel 'vector_add': tensor map 0 dims[1]: grid expression"),
            0u);
  EXPECT_EQ(invalid([](M& t) { t.dims[1] = "M"; }),
            "kernel 'vector_add': tensor map 0 dims[1] 'M' uses unknown name 'M'");
  EXPECT_EQ(invalid([](M& t) { t.dims[1] = "num_sms"; }),
            "kernel 'vector_add': tensor map 0 dims[1] 'num_sms' uses unknown name 'num_sms'");
  EXPECT_EQ(invalid([](M& t) { t.stridesBytes[0] = "y * 4"; }),
            "kernel 'vector_add': tensor map 0 stridesBytes[0] 'y * 4' uses 'y', which is not an "
            "integer parameter");
  EXPECT_EQ(invalid([](M& t) { t.stridesBytes[0] = "SCALE"; }),
            "kernel 'vector_add': tensor map 0 stridesBytes[0] 'SCALE' uses 'SCALE', which is not "
            "an integer constexpr");
  tcc::KernelArtifact ints = tensorMapArtifact();
  ints.params[0].type = "*i8";
  ints.tensorMaps[0].dtype = "i8";
  ints.tensorMaps[0].box = {128, 8};
  ints.tensorMaps[0].oobFill = "nan";
  EXPECT_EQ(tcc::validateArtifact(ints),
            k + "oobFill \"nan\" needs a floating-point dtype, not i8");
  std::string err;
  EXPECT_FALSE(tcc::writeArtifact(ints, "/tmp/never-written.cubin", &err));
  EXPECT_NE(err.find("oobFill"), std::string::npos) << err;
}

TEST(ArtifactContract, WriterValidates) {
  auto invalid = [](auto mutate) {
    tcc::KernelArtifact a = sampleArtifact();
    mutate(a);
    return tcc::validateArtifact(a);
  };
  EXPECT_EQ(invalid([](tcc::KernelArtifact&) {}), "");
  EXPECT_NE(invalid([](auto& a) { a.name = "1bad"; }).find("not an identifier"), std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.params[1].type = "*f33"; }).find("unknown type"), std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.params[1].divisibility = 3; }).find("power of two"), std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.params[1].name = "x"; }).find("appears twice"), std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.numWarps = 0; }).find("num_warps"), std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.threadsPerWarp = 64; }).find("threads per warp 64"),
            std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.sharedBytes = 1 << 20; }).find("shared memory"), std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.arch = "90"; }).find("architecture"), std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.grid[0] = "cdiv(n, BLOCK"; }).find("grid[0]"), std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.grid[1] = "x"; }).find("not an integer parameter"), std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.grid[2] = "M"; }).find("unknown name 'M'"), std::string::npos);
  EXPECT_EQ(invalid([](auto& a) { a.cubin.clear(); }), ""); // PTX only
  EXPECT_NE(invalid([](auto& a) {
              a.cubin.clear();
              a.ptx.clear();
            }).find("neither a cubin nor PTX"),
            std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.constexprs.push_back({"n", 1}); }).find("both a parameter"),
            std::string::npos);
  EXPECT_NE(invalid([](auto& a) { a.constexprs.push_back({"BLOCK", 2}); })
                .find("constexpr 'BLOCK' appears twice"),
            std::string::npos);
  std::string err;
  tcc::KernelArtifact bad = sampleArtifact();
  bad.numWarps = 99;
  EXPECT_FALSE(tcc::writeArtifact(bad, "/tmp/never-written.cubin", &err));
  EXPECT_NE(err.find("vector_add"), std::string::npos);
  EXPECT_FALSE(tcc::writeArtifact(sampleArtifact(), "/nonexistent-dir/k.cubin", &err));
  EXPECT_NE(err.find("cannot write"), std::string::npos);
}

} // namespace
