// Which images an artifact build compiles (`tcc --emit=cubin|header`, `--emit=ptx -o`): every
// kernel of a file, in each of its variants, for each architecture. Decided here from plain
// data (each kernel's variant sets, whether it has a dot, the architectures) before anything
// is compiled; the Driver compiles each planned image and writes its files.
//
// Plain C++ (no LLVM or MLIR types), like the writers it names the files for.
#pragma once

#include "ArtifactWriter.h"

#include <cstddef>
#include <string>
#include <vector>

namespace tcc {

// One kernel of the file, as the plan sees it.
struct KernelVariantSets {
  std::string name;
  // The parameters of each variant (in call order, with that variant's divisibility and
  // equal-to-1 assumptions), most general first; at least one. The first goes into the
  // primary image with the first of every other kernel, each further one into an image of its
  // own.
  std::vector<std::vector<KernelParam>> sets;
  // A tile.dot: with --variants=auto on sm_90 the kernel also gets sm_90a images (wgmma,
  // which runs on compute capability 9.0 exactly; the runtime and headers prefer it there).
  bool hasDot = false;
};

// One image to compile: some kernels, each under one of its variant sets, for one
// architecture, and the file-name part that tells it from the others.
struct PlannedImage {
  struct Member {
    std::string kernel;
    size_t set = 0; // index into the kernel's sets
    // No image of this architecture holds a more specialised variant of the kernel (by
    // specialisationScore): the variant that the arguments of a contiguous, aligned call
    // select.
    bool mostSpecialised = false;
  };
  std::string arch;
  std::vector<Member> members;
  // Between the output's stem and its extension: "" for the primary image (the -o path);
  // ".<arch>" for an architecture other than the first (".sm_90a"); for a further variant
  // its variantSuffix (".d16_d16_e1"), after ".<kernel>" in a file with several kernels,
  // before ".<arch>"; ".<kernel>.sm_90a" for an sm_90a image that --variants=auto adds for the
  // one kernel of several that has a dot.
  std::string suffix;
};

// The images of `kernels` (in the file's order) for `archs` (--arch, in order: the first is
// the primary architecture, whose files carry no architecture in their names; at least one).
// Per architecture: the primary image (the first set of every kernel), then each kernel's
// further sets, one image each. With `autoVariants` (--variants=auto), sm_90 among `archs`
// and sm_90a not, the kernels that have a dot get sm_90a images too, after the others.
std::vector<PlannedImage> planImages(const std::vector<KernelVariantSets>& kernels,
                                     const std::vector<std::string>& archs, bool autoVariants);

} // namespace tcc
