//===- Libdevice.h - the libdevice functions tcc calls ----------*- C++ -*-===//
//
// CUDA's libdevice (nvvm/libdevice/libdevice.10.bc) functions that `libdevice.NAME(...)`
// (Triton's tl.extra.cuda.libdevice) reaches: NAME and its number of operands. On f32 the
// symbol is __nv_NAMEf, on f64 __nv_NAME. Shared by the front end (which names exist), the
// interpreter (which computes them with the C library) and the lowering (a call per
// element, linked from the bitcode).
//
//===----------------------------------------------------------------------===//
#ifndef TCC_DIALECTS_TILE_LIBDEVICE_H
#define TCC_DIALECTS_TILE_LIBDEVICE_H

#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>

namespace tcc::libdevice {

struct Function {
  const char *name;
  unsigned arity;
};

inline constexpr Function kFunctions[] = {
    {"acos", 1},     {"acosh", 1},    {"asin", 1},  {"asinh", 1},    {"atan", 1},
    {"atanh", 1},    {"cbrt", 1},     {"ceil", 1},  {"cos", 1},      {"cosh", 1},
    {"erf", 1},      {"erfc", 1},     {"exp", 1},   {"exp10", 1},    {"exp2", 1},
    {"expm1", 1},    {"fabs", 1},     {"floor", 1}, {"lgamma", 1},   {"log", 1},
    {"log10", 1},    {"log1p", 1},    {"log2", 1},  {"logb", 1},     {"nearbyint", 1},
    {"rint", 1},     {"round", 1},    {"rsqrt", 1}, {"sin", 1},      {"sinh", 1},
    {"sqrt", 1},     {"tan", 1},      {"tanh", 1},  {"tgamma", 1},   {"trunc", 1},
    {"atan2", 2},    {"copysign", 2}, {"fdim", 2},  {"fmax", 2},     {"fmin", 2},
    {"fmod", 2},     {"hypot", 2},    {"nextafter", 2}, {"pow", 2},  {"remainder", 2},
    {"fma", 3},
};

/// The function named `name`, or null.
inline const Function *lookup(const std::string &name) {
  for (const Function &f : kFunctions)
    if (name == f.name)
      return &f;
  return nullptr;
}

/// The symbol of `name` on f32 (`single`) or f64 operands.
inline std::string symbol(const std::string &name, bool single) {
  return "__nv_" + name + (single ? "f" : "");
}

/// The libdevice function name of `symbol` (`__nv_asinf` -> asin), or empty if it is none.
inline std::string nameOf(const std::string &symbol, bool single) {
  if (symbol.rfind("__nv_", 0) != 0)
    return {};
  std::string name = symbol.substr(5);
  if (single) {
    if (name.empty() || name.back() != 'f')
      return {};
    name.pop_back();
  }
  return lookup(name) ? name : std::string();
}

/// Where libdevice.10.bc is: $TCC_LIBDEVICE (the file; only there when set), else
/// $CUDA_HOME/nvvm/libdevice/libdevice.10.bc, $CUDA_PATH/..., /usr/local/cuda/...; empty if
/// none exists, with `searched` listing the places tried (for the error).
inline std::string findBitcode(std::string *searched) {
  auto isFile = [](const std::string &p) {
    struct stat st;
    return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  };
  std::string tried;
  auto attempt = [&](const std::string &p) {
    tried += (tried.empty() ? "" : ", ") + p;
    return isFile(p);
  };
  // An explicit choice is the only place looked at.
  if (const char *file = std::getenv("TCC_LIBDEVICE"); file && *file) {
    if (attempt(file))
      return file;
    if (searched)
      *searched = tried;
    return {};
  }
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *dir = std::getenv(var); dir && *dir) {
      std::string p = std::string(dir) + "/nvvm/libdevice/libdevice.10.bc";
      if (attempt(p))
        return p;
    }
  std::string p = "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";
  if (attempt(p))
    return p;
  if (searched)
    *searched = tried;
  return {};
}

} // namespace tcc::libdevice

#endif // TCC_DIALECTS_TILE_LIBDEVICE_H
