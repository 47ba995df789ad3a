#include "workloads.h"

#include "common.h"
#include "triton_kernels.h"
#include "tutorial_philox.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>

namespace benchutil {
namespace {

struct Workload {
  std::string name;   // "softmax_16384x4096"
  // What its arguments and check are: transpose, softmax, softmax_persistent, bias_add,
  // layernorm, matmul, matmul_bias, and for the tutorials' own t01_add,
  // t04_dropout, t04_seeded_dropout, t05_layernorm, t06_attention, t07_asin, t08_grouped
  // (02 runs as softmax_persistent, 03 and 09 as matmul: the same signatures).
  std::string kernel;
  std::string folder; // artifacts/tcc/<folder>: the kernel's, or a tutorial port's
  std::string entry;  // the kernel's name in its library
  std::string prefix, exclude; // only configuration folders named prefix* without `exclude`
  // A GEMM's element type: only configurations whose constexpr DTYPE is this (those without
  // one, matmul_bias and the tutorials' ports, are f16) run it.
  std::string dtype = "f16";
  std::string block = "BLOCK"; // the constexpr that must be the next power of two >= N
                               // (rows in one block; "": none)
  int64_t M = 0, N = 0, K = 0;
  bool gemm = false; // rated in TFLOP/s (else GB/s)
  double bytes = 0;  // that must move (read + written)
  double flops = 0;  // that must be computed (0: pure data movement)
  // t06_attention: M = N_CTX, N = HEAD_DIM, K = Z * H (the export's shape), Z and H apart,
  // and whether the mask is causal (STAGE 3).
  int64_t Z = 0, H = 0;
  bool causal = false;
};

constexpr int kGroup = 4; // tutorial 08's benchmark: groups of 4 GEMMs of one size
// Tutorial 06's benchmark (BATCH, N_HEADS, one N_CTX of it) and the scale of its test; the
// same in bench/triton_bench.py (ATTN_*), whose exported launches carry these values.
constexpr int64_t kAttnZ = 4, kAttnH = 32, kAttnNCtx = 4096;
constexpr float kAttnScale = 0.5f;

std::string shape(int64_t m, int64_t n) {
  return std::to_string(m) + "x" + std::to_string(n);
}

double dbl(int64_t v) { return static_cast<double>(v); }

// The workloads of PERFORMANCE.md / issues 5 and 7, fp32 unless named, then the ports of
// Triton's tutorials (issue 13). FLOPs per element: softmax 5 (max, subtract, exp, sum,
// divide), bias add 1, layer norm 7 (sum, subtract, square and sum, scale, weight, bias),
// the tutorials' layer norm 8 (its second pass masks), dropout 1 (the division; Philox's
// integer work is not counted); a matmul 2 M N K (+ M N for the bias), its bytes the
// operands and the result once.
std::vector<Workload> workloads() {
  std::vector<Workload> r;
  auto mem = [&](const std::string& kernel, int64_t m, int64_t n, double extra,
                 double flopsPerElement) {
    Workload w;
    w.name = kernel + "_" + shape(m, n);
    w.kernel = w.folder = w.entry = kernel;
    w.M = m;
    w.N = n;
    w.bytes = 2.0 * 4 * dbl(m) * dbl(n) + extra * 4 * dbl(n);
    w.flops = flopsPerElement * dbl(m) * dbl(n);
    r.push_back(w);
  };
  mem("transpose", 16384, 16384, 0, 0);
  mem("softmax", 32768, 1024, 0, 5);
  mem("softmax", 16384, 4096, 0, 5);
  mem("softmax", 4096, 16384, 0, 5);
  // Triton's fused-softmax tutorial: 4096 rows, a grid of num_sms * occupancy programs.
  mem("softmax_persistent", 4096, 1024, 0, 5);
  mem("softmax_persistent", 4096, 4096, 0, 5);
  mem("softmax_persistent", 4096, 16384, 0, 5);
  mem("softmax_persistent", 4096, 12672, 0, 5); // the tutorial's widest row (128 x 99): masked
  mem("bias_add", 16384, 16384, 1, 1);
  mem("layernorm", 16384, 4096, 2, 7);
  mem("layernorm", 32768, 1024, 2, 7);
  mem("layernorm", 4096, 16384, 2, 7);
  auto mm = [&](const std::string& kernel, const std::string& name, int64_t s) {
    Workload w;
    w.name = name;
    w.kernel = w.folder = w.entry = kernel;
    w.M = w.N = w.K = s;
    w.gemm = true;
    const bool bias = kernel == "matmul_bias";
    w.bytes = 2.0 * (3 * dbl(s) * dbl(s) + (bias ? dbl(s) : 0));
    w.flops = 2.0 * dbl(s) * dbl(s) * dbl(s) + (bias ? dbl(s) * dbl(s) : 0);
    r.push_back(w);
    return &r.back();
  };
  mm("matmul", "matmul_fp16_1024^3", 1024);
  mm("matmul", "matmul_fp16_4096^3", 4096);
  mm("matmul_bias", "matmul_bias_fp16_4096^3", 4096);
  // The same product on bf16 operands: matmul.tile's configurations built with -D DTYPE=bf16.
  mm("matmul", "matmul_bf16_4096^3", 4096)->dtype = "bf16";
  // 8192^3 (issue 11: against cuBLAS and Triton at the size where both are at their best).
  mm("matmul", "matmul_fp16_8192^3", 8192);
  mm("matmul", "matmul_bf16_8192^3", 8192)->dtype = "bf16";
  {
    // Few tiles and a long K (16 tiles of 128 x 128 on 132 SMs): what --split-k is for.
    Workload* w = mm("matmul", "matmul_fp16_512x512x8192", 512);
    w->K = 8192;
    w->bytes = 2.0 * (512.0 * 8192 * 2 + 512.0 * 512);
    w->flops = 2.0 * 512.0 * 512 * 8192;
  }

  // Triton's tutorials: tcc's ports (lang-examples/triton/, artifacts tcc/triton_0N_*) at
  // the tutorials' shapes; bench/triton_bench.py exports the original kernels under the
  // same names.
  auto port = [&](const std::string& name, const std::string& kernel, const std::string& folder,
                  const std::string& entry, int64_t m, int64_t n, double bytes, double flops) {
    Workload w;
    w.name = name;
    w.kernel = kernel;
    w.folder = folder;
    w.entry = entry;
    w.block = "";
    w.M = m;
    w.N = n;
    w.bytes = bytes;
    w.flops = flops;
    r.push_back(w);
    return &r.back();
  };
  for (int64_t n : {int64_t(98432), int64_t(1) << 27}) // 01's test size, its benchmark's largest
    port("triton_01_vector_add_" + std::to_string(n), "t01_add", "triton_01_vector_add",
         "add_kernel", n, 1, 12.0 * dbl(n), dbl(n));
  for (int64_t n : {1024, 4096, 12672}) // 02's benchmark: 4096 rows, 128 x i columns (i < 100)
    port("triton_02_fused_softmax_4096x" + std::to_string(n), "softmax_persistent",
         "triton_02_fused_softmax", "softmax_kernel", 4096, n, 8.0 * 4096 * dbl(n),
         5.0 * 4096 * dbl(n))
        ->block = "BLOCK_SIZE";
  {
    // 03's benchmark, fp16, its largest square (128 x 32); the port without an activation.
    Workload* w = mm("matmul", "triton_03_matmul_fp16_4096^3", 4096);
    w->folder = "triton_03_matrix_multiplication";
    w->entry = "matmul_kernel";
    w->exclude = "leaky";
  }
  {
    // 09's benchmark: fp16, M = N = 8192, K = 512 (its default K); the pointer kernel.
    Workload* w = mm("matmul", "triton_09_persistent_matmul_fp16_8192x8192x512", 8192);
    w->K = 512;
    w->bytes = 2.0 * (8192.0 * 512 * 2 + 8192.0 * 8192);
    w->flops = 2.0 * 8192.0 * 8192 * 512;
    w->folder = "triton_09_persistent_matmul";
    w->entry = "matmul_kernel_persistent";
    w->prefix = "persistent_";
  }
  {
    // 08's benchmark: groups of 4 square fp16 GEMMs, N = 2^7..2^10; the largest.
    Workload* w = mm("t08_grouped", "triton_08_grouped_gemm_fp16_4x1024^3", 1024);
    w->bytes *= kGroup;
    w->flops *= kGroup;
    w->folder = "triton_08_grouped_gemm";
    w->entry = "grouped_matmul_kernel";
  }
  const int64_t nd = int64_t(1) << 27; // 04 has no benchmark: 01's largest size
  port("triton_04_dropout_" + std::to_string(nd), "t04_dropout", "triton_04_low_memory_dropout",
       "_dropout", nd, 1, 12.0 * dbl(nd), dbl(nd))
      ->prefix = "plain_";
  port("triton_04_seeded_dropout_" + std::to_string(nd), "t04_seeded_dropout",
       "triton_04_low_memory_dropout", "_seeded_dropout", nd, 1, 8.0 * dbl(nd), dbl(nd))
      ->prefix = "seeded_";
  for (int64_t n : {1024, 4096, 8192, 15872}) { // 05's benchmark: M = 4096, N = 512 x i (i < 32)
    // fp16 x read and y written, fp16 w and b, f32 mean and rstd per row.
    Workload* w = port("triton_05_layer_norm_fwd_4096x" + std::to_string(n), "t05_layernorm",
                       "triton_05_layer_norm", "_layer_norm_fwd_fused", 4096, n,
                       2.0 * 2 * 4096 * dbl(n) + 2.0 * 2 * dbl(n) + 2.0 * 4 * 4096,
                       8.0 * 4096 * dbl(n));
    w->prefix = "fwd_";
    w->block = "BLOCK_SIZE";
  }
  // 07's asin over 01's largest size (its example's 98432 is too small to time): f32 read
  // and written, one libdevice asinf an element.
  port("triton_07_extern_functions_" + std::to_string(nd), "t07_asin", "triton_07_extern_functions",
       "asin_kernel", nd, 1, 8.0 * dbl(nd), dbl(nd));
  // 06's benchmark forward: BATCH 4, N_HEADS 32, fp16, N_CTX 4096 (of its 2^10..2^14), head
  // dimensions 64 and 128, non-causal and causal; FLOPs as it counts them (two matmuls of
  // 2 Z H N_CTX^2 HEAD_DIM, half of it causal); bytes Q, K, V read and O written (fp16), and
  // M (f32, one per row).
  for (int64_t d : {64, 128}) {
    for (bool causal : {false, true}) {
      const int64_t z = kAttnZ, h = kAttnH, nc = kAttnNCtx;
      const double rows = dbl(z) * dbl(h) * dbl(nc);
      Workload* w = port("triton_06_fused_attention_" + std::string(causal ? "causal_" : "") +
                             "fp16_" + std::to_string(z) + "x" + std::to_string(h) + "x" +
                             std::to_string(nc) + "x" + std::to_string(d),
                         "t06_attention", "triton_06_fused_attention", "_attn_fwd", nc, d,
                         4.0 * 2 * rows * dbl(d) + 4.0 * rows,
                         4.0 * rows * dbl(nc) * dbl(d) * (causal ? 0.5 : 1.0));
      w->K = z * h;
      w->Z = z;
      w->H = h;
      w->causal = causal;
      w->gemm = true;
      // Folders hd64_c4_W4_S3, hd64_causal_c4_W4_S3, their c13 (128 x 64) ones, and for
      // head dimension 128 also hd128_c16_W8_S2 and its causal one
      // (test/gpu/artifacts.cmake): the best is timed.
      w->prefix = "hd" + std::to_string(d) + (causal ? "_causal_" : "_");
      if (!causal)
        w->exclude = "causal";
    }
  }
  return r;
}

int64_t nextPow2(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

int64_t constexprOf(const tcc::KernelMetadata& m, const std::string& name, int64_t otherwise) {
  for (const auto& c : m.constexprs)
    if (c.first == name)
      return c.second.asInt();
  return otherwise;
}

// A constexpr whose value is a type or a string ("bf16"), or `otherwise` where there is none.
std::string constexprText(const tcc::KernelMetadata& m, const std::string& name,
                          const std::string& otherwise) {
  for (const auto& c : m.constexprs)
    if (c.first == name)
      return c.second.isString() ? c.second.asString() : c.second.toString();
  return otherwise;
}

// Whether a configuration folder holds the workload's kernel: a tutorial's folders of the
// right kernel (04 and 05 keep several kernels' configurations side by side).
// A twin built with flags (WS_, NOPERSISTENT_ or PERSISTENT_, PINGPONG_, TMASTORE_, MULTICAST_,
// SPLITK2_ or SPLITK4_, in that order, + the folder's name:
// test/gpu/artifacts.cmake's tcc_example_twin) applies where its twin does.
bool folderApplies(const Workload& w, const std::string& config) {
  std::string name = config;
  for (const char* marker : {"WS_", "NOPERSISTENT_", "PERSISTENT_", "PINGPONG_", "TMASTORE_",
                             "MULTICAST_", "SPLITK2_", "SPLITK4_"})
    if (name.rfind(marker, 0) == 0)
      name = name.substr(std::string(marker).size());
  return name.compare(0, w.prefix.size(), w.prefix) == 0 &&
         (w.exclude.empty() || name.find(w.exclude) == std::string::npos);
}

// Whether a configuration runs the workload as the benchmark means it: rows in one block
// (BLOCK = next power of two >= N), the bias matmul without ReLU (what addmm does), a GEMM
// on operands of its element type (matmul.tile's DTYPE).
bool applies(const Workload& w, const tcc::KernelMetadata& m) {
  if (w.kernel == "softmax" || w.kernel == "softmax_persistent" || w.kernel == "layernorm" ||
      w.kernel == "t05_layernorm")
    return w.block.empty() || constexprOf(m, w.block, 0) == nextPow2(w.N);
  if (w.gemm && constexprText(m, "DTYPE", "f16") != w.dtype)
    return false;
  if (w.kernel == "matmul_bias")
    return constexprOf(m, "RELU", 1) == 0;
  return true;
}

uint16_t toHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t a = x & 0x7fffffffu;
  // The bench only converts normal values well inside f16's range.
  uint32_t h = (a >> 13) - (112u << 10);
  const uint32_t rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
    ++h;
  return static_cast<uint16_t>(sign | h);
}

// bf16: the high half of an f32, rounded to nearest even.
uint16_t toBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

double fromBf16(uint16_t h) {
  uint32_t x = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

double fromHalf(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0    ? std::ldexp(m, -24)
             : e == 31 ? (m ? NAN : INFINITY)
                       : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

constexpr uint32_t kPoison32 = 0x7fbadbadu;
constexpr uint16_t kPoison16 = 0x7e5bu;

// Rows checked of an M-row output: 513 spread evenly, the first and the last included.
std::vector<int64_t> sampleRows(int64_t m) {
  std::vector<int64_t> r;
  for (int64_t k = 0; k <= 512; ++k)
    r.push_back(k * (m - 1) / 512);
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

using LaunchFn = std::function<void(CUstream)>;
// Checks a workload's output after launch(nullptr): "" when correct, else what is wrong.
using CheckFn = std::function<std::string(const LaunchFn& launch)>;

struct MatmulBuffers {
  int64_t M = 0, N = 0, K = 0; // the shape they were made for
  bool bf16 = false; // the operands' type (else f16)
  tcc::bench::DeviceBuffer a, b, bias, c;
  std::vector<uint16_t> ha, hb, hbias, hc;
};

// Compares a downloaded M x N product `hc` with A (M x K) x B (K x N) (+ the bias row):
// every element written (not the poison), 1024 sampled ones within 1 % of the sum of the
// magnitudes of their products. "" when correct.
std::string compareProduct(const uint16_t* ha, const uint16_t* hb, const uint16_t* hbias,
                           const uint16_t* hc, int64_t M, int64_t N, int64_t K,
                           const std::function<double(uint16_t)>& from16) {
  int64_t unwritten = 0;
  for (int64_t i = 0; i < M * N; ++i)
    unwritten += hc[i] == kPoison16;
  if (unwritten)
    return std::to_string(unwritten) + " elements of C never written";
  int64_t bad = 0;
  std::string first;
  uint64_t s = 12345;
  for (int t = 0; t < 1024; ++t) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const int64_t i = static_cast<int64_t>((s >> 33) % static_cast<uint64_t>(M));
    const int64_t j = static_cast<int64_t>((s >> 13) % static_cast<uint64_t>(N));
    double ref = 0, scale = 0;
    for (int64_t kk = 0; kk < K; ++kk) {
      const double p = from16(ha[i * K + kk]) * from16(hb[kk * N + j]);
      ref += p;
      scale += std::fabs(p);
    }
    if (hbias) {
      ref += from16(hbias[j]);
      scale += std::fabs(from16(hbias[j]));
    }
    const double got = from16(hc[i * N + j]);
    if (!(std::fabs(got - ref) <= 1e-2 * scale) && bad++ == 0)
      first = "(" + std::to_string(i) + ", " + std::to_string(j) + "): got " +
              std::to_string(got) + ", want " + std::to_string(ref);
  }
  return bad ? std::to_string(bad) + " of 1024 sampled elements wrong; the first at " + first
             : "";
}

// The tutorials' own buffers (one workload at a time): 04's keep mask and the reference
// mask of its seeded version, 05's fp16 data and f32 statistics. The 1-D tutorials read
// the shared x (and y) and write the shared out.
struct TutorialBuffers {
  tcc::bench::DeviceBuffer keep, x16, y16, w16, b16, mean, rstd;
  std::vector<int32_t> hkeep;    // 04: the keep mask given to _dropout
  std::vector<uint8_t> seedKeep; // 04: Philox's mask for the seed (computed once)
  std::vector<uint16_t> hx16, hw16, hb16;
  // 08: the group's matrices, one after the other in A, B and C, and the kernel's tables
  // (their addresses, sizes and leading dimensions).
  tcc::bench::DeviceBuffer ga, gb, gc, aPtrs, bPtrs, cPtrs, sizes, lds;
  std::vector<uint16_t> hga, hgb, hgc;
  // 06: Q, K, V and O (Z x H x N_CTX x HEAD_DIM, fp16) and M (Z x H x N_CTX, f32).
  tcc::bench::DeviceBuffer q, k, v, o, lse;
  std::vector<uint16_t> hq, hk, hv, ho;
  std::vector<float> hlse;
  // 07: its input in [-1, 1] (asin's domain; the shared x is not).
  tcc::bench::DeviceBuffer asinX;
  std::vector<float> hAsinX;
};


constexpr float kDropoutP = 0.5f; // as bench/triton_bench.py (DROPOUT_P, DROPOUT_SEED)
constexpr int32_t kDropoutSeed = 123;

// Compares a 1-D f32 output of n elements with want(i), bit for bit; "" when equal.
std::string checkExact1d(CUdeviceptr out, int64_t n, const std::function<float(int64_t)>& want,
                         const LaunchFn& launch, const std::string& what) {
  const tcc::Driver& d = tcc::driver();
  tcc::check(d.cuMemsetD32(out, kPoison32, static_cast<size_t>(n)), "poisoning");
  launch(nullptr);
  tcc::check(d.cuCtxSynchronize(), "running " + what, what);
  std::vector<float> got(static_cast<size_t>(n));
  tcc::check(d.cuMemcpyDtoH(got.data(), out, static_cast<size_t>(n) * 4), "downloading");
  int64_t bad = 0;
  std::string first;
  for (int64_t i = 0; i < n; ++i) {
    const float ref = want(i);
    if (std::memcmp(&ref, &got[static_cast<size_t>(i)], 4) != 0 && bad++ == 0)
      first = std::to_string(i) + ": got " + std::to_string(got[static_cast<size_t>(i)]) +
              ", want " + std::to_string(ref);
  }
  return bad ? std::to_string(bad) + " wrong elements; the first at " + first : "";
}

// The arguments and the check of one of the tutorials' own kinds (t01_add, t04_dropout,
// t04_seeded_dropout, t05_layernorm, t06_attention, t07_asin, t08_grouped), making its
// buffers on first use.
void tutorialSetup(const Workload& w, const SharedInputs& in, TutorialBuffers& t,
                   std::vector<tcc::Arg>* args, CheckFn* check) {
  const tcc::Driver& d = tcc::driver();
  const int64_t M = w.M, N = w.N;
  if (w.kernel == "t05_layernorm") {
    if (M * N > in.n || 2 * N > in.n)
      throw tcc::Error("benchmarking " + w.name, "the shared inputs are too small");
    if (!t.x16.get()) {
      // Tutorial 05's inputs: x = -2.3 + 0.5 z (here z = hx / 2, hx in +-[0.5, 4]), weight
      // and bias in (0, 1]; fp16.
      t.hx16.resize(static_cast<size_t>(M * N));
      for (int64_t i = 0; i < M * N; ++i)
        t.hx16[static_cast<size_t>(i)] = toHalf(-2.3f + 0.25f * in.hx[i]);
      t.hw16.resize(static_cast<size_t>(N));
      t.hb16.resize(static_cast<size_t>(N));
      for (int64_t j = 0; j < N; ++j) {
        t.hw16[static_cast<size_t>(j)] = toHalf(std::fabs(in.hy[j]) / 4);
        t.hb16[static_cast<size_t>(j)] = toHalf(std::fabs(in.hy[N + j]) / 4);
      }
      const size_t mn = static_cast<size_t>(M * N) * 2, n2 = static_cast<size_t>(N) * 2;
      t.x16 = tcc::bench::DeviceBuffer(mn);
      t.y16 = tcc::bench::DeviceBuffer(mn);
      t.w16 = tcc::bench::DeviceBuffer(n2);
      t.b16 = tcc::bench::DeviceBuffer(n2);
      t.mean = tcc::bench::DeviceBuffer(static_cast<size_t>(M) * 4);
      t.rstd = tcc::bench::DeviceBuffer(static_cast<size_t>(M) * 4);
      tcc::check(d.cuMemcpyHtoD(t.x16.get(), t.hx16.data(), mn), "uploading x");
      tcc::check(d.cuMemcpyHtoD(t.w16.get(), t.hw16.data(), n2), "uploading w");
      tcc::check(d.cuMemcpyHtoD(t.b16.get(), t.hb16.data(), n2), "uploading b");
    }
    *args = {t.x16.get(), t.y16.get(), t.w16.get(), t.b16.get(), t.mean.get(), t.rstd.get(),
             static_cast<int32_t>(N), static_cast<int32_t>(N), 1e-5f, static_cast<int32_t>(M)};
    *check = [&w, &t, M, N](const LaunchFn& launch) -> std::string {
      const tcc::Driver& d = tcc::driver();
      tcc::check(d.cuMemsetD32(t.y16.get(), (uint32_t(kPoison16) << 16) | kPoison16,
                               static_cast<size_t>(M * N / 2)),
                 "poisoning");
      tcc::check(d.cuMemsetD32(t.mean.get(), kPoison32, static_cast<size_t>(M)), "poisoning");
      tcc::check(d.cuMemsetD32(t.rstd.get(), kPoison32, static_cast<size_t>(M)), "poisoning");
      launch(nullptr);
      tcc::check(d.cuCtxSynchronize(), "running " + w.entry, w.entry);
      std::vector<float> mean(static_cast<size_t>(M)), rstd(static_cast<size_t>(M));
      tcc::check(d.cuMemcpyDtoH(mean.data(), t.mean.get(), static_cast<size_t>(M) * 4), "mean");
      tcc::check(d.cuMemcpyDtoH(rstd.data(), t.rstd.get(), static_cast<size_t>(M) * 4), "rstd");
      std::vector<uint16_t> got(static_cast<size_t>(N));
      int64_t bad = 0;
      std::string first;
      auto wrong = [&](const std::string& where, double g, double want) {
        if (bad++ == 0)
          first = where + ": got " + std::to_string(g) + ", want " + std::to_string(want);
      };
      for (int64_t i : sampleRows(M)) {
        tcc::check(d.cuMemcpyDtoH(got.data(), t.y16.get() + static_cast<CUdeviceptr>(i * N * 2),
                                  static_cast<size_t>(N) * 2),
                   "downloading a row");
        const uint16_t* xr = t.hx16.data() + i * N;
        double mu = 0, meanAbs = 0, var = 0;
        for (int64_t j = 0; j < N; ++j) {
          mu += fromHalf(xr[j]);
          meanAbs += std::fabs(fromHalf(xr[j]));
        }
        mu /= double(N);
        meanAbs /= double(N);
        for (int64_t j = 0; j < N; ++j)
          var += (fromHalf(xr[j]) - mu) * (fromHalf(xr[j]) - mu);
        const double rs = 1 / std::sqrt(var / double(N) + 1e-5);
        const std::string row = "row " + std::to_string(i);
        if (!(std::fabs(mean[static_cast<size_t>(i)] - mu) <= 1e-5 * std::fabs(mu) + 1e-6))
          wrong(row + " mean", mean[static_cast<size_t>(i)], mu);
        if (!(std::fabs(rstd[static_cast<size_t>(i)] - rs) <= 1e-5 * rs))
          wrong(row + " rstd", rstd[static_cast<size_t>(i)], rs);
        for (int64_t j = 0; j < N; ++j) {
          const double x = fromHalf(xr[j]), wj = fromHalf(t.hw16[static_cast<size_t>(j)]),
                       bj = fromHalf(t.hb16[static_cast<size_t>(j)]);
          const double ref = (x - mu) * rs * wj + bj;
          // One fp16 ulp of the result, and f32 rounding of the statistics on the way.
          const double bound = std::fabs(ref) * std::ldexp(1.0, -10) +
                               1e-5 * (std::fabs(wj) * rs * (std::fabs(x) + meanAbs) + std::fabs(bj));
          const double g = fromHalf(got[static_cast<size_t>(j)]);
          if (!(std::fabs(g - ref) <= bound))
            wrong("(" + std::to_string(i) + ", " + std::to_string(j) + ")", g, ref);
        }
      }
      return bad ? std::to_string(bad) + " wrong values in the sampled rows; the first at " + first
                 : "";
    };
    return;
  }
  if (w.kernel == "t06_attention") {
    const int64_t nCtx = M, D = N, zh = w.K, rows = zh * nCtx, elems = rows * D;
    if (2 * elems > in.n)
      throw tcc::Error("benchmarking " + w.name, "the shared inputs are too small");
    if (!t.q.get()) {
      // fp16 Q, K and V in +-[0.125, 1] from the shared inputs (+-[0.5, 4]): Q from the first
      // half of x, V from its second, K from y.
      const size_t e = static_cast<size_t>(elems);
      t.hq.resize(e);
      t.hk.resize(e);
      t.hv.resize(e);
      for (size_t i = 0; i < e; ++i) {
        t.hq[i] = toHalf(in.hx[i] / 4);
        t.hk[i] = toHalf(in.hy[i] / 4);
        t.hv[i] = toHalf(in.hx[e + i] / 4);
      }
      t.ho.resize(e);
      t.hlse.resize(static_cast<size_t>(rows));
      t.q = tcc::bench::DeviceBuffer(e * 2);
      t.k = tcc::bench::DeviceBuffer(e * 2);
      t.v = tcc::bench::DeviceBuffer(e * 2);
      t.o = tcc::bench::DeviceBuffer(e * 2);
      t.lse = tcc::bench::DeviceBuffer(static_cast<size_t>(rows) * 4);
      tcc::check(d.cuMemcpyHtoD(t.q.get(), t.hq.data(), e * 2), "uploading Q");
      tcc::check(d.cuMemcpyHtoD(t.k.get(), t.hk.data(), e * 2), "uploading K");
      tcc::check(d.cuMemcpyHtoD(t.v.get(), t.hv.data(), e * 2), "uploading V");
    }
    // _attn_fwd(sm_scale, M, Z, H, desc_q, desc_k, desc_v, desc_o, N_CTX): the port takes
    // pointers and makes the descriptors in the kernel.
    *args = {kAttnScale,
             t.lse.get(),
             static_cast<int32_t>(w.Z),
             static_cast<int32_t>(w.H),
             t.q.get(),
             t.k.get(),
             t.v.get(),
             t.o.get(),
             static_cast<int32_t>(nCtx)};
    const bool causal = w.causal;
    *check = [&w, &t, nCtx, D, rows, elems, causal](const LaunchFn& launch) -> std::string {
      const tcc::Driver& d = tcc::driver();
      const size_t e = static_cast<size_t>(elems);
      tcc::check(d.cuMemsetD32(t.o.get(), (uint32_t(kPoison16) << 16) | kPoison16, e / 2),
                 "poisoning");
      tcc::check(d.cuMemsetD32(t.lse.get(), kPoison32, static_cast<size_t>(rows)), "poisoning");
      launch(nullptr);
      tcc::check(d.cuCtxSynchronize(), "running " + w.entry, w.entry);
      tcc::check(d.cuMemcpyDtoH(t.ho.data(), t.o.get(), e * 2), "downloading O");
      tcc::check(d.cuMemcpyDtoH(t.hlse.data(), t.lse.get(), static_cast<size_t>(rows) * 4),
                 "downloading M");
      int64_t unwritten = 0;
      for (uint16_t h : t.ho)
        unwritten += h == kPoison16;
      if (unwritten)
        return std::to_string(unwritten) + " elements of O never written";
      // fp16 to double through a table: the sampled rows read K and V 513 times over.
      static const std::vector<double> half = [] {
        std::vector<double> r(65536);
        for (uint32_t i = 0; i < 65536; ++i)
          r[i] = fromHalf(static_cast<uint16_t>(i));
        return r;
      }();
      int64_t bad = 0;
      std::string first;
      auto wrong = [&](const std::string& where, double g, double want) {
        if (bad++ == 0)
          first = where + ": got " + std::to_string(g) + ", want " + std::to_string(want);
      };
      std::vector<double> s(static_cast<size_t>(nCtx)), acc(static_cast<size_t>(D));
      for (int64_t row : sampleRows(rows)) {
        // Row `row` of Q is query i of head bh; its keys and values are head bh's rows.
        const int64_t bh = row / nCtx, i = row % nCtx, keys = causal ? i + 1 : nCtx;
        const uint16_t* q = t.hq.data() + row * D;
        const uint16_t* k = t.hk.data() + bh * nCtx * D;
        const uint16_t* v = t.hv.data() + bh * nCtx * D;
        double mx = -INFINITY;
        for (int64_t j = 0; j < keys; ++j) {
          double dot = 0;
          for (int64_t c = 0; c < D; ++c)
            dot += half[q[c]] * half[k[j * D + c]];
          s[static_cast<size_t>(j)] = dot * kAttnScale;
          mx = std::max(mx, s[static_cast<size_t>(j)]);
        }
        double sum = 0;
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int64_t j = 0; j < keys; ++j) {
          const double p = std::exp(s[static_cast<size_t>(j)] - mx);
          sum += p;
          for (int64_t c = 0; c < D; ++c)
            acc[static_cast<size_t>(c)] += p * half[v[j * D + c]];
        }
        // M: the row's log-sum-exp in base 2, as the tutorial stores it (m_i + log2(l_i)).
        const double wantM = (mx + std::log(sum)) / std::log(2.0);
        const double gotM = t.hlse[static_cast<size_t>(row)];
        if (!(std::fabs(gotM - wantM) <= 1e-3 + 1e-4 * std::fabs(wantM)))
          wrong("M[" + std::to_string(row) + "]", gotM, wantM);
        // O: the tutorial's test tolerance for fp16 (atol 1e-2).
        for (int64_t c = 0; c < D; ++c) {
          const double want = acc[static_cast<size_t>(c)] / sum;
          const double g = half[t.ho[static_cast<size_t>(row * D + c)]];
          if (!(std::fabs(g - want) <= 1e-2))
            wrong("O[" + std::to_string(row) + ", " + std::to_string(c) + "]", g, want);
        }
      }
      return bad ? std::to_string(bad) + " wrong values in the sampled rows; the first at " + first
                 : "";
    };
    return;
  }
  if (w.kernel == "t07_asin") {
    if (M > in.n)
      throw tcc::Error("benchmarking " + w.name, "the shared buffers are too small");
    const size_t n = static_cast<size_t>(M);
    if (!t.asinX.get()) {
      // x / 4 of the shared inputs: +-[0.125, 1], inside asin's domain, 1 and -1 included.
      t.hAsinX.resize(n);
      for (size_t i = 0; i < n; ++i)
        t.hAsinX[i] = in.hx[i] / 4;
      t.hAsinX[0] = 1.0f;
      if (n > 1)
        t.hAsinX[1] = -1.0f;
      t.asinX = tcc::bench::DeviceBuffer(n * 4);
      tcc::check(d.cuMemcpyHtoD(t.asinX.get(), t.hAsinX.data(), n * 4), "uploading x");
    }
    const CUdeviceptr out = in.out;
    *args = {t.asinX.get(), out, static_cast<int32_t>(M)};
    *check = [&w, &t, out, n](const LaunchFn& launch) -> std::string {
      const tcc::Driver& d = tcc::driver();
      tcc::check(d.cuMemsetD32(out, kPoison32, n), "poisoning");
      launch(nullptr);
      tcc::check(d.cuCtxSynchronize(), "running " + w.entry, w.entry);
      std::vector<float> got(n);
      tcc::check(d.cuMemcpyDtoH(got.data(), out, n * 4), "downloading");
      int64_t bad = 0;
      std::string first;
      for (size_t i = 0; i < n; ++i) {
        // libdevice's __nv_asinf is within 4 ulp (CUDA's bound for asinf): at most 4.8e-7 of
        // the result; 1e-6 relative (and 1e-7 absolute) leaves room and still catches a
        // wrong function or a less accurate approximation.
        const double want = std::asin(static_cast<double>(t.hAsinX[i]));
        const double err = std::fabs(got[i] - want);
        if (!(err <= 1e-6 * std::fabs(want) + 1e-7) && bad++ == 0)
          first = std::to_string(i) + ": asin(" + std::to_string(t.hAsinX[i]) + ") got " +
                  std::to_string(got[i]) + ", want " + std::to_string(want);
      }
      return bad ? std::to_string(bad) + " wrong elements; the first at " + first : "";
    };
    return;
  }
  if (w.kernel == "t08_grouped") {
    const int64_t K = w.K, per = M * K; // square problems: M = N = K
    if (kGroup * per > in.n)
      throw tcc::Error("benchmarking " + w.name, "the shared inputs are too small");
    if (!t.ga.get()) {
      const size_t all = static_cast<size_t>(kGroup * per);
      t.hga.resize(all);
      t.hgb.resize(all);
      t.hgc.resize(all);
      for (size_t i = 0; i < all; ++i) { // +-[0.1, 1], as the matmul workloads
        t.hga[i] = toHalf(in.hx[i] / 4);
        t.hgb[i] = toHalf(in.hy[i] / 4);
      }
      t.ga = tcc::bench::DeviceBuffer(all * 2);
      t.gb = tcc::bench::DeviceBuffer(all * 2);
      t.gc = tcc::bench::DeviceBuffer(all * 2);
      tcc::check(d.cuMemcpyHtoD(t.ga.get(), t.hga.data(), all * 2), "uploading A");
      tcc::check(d.cuMemcpyHtoD(t.gb.get(), t.hgb.data(), all * 2), "uploading B");
      std::vector<int64_t> pa, pb, pc;
      std::vector<int32_t> sz, ld;
      for (int g = 0; g < kGroup; ++g) {
        const CUdeviceptr off = static_cast<CUdeviceptr>(g * per * 2);
        pa.push_back(static_cast<int64_t>(t.ga.get() + off));
        pb.push_back(static_cast<int64_t>(t.gb.get() + off));
        pc.push_back(static_cast<int64_t>(t.gc.get() + off));
        sz.insert(sz.end(), {int32_t(M), int32_t(N), int32_t(K)});
        ld.insert(ld.end(), {int32_t(K), int32_t(N), int32_t(N)});
      }
      auto table = [&](tcc::bench::DeviceBuffer& b, const void* data, size_t bytes) {
        b = tcc::bench::DeviceBuffer(bytes);
        tcc::check(d.cuMemcpyHtoD(b.get(), data, bytes), "uploading a table of tutorial 08");
      };
      table(t.aPtrs, pa.data(), pa.size() * 8);
      table(t.bPtrs, pb.data(), pb.size() * 8);
      table(t.cPtrs, pc.data(), pc.size() * 8);
      table(t.sizes, sz.data(), sz.size() * 4);
      table(t.lds, ld.data(), ld.size() * 4);
    }
    *args = {t.aPtrs.get(), t.bPtrs.get(), t.cPtrs.get(), t.sizes.get(), t.lds.get(),
             int32_t(kGroup)};
    *check = [&w, &t, M, N, K, per](const LaunchFn& launch) -> std::string {
      const tcc::Driver& d = tcc::driver();
      const size_t all = static_cast<size_t>(kGroup * per);
      tcc::check(d.cuMemsetD32(t.gc.get(), (uint32_t(kPoison16) << 16) | kPoison16, all / 2),
                 "poisoning");
      launch(nullptr);
      tcc::check(d.cuCtxSynchronize(), "running " + w.entry, w.entry);
      tcc::check(d.cuMemcpyDtoH(t.hgc.data(), t.gc.get(), all * 2), "downloading C");
      for (int g = 0; g < kGroup; ++g) {
        const size_t off = static_cast<size_t>(g * per);
        const std::string e = compareProduct(t.hga.data() + off, t.hgb.data() + off, nullptr,
                                             t.hgc.data() + off, M, N, K, fromHalf);
        if (!e.empty())
          return "GEMM " + std::to_string(g) + " of the group: " + e;
      }
      return "";
    };
    return;
  }
  if (M > in.n)
    throw tcc::Error("benchmarking " + w.name, "the shared buffers are too small");
  const int32_t n = static_cast<int32_t>(M);
  const CUdeviceptr x = in.x, y = in.y, out = in.out;
  if (w.kernel == "t01_add") {
    *args = {x, y, out, n};
    *check = [&w, &in, out, n](const LaunchFn& launch) {
      return checkExact1d(out, n, [&in](int64_t i) { return in.hx[i] + in.hy[i]; }, launch,
                          w.entry);
    };
    return;
  }
  const float scale = 1 / (1 - kDropoutP); // 2: x / (1 - p) is exact
  if (w.kernel == "t04_dropout") {
    if (!t.keep.get()) {
      // The tutorial's x_keep: int32 0s and 1s, kept with probability 1 - p.
      t.hkeep.resize(static_cast<size_t>(n));
      uint64_t s = 777;
      for (int32_t& k : t.hkeep) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        k = static_cast<float>(s >> 40) * (1.0f / 16777216.0f) > kDropoutP ? 1 : 0;
      }
      t.keep = tcc::bench::DeviceBuffer(static_cast<size_t>(n) * 4);
      tcc::check(d.cuMemcpyHtoD(t.keep.get(), t.hkeep.data(), static_cast<size_t>(n) * 4),
                 "uploading the keep mask");
    }
    *args = {x, t.keep.get(), out, n, kDropoutP};
    *check = [&w, &in, &t, out, n, scale](const LaunchFn& launch) {
      return checkExact1d(
          out, n,
          [&](int64_t i) { return t.hkeep[static_cast<size_t>(i)] ? in.hx[i] * scale : 0.0f; },
          launch, w.entry);
    };
    return;
  }
  if (w.kernel == "t04_seeded_dropout") {
    if (t.seedKeep.empty()) {
      // Triton's Philox for the seed and offsets 0..n-1 (test/gpu/tutorial_philox.h).
      t.seedKeep.resize(static_cast<size_t>(n));
      for (int32_t i = 0; i < n; ++i)
        t.seedKeep[static_cast<size_t>(i)] = tutorial_philox::rand(kDropoutSeed, i) > kDropoutP;
    }
    *args = {x, out, n, kDropoutP, kDropoutSeed};
    *check = [&w, &in, &t, out, n, scale](const LaunchFn& launch) {
      return checkExact1d(
          out, n,
          [&](int64_t i) { return t.seedKeep[static_cast<size_t>(i)] ? in.hx[i] * scale : 0.0f; },
          launch, w.entry);
    };
    return;
  }
  throw tcc::Error("benchmarking " + w.name, "no arguments for kernel kind " + w.kernel);
}

// The buffer of a tutorial workload that a Triton parameter's role names (the tensors of
// bench/triton_bench.py's Workload.roles()); 0 when none.
CUdeviceptr tutorialBuffer(const Workload& w, const SharedInputs& in, const TutorialBuffers& t,
                           const std::string& role) {
  std::vector<std::pair<std::string, CUdeviceptr>> roles;
  if (w.kernel == "t05_layernorm")
    roles = {{"x", t.x16.get()},   {"out", t.y16.get()},   {"w", t.w16.get()},
             {"b", t.b16.get()},   {"mean", t.mean.get()}, {"rstd", t.rstd.get()}};
  else if (w.kernel == "t08_grouped")
    roles = {{"a_ptrs", t.aPtrs.get()}, {"b_ptrs", t.bPtrs.get()}, {"c_ptrs", t.cPtrs.get()},
             {"sizes", t.sizes.get()},  {"lds", t.lds.get()}};
  else if (w.kernel == "t06_attention")
    roles = {{"q", t.q.get()},
             {"k", t.k.get()},
             {"v", t.v.get()},
             {"out", t.o.get()},
             {"lse", t.lse.get()}};
  else if (w.kernel == "t07_asin")
    roles = {{"x", t.asinX.get()}, {"out", in.out}};
  else // 01 and 04: the shared x (and y) and out, 04's keep mask
    roles = {{"x", in.x},
             {"out", in.out},
             {"y", w.kernel == "t01_add" ? in.y : 0},
             {"keep", w.kernel == "t04_dropout" ? t.keep.get() : 0}};
  for (const auto& [name, ptr] : roles)
    if (name == role)
      return ptr;
  return 0;
}

} // namespace

std::vector<WorkloadRow> runWorkloads(const WorkloadOptions& o, const SharedInputs& in,
                                      std::vector<SameHarnessRow>* same) {
  const tcc::Driver& d = tcc::driver();
  std::vector<WorkloadRow> rows;
  std::unique_ptr<MatmulBuffers> mmb;
  std::printf("\n%-36s %-8s %-28s %-14s %9s %9s %9s %10s %8s\n", "workload", "source", "config",
              "variant", "median_ms", "p20_ms", "p80_ms", "rate", "of_copy");
  for (const Workload& w : workloads()) {
    if (o.progress)
      o.progress(rows);
    TutorialBuffers tut;
    // tcc's fastest correct configuration of this workload, kept for the same-harness runs.
    struct {
      double value = 0;
      std::string config;
      std::unique_ptr<tcc::Library> lib;
      tcc::Kernel* k = nullptr;
      std::vector<tcc::Arg> args;
      CheckFn check;
    } best;
    const char* source = "tcc"; // the rows' "source": the artifacts' folder of tcc's kernels
    const std::string kdir = o.artifacts + "/" + source + "/" + w.folder;
    // A configuration with architecture-specific (sm_90a) variants runs twice: as the
    // runtime chooses (those, on an H200), and with the portable (sm_90) ones alone (when
    // it has them: a tutorial port built for sm_90a alone has not).
    std::vector<std::pair<std::string, bool>> runs;
    for (const std::string& dir : configFolders(kdir)) {
      if (!folderApplies(w, std::filesystem::path(dir).filename().string()))
        continue;
      bool specific = false, portable = false, applicable = true;
      try {
        tcc::Library all(dir);
        for (const tcc::KernelMetadata& m : all.kernel(w.entry).variants()) {
          specific = specific || m.archSpecific;
          portable = portable || !m.archSpecific;
        }
        // Not run at all where the configuration does not apply (matmul's folder holds
        // every element type's configurations).
        applicable = applies(w, all.kernel(w.entry).variants().back());
      } catch (const tcc::Error&) {
      }
      if (!applicable)
        continue;
      runs.push_back({dir, true});
      if (specific && portable)
        runs.push_back({dir, false});
    }
    // tcc's artifacts not built (a tutorial port needing libdevice or sm_90a): said, not a failure.
    if (runs.empty() && matchesFilter(o.filter, w.name)) {
      std::printf("%-36s %-8s skipped: no %s configuration in %s\n", w.name.c_str(), source,
                  w.entry.c_str(), kdir.c_str());
      std::fflush(stdout);
    }
    for (const auto& [dir, archSpecific] : runs) {
      std::string config = std::filesystem::path(dir).filename().string();
      if (!archSpecific)
        config += "@sm_90";
      if (!matchesFilter(o.filter, w.name + "/" + source + "/" + config))
        continue;
      WorkloadRow row;
      row.workload = w.name;
      row.kernel = w.entry;
      row.source = source;
      row.config = config;
      row.metric = w.gemm ? "TFLOP/s" : "GB/s";
      row.bytes = w.bytes;
      row.flops = w.flops;
      try {
        auto lib = std::make_unique<tcc::Library>();
        lib->add(dir, archSpecific);
        tcc::Kernel& k = lib->kernel(w.entry);
        if (!applies(w, k.variants().back()))
          continue;
        const int64_t M = w.M, N = w.N, K = w.K;
        std::vector<tcc::Arg> args;
        CheckFn check; // "" when correct
        if (w.kernel.rfind("t0", 0) == 0) {
          tutorialSetup(w, in, tut, &args, &check);
        } else if (!w.gemm) {
          if (M * N > in.n)
            throw tcc::Error("benchmarking " + w.name, "the shared buffers are too small");
          const CUdeviceptr x = in.x, out = in.out, v0 = in.y, v1 = in.y + N * 4;
          if (w.kernel == "transpose")
            args = {x, out, M, N, N, M};
          else if (w.kernel == "softmax" || w.kernel == "softmax_persistent")
            args = {out, x, N, N, M, N};
          else if (w.kernel == "bias_add")
            args = {x, v0, out, M, N, N};
          else
            args = {x, v0, v1, out, N, M, N, 1e-5f};
          check = [&, M, N, out](const LaunchFn& launch) -> std::string {
            tcc::check(d.cuMemsetD32(out, kPoison32, static_cast<size_t>(M * N)), "poisoning");
            launch(nullptr);
            tcc::check(d.cuCtxSynchronize(), "running " + w.kernel, w.kernel);
            const bool t = w.kernel == "transpose";
            const int64_t rowsOut = t ? N : M, cols = t ? M : N;
            std::vector<float> got(static_cast<size_t>(cols));
            std::vector<double> ref(static_cast<size_t>(cols)), bound(static_cast<size_t>(cols));
            int64_t bad = 0;
            std::string first;
            for (int64_t i : sampleRows(rowsOut)) {
              tcc::check(d.cuMemcpyDtoH(got.data(), out + static_cast<CUdeviceptr>(i * cols * 4),
                                        static_cast<size_t>(cols) * 4),
                         "downloading a row");
              const float* xr = in.hx + i * N;
              if (t) {
                for (int64_t j = 0; j < cols; ++j) {
                  ref[j] = in.hx[j * N + i];
                  bound[j] = 0;
                }
              } else if (w.kernel == "bias_add") {
                for (int64_t j = 0; j < cols; ++j) {
                  ref[j] = xr[j] + in.hy[j];
                  bound[j] = 0;
                }
              } else if (w.kernel == "softmax" || w.kernel == "softmax_persistent") {
                double mx = -INFINITY, s = 0;
                for (int64_t j = 0; j < N; ++j)
                  mx = std::max(mx, static_cast<double>(xr[j]));
                for (int64_t j = 0; j < N; ++j)
                  s += ref[j] = std::exp(xr[j] - mx);
                for (int64_t j = 0; j < N; ++j) {
                  ref[j] /= s;
                  bound[j] = 1e-5 * ref[j] * std::max(1.0, (mx - xr[j]) / 8) + FLT_MIN;
                }
              } else {
                double mean = 0, meanAbs = 0, var = 0;
                for (int64_t j = 0; j < N; ++j) {
                  mean += xr[j];
                  meanAbs += std::fabs(xr[j]);
                }
                mean /= N;
                meanAbs /= N;
                for (int64_t j = 0; j < N; ++j)
                  var += (xr[j] - mean) * (xr[j] - mean);
                const double rstd = 1 / std::sqrt(var / N + 1e-5);
                for (int64_t j = 0; j < N; ++j) {
                  const double wj = in.hy[j], bj = in.hy[N + j];
                  ref[j] = (xr[j] - mean) * rstd * wj + bj;
                  bound[j] = 1e-5 * (std::fabs(wj) * rstd * (std::fabs(xr[j]) + meanAbs) +
                                     std::fabs(bj));
                }
              }
              for (int64_t j = 0; j < cols; ++j) {
                // Exact rows compare the f32 result with the double reference rounded once.
                double want = bound[j] > 0 ? ref[j] : static_cast<float>(ref[j]);
                double e = std::fabs(got[j] - want);
                if (!(bound[j] > 0 ? e <= bound[j] : got[j] == want)) {
                  if (bad++ == 0)
                    first = "(" + std::to_string(i) + ", " + std::to_string(j) + "): got " +
                            std::to_string(got[j]) + ", want " + std::to_string(want);
                }
              }
            }
            return bad ? std::to_string(bad) +
                             " wrong elements in the sampled rows; the first at " + first
                       : "";
          };
        } else {
          const bool bf16 = w.dtype == "bf16";
          auto to16 = [&](float f) { return bf16 ? toBf16(f) : toHalf(f); };
          auto from16 = [bf16](uint16_t h) { return bf16 ? fromBf16(h) : fromHalf(h); };
          if (!mmb || mmb->M != M || mmb->N != N || mmb->K != K || mmb->bf16 != bf16) {
            const size_t na = static_cast<size_t>(M * K), nb = static_cast<size_t>(K * N),
                         nc = static_cast<size_t>(M * N);
            if (static_cast<int64_t>(std::max(na, nb) + static_cast<size_t>(N)) > in.n)
              throw tcc::Error("benchmarking " + w.name, "the shared inputs are too small");
            mmb.reset(); // the previous shape's memory first
            mmb = std::make_unique<MatmulBuffers>();
            mmb->M = M;
            mmb->N = N;
            mmb->K = K;
            mmb->bf16 = bf16;
            mmb->a = tcc::bench::DeviceBuffer(na * 2);
            mmb->b = tcc::bench::DeviceBuffer(nb * 2);
            mmb->c = tcc::bench::DeviceBuffer(nc * 2);
            mmb->bias = tcc::bench::DeviceBuffer(static_cast<size_t>(N) * 2);
            mmb->ha.resize(na);
            mmb->hb.resize(nb);
            mmb->hc.resize(nc);
            mmb->hbias.resize(static_cast<size_t>(N));
            // Values in +-[0.1, 1] from the shared f32 inputs (which lie in +-[0.5, 4]).
            for (size_t i = 0; i < na; ++i)
              mmb->ha[i] = to16(in.hx[i] / 4);
            for (size_t i = 0; i < nb; ++i)
              mmb->hb[i] = to16(in.hy[i] / 4);
            for (int64_t j = 0; j < N; ++j)
              mmb->hbias[j] = to16(in.hx[na + j] / 4);
            tcc::check(d.cuMemcpyHtoD(mmb->a.get(), mmb->ha.data(), na * 2), "uploading A");
            tcc::check(d.cuMemcpyHtoD(mmb->b.get(), mmb->hb.data(), nb * 2), "uploading B");
            tcc::check(
                d.cuMemcpyHtoD(mmb->bias.get(), mmb->hbias.data(), static_cast<size_t>(N) * 2),
                "uploading the bias");
          }
          const CUdeviceptr a = mmb->a.get(), b = mmb->b.get(), c = mmb->c.get();
          const bool bias = w.kernel == "matmul_bias";
          if (bias)
            args = {a, b, mmb->bias.get(), c, M, N, K, K, 1, N, 1, N, 1};
          else
            args = {a, b, c, M, N, K, K, 1, N, 1, N, 1};
          check = [&, M, N, K, c, bias, from16](const LaunchFn& launch) -> std::string {
            tcc::check(d.cuMemsetD32(c, (uint32_t(kPoison16) << 16) | kPoison16,
                                     static_cast<size_t>(M * N / 2)),
                       "poisoning");
            launch(nullptr);
            tcc::check(d.cuCtxSynchronize(), "running " + w.kernel, w.kernel);
            tcc::check(d.cuMemcpyDtoH(mmb->hc.data(), c, static_cast<size_t>(M * N) * 2),
                       "downloading C");
            return compareProduct(mmb->ha.data(), mmb->hb.data(),
                                  bias ? mmb->hbias.data() : nullptr, mmb->hc.data(), M, N, K,
                                  from16);
          };
        }
        const tcc::KernelMetadata* chosen = k.planArgs(args.data(), args.size()).variant;
        row.variant = chosen->specialisationString() + " " + chosen->arch;
        row.note = check([&](CUstream s) { k.launchArgs(s, args.data(), args.size()); });
        row.correct = row.note.empty();
        row.r = tcc::bench::run([&](CUstream s) { k.launchArgs(s, args.data(), args.size()); },
                                o.bench);
        row.ok = true;
        if (w.gemm) {
          row.value = row.r.tflops(w.flops);
        } else {
          row.value = row.r.gbps(w.bytes);
          row.fractionOfCopy = o.copyGbps > 0 ? row.value / o.copyGbps : 0;
        }
        if (row.correct && row.value > best.value) {
          best.value = row.value;
          best.config = config;
          best.k = &k;
          best.args = args;
          best.check = check;
          best.lib = std::move(lib); // k lives in it (on the heap): still valid
        }
      } catch (const tcc::Error& e) {
        row.note = e.what();
      }
      if (row.ok)
        std::printf("%-36s %-8s %-28s %-14s %9.4f %9.4f %9.4f %10s %7.1f%%%s\n",
                    row.workload.c_str(), row.source.c_str(), row.config.c_str(),
                    row.variant.substr(0, 14).c_str(), row.r.median, row.r.p20, row.r.p80,
                    (fmt("%.1f ", row.value) + row.metric).c_str(), 100 * row.fractionOfCopy,
                    row.correct ? "" : ("  WRONG: " + row.note).c_str());
      else
        std::printf("%-36s %-8s %-28s FAILED: %s\n", row.workload.c_str(), row.source.c_str(),
                    row.config.c_str(), row.note.c_str());
      std::fflush(stdout);
      rows.push_back(row);
    }
    if (o.triton.empty() || !same)
      continue;
    // Triton's exported cubins of this workload, checked like tcc's, then timed against tcc's
    // best by the same harness.
    SameHarnessRow sh;
    sh.workload = w.name;
    sh.metric = w.gemm ? "TFLOP/s" : "GB/s";
    std::vector<TritonExport> exports;
    try {
      exports = tritonExports(o.triton, w.name);
    } catch (const tcc::Error& e) {
      sh.note = e.what();
    }
    if (exports.empty() && sh.note.empty())
      continue;
    if (!o.filter.empty() && !best.k)
      continue; // the filter left tcc's configurations of this workload out
    if (!best.k) {
      sh.note = "no correct tcc configuration of this workload in this run";
    } else {
      const int64_t N = w.N;
      auto buffer = [&](const std::string& role) -> CUdeviceptr {
        if (w.kernel.rfind("t0", 0) == 0)
          return tutorialBuffer(w, in, tut, role);
        if (w.gemm) {
          if (role == "a")
            return mmb->a.get();
          if (role == "b")
            return mmb->b.get();
          if (role == "bias")
            return mmb->bias.get();
          return role == "out" ? mmb->c.get() : 0;
        }
        if (role == "x")
          return in.x;
        if (role == "out")
          return in.out;
        if (role == "v0")
          return in.y;
        return role == "v1" ? in.y + static_cast<CUdeviceptr>(N * 4) : 0;
      };
      std::vector<std::unique_ptr<TritonKernel>> kernels;
      std::vector<TritonCandidate> candidates;
      for (const TritonExport& e : exports) {
        SameHarnessCandidate c;
        c.config = e.config;
        try {
          if (e.M != w.M || e.N != w.N || e.K != w.K)
            throw tcc::Error("checking " + e.path, "exported for another shape");
          auto tk = std::make_unique<TritonKernel>(e, buffer);
          TritonKernel* p = tk.get();
          LaunchFn launch = [p](CUstream s) { p->launch(s); };
          c.note = best.check(launch);
          c.correct = c.note.empty();
          if (c.correct) {
            candidates.push_back({e.config, launch});
            kernels.push_back(std::move(tk));
          }
        } catch (const tcc::Error& err) {
          c.note = err.what();
        }
        std::printf("%-36s %-8s %-28s %s\n", w.name.c_str(), "triton", e.config.c_str(),
                    c.correct ? "cubin loaded, output checked" : ("FAILED: " + c.note).c_str());
        sh.candidates.push_back(c);
      }
      tcc::Kernel* k = best.k;
      const std::vector<tcc::Arg>& args = best.args;
      compareSameHarness(
          sh, w.gemm ? w.flops : w.bytes, best.config,
          [&](CUstream s) { k->launchArgs(s, args.data(), args.size()); }, candidates, o.rounds,
          o.bench);
    }
    same->push_back(sh);
  }
  return rows;
}

Measurement WorkloadRow::measurement() const {
  return measured(workload, source, config, metric, r, ok, bytes, flops);
}

tcc::json::Value toJson(const WorkloadRow& row, const tcc::tune::Ceilings& ceilings) {
  tcc::json::Value o = tcc::json::Value::object();
  o.set("workload", row.workload);
  o.set("kernel", row.kernel);
  o.set("source", row.source);
  o.set("config", row.config);
  o.set("variant", row.variant);
  o.set("metric", row.metric);
  o.set("ok", row.ok);
  o.set("correct", row.correct);
  if (!row.note.empty())
    o.set("note", row.note);
  if (row.ok) {
    o.set("value", row.value);
    if (row.metric == "GB/s") {
      o.set("gbps", row.value);
      o.set("fraction_of_copy", row.fractionOfCopy);
    } else {
      o.set("tflops", row.value);
    }
    o.set("median_ms", row.r.median);
    o.set("p20_ms", row.r.p20);
    o.set("p80_ms", row.r.p80);
    o.set("min_ms", row.r.min);
    o.set("reps", row.r.reps);
    setRoofline(o, row.measurement(), ceilings);
  }
  return o;
}

} // namespace benchutil
