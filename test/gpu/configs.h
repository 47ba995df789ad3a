// The kernel configurations tcc built into the artifacts folder (test/gpu/artifacts.cmake):
// <artifacts>/tcc/<kernel>/<config>/.
// Found when the test cases are made (before main), from the metadata alone: no GPU needed.
#pragma once

#include "tcc/tcc.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gputest {

struct KernelConfig {
  std::string kernel;       // the folder's name, which is the kernel's name
  std::string config;       // "BM64_BN64_W4", "DTYPEbf16_BM64_BN64_BK32_W4" (the folder's name)
  std::string dir;          // the configuration's folder
  // "": every variant (on an H200 the sm_90a ones win); "generic": only variants that are
  // not architecture-specific (the sm_90 mma.sync code of a kernel with a dot), so that
  // both are tested. Configurations with sm_90a variants appear once of each.
  std::string archSet;
  tcc::KernelMetadata meta; // of the general variant (parameters, constexprs, warps)
  std::string loadError;    // why the metadata could not be read, or empty

  // The constexpr `name`, or `otherwise` when the configuration has none of that name.
  int64_t constexprOr(const std::string& name, int64_t otherwise) const;
  // The element type of parameter `param` ("*f16" -> "f16"), or "" if there is none.
  std::string elementOf(const std::string& param) const;
  bool hasParam(const std::string& param) const { return !elementOf(param).empty(); }
  // "tcc_softmax_BLOCK1024_W4" (+ "_sm90a" / "_sm90" where the configuration has both):
  // a test-name prefix.
  std::string label() const;
};

// The configuration's kernel, from a library loaded once per folder and kept for the
// process (so that the many cases of a configuration load its modules once).
tcc::Kernel& kernelOf(const KernelConfig& config);

// Every configuration of the kernels whose folder name satisfies `wanted`.
std::vector<KernelConfig> findConfigs(bool (*wanted)(const std::string& kernel));

// Which specialised variants of each configuration the cases select (a variant is named by
// its metadata file), so that a Plans test can insist that the GPU run executes every one:
// general, aligned (everything % 16) and, with --variants=auto, unit inner strides (== 1).
class VariantCoverage {
public:
  void record(const KernelConfig& config, const tcc::Kernel& kernel, const tcc::LaunchPlan& plan);
  // "<dir>: <specialisation>" for each specialised variant that no case selected.
  std::vector<std::string> missed() const;

private:
  std::map<std::string, std::map<std::string, std::string>> variants_; // dir -> file -> spec
  std::set<std::pair<std::string, std::string>> chosen_;                // (dir, file)
};

// Letters, digits and '_' only (GoogleTest parameter names).
std::string sanitize(std::string s);

// Ceiling division, for the grids the tests expect.
inline int64_t cdiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

} // namespace gputest
