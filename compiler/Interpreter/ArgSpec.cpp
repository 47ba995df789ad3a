//===- ArgSpec.cpp - kernel arguments from the command line ---------------===//

#include "compiler/Interpreter/ArgSpec.h"
#include "compiler/Interpreter/Npy.h"

#include <cmath>
#include <cstdlib>

namespace tcc::interp {

static_assert(int(ArgSpec::Kind::File) == int(args::Kind::File) &&
                  int(ArgSpec::Kind::Empty) == int(args::Kind::Empty),
              "ArgSpec::Kind mirrors tcc::args::Kind");

bool parseShape(const std::string &text, std::vector<int64_t> *shape) {
  args::Spec spec;
  return args::splitShape(text, &spec.dims, nullptr) && args::constantShape(spec, shape, nullptr);
}

bool parseArgSpec(const std::string &text, ArgSpec *out, std::string *error) {
  args::Spec spec;
  if (!args::parseSpec(text, &spec, error))
    return false;
  ArgSpec s;
  s.kind = ArgSpec::Kind(int(spec.kind));
  s.name = spec.name;
  s.text = spec.text;
  s.value = spec.value;
  std::string why;
  if (spec.isBuffer() && spec.kind != args::Kind::File && !args::constantShape(spec, &s.shape, &why)) {
    // The message of a bad shape, as for one that does not parse.
    std::string shape = text.substr(text.rfind(':') + 1);
    std::string name = "argument '" + spec.name + "': ";
    if (why.compare(0, name.size(), name) == 0)
      why = why.substr(name.size());
    *error = "'" + text + "': bad shape '" + shape +
             "' (expected N or AxB...; the interpreter takes numbers: " + why + ")";
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
    args::Spec gen;
    gen.kind = args::Kind(int(spec.kind));
    gen.value = spec.value;
    Rng rng(args::streamSeed(seed, spec.name));
    for (int64_t i = 0; i < b.numel() && spec.kind != ArgSpec::Kind::Empty; ++i) {
      double v = args::generatedValue(gen, isInt(t), t == DType::I1, rng, i);
      b.set(i, v);
    }
  }
  *out = ArgValue::ofBuffer(memory.add(std::move(b)));
  return true;
}

} // namespace tcc::interp
