// The part of tcc/json.h that neither parses nor throws: building values and writing them
// (json.cpp has the parser, which throws tcc::Error).
#include "tcc/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tcc {
namespace json {

const char* Value::kindName(Kind k) {
  switch (k) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Number:
    return "a number";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "?";
}

const Value* Value::find(const std::string& key) const {
  for (const auto& m : members_)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

Value& Value::push(Value v) {
  items_.push_back(std::move(v));
  return items_.back();
}

Value& Value::set(const std::string& key, Value v) {
  for (auto& m : members_)
    if (m.first == key) {
      m.second = std::move(v);
      return m.second;
    }
  members_.emplace_back(key, std::move(v));
  return members_.back().second;
}

namespace {

void quote(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}

// indent > 0: one member or item a line, at `level`.
void emit(std::string& out, const Value& v, int indent, int level) {
  // Before each member or item (after its ',') and before the closing bracket.
  auto newline = [&](int lvl) {
    if (indent > 0) {
      out += '\n';
      out.append(static_cast<size_t>(indent * lvl), ' ');
    }
  };
  switch (v.kind()) {
  case Value::Kind::Null:
    out += "null";
    return;
  case Value::Kind::Bool:
    out += v.asBool() ? "true" : "false";
    return;
  case Value::Kind::Number: {
    if (v.isInt()) {
      out += std::to_string(v.asInt());
    } else if (!std::isfinite(v.asDouble())) {
      out += "null"; // JSON has no NaN or infinity
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", v.asDouble());
      // Shortest form that reads back the same double.
      for (int prec = 6; prec < 17; ++prec) {
        char t[32];
        std::snprintf(t, sizeof t, "%.*g", prec, v.asDouble());
        if (std::strtod(t, nullptr) == v.asDouble()) {
          std::snprintf(buf, sizeof buf, "%s", t);
          break;
        }
      }
      out += buf;
      // A double whose value is whole keeps a fraction: "-0" or "3" would read back as the
      // integer 0 or 3 (a float constexpr would become an integer one).
      if (std::strpbrk(buf, ".eE") == nullptr)
        out += ".0";
    }
    return;
  }
  case Value::Kind::String:
    quote(out, v.asString());
    return;
  case Value::Kind::Array: {
    if (v.items().empty()) {
      out += "[]";
      return;
    }
    out += '[';
    bool first = true;
    for (const Value& x : v.items()) {
      if (!first)
        out += ',';
      first = false;
      newline(level + 1);
      emit(out, x, indent, level + 1);
    }
    newline(level);
    out += ']';
    return;
  }
  case Value::Kind::Object: {
    if (v.members().empty()) {
      out += "{}";
      return;
    }
    out += '{';
    bool first = true;
    for (const auto& m : v.members()) {
      if (!first)
        out += ',';
      first = false;
      newline(level + 1);
      quote(out, m.first);
      out += indent > 0 ? ": " : ":";
      emit(out, m.second, indent, level + 1);
    }
    newline(level);
    out += '}';
    return;
  }
  }
}

} // namespace

std::string write(const Value& v, int indent) {
  std::string out;
  emit(out, v, indent, 0);
  if (indent > 0)
    out += '\n';
  return out;
}

} // namespace json
} // namespace tcc
