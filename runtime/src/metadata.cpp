#include "tcc/metadata.h"

#include "tcc/constexpr_text.h"
#include "tcc/cuda_api.h"
#include "tcc/error.h"
#include "tcc/identifier.h"
#include "tcc/json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <ostream>
#include <sstream>

namespace tcc {
using namespace cu; // CU_TENSOR_MAP_DATA_TYPE_*
namespace {

// An input string as metadata errors quote it: whole up to 120 characters, otherwise its
// first 100 and its length (a message must stay readable whatever the metadata holds).
std::string shown(const std::string& s) {
  if (s.size() <= 120)
    return s;
  return s.substr(0, 100) + "... (" + std::to_string(s.size()) + " characters)";
}

class Reader {
public:
  explicit Reader(const std::string& origin) : origin_(origin) {}

  [[noreturn]] void fail(const std::string& msg) const {
    throw Error("reading kernel metadata " + origin_, msg);
  }

  const json::Value* get(const json::Value& obj, const std::string& key, json::Value::Kind kind,
                         bool required, const std::string& where = "") const {
    const json::Value* v = obj.find(key);
    if (!v) {
      if (required)
        fail("missing \"" + key + "\"" + where);
      return nullptr;
    }
    if (v->kind() != kind)
      fail("\"" + key + "\"" + where + " should be " + json::Value::kindName(kind) + ", not " +
           json::Value::kindName(v->kind()));
    return v;
  }
  std::string str(const json::Value& obj, const std::string& key, bool required,
                  const std::string& where = "") const {
    const json::Value* v = get(obj, key, json::Value::Kind::String, required, where);
    return v ? v->asString() : std::string();
  }
  int64_t integer(const json::Value& obj, const std::string& key, bool required, int64_t dflt,
                  const std::string& where = "") const {
    const json::Value* v = get(obj, key, json::Value::Kind::Number, required, where);
    if (!v)
      return dflt;
    if (!v->isInt())
      fail("\"" + key + "\"" + where + " should be an integer");
    return v->asInt();
  }

private:
  const std::string& origin_;
};

std::string joinPath(const std::string& dir, const std::string& file) {
  if (dir.empty() || file.empty() || file[0] == '/')
    return file;
  return dir.back() == '/' ? dir + file : dir + "/" + file;
}

bool parseArch(const std::string& a, int* number, bool* specific) {
  if (a.size() < 5 || a.compare(0, 3, "sm_") != 0)
    return false;
  size_t i = 3;
  int n = 0;
  while (i < a.size() && a[i] >= '0' && a[i] <= '9' && i < 6)
    n = n * 10 + (a[i++] - '0');
  if (i < 5)
    return false;
  bool spec = false;
  if (i + 1 == a.size() && (a[i] == 'a' || a[i] == 'f')) {
    spec = a[i] == 'a';
    ++i;
  }
  if (i != a.size())
    return false;
  *number = n;
  *specific = spec;
  return true;
}

// The "check_bounds" object (docs/artifacts.md): "extents" names every pointer parameter,
// in order (the hidden arguments follow that order); "record_bytes" at least 40.
BoundsCheckInfo parseBoundsCheck(const Reader& r, const json::Value& cb,
                                 const std::vector<ParamInfo>& params) {
  const std::string where = " in \"check_bounds\"";
  BoundsCheckInfo b;
  const json::Value* list = r.get(cb, "extents", json::Value::Kind::Array, true, where);
  std::vector<size_t> pointers;
  for (size_t p = 0; p < params.size(); ++p)
    if (params[p].isPointer)
      pointers.push_back(p);
  for (size_t i = 0; i < list->items().size(); ++i) {
    const json::Value& v = list->items()[i];
    if (!v.isString())
      r.fail("\"check_bounds\".\"extents\"[" + std::to_string(i) + "] is " +
             json::Value::kindName(v.kind()) + ", not a parameter name");
    if (i >= pointers.size() || params[pointers[i]].name != v.asString())
      r.fail("\"check_bounds\".\"extents\"[" + std::to_string(i) + "] is '" +
             shown(v.asString()) + "'; the extents must name the pointer parameters in order");
    b.extents.push_back(v.asString());
    b.extentParams.push_back(pointers[i]);
  }
  if (b.extents.size() != pointers.size())
    r.fail("\"check_bounds\".\"extents\" names " + std::to_string(b.extents.size()) +
           " parameters; the kernel has " + std::to_string(pointers.size()) + " pointer parameters");
  b.recordBytes = r.integer(cb, "record_bytes", true, 0, where);
  if (b.recordBytes < 40 || b.recordBytes > 4096)
    r.fail("\"check_bounds\".\"record_bytes\" " + std::to_string(b.recordBytes) +
           " is outside 40..4096");
  int64_t unchecked = r.integer(cb, "unchecked", false, 0, where);
  if (unchecked < 0 || unchecked > 1000000000)
    r.fail("\"check_bounds\".\"unchecked\" " + std::to_string(unchecked) +
           " is outside 0..1000000000");
  b.unchecked = static_cast<int>(unchecked);
  return b;
}

// The "autotune" object (docs/autotuning.md): every field required; the lists name
// parameters of the right kinds, each once.
AutotuneInfo parseAutotune(const Reader& r, const json::Value& at,
                           const std::vector<ParamInfo>& params) {
  const std::string where = " in \"autotune\"";
  AutotuneInfo a;
  a.space = r.str(at, "space", true, where);
  bool hex = a.space.size() == 16;
  for (char c : a.space)
    hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
  if (!hex)
    r.fail("\"autotune\".\"space\" \"" + shown(a.space) + "\" is not 16 hex digits");
  int64_t count = r.integer(at, "count", true, 0, where);
  int64_t index = r.integer(at, "index", true, 0, where);
  if (count < 1 || count > 1000000)
    r.fail("\"autotune\".\"count\" " + std::to_string(count) + " is outside 1..1000000");
  if (index < 0 || index >= count)
    r.fail("\"autotune\".\"index\" " + std::to_string(index) + " is outside 0.." +
           std::to_string(count - 1) + " (\"count\" is " + std::to_string(count) + ")");
  a.count = static_cast<int>(count);
  a.index = static_cast<int>(index);
  auto names = [&](const char* field, bool pointers, std::vector<std::string>* out,
                   std::vector<size_t>* positions) {
    const json::Value* list = r.get(at, field, json::Value::Kind::Array, true, where);
    const std::string f = std::string("\"autotune\".\"") + field + "\"";
    for (size_t i = 0; i < list->items().size(); ++i) {
      const json::Value& v = list->items()[i];
      if (!v.isString())
        r.fail(f + "[" + std::to_string(i) + "] is " + json::Value::kindName(v.kind()) +
               ", not a parameter name");
      const std::string& n = v.asString();
      size_t at = params.size();
      for (size_t p = 0; p < params.size(); ++p)
        if (params[p].name == n)
          at = p;
      if (at == params.size())
        r.fail(f + " names '" + shown(n) + "', which is not a parameter");
      const ParamInfo& p = params[at];
      if (pointers && !p.isPointer)
        r.fail(f + " names '" + shown(n) + "' (" + p.type + "), which is not a pointer parameter");
      if (!pointers && (p.isPointer || p.elementKind != ScalarKind::Int))
        r.fail(f + " names '" + shown(n) + "' (" + p.type +
               "), which is not an integer scalar parameter");
      for (const std::string& prev : *out)
        if (prev == n)
          r.fail(f + " names '" + shown(n) + "' twice");
      out->push_back(n);
      positions->push_back(at);
    }
  };
  names("key", false, &a.key, &a.keyParams);
  names("writes", true, &a.writes, &a.writesParams);
  names("restore", true, &a.restore, &a.restoreParams);
  return a;
}

} // namespace

bool parseParamType(const std::string& type, ParamInfo* info) {
  bool ptr = !type.empty() && type[0] == '*';
  std::string e = ptr ? type.substr(1) : type;
  ScalarKind kind;
  int bits;
  if (e == "i1")
    kind = ScalarKind::Int, bits = 1;
  else if (e == "i8")
    kind = ScalarKind::Int, bits = 8;
  else if (e == "i16")
    kind = ScalarKind::Int, bits = 16;
  else if (e == "i32")
    kind = ScalarKind::Int, bits = 32;
  else if (e == "i64")
    kind = ScalarKind::Int, bits = 64;
  else if (e == "f16" || e == "bf16")
    kind = ScalarKind::Float, bits = 16;
  else if (e == "f32")
    kind = ScalarKind::Float, bits = 32;
  else if (e == "f64")
    kind = ScalarKind::Float, bits = 64;
  else if (ptr && (e == "f8e4nv" || e == "f8e5")) // fp8: only behind pointers
    kind = ScalarKind::Float, bits = 8;
  else
    return false;
  info->type = type;
  info->isPointer = ptr;
  info->elementKind = kind;
  info->elementBits = bits;
  return true;
}

double ConstexprValue::asDouble() const {
  switch (kind_) {
  case Kind::Int:
  case Kind::Bool:
    return static_cast<double>(int_);
  case Kind::Float:
    return float_;
  case Kind::String:
    break;
  }
  return 0;
}

std::string ConstexprValue::toString() const {
  return constexprText(kind_, int_, float_, text_, quoted);
}

bool ConstexprValue::operator==(const ConstexprValue& o) const {
  if (kind_ != o.kind_)
    return false;
  switch (kind_) {
  case Kind::Int:
  case Kind::Bool:
    return int_ == o.int_;
  case Kind::Float:
    return float_ == o.float_;
  case Kind::String:
    return text_ == o.text_;
  }
  return false;
}

bool ConstexprValue::sameValue(const ConstexprValue& o) const {
  if (isString() || o.isString())
    return isString() && o.isString() && text_ == o.text_;
  if (isInteger() && o.isInteger())
    return int_ == o.int_;
  return asDouble() == o.asDouble();
}

std::ostream& operator<<(std::ostream& os, const ConstexprValue& v) { return os << v.toString(); }

const ConstexprValue* KernelMetadata::constexprValue(const std::string& n) const {
  for (const auto& c : constexprs)
    if (c.first == n)
      return &c.second;
  return nullptr;
}

int KernelMetadata::specialisationScore() const {
  int s = 0;
  for (const ParamInfo& p : params) {
    for (int64_t d = p.divisibility; d > 1; d >>= 1)
      ++s;
    if (p.equalToOne)
      s += 64; // a value known exactly: more than any divisibility of a 64-bit value
  }
  return s;
}

std::string KernelMetadata::configString() const {
  std::string s;
  for (const auto& c : constexprs)
    s += c.first + "=" + c.second.toString() + ", ";
  s += "num_warps=" + std::to_string(numWarps);
  if (numStages != 0)
    s += ", num_stages=" + std::to_string(numStages);
  return s;
}

std::string KernelMetadata::specialisationString() const {
  std::string s;
  for (const ParamInfo& p : params)
    if (p.divisibility > 1)
      s += (s.empty() ? "" : ", ") + p.name + "%" + std::to_string(p.divisibility);
    else if (p.equalToOne)
      s += (s.empty() ? "" : ", ") + p.name + "==1";
  return s.empty() ? "general" : s;
}

namespace {
// A grid expression (or cost count) of `m`: it parses, and names only integer parameters,
// integer constexprs and the device symbols.
void checkExpression(const Reader& r, const KernelMetadata& m, const std::string& label,
                     const std::string& text, bool deviceSymbols = true) {
  grid::Expr e;
  std::string err;
  if (!grid::parse(text, &e, &err))
    r.fail(label + ": " + err);
  for (const std::string& n : grid::names(e)) {
    bool ok = false;
    for (const ParamInfo& p : m.params)
      if (p.name == n) {
        if (p.isPointer || p.elementKind != ScalarKind::Int)
          r.fail(label + " " + grid::detail::quoteExpr(text) + " uses '" + shown(n) +
                 "', which is not an integer parameter");
        ok = true;
      }
    for (const auto& c : m.constexprs)
      if (c.first == n) {
        if (!c.second.isInteger())
          r.fail(label + " " + grid::detail::quoteExpr(text) + " uses constexpr '" + shown(n) +
                 "', which is " + shown(c.second.toString()) + ", not an integer");
        ok = true;
      }
    if (!ok && deviceSymbols && (n == "num_sms" || n == "occupancy"))
      ok = true; // the device's symbols, evaluated at launch (docs/ir.md)
    if (!ok)
      r.fail(label + " " + grid::detail::quoteExpr(text) + " uses unknown name '" + shown(n) + "'");
  }
}

// "params": name, type and the variant's assumptions of each runtime parameter, in order.
void parseParams(const Reader& r, const json::Value& root, KernelMetadata* m) {
  const json::Value* params = r.get(root, "params", json::Value::Kind::Array, true);
  for (size_t i = 0; i < params->items().size(); ++i) {
    const json::Value& p = params->items()[i];
    std::string where = " of parameter " + std::to_string(i);
    if (!p.isObject())
      r.fail("parameter " + std::to_string(i) + " is not an object");
    ParamInfo info;
    info.name = r.str(p, "name", true, where);
    if (!isIdentifier(info.name))
      r.fail("parameter " + std::to_string(i) + " has no valid name");
    for (const ParamInfo& q : m->params)
      if (q.name == info.name)
        r.fail("parameter '" + shown(info.name) + "' appears twice");
    std::string type = r.str(p, "type", true, where);
    if (!parseParamType(type, &info))
      r.fail("parameter '" + shown(info.name) + "' has unknown type '" + shown(type) + "'");
    info.divisibility = r.integer(p, "divisibility", false, 1, where);
    if (info.divisibility < 1 || (info.divisibility & (info.divisibility - 1)) != 0)
      r.fail("parameter '" + shown(info.name) + "': divisibility " + std::to_string(info.divisibility) +
             " is not a power of two");
    if (info.divisibility > 1 && !info.isPointer && info.elementKind != ScalarKind::Int)
      r.fail("parameter '" + shown(info.name) + "' of type " + type +
             " cannot carry a divisibility assumption");
    if (const json::Value* eq = p.find("equal_to")) {
      if (!eq->isInt() || eq->asInt() != 1)
        r.fail("parameter '" + shown(info.name) + "': \"equal_to\" must be 1 (the only value supported)");
      if (info.isPointer || info.elementKind != ScalarKind::Int)
        r.fail("parameter '" + shown(info.name) + "' of type " + type +
               " cannot carry an equal-to-1 assumption (integers only)");
      if (info.divisibility > 1)
        r.fail("parameter '" + shown(info.name) + "' cannot be both equal to 1 and divisible by " +
               std::to_string(info.divisibility));
      info.equalToOne = true;
    }
    m->params.push_back(std::move(info));
  }
}

// "constexprs" (optional): the values the variant was compiled with, in declaration order.
void parseConstexprs(const Reader& r, const json::Value& root, KernelMetadata* m) {
  if (const json::Value* c = r.get(root, "constexprs", json::Value::Kind::Object, false)) {
    for (const auto& kv : c->members()) {
      const json::Value& v = kv.second;
      if (!isIdentifier(kv.first))
        r.fail("constexpr \"" + shown(kv.first) + "\" is not an identifier");
      for (const auto& prev : m->constexprs)
        if (prev.first == kv.first)
          r.fail("constexpr '" + shown(kv.first) + "' appears twice");
      if (v.isInt())
        m->constexprs.emplace_back(kv.first, ConstexprValue(v.asInt()));
      else if (v.isBool())
        m->constexprs.emplace_back(kv.first, ConstexprValue(v.asBool()));
      else if (v.isNumber())
        m->constexprs.emplace_back(kv.first, ConstexprValue(v.asDouble()));
      else if (v.isString())
        m->constexprs.emplace_back(kv.first, ConstexprValue(v.asString()));
      else
        r.fail("constexpr '" + shown(kv.first) + "' is " + json::Value::kindName(v.kind()) +
               " (an integer, a boolean, a number or a string expected)");
    }
  }
}

// "tensormaps" (version 2, docs/artifacts.md): the TMA tensor maps the kernel takes after its
// parameters, each checked against what cuTensorMapEncodeTiled accepts of what is known
// before a launch (the arguments' values are checked at launch).
std::vector<TensorMapInfo> parseTensorMaps(const Reader& r, const json::Value& list,
                                           const KernelMetadata& m) {
  std::vector<TensorMapInfo> maps;
  for (size_t i = 0; i < list.items().size(); ++i) {
    const json::Value& t = list.items()[i];
    const std::string at = "\"tensormaps\"[" + std::to_string(i) + "]";
    const std::string where = " in " + at;
    if (!t.isObject())
      r.fail(at + " is " + json::Value::kindName(t.kind()) + ", not an object");
    TensorMapInfo info;
    info.param = r.str(t, "param", true, where);
    size_t p = m.params.size();
    for (size_t q = 0; q < m.params.size(); ++q)
      if (m.params[q].name == info.param)
        p = q;
    if (p == m.params.size())
      r.fail(at + ".\"param\" names '" + shown(info.param) + "', which is not a parameter");
    if (!m.params[p].isPointer)
      r.fail(at + ".\"param\" names '" + shown(info.param) + "' (" + m.params[p].type +
             "), which is not a pointer parameter");
    info.paramIndex = p;
    info.dtype = r.str(t, "dtype", true, where);
    if (!tensorMapDataType(info.dtype, &info.elementBytes))
      r.fail(at + ".\"dtype\" \"" + shown(info.dtype) +
             "\" is not a tensor map element type (i1, i8, i16, i32, i64, f16, bf16, f32, "
             "f64, f8e4nv, f8e5)");
    if ("*" + info.dtype != m.params[p].type)
      r.fail(at + ".\"dtype\" " + info.dtype + " is not the element type of '" + info.param +
             "' (" + m.params[p].type + ")");
    auto expressions = [&](const char* field, std::vector<std::string>* out) {
      const json::Value* a = r.get(t, field, json::Value::Kind::Array, true, where);
      const std::string f = at + ".\"" + field + "\"";
      for (size_t j = 0; j < a->items().size(); ++j) {
        const json::Value& e = a->items()[j];
        const std::string label = f + "[" + std::to_string(j) + "]";
        if (!e.isString())
          r.fail(label + " is " + json::Value::kindName(e.kind()) +
                 ", not a grid expression (a string)");
        checkExpression(r, m, label, e.asString(), /*deviceSymbols=*/false);
        out->push_back(e.asString());
      }
    };
    expressions("dims", &info.dims);
    const size_t rank = info.dims.size();
    if (rank < 1 || rank > 5)
      r.fail(at + ".\"dims\" has " + std::to_string(rank) +
             " entries; a tensor map has 1 to 5 dimensions");
    expressions("strides_bytes", &info.stridesBytes);
    if (info.stridesBytes.size() != rank - 1)
      r.fail(at + ".\"strides_bytes\" has " + std::to_string(info.stridesBytes.size()) +
             " entries; " + std::to_string(rank) + " dimensions need " +
             std::to_string(rank - 1) + " (the byte strides of dims 1..)");
    const json::Value* box = r.get(t, "box", json::Value::Kind::Array, true, where);
    for (size_t j = 0; j < box->items().size(); ++j) {
      const json::Value& b = box->items()[j];
      const std::string label = at + ".\"box\"[" + std::to_string(j) + "]";
      if (!b.isInt())
        r.fail(label + " is " + (b.isNumber() ? "not an integer" : json::Value::kindName(b.kind())) +
               ", not a box extent");
      if (b.asInt() < 1 || b.asInt() > 256)
        r.fail(label + " " + std::to_string(b.asInt()) + " is outside 1..256");
      info.box.push_back(b.asInt());
    }
    if (info.box.size() != rank)
      r.fail(at + ".\"box\" has " + std::to_string(info.box.size()) + " entries; \"dims\" has " +
             std::to_string(rank));
    const int64_t innerBytes = info.box[0] * info.elementBytes;
    if (innerBytes % 16 != 0)
      r.fail(at + ".\"box\"[0] " + std::to_string(info.box[0]) + " of " + info.dtype + " is " +
             std::to_string(innerBytes) + " bytes, not a multiple of 16 (as TMA requires)");
    int64_t swizzle = r.integer(t, "swizzle", false, 0, where);
    if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
      r.fail(at + ".\"swizzle\" " + std::to_string(swizzle) + " is not 0, 32, 64 or 128");
    if (swizzle != 0 && innerBytes > swizzle)
      r.fail(at + ".\"box\"[0] " + std::to_string(info.box[0]) + " of " + info.dtype + " is " +
             std::to_string(innerBytes) + " bytes, more than the " + std::to_string(swizzle) +
             "-byte swizzle span (TMA's limit on a swizzled box's inner extent)");
    info.swizzle = static_cast<int>(swizzle);
    int64_t l2 = r.integer(t, "l2_promotion", false, 128, where);
    if (l2 != 0 && l2 != 64 && l2 != 128 && l2 != 256)
      r.fail(at + ".\"l2_promotion\" " + std::to_string(l2) + " is not 0, 64, 128 or 256");
    info.l2Promotion = static_cast<int>(l2);
    const json::Value* fill = r.get(t, "oob_fill", json::Value::Kind::String, false, where);
    std::string oob = fill ? fill->asString() : "zero";
    if (oob != "zero" && oob != "nan")
      r.fail(at + ".\"oob_fill\" \"" + shown(oob) + "\" is not \"zero\" or \"nan\"");
    info.oobFillNan = oob == "nan";
    if (info.oobFillNan && info.dtype != "f16" && info.dtype != "bf16" && info.dtype != "f32" &&
        info.dtype != "f64")
      r.fail(at + ".\"oob_fill\" \"nan\" needs a floating-point dtype (f16, bf16, f32, f64), "
                  "not " + info.dtype);
    maps.push_back(std::move(info));
  }
  return maps;
}
} // namespace

KernelMetadata parseMetadata(const std::string& text, const std::string& origin,
                             const std::string& baseDir) {
  json::Value root = json::parse(text, origin);
  Reader r(origin);
  if (!root.isObject())
    r.fail("the top level is not a JSON object");
  std::string format = r.str(root, "format", true);
  if (format != "tcc-kernel")
    r.fail("\"format\" is \"" + shown(format) + "\", not \"tcc-kernel\"");
  // Version 2 adds "tensormaps" (hidden parameters a reader of version 1 would not pass);
  // a file without tensor maps is version 1.
  int64_t version = r.integer(root, "version", true, 0);
  if (version != 1 && version != 2)
    r.fail("version " + std::to_string(version) + " is not supported (this runtime reads 1 and 2)");

  KernelMetadata m;
  m.origin = origin;
  m.name = r.str(root, "name", true);
  if (!isIdentifier(m.name))
    r.fail("\"name\" \"" + shown(m.name) + "\" is not an identifier");
  m.entry = r.str(root, "entry", false);
  if (m.entry.empty())
    m.entry = m.name;
  m.arch = r.str(root, "arch", true);
  if (!parseArch(m.arch, &m.archNumber, &m.archSpecific))
    r.fail("\"arch\" \"" + shown(m.arch) + "\" is not of the form sm_NN");
  // "cubin" may be absent when "ptx" is there: a PTX-only artifact (the driver JIT-compiles
  // it), as `tcc --emit=ptx` writes without ptxas.
  const json::Value* cubin = r.get(root, "cubin", json::Value::Kind::String, false);
  const json::Value* ptx = r.get(root, "ptx", json::Value::Kind::String, false);
  if (!cubin && !ptx)
    r.fail("missing \"cubin\" (or \"ptx\", for a PTX-only artifact)");
  if (cubin && cubin->asString().empty())
    r.fail("\"cubin\" is empty");
  if (ptx && ptx->asString().empty())
    r.fail("\"ptx\" is empty");
  if (cubin)
    m.cubinPath = joinPath(baseDir, cubin->asString());
  if (ptx)
    m.ptxPath = joinPath(baseDir, ptx->asString());
  int64_t nw = r.integer(root, "num_warps", true, 4);
  if (nw < 1 || nw > 32)
    r.fail("\"num_warps\" " + std::to_string(nw) + " is outside 1..32");
  m.numWarps = static_cast<int>(nw);
  int64_t pw = r.integer(root, "producer_warps", false, 0);
  if (pw != 0 && pw != 4)
    r.fail("\"producer_warps\" " + std::to_string(pw) + " is neither 0 nor 4 (one warpgroup)");
  if (nw + pw > 32)
    r.fail("\"num_warps\" + \"producer_warps\" is " + std::to_string(nw + pw) +
           ", more than a block's 32 warps");
  m.producerWarps = static_cast<int>(pw);
  int64_t tpb = r.integer(root, "threads_per_block", false, 32 * (nw + pw));
  if (tpb != 32 * (nw + pw))
    r.fail("\"threads_per_block\" " + std::to_string(tpb) +
           (pw ? " is not 32 * (num_warps + producer_warps)" : " is not 32 * num_warps"));
  int64_t ns = r.integer(root, "num_stages", false, 0);
  if (ns < 0 || ns > 64)
    r.fail("\"num_stages\" " + std::to_string(ns) + " is outside 0..64");
  m.numStages = static_cast<int>(ns);
  m.sharedBytes = r.integer(root, "shared_bytes", false, 0);
  if (m.sharedBytes < 0 || m.sharedBytes > (int64_t(1) << 30))
    r.fail("\"shared_bytes\" " + std::to_string(m.sharedBytes) + " is out of range");

  parseParams(r, root, &m);
  parseConstexprs(r, root, &m);

  const json::Value* grid = r.get(root, "grid", json::Value::Kind::Array, true);
  if (grid->items().size() != 3)
    r.fail("\"grid\" must have exactly three expressions");
  for (int d = 0; d < 3; ++d) {
    const json::Value& g = grid->items()[d];
    if (!g.isString())
      r.fail("grid[" + std::to_string(d) + "] is not a string");
    m.grid[d] = g.asString();
    checkExpression(r, m, "grid[" + std::to_string(d) + "]", m.grid[d]);
  }
  // "cost" (optional, docs/artifacts.md): bytes moved and FLOPs per launch, in the grid
  // grammar over the same names; either may be absent (not expressible).
  if (const json::Value* cost = r.get(root, "cost", json::Value::Kind::Object, false)) {
    CostInfo c;
    c.bytes = r.str(*cost, "bytes", false, " in \"cost\"");
    c.flops = r.str(*cost, "flops", false, " in \"cost\"");
    if (!c.bytes.empty())
      checkExpression(r, m, "cost.bytes", c.bytes);
    if (!c.flops.empty())
      checkExpression(r, m, "cost.flops", c.flops);
    m.cost = std::move(c);
  }
  if (const json::Value* at = r.get(root, "autotune", json::Value::Kind::Object, false))
    m.autotune = parseAutotune(r, *at, m.params);
  if (const json::Value* cb = r.get(root, "check_bounds", json::Value::Kind::Object, false))
    m.checkBounds = parseBoundsCheck(r, *cb, m.params);
  if (const json::Value* tm = r.get(root, "tensormaps", json::Value::Kind::Array, false)) {
    if (version < 2)
      r.fail("\"tensormaps\" needs \"version\": 2 (a reader of version 1 would launch without "
             "the tensor maps)");
    m.tensorMaps = parseTensorMaps(r, *tm, m);
  }
  m.source = r.str(root, "source", false);
  m.compiler = r.str(root, "compiler", false);
  return m;
}

KernelMetadata parseTensorMapSpec(const std::string& text, const std::string& origin) {
  json::Value root = json::parse(text, origin);
  Reader r(origin);
  if (!root.isObject())
    r.fail("the top level is not a JSON object");
  KernelMetadata m;
  m.origin = origin;
  parseParams(r, root, &m);
  parseConstexprs(r, root, &m);
  m.tensorMaps =
      parseTensorMaps(r, *r.get(root, "tensormaps", json::Value::Kind::Array, true), m);
  return m;
}

bool tensorMapDataType(const std::string& dtype, int* elementBytes, int* dataType) {
  // Integers and fp8 move as unsigned bits of their size (TMA copies, it does not convert;
  // the signedness matters to nothing but an out-of-bounds fill, which is zero for both).
  static const struct {
    const char* name;
    int bytes;
    int type;
  } kTypes[] = {{"i1", 1, CU_TENSOR_MAP_DATA_TYPE_UINT8},      {"i8", 1, CU_TENSOR_MAP_DATA_TYPE_UINT8},
                {"f8e4nv", 1, CU_TENSOR_MAP_DATA_TYPE_UINT8},  {"f8e5", 1, CU_TENSOR_MAP_DATA_TYPE_UINT8},
                {"i16", 2, CU_TENSOR_MAP_DATA_TYPE_UINT16},    {"i32", 4, CU_TENSOR_MAP_DATA_TYPE_INT32},
                {"i64", 8, CU_TENSOR_MAP_DATA_TYPE_INT64},     {"f16", 2, CU_TENSOR_MAP_DATA_TYPE_FLOAT16},
                {"bf16", 2, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16}, {"f32", 4, CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
                {"f64", 8, CU_TENSOR_MAP_DATA_TYPE_FLOAT64}};
  for (const auto& t : kTypes)
    if (dtype == t.name) {
      if (elementBytes)
        *elementBytes = t.bytes;
      if (dataType)
        *dataType = t.type;
      return true;
    }
  return false;
}

std::string readFile(const std::string& path, const std::string& what, size_t limit) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw Error("reading " + what + " '" + path + "'", std::strerror(errno));
  // In chunks, up to `limit`: /dev/zero or a pipe is an error, not an endless read, and a
  // failed allocation is a tcc::Error like every other failure.
  std::string bytes;
  try {
    char chunk[1 << 16];
    while (f.read(chunk, sizeof chunk) || f.gcount() > 0) {
      bytes.append(chunk, static_cast<size_t>(f.gcount()));
      if (bytes.size() > limit)
        throw Error("reading " + what + " '" + path + "'",
                    "larger than " + std::to_string(limit >> 20) + " MiB, more than any " + what +
                        " tcc writes");
    }
  } catch (const std::bad_alloc&) {
    throw Error("reading " + what + " '" + path + "'", "out of memory");
  }
  if (f.bad())
    throw Error("reading " + what + " '" + path + "'", "read error");
  return bytes;
}

KernelMetadata loadMetadataFile(const std::string& path) {
  std::string text = readFile(path, "kernel metadata", kMaxMetadataBytes);
  size_t slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash);
  return parseMetadata(text, path, dir);
}

bool isKernelMetadataFile(const std::string& path) {
  try {
    std::string text = readFile(path, "JSON", kMaxMetadataBytes);
    json::Value v = json::parse(text, path);
    const json::Value* f = v.isObject() ? v.find("format") : nullptr;
    return f && f->isString() && f->asString() == "tcc-kernel";
  } catch (const Error&) {
    return false;
  }
}

} // namespace tcc
