// Kernel arguments written on a command line, `NAME=SPEC`: one grammar for the interpreter
// (`tcc run --interpret --arg`) and the offline tuner (`tcc-tune`, `tcc tune`). Header-only
// and exception-free, so that the compiler (built with -fno-exceptions) and the runtime's
// tools share the very same parser.
//
//   n=1000  eps=1e-5  flag=true   a scalar
//   x=rand:1000x64                uniform in [-1, 1) (integers: in [-8, 8]; i1: 0/1), seeded
//   x=randn:1000                  standard normal, seeded
//   x=const:1.5:1000              every element 1.5 (also full:V:SHAPE)
//   x=zeros:SHAPE  x=ones:SHAPE   constants
//   x=arange:SHAPE                0, 1, 2, ... in row-major order
//   out=empty:SHAPE               an output: uninitialised
//   x=data.npy  (or npy:PATH)     a .npy file (the interpreter only)
//
// A shape is dimensions separated by ',' or by 'x' (`1000x64`, `M,K`); each dimension is an
// expression of the grid-expression language (docs/ir.md: `n`, `M*N`, `cdiv(n, 2)`) over the
// kernel's integer scalar arguments. An 'x' separates dimensions after a number or a ')'
// only (`2xN`, `(M)xK`); after a name it is part of the name (`MxK` is one name: write
// `M,K`). Each buffer's random stream is derived from the seed and the parameter's name.
#pragma once

#include "tcc/grid_expr.h"
#include "tcc/identifier.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace tcc {
namespace args {

enum class Kind { Scalar, Rand, Randn, Const, Arange, Empty, File };

struct Spec {
  Kind kind = Kind::Scalar;
  std::string name;
  std::string text;              // the scalar's text, or the file path
  double value = 0;              // Const (zeros: 0, ones: 1)
  std::vector<std::string> dims; // the shape's dimensions, each a grid expression
  bool isBuffer() const { return kind != Kind::Scalar; }
};

namespace detail {
inline bool isNameStart(char c) { return isIdentifierStart(c); }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
} // namespace detail

// Splits a shape into its dimensions and checks that each parses as a grid expression;
// false with the reason otherwise.
inline bool splitShape(const std::string& text, std::vector<std::string>* dims,
                       std::string* error) {
  dims->clear();
  std::string cur;
  int depth = 0;
  // One pass over the tokens: an 'x' right after a number or a ')' (at the top level)
  // separates; inside a name, digits and 'x' belong to the name.
  enum { Other, Name, Number, Close } last = Other;
  for (char c : text) {
    if (depth == 0 && (c == ',' || (c == 'x' && (last == Number || last == Close)))) {
      dims->push_back(cur);
      cur.clear();
      last = Other;
      continue;
    }
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (detail::isNameStart(c))
      last = last == Number ? Other : Name; // "2y" does not parse anyway
    else if (detail::isDigit(c))
      last = last == Name ? Name : Number;
    else
      last = c == ')' ? Close : Other;
    cur += c;
  }
  dims->push_back(cur);
  for (const std::string& d : *dims) {
    grid::Expr e;
    std::string why;
    if (d.empty() || !grid::parse(d, &e, &why)) {
      if (error)
        *error = d.empty() ? "an empty dimension" : why;
      return false;
    }
  }
  return true;
}

// Parses "NAME=SPEC".
inline bool parseSpec(const std::string& text, Spec* out, std::string* error) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    *error = "'" + text + "': expected NAME=VALUE (e.g. x=rand:1000, n=1000)";
    return false;
  }
  Spec s;
  s.name = text.substr(0, eq);
  std::string v = text.substr(eq + 1);
  auto shape = [&](const std::string& t) {
    std::string why;
    if (splitShape(t, &s.dims, &why))
      return true;
    *error = "'" + text + "': bad shape '" + t + "' (expected N or AxB..., each dimension a "
             "number or an expression of the integer arguments: " + why + ")";
    return false;
  };
  size_t colon = v.find(':');
  std::string head = v.substr(0, colon);
  std::string rest = colon == std::string::npos ? "" : v.substr(colon + 1);
  if (head == "npy" && colon != std::string::npos) {
    s.kind = Kind::File;
    s.text = rest;
  } else if (detail::endsWith(v, ".npy")) {
    s.kind = Kind::File;
    s.text = v;
  } else if (colon == std::string::npos) {
    s.kind = Kind::Scalar;
    s.text = v;
    if (v.empty()) {
      *error = "'" + text + "': empty value";
      return false;
    }
  } else if (head == "rand" || head == "randn" || head == "arange" || head == "empty" ||
             head == "zeros" || head == "ones") {
    if (!shape(rest))
      return false;
    s.kind = head == "rand"     ? Kind::Rand
             : head == "randn"  ? Kind::Randn
             : head == "arange" ? Kind::Arange
             : head == "empty"  ? Kind::Empty
                                : Kind::Const;
    s.value = head == "ones" ? 1.0 : 0.0;
  } else if (head == "const" || head == "full") {
    size_t c2 = rest.rfind(':');
    if (c2 == std::string::npos) {
      *error = "'" + text + "': expected " + head + ":VALUE:SHAPE";
      return false;
    }
    std::string value = rest.substr(0, c2);
    char* end = nullptr;
    s.value = std::strtod(value.c_str(), &end);
    if (value.empty() || *end) {
      *error = "'" + text + "': bad value '" + value + "'";
      return false;
    }
    if (!shape(rest.substr(c2 + 1)))
      return false;
    s.kind = Kind::Const;
  } else {
    *error = "'" + text + "': unknown kind '" + head +
             "' (rand, randn, const, zeros, ones, arange, empty, or a .npy file)";
    return false;
  }
  *out = std::move(s);
  return true;
}

// The shape's values, each dimension evaluated with `valueOf(name) -> std::optional<int64_t>`
// (the integer arguments); false with the reason for an unknown name, a negative
// dimension, or arithmetic that overflows.
template <typename ValueOf>
bool evaluateShape(const Spec& spec, ValueOf&& valueOf, std::vector<int64_t>* shape,
                   std::string* error) {
  shape->clear();
  for (const std::string& d : spec.dims) {
    std::string why;
    int64_t value = 0;
    bool ok = grid::evaluateWithValues(d, valueOf, &value, &why);
    if (ok && value < 0) {
      why = "dimension '" + d + "' is " + std::to_string(value) + ", negative";
      ok = false;
    }
    if (!ok) {
      if (error)
        *error = "argument '" + spec.name + "': " + why;
      return false;
    }
    shape->push_back(value);
  }
  return true;
}

// The shape when every dimension is a number (no argument named); false otherwise.
inline bool constantShape(const Spec& spec, std::vector<int64_t>* shape, std::string* error) {
  return evaluateShape(spec, [](const std::string&) { return std::optional<int64_t>(); }, shape,
                       error);
}

// The deterministic generator behind rand/randn (splitmix64).
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; } // [0, 1)
  double normal() {
    double u1 = uniform(), u2 = uniform();
    if (u1 < 1e-300)
      u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};

// The seed of the buffer of parameter `name`: the global seed mixed with the name, so that
// adding an argument does not change the others' data.
inline uint64_t streamSeed(uint64_t seed, const std::string& name) {
  uint64_t h = 1469598103934665603ull;
  for (char c : name)
    h = (h ^ uint8_t(c)) * 1099511628211ull;
  return seed * 0x9e3779b97f4a7c15ull ^ h;
}

// Element `i` of a generated buffer (Rand, Randn, Const, Arange; 0 for the others), drawn
// from `rng` in element order; `isInt`/`isBool` describe the element type.
inline double generatedValue(const Spec& spec, bool isInt, bool isBool, Rng& rng, int64_t i) {
  switch (spec.kind) {
  case Kind::Rand:
    if (isBool)
      return double(rng.next() & 1);
    if (isInt)
      return double(int64_t(rng.next() % 17) - 8);
    return rng.uniform() * 2 - 1;
  case Kind::Randn:
    return rng.normal();
  case Kind::Const:
    return spec.value;
  case Kind::Arange:
    return double(i);
  default:
    return 0;
  }
}

} // namespace args
} // namespace tcc
