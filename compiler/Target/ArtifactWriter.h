// What the compiler hands to the runtime: one compiled kernel variant (a cubin plus what the
// runtime needs to launch it), and the writer that puts it on disk as `<stem>.cubin` with
// `<stem>.json` (metadata, schema in docs/artifacts.md) and, optionally, `<stem>.ptx` beside.
//
// Plain C++: no LLVM or MLIR here, and no exceptions (the compiler is built without them);
// failures come back as messages. The Driver fills a KernelArtifact from the lowered module
// and calls writeArtifact / writeHeader (HeaderWriter.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tcc {

// One runtime parameter of a kernel (constexprs are not parameters: they are folded away).
struct KernelParam {
  std::string name;
  // "*f32" (a global pointer to f32; also *f16 *bf16 *f64 *i8 *i16 *i32 *i64 *i1),
  // or a scalar: "i1" "i8" "i16" "i32" "i64" "f16" "bf16" "f32" "f64".
  std::string type;
  // Specialisation this variant was compiled under: the argument's value (for a pointer, its
  // address in bytes) is a multiple of `divisibility`. 1 means no assumption. A power of two.
  int64_t divisibility = 1;
  // Specialisation "equal to 1" (integers only, not with a divisibility > 1): the variant was
  // compiled with the argument replaced by the constant 1 (unit strides). Metadata:
  // "equal_to": 1.
  bool equalToOne = false;
};

// One compiled variant of one kernel.
struct KernelArtifact {
  std::string name;  // the kernel's name in the source, e.g. "vector_add"
  std::string entry; // the entry symbol in the cubin; empty means the same as `name`
  std::vector<KernelParam> params;                          // in call order
  std::vector<std::pair<std::string, int64_t>> constexprs; // in declaration order
  int numWarps = 4;                  // threads per block = 32 * numWarps
  int64_t sharedBytes = 0;           // dynamic shared memory per block, in bytes
  std::array<std::string, 3> grid = {"1", "1", "1"}; // grid expressions (docs/ir.md)
  std::string arch = "sm_90";        // "sm_80", "sm_90", "sm_90a", ...
  std::string cubin;                 // the binary image (bytes)
  std::string ptx;                   // optional: written beside the cubin when non-empty
  std::string source;                // optional provenance: the source file
  std::string compiler;              // optional provenance: e.g. "tcc 0.1"
};

// The format tag and version written into every metadata file.
constexpr const char* kArtifactFormat = "tcc-kernel";
constexpr int kArtifactVersion = 1;

// Checks an artifact before it is written: identifiers, parameter types, divisibility (a
// power of two), num_warps (1..32), shared_bytes (0..227 KiB), arch ("sm_NN[a|f]"), grid
// expressions parse and mention only integer parameters or constexprs, non-empty cubin.
// Returns an empty string when valid, otherwise what is wrong (naming the kernel).
std::string validateArtifact(const KernelArtifact& artifact);

// The metadata JSON for `artifact`, whose cubin is stored in the file `cubinFileName`
// (a name relative to the JSON's own folder) and, when `ptxFileName` is non-empty, whose
// PTX is stored there. Deterministic: same artifact, same bytes.
std::string artifactMetadataJson(const KernelArtifact& artifact, const std::string& cubinFileName,
                                 const std::string& ptxFileName = "");

// A file-name suffix naming the specialisation, e.g. "" for the general variant and
// ".d16_d16_d16_d16" when x, y, out and n are all assumed divisible by 16 ("_" = none,
// "e1" = equal to 1).
std::string variantSuffix(const KernelArtifact& artifact);

// How specialised a variant is: the sum over its parameters of log2(divisibility), plus
// kEqualToOneScore per parameter assumed equal to 1 (a value known exactly says more than any
// divisibility of a 64-bit value). 0 for the general variant. The runtime and the generated
// headers try variants in decreasing order of this score.
constexpr int kEqualToOneScore = 64;
int specialisationScore(const KernelArtifact& artifact);

struct WrittenArtifact {
  std::string cubinPath;
  std::string metadataPath;
  std::string ptxPath; // empty when no PTX was written
};

// Validates, then writes the cubin to `cubinPath`, the metadata to the same path with its
// extension replaced by ".json" and, if the artifact has PTX, the PTX by ".ptx". Each file
// is written to a temporary name and renamed, so readers never see half a file. Returns
// false and sets *error on failure.
bool writeArtifact(const KernelArtifact& artifact, const std::string& cubinPath, std::string* error,
                   WrittenArtifact* written = nullptr);

// Helpers shared with HeaderWriter.
namespace artifacts {
// True if `type` is a parameter type of the list above; sets *isPointer.
bool parseParamType(const std::string& type, bool* isPointer, std::string* element);
// A JSON string literal (with quotes) for `s`.
std::string jsonQuote(const std::string& s);
} // namespace artifacts

} // namespace tcc
