// Kernel metadata as written by the compiler beside each cubin (docs/artifacts.md), parsed
// and checked.
#pragma once

#include "tcc/grid_expr.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcc {

// The value of one constexpr parameter or -D value a kernel was compiled with, as the
// metadata records it: an integer, a boolean, a number or a string (a dtype is its name,
// "f16"). Integers and booleans (as 0 or 1) may appear in grid expressions. Implicit from
// the C++ value, so that lookups read {{"BLOCK", 1024}, {"ACT", "relu"}}.
class ConstexprValue {
public:
  enum class Kind { Int, Bool, Float, String };

  ConstexprValue() = default; // the integer 0
  ConstexprValue(bool v) : kind_(Kind::Bool), int_(v ? 1 : 0) {} // NOLINT: implicit on purpose
  template <typename T,
            typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
  ConstexprValue(T v) : kind_(Kind::Int), int_(static_cast<int64_t>(v)) {} // NOLINT
  ConstexprValue(double v) : kind_(Kind::Float), float_(v) {}               // NOLINT
  ConstexprValue(const char* s) : kind_(Kind::String), text_(s) {}          // NOLINT
  ConstexprValue(std::string s) : kind_(Kind::String), text_(std::move(s)) {} // NOLINT

  Kind kind() const { return kind_; }
  // An integer or a boolean: usable in grid expressions.
  bool isInteger() const { return kind_ == Kind::Int || kind_ == Kind::Bool; }
  bool isString() const { return kind_ == Kind::String; }
  // Int; Bool as 0 or 1; 0 otherwise.
  int64_t asInt() const { return isInteger() ? int_ : 0; }
  // Float; Int and Bool converted; 0 for a string.
  double asDouble() const;
  // String; empty otherwise.
  const std::string& asString() const { return text_; }
  // As in a header comment and configString(): 1024, True, 0.5, "relu".
  std::string toString() const;

  // Same kind and value (exact for numbers).
  bool operator==(const ConstexprValue& o) const;
  bool operator!=(const ConstexprValue& o) const { return !(*this == o); }
  // The looser equality of configuration lookups: numbers compare by value whatever their
  // kinds (1 matches True and 1.0), strings only with strings.
  bool sameValue(const ConstexprValue& o) const;

private:
  Kind kind_ = Kind::Int;
  int64_t int_ = 0;
  double float_ = 0;
  std::string text_;
};

std::ostream& operator<<(std::ostream& os, const ConstexprValue& v);

enum class ScalarKind { Int, Float };

struct ParamInfo {
  std::string name;
  std::string type;        // as written: "*f32", "i32", ...
  bool isPointer = false;
  ScalarKind elementKind = ScalarKind::Int; // of the scalar, or of the pointee
  int elementBits = 32;    // of the scalar, or of the pointee (i1 counts as 8 in memory)
  int64_t divisibility = 1;
  bool equalToOne = false; // "equal_to": 1 (integers only): compiled for the value 1
};

// A configuration of an autotuned kernel (docs/autotuning.md): the metadata's "autotune"
// object. Every configuration of one search space carries the same space, count, key,
// writes and restore; index tells them apart.
struct AutotuneInfo {
  std::string space;                 // 16 hex digits: the kernel's source and search space
  int index = 0;                     // position among the declared configurations
  int count = 0;                     // how many were declared (0 <= index < count)
  std::vector<std::string> key;      // integer scalar parameters whose values decide the choice
  std::vector<std::string> writes;   // pointer parameters the kernel stores to
  std::vector<std::string> restore;  // pointer parameters saved and restored around trials
  // The parameters' positions in KernelMetadata::params, in the order of the lists above.
  std::vector<size_t> keyParams, writesParams, restoreParams;
};

// A kernel built with `tcc --check-bounds` (docs/artifacts.md): the metadata's
// "check_bounds" object. Its launches pass, after the parameters, the bytes valid from each
// pointer named in `extents` (i64, found by the runtime from the allocation) and a zeroed
// error record of `recordBytes` bytes, which the runtime reads after the launch.
struct BoundsCheckInfo {
  std::vector<std::string> extents; // the pointer parameters, in call order
  std::vector<size_t> extentParams; // their positions in KernelMetadata::params
  int64_t recordBytes = 40;
  int unchecked = 0; // accesses the compiler could not trace to a parameter (not checked)
};

// What one launch costs, as the compiler counted it (docs/artifacts.md, "cost"): global
// bytes read plus written, and floating-point operations, as grid expressions over the
// integer parameters and constexprs (empty: not expressible, or not in the file).
struct CostInfo {
  std::string bytes;
  std::string flops;
};

// A TMA tensor map the kernel takes as a hidden parameter (docs/artifacts.md, "tensormaps";
// metadata version 2): after the parameters (and after a bounds-checked kernel's hidden
// ones), one 128-byte CUtensorMap per entry, in order, which the launch encodes with
// cuTensorMapEncodeTiled from the arguments.
struct TensorMapInfo {
  std::string param;                     // the pointer parameter: its argument is the base
  size_t paramIndex = 0;                 // its position in KernelMetadata::params
  std::string dtype;                     // element type: "f16", "bf16", "f32", "i8", ...
  int elementBytes = 2;                  // of dtype
  std::vector<std::string> dims;         // global extents in elements, innermost first
                                         // (grid expressions over the integer parameters
                                         // and constexprs)
  std::vector<std::string> stridesBytes; // byte strides of dims 1.. (dims.size() - 1)
  std::vector<int64_t> box;              // box extents in elements, innermost first (1..256)
  int swizzle = 0;                       // bytes: 0, 32, 64 or 128
  int l2Promotion = 128;                 // bytes: 0, 64, 128 or 256
  bool oobFillNan = false;               // "oob_fill": "nan" (else "zero")
};

struct KernelMetadata {
  std::string name;
  std::string entry;
  std::string arch;        // "sm_90"
  int archNumber = 0;      // 90
  bool archSpecific = false; // "sm_90a": runs only on exactly that compute capability
  std::string cubinPath;   // resolved against the metadata file's folder; empty for a
                           // PTX-only artifact (no "cubin": the driver JIT-compiles the PTX)
  std::string ptxPath;     // resolved, or empty (never empty when cubinPath is)
  int numWarps = 4;
  int producerWarps = 0;   // "producer_warps": a warp-specialised kernel's producer warpgroup
                           // (4), launched beside its num_warps consumer warps; else 0
  int numStages = 0;       // "num_stages": depth of the shared-memory rings; 0: not recorded
  int64_t sharedBytes = 0;
  std::string grid[3];
  std::vector<ParamInfo> params;
  std::vector<std::pair<std::string, ConstexprValue>> constexprs; // in declaration order
  std::string source;
  std::string compiler;
  std::string origin;      // the metadata file (or "<memory>")
  std::optional<AutotuneInfo> autotune; // "autotune": a configuration of a search space
  std::optional<BoundsCheckInfo> checkBounds; // "check_bounds": built with --check-bounds
  std::optional<CostInfo> cost; // "cost": bytes and FLOPs per launch (absent in older files)
  std::vector<TensorMapInfo> tensorMaps; // "tensormaps" (version 2): hidden TMA parameters

  int threadsPerBlock() const { return 32 * (numWarps + producerWarps); }
  // Sum of log2(divisibility) over the parameters, plus 64 per parameter assumed equal to 1
  // (docs/artifacts.md): 0 for the general variant.
  int specialisationScore() const;
  // The constexpr `name`, or nullptr.
  const ConstexprValue* constexprValue(const std::string& name) const;
  // "BLOCK=1024, ACT=\"relu\", num_warps=4" style description of the configuration (with
  // ", num_stages=3" where the metadata records the stages).
  std::string configString() const;
  // "x%16, n%16, stride_n==1" style description of the specialisation, or "general".
  std::string specialisationString() const;
};

// Parses metadata text. `origin` names it in errors; relative file names inside are
// resolved against `baseDir` (empty: kept as they are). Throws tcc::Error when the text is
// not valid JSON, not a tcc-kernel file, of an unknown version, or inconsistent (e.g. neither
// "cubin" nor "ptx").
KernelMetadata parseMetadata(const std::string& text, const std::string& origin,
                             const std::string& baseDir);

// The part of the metadata a generated header gives an embedded kernel with TMA tensor maps
// (EmbeddedKernel::setTensorMaps): a JSON object with the metadata's "params", "constexprs"
// and "tensormaps", parsed and checked as parseMetadata does (the other members of the
// result are left empty). Throws tcc::Error naming `origin`.
KernelMetadata parseTensorMapSpec(const std::string& text, const std::string& origin);

// The element size in bytes of a tensor map's dtype ("f16": 2), and its CUtensorMapDataType
// (tcc/cuda_api.h); false for a type that is not one.
bool tensorMapDataType(const std::string& dtype, int* elementBytes, int* dataType = nullptr);

// Reads and parses a metadata file.
KernelMetadata loadMetadataFile(const std::string& path);

// True if the file at `path` looks like tcc kernel metadata (a JSON object whose "format" is
// "tcc-kernel"); never throws.
bool isKernelMetadataFile(const std::string& path);

// Parses a parameter type string; false if unknown.
bool parseParamType(const std::string& type, ParamInfo* info);

// The most a metadata file (16 MiB) and an image (256 MiB: ten times the largest cubin tcc
// has written) may hold.
constexpr size_t kMaxMetadataBytes = size_t(16) << 20;
constexpr size_t kMaxImageBytes = size_t(256) << 20;

// Reads a whole file of at most `limit` bytes; throws tcc::Error naming `what` on failure
// (also when the file is larger, or endless like /dev/zero).
std::string readFile(const std::string& path, const std::string& what,
                     size_t limit = kMaxImageBytes);

} // namespace tcc
