// The machine code of the tensor-core GEMMs, read with cuobjdump (CUDA toolkit; the tests
// skip, saying why, where it is absent): for every variant of every matmul configuration
// built by tcc,
// - an sm_90a variant whose dot tile-accelerate-dot gives to wgmma (f16/bf16 operands, a
//   multiple of 4 warps, BM >= 64) runs HGMMA and no HMMA;
// - every other variant (sm_90, or too small for a warpgroup, or f32 operands as tf32) runs
//   HMMA, so that no GEMM silently falls back to CUDA cores;
// - the variants for unit inner strides (file names with "_e1", the ones a contiguous
//   matrix selects and the benchmarks time) do not spill: no local-memory load or store
//   (LDL/STL); a variant with TMA tensor maps (tcc's default on sm_90a) copies its operands
//   with UTMALDG and no LDGSTS (cp.async) is left. The other variants load element by element (no
//   cp.async for 2-byte pieces), each thread holding the addresses of all its elements
//   across the loop; with 128 x 256 tiles they spill, which the test prints without
//   failing (bench/RESULTS.md).
// Needs no GPU: only the artifacts and cuobjdump.
#include "configs.h"
#include "gpu_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace {

struct SassCase {
  std::string name;
  std::string dir;
  std::string kernel;
  std::string element; // of parameter a: "f16", "bf16", "f32"
  int64_t bm = 0;
  int64_t bn = 0;
};

void PrintTo(const SassCase& c, std::ostream* os) {
  *os << c.name;
}

/// Runs a shell command: its stdout and stderr in `out`, its wait status in `status`;
/// false when it could not be started.
bool runCommand(const std::string& cmd, std::string& out, int& status) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p)
    return false;
  char buf[4096];
  size_t n;
  out.clear();
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
    out.append(buf, n);
  status = ::pclose(p);
  return true;
}

std::string shellQuoted(const std::string& s) {
  std::string r = "'";
  for (char c : s)
    r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

/// Why cuobjdump cannot be used here, or empty.
const std::string& cuobjdumpMissing() {
  static const std::string why = [] {
    std::string out;
    int status = 0;
    if (!runCommand("cuobjdump --version", out, status) || status != 0)
      return std::string("cuobjdump (CUDA toolkit) is not on PATH");
    return std::string();
  }();
  return why;
}

/// Opcode counts of the SASS listing: "HGMMA" for "HGMMA.64x128x16.F32 ...", predicates
/// ("@P0", "@!UPT") skipped.
std::map<std::string, int> opcodeCounts(const std::string& sass) {
  static const std::regex line(R"(/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[A-Z0-9]+\s+)?([A-Z][A-Z0-9_]*))");
  std::map<std::string, int> counts;
  for (auto it = std::sregex_iterator(sass.begin(), sass.end(), line);
       it != std::sregex_iterator(); ++it)
    ++counts[(*it)[1].str()];
  return counts;
}

/// Local-memory instructions (LDL, STL) inside a loop of the SASS listing: between the
/// target of a backward branch ("BRA 0x1b60" at an address above 0x1b60) and the branch.
int localInLoops(const std::string& sass) {
  static const std::regex line(
      R"(/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P[A-Z0-9]+\s+)?([A-Z][A-Z0-9_]*)[^;\n]*?(?:\b0x([0-9a-f]+))?\s*;)");
  std::vector<std::pair<unsigned long, std::string>> ops;
  std::vector<std::pair<unsigned long, unsigned long>> loops;
  for (auto it = std::sregex_iterator(sass.begin(), sass.end(), line);
       it != std::sregex_iterator(); ++it) {
    const unsigned long at = std::stoul((*it)[1].str(), nullptr, 16);
    const std::string op = (*it)[2].str();
    ops.emplace_back(at, op);
    if (op == "BRA" && (*it)[3].matched) {
      const unsigned long target = std::stoul((*it)[3].str(), nullptr, 16);
      if (target < at)
        loops.emplace_back(target, at);
    }
  }
  int n = 0;
  for (const auto& [at, op] : ops)
    if (op == "LDL" || op == "STL")
      for (const auto& [from, to] : loops)
        if (at >= from && at <= to) {
          ++n;
          break;
        }
  return n;
}

std::vector<SassCase> cases() {
  std::vector<SassCase> r;
  std::set<std::string> dirs;
  for (const gputest::KernelConfig& c : gputest::findConfigs(
           [](const std::string& k) { return k.rfind("matmul", 0) == 0; })) {
    if (!c.loadError.empty() || !dirs.insert(c.dir).second)
      continue;
    SassCase s;
    s.name = gputest::sanitize(c.kernel + "_" + c.config);
    s.dir = c.dir;
    s.kernel = c.kernel;
    s.element = c.elementOf("a");
    s.bm = c.constexprOr("BM", 0);
    s.bn = c.constexprOr("BN", 0);
    r.push_back(s);
  }
  return r;
}

class Sass : public testing::TestWithParam<SassCase> {};

TEST_P(Sass, TensorCoresAndNoSpills) {
  if (!cuobjdumpMissing().empty())
    GTEST_SKIP() << cuobjdumpMissing();
  const SassCase& c = GetParam();
  namespace fs = std::filesystem;
  std::vector<tcc::KernelMetadata> variants;
  for (const auto& e : fs::directory_iterator(c.dir))
    if (e.path().extension() == ".json" && tcc::isKernelMetadataFile(e.path().string()))
      variants.push_back(tcc::loadMetadataFile(e.path().string()));
  ASSERT_FALSE(variants.empty()) << "no variants in " << c.dir;
  // One cuobjdump per variant, all at once (each takes a few tenths of a second).
  std::vector<std::string> sass(variants.size());
  std::vector<int> status(variants.size(), -1);
  std::vector<std::thread> workers;
  for (size_t i = 0; i < variants.size(); ++i)
    workers.emplace_back([&, i] {
      if (!runCommand("cuobjdump --dump-sass " + shellQuoted(variants[i].cubinPath), sass[i],
                      status[i]))
        status[i] = -1;
    });
  for (std::thread& t : workers)
    t.join();
  for (size_t i = 0; i < variants.size(); ++i) {
    const tcc::KernelMetadata& m = variants[i];
    SCOPED_TRACE(m.origin + " (" + m.arch + ")");
    ASSERT_EQ(status[i], 0) << sass[i];
    std::map<std::string, int> ops = opcodeCounts(sass[i]);
    ASSERT_FALSE(ops.empty()) << "no instructions read from:\n" << sass[i].substr(0, 2000);
    bool wgmma = m.archSpecific && (c.element == "f16" || c.element == "bf16") &&
                 m.numWarps % 4 == 0 && c.bm >= 64;
    if (wgmma) {
      EXPECT_GT(ops["HGMMA"], 0) << "the sm_90a variant does not use wgmma";
      EXPECT_EQ(ops["HMMA"], 0) << "the sm_90a variant mixes in mma.sync";
    } else {
      EXPECT_GT(ops["HMMA"], 0) << "the variant does not use tensor cores";
    }
    if (!m.tensorMaps.empty()) {
      EXPECT_GT(ops["UTMALDG"], 0) << "a variant with tensor maps issues no bulk tensor copy";
      EXPECT_EQ(ops["LDGSTS"], 0) << "a variant with tensor maps still copies with cp.async";
    }
    // A warp-specialised variant moves registers between its warpgroups (setmaxnreg) and
    // never makes its consumers wait on the whole program in the loop.
    if (m.producerWarps > 0) {
      EXPECT_GE(ops["USETMAXREG"], 2) << "a warp-specialised variant without its setmaxnreg";
      EXPECT_GT(ops["UTMALDG"], 0) << "a warp-specialised variant issues no bulk tensor copy";
    }
    // A TMA-store epilogue (--tma-store, folders TMASTORE_: test/gpu/artifacts.cmake) stores
    // its result by bulk tensor copies where it has tensor maps.
    if (m.cubinPath.find("TMASTORE_") != std::string::npos && !m.tensorMaps.empty())
      EXPECT_GT(ops["UTMASTG"], 0) << "a --tma-store variant with tensor maps stores no tile by TMA";
    const int local = ops["LDL"] + ops["STL"];
    // The most specialised variant (aligned, unit inner strides) is the one that matters:
    // nothing spilled in its loops, and at most a couple of spill instructions outside them.
    // One exception, stated: mma.sync (sm_90) tiles whose accumulator alone takes 128 or
    // more registers per thread (128 x 256 on 8 warps) sit at 254-255 registers, where ptxas
    // keeps one 8-byte value in local memory: a store before a loop and one reload in
    // it (a first-level-cache hit; the rate is unchanged, 385.5 -> 384.6 TFLOP/s at 4096^3
    // when it appeared; bench/RESULTS.md). Those may have four spill instructions anywhere:
    // matmul_bias 128 x 256 x 64, 3 stages, has one 8-byte slot stored once and reloaded
    // three times (LDL 3, STL 1) where matmul's same tile has none, at the same rate (365.0
    // and 364.6 TFLOP/s on the H100, 2026-12-07; bench/RESULTS.md).
    const int64_t accPerThread = c.bm * c.bn / (32 * std::max(1, m.numWarps));
    const bool fullMmaSync = !wgmma && accPerThread >= 128;
    if (m.cubinPath.find("_e1") != std::string::npos) {
      if (!fullMmaSync) {
        EXPECT_EQ(localInLoops(sass[i]), 0) << "spills inside a loop: LDL " << ops["LDL"]
                                            << ", STL " << ops["STL"] << " in all";
      }
      EXPECT_LE(local, fullMmaSync ? 4 : 2) << "local memory (spills): LDL " << ops["LDL"]
                                            << ", STL " << ops["STL"];
      if (local > 0)
        std::printf("note: %s spills (LDL %d, STL %d; %d in loops)\n", m.cubinPath.c_str(),
                    ops["LDL"], ops["STL"], localInLoops(sass[i]));
    } else if (local > 0)
      std::printf("note: %s spills (LDL %d, STL %d)\n", m.cubinPath.c_str(), ops["LDL"],
                  ops["STL"]);
  }
}

std::string caseName(const testing::TestParamInfo<SassCase>& info) {
  return info.param.name;
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Sass);
INSTANTIATE_TEST_SUITE_P(Artifacts, Sass, testing::ValuesIn(cases()), caseName);

TEST(SassSupport, OpcodeCounts) {
  // Lines as cuobjdump prints them: offset comment, optional predicate, opcode, operands.
  std::string text = "        /*0120*/                   HGMMA.64x128x16.F32 R24, gdesc[UR4], R24 ;\n"
                     "        /*0130*/              @!P0 LDL.64 R2, [R1+0x8] ;\n"
                     "        /*0140*/              @UP1 HMMA.16816.F32 R4, R8, R12, R4 ;\n";
  std::map<std::string, int> ops = opcodeCounts(text);
  EXPECT_EQ(ops["HGMMA"], 1);
  EXPECT_EQ(ops["LDL"], 1);
  EXPECT_EQ(ops["HMMA"], 1);
  EXPECT_EQ(ops.size(), 3u);
}

TEST(SassSupport, LocalMemoryInLoops) {
  // A spill before the loop, one inside it (0x0140..0x0160, closed by the backward branch),
  // and a forward branch that is not a loop.
  std::string text = "        /*0100*/                   STL [R1], R2 ;\n"
                     "        /*0110*/                   BRA 0x180 ;\n"
                     "        /*0140*/                   LDL R4, [R1] ;\n"
                     "        /*0150*/                   IADD3 R4, R4, 0x1, RZ ;\n"
                     "        /*0160*/              @P0 BRA 0x140 ;\n"
                     "        /*0170*/                   LDL R5, [R1] ;\n";
  EXPECT_EQ(localInLoops(text), 1);
  EXPECT_EQ(localInLoops("        /*0100*/                   STL [R1], R2 ;\n"), 0);
}

} // namespace
