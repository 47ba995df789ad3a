// fill.tile with VALUE=5 for sm_80 only, cubin and PTX embedded (namespace sm80: on a newer
// GPU the launcher runs the PTX, JIT-compiled by the driver), and with VALUE=6 as PTX only
// (namespace ptxonly: what a header holds where tcc finds no ptxas).
#include "probe.h"

#include <fill_ptx.h>
#include <fill_sm80.h>

TCC_PROBE_EMBEDDED(sm80::tcc_embedded_fill, probeSm80)
TCC_PROBE_EMBEDDED(ptxonly::tcc_embedded_fill, probePtxOnly)

Embedded sm80Image() { return probeSm80(); }
Embedded ptxOnlyImage() { return probePtxOnly(); }
void sm80Fill(CUstream s, CUdeviceptr out, int32_t n) { sm80::fill(s, out, n); }
void ptxOnlyFill(CUstream s, CUdeviceptr out, int32_t n) { ptxonly::fill(s, out, n); }
