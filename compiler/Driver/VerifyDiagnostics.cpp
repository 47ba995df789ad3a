//===- VerifyDiagnostics.cpp - tcc --verify-diagnostics -------------------===//
//
// See VerifyDiagnostics.h.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/VerifyDiagnostics.h"

#include "compiler/Driver/Driver.h"
#include "compiler/Frontend/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tcc {
namespace {

using Kind = llvm::SourceMgr::DiagKind;

struct Expectation {
  Kind kind;
  unsigned line;     // the line it expects the diagnostic on (1-based); 0: no location
  unsigned column;   // and its column (1-based); 0: any
  unsigned at;       // the line of the comment
  std::string text;  // what the message must contain
  bool met = false;
};

struct Produced {
  Kind kind;
  unsigned line, column; // 0: no location
  std::string message;
};

const char *kindName(Kind kind) {
  switch (kind) {
  case llvm::SourceMgr::DK_Error:
    return "error";
  case llvm::SourceMgr::DK_Warning:
    return "warning";
  case llvm::SourceMgr::DK_Remark:
    return "remark";
  case llvm::SourceMgr::DK_Note:
    return "note";
  }
  return "diagnostic";
}

/// The expectations written in lines [first, last) of `lines` (1-based numbers: index + 1);
/// a malformed one is reported and makes the part fail.
bool parseExpectations(const std::vector<llvm::StringRef> &lines, unsigned first, unsigned last,
                       const std::string &file, llvm::raw_ostream &errs,
                       std::vector<Expectation> *out) {
  llvm::Regex pattern(
      "expected-(error|warning|remark|note)(@([^ {:]*))?(:([0-9]+))? *\\{\\{(.*)\\}\\}");
  llvm::Regex kindPattern("expected-(error|warning|remark|note)([^a-z-]|$)");
  bool ok = true;
  for (unsigned i = first; i < last; ++i) {
    llvm::StringRef line = lines[i];
    size_t hash = line.find('#');
    if (hash == llvm::StringRef::npos)
      continue;
    llvm::StringRef comment = line.substr(hash);
    if (!kindPattern.match(comment))
      continue; // prose that mentions no expectation
    unsigned number = i + 1;
    llvm::SmallVector<llvm::StringRef, 7> m;
    if (!pattern.match(comment, &m)) {
      errs << file << ":" << number << ": error: malformed expectation (write "
           << "'# expected-error {{text}}', '# expected-note@+1 {{text}}', ...)\n";
      ok = false;
      continue;
    }
    Expectation e;
    e.kind = m[1] == "error"     ? llvm::SourceMgr::DK_Error
             : m[1] == "warning" ? llvm::SourceMgr::DK_Warning
             : m[1] == "remark"  ? llvm::SourceMgr::DK_Remark
                                 : llvm::SourceMgr::DK_Note;
    e.at = number;
    e.text = m[6].str();
    e.column = 0;
    if (!m[5].empty())
      m[5].getAsInteger(10, e.column);
    llvm::StringRef where = m[3];
    int64_t offset = 0;
    if (where.empty()) {
      e.line = number;
    } else if (where == "unknown") {
      e.line = 0;
    } else if (where == "above" || where == "below") {
      e.line = where == "above" ? number - 1 : number + 1;
    } else if ((where.starts_with("+") || where.starts_with("-")) &&
               !where.drop_front().getAsInteger(10, offset)) {
      int64_t target = int64_t(number) + (where[0] == '-' ? -offset : offset);
      e.line = target > 0 ? unsigned(target) : 0;
      if (target <= 0) {
        errs << file << ":" << number << ": error: expectation '@" << where
             << "' points before the file\n";
        ok = false;
        continue;
      }
    } else if (!where.getAsInteger(10, offset) && offset > 0) {
      e.line = unsigned(offset);
    } else {
      errs << file << ":" << number << ": error: unknown expectation location '@" << where
           << "' (write @+N, @-N, @N, @above, @below or @unknown)\n";
      ok = false;
      continue;
    }
    if (e.text.empty()) {
      errs << file << ":" << number << ": error: an expectation needs text in {{ }}\n";
      ok = false;
      continue;
    }
    out->push_back(std::move(e));
  }
  return ok;
}

} // namespace

int verifyDiagnostics(const DriverOptions &options, llvm::raw_ostream &errs) {
  const std::string &file = options.inputPath;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      options.inputText ? llvm::MemoryBuffer::getMemBufferCopy(*options.inputText, file)
                        : llvm::MemoryBuffer::getFileOrSTDIN(file);
  if (!buffer) {
    errs << "tcc: error: cannot read '" << file << "': " << buffer.getError().message() << "\n";
    return 1;
  }
  llvm::StringRef text = (*buffer)->getBuffer();
  std::vector<llvm::StringRef> lines;
  for (llvm::StringRef rest = text; !rest.empty();) {
    auto [line, tail] = rest.split('\n');
    lines.push_back(line);
    rest = tail;
  }
  // The parts: [begin, end) line ranges between `# -----` lines.
  std::vector<std::pair<unsigned, unsigned>> parts;
  unsigned begin = 0;
  for (unsigned i = 0; i < lines.size(); ++i)
    if (lines[i].trim() == "# -----") {
      parts.push_back({begin, i});
      begin = i + 1;
    }
  parts.push_back({begin, unsigned(lines.size())});

  bool allOk = true;
  for (auto [first, last] : parts) {
    std::vector<Expectation> expected;
    if (!parseExpectations(lines, first, last, file, errs, &expected)) {
      allOk = false;
      continue;
    }
    // The part alone, after as many empty lines as come before it, so that its line
    // numbers are the file's (and its end is its own).
    std::string source(first, '\n');
    for (unsigned i = first; i < last; ++i)
      source += lines[i].str() + "\n";
    DriverOptions partOptions = options;
    partOptions.verifyDiagnostics = false;
    partOptions.inputText = std::move(source);
    partOptions.discardOutput = true;
    std::string ignored;
    llvm::raw_string_ostream quiet(ignored);
    Driver driver(partOptions, quiet);
    std::vector<Produced> produced;
    DiagnosticEngine &diags = driver.diagnostics();
    diags.setErrorLimit(1000);
    diags.setObserver([&](Kind kind, llvm::SMLoc loc, const std::string &message) {
      // A place in another buffer (a -D value) is no place in the file: @unknown.
      llvm::SourceMgr &sources = diags.getSourceMgr();
      bool inFile = loc.isValid() && sources.FindBufferContainingLoc(loc) == sources.getMainFileID();
      auto [line, column] = inFile ? diags.lineAndColumn(loc) : std::pair{0u, 0u};
      produced.push_back({kind, line, column, message});
    });
    int code = driver.run();

    // Each produced diagnostic takes the first unmet expectation of its kind and line whose
    // text it contains.
    bool partOk = true;
    for (const Produced &p : produced) {
      Expectation *match = nullptr;
      for (Expectation &e : expected)
        if (!e.met && e.kind == p.kind && e.line == p.line &&
            (!e.column || e.column == p.column) && llvm::StringRef(p.message).contains(e.text)) {
          match = &e;
          break;
        }
      if (match) {
        match->met = true;
        continue;
      }
      if (p.kind == llvm::SourceMgr::DK_Note)
        continue; // notes are checked only where expected
      partOk = false;
      if (p.line)
        errs << file << ":" << p.line << ":" << p.column << ": error: unexpected "
             << kindName(p.kind) << ": " << p.message << "\n";
      else
        errs << file << ":" << first + 1 << ": error: unexpected " << kindName(p.kind)
             << " with no location (expect it with @unknown): " << p.message << "\n";
    }
    // A part with errors fails as the compiler does, with status 1 (not a crash's or an
    // abort's); one without succeeds.
    bool hasErrors = llvm::any_of(produced, [](const Produced &p) {
      return p.kind == llvm::SourceMgr::DK_Error;
    });
    if (code != (hasErrors ? 1 : 0)) {
      partOk = false;
      errs << file << ":" << first + 1 << ": error: this part exits with status " << code
           << ", not " << (hasErrors ? 1 : 0) << "\n";
    }
    for (const Expectation &e : expected)
      if (!e.met) {
        partOk = false;
        std::string where = "with no location";
        if (e.line)
          where = "at line " + std::to_string(e.line) +
                  (e.column ? ", column " + std::to_string(e.column) : "");
        errs << file << ":" << e.at << ": error: expected " << kindName(e.kind) << " {{"
             << e.text << "}} " << where << " was not produced\n";
      }
    allOk = allOk && partOk;
  }
  return allOk ? 0 : 1;
}

} // namespace tcc
