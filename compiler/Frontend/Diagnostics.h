//===- Diagnostics.h - Located errors, warnings and notes ----------------===//
//
// Every message the front end prints goes through one DiagnosticEngine so that
// they all look like a C compiler's: `file:line:col: error: message`, the source
// line, a caret under the offending range, and notes that point at related code.
// After a fixed number of errors further errors are dropped (with one message
// saying so) so that a file of garbage cannot flood the terminal.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_DIAGNOSTICS_H
#define TCC_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <functional>
#include <string>
#include <utility>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tcc {

class DiagnosticEngine {
public:
  DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);

  /// Reports an error at `range` (caret at its start, the range underlined).
  void error(llvm::SMRange range, const llvm::Twine &message);
  void error(llvm::SMLoc loc, const llvm::Twine &message) {
    error(llvm::SMRange(loc, loc), message);
  }
  /// An error that belongs to no place in the source (bad option, missing file).
  void error(const llvm::Twine &message);
  void warning(llvm::SMRange range, const llvm::Twine &message);
  void warning(const llvm::Twine &message) { warning(llvm::SMRange(), message); }
  void remark(llvm::SMRange range, const llvm::Twine &message);
  /// A note attached to the last error or warning; dropped with it.
  void note(llvm::SMRange range, const llvm::Twine &message);
  void note(const llvm::Twine &message);

  unsigned errorCount() const { return numErrors; }
  bool hasErrors() const { return numErrors != 0; }
  /// True once the error limit was reached; callers may stop early.
  bool tooManyErrors() const { return numErrors >= errorLimit; }
  void setErrorLimit(unsigned limit) { errorLimit = limit; }

  /// Where diagnostics go instead of the stream, when set (tcc --verify-diagnostics):
  /// each one's kind, location (invalid when it belongs to no place in the source) and
  /// message. Errors still count, and the error limit still applies.
  using Observer = std::function<void(llvm::SourceMgr::DiagKind kind, llvm::SMLoc loc,
                                      const std::string &message)>;
  void setObserver(Observer observer) { this->observer = std::move(observer); }

  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }
  /// 1-based line and column of `loc`; {0, 0} when it is not in a buffer.
  std::pair<unsigned, unsigned> lineAndColumn(llvm::SMLoc loc) const;
  /// Name of the buffer holding `loc` (the path given on the command line).
  llvm::StringRef bufferName(llvm::SMLoc loc) const;

private:
  void print(llvm::SMRange range, llvm::SourceMgr::DiagKind kind,
             const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  Observer observer;
  unsigned numErrors = 0;
  unsigned errorLimit = 20;
  bool lastDropped = false;
  bool announcedLimit = false;
};

} // namespace tcc

#endif // TCC_FRONTEND_DIAGNOSTICS_H
