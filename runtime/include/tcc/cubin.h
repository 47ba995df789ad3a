// What can be learnt from a binary image before handing it to the driver: whether it is a
// CUDA ELF (cubin), and for which SM architecture; and how an artifact built for one
// architecture runs on a device of another (its cubin, or its PTX through the driver's JIT).
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

// Whether PTX for `ptxArch` can be JIT-compiled by the driver for a device of compute
// capability `deviceArch`: the device is the PTX's architecture or a newer one (sm_80 PTX
// runs on 8.6, 9.0, 10.0, ...); architecture-specific PTX (sm_90a) only on exactly its own.
bool ptxRunsOn(int ptxArch, bool archSpecific, int deviceArch);

// How a variant built for `arch` (with a cubin and/or PTX) is best run on `deviceArch`, in
// the runtime's order of preference: its cubin on exactly that architecture, its cubin on a
// compatible one (same major version, device minor >= the cubin's; sm_NNa only on exactly
// NN), then its PTX through the driver's JIT (a PTX architecture <= the device's).
enum class LoadRank { ExactCubin = 0, CompatibleCubin = 1, PtxJit = 2, CannotRun = 3 };
LoadRank loadRank(int arch, bool archSpecific, bool hasCubin, bool hasPtx, int deviceArch);

// The ".target sm_NN[a]" of PTX text (0 when absent); *archSpecific set for sm_NNa.
int ptxTarget(const void* ptx, size_t size, bool* archSpecific = nullptr);

} // namespace tcc
