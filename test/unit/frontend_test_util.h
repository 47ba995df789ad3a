// Small harness for the front-end unit tests: a source buffer, a diagnostic engine that
// writes into a string, and the steps of the front end run on them.
#pragma once

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Lexer.h"
#include "compiler/Frontend/Parser.h"
#include "compiler/Frontend/Sema.h"
#include "compiler/Frontend/TypedAST.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc::test {

struct Source {
  explicit Source(const std::string &text, const std::string &name = "test.tile")
      : os(messages), diags(sourceMgr, os) {
    buffer = sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                                          llvm::SMLoc());
  }

  std::vector<Token> lex() { return Lexer(diags, buffer).lexAll(); }

  std::unique_ptr<ast::Module> parse() { return Parser(diags, lex()).parseModule(); }

  /// Parse + Sema; null after errors.
  std::unique_ptr<typed::Program> analyze(const SemaOptions &options = {}) {
    module = parse();
    if (diags.hasErrors())
      return nullptr;
    return tcc::analyze(diags, *module, options);
  }

  std::string errors() {
    os.flush();
    return messages;
  }

  std::string messages;
  llvm::raw_string_ostream os;
  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diags;
  unsigned buffer = 0;
  std::unique_ptr<ast::Module> module;
};

/// The token kinds of `text`, for compact comparisons.
inline std::vector<TokenKind> kinds(const std::vector<Token> &tokens) {
  std::vector<TokenKind> out;
  for (const Token &t : tokens)
    out.push_back(t.kind);
  return out;
}

} // namespace tcc::test
