// The text of a constexpr value as tcc shows it to people: Python's spelling (1024, True, 0.5,
// "relu"), numbers in the shortest form that reads back exactly. Header-only: the compiler's
// header writer (comments, configuration strings) and the runtime's tcc::ConstexprValue write
// the same text, so a configuration string the compiler records matches the runtime's.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tcc {

// The shortest of %.1g..%.17g that reads back exactly; a whole number keeps a fraction ("3.0",
// so that a reader keeps it a float); "nan", "inf", "-inf".
inline std::string shortestDouble(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  for (int p = 1; p < 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) {
      s = buf;
      break;
    }
  }
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s;
}

// text in double quotes, with '"' and '\' escaped (and nothing else).
inline std::string quoted(const std::string& text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      s += '\\';
    s += c;
  }
  return s + "\"";
}

// One value: Kind is an enum with Int, Bool (intValue 0 or 1), Float and String; quote spells
// a string (quoted above, or an escaping the place it is written in needs).
template <typename Kind, typename Quote>
std::string constexprText(Kind kind, int64_t intValue, double floatValue, const std::string& text,
                          Quote quote) {
  switch (kind) {
  case Kind::Int:
    return std::to_string(intValue);
  case Kind::Bool:
    return intValue ? "True" : "False";
  case Kind::Float:
    return shortestDouble(floatValue);
  case Kind::String:
    return quote(text);
  }
  return "?";
}

} // namespace tcc
