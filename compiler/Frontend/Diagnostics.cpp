//===- Diagnostics.cpp - Located errors, warnings and notes --------------===//

#include "compiler/Frontend/Diagnostics.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tcc;

DiagnosticEngine::DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os)
    : sourceMgr(sourceMgr), os(os) {}

void DiagnosticEngine::print(llvm::SMRange range, llvm::SourceMgr::DiagKind kind,
                             const llvm::Twine &message) {
  llvm::SMLoc loc = range.Start;
  if (observer) {
    bool located = loc.isValid() && sourceMgr.FindBufferContainingLoc(loc);
    observer(kind, located ? loc : llvm::SMLoc(), message.str());
    return;
  }
  if (!loc.isValid() || !sourceMgr.FindBufferContainingLoc(loc)) {
    const char *label = kind == llvm::SourceMgr::DK_Error     ? "error"
                        : kind == llvm::SourceMgr::DK_Warning ? "warning"
                        : kind == llvm::SourceMgr::DK_Remark  ? "remark"
                                                              : "note";
    os << "tcc: " << label << ": " << message << "\n";
    return;
  }
  llvm::SmallVector<llvm::SMRange, 1> ranges;
  // A range that ends on another line would underline garbage; SourceMgr only
  // underlines on the caret's line anyway, so clip to a single-line range.
  if (range.End.isValid() && range.End.getPointer() > range.Start.getPointer()) {
    const char *end = range.Start.getPointer();
    while (end < range.End.getPointer() && *end != '\n' && *end != '\r')
      ++end;
    if (end > range.Start.getPointer())
      ranges.push_back(llvm::SMRange(range.Start, llvm::SMLoc::getFromPointer(end)));
  }
  sourceMgr.PrintMessage(os, loc, kind, message, ranges);
}

void DiagnosticEngine::error(llvm::SMRange range, const llvm::Twine &message) {
  if (numErrors >= errorLimit) {
    lastDropped = true;
    if (!announcedLimit) {
      announcedLimit = true;
      os << "tcc: fatal: too many errors emitted, stopping now\n";
    }
    ++numErrors;
    return;
  }
  ++numErrors;
  lastDropped = false;
  print(range, llvm::SourceMgr::DK_Error, message);
}

void DiagnosticEngine::error(const llvm::Twine &message) {
  error(llvm::SMRange(), message);
}

void DiagnosticEngine::warning(llvm::SMRange range, const llvm::Twine &message) {
  lastDropped = false;
  print(range, llvm::SourceMgr::DK_Warning, message);
}

void DiagnosticEngine::remark(llvm::SMRange range, const llvm::Twine &message) {
  print(range, llvm::SourceMgr::DK_Remark, message);
}

void DiagnosticEngine::note(llvm::SMRange range, const llvm::Twine &message) {
  if (lastDropped)
    return;
  print(range, llvm::SourceMgr::DK_Note, message);
}

void DiagnosticEngine::note(const llvm::Twine &message) { note(llvm::SMRange(), message); }

std::pair<unsigned, unsigned> DiagnosticEngine::lineAndColumn(llvm::SMLoc loc) const {
  if (!loc.isValid() || !sourceMgr.FindBufferContainingLoc(loc))
    return {0, 0};
  return sourceMgr.getLineAndColumn(loc);
}

llvm::StringRef DiagnosticEngine::bufferName(llvm::SMLoc loc) const {
  unsigned id = loc.isValid() ? sourceMgr.FindBufferContainingLoc(loc) : 0;
  if (!id)
    return "<unknown>";
  return sourceMgr.getMemoryBuffer(id)->getBufferIdentifier();
}
