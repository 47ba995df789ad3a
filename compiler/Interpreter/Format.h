//===- Format.h - printing elements and tiles -------------------*- C++ -*-===//
//
// One format for tile.print and for the command line's output: NumPy-like nested
// brackets on one line, floats in the shortest form that reads back to the same value
// of their own type, long dimensions elided in the middle.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_FORMAT_H
#define TCC_INTERPRETER_FORMAT_H

#include "compiler/Interpreter/Values.h"

#include <functional>
#include <string>
#include <vector>

namespace tcc::interp {

/// One element of type `dtype` at `p`; a pointer goes through `pointer` when given.
std::string formatElement(DType dtype, const void *p,
                          const std::function<std::string(const PtrVal &)> &pointer = {});

/// A scalar (empty shape) or tile. With `limit` > 0 and more elements than that, every
/// dimension longer than 6 shows its first and last 3 entries around "...".
std::string formatTile(DType dtype, const std::vector<int64_t> &shape, const void *data,
                       int64_t limit,
                       const std::function<std::string(const PtrVal &)> &pointer = {});

} // namespace tcc::interp

#endif // TCC_INTERPRETER_FORMAT_H
