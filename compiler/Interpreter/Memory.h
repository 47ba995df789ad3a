//===- Memory.h - host buffers the interpreted kernel reads and writes -*- C++ -*-===//
//
// Global memory for the interpreter: a list of named buffers, each a typed flat array with
// a logical shape (for printing and .npy files) and one "initialised" flag per element.
// Pointers into them are (buffer index, byte offset) pairs, so every access can be
// checked against the buffer it belongs to. Plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_MEMORY_H
#define TCC_INTERPRETER_MEMORY_H

#include "compiler/Interpreter/Values.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace tcc::interp {

struct Buffer {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape; // logical shape; the data is row-major
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> init; // 1 where the element has been written (or came from input)

  int64_t numel() const { return int64_t(init.size()); }
  size_t elementSize() const { return dtypeSize(dtype); }
  template <typename T> T *data() { return reinterpret_cast<T *>(bytes.data()); }
  template <typename T> const T *data() const { return reinterpret_cast<const T *>(bytes.data()); }
  /// Element `i` as a double (see elementAsDouble).
  double get(int64_t i) const;
  void set(int64_t i, double v);
};

/// The most one buffer of the interpreter may hold (4 GiB): larger shapes are an error.
constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 32;

/// The number of elements of `shape` if every extent is >= 0 and the buffer fits in
/// kMaxBufferBytes with elements of `elementSize` bytes; otherwise false, with *error saying
/// which limit the shape breaks. Nothing is allocated.
bool checkShape(const std::vector<int64_t> &shape, size_t elementSize, int64_t *count,
                std::string *error);

/// A buffer of `shape` (checked with checkShape first); `initialised` false fills it with a poison pattern (all bytes
/// 0xff: NaN for floats, -1 for integers) and marks every element unwritten.
Buffer makeBuffer(std::string name, DType dtype, std::vector<int64_t> shape, bool initialised);

/// "[2049x4097]" style.
std::string shapeString(const std::vector<int64_t> &shape);

class Memory {
public:
  /// Adds a buffer; returns its index (what pointers into it carry). References to the
  /// buffers already added stay valid.
  int64_t add(Buffer buffer);
  Buffer &operator[](int64_t i) { return buffers[size_t(i)]; }
  const Buffer &operator[](int64_t i) const { return buffers[size_t(i)]; }
  int64_t size() const { return int64_t(buffers.size()); }
  /// Index of the buffer called `name`, or -1.
  int64_t find(const std::string &name) const;

private:
  std::deque<Buffer> buffers;
};

} // namespace tcc::interp

#endif // TCC_INTERPRETER_MEMORY_H
