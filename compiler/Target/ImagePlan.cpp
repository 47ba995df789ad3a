#include "ImagePlan.h"

#include <algorithm>

namespace tcc {

std::vector<PlannedImage> planImages(const std::vector<KernelVariantSets>& kernels,
                                     const std::vector<std::string>& archs, bool autoVariants) {
  auto named = [&](const std::string& arch) {
    return std::find(archs.begin(), archs.end(), arch) != archs.end();
  };
  bool anyDot = std::any_of(kernels.begin(), kernels.end(),
                            [](const KernelVariantSets& k) { return k.hasDot; });
  std::vector<std::string> imageArchs = archs;
  bool addWgmma = autoVariants && anyDot && named("sm_90") && !named("sm_90a");
  if (addWgmma)
    imageArchs.push_back("sm_90a");

  bool several = kernels.size() > 1;
  std::vector<PlannedImage> images;
  for (const std::string& arch : imageArchs) {
    std::string archSuffix = arch == archs.front() ? "" : "." + arch;
    std::vector<const KernelVariantSets*> members;
    for (const KernelVariantSets& k : kernels)
      if (!(addWgmma && arch == "sm_90a") || k.hasDot)
        members.push_back(&k);
    size_t first = images.size();
    PlannedImage& primary = images.emplace_back();
    primary.arch = arch;
    for (const KernelVariantSets* k : members)
      primary.members.push_back({k->name, 0});
    if (members.size() == 1 && several)
      primary.suffix = "." + members.front()->name;
    primary.suffix += archSuffix;
    for (const KernelVariantSets* k : members)
      for (size_t i = 1; i < k->sets.size(); ++i) {
        PlannedImage& image = images.emplace_back();
        image.arch = arch;
        image.members.push_back({k->name, i});
        image.suffix =
            (several ? "." + k->name : std::string()) + variantSuffix(k->sets[i]) + archSuffix;
      }
    for (const KernelVariantSets* k : members) {
      int best = 0;
      for (const std::vector<KernelParam>& set : k->sets)
        best = std::max(best, specialisationScore(set));
      for (size_t i = first; i < images.size(); ++i)
        for (PlannedImage::Member& m : images[i].members)
          if (m.kernel == k->name)
            m.mostSpecialised = specialisationScore(k->sets[m.set]) == best;
    }
  }
  return images;
}

} // namespace tcc
