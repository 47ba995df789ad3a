// Kernel metadata as written by the compiler beside each cubin (docs/artifacts.md), parsed
// and checked.
#pragma once

#include "tcc/grid_expr.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tcc {

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

struct KernelMetadata {
  std::string name;
  std::string entry;
  std::string arch;        // "sm_90"
  int archNumber = 0;      // 90
  bool archSpecific = false; // "sm_90a": runs only on exactly that compute capability
  std::string cubinPath;   // resolved against the metadata file's folder
  std::string ptxPath;     // resolved, or empty
  int numWarps = 4;
  int64_t sharedBytes = 0;
  std::string grid[3];
  std::vector<ParamInfo> params;
  std::vector<std::pair<std::string, int64_t>> constexprs;
  std::string source;
  std::string compiler;
  std::string origin;      // the metadata file (or "<memory>")

  int threadsPerBlock() const { return 32 * numWarps; }
  // Sum of log2(divisibility) over the parameters, plus 64 per parameter assumed equal to 1
  // (docs/artifacts.md): 0 for the general variant.
  int specialisationScore() const;
  // "BLOCK=1024, num_warps=4" style description of the configuration.
  std::string configString() const;
  // "x%16, n%16, stride_n==1" style description of the specialisation, or "general".
  std::string specialisationString() const;
};

// Parses metadata text. `origin` names it in errors; relative file names inside are
// resolved against `baseDir` (empty: kept as they are). Throws tcc::Error when the text is
// not valid JSON, not a tcc-kernel file, of an unknown version, or inconsistent.
KernelMetadata parseMetadata(const std::string& text, const std::string& origin,
                             const std::string& baseDir);

// Reads and parses a metadata file.
KernelMetadata loadMetadataFile(const std::string& path);

// True if the file at `path` looks like tcc kernel metadata (a JSON object whose "format" is
// "tcc-kernel"); never throws.
bool isKernelMetadataFile(const std::string& path);

// Parses a parameter type string; false if unknown.
bool parseParamType(const std::string& type, ParamInfo* info);

// Reads a whole file; throws tcc::Error naming `what` on failure.
std::string readFile(const std::string& path, const std::string& what);

} // namespace tcc
