//===- SpecializeArguments.h - what a variant assumes about its arguments -*- C++ -*-===//
//
// A variant of a kernel is compiled under assumptions about its arguments: a pointer
// D-byte aligned, an integer a multiple of D, an integer equal to 1 (a unit stride). The
// assumptions are written `NAME=D` / `NAME=eq1` (tcc's --specialize, the
// tile-specialize-arguments pass's `assume` option); these functions parse, check and apply
// them, for the driver (which derives the variant set) and the pass alike.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TRANSFORMS_SPECIALIZEARGUMENTS_H
#define TCC_TRANSFORMS_SPECIALIZEARGUMENTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace tcc {

struct ArgumentAssumption {
  int64_t divisibility = 1; // a multiple of this (a pointer: its address in bytes)
  bool equalToOne = false;  // an integer equal to 1 (a unit stride)
};
using ArgumentAssumptions = std::map<std::string, ArgumentAssumption>; // by argument name

/// The kernel's parameter names (`tile.arg_names`; `argI` where absent).
llvm::SmallVector<std::string> kernelArgumentNames(mlir::func::FuncOp kernel);

/// Parses `NAME=D` (D a power of two) and `NAME=eq1` entries, each possibly a
/// comma-separated list. `what` names the source in errors ("--specialize").
bool parseArgumentAssumptions(llvm::ArrayRef<std::string> entries, llvm::StringRef what,
                              ArgumentAssumptions *out, std::string *error);

/// The assumptions `kernel` is compiled under: with `all`, every pointer 16-byte aligned
/// and every i32/i64 a multiple of 16; then `requested`, which must name parameters of the
/// right kinds (divisibility: pointers and integers; eq1: integers i8..i64).
bool resolveArgumentAssumptions(mlir::func::FuncOp kernel, const ArgumentAssumptions &requested,
                                bool all, llvm::StringRef what, ArgumentAssumptions *resolved,
                                std::string *error);

/// Records the assumptions as argument attributes (tile.divisibility, tile.equal_to) and
/// replaces every use of an argument assumed equal to 1 by the constant 1 (the signature,
/// and so the ABI, does not change).
void applyArgumentAssumptions(mlir::func::FuncOp kernel, const ArgumentAssumptions &assumptions);

/// --variants=auto's argument assumptions for `kernel`, most general first:
///  1. none;
///  2. every pointer 16-byte aligned, and every i32/i64 integer a multiple of 16 whose
///     divisibility changes what can be known about the kernel's values (AxisInfo's
///     contiguity and constancy of every value, divisibility of every pointer, constants).
///     Integers are tried in parameter order, each left out where the others already
///     give the same facts: a seed that only feeds the data stored, a count only the grid
///     reads, or a batch count multiplied by another multiple of 16 (`Z * H * N_CTX`) is
///     not asked of the caller, whose arguments would otherwise take the general variant;
///  3. where the kernel has inner strides under (2), (2) with them equal to 1; a kernel
///     with a `dot` then has (1) and (3) only: (2) would serve operands whose inner
///     strides are multiples of 16 other than 1, gathered element by element as in (1),
///     at the cost of two more images (sm_90 and sm_90a) of the most expensive kernels.
/// A set equal to the one before it is left out (a kernel without pointers and integers
/// has one variant).
std::vector<ArgumentAssumptions> deriveArgumentVariants(mlir::func::FuncOp kernel);

/// "general" or "x%16, n%16, stride_n==1", in parameter order.
std::string describeArgumentAssumptions(mlir::func::FuncOp kernel,
                                        const ArgumentAssumptions &assumptions);

/// The entries that parse back to `assumptions` ("x=16", "stride_n=eq1").
llvm::SmallVector<std::string> formatArgumentAssumptions(const ArgumentAssumptions &assumptions);

} // namespace tcc

#endif // TCC_TRANSFORMS_SPECIALIZEARGUMENTS_H
