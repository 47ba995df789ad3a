// fill.tile built with -D VALUE=2 into namespace value2 (NAMESPACE value2).
#include "probe.h"

#include <fill_value2.h>

TCC_PROBE_EMBEDDED(value2::tcc_embedded_fill, probeEmbedded)

Embedded value2Image() { return probeEmbedded(); }
void value2Fill(CUstream s, CUdeviceptr out, int32_t n) { value2::fill(s, out, n); }
