//===- Tune.h - tcc tune: compile an @autotune space, then tune it --*- C++ -*-===//
//
// `tcc tune KERNEL.tile --shape n=... [NAME=SPEC ...] -o TABLE.json [--report DIR]`
// (docs/autotuning.md, "Offline tuning"): checks that a GPU answers, compiles every
// configuration of the space into a temporary folder as `--emit=cubin -o DIR/` does (and the
// tensor-core ceiling's kernel, runtime/tools/tensor_peak.tile, embedded at build time),
// then runs the offline tuner of runtime/tools (the one `tcc-tune` runs) on it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DRIVER_TUNE_H
#define TCC_DRIVER_TUNE_H

#include <string>
#include <vector>

namespace tcc {

/// The words after `tcc tune`; returns the exit code (0, 1 for bad input or no GPU, 2 for
/// a bad command line).
int runTuneCommand(const std::vector<std::string> &words);

} // namespace tcc

#endif // TCC_DRIVER_TUNE_H
