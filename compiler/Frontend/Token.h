//===- Token.h - Tokens of the kernel language --------------------------===//
//
// The lexer turns a buffer into these. Layout tokens (Newline, Indent, Dedent)
// make Python's indentation-based blocks look like brackets to the parser.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_TOKEN_H
#define TCC_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>

namespace tcc {

enum class TokenKind {
  EndOfFile,
  Newline,
  Indent,
  Dedent,
  Error, // a byte sequence the lexer already reported

  Identifier,
  IntLiteral,
  FloatLiteral,
  StringLiteral,

  // Keywords.
  KwDef, KwReturn, KwIf, KwElif, KwElse, KwFor, KwIn, KwWhile, KwAnd, KwOr, KwNot,
  KwPass, KwTrue, KwFalse, KwNone, KwBreak, KwContinue, KwImport, KwFrom, KwAs,
  KwIs, KwLambda, KwClass, KwWith, KwGlobal, KwAssert, KwDel, KwYield, KwTry,

  // Punctuation and operators.
  LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  Comma, Colon, Semicolon, Dot, At, Arrow, Ellipsis,
  Assign,                                   // =
  Plus, Minus, Star, Slash, DoubleSlash, Percent, DoubleStar,
  LShift, RShift, Amp, Pipe, Caret, Tilde,
  Less, Greater, LessEqual, GreaterEqual, EqualEqual, NotEqual,
  PlusAssign, MinusAssign, StarAssign, SlashAssign, DoubleSlashAssign,
  PercentAssign, AmpAssign, PipeAssign, CaretAssign, LShiftAssign, RShiftAssign,
  DoubleStarAssign, AtAssign,
};

/// A printable spelling for messages: "'('", "identifier", "end of line", ...
llvm::StringRef tokenKindSpelling(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  /// The token's bytes in the source buffer (empty for Indent/Dedent/EndOfFile).
  llvm::StringRef text;
  llvm::SMLoc loc;
  /// Decoded value of literals.
  uint64_t intValue = 0;
  double floatValue = 0.0;
  std::string stringValue;

  bool is(TokenKind k) const { return kind == k; }
  bool isNot(TokenKind k) const { return kind != k; }
  llvm::SMLoc endLoc() const {
    return llvm::SMLoc::getFromPointer(loc.getPointer() + text.size());
  }
  llvm::SMRange range() const { return llvm::SMRange(loc, endLoc()); }
};

} // namespace tcc

#endif // TCC_FRONTEND_TOKEN_H
