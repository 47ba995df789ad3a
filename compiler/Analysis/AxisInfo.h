//===- AxisInfo.h - contiguity, divisibility and constancy -------*- C++ -*-===//
//
// What the GPU passes need to know about integer and pointer tiles to pick layouts and
// vector widths: per dimension, how long the runs of consecutive values are, how far
// their starts are aligned, and how long the runs of equal values are. Plus, where it
// is cheap, the range of values (which proves masks such as `arange(0, 128) < 128`).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_ANALYSIS_AXISINFO_H
#define TCC_COMPILER_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace tcc {

/// Facts about every element of an integer, boolean or pointer value, one entry per
/// dimension (a scalar counts as a tile of shape [1]). All entries are powers of two.
///
/// Along dimension d, cut the tile into aligned groups of `contiguity[d]` elements (the
/// first group starting at index 0): within a group the value grows by one per step (one
/// element, i.e. `sizeof(pointee)` bytes, for pointers). Cut it into aligned groups of
/// `constancy[d]` elements: within a group all values are equal. `divisibility[d]` divides
/// the value of every element whose index along d is a multiple of `contiguity[d]` (in
/// bytes for pointers); with contiguity 1 that is every element. This is Triton's
/// convention: the start of a contiguous run is what decides the alignment of a vector
/// access, and `arange(0, 128)` has divisibility 2^30 (0 is divisible by anything) though
/// 1 is one of its elements.
struct AxisInfo {
  /// Cap on divisibility: what 0 (or a large power of two) gets.
  static constexpr int64_t kMaxDivisor = int64_t(1) << 30;

  llvm::SmallVector<int64_t, 4> contiguity;
  llvm::SmallVector<int64_t, 4> divisibility;
  llvm::SmallVector<int64_t, 4> constancy;
  /// Inclusive bounds on every element (signed; i1 is 0 or 1), when known: what MLIR's
  /// integer-range analysis found (nothing for the full range of the type).
  std::optional<std::pair<int64_t, int64_t>> range;

  AxisInfo() = default;
  /// Knows nothing: every entry 1.
  static AxisInfo unknown(unsigned rank);
  /// Every element equal to `value` (a splat constant of the given shape).
  static AxisInfo constant(llvm::ArrayRef<int64_t> shape, int64_t value);

  unsigned getRank() const { return contiguity.size(); }
  bool isInitialized() const { return !contiguity.empty(); }
  /// The value every element has, when the range pins it down.
  std::optional<int64_t> getConstantValue() const;

  /// Both facts hold: what a value equal to one of two others still satisfies (an scf.if
  /// result, a loop-carried value). The lattice's join: every entry only shrinks.
  static AxisInfo join(const AxisInfo &a, const AxisInfo &b);

  bool operator==(const AxisInfo &other) const;
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }
  void print(llvm::raw_ostream &os) const;
};

/// Largest power of two dividing `value` (kMaxDivisor for 0), capped at kMaxDivisor.
int64_t highestPowerOf2Divisor(int64_t value);

/// AxisInfo of every integer, boolean and pointer value of every function under `root`,
/// computed once by a sparse forward data-flow analysis on MLIR's framework (one solver
/// per function, with MLIR's dead-code, constant and integer-range analyses; the ranges
/// come from the latter), then kept: later changes to the IR are not seen.
/// Function arguments: `tile.divisibility` (bytes for pointers), `tile.equal_to` (an
/// integer known exactly), or nothing known (pointers: aligned to their pointee's size).
/// Loads, reductions and ops without a transfer function give "nothing known"
/// (element-wise ops keep the constancy their operands share).
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(mlir::Operation *root);

  /// What is known about `value`; `unknown` for values not analysed (floats, ...).
  AxisInfo getAxisInfo(mlir::Value value) const;

  /// Contiguity, in elements, of the pointer tile `ptr` along `dim`.
  int64_t getContiguity(mlir::Value ptr, unsigned dim) const;
  /// The largest power of two v such that every group of v elements along `dim` that
  /// starts at an index multiple of v is contiguous and starts at an address aligned to
  /// v * sizeof(pointee): what a vector access of v elements needs.
  int64_t getPtrAlignment(mlir::Value ptr, unsigned dim) const;
  /// Constancy of the mask tile `mask` along `dim`.
  int64_t getMaskConstancy(mlir::Value mask, unsigned dim) const;

private:
  llvm::DenseMap<mlir::Value, AxisInfo> infos;
};

/// Whether the facts of `dividend / divisor` and `dividend % divisor` (signed, truncating
/// toward zero) may use the runs and alignment of the operands: only where the ranges say
/// the dividend is non-negative and the divisor positive (a run that crosses 0 folds).
bool signsKnownForDivision(const AxisInfo &dividend, const AxisInfo &divisor);

/// The facts AxisInfo gives `dividend % divisor` (`remainder`) or `dividend / divisor`;
/// with `assumeSigns`, those it would give if the signs were known (tile-version-signs
/// asks what a version of the kernel that knows them would gain).
AxisInfo divisionFacts(const AxisInfo &dividend, const AxisInfo &divisor, bool remainder,
                       bool assumeSigns);

/// Size in bytes of what `ptrLike` (a pointer or a tile of pointers) points to; i1 counts
/// as one byte.
int64_t getPointeeBytes(mlir::Type ptrLike);

} // namespace tcc

#endif // TCC_COMPILER_ANALYSIS_AXISINFO_H
