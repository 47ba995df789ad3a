//===- Lexer.h - Source text to tokens ----------------------------------===//
//
// Python-style lexing: `#` comments, implicit line joining inside brackets,
// backslash continuations, and Indent/Dedent tokens computed from leading
// whitespace. Indentation may use spaces or tabs, but one block's indentation
// must extend its parent's byte for byte; anything else is "inconsistent use
// of tabs and spaces". LF, CRLF and lone CR all end a line.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_LEXER_H
#define TCC_FRONTEND_LEXER_H

#include "compiler/Frontend/Token.h"

#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace tcc {

class DiagnosticEngine;

class Lexer {
public:
  /// Lexes buffer `bufferId` of the engine's SourceMgr.
  Lexer(DiagnosticEngine &diags, unsigned bufferId);

  /// The whole buffer's tokens, always ending in EndOfFile (preceded by a
  /// Newline and the Dedents that close open blocks when there were tokens).
  std::vector<Token> lexAll();

  /// Deepest indentation accepted; deeper is an error rather than a risk to
  /// the parser's stack.
  static constexpr unsigned kMaxIndentDepth = 100;

private:
  bool handleIndentation();
  void lexToken();
  void lexIdentifier();
  void lexNumber();
  void lexString();
  bool lexDigits(bool (*isDigit)(char), const char *what);
  void push(TokenKind kind, const char *start, const char *end);
  void pushLayout(TokenKind kind, const char *at);
  void skipNewline();

  DiagnosticEngine &diags;
  const char *cur;
  const char *end;
  std::vector<Token> tokens;
  std::vector<std::string> indentStack;
  struct OpenBracket {
    char ch;
    const char *at;
  };
  llvm::SmallVector<OpenBracket, 8> brackets;
  bool lineHasTokens = false;
};

} // namespace tcc

#endif // TCC_FRONTEND_LEXER_H
