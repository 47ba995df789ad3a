#include "HeaderWriter.h"

#include "tcc/atomic_file.h"
#include "tcc/constexpr_text.h"

#include "tcc/grid_expr.h"
#include "tcc/identifier.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tcc {
namespace {

const char* const kCxxKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
    "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
    "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
    "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
    "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};

// A C++ spelling for a kernel-language identifier: keywords and names that could collide
// with the generated locals (tcc_*) or reserved names (a leading underscore) get a suffix.
std::string cxxName(const std::string& n) {
  for (const char* k : kCxxKeywords)
    if (n == k)
      return n + "_";
  if (n.compare(0, 4, "tcc_") == 0 || (!n.empty() && n[0] == '_'))
    return n + "_";
  return n;
}

std::string cxxScalarType(const std::string& type) {
  bool ptr = false;
  std::string elem;
  artifacts::parseParamType(type, &ptr, &elem);
  if (ptr)
    return "CUdeviceptr";
  if (elem == "i1")
    return "bool";
  if (elem == "i8")
    return "int8_t";
  if (elem == "i16")
    return "int16_t";
  if (elem == "i32")
    return "int32_t";
  if (elem == "i64")
    return "int64_t";
  if (elem == "f16" || elem == "bf16")
    return "uint16_t"; // the raw bits
  if (elem == "f8e4nv" || elem == "f8e5")
    return "uint8_t"; // the raw bits
  if (elem == "f32")
    return "float";
  return "double";
}

// A C string literal for any text: quotes, backslashes and bytes outside printable ASCII
// escaped (octal, three digits, so that no following character extends an escape).
std::string cString(const std::string& s) {
  std::string r = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      r += '\\';
      r += static_cast<char>(c);
    } else if (c == '\n') {
      r += "\\n";
    } else if (c < 0x20 || c >= 0x7f || c == '?') { // '?': no trigraphs
      char b[8];
      std::snprintf(b, sizeof b, "\\%03o", c);
      r += b;
    } else {
      r += static_cast<char>(c);
    }
  }
  return r + "\"";
}

bool isCxxKeyword(const std::string& n) {
  for (const char* k : kCxxKeywords)
    if (n == k)
      return true;
  return false;
}

// An identifier usable as a (nested) namespace: no keyword, no reserved spelling (a double
// underscore, or an underscore and a capital letter at the start).
bool checkNamespace(const std::string& ns) {
  if (ns.empty())
    return true;
  size_t start = 0;
  while (true) {
    size_t end = ns.find("::", start);
    std::string part = ns.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || isCxxKeyword(part) || part.find("__") != std::string::npos ||
        (part.size() > 1 && part[0] == '_' && part[1] >= 'A' && part[1] <= 'Z'))
      return false;
    if (!isIdentifier(part))
      return false;
    if (end == std::string::npos)
      return true;
    start = end + 2;
  }
}

bool archSpecific(const KernelArtifact& v) { return !v.arch.empty() && v.arch.back() == 'a'; }

int archNumber(const KernelArtifact& v) { return std::atoi(v.arch.c_str() + 3); }

void appendImage(std::string* out, const std::string& bytes) {
  static const char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i % 16 == 0)
      *out += "\n   ";
    unsigned char b = static_cast<unsigned char>(bytes[i]);
    *out += " 0x";
    *out += kHex[b >> 4];
    *out += kHex[b & 15];
    *out += ',';
  }
  *out += "\n";
}

// Checks the variants of one kernel and orders them the way its launcher tries them:
// architecture-specific ones (sm_90a) first, then by architecture, newest first, and the most
// specialised first within each (stable: the caller's order among equals). The last one must
// be general: it is launched when nothing else applies.
bool orderVariants(const std::vector<KernelArtifact>& in, std::vector<const KernelArtifact*>* out,
                   std::string* error) {
  if (in.empty()) {
    *error = "no kernel variants to put in a header";
    return false;
  }
  for (const KernelArtifact& v : in) {
    std::string err = validateArtifact(v);
    if (!err.empty()) {
      *error = err;
      return false;
    }
  }
  const KernelArtifact& first = in.front();
  for (const KernelArtifact& v : in) {
    bool same = v.name == first.name && v.params.size() == first.params.size();
    for (size_t i = 0; same && i < v.params.size(); ++i)
      same = v.params[i].name == first.params[i].name && v.params[i].type == first.params[i].type;
    if (!same) {
      *error = "kernel '" + first.name + "': variants in one header must share the name and "
               "the parameters ('" + v.name + "' differs)";
      return false;
    }
  }
  std::vector<const KernelArtifact*>& variants = *out;
  variants.clear();
  for (const KernelArtifact& v : in)
    variants.push_back(&v);
  std::stable_sort(variants.begin(), variants.end(),
                   [&](const KernelArtifact* a, const KernelArtifact* b) {
                     if (archSpecific(*a) != archSpecific(*b))
                       return archSpecific(*a);
                     if (archNumber(*a) != archNumber(*b))
                       return archNumber(*a) > archNumber(*b);
                     return specialisationScore(a->params) > specialisationScore(b->params);
                   });
  if (specialisationScore(variants.back()->params) != 0) {
    *error = "kernel '" + first.name + "': no general variant (one without divisibility "
             "assumptions) to fall back on";
    return false;
  }
  for (size_t i = 0; i < variants.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      bool same = variants[i]->arch == variants[j]->arch;
      for (size_t p = 0; p < first.params.size(); ++p)
        same = same &&
               variants[i]->params[p].divisibility == variants[j]->params[p].divisibility &&
               variants[i]->params[p].equalToOne == variants[j]->params[p].equalToOne;
      if (same) {
        *error = "kernel '" + first.name + "': two variants with the same specialisation";
        return false;
      }
    }
  return true;
}

std::string signature(const KernelArtifact& k, const std::string& fn) {
  std::string s = "void " + fn + "(CUstream stream";
  for (const KernelParam& p : k.params)
    s += ", " + cxxScalarType(p.type) + " " + cxxName(p.name);
  return s + ")";
}

// The images, the EmbeddedKernel objects and the launcher `fn` of one kernel (of one
// configuration), the first two in namespace `detailNs`; with `emptyCheck`, also
// `bool launches_nothing(params...)`: whether its grid is empty for these arguments.
void emitKernel(const std::vector<const KernelArtifact*>& variants, const std::string& fn,
                const std::string& detailNs, bool emptyCheck, std::string* out) {
  std::string& h = *out;
  const KernelArtifact& first = *variants.front();
  bool severalArchs = false;
  for (const KernelArtifact* v : variants)
    severalArchs = severalArchs || v->arch != first.arch;
  h += "namespace " + detailNs + " {\n\n";
  for (size_t i = 0; i < variants.size(); ++i) {
    const KernelArtifact& v = *variants[i];
    std::string idx = std::to_string(i);
    h += "// variant " + idx + ":";
    std::string conds;
    for (const KernelParam& p : v.params) {
      if (p.divisibility > 1)
        conds += (conds.empty() ? " " : ", ") + p.name + " % " + std::to_string(p.divisibility) +
                 " == 0";
      if (p.equalToOne)
        conds += (conds.empty() ? " " : ", ") + p.name + " == 1";
    }
    h += conds.empty() ? " general" : conds;
    h += ", " + v.arch;
    if (v.checkBounds)
      h += ", bounds-checked";
    if (!v.tensorMaps.empty())
      h += ", " + std::to_string(v.tensorMaps.size()) + " TMA tensor map" +
           (v.tensorMaps.size() == 1 ? "" : "s");
    h += v.cubin.empty() ? ", PTX only (JIT-compiled by the driver)" : v.ptx.empty() ? "" : ", cubin and PTX";
    if (v.hasPtxasInfo)
      h += "; " + std::to_string(v.registers) + " registers, " +
           (v.spillStores + v.spillLoads ? std::to_string(v.spillStores) + " B spill stores, " +
                                               std::to_string(v.spillLoads) + " B spill loads"
                                         : std::string("no spills")) +
           ", " + std::to_string(v.sharedBytes) + " B shared";
    h += "\n";
    std::string image = "nullptr, 0", ptx = "nullptr, 0";
    if (!v.cubin.empty()) {
      h += "alignas(16) inline const unsigned char image" + idx + "[" +
           std::to_string(v.cubin.size()) + "] = {";
      appendImage(&h, v.cubin);
      h += "};\n";
      image = "image" + idx + ", sizeof(image" + idx + ")";
    }
    if (!v.ptx.empty()) {
      // NUL-terminated, as the driver wants PTX.
      h += "inline const char ptx" + idx + "[" + std::to_string(v.ptx.size() + 1) + "] = {";
      appendImage(&h, v.ptx + std::string(1, '\0'));
      h += "};\n";
      ptx = "ptx" + idx + ", sizeof(ptx" + idx + ") - 1";
    }
    h += "inline ::tcc::EmbeddedKernel& variant" + idx + "() {\n";
    h += "  static ::tcc::EmbeddedKernel kernel(" + cString(v.name) + ", " +
         cString(v.entry.empty() ? v.name : v.entry) + ", " + image + ", " + cString(v.arch) +
         ", " + std::to_string(v.numWarps + v.producerWarps) + ", " + std::to_string(v.sharedBytes) +
         (v.ptx.empty() ? "" : ", " + ptx) + ");\n";
    if (v.checkBounds) {
      // --check-bounds: the launches append the extents and the error record.
      std::string list;
      for (const KernelParam& p : v.params)
        list += (list.empty() ? "" : ",") + p.name + ":" + p.type;
      std::string file = v.source.substr(v.source.find_last_of('/') + 1);
      h += "  // --check-bounds: the extent of every pointer argument and an error record are\n"
           "  // passed after the arguments; an out-of-bounds access throws after the launch.\n";
      h += "  static const bool tcc_bounds_checked = (kernel.setBoundsCheck(" + cString(list) +
           ", " + cString(file) + ", " + std::to_string(kBoundsRecordBytes) + "), true);\n";
      h += "  (void)tcc_bounds_checked;\n";
    }
    if (!v.tensorMaps.empty()) {
      // TMA: the launches encode the maps from the arguments and pass them after them.
      h += "  // TMA tensor maps: encoded from the arguments (cuTensorMapEncodeTiled) and passed\n"
           "  // after them; the launcher takes this variant only where TMA accepts them.\n";
      h += "  static const bool tcc_tensor_maps = (kernel.setTensorMaps(\n      " +
           cString(artifacts::tensorMapSpecJson(v)) + "), true);\n";
      h += "  (void)tcc_tensor_maps;\n";
    }
    h += "  return kernel;\n}\n\n";
  }
  h += "} // namespace " + detailNs + "\n\n";

  h += "inline void " + fn + "(CUstream tcc_stream";
  for (const KernelParam& p : first.params)
    h += ", " + cxxScalarType(p.type) + " " + cxxName(p.name);
  h += ") {\n";
  h += "  void* tcc_args[] = {";
  for (size_t i = 0; i < first.params.size(); ++i)
    h += (i ? ", " : "") + std::string("&") + cxxName(first.params[i].name);
  if (first.params.empty())
    h += "nullptr";
  h += "};\n";

  auto nameToCxx = [&](const KernelArtifact& v) {
    return [&v](const std::string& name) -> std::string {
      for (const KernelConstexpr& c : v.constexprs)
        if (c.name == name && c.isInteger())
          return "INT64_C(" + std::to_string(c.intValue) + ")";
      bool parameter = false;
      for (const KernelParam& p : v.params)
        parameter = parameter || p.name == name;
      // The device's grid symbols, from the variant being launched.
      if (!parameter && name == "num_sms")
        return "tcc_kernel.numSms()";
      if (!parameter && name == "occupancy")
        return "tcc_kernel.occupancy()";
      return "static_cast<int64_t>(" + cxxName(name) + ")";
    };
  };
  // The C++ expressions of a variant's three grid dimensions, for code whose `tcc_kernel`
  // is the variant; adds to the header (at `indent`) the checked-arithmetic helper each
  // expression with arithmetic needs. The expressions were validated above.
  auto gridCxx = [&](const std::string& indent, const KernelArtifact& v) {
    std::array<std::string, 3> g;
    for (int d = 0; d < 3; ++d) {
      grid::Expr e;
      std::string err;
      grid::parse(v.grid[d], &e, &err);
      std::string calc = "tcc_g" + std::to_string(d);
      g[d] = grid::toCxx(e, calc + ".", nameToCxx(v));
      if (g[d].find(calc + ".") != std::string::npos)
        h += indent + "::tcc::GridCalc " + calc + "(tcc_kernel, " + cString(v.grid[d]) + ");\n";
    }
    return g;
  };
  // Where the variants differ in architecture or carry PTX, each is taken only where it runs,
  // in two passes: first the cubins that run on the device, then PTX through the driver's
  // JIT (as tcc::Kernel ranks them). The last variant is launched regardless, and says why
  // when it cannot run.
  bool anyPtx = false;
  for (const KernelArtifact* v : variants)
    anyPtx = anyPtx || !v->ptx.empty();
  bool checked = severalArchs || anyPtx;
  bool twoPasses = checked && anyPtx && variants.size() > 1;
  if (twoPasses)
    h += "  // pass 0: a cubin that runs on this device; pass 1: PTX, JIT-compiled by the driver\n"
         "  for (int tcc_pass = 0; tcc_pass < 2; ++tcc_pass) {\n";
  std::string base = twoPasses ? "    " : "  ";
  // With two passes every variant is in the loop (the last one too: its cubin may run where
  // a newer one only has PTX), and the last is launched regardless after it.
  size_t count = variants.size() + (twoPasses ? 1 : 0);
  for (size_t n = 0; n < count; ++n) {
    size_t i = std::min(n, variants.size() - 1);
    const KernelArtifact& v = *variants[i];
    bool last = n + 1 == count;
    if (last && twoPasses)
      h += "  }\n";
    std::string pad = last ? "  " : base;
    std::string cond;
    for (const KernelParam& p : v.params) {
      if (p.equalToOne) {
        cond += (cond.empty() ? "" : " && ") + cxxName(p.name) + " == 1";
        continue;
      }
      if (p.divisibility <= 1)
        continue;
      bool ptr = false;
      artifacts::parseParamType(p.type, &ptr, nullptr);
      if (!cond.empty())
        cond += " && ";
      cond += ptr ? cxxName(p.name) + " % " + std::to_string(p.divisibility) + "u == 0"
                  : cxxName(p.name) + " % " + std::to_string(p.divisibility) + " == 0";
    }
    std::string var = detailNs + "::variant" + std::to_string(i) + "()";
    // Its TMA tensor maps must take the arguments (alignment, strides: as tcc::Kernel does).
    if (!v.tensorMaps.empty())
      cond += (cond.empty() ? "" : " && ") + var + ".tensorMapsAccept(tcc_args)";
    if (!last && (archSpecific(v) || checked)) {
      std::string runs = var + ".runsOnCurrentDevice()";
      if (twoPasses)
        runs += " && (tcc_pass == 1 || !" + var + ".usesPtxOnCurrentDevice())";
      cond = runs + (cond.empty() ? "" : " && " + cond);
    }
    if (last)
      cond.clear();
    std::string indent = cond.empty() ? pad : pad + "  ";
    if (!cond.empty())
      h += pad + "if (" + cond + ") {\n";
    else if (variants.size() > 1)
      h += pad + "// the general variant\n";
    h += indent + "::tcc::EmbeddedKernel& tcc_kernel = " + var + ";\n";
    std::array<std::string, 3> g = gridCxx(indent, v);
    h += indent + "tcc_kernel.launch(tcc_stream,\n";
    for (int d = 0; d < 3; ++d)
      h += indent + "                  " + g[d] + ",\n";
    h += indent + "                  tcc_args);\n";
    if (!cond.empty())
      h += indent + "return;\n" + pad + "}\n";
  }
  h += "}\n\n";
  if (!emptyCheck)
    return;
  // The general variant's grid (the last): the one every argument can take.
  const KernelArtifact& v = *variants.back();
  h += "inline bool launches_nothing(";
  for (size_t i = 0; i < first.params.size(); ++i)
    h += (i ? ", " : "") + cxxScalarType(first.params[i].type) + " " + cxxName(first.params[i].name);
  h += ") {\n";
  for (const KernelParam& p : first.params)
    h += "  (void)" + cxxName(p.name) + ";\n";
  h += "  ::tcc::EmbeddedKernel& tcc_kernel = " + detailNs + "::variant" +
       std::to_string(variants.size() - 1) + "();\n  (void)tcc_kernel;\n";
  std::array<std::string, 3> g = gridCxx("  ", v);
  h += "  return (" + g[0] + ") == 0 ||\n         (" + g[1] + ") == 0 ||\n         (" + g[2] +
       ") == 0;\n}\n\n";
}

// One launcher of a header: a kernel's configurations (one for a kernel that is not
// autotuned), each with its variants in the order they are tried.
struct Entry {
  std::vector<std::vector<const KernelArtifact*>> configs;
  std::string fn;
  std::string table; // an autotuned kernel's tuning table (JSON), or empty
};

std::string paramList(const KernelArtifact& k) {
  std::string s;
  for (const KernelParam& p : k.params)
    s += ", " + cxxScalarType(p.type) + " " + cxxName(p.name);
  return s;
}

std::string argList(const KernelArtifact& k) {
  std::string s;
  for (const KernelParam& p : k.params)
    s += ", " + cxxName(p.name);
  return s;
}

// An autotuned kernel: every configuration's variants and launcher in a namespace of its
// own, a dispatch over them, the tuner (tcc::EmbeddedTuning) and the launcher that asks it.
void emitTuned(const Entry& entry, std::string* out) {
  std::string& h = *out;
  const KernelArtifact& first = *entry.configs.front().back();
  const KernelAutotune& at = *first.autotune;
  std::string detailNs = "tcc_embedded_" + first.name;
  std::string params = paramList(first), args = argList(first);
  h += "namespace " + detailNs + " {\n\n";
  for (size_t c = 0; c < entry.configs.size(); ++c) {
    const KernelArtifact& g = *entry.configs[c].back();
    std::string ns = "c" + std::to_string(c);
    h += "// configuration " + std::to_string(g.autotune->index) + ": " +
         configurationString(g) + "\n";
    h += "namespace " + ns + " {\n\n";
    emitKernel(entry.configs[c], "launch", "images", /*emptyCheck=*/true, &h);
    h += "} // namespace " + ns + "\n\n";
  }
  auto dispatch = [&](const std::string& signature, const std::string& call,
                      const std::string& fallback) {
    h += signature + " {\n  switch (tcc_config) {\n";
    for (size_t c = 0; c < entry.configs.size(); ++c)
      h += "  case " + std::to_string(c) + ":\n    " +
           call.substr(0, call.find('@')) + "c" + std::to_string(c) +
           call.substr(call.find('@') + 1) + "\n";
    h += "  default:\n    " + fallback + "\n  }\n}\n\n";
  };
  dispatch("inline void launch(size_t tcc_config, CUstream tcc_stream" + params + ")",
           "@::launch(tcc_stream" + args + ");\n    return;",
           "throw ::tcc::Error(\"launching\", \"no configuration \" + std::to_string(tcc_config), " +
               cString(first.name) + ");");
  dispatch("inline bool launches_nothing(size_t tcc_config" + params + ")",
           "return @::launches_nothing(" + (args.empty() ? "" : args.substr(2)) + ");",
           "return false;");
  std::string table = "nullptr, 0";
  if (!entry.table.empty()) {
    h += "// The tuning table (tcc --tuning): its entries for this device and a key choose the\n"
         "// configuration without benchmarking; the runtime checks it again at the first "
         "choice.\n";
    h += "inline const char tuning_table[] =\n";
    size_t at = 0;
    while (at < entry.table.size()) {
      size_t nl = entry.table.find('\n', at);
      size_t end = nl == std::string::npos ? entry.table.size() : nl + 1;
      h += "    " + cString(entry.table.substr(at, end - at)) + "\n";
      at = end;
    }
    h += "    ;\n";
    table = "tuning_table, sizeof(tuning_table) - 1";
  }
  // What the trials save and restore: restore, then what writes adds.
  std::vector<std::string> saved = at.restore;
  for (const std::string& w : at.writes)
    if (std::find(saved.begin(), saved.end(), w) == saved.end())
      saved.push_back(w);
  h += "inline ::tcc::EmbeddedTuning& tuning() {\n";
  std::string key = "nullptr, 0", savedArg = "nullptr, 0";
  if (!at.key.empty()) {
    h += "  static const char* const tcc_key[] = {";
    for (size_t i = 0; i < at.key.size(); ++i)
      h += (i ? ", " : "") + cString(at.key[i]);
    h += "};\n";
    key = "tcc_key, " + std::to_string(at.key.size());
  }
  h += "  static const ::tcc::EmbeddedTuning::Config tcc_configs[] = {\n";
  for (size_t c = 0; c < entry.configs.size(); ++c) {
    const KernelArtifact& g = *entry.configs[c].back();
    h += "      {" + std::to_string(g.autotune->index) + ", " + cString(configurationString(g)) +
         "},\n";
  }
  h += "  };\n";
  if (!saved.empty()) {
    h += "  static const char* const tcc_saved[] = {";
    for (size_t i = 0; i < saved.size(); ++i)
      h += (i ? ", " : "") + cString(saved[i]);
    h += "};\n";
    savedArg = "tcc_saved, " + std::to_string(saved.size());
  }
  h += "  static ::tcc::EmbeddedTuning tcc_tuning(" + cString(first.name) + ", " +
       cString(at.space) + ", " + key + ", tcc_configs, " +
       std::to_string(entry.configs.size()) + ", " + savedArg + ", " + table + ");\n";
  h += "  return tcc_tuning;\n}\n\n";
  h += "} // namespace " + detailNs + "\n\n";

  // The launcher: the key, the choice (one lookup once made), the chosen configuration.
  h += "inline void " + entry.fn + "(CUstream tcc_stream" + params + ") {\n";
  std::string keyArg = "nullptr";
  if (!at.key.empty()) {
    h += "  const int64_t tcc_key[] = {";
    for (size_t i = 0; i < at.key.size(); ++i)
      h += (i ? ", " : "") + std::string("static_cast<int64_t>(") + cxxName(at.key[i]) + ")";
    h += "};\n";
    keyArg = "tcc_key";
  }
  h += "  ::tcc::EmbeddedTuning& tcc_tuning = " + detailNs + "::tuning();\n";
  h += "  size_t tcc_config = tcc_tuning.known(" + keyArg + ");\n";
  h += "  if (tcc_config == ::tcc::EmbeddedTuning::kUnknown) {\n";
  std::string savedPtrs = "nullptr";
  if (!saved.empty()) {
    h += "    const CUdeviceptr tcc_saved[] = {";
    for (size_t i = 0; i < saved.size(); ++i)
      h += (i ? ", " : "") + cxxName(saved[i]);
    h += "};\n";
    savedPtrs = "tcc_saved";
  }
  h += "    tcc_config = tcc_tuning.choose(\n"
       "        tcc_stream, " + keyArg + ", " + savedPtrs + ",\n"
       "        [&](size_t tcc_c, CUstream tcc_s) { " + detailNs + "::launch(tcc_c, tcc_s" + args +
       "); },\n"
       "        [&](size_t tcc_c) { return " + detailNs + "::launches_nothing(tcc_c" + args +
       "); });\n  }\n";
  h += "  " + detailNs + "::launch(tcc_config, tcc_stream" + args + ");\n}\n\n";
}

// Checks the configurations of one autotuned kernel: one space, the same parameters and
// lists, distinct indices; sorted by index.
bool orderConfigurations(const std::vector<std::vector<KernelArtifact>>& in, Entry* entry,
                         std::string* error) {
  if (in.empty()) {
    *error = "no configurations to put in a header";
    return false;
  }
  for (const std::vector<KernelArtifact>& variants : in) {
    std::vector<const KernelArtifact*> ordered;
    if (!orderVariants(variants, &ordered, error))
      return false;
    entry->configs.push_back(std::move(ordered));
  }
  const KernelArtifact& ref = *entry->configs.front().back();
  for (const auto& config : entry->configs)
    for (const KernelArtifact* v : config) {
      if (!v->autotune) {
        *error = "kernel '" + ref.name + "': a configuration of an autotuned kernel has no "
                 "autotune metadata";
        return false;
      }
      const KernelAutotune &a = *v->autotune, &b = *ref.autotune;
      bool same = v->name == ref.name && v->params.size() == ref.params.size() &&
                  a.space == b.space && a.count == b.count && a.key == b.key &&
                  a.writes == b.writes && a.restore == b.restore;
      for (size_t i = 0; same && i < v->params.size(); ++i)
        same = v->params[i].name == ref.params[i].name && v->params[i].type == ref.params[i].type;
      if (!same) {
        *error = "kernel '" + ref.name + "': the configurations are not of one autotune space "
                 "(name, parameters, space, count, key, writes and restore must agree)";
        return false;
      }
      if (a.index != config.back()->autotune->index) {
        *error = "kernel '" + ref.name + "': the variants of one configuration have different "
                 "autotune indices";
        return false;
      }
    }
  std::stable_sort(entry->configs.begin(), entry->configs.end(),
                   [](const auto& x, const auto& y) {
                     return x.back()->autotune->index < y.back()->autotune->index;
                   });
  for (size_t c = 1; c < entry->configs.size(); ++c)
    if (entry->configs[c].back()->autotune->index == entry->configs[c - 1].back()->autotune->index) {
      *error = "kernel '" + ref.name + "': two configurations have autotune index " +
               std::to_string(entry->configs[c].back()->autotune->index);
      return false;
    }
  return true;
}

bool emitHeader(std::vector<Entry>& entries, const HeaderOptions& options, std::string* header,
                std::string* error) {
  if (!options.functionName.empty() && entries.size() != 1) {
    *error = "a function name can be chosen only for a header with one kernel";
    return false;
  }
  for (size_t k = 0; k < entries.size(); ++k) {
    const KernelArtifact& first = *entries[k].configs.front().front();
    std::string fn = options.functionName.empty() ? cxxName(first.name) : options.functionName;
    if (cxxName(fn) != fn || fn.find(':') != std::string::npos || !checkNamespace(fn)) {
      *error = "'" + fn + "' is not a usable C++ function name";
      return false;
    }
    for (size_t j = 0; j < k; ++j)
      if (entries[j].fn == fn) {
        *error = "two kernels named '" + fn + "' in one header";
        return false;
      }
    entries[k].fn = fn;
  }
  if (!checkNamespace(options.cxxNamespace)) {
    *error = "'" + options.cxxNamespace + "' is not a usable C++ namespace";
    return false;
  }
  if (options.globalUsing && options.cxxNamespace.empty()) {
    *error = "global using-declarations need a namespace";
    return false;
  }
  std::string prefix = options.cxxNamespace.empty() ? "" : options.cxxNamespace + "::";

  std::string h;
  h += "// Generated by tcc";
  if (!options.provenance.empty())
    h += " from " + options.provenance;
  h += ": ";
  for (size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    h += (k ? ", " : "") + std::string("kernel ") + e.configs.front().front()->name + " (";
    if (e.configs.size() > 1) {
      size_t variants = 0;
      for (const auto& c : e.configs)
        variants += c.size();
      h += "autotuned over " + std::to_string(e.configs.size()) + " configurations, " +
           std::to_string(variants) + " variants";
      if (!e.table.empty())
        h += ", with a tuning table";
    } else {
      h += std::to_string(e.configs.front().size()) + " variant" +
           (e.configs.front().size() == 1 ? "" : "s");
    }
    h += ")";
  }
  h += ". Do not edit.\n";
  if (!options.configuration.empty())
    h += "// Configuration: " + options.configuration + "\n";
  if (!options.cxxNamespace.empty())
    h += "// Namespace: " + options.cxxNamespace +
         (options.globalUsing ? " (from the configuration; the launchers are also declared in "
                                "the global namespace: choose one with --namespace)"
                              : "") +
         "\n";
  for (const Entry& e : entries) {
    const KernelArtifact& first = *e.configs.front().front();
    h += "//\n// " + signature(first, prefix + e.fn) + ";\n";
    if (e.configs.size() > 1) {
      const KernelAutotune& at = *first.autotune;
      h += "//   autotuned (space " + at.space + ", key [";
      for (size_t i = 0; i < at.key.size(); ++i)
        h += (i ? ", " : "") + at.key[i];
      h += "]): the first launch of each key chooses\n"
           "//   a configuration from the disk cache, the tuning table or by benchmarking\n"
           "//   (docs/autotuning.md)\n";
      for (const auto& c : e.configs)
        h += "//   configuration " + std::to_string(c.back()->autotune->index) + ": " +
             configurationString(*c.back()) + "; grid = (" + c.back()->grid[0] + ", " +
             c.back()->grid[1] + ", " + c.back()->grid[2] + "), " + std::to_string(c.size()) +
             " variant" + (c.size() == 1 ? "" : "s") + "\n";
      continue;
    }
    h += "//   grid = (" + first.grid[0] + ", " + first.grid[1] + ", " + first.grid[2] +
         "), num_warps = " + std::to_string(first.numWarps) + ", arch =";
    std::vector<std::string> archs;
    for (const KernelArtifact* v : e.configs.front())
      if (std::find(archs.begin(), archs.end(), v->arch) == archs.end())
        archs.push_back(v->arch);
    for (size_t a = 0; a < archs.size(); ++a)
      h += (a ? ", " : " ") + archs[a];
    h += "\n";
    if (!first.constexprs.empty()) {
      h += "//   constexprs:";
      for (const KernelConstexpr& c : first.constexprs)
        h += " " + c.name + "=" + c.display();
      h += "\n";
    }
  }
  h += "// Needs the tcc runtime (<tcc/embedded.h>, link tccrt). Errors throw tcc::Error.\n";
  h += "#pragma once\n\n#include <cstddef>\n#include <cstdint>\n";
  bool tuned = false;
  for (const Entry& e : entries)
    tuned = tuned || e.configs.size() > 1;
  if (tuned)
    h += "#include <string>\n";
  h += "#include <tcc/embedded.h>\n\n";
  if (!options.cxxNamespace.empty())
    h += "namespace " + options.cxxNamespace + " {\n\n";
  for (const Entry& e : entries) {
    if (e.configs.size() > 1)
      emitTuned(e, &h);
    else
      emitKernel(e.configs.front(), e.fn, "tcc_embedded_" + e.configs.front().front()->name,
                 /*emptyCheck=*/false, &h);
  }
  if (!options.cxxNamespace.empty())
    h += "} // namespace " + options.cxxNamespace + "\n";
  if (options.globalUsing) {
    h += "\n// One configuration per translation unit may be called unqualified; a unit that\n"
         "// includes two configurations of a kernel gets an ambiguity error, never the wrong one.\n";
    for (const Entry& e : entries)
      h += "using " + prefix + e.fn + ";\n";
  }
  *header = std::move(h);
  return true;
}

} // namespace

std::string configurationString(const KernelArtifact& a) {
  std::string s;
  for (const KernelConstexpr& c : a.constexprs) {
    std::string value;
    if (c.kind == KernelConstexpr::Kind::String ||
        (c.kind == KernelConstexpr::Kind::Float && !std::isfinite(c.floatValue))) {
      // As the runtime prints a string (a non-finite number is stored as one).
      value = quoted(c.kind == KernelConstexpr::Kind::String ? c.text : c.display());
    } else {
      value = c.display();
    }
    s += c.name + "=" + value + ", ";
  }
  s += "num_warps=" + std::to_string(a.numWarps);
  if (a.numStages != 0)
    s += ", num_stages=" + std::to_string(a.numStages);
  return s;
}

bool generateHeader(const std::vector<std::vector<KernelArtifact>>& kernels,
                    const HeaderOptions& options, std::string* header, std::string* error) {
  if (kernels.empty()) {
    *error = "no kernels to put in a header";
    return false;
  }
  std::vector<Entry> entries(kernels.size());
  for (size_t k = 0; k < kernels.size(); ++k) {
    entries[k].configs.emplace_back();
    if (!orderVariants(kernels[k], &entries[k].configs.back(), error))
      return false;
  }
  return emitHeader(entries, options, header, error);
}

bool generateTunedHeader(const std::vector<std::vector<KernelArtifact>>& configurations,
                         const std::string& tuningTable, const HeaderOptions& options,
                         std::string* header, std::string* error) {
  std::vector<Entry> entries(1);
  if (configurations.size() == 1) {
    // One configuration kept: a plain launcher (nothing to choose, no table to consult).
    entries[0].configs.emplace_back();
    if (!orderVariants(configurations.front(), &entries[0].configs.back(), error))
      return false;
    return emitHeader(entries, options, header, error);
  }
  if (!orderConfigurations(configurations, &entries[0], error))
    return false;
  entries[0].table = tuningTable;
  return emitHeader(entries, options, header, error);
}

bool generateHeader(const std::vector<KernelArtifact>& variants, const HeaderOptions& options,
                    std::string* header, std::string* error) {
  return generateHeader(std::vector<std::vector<KernelArtifact>>{variants}, options, header, error);
}

bool writeHeader(const std::vector<KernelArtifact>& variants, const HeaderOptions& options,
                 const std::string& path, std::string* error) {
  std::string h;
  if (!generateHeader(variants, options, &h, error))
    return false;
  return writeFileAtomically(path, h, error);
}

} // namespace tcc
