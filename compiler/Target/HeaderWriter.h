// `tcc --emit=header`: a self-contained C++ header with the cubin(s) embedded and a typed
// launch function, e.g.
//
//   void vector_add(CUstream stream, CUdeviceptr x, CUdeviceptr y, CUdeviceptr out,
//                   int32_t n);
//
// which computes the grid from the kernel's grid expressions (cdiv), picks the most
// specialised embedded variant whose assumptions the arguments satisfy and that runs on the
// device, loads the module on first use in the current CUDA context and launches. The header
// needs only the runtime's <tcc/embedded.h> (link tccrt); errors are thrown as tcc::Error.
//
// Plain C++, no LLVM/MLIR, no exceptions: failures come back as messages.
#pragma once

#include "ArtifactWriter.h"

#include <string>
#include <vector>

namespace tcc {

struct HeaderOptions {
  // Name of the launch function; empty: the kernel's name.
  std::string functionName;
  // Namespace the function and the embedded images go into; empty: the global namespace.
  // May be nested ("a::b").
  std::string cxxNamespace;
  // Where the header came from, written into its first comment (e.g. the source path).
  std::string provenance;
  // How it was compiled (e.g. "-D ACT=\"relu\" --num-warps 8"), written into the comment.
  std::string configuration;
  // Also declare every launcher in the global namespace (`using NS::fn;`), so that a
  // translation unit including one configuration calls it unqualified. Needs cxxNamespace.
  bool globalUsing = false;
};

// Generates the header for `variants`: compiled variants of ONE kernel (same name, same
// parameter names and types), differing in specialisation (KernelParam::divisibility) and
// possibly in num_warps/shared memory/grid. At least one variant must make no assumption at
// all (the general fallback). Returns false and sets *error if the variants are invalid.
bool generateHeader(const std::vector<KernelArtifact>& variants, const HeaderOptions& options,
                    std::string* header, std::string* error);

// A header with a launcher per kernel: kernels[i] holds the variants of the i-th kernel.
// Variants are tried sm_NNa first, then newest architecture first, most specialised first
// within an architecture; where they differ in architecture each is taken only where it
// runs (EmbeddedKernel::runsOnCurrentDevice: its cubin, or its PTX by JIT).
bool generateHeader(const std::vector<std::vector<KernelArtifact>>& kernels,
                    const HeaderOptions& options, std::string* header, std::string* error);

// The header of an autotuned kernel (docs/autotuning.md): configurations[i] holds the
// variants of one configuration kept, every variant carrying the `autotune` metadata of one
// space. Each configuration gets its variants and a launcher of its own; the kernel's
// launcher asks a tcc::EmbeddedTuning (the runtime's tuner, as tcc::Library's autotuned
// kernels) which one to run for the key arguments. `tuningTable`: a tuning table's JSON text
// (already checked) embedded for the tuner, or empty. One configuration: a plain launcher.
bool generateTunedHeader(const std::vector<std::vector<KernelArtifact>>& configurations,
                         const std::string& tuningTable, const HeaderOptions& options,
                         std::string* header, std::string* error);

// How the runtime describes a configuration (KernelMetadata::configString(), the "config"
// of the disk cache and of tuning tables), from one of its variants:
// "BLOCK=1024, num_warps=4, num_stages=3".
std::string configurationString(const KernelArtifact& artifact);

// generateHeader, then write to `path` (via a temporary file and a rename).
bool writeHeader(const std::vector<KernelArtifact>& variants, const HeaderOptions& options,
                 const std::string& path, std::string* error);

} // namespace tcc
