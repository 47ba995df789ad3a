// The header writer: its checks, and that what it writes compiles (with warnings as errors),
// links against tccrt and computes grids with checked arithmetic, without a GPU.
#include "HeaderWriter.h"

#include "tcc/metadata.h"
#include "tcc/runtime.h"

#include <gtest/gtest.h>

#include "fake_elf.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace {

tcc::KernelArtifact variant(int64_t divisibility) {
  tcc::KernelArtifact a;
  a.name = "vector_add";
  a.params = {{"x", "*f32", divisibility}, {"y", "*f32", divisibility},
              {"out", "*f32", divisibility}, {"n", "i32", divisibility}};
  a.constexprs = {{"BLOCK", 1024}};
  a.grid = {"cdiv(n, BLOCK)", "1", "1"};
  a.cubin = std::string("\x7f" "ELF\0\1\2", 7) + std::to_string(divisibility);
  return a;
}

std::string generate(const std::vector<tcc::KernelArtifact>& vs, const tcc::HeaderOptions& o,
                     std::string* error) {
  std::string h;
  if (!tcc::generateHeader(vs, o, &h, error))
    return "";
  return h;
}

TEST(HeaderWriter, TypedSignatureAndSpecialisedVariantFirst) {
  std::string err;
  std::string h = generate({variant(1), variant(16)}, {}, &err);
  ASSERT_FALSE(h.empty()) << err;
  EXPECT_NE(h.find("inline void vector_add(CUstream tcc_stream, CUdeviceptr x, CUdeviceptr y, "
                   "CUdeviceptr out, int32_t n)"),
            std::string::npos)
      << h;
  size_t special = h.find("if (x % 16u == 0 && y % 16u == 0 && out % 16u == 0 && n % 16 == 0)");
  size_t general = h.find("// the general variant");
  ASSERT_NE(special, std::string::npos) << h;
  ASSERT_NE(general, std::string::npos) << h;
  EXPECT_LT(special, general);
  EXPECT_NE(h.find("tcc_g0.cdiv(static_cast<int64_t>(n), INT64_C(1024))"), std::string::npos) << h;
  EXPECT_NE(h.find("#include <tcc/embedded.h>"), std::string::npos);
}

TEST(HeaderWriter, EqualToOneVariantsTestTheValue) {
  // vector_add's n standing in for a stride: general, n % 16, n == 1.
  tcc::KernelArtifact general = variant(1), aligned = variant(16), unit = variant(16);
  unit.params[3].divisibility = 1;
  unit.params[3].equalToOne = true;
  unit.cubin += "unit";
  std::string err;
  std::string h = generate({general, aligned, unit}, {}, &err);
  ASSERT_FALSE(h.empty()) << err;
  size_t eq = h.find("if (x % 16u == 0 && y % 16u == 0 && out % 16u == 0 && n == 1)");
  size_t div = h.find("if (x % 16u == 0 && y % 16u == 0 && out % 16u == 0 && n % 16 == 0)");
  size_t gen = h.find("// the general variant");
  ASSERT_NE(eq, std::string::npos) << h;
  ASSERT_NE(div, std::string::npos) << h;
  ASSERT_NE(gen, std::string::npos) << h;
  EXPECT_LT(eq, div); // most specialised first
  EXPECT_LT(div, gen);
  EXPECT_NE(h.find("// variant 0: x % 16 == 0, y % 16 == 0, out % 16 == 0, n == 1"),
            std::string::npos)
      << h;
  // Differing only in equal-to-1 is a different specialisation; the same twice is not.
  tcc::KernelArtifact unitOnly = variant(1);
  unitOnly.params[3].equalToOne = true;
  EXPECT_FALSE(generate({general, unitOnly}, {}, &err).empty()) << err;
  EXPECT_EQ(generate({general, unitOnly, unitOnly}, {}, &err), "");
  EXPECT_NE(err.find("same specialisation"), std::string::npos) << err;
}

TEST(HeaderWriter, RejectsInconsistentVariants) {
  std::string err;
  EXPECT_EQ(generate({variant(16)}, {}, &err), "");
  EXPECT_NE(err.find("no general variant"), std::string::npos) << err;
  EXPECT_EQ(generate({variant(1), variant(1)}, {}, &err), "");
  EXPECT_NE(err.find("same specialisation"), std::string::npos) << err;
  tcc::KernelArtifact other = variant(16);
  other.params[3].type = "i64";
  EXPECT_EQ(generate({variant(1), other}, {}, &err), "");
  EXPECT_NE(err.find("share the name and the parameters"), std::string::npos) << err;
  EXPECT_EQ(generate({}, {}, &err), "");
  tcc::HeaderOptions bad;
  bad.cxxNamespace = "a::class";
  EXPECT_EQ(generate({variant(1)}, bad, &err), "");
  EXPECT_NE(err.find("namespace"), std::string::npos) << err;
  tcc::KernelArtifact invalid = variant(1);
  invalid.numWarps = 0;
  EXPECT_EQ(generate({invalid}, {}, &err), "");
  EXPECT_NE(err.find("num_warps"), std::string::npos) << err;
}

TEST(HeaderWriter, ManglesNamesThatAreNotUsableInCxx) {
  tcc::KernelArtifact a = variant(1);
  a.params[0].name = "new";
  a.params[1].name = "tcc_stream";
  a.grid[0] = "cdiv(n, 128)";
  std::string err;
  std::string h = generate({a}, {}, &err);
  ASSERT_FALSE(h.empty()) << err;
  EXPECT_NE(h.find("CUdeviceptr new_, CUdeviceptr tcc_stream_,"), std::string::npos) << h;
}

// Compiles `main` with the generated header into a program linked with tccrt and runs it
// once per entry of `envs` (variable assignments put before the command, e.g.
// "TCC_LIBCUDA=..."), each output in (*outputs)[i] (the compiler's, if it failed, in [0]);
// returns the first non-zero status.
int compileAndRunEach(const std::string& header, const std::string& main,
                      const std::vector<std::string>& envs, std::vector<std::string>* outputs) {
  char tmpl[] = "/tmp/tcc-header-XXXXXX";
  std::string dir = ::mkdtemp(tmpl);
  std::ofstream(dir + "/kernel.h") << header;
  std::ofstream(dir + "/main.cpp") << main;
  auto read = [&](const std::string& file) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  std::string cmd = std::string(TCC_TEST_CXX) + " -std=c++17 -Wall -Wextra -Werror -I" + dir +
                    " -I" TCC_TEST_NO_CUDA_H " -I" TCC_TEST_RUNTIME_INCLUDE " " + dir +
                    "/main.cpp " TCC_TEST_TCCRT " -ldl -o " + dir + "/prog > " + dir +
                    "/out.txt 2>&1";
  int status = std::system(cmd.c_str());
  outputs->assign(envs.size(), "");
  if (status != 0) {
    (*outputs)[0] = read(dir + "/out.txt");
  } else {
    for (size_t i = 0; i < envs.size() && status == 0; ++i) {
      cmd = envs[i] + " " + dir + "/prog > " + dir + "/out.txt 2>&1";
      status = std::system(cmd.c_str());
      (*outputs)[i] = read(dir + "/out.txt");
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return status;
}

int compileAndRun(const std::string& header, const std::string& main, std::string* output) {
  std::vector<std::string> outputs;
  int status = compileAndRunEach(header, main, {""}, &outputs);
  *output = outputs[0];
  return status;
}

TEST(HeaderWriter, GeneratedHeaderCompilesLinksAndChecksTheGrid) {
  tcc::KernelArtifact general = variant(1), special = variant(16);
  general.grid[1] = special.grid[1] = "1 + n // (n - 7)"; // divides by zero at n = 7
  tcc::HeaderOptions o;
  o.cxxNamespace = "kernels::v1";
  o.provenance = "runtime_header_test";
  std::string err, h = generate({general, special}, o, &err);
  ASSERT_FALSE(h.empty()) << err;
  const char* main = R"(
#include "kernel.h"
#include <cstdio>
#include <cstring>
int main() {
  // Declared type of the launch function, exactly.
  void (*f)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, int32_t) = &kernels::v1::vector_add;
  (void)f;
  try {
    kernels::v1::vector_add(nullptr, 16, 32, 48, 7);
    std::puts("no error");
    return 1;
  } catch (const tcc::Error& e) {
    std::printf("caught: %s\n", e.what());
    if (!std::strstr(e.what(), "vector_add") || !std::strstr(e.what(), "divides by zero"))
      return 2;
  }
  try {
    kernels::v1::vector_add(nullptr, 16, 32, 48, 1024);  // needs the driver from here on
    std::puts("launched");
  } catch (const tcc::Error& e) {
    std::printf("caught: %s\n", e.what());
  }
  return 0;
}
)";
  std::string out;
  int status = compileAndRun(h, main, &out);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("caught: tcc: kernel 'vector_add': computing the grid: grid expression "
                     "'1 + n // (n - 7)' divides by zero"),
            std::string::npos)
      << out;
}

// A header built with --check-bounds: each variant's kernel is told its parameters, and its
// launches pass the extents and the error record; a violation (the fake's FAKE_OOB=7,6,2:
// a store through 'out' at out's extent) is reported from the launcher.
TEST(HeaderWriter, BoundsCheckedHeaderReportsAViolation) {
  tcc::KernelArtifact a = variant(1);
  a.arch = "sm_90";
  a.cubin = faketest::cudaElf(8, 0x6000004u | (90u << 8), "FAKE_OOB=7,6,2");
  a.checkBounds = tcc::KernelBoundsCheck{{"x", "y", "out"}, 0};
  a.source = "lang-examples/vector_add.tile";
  tcc::HeaderOptions o;
  o.cxxNamespace = "checked";
  std::string err, h = generate({a}, o, &err);
  ASSERT_FALSE(h.empty()) << err;
  EXPECT_NE(h.find("kernel.setBoundsCheck(\"x:*f32,y:*f32,out:*f32,n:i32\", \"vector_add.tile\", "
                   "40)"),
            std::string::npos)
      << h;
  const char* main = R"(
#include "kernel.h"
#include "tcc/driver.h"
#include <cstdio>
int main() {
  tcc::ensureContext();
  CUdeviceptr x = 0, out = 0;
  tcc::driver().cuMemAlloc(&x, 8192);
  tcc::driver().cuMemAlloc(&out, 4096);
  try {
    checked::vector_add(nullptr, x, x, out, 2048);
    std::puts("no error");
  } catch (const tcc::Error& e) {
    std::printf("caught: %s\n", e.what());
  }
  return 0;
}
)";
  std::vector<std::string> out;
  ASSERT_EQ(compileAndRunEach(h, main, {"TCC_LIBCUDA=" TCC_TEST_FAKE_CUDA}, &out), 0) << out[0];
  EXPECT_EQ(out[0], "caught: tcc: kernel 'vector_add': running (--check-bounds): out-of-bounds "
                    "store at vector_add.tile:12:5 by program (1, 0, 0): byte offset 4096 of "
                    "'out' (4096 bytes valid; element 1024 of *f32)\n");
}

// A header with sm_90a, sm_90 and sm_80 variants (cubin and PTX each, and one PTX-only)
// run on the fake driver (runtime_fake_cuda.cpp) as devices of several architectures: each
// launch takes the first variant that runs there, from its cubin or through the JIT.
TEST(HeaderWriter, MultiArchitectureHeaderRunsTheRightImage) {
  auto cubin = [](int arch) {
    return faketest::cudaElf(8, static_cast<uint32_t>(arch) << 8, "cubin");
  };
  auto ptx = [](const std::string& arch) {
    return ".version 8.7\n.target " + arch + "\n.address_size 64\n";
  };
  std::vector<tcc::KernelArtifact> vs;
  for (const char* arch : {"sm_90a", "sm_90", "sm_80"}) {
    tcc::KernelArtifact a = variant(1);
    a.arch = arch;
    a.cubin = cubin(std::atoi(arch + 3));
    a.ptx = ptx(arch);
    vs.push_back(a);
  }
  tcc::KernelArtifact ptxOnly = variant(1);
  ptxOnly.arch = "sm_100";
  ptxOnly.cubin.clear();
  ptxOnly.ptx = ptx("sm_100");
  vs.push_back(ptxOnly);
  tcc::HeaderOptions o;
  o.cxxNamespace = "multi";
  std::string err, h = generate(vs, o, &err);
  ASSERT_FALSE(h.empty()) << err;
  const char* main = R"(
#include "kernel.h"
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
int main() {
  void* fake = dlopen(std::getenv("TCC_LIBCUDA"), RTLD_NOW);
  auto takeLog = reinterpret_cast<const char* (*)()>(dlsym(fake, "tcc_fake_take_log"));
  try {
    multi::vector_add(nullptr, 16, 32, 48, 4096);
    std::printf("%s", takeLog());
  } catch (const tcc::Error& e) {
    std::printf("caught: %s\n", e.what());
  }
  return 0;
}
)";
  std::vector<std::string> envs, out;
  for (const char* cc : {"90", "86", "100", "120", "75"})
    envs.push_back(std::string("TCC_LIBCUDA=" TCC_TEST_FAKE_CUDA " TCC_FAKE_CC=") + cc);
  ASSERT_EQ(compileAndRunEach(h, main, envs, &out), 0) << out[0];
  std::string launch = "launch vector_add from ";
  std::string tail = " grid 4x1x1 block 128\n";
  EXPECT_EQ(out[0], "load cubin sm_90\n" + launch + "cubin sm_90" + tail); // the sm_90a one
  EXPECT_EQ(out[1], "load cubin sm_80\n" + launch + "cubin sm_80" + tail);
  EXPECT_EQ(out[2], "jit ptx sm_100 for sm_100\n" + launch + "ptx sm_100" + tail);
  EXPECT_EQ(out[3], "jit ptx sm_100 for sm_120\n" + launch + "ptx sm_100" + tail);
  // Older than every variant: the last one is launched and says why it cannot run.
  EXPECT_NE(out[4].find("caught: tcc: kernel 'vector_add': loading the cubin embedded for "
                        "vector_add (sm_80): the cubin is built for sm_80 but the device is "
                        "tcc fake GPU 0 (sm_75)"),
            std::string::npos)
      << out[4];
}

// TMA tensor maps in a header (docs/artifacts.md, "tensormaps"): a variant with a map is
// given its spec once, taken only where TMA accepts the arguments (as tcc::Kernel does), and
// its launches encode the map and pass it after the arguments; on the fake driver, also one
// older than CUDA 12.
TEST(HeaderWriter, TensorMapVariantsEncodeAndPassTheirMaps) {
  tcc::KernelArtifact tma;
  tma.name = "tma_copy";
  tma.params = {{"x", "*f16", 16}, {"out", "*f32"}, {"M", "i32"}, {"K", "i32"},
                {"stride_xm", "i32", 16}};
  tma.constexprs = {{"BM", 128}};
  tma.grid = {"cdiv(M, BM)", "1", "1"};
  tma.arch = "sm_90a";
  tma.cubin = faketest::cudaElf(8, 0x6000004u | (90u << 8), "FAKE_TMAP=5,1");
  tma.tensorMaps = {{"x", "f16", {"K", "M"}, {"stride_xm * 2"}, {64, 128}, 128, 128, "zero"}};
  tcc::KernelArtifact general = tma;
  general.params[0].divisibility = general.params[4].divisibility = 1;
  general.arch = "sm_90";
  general.cubin = faketest::cudaElf(8, 0x6000004u | (90u << 8), "general");
  general.tensorMaps.clear();
  tcc::HeaderOptions o;
  o.cxxNamespace = "tma";
  std::string err, h = generate({general, tma}, o, &err);
  ASSERT_FALSE(h.empty()) << err;
  EXPECT_NE(h.find("// variant 0: x % 16 == 0, stride_xm % 16 == 0, sm_90a, 1 TMA tensor map\n"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("kernel.setTensorMaps(\n      " +
                   // The spec, as a C string (quotes escaped).
                   std::string("\"{\\\"params\\\":[{\\\"name\\\":\\\"x\\\",\\\"type\\\":\\\"*f16\\\",") +
                   "\\\"divisibility\\\":16}"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("tcc_embedded_tma_copy::variant0().runsOnCurrentDevice() && x % 16u == 0 && "
                   "stride_xm % 16 == 0 && tcc_embedded_tma_copy::variant0().tensorMapsAccept("
                   "tcc_args)"),
            std::string::npos)
      << h;
  EXPECT_EQ(h.find("variant1().tensorMapsAccept"), std::string::npos) << h;
  const char* main = R"(
#include "kernel.h"
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
int main() {
  void* fake = dlopen(std::getenv("TCC_LIBCUDA"), RTLD_NOW);
  auto takeLog = reinterpret_cast<const char* (*)()>(dlsym(fake, "tcc_fake_take_log"));
  const CUdeviceptr x = 0x7f0000001000ull, out = 0x7f0000100000ull;
  for (int stride : {512, 512, 520, 100}) {
    try {
      tma::tma_copy(nullptr, x, out, 1000, 512, stride);
      std::printf("stride %d:\n%s", stride, takeLog());
    } catch (const tcc::Error& e) {
      std::printf("stride %d: caught: %s\n%s", stride, e.what(), takeLog());
    }
  }
  return 0;
}
)";
  std::vector<std::string> out;
  ASSERT_EQ(compileAndRunEach(h, main,
                              {"TCC_LIBCUDA=" TCC_TEST_FAKE_CUDA,
                               "TCC_LIBCUDA=" TCC_TEST_FAKE_CUDA_11},
                              &out),
            0)
      << out[0];
  // 512: the TMA variant, its map encoded once and cached; 520 (x % 16 holds but not
  // stride_xm % 16) and 100 (neither): the general one, without a map.
  const std::string launch = "launch tma_copy from cubin sm_90 grid 8x1x1 block 128\n";
  EXPECT_EQ(out[0], "stride 512:\nload cubin sm_90\n"
                    "encode dtype 6 rank 2 address 0x7f0000001000 dims 512,1000 strides 1024 box "
                    "64,128 element_strides 1,1 interleave 0 swizzle 3 l2 2 oob 0 -> map 1\n" +
                        launch + "  params[5]: fake tensor map 1 of 0x7f0000001000\n"
                    "stride 512:\n" + launch + "  params[5]: fake tensor map 1 of 0x7f0000001000\n"
                    "stride 520:\nload cubin sm_90\n" + launch + "stride 100:\n" + launch);
  // A driver older than CUDA 12: the TMA variant says why it cannot run; the general runs.
  EXPECT_EQ(out[1], "stride 512: caught: tcc: kernel 'tma_copy': encoding the TMA tensor map "
                    "of 'x': the CUDA driver lacks cuTensorMapEncodeTiled: kernels with TMA "
                    "tensor maps need the driver of CUDA 12.0 or newer (this one is CUDA 11.8)\n"
                    "load cubin sm_90\n"
                    "stride 512: caught: tcc: kernel 'tma_copy': encoding the TMA tensor map "
                    "of 'x': the CUDA driver lacks cuTensorMapEncodeTiled: kernels with TMA "
                    "tensor maps need the driver of CUDA 12.0 or newer (this one is CUDA 11.8)\n"
                    "stride 520:\nload cubin sm_90\n" + launch + "stride 100:\n" + launch);
}

// A header whose only (general) variant has a map: what TMA cannot take is the launch's error.
TEST(HeaderWriter, ATensorMapTheArgumentsCannotFillIsTheLaunchsError) {
  tcc::KernelArtifact a;
  a.name = "tma_copy";
  a.params = {{"x", "*bf16"}, {"n", "i64"}};
  a.grid = {"1", "1", "1"};
  a.arch = "sm_90a";
  a.cubin = faketest::cudaElf(8, 0x6000004u | (90u << 8), "FAKE_TMAP=2,1");
  a.tensorMaps = {{"x", "bf16", {"n"}, {}, {8}, 0, 64, "nan"}};
  std::string err, h = generate({a}, {}, &err);
  ASSERT_FALSE(h.empty()) << err;
  const char* main = R"(
#include "kernel.h"
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
int main() {
  void* fake = dlopen(std::getenv("TCC_LIBCUDA"), RTLD_NOW);
  auto takeLog = reinterpret_cast<const char* (*)()>(dlsym(fake, "tcc_fake_take_log"));
  for (long long n : {4096LL, 0LL}) {
    try {
      tma_copy(nullptr, 0x7f0000002000ull, n);
      std::printf("%s", takeLog());
    } catch (const tcc::Error& e) {
      std::printf("caught: %s\n%s", e.what(), takeLog());
    }
  }
  return 0;
}
)";
  std::vector<std::string> out;
  ASSERT_EQ(compileAndRunEach(h, main, {"TCC_LIBCUDA=" TCC_TEST_FAKE_CUDA}, &out), 0) << out[0];
  EXPECT_EQ(out[0], "load cubin sm_90\n"
                    "encode dtype 9 rank 1 address 0x7f0000002000 dims 4096 strides  box 8 "
                    "element_strides 1 interleave 0 swizzle 0 l2 1 oob 1 -> map 1\n"
                    "launch tma_copy from cubin sm_90 grid 1x1x1 block 128\n"
                    "  params[2]: fake tensor map 1 of 0x7f0000002000\n"
                    "caught: tcc: kernel 'tma_copy': checking the arguments against the TMA tensor "
                    "maps: tensor map 0 of 'x' (bf16, box [8]): dims[0] ('n') is 0, outside "
                    "1..2^32 (TMA's extents); address 0x7f0000002000, dims [0], strides_bytes []\n");
}

// ---- Autotuned kernels in a header (docs/autotuning.md) ------------------------------

// Configuration `index` of kernel inc(out: *i32, n: i32) (the fake's FAKE_INC adds 1 to
// out[0..n)), one launch taking `ms` on the fake's clock.
std::vector<tcc::KernelArtifact> incConfig(int index, int block, int warps, double ms) {
  tcc::KernelArtifact a;
  a.name = "inc";
  a.params = {{"out", "*i32"}, {"n", "i32"}};
  a.constexprs = {{"BLOCK", block}};
  a.numWarps = warps;
  a.numStages = 2;
  a.grid = {"cdiv(n, BLOCK)", "1", "1"};
  a.arch = "sm_90";
  a.cubin = faketest::cudaElf(8, 0x6000004u | (90u << 8),
                              "FAKE_INC FAKE_MS=" + std::to_string(ms));
  a.autotune = tcc::KernelAutotune{"0123456789abcdef", index, 4, {"n"}, {"out"}, {"out"}};
  tcc::KernelArtifact aligned = a;
  aligned.params[0].divisibility = aligned.params[1].divisibility = 16;
  aligned.cubin += " aligned";
  return {a, aligned};
}

// Configuration 2 (BLOCK 1024, 4 warps) is the fastest; 1 was pruned; 3 is the slowest.
std::vector<std::vector<tcc::KernelArtifact>> incSpace() {
  return {incConfig(3, 2048, 8, 2.0), incConfig(0, 256, 1, 1.0), incConfig(2, 1024, 4, 0.25)};
}

std::string incTable(const std::string& entries, const std::string& space = "0123456789abcdef") {
  return "{\"format\": \"tcc-tuning-table\", \"version\": 1, \"kernel\": \"inc\", \"space\": \"" +
         space + "\", \"entries\": [" + entries + "]}\n";
}

// Launches inc with n = 1000 twice, printing the launches each took, the last launch and how
// the choice was made.
const char* kTunedMain = R"(
#include "kernel.h"
#include "tcc/driver.h"
#include "tcc/runtime.h"
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
int main() {
  void* fake = dlopen(std::getenv("TCC_LIBCUDA"), RTLD_NOW);
  auto takeLog = reinterpret_cast<const char* (*)()>(dlsym(fake, "tcc_fake_take_log"));
  auto launches = reinterpret_cast<long (*)()>(dlsym(fake, "tcc_fake_launch_count"));
  try {
    tcc::ensureContext();
    CUdeviceptr out = 0;
    tcc::driver().cuMemAlloc(&out, 4096);
    tcc::driver().cuMemsetD8(out, 0, 4096);
    takeLog();
    for (int i = 0; i < 2; ++i) {
      long before = launches();
      tuned::inc(nullptr, out, 1000);
      std::string log = takeLog();
      std::string last = log.substr(log.rfind("launch inc"));
      std::printf("launches %ld; %s", launches() - before, last.c_str());
    }
    int host[1000];
    tcc::driver().cuMemcpyDtoH(host, out, sizeof host);
    std::printf("out[0] %d out[999] %d\n", host[0], host[999]);
    for (const tcc::TuningReport& r : tuned::tcc_embedded_inc::tuning().tunings())
      std::printf("key [%s] chose %d (%s) source %d origin %s\n", r.key.c_str(), r.chosenIndex,
                  r.chosenConfig.c_str(), static_cast<int>(r.source), r.origin.c_str());
  } catch (const tcc::Error& e) {
    std::printf("caught: %s\n", e.what());
  }
  return 0;
}
)";

std::string tunedHeader(const std::string& table) {
  tcc::HeaderOptions o;
  o.cxxNamespace = "tuned";
  std::string err, h;
  EXPECT_TRUE(tcc::generateTunedHeader(incSpace(), table, o, &h, &err)) << err;
  return h;
}

// Runs kTunedMain against `header` on the fake driver with an empty disk cache of its own.
std::string runTuned(const std::string& header, const std::string& env = "") {
  char tmpl[] = "/tmp/tcc-header-cache-XXXXXX";
  std::string cache = ::mkdtemp(tmpl);
  std::vector<std::string> out;
  int status = compileAndRunEach(header, kTunedMain,
                                 {"TCC_LIBCUDA=" TCC_TEST_FAKE_CUDA " TCC_CACHE_DIR=" + cache +
                                  " " + env},
                                 &out);
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
  EXPECT_EQ(status, 0) << out[0];
  return out[0];
}

long launchesOf(const std::string& out, int which) {
  size_t at = 0;
  for (int i = 0; i <= which; ++i) {
    at = out.find("launches ", at);
    if (at == std::string::npos)
      return -1;
    at += 9;
  }
  return std::atol(out.c_str() + at);
}

TEST(HeaderWriter, AutotunedHeaderEmbedsEveryConfigurationAndTunesLikeALibrary) {
  std::string h = tunedHeader("");
  // Every configuration in index order, each with its variants, the tuner, and the
  // launcher asking it.
  size_t c0 = h.find("// configuration 0: BLOCK=256, num_warps=1, num_stages=2\n");
  size_t c2 = h.find("// configuration 2: BLOCK=1024, num_warps=4, num_stages=2\n");
  size_t c3 = h.find("// configuration 3: BLOCK=2048, num_warps=8, num_stages=2\n");
  ASSERT_NE(c0, std::string::npos) << h;
  ASSERT_NE(c2, std::string::npos) << h;
  ASSERT_NE(c3, std::string::npos) << h;
  EXPECT_LT(c0, c2);
  EXPECT_LT(c2, c3);
  EXPECT_NE(h.find("kernel inc (autotuned over 3 configurations, 6 variants)"), std::string::npos)
      << h;
  EXPECT_NE(h.find("static ::tcc::EmbeddedTuning tcc_tuning(\"inc\", \"0123456789abcdef\", "
                   "tcc_key, 1, tcc_configs, 3, tcc_saved, 1, nullptr, 0);"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("{2, \"BLOCK=1024, num_warps=4, num_stages=2\"},"), std::string::npos) << h;
  EXPECT_EQ(h.find("tuning_table"), std::string::npos) << h;

  // No table: the first launch benchmarks (restoring out), the second is one launch with the
  // fastest configuration (4 warps: 128 threads); out saw the two real launches only.
  std::string out = runTuned(h);
  EXPECT_GT(launchesOf(out, 0), 30) << out;
  EXPECT_EQ(launchesOf(out, 1), 1) << out;
  EXPECT_NE(out.find("launch inc from cubin sm_90 grid 1x1x1 block 128\nlaunches 1; launch inc "
                     "from cubin sm_90 grid 1x1x1 block 128\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("out[0] 2 out[999] 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("key [n=1024] chose 2 (BLOCK=1024, num_warps=4, num_stages=2) source 0"),
            std::string::npos)
      << out;
}

TEST(HeaderWriter, ATuningTableInTheHeaderWinsOverTuning) {
  // The table says configuration 3 (8 warps) for this device and key: no benchmarking.
  std::string table = incTable(
      "{\"device\": \"tcc fake GPU 0\", \"cc\": 90, \"key\": \"n=1024\", \"index\": 3, "
      "\"config\": \"BLOCK=2048, num_warps=8, num_stages=2\", \"medians_ms\": {\"3\": 0.1}}");
  std::string h = tunedHeader(table);
  EXPECT_NE(h.find("inline const char tuning_table[] ="), std::string::npos) << h;
  EXPECT_NE(h.find("tcc_saved, 1, tuning_table, sizeof(tuning_table) - 1);"), std::string::npos)
      << h;
  std::string out = runTuned(h);
  EXPECT_EQ(launchesOf(out, 0), 1) << out;
  EXPECT_EQ(launchesOf(out, 1), 1) << out;
  EXPECT_NE(out.find("launches 1; launch inc from cubin sm_90 grid 1x1x1 block 256\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("out[0] 2 out[999] 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("chose 3 (BLOCK=2048, num_warps=8, num_stages=2) source " +
                     std::to_string(static_cast<int>(tcc::TuningReport::Source::TuningTable)) +
                     " origin the tuning table embedded for inc\n"),
            std::string::npos)
      << out;
  // Another device of the same compute capability takes it too (after none of its own).
  std::string sameCc = tunedHeader(incTable(
      "{\"device\": \"NVIDIA H200\", \"cc\": 90, \"key\": \"n=1024\", \"index\": 0, "
      "\"config\": \"BLOCK=256, num_warps=1, num_stages=2\"}"));
  out = runTuned(sameCc);
  EXPECT_EQ(launchesOf(out, 0), 1) << out;
  EXPECT_NE(out.find("grid 4x1x1 block 32\n"), std::string::npos) << out;
  EXPECT_NE(out.find("origin the tuning table embedded for inc, an entry for NVIDIA H200"),
            std::string::npos)
      << out;
}

TEST(HeaderWriter, ATuningTableForAnotherDeviceOrKeyIsNotUsed) {
  std::string h = tunedHeader(incTable(
      "{\"device\": \"NVIDIA A100\", \"cc\": 80, \"key\": \"n=1024\", \"index\": 3, "
      "\"config\": \"BLOCK=2048, num_warps=8, num_stages=2\"}, "
      "{\"device\": \"tcc fake GPU 0\", \"cc\": 90, \"key\": \"n=2048\", \"index\": 3, "
      "\"config\": \"BLOCK=2048, num_warps=8, num_stages=2\"}"));
  std::string out = runTuned(h);
  EXPECT_GT(launchesOf(out, 0), 30) << out; // benchmarked
  EXPECT_NE(out.find("chose 2 (BLOCK=1024, num_warps=4, num_stages=2) source 0"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("warning"), std::string::npos) << out;
}

TEST(HeaderWriter, ACorruptTuningTableIsIgnoredWithOneWarning) {
  struct Case {
    std::string table, warning;
  };
  const std::vector<Case> cases = {
      {"{\"format\": \"tcc-tuning-table\", \"vers", "not valid JSON"},
      {incTable("", "fedcba9876543210"), "not the table of kernel 'inc' in space 0123456789abcdef"},
      {incTable("{\"device\": \"tcc fake GPU 0\", \"cc\": 90, \"key\": \"n=1024\", \"index\": 1, "
                "\"config\": \"BLOCK=512, num_warps=2, num_stages=2\"}"),
       "it names configuration 1 (BLOCK=512, num_warps=2, num_stages=2), which is not loaded"},
      {incTable("{\"device\": \"tcc fake GPU 0\", \"cc\": 90, \"driver\": 13000, \"key\": "
                "\"n=1024\", \"index\": 3, \"config\": \"BLOCK=2048, num_warps=8, num_stages=2\"}"),
       "1 malformed entry of the tuning table the tuning table embedded for inc (an entry has "
       "the field \"driver\""},
  };
  for (const Case& c : cases) {
    std::string out = runTuned(tunedHeader(c.table));
    EXPECT_GT(launchesOf(out, 0), 30) << out; // benchmarked: the table was not trusted
    EXPECT_EQ(launchesOf(out, 1), 1) << out;
    size_t first = out.find("tcc: warning: ");
    EXPECT_NE(first, std::string::npos) << out;
    EXPECT_EQ(out.find("tcc: warning: ", first + 1), std::string::npos) << out;
    EXPECT_NE(out.find(c.warning), std::string::npos) << out;
    EXPECT_NE(out.find("out[0] 2 out[999] 2\n"), std::string::npos) << out;
  }
}

TEST(HeaderWriter, AutotunedHeaderChecksItsConfigurations) {
  std::string err, h;
  auto space = incSpace();
  space[1][0].autotune->space = "fedcba9876543210";
  EXPECT_FALSE(tcc::generateTunedHeader(space, "", {}, &h, &err));
  EXPECT_NE(err.find("not of one autotune space"), std::string::npos) << err;
  space = incSpace();
  space[1][0].autotune->index = space[1][1].autotune->index = 3;
  EXPECT_FALSE(tcc::generateTunedHeader(space, "", {}, &h, &err));
  EXPECT_NE(err.find("two configurations have autotune index 3"), std::string::npos) << err;
  space = incSpace();
  space[2][1].autotune.reset();
  EXPECT_FALSE(tcc::generateTunedHeader(space, "", {}, &h, &err));
  EXPECT_NE(err.find("has no autotune metadata"), std::string::npos) << err;
  // One configuration kept: a plain launcher.
  ASSERT_TRUE(tcc::generateTunedHeader({incConfig(2, 1024, 4, 1)}, "", {}, &h, &err)) << err;
  EXPECT_EQ(h.find("EmbeddedTuning"), std::string::npos) << h;
  EXPECT_NE(h.find("inline void inc(CUstream tcc_stream, CUdeviceptr out, int32_t n)"),
            std::string::npos)
      << h;
}

// The compiler's description of a configuration is the runtime's (the "config" of the disk
// cache and of tuning tables compare them as text).
TEST(HeaderWriter, ConfigurationStringIsTheRuntimes) {
  tcc::KernelArtifact a = variant(1);
  a.constexprs = {{"BLOCK", 1024}, tcc::KernelConstexpr::boolean("EVEN", true),
                  tcc::KernelConstexpr::number("EPS", 1e-5),
                  tcc::KernelConstexpr::string("ACT", "re\"lu")};
  a.numWarps = 8;
  a.numStages = 4;
  tcc::KernelMetadata m = tcc::parseMetadata(tcc::artifactMetadataJson(a, "k.cubin"), "k.json", "");
  EXPECT_EQ(tcc::configurationString(a), m.configString());
  EXPECT_EQ(tcc::configurationString(a),
            "BLOCK=1024, EVEN=True, EPS=1e-05, ACT=\"re\\\"lu\", num_warps=8, "
            "num_stages=4");
}

} // namespace
