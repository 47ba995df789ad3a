//===- ArgSpec.cpp - kernel arguments from the command line ---------------===//

#include "compiler/Interpreter/ArgSpec.h"
#include "compiler/Interpreter/Npy.h"

#include <cmath>
#include <cstdlib>

namespace tcc::interp {

uint64_t Rng::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double Rng::uniform() { return double(next() >> 11) * 0x1.0p-53; }

double Rng::normal() {
  double u1 = uniform(), u2 = uniform();
  if (u1 < 1e-300)
    u1 = 1e-300;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

bool parseShape(const std::string &text, std::vector<int64_t> *shape) {
  shape->clear();
  size_t i = 0;
  while (i < text.size()) {
    size_t j = text.find_first_of("x,", i);
    std::string part = text.substr(i, j == std::string::npos ? std::string::npos : j - i);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos ||
        part.size() > 12)
      return false;
    shape->push_back(std::strtoll(part.c_str(), nullptr, 10)); // <= 12 digits: no overflow
    if (j == std::string::npos)
      break;
    i = j + 1;
    if (i == text.size())
      return false;
  }
  return !shape->empty();
}

static bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool parseArgSpec(const std::string &text, ArgSpec *out, std::string *error) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    *error = "'" + text + "': expected NAME=VALUE (e.g. x=rand:1000, n=1000)";
    return false;
  }
  ArgSpec s;
  s.name = text.substr(0, eq);
  std::string v = text.substr(eq + 1);
  auto badShape = [&](const std::string &shape) {
    *error = "'" + text + "': bad shape '" + shape + "' (expected N or AxB...)";
    return false;
  };
  size_t colon = v.find(':');
  std::string head = v.substr(0, colon);
  std::string rest = colon == std::string::npos ? "" : v.substr(colon + 1);
  if (head == "npy" && colon != std::string::npos) {
    s.kind = ArgSpec::Kind::File;
    s.text = rest;
  } else if (endsWith(v, ".npy")) {
    s.kind = ArgSpec::Kind::File;
    s.text = v;
  } else if (colon == std::string::npos) {
    s.kind = ArgSpec::Kind::Scalar;
    s.text = v;
    if (v.empty()) {
      *error = "'" + text + "': empty value";
      return false;
    }
  } else if (head == "rand" || head == "randn" || head == "arange" || head == "empty" ||
             head == "zeros" || head == "ones") {
    if (!parseShape(rest, &s.shape))
      return badShape(rest);
    s.kind = head == "rand"     ? ArgSpec::Kind::Rand
             : head == "randn"  ? ArgSpec::Kind::Randn
             : head == "arange" ? ArgSpec::Kind::Arange
             : head == "empty"  ? ArgSpec::Kind::Empty
                                : ArgSpec::Kind::Const;
    s.value = head == "ones" ? 1.0 : 0.0;
  } else if (head == "const" || head == "full") {
    size_t c2 = rest.rfind(':');
    if (c2 == std::string::npos) {
      *error = "'" + text + "': expected " + head + ":VALUE:SHAPE";
      return false;
    }
    std::string value = rest.substr(0, c2);
    char *end = nullptr;
    s.value = std::strtod(value.c_str(), &end);
    if (value.empty() || *end) {
      *error = "'" + text + "': bad value '" + value + "'";
      return false;
    }
    if (!parseShape(rest.substr(c2 + 1), &s.shape))
      return badShape(rest.substr(c2 + 1));
    s.kind = ArgSpec::Kind::Const;
  } else {
    *error = "'" + text + "': unknown kind '" + head +
             "' (rand, randn, const, zeros, ones, arange, empty, or a .npy file)";
    return false;
  }
  *out = std::move(s);
  return true;
}

Buffer convertBuffer(const Buffer &b, DType dtype) {
  Buffer r = makeBuffer(b.name, dtype, b.shape, true);
  for (int64_t i = 0; i < b.numel(); ++i) {
    const void *src = b.bytes.data() + size_t(i) * b.elementSize();
    void *dst = r.bytes.data() + size_t(i) * r.elementSize();
    if (isFloat(b.dtype))
      elementFromDouble(dtype, elementAsDouble(b.dtype, src), dst);
    else
      elementFromInt(dtype, elementAsInt(b.dtype, src), dst);
  }
  r.init = b.init;
  return r;
}

/// A seed for the buffer of parameter `name`: the global seed mixed with the name.
static uint64_t streamSeed(uint64_t seed, const std::string &name) {
  uint64_t h = 1469598103934665603ull;
  for (char c : name)
    h = (h ^ uint8_t(c)) * 1099511628211ull;
  return seed * 0x9e3779b97f4a7c15ull ^ h;
}

bool materializeArg(const ArgSpec &spec, const Param &param, uint64_t seed, Memory &memory,
                    ArgValue *out, std::string *error) {
  auto fail = [&](const std::string &msg) {
    *error = "argument '" + spec.name + "': " + msg;
    return false;
  };
  if (param.type != DType::Ptr) {
    if (spec.isBuffer())
      return fail(std::string("the kernel expects a scalar ") + dtypeName(param.type));
    const std::string &t = spec.text;
    if (t == "true" || t == "false") {
      *out = ArgValue::ofInt(t == "true");
      return true;
    }
    char *end = nullptr;
    if (isInt(param.type)) {
      long long v = std::strtoll(t.c_str(), &end, 0);
      if (*end)
        return fail("'" + t + "' is not an integer (the kernel expects " + dtypeName(param.type) +
                    ")");
      *out = ArgValue::ofInt(v);
      return true;
    }
    double v = std::strtod(t.c_str(), &end);
    if (*end)
      return fail("'" + t + "' is not a number");
    *out = ArgValue::ofFloat(v);
    return true;
  }
  if (!spec.isBuffer())
    return fail(std::string("the kernel expects a buffer (*") + dtypeName(param.pointee) +
                "), e.g. " + spec.name + "=rand:1000");
  DType t = param.pointee;
  Buffer b;
  if (spec.kind == ArgSpec::Kind::File) {
    if (!readNpy(spec.text, spec.name, &b, error))
      return fail(*error);
    if (b.dtype != t)
      b = convertBuffer(b, t);
  } else {
    if (!checkShape(spec.shape, dtypeSize(t), nullptr, error))
      return fail(*error);
    b = makeBuffer(spec.name, t, spec.shape, spec.kind != ArgSpec::Kind::Empty);
    Rng rng(streamSeed(seed, spec.name));
    for (int64_t i = 0; i < b.numel() && spec.kind != ArgSpec::Kind::Empty; ++i) {
      double v = 0;
      switch (spec.kind) {
      case ArgSpec::Kind::Rand:
        if (t == DType::I1)
          v = double(rng.next() & 1);
        else if (isInt(t))
          v = double(int64_t(rng.next() % 17) - 8);
        else
          v = rng.uniform() * 2 - 1;
        break;
      case ArgSpec::Kind::Randn:
        v = rng.normal();
        break;
      case ArgSpec::Kind::Const:
        v = spec.value;
        break;
      case ArgSpec::Kind::Arange:
        v = double(i);
        break;
      default:
        break;
      }
      b.set(i, v);
    }
  }
  *out = ArgValue::ofBuffer(memory.add(std::move(b)));
  return true;
}

} // namespace tcc::interp
