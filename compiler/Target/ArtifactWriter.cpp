#include "ArtifactWriter.h"

#include "tcc/atomic_file.h"
#include "tcc/constexpr_text.h"
#include "tcc/grid_expr.h"
#include "tcc/identifier.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace tcc {
namespace artifacts {

bool parseParamType(const std::string& type, bool* isPointer, std::string* element) {
  static const char* const kScalars[] = {"i1",  "i8",  "i16", "i32",    "i64", "f16",
                                         "bf16", "f32", "f64", "f8e4nv", "f8e5"};
  bool ptr = !type.empty() && type[0] == '*';
  std::string elem = ptr ? type.substr(1) : type;
  for (const char* s : kScalars) {
    if (elem == s) {
      if (isPointer)
        *isPointer = ptr;
      if (element)
        *element = elem;
      return true;
    }
  }
  return false;
}

} // namespace artifacts

namespace {

bool isArch(const std::string& a) {
  if (a.size() < 5 || a.compare(0, 3, "sm_") != 0)
    return false;
  size_t i = 3;
  while (i < a.size() && a[i] >= '0' && a[i] <= '9')
    ++i;
  if (i - 3 < 2 || i - 3 > 3)
    return false;
  return i == a.size() || (i + 1 == a.size() && (a[i] == 'a' || a[i] == 'f'));
}

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The bytes of a tensor map's element type (the runtime's tensorMapDataType agrees); 0 for
// a type that is not one.
int tensorMapElementBytes(const std::string& dtype) {
  if (dtype == "i1" || dtype == "i8" || dtype == "f8e4nv" || dtype == "f8e5")
    return 1;
  if (dtype == "i16" || dtype == "f16" || dtype == "bf16")
    return 2;
  if (dtype == "i32" || dtype == "f32")
    return 4;
  if (dtype == "i64" || dtype == "f64")
    return 8;
  return 0;
}

std::string entryOf(const KernelArtifact& a) { return a.entry.empty() ? a.name : a.entry; }

// JSON text is UTF-8: a path or a string constexpr that is not (a Latin-1 file name) is
// written with U+FFFD for its stray bytes, as llvm::json would (without its assertion).
std::string utf8(const std::string& s) {
  return llvm::json::isUTF8(s) ? s : llvm::json::fixUTF8(s);
}

std::string baseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

std::string replaceExtension(const std::string& path, const std::string& ext) {
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return path + ext;
  return path.substr(0, dot) + ext;
}

KernelConstexpr KernelConstexpr::boolean(std::string n, bool value) {
  KernelConstexpr c(std::move(n), value ? 1 : 0);
  c.kind = Kind::Bool;
  return c;
}

KernelConstexpr KernelConstexpr::number(std::string n, double value) {
  KernelConstexpr c(std::move(n), 0);
  c.kind = Kind::Float;
  c.floatValue = value;
  return c;
}

KernelConstexpr KernelConstexpr::string(std::string n, std::string value) {
  KernelConstexpr c(std::move(n), 0);
  c.kind = Kind::String;
  c.text = std::move(value);
  return c;
}

std::string KernelConstexpr::display() const {
  // JSON's escaping, so that a string keeps a header's comment on one line.
  return constexprText(kind, intValue, floatValue, text, [](const std::string& s) {
    std::string quoted;
    llvm::raw_string_ostream os(quoted);
    llvm::json::OStream(os).value(utf8(s));
    return quoted;
  });
}

std::string validateArtifact(const KernelArtifact& a) {
  std::string k = "kernel '" + a.name + "': ";
  if (!isIdentifier(a.name))
    return "kernel name '" + a.name + "' is not an identifier";
  if (!isIdentifier(entryOf(a)))
    return k + "entry symbol '" + a.entry + "' is not an identifier";
  for (size_t i = 0; i < a.params.size(); ++i) {
    const KernelParam& p = a.params[i];
    if (!isIdentifier(p.name))
      return k + "parameter " + std::to_string(i) + " has no valid name ('" + p.name + "')";
    for (size_t j = 0; j < i; ++j)
      if (a.params[j].name == p.name)
        return k + "parameter '" + p.name + "' appears twice";
    bool ptr = false;
    std::string elem;
    if (!artifacts::parseParamType(p.type, &ptr, &elem))
      return k + "parameter '" + p.name + "' has unknown type '" + p.type + "'";
    if (!isPowerOfTwo(p.divisibility))
      return k + "parameter '" + p.name + "': divisibility " + std::to_string(p.divisibility) +
             " is not a power of two";
    if (p.divisibility > 1 && !ptr && elem[0] != 'i')
      return k + "parameter '" + p.name + "' of type " + p.type +
             " cannot carry a divisibility assumption";
    if (p.equalToOne && (ptr || elem[0] != 'i'))
      return k + "parameter '" + p.name + "' of type " + p.type +
             " cannot carry an equal-to-1 assumption (integers only)";
    if (p.equalToOne && p.divisibility > 1)
      return k + "parameter '" + p.name + "' cannot be both equal to 1 and divisible by " +
             std::to_string(p.divisibility);
  }
  for (size_t i = 0; i < a.constexprs.size(); ++i) {
    const KernelConstexpr& c = a.constexprs[i];
    if (!isIdentifier(c.name))
      return k + "constexpr name '" + c.name + "' is not an identifier";
    for (size_t j = 0; j < i; ++j)
      if (a.constexprs[j].name == c.name)
        return k + "constexpr '" + c.name + "' appears twice";
    for (const KernelParam& p : a.params)
      if (p.name == c.name)
        return k + "'" + c.name + "' is both a parameter and a constexpr";
  }
  if (a.numWarps < 1 || a.numWarps > 32)
    return k + "num_warps " + std::to_string(a.numWarps) + " is outside 1..32";
  if ((a.producerWarps != 0 && a.producerWarps != 4) || a.numWarps + a.producerWarps > 32)
    return k + "producer_warps " + std::to_string(a.producerWarps) +
           " is not one warpgroup (4) beside at most 28 consumer warps";
  // The format's threads_per_block is 32 * num_warps (docs/artifacts.md; the runtime checks
  // it): NVIDIA's warp size, which #tile.target's verifier also insists on.
  if (a.threadsPerWarp != 32)
    return k + "threads per warp " + std::to_string(a.threadsPerWarp) +
           " is not 32, the warp size the artifact format assumes";
  if (a.sharedBytes < 0 || a.sharedBytes > 227 * 1024)
    return k + "shared memory of " + std::to_string(a.sharedBytes) +
           " bytes is outside 0..232448";
  if (!isArch(a.arch))
    return k + "architecture '" + a.arch + "' is not of the form sm_NN";
  if (a.numStages < 0 || a.numStages > 8)
    return k + "num_stages " + std::to_string(a.numStages) + " is outside 0..8";
  if (const std::optional<KernelAutotune>& t = a.autotune) {
    if (t->space.size() != 16 ||
        t->space.find_first_not_of("0123456789abcdef") != std::string::npos)
      return k + "autotune space '" + t->space + "' is not 16 hex digits";
    if (t->index < 0 || t->index >= t->count)
      return k + "autotune index " + std::to_string(t->index) + " is outside 0.." +
             std::to_string(t->count - 1);
    auto check = [&](const std::vector<std::string>& names, bool pointers,
                     const char* what) -> std::string {
      for (const std::string& n : names) {
        auto p = std::find_if(a.params.begin(), a.params.end(),
                              [&](const KernelParam& q) { return q.name == n; });
        bool ptr = false;
        std::string elem;
        if (p == a.params.end() || !artifacts::parseParamType(p->type, &ptr, &elem) ||
            ptr != pointers || (!pointers && elem[0] != 'i'))
          return k + "autotune " + what + " '" + n + "' is not " +
                 (pointers ? "a pointer" : "an integer") + " parameter";
      }
      return "";
    };
    for (std::string err : {check(t->key, false, "key"), check(t->writes, true, "writes"),
                            check(t->restore, true, "restore")})
      if (!err.empty())
        return err;
  }
  if (const std::optional<KernelBoundsCheck>& c = a.checkBounds) {
    std::vector<std::string> pointers;
    for (const KernelParam& p : a.params) {
      bool ptr = false;
      std::string elem;
      if (artifacts::parseParamType(p.type, &ptr, &elem) && ptr)
        pointers.push_back(p.name);
    }
    if (c->extents != pointers)
      return k + "check_bounds extents must name the pointer parameters in order";
    if (c->unchecked < 0)
      return k + "check_bounds unchecked " + std::to_string(c->unchecked) + " is negative";
  }
  // A grid expression (or a cost count) over the integer parameters and constexprs (and the
  // device's num_sms and occupancy where `deviceSymbols`).
  auto checkExpr = [&](const std::string& what, const std::string& text,
                       bool deviceSymbols = true) -> std::string {
    grid::Expr e;
    std::string err;
    if (!grid::parse(text, &e, &err))
      return k + what + ": " + err;
    auto slotOf = [&](const std::string& name) -> int {
      for (const KernelParam& p : a.params) {
        bool ptr = false;
        std::string elem;
        artifacts::parseParamType(p.type, &ptr, &elem);
        if (p.name == name)
          return (!ptr && elem[0] == 'i') ? 0 : -2;
      }
      for (const KernelConstexpr& c : a.constexprs)
        if (c.name == name)
          return c.isInteger() ? 0 : -3;
      if (deviceSymbols && (name == "num_sms" || name == "occupancy"))
        return 0; // the device's, at launch
      return -1;
    };
    for (const std::string& n : grid::names(e)) {
      int s = slotOf(n);
      if (s == -2)
        return k + what + " '" + text + "' uses '" + n + "', which is not an integer parameter";
      if (s == -3)
        return k + what + " '" + text + "' uses '" + n + "', which is not an integer constexpr";
      if (s < 0)
        return k + what + " '" + text + "' uses unknown name '" + n + "'";
    }
    return "";
  };
  for (int d = 0; d < 3; ++d)
    if (std::string err = checkExpr("grid[" + std::to_string(d) + "]", a.grid[d]); !err.empty())
      return err;
  if (a.costBytes)
    if (std::string err = checkExpr("cost bytes", *a.costBytes); !err.empty())
      return err;
  if (a.costFlops)
    if (std::string err = checkExpr("cost flops", *a.costFlops); !err.empty())
      return err;
  for (size_t i = 0; i < a.tensorMaps.size(); ++i) {
    const KernelTensorMap& t = a.tensorMaps[i];
    const std::string m = k + "tensor map " + std::to_string(i) + " ('" + t.param + "'): ";
    auto p = std::find_if(a.params.begin(), a.params.end(),
                          [&](const KernelParam& q) { return q.name == t.param; });
    bool ptr = false;
    if (p == a.params.end() || !artifacts::parseParamType(p->type, &ptr, nullptr) || !ptr)
      return m + "'" + t.param + "' is not a pointer parameter";
    const int bytes = tensorMapElementBytes(t.dtype);
    if (!bytes)
      return m + "dtype '" + t.dtype + "' is not a tensor map element type";
    if ("*" + t.dtype != p->type)
      return m + "dtype " + t.dtype + " is not the element type of '" + t.param + "' (" +
             p->type + ")";
    const size_t rank = t.dims.size();
    if (rank < 1 || rank > 5)
      return m + "rank " + std::to_string(rank) + " is outside 1..5";
    if (t.stridesBytes.size() != rank - 1)
      return m + std::to_string(t.stridesBytes.size()) + " strides for rank " +
             std::to_string(rank) + " (the byte strides of dims 1..: " +
             std::to_string(rank - 1) + ")";
    if (t.box.size() != rank)
      return m + std::to_string(t.box.size()) + " box extents for rank " + std::to_string(rank);
    for (size_t d = 0; d < rank; ++d)
      if (t.box[d] < 1 || t.box[d] > 256)
        return m + "box[" + std::to_string(d) + "] " + std::to_string(t.box[d]) +
               " is outside 1..256";
    const int64_t inner = t.box[0] * bytes;
    if (inner % 16 != 0)
      return m + "the inner box (box[0] " + std::to_string(t.box[0]) + " of " + t.dtype + ", " +
             std::to_string(inner) + " bytes) is not a multiple of 16 bytes";
    if (t.swizzle != 0 && t.swizzle != 32 && t.swizzle != 64 && t.swizzle != 128)
      return m + "swizzle " + std::to_string(t.swizzle) + " is not 0, 32, 64 or 128";
    if (t.swizzle != 0 && inner > t.swizzle)
      return m + "the inner box (box[0] " + std::to_string(t.box[0]) + " of " + t.dtype + ", " +
             std::to_string(inner) + " bytes) is wider than the " + std::to_string(t.swizzle) +
             "-byte swizzle";
    if (t.l2Promotion != 0 && t.l2Promotion != 64 && t.l2Promotion != 128 && t.l2Promotion != 256)
      return m + "l2Promotion " + std::to_string(t.l2Promotion) + " is not 0, 64, 128 or 256";
    if (t.oobFill != "zero" && t.oobFill != "nan")
      return m + "oobFill '" + t.oobFill + "' is not \"zero\" or \"nan\"";
    if (t.oobFill == "nan" && t.dtype != "f16" && t.dtype != "bf16" && t.dtype != "f32" &&
        t.dtype != "f64")
      return m + "oobFill \"nan\" needs a floating-point dtype, not " + t.dtype;
    for (size_t d = 0; d < rank; ++d)
      if (std::string err = checkExpr("tensor map " + std::to_string(i) + " dims[" +
                                          std::to_string(d) + "]",
                                      t.dims[d], /*deviceSymbols=*/false);
          !err.empty())
        return err;
    for (size_t d = 0; d + 1 < rank; ++d)
      if (std::string err = checkExpr("tensor map " + std::to_string(i) + " stridesBytes[" +
                                          std::to_string(d) + "]",
                                      t.stridesBytes[d], /*deviceSymbols=*/false);
          !err.empty())
        return err;
  }
  if (a.cubin.empty() && a.ptx.empty())
    return k + "neither a cubin nor PTX";
  return "";
}

std::string variantSuffix(const std::vector<KernelParam>& params) {
  bool any = false;
  std::string s = ".";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i)
      s += "_";
    if (params[i].divisibility > 1) {
      s += "d" + std::to_string(params[i].divisibility);
      any = true;
    } else if (params[i].equalToOne) {
      s += "e1";
      any = true;
    }
  }
  return any ? s : "";
}

int specialisationScore(const std::vector<KernelParam>& params) {
  int s = 0;
  for (const KernelParam& p : params) {
    for (int64_t d = p.divisibility; d > 1; d >>= 1)
      ++s;
    if (p.equalToOne)
      s += kEqualToOneScore;
  }
  return s;
}

namespace {

// A constexpr's JSON value: 1024, true, 0.5, "relu". A number keeps the shortest spelling that
// reads back exactly, with a fraction when whole ("3.0": llvm::json would write "3", an
// integer to a reader); JSON has no infinities or NaNs, so those are the strings "inf",
// "-inf", "nan".
void writeConstexpr(llvm::json::OStream& j, const KernelConstexpr& c) {
  switch (c.kind) {
  case KernelConstexpr::Kind::Int:
    j.value(c.intValue);
    return;
  case KernelConstexpr::Kind::Bool:
    j.value(c.intValue != 0);
    return;
  case KernelConstexpr::Kind::Float:
    if (std::isfinite(c.floatValue))
      j.rawValue(shortestDouble(c.floatValue));
    else
      j.value(shortestDouble(c.floatValue));
    return;
  case KernelConstexpr::Kind::String:
    j.value(utf8(c.text));
    return;
  }
}

void writeStrings(llvm::json::OStream& j, llvm::StringRef key, const std::vector<std::string>& list) {
  j.attributeArray(key, [&] {
    for (const std::string& s : list)
      j.value(s);
  });
}

// "params", "constexprs" and, where there are any, "tensormaps": what the metadata and a
// header's tensor-map spec (tensorMapSpecJson) share.
void writeParams(llvm::json::OStream& j, const KernelArtifact& a) {
  j.attributeArray("params", [&] {
    for (const KernelParam& p : a.params)
      j.object([&] {
        j.attribute("name", p.name);
        j.attribute("type", p.type);
        if (p.divisibility > 1)
          j.attribute("divisibility", p.divisibility);
        if (p.equalToOne)
          j.attribute("equal_to", 1);
      });
  });
}

void writeConstexprs(llvm::json::OStream& j, const KernelArtifact& a) {
  j.attributeObject("constexprs", [&] {
    for (const KernelConstexpr& c : a.constexprs) {
      j.attributeBegin(c.name);
      writeConstexpr(j, c);
      j.attributeEnd();
    }
  });
}

void writeTensorMaps(llvm::json::OStream& j, const KernelArtifact& a) {
  j.attributeArray("tensormaps", [&] {
    for (const KernelTensorMap& t : a.tensorMaps)
      j.object([&] {
        j.attribute("param", t.param);
        j.attribute("dtype", t.dtype);
        writeStrings(j, "dims", t.dims);
        writeStrings(j, "strides_bytes", t.stridesBytes);
        j.attributeArray("box", [&] {
          for (int64_t b : t.box)
            j.value(b);
        });
        j.attribute("swizzle", t.swizzle);
        j.attribute("l2_promotion", t.l2Promotion);
        j.attribute("oob_fill", t.oobFill);
      });
  });
}

} // namespace

namespace artifacts {

std::string tensorMapSpecJson(const KernelArtifact& a) {
  if (a.tensorMaps.empty())
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream j(os);
  j.object([&] {
    writeParams(j, a);
    writeConstexprs(j, a);
    writeTensorMaps(j, a);
  });
  return text;
}

} // namespace artifacts

std::string artifactMetadataJson(const KernelArtifact& a, const std::string& cubinFileName,
                                 const std::string& ptxFileName) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // Members in the order of docs/artifacts.md (llvm::json::Object would sort them).
  llvm::json::OStream j(os, 2);
  auto strings = [&](llvm::StringRef key, const std::vector<std::string>& list) {
    writeStrings(j, key, list);
  };
  j.object([&] {
    j.attribute("format", kArtifactFormat);
    // Version 2 only with tensor maps: every other artifact stays what readers of version 1
    // read.
    j.attribute("version", a.tensorMaps.empty() ? kArtifactVersion : kArtifactVersionTensorMaps);
    j.attribute("name", a.name);
    j.attribute("entry", entryOf(a));
    j.attribute("arch", a.arch);
    if (!cubinFileName.empty())
      j.attribute("cubin", utf8(cubinFileName));
    if (!ptxFileName.empty())
      j.attribute("ptx", utf8(ptxFileName));
    j.attribute("num_warps", a.numWarps);
    if (a.producerWarps)
      j.attribute("producer_warps", a.producerWarps);
    j.attribute("threads_per_block", a.threadsPerWarp * (a.numWarps + a.producerWarps));
    j.attribute("shared_bytes", a.sharedBytes);
    if (a.numStages > 0)
      j.attribute("num_stages", a.numStages);
    strings("grid", {a.grid[0], a.grid[1], a.grid[2]});
    writeParams(j, a);
    writeConstexprs(j, a);
    if (a.hasPtxasInfo)
      j.attributeObject("ptxas", [&] {
        j.attribute("registers", a.registers);
        j.attribute("stack_bytes", a.stackBytes);
        j.attribute("spill_stores", a.spillStores);
        j.attribute("spill_loads", a.spillLoads);
      });
    if (const std::optional<KernelAutotune>& t = a.autotune)
      j.attributeObject("autotune", [&] {
        j.attribute("space", t->space);
        j.attribute("index", t->index);
        j.attribute("count", t->count);
        strings("key", t->key);
        strings("writes", t->writes);
        strings("restore", t->restore);
      });
    if (a.costBytes || a.costFlops)
      j.attributeObject("cost", [&] {
        if (a.costBytes)
          j.attribute("bytes", *a.costBytes);
        if (a.costFlops)
          j.attribute("flops", *a.costFlops);
      });
    if (const std::optional<KernelBoundsCheck>& c = a.checkBounds)
      j.attributeObject("check_bounds", [&] {
        strings("extents", c->extents);
        j.attribute("record_bytes", kBoundsRecordBytes);
        j.attribute("unchecked", c->unchecked);
      });
    if (!a.tensorMaps.empty())
      writeTensorMaps(j, a);
    if (!a.source.empty())
      j.attribute("source", utf8(a.source));
    if (!a.compiler.empty())
      j.attribute("compiler", utf8(a.compiler));
  });
  os << "\n";
  return text;
}

bool writeModuleArtifacts(const std::vector<KernelArtifact>& kernels, const std::string& cubinPath,
                          const std::string& ptxPath, const std::vector<std::string>& metadataPaths,
                          std::string* error) {
  if (kernels.empty() || kernels.size() != metadataPaths.size()) {
    *error = "internal error: one metadata path per kernel expected";
    return false;
  }
  const KernelArtifact& first = kernels.front();
  for (const KernelArtifact& a : kernels) {
    std::string err = validateArtifact(a);
    if (!err.empty()) {
      *error = err;
      return false;
    }
  }
  if (cubinPath.empty() && ptxPath.empty()) {
    *error = "kernel '" + first.name + "': neither a cubin nor a PTX path to write";
    return false;
  }
  if ((!cubinPath.empty() && first.cubin.empty()) || (!ptxPath.empty() && first.ptx.empty())) {
    *error = "kernel '" + first.name + "': no " + (cubinPath.empty() ? "PTX" : "cubin") +
             " to write";
    return false;
  }
  for (const std::string& m : metadataPaths)
    if (m == cubinPath || m == ptxPath) {
      *error = "the metadata path '" + m + "' is also the path of the image";
      return false;
    }
  if (!cubinPath.empty() && !writeFileAtomically(cubinPath, first.cubin, error))
    return false;
  if (!ptxPath.empty() && !writeFileAtomically(ptxPath, first.ptx, error))
    return false;
  // The metadata last: a reader that finds the JSON finds the files it names.
  for (size_t i = 0; i < kernels.size(); ++i) {
    std::string json = artifactMetadataJson(kernels[i], cubinPath.empty() ? "" : baseName(cubinPath),
                                            ptxPath.empty() ? "" : baseName(ptxPath));
    if (!writeFileAtomically(metadataPaths[i], json, error))
      return false;
  }
  return true;
}

bool writeArtifact(const KernelArtifact& a, const std::string& cubinPath, std::string* error,
                   WrittenArtifact* written) {
  std::string jsonPath = replaceExtension(cubinPath, ".json");
  if (jsonPath == cubinPath) {
    *error = "the cubin path '" + cubinPath + "' must not end in .json";
    return false;
  }
  std::string ptxPath;
  if (!a.ptx.empty()) {
    ptxPath = replaceExtension(cubinPath, ".ptx");
    if (ptxPath == cubinPath) {
      *error = "the cubin path '" + cubinPath + "' must not end in .ptx";
      return false;
    }
  }
  if (!writeModuleArtifacts({a}, a.cubin.empty() ? "" : cubinPath, ptxPath, {jsonPath}, error))
    return false;
  if (written) {
    written->cubinPath = a.cubin.empty() ? "" : cubinPath;
    written->metadataPath = jsonPath;
    written->ptxPath = ptxPath;
  }
  return true;
}

} // namespace tcc
