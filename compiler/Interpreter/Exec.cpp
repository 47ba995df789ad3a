//===- Exec.cpp - run-time diagnostics --------------------------------------===//

#include "compiler/Interpreter/Exec.h"

#include <cstdio>
#include <fstream>

namespace tcc::interp {

std::string OpSite::where() const {
  if (file.empty())
    return "<unknown location>";
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

/// Line `line` (1-based) of `file`, or empty.
static std::string sourceLine(const std::string &file, unsigned line) {
  std::ifstream in(file);
  std::string text;
  for (unsigned i = 1; in && std::getline(in, text); ++i)
    if (i == line)
      return text;
  return "";
}

std::string formatDiagnostic(const OpSite *site, const char *severity, const std::string &message,
                             bool showSource) {
  std::string s = site->where() + ": " + severity + ": " + message + "\n";
  if (showSource && !site->file.empty() && site->line) {
    std::string text = sourceLine(site->file, site->line);
    if (!text.empty()) {
      s += text + "\n";
      std::string caret;
      for (unsigned i = 1; i < site->col && i <= text.size(); ++i)
        caret += text[i - 1] == '\t' ? '\t' : ' ';
      s += caret + "^\n";
    }
  }
  return s;
}

std::string ExecState::pidString() const {
  return "(" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
         std::to_string(pid[2]) + ")";
}

void ExecState::fail(const OpSite *site, const std::string &message,
                     const std::vector<std::string> &notes) {
  if (failed)
    return;
  failed = true;
  error = formatDiagnostic(site, "error", message, options && options->showSource);
  error += site->where() + ": note: in program " + pidString() + " of kernel '" + site->kernel +
           "' (grid " + std::to_string(nprog[0]) + "x" + std::to_string(nprog[1]) + "x" +
           std::to_string(nprog[2]) + ")\n";
  for (const std::string &n : notes)
    error += site->where() + ": note: " + n + "\n";
  for (const std::string &call : site->calledFrom)
    error += call + ": note: called from here\n";
}

void ExecState::warn(OpSite *site, const std::string &message) {
  ++warnings;
  if (site->warned)
    return;
  site->warned = true;
  std::string text = formatDiagnostic(site, "warning", message, options && options->showSource);
  text += site->where() + ": note: first in program " + pidString() +
          "; further warnings for this operation are suppressed";
  if (options && options->warningSink)
    options->warningSink(text);
  else
    std::fprintf(stderr, "%s\n", text.c_str());
}

void ExecState::print(const std::string &line) {
  if (options && options->printSink)
    options->printSink(line);
  else
    std::printf("%s\n", line.c_str());
}

} // namespace tcc::interp
