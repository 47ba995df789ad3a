// fill.tile built with -D VALUE=1 into namespace value1 (NAMESPACE value1).
#include "probe.h"

#include <fill_value1.h>

TCC_PROBE_EMBEDDED(value1::tcc_embedded_fill, probeEmbedded)

Embedded value1Image() { return probeEmbedded(); }
void value1Fill(CUstream s, CUdeviceptr out, int32_t n) { value1::fill(s, out, n); }
