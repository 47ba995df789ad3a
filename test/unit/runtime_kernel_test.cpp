// Everything a launch decides before it reaches the driver, on the CPU: argument checks,
// variant choice, grid computation, kernel lookup by name and configuration.
#include "tcc/cubin.h"
#include "tcc/runtime.h"

#include <gtest/gtest.h>

#include "fake_elf.h"

#include <cstdlib>
#include <functional>
#include <limits>

namespace {

tcc::KernelMetadata meta(int block, int warps, int divisibility, bool nDivisible = true,
                         const std::string& name = "vector_add",
                         const std::string& arch = "sm_90") {
  std::string d = divisibility > 1 ? ", \"divisibility\": " + std::to_string(divisibility) : "";
  std::string dn = nDivisible ? d : "";
  std::string text = "{\"format\": \"tcc-kernel\", \"version\": 1, \"name\": \"" + name +
                     "\", \"arch\": \"" + arch + "\", \"cubin\": \"k.cubin\", \"num_warps\": " +
                     std::to_string(warps) + ", \"grid\": [\"cdiv(n, BLOCK)\", \"1\", \"1\"], " +
                     "\"params\": [{\"name\": \"x\", \"type\": \"*f32\"" + d +
                     "}, {\"name\": \"y\", \"type\": \"*f32\"" + d +
                     "}, {\"name\": \"out\", \"type\": \"*f32\"" + d +
                     "}, {\"name\": \"n\", \"type\": \"i32\"" + dn + "}], " +
                     "\"constexprs\": {\"BLOCK\": " + std::to_string(block) + "}}";
  return tcc::parseMetadata(text, name + "_" + std::to_string(block) + "_" +
                                      std::to_string(warps) + "_" + std::to_string(divisibility) +
                                      "_" + arch,
                            "");
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const tcc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

const CUdeviceptr kAligned = 0x7f0000000000ull; // 16-byte aligned addresses
const CUdeviceptr kAligned2 = kAligned + 4096;

TEST(RuntimeKernel, PicksTheMostSpecialisedVariantTheArgumentsAllow) {
  tcc::Library lib;
  lib.add(meta(1024, 4, 1));        // general
  lib.add(meta(1024, 4, 16));       // everything % 16
  lib.add(meta(1024, 4, 16, false)); // pointers % 16 only
  tcc::Kernel& k = lib.kernel("vector_add");
  ASSERT_EQ(k.variants().size(), 3u);
  EXPECT_EQ(k.variants()[0].specialisationScore(), 16);
  EXPECT_EQ(k.variants()[1].specialisationScore(), 12);
  EXPECT_EQ(k.variants()[2].specialisationScore(), 0);

  int32_t n = 1 << 20;
  EXPECT_EQ(k.plan(kAligned, kAligned2, kAligned, n).variant->specialisationScore(), 16);
  EXPECT_EQ(k.plan(kAligned, kAligned2, kAligned, n + 4).variant->specialisationScore(), 12);
  EXPECT_EQ(k.plan(kAligned + 4, kAligned2, kAligned, n).variant->specialisationScore(), 0);
  EXPECT_EQ(k.plan(kAligned, kAligned2, kAligned + 8, n).variant->specialisationScore(), 0);
  // A negative n divisible by 16 still satisfies the assumption.
  EXPECT_EQ(k.plan(kAligned, kAligned2, kAligned, -16).variant->specialisationScore(), 16);
  // Device pointers may be given as T*.
  float* p = reinterpret_cast<float*>(kAligned);
  EXPECT_EQ(k.plan(p, p, p, n).variant->specialisationScore(), 16);
}

TEST(RuntimeKernel, ArchSpecificVariantsComeFirstAndMayRepeatASpecialisation) {
  // --variants=auto on a kernel with a dot: each specialisation for sm_90 and for sm_90a.
  tcc::Library lib;
  lib.add(meta(1024, 4, 1));
  lib.add(meta(1024, 4, 16));
  lib.add(meta(1024, 4, 1, true, "vector_add", "sm_90a"));
  lib.add(meta(1024, 4, 16, true, "vector_add", "sm_90a"));
  tcc::Kernel& k = lib.kernel("vector_add");
  ASSERT_EQ(k.variants().size(), 4u);
  EXPECT_EQ(k.variants()[0].arch, "sm_90a");
  EXPECT_EQ(k.variants()[0].specialisationScore(), 16);
  EXPECT_EQ(k.variants()[1].arch, "sm_90a");
  EXPECT_EQ(k.variants()[1].specialisationScore(), 0);
  EXPECT_EQ(k.variants()[2].arch, "sm_90");
  EXPECT_EQ(k.variants()[3].arch, "sm_90");
  EXPECT_EQ(k.variants()[3].specialisationScore(), 0);
  // Without a device (or on compute capability 9.0) the sm_90a variants are taken, the
  // most specialised the arguments allow; an sm_90a general variant beats an sm_90
  // specialised one.
  int32_t n = 1 << 20;
  const tcc::KernelMetadata* aligned = k.plan(kAligned, kAligned2, kAligned, n).variant;
  const tcc::KernelMetadata* odd = k.plan(kAligned + 4, kAligned2, kAligned, n).variant;
  EXPECT_EQ(aligned->arch, "sm_90a");
  EXPECT_EQ(aligned->specialisationScore(), 16);
  EXPECT_EQ(odd->arch, "sm_90a");
  EXPECT_EQ(odd->specialisationScore(), 0);
  // The same specialisation twice for one architecture is still an error.
  tcc::Library twice;
  twice.add(meta(1024, 4, 1, true, "vector_add", "sm_90a"));
  twice.add(meta(1024, 4, 1, true, "vector_add", "sm_90a"));
  EXPECT_NE(errorOf([&] { twice.kernel("vector_add"); }).find("the same specialisation"),
            std::string::npos);
}

// copy2d's variants as `tcc --variants=auto` writes them: general; everything aligned /
// divisible by 16; and that with the inner strides (stride_sn, stride_dn) equal to 1.
tcc::KernelMetadata copy2dMeta(int variant) {
  auto p = [&](const std::string& name, const std::string& type, bool inner) {
    std::string s = "{\"name\": \"" + name + "\", \"type\": \"" + type + "\"";
    if (variant == 1 || (variant == 2 && !inner))
      s += ", \"divisibility\": 16";
    if (variant == 2 && inner)
      s += ", \"equal_to\": 1";
    return s + "}";
  };
  std::string text =
      "{\"format\": \"tcc-kernel\", \"version\": 1, \"name\": \"copy2d\", \"arch\": "
      "\"sm_90\", \"cubin\": \"k.cubin\", \"num_warps\": 4, \"grid\": [\"cdiv(M, 32)\", "
      "\"cdiv(N, 32)\", \"1\"], \"params\": [" +
      p("src", "*f32", false) + ", " + p("dst", "*f32", false) + ", " + p("M", "i32", false) +
      ", " + p("N", "i32", false) + ", " + p("stride_sm", "i32", false) + ", " +
      p("stride_sn", "i32", true) + ", " + p("stride_dm", "i32", false) + ", " +
      p("stride_dn", "i32", true) + "], \"constexprs\": {\"BM\": 32, \"BN\": 32}}";
  return tcc::parseMetadata(text, "copy2d_" + std::to_string(variant), "");
}

TEST(RuntimeKernel, EqualToOneVariantsAreChosenForUnitStrides) {
  tcc::Library lib;
  for (int v : {0, 1, 2})
    lib.add(copy2dMeta(v));
  tcc::Kernel& k = lib.kernel("copy2d");
  ASSERT_EQ(k.variants().size(), 3u);
  // Most specialised first: equal-to-1 counts 64 per parameter, above any divisibility.
  EXPECT_EQ(k.variants()[0].specialisationScore(), 2 * 64 + 6 * 4);
  EXPECT_EQ(k.variants()[0].specialisationString(),
            "src%16, dst%16, M%16, N%16, stride_sm%16, stride_sn==1, stride_dm%16, stride_dn==1");
  EXPECT_EQ(k.variants()[1].specialisationScore(), 8 * 4);
  EXPECT_EQ(k.variants()[2].specialisationScore(), 0);
  EXPECT_TRUE(k.variants()[0].params[5].equalToOne);
  EXPECT_EQ(k.variants()[0].params[5].divisibility, 1);

  auto chosen = [&](CUdeviceptr s, CUdeviceptr d, int32_t m, int32_t n, int32_t ssm, int32_t ssn,
                    int32_t sdm, int32_t sdn) {
    return k.plan(s, d, m, n, ssm, ssn, sdm, sdn).variant->specialisationScore();
  };
  // Row-major, dense, dimensions multiples of 16: the unit-stride variant.
  EXPECT_EQ(chosen(kAligned, kAligned2, 64, 128, 128, 1, 128, 1), 2 * 64 + 24);
  // Strided rows (multiples of 16), unit inner strides: still the unit-stride variant.
  EXPECT_EQ(chosen(kAligned, kAligned2, 64, 128, 144, 1, 160, 1), 2 * 64 + 24);
  // One inner stride is 1, the other not: neither specialised variant holds.
  EXPECT_EQ(chosen(kAligned, kAligned2, 64, 128, 128, 1, 1, 64), 0);
  // Every 16th column: all strides multiples of 16, the aligned variant.
  EXPECT_EQ(chosen(kAligned, kAligned2, 64, 128, 2048, 16, 2048, 16), 32);
  // Unit strides but a misaligned pointer or a row stride not a multiple of 16: general.
  EXPECT_EQ(chosen(kAligned + 4, kAligned2, 64, 128, 128, 1, 128, 1), 0);
  EXPECT_EQ(chosen(kAligned, kAligned2, 64, 100, 100, 1, 100, 1), 0);
  // Equal to 1 means exactly 1: -1 and 17 do not qualify.
  EXPECT_EQ(chosen(kAligned, kAligned2, 64, 128, 128, -1, 128, 1), 0);
  EXPECT_EQ(chosen(kAligned, kAligned2, 64, 128, 128, 17, 128, 1), 0);
  // A variant that differs from another only in equal-to-1 is a different specialisation.
  tcc::Library lib2;
  tcc::KernelMetadata a = copy2dMeta(0), b = copy2dMeta(0);
  b.params[5].equalToOne = true;
  lib2.add(a);
  lib2.add(b);
  EXPECT_EQ(lib2.kernel("copy2d").variants().size(), 2u);
}

TEST(RuntimeKernel, EqualToOneMetadataIsChecked) {
  auto parse = [](const std::string& param) {
    return errorOf([&] {
      tcc::parseMetadata("{\"format\": \"tcc-kernel\", \"version\": 1, \"name\": \"k\", "
                         "\"arch\": \"sm_90\", \"cubin\": \"k.cubin\", \"num_warps\": 4, "
                         "\"grid\": [\"1\", \"1\", \"1\"], \"params\": [" +
                             param + "]}",
                         "k.json", "");
    });
  };
  EXPECT_EQ(parse("{\"name\": \"s\", \"type\": \"i32\", \"equal_to\": 1}"), "(no error)");
  EXPECT_NE(parse("{\"name\": \"s\", \"type\": \"i32\", \"equal_to\": 2}").find("must be 1"),
            std::string::npos);
  EXPECT_NE(parse("{\"name\": \"p\", \"type\": \"*f32\", \"equal_to\": 1}").find("integers only"),
            std::string::npos);
  EXPECT_NE(parse("{\"name\": \"f\", \"type\": \"f32\", \"equal_to\": 1}").find("integers only"),
            std::string::npos);
  EXPECT_NE(parse("{\"name\": \"s\", \"type\": \"i32\", \"equal_to\": 1, \"divisibility\": 16}")
                .find("both equal to 1"),
            std::string::npos);
}

TEST(RuntimeKernel, ComputesTheGridFromTheArguments) {
  tcc::Library lib;
  lib.add(meta(1024, 4, 1));
  tcc::Kernel& k = lib.kernel("vector_add");
  for (auto [n, blocks] : std::vector<std::pair<int32_t, int64_t>>{
           {0, 0}, {1, 1}, {1023, 1}, {1024, 1}, {1025, 2}, {1000003, 977}, {1 << 28, 262144}}) {
    tcc::LaunchPlan plan = k.plan(kAligned, kAligned, kAligned, n);
    EXPECT_EQ(plan.grid.x, blocks) << "n = " << n;
    EXPECT_EQ(plan.grid.y, 1);
    EXPECT_EQ(plan.grid.z, 1);
    EXPECT_EQ(plan.blockThreads, 128u);
    EXPECT_EQ(plan.empty(), n == 0);
  }
  // Smaller integer types widen; any integer type that fits is accepted.
  EXPECT_EQ(k.plan(kAligned, kAligned, kAligned, int16_t(2048)).grid.x, 2);
  EXPECT_EQ(k.plan(kAligned, kAligned, kAligned, size_t(4096)).grid.x, 4);
  EXPECT_EQ(k.plan(kAligned, kAligned, kAligned, int64_t(5000)).grid.x, 5);
}

TEST(RuntimeKernel, RejectsBadArgumentsNamingTheKernel) {
  tcc::Library lib;
  lib.add(meta(1024, 4, 1));
  tcc::Kernel& k = lib.kernel("vector_add");
  std::string e = errorOf([&] { k.plan(kAligned, kAligned, int32_t(5)); });
  EXPECT_NE(e.find("kernel 'vector_add'"), std::string::npos) << e;
  EXPECT_NE(e.find("expects 4 arguments (x: *f32, y: *f32, out: *f32, n: i32), got 3"),
            std::string::npos)
      << e;
  e = errorOf([&] { k.plan(kAligned, 2.0f, kAligned, int32_t(5)); });
  EXPECT_NE(e.find("argument 1 ('y', *f32) must be a device pointer"), std::string::npos) << e;
  EXPECT_NE(e.find("a float"), std::string::npos) << e;
  e = errorOf([&] { k.plan(kAligned, kAligned, kAligned, 5.0); });
  EXPECT_NE(e.find("'n', i32) must be an integer"), std::string::npos) << e;
  e = errorOf([&] { k.plan(kAligned, kAligned, kAligned, int64_t(1) << 31); });
  EXPECT_NE(e.find("out of range"), std::string::npos) << e;
  e = errorOf([&] { k.plan(kAligned, kAligned, kAligned, uint64_t(1) << 63); });
  EXPECT_NE(e.find("out of range"), std::string::npos) << e;
  // An integer where a pointer goes: only CUdeviceptr and T* count as pointers.
  e = errorOf([&] { k.plan(uint64_t(kAligned), kAligned, kAligned, 5); });
  EXPECT_NE(e.find("'x', *f32) must be a device pointer"), std::string::npos) << e;
  EXPECT_EQ(k.plan(tcc::Arg::pointer(kAligned), kAligned, kAligned, 5).grid.x, 1);
}

TEST(RuntimeKernel, MissingKernelListsTheAvailableOnes) {
  tcc::Library lib;
  lib.add(meta(1024, 4, 1));
  lib.add(meta(1024, 4, 1, true, "vector_copy_like"));
  std::string e = errorOf([&] { lib.kernel("vector_sub"); });
  EXPECT_NE(e.find("kernel 'vector_sub'"), std::string::npos) << e;
  EXPECT_NE(e.find("the kernels loaded are: vector_add vector_copy_like"), std::string::npos) << e;
  e = errorOf([&] { tcc::Library empty; empty.kernel("k"); });
  EXPECT_NE(e.find("no kernels are loaded"), std::string::npos) << e;
  EXPECT_EQ(lib.kernelNames(), (std::vector<std::string>{"vector_add", "vector_copy_like"}));
}

TEST(RuntimeKernel, ConfigurationsAreChosenByConstexprsAndWarps) {
  tcc::Library lib;
  lib.add(meta(256, 4, 1));
  lib.add(meta(1024, 4, 1));
  lib.add(meta(1024, 4, 16));
  lib.add(meta(1024, 8, 1));
  std::string e = errorOf([&] { lib.kernel("vector_add"); });
  EXPECT_NE(e.find("3 configurations match"), std::string::npos) << e;
  EXPECT_NE(e.find("BLOCK=256, num_warps=4"), std::string::npos) << e;
  EXPECT_NE(e.find("BLOCK=1024, num_warps=8"), std::string::npos) << e;
  EXPECT_EQ(lib.kernel("vector_add", {{"BLOCK", 256}}).plan(kAligned, kAligned, kAligned, 1024).grid.x, 4);
  e = errorOf([&] { lib.kernel("vector_add", {{"BLOCK", 1024}}); });
  EXPECT_NE(e.find("2 configurations match BLOCK=1024"), std::string::npos) << e;
  tcc::Kernel& k = lib.kernel("vector_add", {{"BLOCK", 1024}, {"num_warps", 4}});
  EXPECT_EQ(k.variants().size(), 2u);
  EXPECT_EQ(k.plan(kAligned, kAligned, kAligned, 1024).blockThreads, 128u);
  EXPECT_EQ(lib.kernel("vector_add", {{"num_warps", 8}}).plan(kAligned, kAligned, kAligned, 1).blockThreads,
            256u);
  e = errorOf([&] { lib.kernel("vector_add", {{"BLOCK", 64}}); });
  EXPECT_NE(e.find("no configuration with BLOCK=64"), std::string::npos) << e;
  EXPECT_EQ(lib.configurations("vector_add").size(), 3u);
  // Once a configuration is in use, its variants are fixed.
  e = errorOf([&] { lib.add(meta(1024, 4, 16, false)); });
  EXPECT_NE(e.find("already in use"), std::string::npos) << e;
}

TEST(RuntimeKernel, VariantSetsMustBeConsistent) {
  {
    tcc::Library lib;
    lib.add(meta(1024, 4, 16));
    std::string e = errorOf([&] { lib.kernel("vector_add"); });
    EXPECT_NE(e.find("no general variant"), std::string::npos) << e;
  }
  {
    tcc::Library lib;
    lib.add(meta(1024, 4, 1));
    lib.add(meta(1024, 4, 1));
    std::string e = errorOf([&] { lib.kernel("vector_add"); });
    EXPECT_NE(e.find("same specialisation"), std::string::npos) << e;
  }
  {
    tcc::Library lib;
    lib.add(meta(1024, 4, 1));
    tcc::KernelMetadata other = meta(1024, 4, 16);
    other.params[3].type = "i64";
    lib.add(other);
    std::string e = errorOf([&] { lib.kernel("vector_add"); });
    EXPECT_NE(e.find("different parameters"), std::string::npos) << e;
  }
}

// Configurations of an autotune space (docs/autotuning.md): one kernel dispatching among
// them; anything else with several configurations stays an error that lists them.
tcc::KernelMetadata tuned(int block, int warps, int index,
                          const std::string& space = "00000000000000aa", int divisibility = 1) {
  tcc::KernelMetadata m = meta(block, warps, divisibility);
  tcc::AutotuneInfo a;
  a.space = space;
  a.index = index;
  a.count = 4;
  a.key = {"n"};
  a.keyParams = {3};
  a.writes = {"out"};
  a.writesParams = {2};
  a.restore = {"out"};
  a.restoreParams = {2};
  m.autotune = a;
  m.origin += "_c" + std::to_string(index);
  return m;
}

// The disk cache off for one test (a GPU machine runs these too).
class NoDiskCache {
public:
  NoDiskCache() {
    const char* e = std::getenv("TCC_CACHE_DIR");
    had_ = e != nullptr;
    old_ = e ? e : "";
    ::setenv("TCC_CACHE_DIR", "", 1);
  }
  ~NoDiskCache() {
    if (had_)
      ::setenv("TCC_CACHE_DIR", old_.c_str(), 1);
    else
      ::unsetenv("TCC_CACHE_DIR");
  }

private:
  bool had_ = false;
  std::string old_;
};

TEST(RuntimeAutotune, ConfigurationsOfOneSpaceAreOneTunedKernel) {
  NoDiskCache noCache;
  tcc::Library lib;
  lib.add(tuned(2048, 8, 3)); // found in any order: dispatched in index order
  lib.add(tuned(256, 4, 0));
  lib.add(tuned(1024, 4, 1));
  lib.add(tuned(1024, 4, 1, "00000000000000aa", 16)); // a variant of configuration 1
  tcc::Kernel& k = lib.kernel("vector_add");
  EXPECT_TRUE(k.isTuned());
  ASSERT_EQ(k.numConfigurations(), 3u);
  EXPECT_EQ(&lib.kernel("vector_add"), &k);
  EXPECT_EQ(k.configuration(0).variants().front().autotune->index, 0);
  EXPECT_EQ(k.configuration(1).variants().size(), 2u);
  EXPECT_EQ(k.configuration(1).configString(), "BLOCK=1024, num_warps=4");
  EXPECT_EQ(k.configuration(2).variants().front().autotune->index, 3);
  EXPECT_FALSE(k.configuration(2).isTuned());
  EXPECT_EQ(k.configString(), "autotuned over 3 configurations: BLOCK=256, num_warps=4 | "
                              "BLOCK=1024, num_warps=4 | BLOCK=2048, num_warps=8");
  EXPECT_EQ(k.params().size(), 4u);
  EXPECT_NE(errorOf([&] { k.configuration(3); }).find("configuration 3 does not exist"),
            std::string::npos);
  // plan() never benchmarks: without a known choice, the first configuration.
  tcc::LaunchPlan p = k.plan(kAligned, kAligned2, kAligned, 1024);
  EXPECT_EQ(p.variant->autotune->index, 0);
  EXPECT_EQ(p.grid.x, 4);
  EXPECT_FALSE(k.lastTuning().has_value());
  // The arguments are checked as for any kernel.
  EXPECT_NE(errorOf([&] { k.plan(kAligned, kAligned2, 1024); }).find("expects 4 arguments"),
            std::string::npos);
  // One configuration exactly, by its values.
  tcc::Kernel& c = lib.kernel("vector_add", {{"BLOCK", 1024}});
  EXPECT_FALSE(c.isTuned());
  EXPECT_EQ(&c, &k.configuration(1));
  // The space is in use: no configuration can join it now.
  std::string e = errorOf([&] { lib.add(tuned(4096, 8, 2)); });
  EXPECT_NE(e.find("autotuned kernel 'vector_add' is already in use"), std::string::npos) << e;
}

TEST(RuntimeAutotune, ASingleConfigurationIsAPlainKernel) {
  tcc::Library lib;
  lib.add(tuned(1024, 4, 2)); // the others pruned or dropped
  tcc::Kernel& k = lib.kernel("vector_add");
  EXPECT_FALSE(k.isTuned());
  EXPECT_EQ(k.numConfigurations(), 1u);
  EXPECT_EQ(&k.configuration(0), &k);
  EXPECT_FALSE(k.lastTuning().has_value());
  EXPECT_TRUE(k.tunings().empty());
  EXPECT_EQ(k.chosen(nullptr, kAligned, kAligned2, kAligned, 100).configString(),
            "BLOCK=1024, num_warps=4");
}

TEST(RuntimeAutotune, OtherSetsOfConfigurationsRemainAnError) {
  {
    tcc::Library lib; // different spaces
    lib.add(tuned(256, 4, 0, "00000000000000aa"));
    lib.add(tuned(1024, 4, 1, "00000000000000bb"));
    std::string e = errorOf([&] { lib.kernel("vector_add"); });
    EXPECT_NE(e.find("2 configurations match and they are not one autotuned kernel (different "
                     "autotune spaces: 00000000000000aa in"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("BLOCK=256, num_warps=4  (vector_add_256_4_1_sm_90_c0)"), std::string::npos) << e;
    EXPECT_NE(e.find("BLOCK=1024, num_warps=4  (vector_add_1024_4_1_sm_90_c1)"), std::string::npos) << e;
  }
  {
    tcc::Library lib; // one without autotune metadata
    lib.add(tuned(256, 4, 0));
    lib.add(meta(1024, 4, 1));
    std::string e = errorOf([&] { lib.kernel("vector_add"); });
    EXPECT_NE(e.find("not one autotuned kernel (vector_add_1024_4_1_sm_90 carries no autotune "
                     "metadata)"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("choose one with kernel(name, {{\"BLOCK\", ...}})"), std::string::npos) << e;
  }
  {
    tcc::Library lib; // one space, different parameters
    lib.add(tuned(256, 4, 0));
    tcc::KernelMetadata other = tuned(1024, 4, 1);
    other.params[3].type = "i64";
    lib.add(other);
    std::string e = errorOf([&] { lib.kernel("vector_add"); });
    EXPECT_NE(e.find("configurations of autotune space 00000000000000aa have different "
                     "parameters: (x: *f32, y: *f32, out: *f32, n: i32) in"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("(x: *f32, y: *f32, out: *f32, n: i64) in vector_add_1024_4_1_sm_90_c1"),
              std::string::npos)
        << e;
  }
  {
    tcc::Library lib; // one space, different keys
    lib.add(tuned(256, 4, 0));
    tcc::KernelMetadata other = tuned(1024, 4, 1);
    other.autotune->key.clear();
    other.autotune->keyParams.clear();
    lib.add(other);
    std::string e = errorOf([&] { lib.kernel("vector_add"); });
    EXPECT_NE(e.find("disagree on its \"count\", \"key\""), std::string::npos) << e;
  }
  {
    tcc::Library lib; // two configurations claim one index
    lib.add(tuned(256, 4, 1));
    lib.add(tuned(1024, 4, 1));
    std::string e = errorOf([&] { lib.kernel("vector_add"); });
    EXPECT_NE(e.find("two configurations have autotune index 1: BLOCK=256, num_warps=4"),
              std::string::npos)
        << e;
  }
  {
    tcc::Library lib; // a selector that leaves several configurations of a space
    lib.add(tuned(256, 4, 0));
    lib.add(tuned(1024, 4, 1));
    lib.add(tuned(1024, 8, 2));
    std::string e = errorOf([&] { lib.kernel("vector_add", {{"BLOCK", 1024}}); });
    EXPECT_NE(e.find("2 configurations match BLOCK=1024; choose one"), std::string::npos) << e;
    EXPECT_TRUE(lib.kernel("vector_add").isTuned());
  }
}

TEST(RuntimeAutotune, NumStagesTellsConfigurationsApart) {
  tcc::Library lib;
  tcc::KernelMetadata a = meta(1024, 4, 1), b = meta(1024, 4, 1);
  a.numStages = 2;
  b.numStages = 3;
  lib.add(a);
  lib.add(b);
  std::string e = errorOf([&] { lib.kernel("vector_add"); });
  EXPECT_NE(e.find("BLOCK=1024, num_warps=4, num_stages=2"), std::string::npos) << e;
  EXPECT_NE(e.find("BLOCK=1024, num_warps=4, num_stages=3"), std::string::npos) << e;
  EXPECT_EQ(lib.kernel("vector_add", {{"num_stages", 3}}).variants().front().numStages, 3);
}

TEST(RuntimeAutotune, KeyValuesAreBucketedToPowersOfTwo) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(tcc::autotuneBucket(0), 0);
  EXPECT_EQ(tcc::autotuneBucket(-5), -5);
  EXPECT_EQ(tcc::autotuneBucket(std::numeric_limits<int64_t>::min()),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(tcc::autotuneBucket(1), 1);
  EXPECT_EQ(tcc::autotuneBucket(2), 2);
  EXPECT_EQ(tcc::autotuneBucket(3), 4);
  EXPECT_EQ(tcc::autotuneBucket(1000), 1024);
  EXPECT_EQ(tcc::autotuneBucket(1024), 1024);
  EXPECT_EQ(tcc::autotuneBucket(1025), 2048);
  EXPECT_EQ(tcc::autotuneBucket((int64_t(1) << 40) - 7), int64_t(1) << 40);
  EXPECT_EQ(tcc::autotuneBucket(int64_t(1) << 62), int64_t(1) << 62);
  EXPECT_EQ(tcc::autotuneBucket((int64_t(1) << 62) + 1), max);
  EXPECT_EQ(tcc::autotuneBucket(max), max);
}

// TMA tensor maps ("tensormaps", docs/artifacts.md): whether TMA can take the arguments (an
// aligned base, extents in 1..2^32, byte strides that are positive multiples of 16 below
// 2^40) is part of whether a variant runs with them, decided before any driver.
tcc::KernelMetadata tmaMeta(bool maps, int divisibility, const std::string& arch) {
  std::string d = divisibility > 1 ? ", \"divisibility\": " + std::to_string(divisibility) : "";
  std::string text =
      std::string("{\"format\": \"tcc-kernel\", \"version\": ") + (maps ? "2" : "1") +
      ", \"name\": \"tma\", \"arch\": \"" + arch + "\", \"cubin\": \"k.cubin\", "
      "\"num_warps\": 4, \"grid\": [\"cdiv(M, 128)\", \"1\", \"1\"], \"params\": ["
      "{\"name\": \"x\", \"type\": \"*bf16\"" + d + "}, {\"name\": \"M\", \"type\": \"i64\"}, "
      "{\"name\": \"K\", \"type\": \"i64\"}, {\"name\": \"stride_xm\", \"type\": \"i64\"" + d +
      "}]" +
      (maps ? ", \"tensormaps\": [{\"param\": \"x\", \"dtype\": \"bf16\", \"dims\": [\"K\", \"M\"], "
              "\"strides_bytes\": [\"stride_xm * 2\"], \"box\": [64, 64]}]"
            : "") +
      "}";
  return tcc::parseMetadata(text, arch + (maps ? "_tma" : "") + ".json", "");
}

TEST(RuntimeKernel, TensorMapPreconditionsArePartOfTheVariantChoice) {
  tcc::Library lib;
  lib.add(tmaMeta(true, 16, "sm_90a"));
  lib.add(tmaMeta(false, 1, "sm_90"));
  tcc::Kernel& k = lib.kernel("tma");
  auto chosen = [&](CUdeviceptr x, int64_t m, int64_t kk, int64_t stride) {
    return k.plan(x, m, kk, stride).variant->arch;
  };
  EXPECT_EQ(chosen(kAligned, 1000, 512, 512), "sm_90a");
  EXPECT_EQ(chosen(kAligned + 8, 1000, 512, 512), "sm_90"); // x % 16 fails first
  EXPECT_EQ(chosen(kAligned, 1000, 0, 512), "sm_90");       // an extent of 0
  EXPECT_EQ(chosen(kAligned, int64_t(1) << 32, 512, 512), "sm_90a"); // 2^32: the most
  EXPECT_EQ(chosen(kAligned, (int64_t(1) << 32) + 1, 512, 512), "sm_90");
  EXPECT_EQ(chosen(kAligned, 1000, 512, int64_t(1) << 38), "sm_90a"); // 2^39 bytes
  EXPECT_EQ(chosen(kAligned, 1000, 512, int64_t(1) << 39), "sm_90");  // 2^40 bytes
  EXPECT_EQ(chosen(kAligned, 1000, 512, -16), "sm_90");
  EXPECT_EQ(chosen(kAligned, 1000, 512, int64_t(1) << 62), "sm_90"); // * 2 overflows
}

TEST(RuntimeKernel, TensorMapPreconditionsNameTheParameterAndTheValues) {
  // A general variant with a map: nothing to fall back on.
  tcc::Library lib;
  lib.add(tmaMeta(true, 1, "sm_90a"));
  tcc::Kernel& k = lib.kernel("tma");
  EXPECT_EQ(k.plan(kAligned, int64_t(1000), int64_t(512), int64_t(8)).grid.x, 8);
  const std::string prefix = "tcc: kernel 'tma': checking the arguments against the TMA tensor "
                             "maps: tensor map 0 of 'x' (bf16, box [64, 64]): ";
  auto error = [&](CUdeviceptr x, int64_t m, int64_t kk, int64_t stride) {
    return errorOf([&] { k.plan(x, m, kk, stride); });
  };
  EXPECT_EQ(error(kAligned + 4, 1000, 512, 512),
            prefix + "the address 0x7f0000000004 passed for 'x' is not 16-byte aligned (TMA "
                     "needs a 16-byte aligned base); address 0x7f0000000004, dims [512, 1000], "
                     "strides_bytes [1024]");
  EXPECT_EQ(error(kAligned, 1000, 0, 512),
            prefix + "dims[0] ('K') is 0, outside 1..2^32 (TMA's extents); address "
                     "0x7f0000000000, dims [0, 1000], strides_bytes [1024]");
  EXPECT_EQ(error(kAligned, (int64_t(1) << 32) + 1, 512, 512),
            prefix + "dims[1] ('M') is 4294967297, outside 1..2^32 (TMA's extents); address "
                     "0x7f0000000000, dims [512, 4294967297], strides_bytes [1024]");
  const std::string strides = "(TMA's strides are positive multiples of 16 bytes below 2^40)";
  EXPECT_EQ(error(kAligned, 1000, 512, 9),
            prefix + "strides_bytes[0] ('stride_xm * 2') is 18, not a multiple of 16 " + strides +
                "; address 0x7f0000000000, dims [512, 1000], strides_bytes [18]");
  EXPECT_EQ(error(kAligned, 1000, 512, -8),
            prefix + "strides_bytes[0] ('stride_xm * 2') is -16, not positive " + strides +
                "; address 0x7f0000000000, dims [512, 1000], strides_bytes [-16]");
  EXPECT_EQ(error(kAligned, 1000, 512, int64_t(1) << 39),
            prefix + "strides_bytes[0] ('stride_xm * 2') is 1099511627776, not below 2^40 " +
                strides + "; address 0x7f0000000000, dims [512, 1000], strides_bytes "
                          "[1099511627776]");
  EXPECT_EQ(error(kAligned, 1000, 512, int64_t(1) << 62),
            prefix + "strides_bytes[0]: grid expression 'stride_xm * 2' overflows int64");
  // An empty grid launches nothing: no error whatever the maps.
  EXPECT_TRUE(k.plan(kAligned + 4, int64_t(0), int64_t(0), int64_t(1)).empty());
}

TEST(RuntimeKernel, GridErrorsNameTheKernel) {
  tcc::KernelMetadata m = meta(1024, 4, 1);
  m.grid[1] = "n - 2000";
  tcc::Library lib;
  lib.add(m);
  tcc::Kernel& k = lib.kernel("vector_add");
  std::string e = errorOf([&] { k.plan(kAligned, kAligned, kAligned, 1000); });
  EXPECT_NE(e.find("kernel 'vector_add': computing the grid"), std::string::npos) << e;
  EXPECT_NE(e.find("dimension 1 is negative"), std::string::npos) << e;
  e = errorOf([&] { k.plan(kAligned, kAligned, kAligned, 100000); });
  EXPECT_NE(e.find("dimension 1 is above the limit of 65535"), std::string::npos) << e;
  m.grid[1] = "1";
  m.grid[2] = "n // (n - 5)";
  tcc::Library lib2;
  lib2.add(m);
  e = errorOf([&] { lib2.kernel("vector_add").plan(kAligned, kAligned, kAligned, 5); });
  EXPECT_NE(e.find("divides by zero"), std::string::npos) << e;
}

TEST(RuntimeKernel, LaunchWithoutADriverFailsCleanly) {
  std::string why;
  if (tcc::driverAvailable(&why))
    GTEST_SKIP() << "a GPU is present; the GPU tests cover launches";
  tcc::Library lib;
  lib.add(meta(1024, 4, 1), std::string("not a cubin"));
  tcc::Kernel& k = lib.kernel("vector_add");
  // An empty grid launches nothing and so needs no driver.
  k.launch(nullptr, kAligned, kAligned, kAligned, 0);
  std::string e = errorOf([&] { k.launch(nullptr, kAligned, kAligned, kAligned, 10); });
  EXPECT_NE(e.find("initialising CUDA"), std::string::npos) << e;
  EXPECT_NE(e.find(why), std::string::npos) << e;
}

TEST(RuntimeCubin, ReadsTheArchitectureFromTheElfHeader) {
  auto elf = [](unsigned abi, uint32_t flags, uint16_t machine = 190) {
    return faketest::cudaElf(abi, flags, "", machine);
  };
  auto arch = [](const std::string& img) { return tcc::inspectImage(img.data(), img.size()); };
  // CUDA 13's ELF ABI version 8 (as nvcc 13.0 writes for sm_80, sm_90, sm_100, sm_120).
  EXPECT_EQ(arch(elf(8, 0x6005004)).arch, 80);
  EXPECT_EQ(arch(elf(8, 0x6005a04)).arch, 90);
  EXPECT_EQ(arch(elf(8, 0x6006402)).arch, 100);
  EXPECT_EQ(arch(elf(8, 0x6007802)).arch, 120);
  // Earlier ABI versions keep the SM in the low byte.
  EXPECT_EQ(arch(elf(7, 0x5a055a)).arch, 90);
  EXPECT_EQ(arch(elf(8, 0x6005a04)).kind, tcc::ImageKind::Cubin);
  EXPECT_EQ(arch(elf(8, 0x6005a04, 62)).kind, tcc::ImageKind::Unknown); // x86-64, not CUDA
  EXPECT_EQ(arch("//\n// comment\n.version 8.0\n.target sm_90\n").kind, tcc::ImageKind::Ptx);
  EXPECT_EQ(arch(std::string("\x50\xed\x55\xba\x01\x00", 6)).kind, tcc::ImageKind::Fatbin);
  EXPECT_EQ(arch("garbage").kind, tcc::ImageKind::Unknown);
  EXPECT_EQ(arch("").kind, tcc::ImageKind::Unknown);
  // A bare 64-byte ELF header, or a cubin cut short of its section headers, is not a cubin.
  std::string whole = elf(8, 0x6005a04);
  EXPECT_EQ(arch(whole.substr(0, 64)).kind, tcc::ImageKind::Unknown);
  EXPECT_EQ(arch(whole.substr(0, 100)).kind, tcc::ImageKind::Unknown);
}

TEST(RuntimeCubin, CompatibilityRules) {
  EXPECT_TRUE(tcc::cubinRunsOn(90, false, 90));
  EXPECT_FALSE(tcc::cubinRunsOn(80, false, 90));  // another major version
  EXPECT_FALSE(tcc::cubinRunsOn(100, false, 90));
  EXPECT_TRUE(tcc::cubinRunsOn(80, false, 86));   // same major, newer minor
  EXPECT_FALSE(tcc::cubinRunsOn(86, false, 80));
  EXPECT_TRUE(tcc::cubinRunsOn(90, true, 90));    // sm_90a on exactly 9.0
  EXPECT_FALSE(tcc::cubinRunsOn(100, true, 103));
  EXPECT_EQ(tcc::archName(90), "sm_90");
}

TEST(RuntimeCubin, PtxRulesAndTheLoadRank) {
  EXPECT_TRUE(tcc::ptxRunsOn(80, false, 90)); // the driver JIT-compiles for newer GPUs
  EXPECT_TRUE(tcc::ptxRunsOn(90, false, 120));
  EXPECT_TRUE(tcc::ptxRunsOn(90, false, 90));
  EXPECT_FALSE(tcc::ptxRunsOn(90, false, 89)); // never for older ones
  EXPECT_TRUE(tcc::ptxRunsOn(90, true, 90));   // sm_90a PTX: exactly 9.0
  EXPECT_FALSE(tcc::ptxRunsOn(90, true, 100));
  using R = tcc::LoadRank;
  EXPECT_EQ(tcc::loadRank(90, false, true, true, 90), R::ExactCubin);
  EXPECT_EQ(tcc::loadRank(90, true, true, false, 90), R::ExactCubin);
  EXPECT_EQ(tcc::loadRank(80, false, true, true, 86), R::CompatibleCubin);
  EXPECT_EQ(tcc::loadRank(80, false, true, true, 90), R::PtxJit);  // sm_80 on an H200
  EXPECT_EQ(tcc::loadRank(80, false, true, false, 90), R::CannotRun);
  EXPECT_EQ(tcc::loadRank(90, false, false, true, 90), R::PtxJit); // PTX only
  EXPECT_EQ(tcc::loadRank(100, false, false, true, 90), R::CannotRun);
  EXPECT_EQ(tcc::loadRank(90, true, true, true, 100), R::CannotRun);
  EXPECT_EQ(tcc::loadRank(90, true, true, true, 91), R::CannotRun);
  EXPECT_EQ(tcc::loadRank(90, false, true, true, 91), R::CompatibleCubin);
  EXPECT_EQ(tcc::loadRank(90, false, false, false, 90), R::CannotRun);
  bool specific = true;
  std::string ptx = "//\n// Generated\n.version 8.7\n.target sm_90a\n.address_size 64\n";
  EXPECT_EQ(tcc::ptxTarget(ptx.data(), ptx.size(), &specific), 90);
  EXPECT_TRUE(specific);
  ptx = ".version 8.0\n  .target sm_80, debug\n";
  EXPECT_EQ(tcc::ptxTarget(ptx.data(), ptx.size(), &specific), 80);
  EXPECT_FALSE(specific);
  ptx = "// .target sm_75 in a comment\n.version 8.0\n";
  EXPECT_EQ(tcc::ptxTarget(ptx.data(), ptx.size()), 0);
  // tcc-fuzz-runtime: a target of 86 digits overflowed an int (UBSan); a number that long
  // names no architecture.
  ptx = ".version 8.0\n.target sm_" + std::string(84, '8') + "91a\n";
  EXPECT_EQ(tcc::ptxTarget(ptx.data(), ptx.size(), &specific), 0);
  EXPECT_FALSE(specific);
  ptx = ".target sm_1000\n";
  EXPECT_EQ(tcc::ptxTarget(ptx.data(), ptx.size()), 1000);
}

} // namespace

namespace {

// Without a driver (CI), or with the CUDA toolkit's stub libcuda (a ctest entry sets
// TCC_LIBCUDA to it: every entry point must resolve in it, and cuInit then fails), the
// runtime says why it cannot run anything instead of crashing.
TEST(RuntimeDriver, SaysWhyThereIsNoGpu) {
  std::string why;
  bool ok = tcc::driverAvailable(&why);
  if (std::getenv("TCC_EXPECT_STUB")) {
    EXPECT_FALSE(ok);
    EXPECT_NE(why.find("cuInit failed"), std::string::npos) << why;
    EXPECT_NE(why.find("stub"), std::string::npos) << why;
  } else if (ok) {
    GTEST_SKIP() << "a GPU is present";
  }
  EXPECT_FALSE(why.empty());
  std::string e = errorOf([] { tcc::ensureContext(); });
  EXPECT_NE(e.find("initialising CUDA"), std::string::npos) << e;
  EXPECT_NE(e.find(why), std::string::npos) << e;
  // What `tcc doctor` asks: no device, and the reason.
  EXPECT_EQ(tcc::deviceCount(), 0);
  e = errorOf([] { tcc::deviceInfo(0); });
  EXPECT_NE(e.find(why), std::string::npos) << e;
  // The driver version needs only the library: without one it says so; a library that
  // loads (the stub, a driver without a device) may answer or fail, never crash.
  e = errorOf([] { EXPECT_GT(tcc::driverVersion(), 0); });
  if (why.find("cannot load") != std::string::npos) {
    EXPECT_NE(e.find("querying the CUDA driver version: no CUDA driver: cannot load"),
              std::string::npos)
        << e;
  } else if (e != "(no error)") {
    EXPECT_NE(e.find("querying the CUDA driver version"), std::string::npos) << e;
  }
}

} // namespace
