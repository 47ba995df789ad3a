// The examples' test harness: compile a lang-example through the Driver, bind buffers and
// scalars by parameter name, run it in the interpreter over the grid its own grid=
// expression gives, and compare against a reference with a stated tolerance.
#pragma once

#include "compiler/Interpreter/Interpreter.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tcc::examples {

using interp::Buffer;
using interp::DType;

/// A compiled lang-example kernel (`lang-examples/<file>`, with -D `defines`).
class Example {
public:
  /// `config`: for a kernel with @autotune, that configuration (its declared index);
  /// negative: the first one kept. `kernelName`: which kernel of a file with several.
  Example(const std::string &file, std::vector<std::string> defines = {}, int config = -1,
          const std::string &kernelName = "");
  ~Example();
  bool ok() const { return kernel != nullptr; }
  const std::string &error() const { return err; }
  interp::Kernel &get() { return *kernel; }

private:
  struct State;
  std::unique_ptr<State> state;
  std::unique_ptr<interp::Kernel> kernel;
  std::string err;
};

/// A 2-D view into a flat buffer: element (i, j) lives at i * rowStride + j * colStride.
struct View {
  int64_t rows = 1, cols = 1, rowStride = 1, colStride = 1, size = 1;
  int64_t at(int64_t i, int64_t j) const { return i * rowStride + j * colStride; }
};
/// Contiguous rows; Padded: rows further apart than their length (a view of a wider
/// matrix); Transposed: column-major (a transposed matrix read in place).
enum class Layout { Contiguous, Padded, Transposed };
View makeView(int64_t rows, int64_t cols, Layout layout);
const char *layoutName(Layout layout);

/// One launch: arguments by name, then run over the kernel's own grid.
class Launch {
public:
  explicit Launch(interp::Kernel &kernel) : kernel(kernel) {}
  /// A buffer of `n` elements, uniform in [-1, 1) rounded to `t`, seeded by `seed`.
  Buffer &random(const std::string &name, DType t, int64_t n, uint64_t seed);
  /// A buffer of `n` never-written elements.
  Buffer &output(const std::string &name, DType t, int64_t n);
  void scalar(const std::string &name, int64_t v) { scalars[name] = interp::ArgValue::ofInt(v); }
  void scalarF(const std::string &name, double v) { scalars[name] = interp::ArgValue::ofFloat(v); }
  Buffer &operator[](const std::string &name);
  /// The interpreter's address of buffer `name` (what ptr_to_int gives, int_to_ptr takes):
  /// for arrays of pointers.
  int64_t address(const std::string &name) { return interp::addressOf(buffers.at(name)); }

  /// Runs with the memory checker on (uninitialised reads are errors).
  interp::RunResult run();

private:
  interp::Kernel &kernel;
  interp::Memory memory;
  std::map<std::string, int64_t> buffers;
  std::map<std::string, interp::ArgValue> scalars;
};

/// Compares `got` at the elements of view `v` with `want(i, j)` within
/// |got - want| <= atol + rtol * |want| (NaNs must match); checks that elements outside
/// the view were never written. Returns an empty string, or the first mismatches.
template <typename Want>
std::string compareView(const Buffer &got, const View &v, Want want, double atol, double rtol);
/// The same with a tolerance per element: `want(i, j)` returns {value, tolerance}.
template <typename WantTol>
std::string compareViewTol(const Buffer &got, const View &v, WantTol want);
std::string checkClose(double got, double want, double tol);

} // namespace tcc::examples

#include "example_harness_impl.h"
