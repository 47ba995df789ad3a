#include "configs.h"

#include "gpu_util.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>

namespace gputest {

int64_t KernelConfig::constexprOr(const std::string& name, int64_t otherwise) const {
  for (const auto& c : meta.constexprs)
    if (c.first == name)
      return c.second.asInt();
  return otherwise;
}

std::string KernelConfig::elementOf(const std::string& param) const {
  for (const tcc::ParamInfo& p : meta.params)
    if (p.name == param)
      return p.isPointer ? p.type.substr(1) : p.type;
  return "";
}

/// The metadata files of a configuration folder, sorted.
static std::vector<std::string> metadataFiles(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> jsons;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && tcc::isKernelMetadataFile(e.path().string()))
      jsons.push_back(e.path().string());
  std::sort(jsons.begin(), jsons.end());
  return jsons;
}

tcc::Kernel& kernelOf(const KernelConfig& config) {
  // Never destroyed: unloading modules while the process exits gains nothing.
  static auto* libraries = new std::map<std::string, std::unique_ptr<tcc::Library>>;
  std::unique_ptr<tcc::Library>& lib = (*libraries)[config.dir + "|" + config.archSet];
  if (!lib) {
    lib = std::make_unique<tcc::Library>();
    lib->add(config.dir, /*archSpecific=*/config.archSet != "generic");
  }
  return lib->kernel(config.kernel);
}

std::string KernelConfig::label() const {
  std::string arch = archSet == "generic" ? "_sm90" : archSet == "all" ? "_sm90a" : "";
  // "tcc_": the test names gpu-run.sh and gpu-focus.sh filter on (Artifacts/Matmul.*/tcc_*).
  return sanitize("tcc_" + kernel + "_" + config + arch);
}

void VariantCoverage::record(const KernelConfig& config, const tcc::Kernel& kernel,
                             const tcc::LaunchPlan& plan) {
  std::string key = config.dir + (config.archSet.empty() ? "" : " [" + config.archSet + "]");
  // Where the arch-specific variants are loaded, they are the ones that must all be
  // chosen (the portable ones are covered by the "generic" set, which loads them alone).
  for (const tcc::KernelMetadata& v : kernel.variants())
    if ((v.specialisationScore() > 0 || v.archSpecific) &&
        (config.archSet != "all" || v.archSpecific))
      variants_[key][v.origin] = v.specialisationString() + ", " + v.arch;
  chosen_.insert({key, plan.variant->origin});
}

std::vector<std::string> VariantCoverage::missed() const {
  std::vector<std::string> r;
  for (const auto& [dir, files] : variants_)
    for (const auto& [file, spec] : files)
      if (!chosen_.count({dir, file}))
        r.push_back(dir + ": " + spec);
  return r;
}

std::string sanitize(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return s;
}

std::vector<KernelConfig> findConfigs(bool (*wanted)(const std::string& kernel)) {
  namespace fs = std::filesystem;
  std::vector<KernelConfig> r;
  const std::string art = artifactsDir();
  for (const std::string& kdir : subdirs(art + "/tcc")) {
    std::string kernel = fs::path(kdir).filename().string();
    if (!wanted(kernel))
      continue;
    for (const std::string& cdir : subdirs(kdir)) {
      // The general variant's metadata (the least specialised; parameters and constexprs
      // are shared by all variants): x.json, beside x.spec.json or x.d16_..._e1.json.
      std::vector<std::string> jsons = metadataFiles(cdir);
      if (jsons.empty())
        continue;
      KernelConfig c;
      c.kernel = kernel;
      c.config = fs::path(cdir).filename().string();
      c.dir = cdir;
      bool archSpecific = false;
      try {
        for (size_t i = 0; i < jsons.size(); ++i) {
          tcc::KernelMetadata m = tcc::loadMetadataFile(jsons[i]);
          archSpecific = archSpecific || m.archSpecific;
          if (i == 0 || m.specialisationScore() < c.meta.specialisationScore())
            c.meta = std::move(m);
        }
      } catch (const tcc::Error& e) {
        c.loadError = e.what(); // the family makes one case for it, which fails saying so
      }
      if (archSpecific) {
        c.archSet = "all";
        r.push_back(c);
        c.archSet = "generic";
      }
      r.push_back(c);
    }
  }
  return r;
}

} // namespace gputest
