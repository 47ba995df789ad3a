// What the consumer's translation units tell main.cpp about the configuration each compiled.
#pragma once

#include <tcc/embedded.h> // CUstream, CUdeviceptr

#include <cstddef>
#include <cstdint>

// The code a generated header embeds for a kernel's first variant: its cubin, its PTX, or
// both (tcc embeds PTX where there is no ptxas).
struct Embedded {
  const void* cubin = nullptr;
  size_t cubinSize = 0;
  const void* ptx = nullptr;
  size_t ptxSize = 0;
};

using FillFn = void (*)(CUstream, CUdeviceptr, int32_t);

// value1.cpp, value2.cpp: the images of namespaces value1 and value2, and their launchers.
Embedded value1Image();
Embedded value2Image();
void value1Fill(CUstream s, CUdeviceptr out, int32_t n);
void value2Fill(CUstream s, CUdeviceptr out, int32_t n);
// jit.cpp: namespaces sm80 (VALUE=5, an sm_80 cubin and its PTX) and ptxonly (VALUE=6).
Embedded sm80Image();
Embedded ptxOnlyImage();
void sm80Fill(CUstream s, CUdeviceptr out, int32_t n);
void ptxOnlyFill(CUstream s, CUdeviceptr out, int32_t n);
// default3.cpp, default4.cpp: the address of `fill` as each unit sees it (unqualified), and a
// call through it.
FillFn default3Fill();
FillFn default4Fill();

// Reads NS::tcc_embedded_KERNEL::image0 and ::ptx0 of a generated header, whichever exist:
// a name the header does not declare falls back to tcc_probe_absent's nullptr (qualified
// lookup looks in namespaces named by using-directives only when the name is not declared).
namespace tcc_probe_absent {
constexpr std::nullptr_t image0 = nullptr;
constexpr std::nullptr_t ptx0 = nullptr;
} // namespace tcc_probe_absent

template <class T> void probeSet(const void** p, size_t* n, const T& a) {
  *p = &a;
  *n = sizeof(a);
}
inline void probeSet(const void** p, size_t* n, std::nullptr_t) {
  *p = nullptr;
  *n = 0;
}

// TCC_PROBE_EMBEDDED(value1::tcc_embedded_fill, f) defines `static Embedded f()`.
#define TCC_PROBE_EMBEDDED(NS, FN)                                                             \
  namespace NS {                                                                               \
  using namespace ::tcc_probe_absent;                                                          \
  }                                                                                            \
  static Embedded FN() {                                                                       \
    Embedded e;                                                                                \
    probeSet(&e.cubin, &e.cubinSize, ::NS::image0);                                            \
    probeSet(&e.ptx, &e.ptxSize, ::NS::ptx0);                                                  \
    return e;                                                                                  \
  }
