// What the compiler hands to the runtime: one compiled kernel variant (a cubin plus what the
// runtime needs to launch it), and the writer that puts it on disk as `<stem>.cubin` with
// `<stem>.json` (metadata, schema in docs/artifacts.md) and, optionally, `<stem>.ptx` beside.
//
// Plain C++ types: no LLVM or MLIR in this interface (the metadata is written with
// llvm::json inside), and no exceptions (the compiler is built without them); failures come
// back as messages. The Driver fills a KernelArtifact from the lowered module and calls
// writeArtifact / writeHeader (HeaderWriter.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tcc {

// One runtime parameter of a kernel (constexprs are not parameters: they are folded away).
struct KernelParam {
  std::string name;
  // "*f32" (a global pointer to f32; also *f16 *bf16 *f64 *i8 *i16 *i32 *i64 *i1),
  // or a scalar: "i1" "i8" "i16" "i32" "i64" "f16" "bf16" "f32" "f64" (and, behind a
  // pointer only, "f8e4nv" "f8e5").
  std::string type;
  // Specialisation this variant was compiled under: the argument's value (for a pointer, its
  // address in bytes) is a multiple of `divisibility`. 1 means no assumption. A power of two.
  int64_t divisibility = 1;
  // Specialisation "equal to 1" (integers only, not with a divisibility > 1): the variant was
  // compiled with the argument replaced by the constant 1 (unit strides). Metadata:
  // "equal_to": 1.
  bool equalToOne = false;
};

// One constexpr parameter or -D value of a kernel, as compiled: recorded in the metadata (an
// integer, a boolean, a number or a string: a dtype is its name, "f16") and in a header's
// comment; integers and booleans may appear in grid expressions.
struct KernelConstexpr {
  enum class Kind { Int, Bool, Float, String };
  std::string name;
  Kind kind = Kind::Int;
  int64_t intValue = 0;  // Int; Bool as 0 or 1
  double floatValue = 0; // Float
  std::string text;      // String
  KernelConstexpr() = default;
  KernelConstexpr(std::string n, int64_t value) : name(std::move(n)), intValue(value) {}
  static KernelConstexpr boolean(std::string n, bool value);
  static KernelConstexpr number(std::string n, double value);
  static KernelConstexpr string(std::string n, std::string value);
  bool isInteger() const { return kind == Kind::Int || kind == Kind::Bool; }
  // As written in a header comment: 1024, True, 0.5, "relu".
  std::string display() const;
};

// One compiled variant of one kernel.
// A configuration of an @autotune space (docs/autotuning.md): metadata "autotune".
struct KernelAutotune {
  std::string space;                 // 16 hex digits, the same for every configuration
  int index = 0, count = 0;          // declared position, declared configurations
  std::vector<std::string> key;      // integer parameters deciding the choice
  std::vector<std::string> writes;   // pointer parameters the kernel stores through
  std::vector<std::string> restore;  // writes + restore_value + reset_to_zero
};

// A kernel compiled with --check-bounds (metadata "check_bounds", docs/artifacts.md): after
// its parameters it takes hidden ones, not in `params`: one i64 per name of `extents` (the
// pointer parameters, in order: the bytes valid from the pointer passed), then a pointer
// to an error record of kBoundsRecordBytes bytes, zeroed before the launch.
struct KernelBoundsCheck {
  std::vector<std::string> extents; // the pointer parameters, in call order
  int unchecked = 0;                // accesses whose pointer no parameter could be traced to
};
constexpr int kBoundsRecordBytes = 40;

/// A TMA tensor map the kernel takes as a hidden parameter (issue 11): after the user
/// parameters, one `.param .align 64 .b8 [128]` per entry, in this order, which the
/// launcher fills with cuTensorMapEncodeTiled. (With --check-bounds, after the bounds
/// check's hidden parameters: the user parameters, the extents, the record, the maps.)
/// Metadata "tensormaps", version 2 (docs/artifacts.md).
struct KernelTensorMap {
  std::string param;                     // the pointer parameter whose address is the global base
  std::string dtype;                     // element type, as in KernelParam::type without '*': "f16", "bf16", "f32", "i8", ...
  std::vector<std::string> dims;         // global extents in elements, innermost first (grid-expression grammar, e.g. "K", "M")
  std::vector<std::string> stridesBytes; // dims.size()-1 byte strides of dims 1.. (grid-expression grammar, e.g. "stride_am * 2")
  std::vector<int64_t> box;              // box extents in elements, innermost first (each 1..256)
  int swizzle = 0;                       // bytes: 0, 32, 64 or 128
  int l2Promotion = 128;                 // bytes: 0, 64, 128 or 256
  std::string oobFill = "zero";          // "zero" or "nan" (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
};

struct KernelArtifact {
  std::string name;  // the kernel's name in the source, e.g. "vector_add"
  std::string entry; // the entry symbol in the cubin; empty means the same as `name`
  std::vector<KernelParam> params;                          // in call order
  std::vector<KernelConstexpr> constexprs; // in declaration order
  int numWarps = 4;                  // warps per block (a warp-specialised kernel's consumers)
  int producerWarps = 0;             // a warp-specialised kernel's producer warpgroup (4)
  int threadsPerWarp = 32;           // the target's (#tile.target); threads per block =
                                     // threadsPerWarp * (numWarps + producerWarps)
  int numStages = 0;                 // pipeline stages compiled for; 0: not recorded
  int64_t sharedBytes = 0;           // dynamic shared memory per block, in bytes
  std::array<std::string, 3> grid = {"1", "1", "1"}; // grid expressions (docs/ir.md)
  std::string arch = "sm_90";        // "sm_80", "sm_90", "sm_90a", ...
  std::string cubin;                 // the binary image (bytes); empty: a PTX-only artifact
  std::string ptx;                   // written beside the cubin when non-empty; required
                                     // when there is no cubin (the driver JIT-compiles it)
  // What ptxas said about the entry (written as metadata "ptxas" when hasPtxasInfo):
  // registers per thread, stack frame, spill stores and loads in bytes.
  bool hasPtxasInfo = false;
  int registers = 0;
  int64_t stackBytes = 0, spillStores = 0, spillLoads = 0;
  std::optional<KernelAutotune> autotune;
  std::optional<KernelBoundsCheck> checkBounds; // --check-bounds
  // What one launch costs (metadata "cost", docs/artifacts.md): global bytes moved and
  // FLOPs, as grid expressions over the integer parameters; absent where not expressible.
  std::optional<std::string> costBytes, costFlops;
  std::vector<KernelTensorMap> tensorMaps; // TMA tensor maps (metadata "tensormaps")
  std::string source;                // optional provenance: the source file
  std::string compiler;              // optional provenance: e.g. "tcc 0.1"
};

// The format tag and version written into every metadata file: version 1, or
// kArtifactVersionTensorMaps for an artifact with tensor maps (hidden parameters a reader of
// version 1 would not pass).
constexpr const char* kArtifactFormat = "tcc-kernel";
constexpr int kArtifactVersion = 1;
constexpr int kArtifactVersionTensorMaps = 2;

// Checks an artifact before it is written: identifiers, parameter types, divisibility (a
// power of two), num_warps (1..32), threads per warp (32), shared_bytes (0..227 KiB), arch
// ("sm_NN[a|f]"), grid expressions parse and mention only integer parameters or integer
// constexprs, a cubin or PTX; each tensor map: a pointer parameter and its element type,
// rank 1..5 with rank-1 strides and rank box extents of 1..256, an inner box of a multiple
// of 16 bytes and at most the swizzle span, swizzle/l2Promotion/oobFill of the allowed
// values (nan for float types only), expressions over integer parameters and constexprs.
// Returns an empty string when valid, otherwise what is wrong (naming the kernel).
std::string validateArtifact(const KernelArtifact& artifact);

// The metadata JSON for `artifact`, whose cubin is stored in the file `cubinFileName`
// (a name relative to the JSON's own folder; empty: no cubin, a PTX-only artifact) and,
// when `ptxFileName` is non-empty, whose PTX is stored there. Deterministic: same artifact,
// same bytes.
std::string artifactMetadataJson(const KernelArtifact& artifact, const std::string& cubinFileName,
                                 const std::string& ptxFileName = "");

// A file-name suffix naming the specialisation of a variant with these parameters, e.g. ""
// for the general variant and ".d16_d16_d16_d16" when x, y, out and n are all assumed
// divisible by 16 ("_" = none, "e1" = equal to 1).
std::string variantSuffix(const std::vector<KernelParam>& params);

// How specialised a variant is: the sum over its parameters of log2(divisibility), plus
// kEqualToOneScore per parameter assumed equal to 1 (a value known exactly says more than any
// divisibility of a 64-bit value). 0 for the general variant. The runtime and the generated
// headers try variants in decreasing order of this score.
constexpr int kEqualToOneScore = 64;
int specialisationScore(const std::vector<KernelParam>& params);

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

// The files of one compiled module holding one or more kernels (all of `kernels` share the
// cubin and PTX bytes of the first): the cubin at `cubinPath` (skipped when empty: PTX only),
// the PTX at `ptxPath` (skipped when empty), then the metadata of kernels[i] at
// metadataPaths[i] (one per kernel, each naming the shared files relative to its folder).
// Validates every kernel first; writes each file through a temporary name and a rename, the
// metadata last. Returns false and sets *error on failure.
bool writeModuleArtifacts(const std::vector<KernelArtifact>& kernels, const std::string& cubinPath,
                          const std::string& ptxPath, const std::vector<std::string>& metadataPaths,
                          std::string* error);

// `path` with its extension (after the last '.' of the last component) replaced by `ext`
// (".json"), or `ext` appended when it has none.
std::string replaceExtension(const std::string& path, const std::string& ext);

// writeFileAtomically(path, bytes, error): runtime/include/tcc/atomic_file.h.

// Helpers shared with HeaderWriter.
namespace artifacts {
// True if `type` is a parameter type of the list above; sets *isPointer.
bool parseParamType(const std::string& type, bool* isPointer, std::string* element);
// What a generated header gives an EmbeddedKernel with tensor maps (setTensorMaps): the
// metadata's "params", "constexprs" and "tensormaps" of `artifact`, as one JSON object on
// one line. Empty for an artifact without tensor maps.
std::string tensorMapSpecJson(const KernelArtifact& artifact);
} // namespace artifacts

} // namespace tcc
