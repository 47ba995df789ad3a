// What a name in the metadata, a grid expression, an argument spec or a generated header
// may be: a C identifier ([A-Za-z_][A-Za-z0-9_]*). Header-only: the compiler's artifact and
// header writers and the runtime's parsers use it.
#pragma once

#include <string>

namespace tcc {

inline bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

inline bool isIdentifierChar(char c) { return isIdentifierStart(c) || (c >= '0' && c <= '9'); }

inline bool isIdentifier(const std::string& s) {
  if (s.empty() || !isIdentifierStart(s[0]))
    return false;
  for (char c : s)
    if (!isIdentifierChar(c))
      return false;
  return true;
}

} // namespace tcc
