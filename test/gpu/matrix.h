// Strided matrices in device memory, mirrored on the host, for the GPU tests of the 2-D
// kernels: element (i, j) lives at lead + i * rowStride + j * colStride (in elements) of
// one allocation, and every other element of the allocation (the guard before, the guard
// after, the gaps between rows of a strided view) holds a poison NaN. Inputs and outputs
// use different poisons, so an output element that a kernel filled from outside an input
// view is told apart from one it never wrote.
#pragma once

#include "tcc/tcc.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gputest {

enum class DType { F32, F16, BF16 };

// "*f32" / "f32" -> F32, and f16, bf16; throws std::invalid_argument for anything else.
DType dtypeOf(const std::string& paramType);
size_t bytesOf(DType t);
const char* nameOf(DType t);

// Round to nearest even, as cvt.rn does; NaN stays NaN, overflow gives infinity.
uint16_t floatToHalf(float f);
uint16_t floatToBf16(float f);
float halfToFloat(uint16_t h);
float bf16ToFloat(uint16_t b);

struct Layout {
  int64_t rows = 0, cols = 0;
  int64_t rowStride = 0, colStride = 1;
  int64_t lead = 64;    // elements before element (0, 0): 256 bytes for f32, alignment kept
  int64_t guard = 1024; // elements after the last element of the view

  // Row-major with `pad` extra elements per row (row stride cols + pad).
  static Layout rowMajor(int64_t rows, int64_t cols, int64_t pad = 0, int64_t lead = 64);
  // Column-major (a transposed view): column stride rows + pad, row stride 1.
  static Layout colMajor(int64_t rows, int64_t cols, int64_t pad = 0, int64_t lead = 64);
  // Every element `cs` apart along a row, rows `cs * cols` apart (a view of every cs-th
  // column of a wider matrix).
  static Layout spread(int64_t rows, int64_t cols, int64_t cs, int64_t lead = 64);
  // A vector of n elements (1 x n).
  static Layout vector(int64_t n, int64_t lead = 64) { return rowMajor(1, n, 0, lead); }

  int64_t offset(int64_t i, int64_t j) const { return lead + i * rowStride + j * colStride; }
  // Elements in the allocation.
  int64_t total() const;
  std::string describe() const; // "2049x4097 rs=4110 cs=1 lead=64"
};

class Matrix {
public:
  enum class Role { Input, Output };
  Matrix(DType type, Layout layout, Role role);

  DType type() const { return type_; }
  const Layout& layout() const { return layout_; }
  // The device address of element (0, 0): what the kernel gets.
  CUdeviceptr ptr() const;

  // Inputs: random values in +-[lo, hi] (both signs, never zero), rounded to the element
  // type, in the view; poison elsewhere. Deterministic in `seed`.
  void randomize(uint64_t seed, double lo, double hi);
  void upload();
  // Outputs: poison everywhere, on the host and on the device.
  void poison();
  void download();

  // The value of element (i, j) on the host, exactly.
  double at(int64_t i, int64_t j) const { return valueAt(layout_.offset(i, j)); }
  double valueAt(int64_t pos) const;
  uint32_t bitsAt(int64_t pos) const;
  bool isPoison(int64_t pos) const { return bitsAt(pos) == poisonBits(); }
  uint32_t poisonBits() const;

  // Elements outside the view (guards, gaps) that no longer hold the poison, and the first.
  int64_t countWrittenOutside(int64_t* first = nullptr) const;

private:
  void set(int64_t pos, double v);
  DType type_;
  Layout layout_;
  Role role_;
  std::vector<uint8_t> host_;
  tcc::bench::DeviceBuffer dev_;
};

// Runs fn(begin, end) over [0, n) split across the host's cores.
void parallelFor(int64_t n, const std::function<void(int64_t, int64_t)>& fn);

} // namespace gputest

namespace gputest {

// What one output element should be: `value`, within `bound` (0: exactly).
struct Expected {
  double value = 0;
  double bound = 0;
};

struct CheckResult {
  int64_t checked = 0; // elements of the view compared
  int64_t bad = 0;     // of them, outside their bound (or not equal, for exact ones)
  int64_t badI = -1, badJ = -1;
  double badGot = 0, badWant = 0, badBound = 0;
  double worst = 0;    // the largest |got - want| / bound over elements with a bound
  int64_t outside = 0; // elements outside the view written (guards, gaps between rows)
  int64_t firstOutside = -1;
  bool ok() const { return bad == 0 && outside == 0; }
  std::string describe() const;
};

// Compares every element of the output's view (after download()) with expected(i, j),
// and checks that nothing outside the view was written.
CheckResult checkOutput(const Matrix& out,
                        const std::function<Expected(int64_t, int64_t)>& expected);

} // namespace gputest
