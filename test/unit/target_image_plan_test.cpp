// Which images an artifact build compiles (compiler/Target/ImagePlan.h): the architectures,
// the implicit sm_90a images of kernels with a dot, one image for the first variant set of
// every kernel then one per further set, the file-name suffixes, and which variant of each
// (kernel, architecture) is the most specialised.
#include "ImagePlan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using tcc::KernelParam;
using tcc::KernelVariantSets;
using tcc::PlannedImage;

// A parameter of a variant: "x" (no assumption), "x%16" (divisible by 16), "x==1".
KernelParam param(const std::string& spec) {
  KernelParam p;
  size_t mod = spec.find('%'), eq = spec.find("==");
  p.name = spec.substr(0, std::min(mod, eq));
  p.type = "i32";
  if (mod != std::string::npos)
    p.divisibility = std::stoll(spec.substr(mod + 1));
  if (eq != std::string::npos)
    p.equalToOne = true;
  return p;
}

std::vector<KernelParam> set(const std::vector<std::string>& specs) {
  std::vector<KernelParam> params;
  for (const std::string& s : specs)
    params.push_back(param(s));
  return params;
}

// --variants=auto's three sets of a strided kernel: general, aligned, unit inner stride.
KernelVariantSets strided(const std::string& name, bool hasDot) {
  return {name,
          {set({"a", "n", "stride"}), set({"a%16", "n%16", "stride%16"}),
           set({"a%16", "n%16", "stride==1"})},
          hasDot};
}

// One line per image: "arch suffix kernel/set[*] ..." (* marks the most specialised).
std::vector<std::string> describe(const std::vector<PlannedImage>& images) {
  std::vector<std::string> lines;
  for (const PlannedImage& image : images) {
    std::string line = image.arch + " '" + image.suffix + "'";
    for (const PlannedImage::Member& m : image.members)
      line += " " + m.kernel + "/" + std::to_string(m.set) + (m.mostSpecialised ? "*" : "");
    lines.push_back(line);
  }
  return lines;
}

using Lines = std::vector<std::string>;

TEST(ImagePlan, AutoVariantsOfAKernelWithADotOnSm90AddSm90aImages) {
  EXPECT_EQ(describe(tcc::planImages({strided("mm", true)}, {"sm_90"}, true)),
            (Lines{"sm_90 '' mm/0",
                   "sm_90 '.d16_d16_d16' mm/1",
                   "sm_90 '.d16_d16_e1' mm/2*",
                   "sm_90a '.sm_90a' mm/0",
                   "sm_90a '.d16_d16_d16.sm_90a' mm/1",
                   "sm_90a '.d16_d16_e1.sm_90a' mm/2*"}));
}

TEST(ImagePlan, AKernelWithoutADotGetsNoSm90aImage) {
  EXPECT_EQ(describe(tcc::planImages({strided("copy", false)}, {"sm_90"}, true)),
            (Lines{"sm_90 '' copy/0", "sm_90 '.d16_d16_d16' copy/1",
                   "sm_90 '.d16_d16_e1' copy/2*"}));
}

TEST(ImagePlan, Sm90aImagesOnlyWithAutoVariantsAndOnlyWhereNotAsked) {
  // One variant as asked (--variants=single): no implicit sm_90a image.
  KernelVariantSets one{"mm", {set({"a%16", "n"})}, true};
  EXPECT_EQ(describe(tcc::planImages({one}, {"sm_90"}, false)), (Lines{"sm_90 '' mm/0*"}));
  // --arch sm_90a: the images are sm_90a's, and carry no architecture.
  EXPECT_EQ(describe(tcc::planImages({strided("mm", true)}, {"sm_90a"}, true)),
            (Lines{"sm_90a '' mm/0", "sm_90a '.d16_d16_d16' mm/1", "sm_90a '.d16_d16_e1' mm/2*"}));
  // Without sm_90 among the architectures, none; with it, after those asked for.
  EXPECT_EQ(describe(tcc::planImages({one}, {"sm_80"}, true)), (Lines{"sm_80 '' mm/0*"}));
  EXPECT_EQ(describe(tcc::planImages({one}, {"sm_80", "sm_90"}, true)),
            (Lines{"sm_80 '' mm/0*", "sm_90 '.sm_90' mm/0*", "sm_90a '.sm_90a' mm/0*"}));
}

TEST(ImagePlan, SeveralKernelsShareThePrimaryImageAndNameTheirFurtherOnes) {
  // Only mm has a dot: the sm_90a images hold mm alone, named by it.
  KernelVariantSets fill{"fill", {set({"out", "n"}), set({"out%16", "n%16"})}, false};
  EXPECT_EQ(describe(tcc::planImages({fill, strided("mm", true)}, {"sm_90"}, true)),
            (Lines{"sm_90 '' fill/0 mm/0",
                   "sm_90 '.fill.d16_d16' fill/1*",
                   "sm_90 '.mm.d16_d16_d16' mm/1",
                   "sm_90 '.mm.d16_d16_e1' mm/2*",
                   "sm_90a '.mm.sm_90a' mm/0",
                   "sm_90a '.mm.d16_d16_d16.sm_90a' mm/1",
                   "sm_90a '.mm.d16_d16_e1.sm_90a' mm/2*"}));
}

TEST(ImagePlan, EqualSpecialisationsAreAllTheMostSpecialised) {
  // A header's general variant and the one --specialize asked for; a set that assumes
  // nothing scores as the general one.
  KernelVariantSets k{"k", {set({"x", "n"}), set({"x", "n"})}, false};
  EXPECT_EQ(describe(tcc::planImages({k}, {"sm_90"}, false)), (Lines{"sm_90 '' k/0*", "sm_90 '' k/1*"}));
  k.sets[1] = set({"x%8", "n"});
  EXPECT_EQ(describe(tcc::planImages({k}, {"sm_90"}, false)),
            (Lines{"sm_90 '' k/0", "sm_90 '.d8_' k/1*"}));
}

} // namespace
