//===- TuningTable.h - tcc --tuning: reading and checking a table -*- C++ -*-===//
//
// A tuning table (docs/autotuning.md) names, per device and key, the configuration of an
// @autotune space to launch:
//
//   {"format": "tcc-tuning-table", "version": 1, "kernel": "axpy", "space": "9f3c...",
//    "entries": [{"device": "NVIDIA H200", "cc": 90, "key": "n=1048576", "index": 1,
//                 "config": "BLOCK=2048, num_warps=8, num_stages=2",
//                 "medians_ms": {"0": 0.0123, "1": 0.0101}}]}
//
// `tcc --tuning T.json` checks it against the kernel it compiles -- strictly: every problem
// is an error located in the table -- and embeds it in the header (--emit=header) or writes
// it beside the cubins as <kernel>.tuning.json (--emit=cubin) for tcc::Library.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_DRIVER_TUNINGTABLE_H
#define TCC_DRIVER_TUNINGTABLE_H

#include <map>
#include <string>

namespace tcc {

class DiagnosticEngine;
namespace typed {
struct Autotune;
} // namespace typed

/// Reads the table at `path` into the diagnostics' source manager (so that errors point
/// into it); 0 after an error (reported).
unsigned loadTuningTable(DiagnosticEngine &diags, const std::string &path);

/// Checks the table in buffer `buffer` for kernel `kernel` of search space `space`: its
/// format, version, kernel and space, and every entry: the fields of the format and no
/// others, a key of the space's key parameters in order with bucketed values (powers of
/// two), a configuration the space declares and does not prune, no two entries for one
/// device and key. With `built` (after compiling: each configuration built, by index, with
/// its description as the runtime writes it), also the entries' "config"; an entry naming
/// a configuration that was dropped is left out with a warning. On success, *normalized
/// holds the table to embed or write (every entry kept). Errors are reported, located.
bool checkTuningTable(DiagnosticEngine &diags, unsigned buffer, const std::string &kernel,
                      const typed::Autotune &space,
                      const std::map<unsigned, std::string> *built, std::string *normalized);

} // namespace tcc

#endif // TCC_DRIVER_TUNINGTABLE_H
