//===- VerifyDiagnostics.h - tcc --verify-diagnostics ---------*- C++ -*-===//
//
// An expected-diagnostics mode, as MLIR's -verify-diagnostics, so that one test file holds
// a whole family of errors. The input is split at lines `# -----`; each part is compiled
// on its own (with the options given: --emit, -D, ...), its line numbers those of the
// whole file (empty lines stand for the parts before it), and its diagnostics are compared with the comments in it:
//
//   x = load(p)    # expected-error {{needs a mask}}        this line
//   # expected-error@+1 {{undefined name 'q'}}              the next line (@-2: two above;
//   y = q                                                   @above, @below: one; @7: line 7)
//   # expected-warning@unknown {{--num-warps}}              no location (an option)
//   # expected-error@+1:9 {{too large}}                     the next line, column 9
//   y = z  # expected-error:9 {{undefined name 'z'}}         this line, column 9
//
// `expected-error`, `-warning`, `-remark` and `-note`; the text in {{ }} must occur in the
// message. Every error, warning and remark must be expected, and every expectation met;
// notes must be met only where expected (they explain an error); a part with errors must
// exit with status 1, one without with 0. A mismatch is reported at the line it concerns;
// the exit code is 0 only when every part matches.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DRIVER_VERIFYDIAGNOSTICS_H
#define TCC_DRIVER_VERIFYDIAGNOSTICS_H

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tcc {

struct DriverOptions;

/// Runs --verify-diagnostics on options.inputPath; reports mismatches on `errs`.
int verifyDiagnostics(const DriverOptions &options, llvm::raw_ostream &errs);

} // namespace tcc

#endif // TCC_DRIVER_VERIFYDIAGNOSTICS_H
