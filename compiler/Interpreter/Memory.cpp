//===- Memory.cpp - host buffers ------------------------------------------===//

#include "compiler/Interpreter/Memory.h"

#include <algorithm>

namespace tcc::interp {

double Buffer::get(int64_t i) const {
  return elementAsDouble(dtype, bytes.data() + size_t(i) * elementSize());
}

void Buffer::set(int64_t i, double v) {
  elementFromDouble(dtype, v, bytes.data() + size_t(i) * elementSize());
  init[size_t(i)] = 1;
}

bool checkShape(const std::vector<int64_t> &shape, size_t elementSize, int64_t *count,
                std::string *error) {
  uint64_t n = 1;
  bool tooLarge = false;
  for (int64_t d : shape) {
    if (d < 0) {
      *error = "shape " + shapeString(shape) + " has a negative extent";
      return false;
    }
    if (d != 0 && n > kMaxBufferBytes / uint64_t(d))
      tooLarge = true; // keep looking for a zero extent, which makes the product 0
    else
      n *= uint64_t(d);
  }
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    n = 0, tooLarge = false;
  if (tooLarge || n * elementSize > kMaxBufferBytes) {
    *error = "shape " + shapeString(shape) + " is too large for the interpreter (at most " +
             std::to_string(kMaxBufferBytes >> 30) + " GiB per buffer)";
    return false;
  }
  if (count)
    *count = int64_t(n);
  return true;
}

Buffer makeBuffer(std::string name, DType dtype, std::vector<int64_t> shape, bool initialised) {
  Buffer b;
  b.name = std::move(name);
  b.dtype = dtype;
  b.shape = std::move(shape);
  // checkShape has bounded the product; a zero extent anywhere makes it 0 however large
  // the extents before it (whose product alone may not fit in 64 bits).
  int64_t n = 1;
  if (std::find(b.shape.begin(), b.shape.end(), 0) != b.shape.end())
    n = 0;
  else
    for (int64_t d : b.shape)
      n *= d;
  b.bytes.assign(size_t(n) * dtypeSize(dtype), initialised ? 0 : 0xff);
  b.init.assign(size_t(n), initialised ? 1 : 0);
  return b;
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s + "]";
}

int64_t Memory::add(Buffer buffer) {
  buffers.push_back(std::move(buffer));
  return int64_t(buffers.size()) - 1;
}

int64_t Memory::find(const std::string &name) const {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].name == name)
      return int64_t(i);
  return -1;
}

} // namespace tcc::interp
