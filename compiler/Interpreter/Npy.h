//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes the .npy format (versions 1-3) for the interpreter's inputs and
// outputs: little-endian bool, int8/16/32/64, uint8/16/32/64 (read as the signed type of
// the same width), float16/32/64, C or Fortran order (Fortran is reordered on reading).
// NumPy has no bfloat16: bf16 buffers are written as float32.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_NPY_H
#define TCC_INTERPRETER_NPY_H

#include "compiler/Interpreter/Memory.h"

#include <string>

namespace tcc::interp {

/// Parses .npy `bytes` into `out` (named `name`, fully initialised).
/// *fileBytes (when given) receives the size the header says the whole file has, as soon as
/// the header is valid (also when the data is then found truncated).
bool parseNpy(const std::string &bytes, const std::string &name, Buffer *out, std::string *error,
              uint64_t *fileBytes = nullptr);
bool readNpy(const std::string &path, const std::string &name, Buffer *out, std::string *error);

/// The .npy encoding of `buffer` (version 1.0, C order).
std::string encodeNpy(const Buffer &buffer);
bool writeNpy(const std::string &path, const Buffer &buffer, std::string *error);

} // namespace tcc::interp

#endif // TCC_INTERPRETER_NPY_H
