//===- ArgSpec.h - kernel arguments from the command line -------*- C++ -*-===//
//
// `NAME=SPEC` binds a kernel parameter:
//
//   n=1000  eps=1e-5  flag=true   a scalar
//   x=rand:1000x64                uniform in [-1, 1) (integers: in [-8, 8]; i1: 0/1), seeded
//   x=randn:1000                  standard normal, seeded
//   x=const:1.5:1000              every element 1.5 (also full:V:SHAPE)
//   x=zeros:SHAPE  x=ones:SHAPE   constants
//   x=arange:SHAPE                0, 1, 2, ... in row-major order
//   out=empty:SHAPE               an output: uninitialised (reads before writes are flagged)
//   x=data.npy  (or npy:PATH)     a .npy file; converted to the parameter's element type
//
// Shapes are `N` or `AxBx...`. The grammar is tcc/arg_spec.h's, shared with the offline
// tuner, whose shapes may also be expressions of the integer arguments (`x=rand:n`,
// `out=zeros:M*N`); the interpreter takes numbers. The element type comes from the kernel's parameter. Each
// buffer's random stream is derived from the seed and the parameter's name, so adding an
// argument does not change the others' data.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_ARGSPEC_H
#define TCC_INTERPRETER_ARGSPEC_H

#include "compiler/Interpreter/Interpreter.h"
#include "tcc/arg_spec.h"

#include <string>
#include <vector>

namespace tcc::interp {

struct ArgSpec {
  enum class Kind { Scalar, Rand, Randn, Const, Arange, Empty, File } kind = Kind::Scalar;
  std::string name;
  std::string text;                // the scalar's text, or the file path
  double value = 0;                 // Const
  std::vector<int64_t> shape;
  bool isBuffer() const { return kind != Kind::Scalar; }
};

/// Parses "NAME=SPEC".
bool parseArgSpec(const std::string &text, ArgSpec *out, std::string *error);
/// Parses "1000" or "64x128".
bool parseShape(const std::string &text, std::vector<int64_t> *shape);

/// Makes the argument for `param` from `spec`: adds a buffer to `memory` or gives a scalar.
bool materializeArg(const ArgSpec &spec, const Param &param, uint64_t seed, Memory &memory,
                    ArgValue *out, std::string *error);

/// Converts `b` to `dtype` (rounding to nearest even), keeping its initialised flags.
Buffer convertBuffer(const Buffer &b, DType dtype);

/// The deterministic generator behind rand/randn (splitmix64), exposed for tests: the
/// one the offline tuner fills its buffers with (tcc/arg_spec.h).
using Rng = tcc::args::Rng;

} // namespace tcc::interp

#endif // TCC_INTERPRETER_ARGSPEC_H
