// What can be learnt from a binary image before handing it to the driver: whether it is a
// CUDA ELF (cubin), and for which SM architecture.
#pragma once

#include <cstddef>
#include <string>

namespace tcc {

enum class ImageKind { Cubin, Fatbin, Ptx, Unknown };

struct ImageInfo {
  ImageKind kind = ImageKind::Unknown;
  int arch = 0; // for a cubin: 80, 90, 100, ... (0 when unknown)
};

// Inspects the first bytes of an image. A cubin's SM architecture is read from its ELF
// header (e_flags; the encoding depends on the ELF ABI version that nvcc/ptxas wrote).
ImageInfo inspectImage(const void* data, size_t size);

// "sm_90" for 90.
std::string archName(int arch);

// Whether a cubin built for `cubinArch` runs on a device of compute capability `deviceArch`:
// same major version and a device minor version at least the cubin's; an arch-specific
// cubin (sm_90a) runs only on exactly its own.
bool cubinRunsOn(int cubinArch, bool archSpecific, int deviceArch);

} // namespace tcc
