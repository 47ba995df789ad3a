//===- Lexer.cpp - Source text to tokens --------------------------------===//

#include "compiler/Frontend/Lexer.h"
#include "compiler/Frontend/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <cstdlib>

using namespace tcc;
using llvm::SMLoc;
using llvm::SMRange;

llvm::StringRef tcc::tokenKindSpelling(TokenKind kind) {
  switch (kind) {
  case TokenKind::EndOfFile: return "end of file";
  case TokenKind::Newline: return "end of line";
  case TokenKind::Indent: return "indentation";
  case TokenKind::Dedent: return "end of block";
  case TokenKind::Error: return "invalid token";
  case TokenKind::Identifier: return "identifier";
  case TokenKind::IntLiteral: return "integer literal";
  case TokenKind::FloatLiteral: return "floating-point literal";
  case TokenKind::StringLiteral: return "string literal";
  case TokenKind::KwDef: return "'def'";
  case TokenKind::KwReturn: return "'return'";
  case TokenKind::KwIf: return "'if'";
  case TokenKind::KwElif: return "'elif'";
  case TokenKind::KwElse: return "'else'";
  case TokenKind::KwFor: return "'for'";
  case TokenKind::KwIn: return "'in'";
  case TokenKind::KwWhile: return "'while'";
  case TokenKind::KwAnd: return "'and'";
  case TokenKind::KwOr: return "'or'";
  case TokenKind::KwNot: return "'not'";
  case TokenKind::KwPass: return "'pass'";
  case TokenKind::KwTrue: return "'True'";
  case TokenKind::KwFalse: return "'False'";
  case TokenKind::KwNone: return "'None'";
  case TokenKind::KwBreak: return "'break'";
  case TokenKind::KwContinue: return "'continue'";
  case TokenKind::KwImport: return "'import'";
  case TokenKind::KwFrom: return "'from'";
  case TokenKind::KwAs: return "'as'";
  case TokenKind::KwIs: return "'is'";
  case TokenKind::KwLambda: return "'lambda'";
  case TokenKind::KwClass: return "'class'";
  case TokenKind::KwWith: return "'with'";
  case TokenKind::KwGlobal: return "'global'";
  case TokenKind::KwAssert: return "'assert'";
  case TokenKind::KwDel: return "'del'";
  case TokenKind::KwYield: return "'yield'";
  case TokenKind::KwTry: return "'try'";
  case TokenKind::LParen: return "'('";
  case TokenKind::RParen: return "')'";
  case TokenKind::LBracket: return "'['";
  case TokenKind::RBracket: return "']'";
  case TokenKind::LBrace: return "'{'";
  case TokenKind::RBrace: return "'}'";
  case TokenKind::Comma: return "','";
  case TokenKind::Colon: return "':'";
  case TokenKind::Semicolon: return "';'";
  case TokenKind::Dot: return "'.'";
  case TokenKind::At: return "'@'";
  case TokenKind::Arrow: return "'->'";
  case TokenKind::Ellipsis: return "'...'";
  case TokenKind::Assign: return "'='";
  case TokenKind::Plus: return "'+'";
  case TokenKind::Minus: return "'-'";
  case TokenKind::Star: return "'*'";
  case TokenKind::Slash: return "'/'";
  case TokenKind::DoubleSlash: return "'//'";
  case TokenKind::Percent: return "'%'";
  case TokenKind::DoubleStar: return "'**'";
  case TokenKind::LShift: return "'<<'";
  case TokenKind::RShift: return "'>>'";
  case TokenKind::Amp: return "'&'";
  case TokenKind::Pipe: return "'|'";
  case TokenKind::Caret: return "'^'";
  case TokenKind::Tilde: return "'~'";
  case TokenKind::Less: return "'<'";
  case TokenKind::Greater: return "'>'";
  case TokenKind::LessEqual: return "'<='";
  case TokenKind::GreaterEqual: return "'>='";
  case TokenKind::EqualEqual: return "'=='";
  case TokenKind::NotEqual: return "'!='";
  case TokenKind::PlusAssign: return "'+='";
  case TokenKind::MinusAssign: return "'-='";
  case TokenKind::StarAssign: return "'*='";
  case TokenKind::SlashAssign: return "'/='";
  case TokenKind::DoubleSlashAssign: return "'//='";
  case TokenKind::PercentAssign: return "'%='";
  case TokenKind::AmpAssign: return "'&='";
  case TokenKind::PipeAssign: return "'|='";
  case TokenKind::CaretAssign: return "'^='";
  case TokenKind::LShiftAssign: return "'<<='";
  case TokenKind::RShiftAssign: return "'>>='";
  case TokenKind::DoubleStarAssign: return "'**='";
  case TokenKind::AtAssign: return "'@='";
  }
  return "token";
}

static bool isDecDigit(char c) { return c >= '0' && c <= '9'; }
static bool isHexDigit(char c) { return llvm::isHexDigit(c); }
static bool isOctDigit(char c) { return c >= '0' && c <= '7'; }
static bool isBinDigit(char c) { return c == '0' || c == '1'; }
static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

Lexer::Lexer(DiagnosticEngine &diags, unsigned bufferId) : diags(diags) {
  const llvm::MemoryBuffer *buf = diags.getSourceMgr().getMemoryBuffer(bufferId);
  cur = buf->getBufferStart();
  end = buf->getBufferEnd();
}

void Lexer::push(TokenKind kind, const char *start, const char *stop) {
  Token tok;
  tok.kind = kind;
  tok.text = llvm::StringRef(start, stop - start);
  tok.loc = SMLoc::getFromPointer(start);
  tokens.push_back(std::move(tok));
  if (kind != TokenKind::Newline && kind != TokenKind::Indent && kind != TokenKind::Dedent)
    lineHasTokens = true;
}

void Lexer::pushLayout(TokenKind kind, const char *at) { push(kind, at, at); }

void Lexer::skipNewline() {
  if (cur < end && *cur == '\r') {
    ++cur;
    if (cur < end && *cur == '\n')
      ++cur;
  } else if (cur < end && *cur == '\n') {
    ++cur;
  }
}

std::vector<Token> Lexer::lexAll() {
  tokens.clear();
  indentStack.assign(1, std::string());
  bool atLineStart = true;
  while (cur < end) {
    if (atLineStart) {
      if (!handleIndentation())
        continue; // a blank or comment-only line: no tokens, no layout
      atLineStart = false;
    }
    while (cur < end && (*cur == ' ' || *cur == '\t' || *cur == '\f'))
      ++cur;
    if (cur == end)
      break;
    char c = *cur;
    if (c == '#') {
      while (cur < end && *cur != '\n' && *cur != '\r')
        ++cur;
      continue;
    }
    if (c == '\n' || c == '\r') {
      const char *nl = cur;
      skipNewline();
      if (brackets.empty()) {
        push(TokenKind::Newline, nl, cur);
        lineHasTokens = false;
        atLineStart = true;
      }
      continue;
    }
    if (c == '\\') {
      const char *p = cur + 1;
      if (p < end && (*p == '\n' || *p == '\r')) {
        cur = p;
        skipNewline();
        continue;
      }
      if (p == end) {
        diags.error(SMLoc::getFromPointer(cur), "unexpected end of file after line continuation");
        ++cur;
        continue;
      }
    }
    lexToken();
  }

  const char *eofAt = end;
  if (!brackets.empty()) {
    const OpenBracket &open = brackets.back();
    diags.error(SMRange(SMLoc::getFromPointer(open.at), SMLoc::getFromPointer(open.at + 1)),
                llvm::Twine("'") + llvm::Twine(open.ch) + "' was never closed");
    brackets.clear();
  }
  if (lineHasTokens)
    pushLayout(TokenKind::Newline, eofAt);
  while (indentStack.size() > 1) {
    indentStack.pop_back();
    pushLayout(TokenKind::Dedent, eofAt);
  }
  pushLayout(TokenKind::EndOfFile, eofAt);
  return std::move(tokens);
}

// Called at the start of a logical line. Returns false when the line was blank
// (only whitespace and/or a comment), having consumed it.
bool Lexer::handleIndentation() {
  const char *p = cur;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\f'))
    ++p;
  if (p == end) {
    cur = end;
    return false;
  }
  if (*p == '#') {
    while (p < end && *p != '\n' && *p != '\r')
      ++p;
    cur = p;
    skipNewline();
    return false;
  }
  if (*p == '\n' || *p == '\r') {
    cur = p;
    skipNewline();
    return false;
  }
  // Form feeds reset nothing and count for nothing, as in Python.
  std::string ws;
  for (const char *q = cur; q < p; ++q)
    if (*q != '\f')
      ws.push_back(*q);
  cur = p;
  SMRange here(SMLoc::getFromPointer(p), SMLoc::getFromPointer(p + 1));
  const std::string &top = indentStack.back();
  if (ws == top)
    return true;
  if (ws.size() > top.size() && llvm::StringRef(ws).starts_with(top)) {
    if (indentStack.size() > kMaxIndentDepth) {
      diags.error(here, "too many levels of indentation (the limit is " +
                            llvm::Twine(kMaxIndentDepth) + ")");
      return true;
    }
    indentStack.push_back(ws);
    pushLayout(TokenKind::Indent, p);
    return true;
  }
  if (llvm::StringRef(top).starts_with(ws)) {
    while (indentStack.size() > 1 && indentStack.back().size() > ws.size()) {
      indentStack.pop_back();
      pushLayout(TokenKind::Dedent, p);
    }
    if (indentStack.back() != ws) {
      diags.error(here, "unindent does not match any outer indentation level");
      indentStack.back() = ws;
    }
    return true;
  }
  diags.error(here, "inconsistent use of tabs and spaces in indentation");
  diags.note("indent every line of a block with the same characters (spaces are "
             "recommended)");
  indentStack.back() = ws;
  return true;
}

bool Lexer::lexDigits(bool (*isDigit)(char), const char *what) {
  if (cur == end || !isDigit(*cur)) {
    diags.error(SMLoc::getFromPointer(cur), llvm::Twine("expected ") + what + " digits");
    return false;
  }
  while (cur < end) {
    if (isDigit(*cur)) {
      ++cur;
    } else if (*cur == '_' && cur + 1 < end && isDigit(cur[1])) {
      cur += 1;
    } else if (*cur == '_') {
      diags.error(SMLoc::getFromPointer(cur),
                  "invalid '_' in numeric literal: underscores may only separate digits");
      while (cur < end && isIdentChar(*cur))
        ++cur;
      return false;
    } else {
      break;
    }
  }
  return true;
}

void Lexer::lexNumber() {
  const char *start = cur;
  bool ok = true;
  bool isFloat = false;
  unsigned radix = 10;
  if (*cur == '0' && cur + 1 < end &&
      llvm::StringRef("xXoObB").contains(cur[1])) {
    char k = cur[1] | 0x20;
    radix = k == 'x' ? 16 : k == 'o' ? 8 : 2;
    cur += 2;
    if (cur < end && *cur == '_')
      ++cur;
    ok = lexDigits(radix == 16 ? isHexDigit : radix == 8 ? isOctDigit : isBinDigit,
                   radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary");
  } else {
    if (*cur != '.')
      ok = lexDigits(isDecDigit, "decimal");
    if (ok && cur < end && *cur == '.') {
      isFloat = true;
      ++cur;
      if (cur < end && isDecDigit(*cur))
        ok = lexDigits(isDecDigit, "decimal");
    }
    if (ok && cur < end && (*cur == 'e' || *cur == 'E')) {
      const char *e = cur;
      ++cur;
      if (cur < end && (*cur == '+' || *cur == '-'))
        ++cur;
      if (cur < end && isDecDigit(*cur)) {
        isFloat = true;
        ok = lexDigits(isDecDigit, "exponent");
      } else {
        diags.error(SMLoc::getFromPointer(e), "exponent in floating-point literal has no digits");
        ok = false;
      }
    }
  }
  if (cur < end && isIdentChar(*cur)) {
    const char *s = cur;
    while (cur < end && isIdentChar(*cur))
      ++cur;
    if (ok)
      diags.error(SMRange(SMLoc::getFromPointer(s), SMLoc::getFromPointer(cur)),
                  "invalid suffix '" + llvm::StringRef(s, cur - s) + "' on numeric literal");
    ok = false;
  }
  if (!ok) {
    push(TokenKind::Error, start, cur);
    return;
  }
  std::string digits;
  for (const char *q = start; q < cur; ++q)
    if (*q != '_')
      digits.push_back(*q);
  SMRange range(SMLoc::getFromPointer(start), SMLoc::getFromPointer(cur));
  if (isFloat) {
    double v = std::strtod(digits.c_str(), nullptr);
    if (std::isinf(v)) {
      diags.error(range, "floating-point literal is out of range");
      push(TokenKind::Error, start, cur);
      return;
    }
    push(TokenKind::FloatLiteral, start, cur);
    tokens.back().floatValue = v;
    return;
  }
  llvm::StringRef body(digits);
  if (radix != 10)
    body = body.drop_front(2);
  if (radix == 10 && body.size() > 1 && body[0] == '0' &&
      body.find_first_not_of('0') != llvm::StringRef::npos) {
    diags.error(range, "leading zeros are not allowed in decimal integer literals "
                       "(use 0o for octal)");
    push(TokenKind::Error, start, cur);
    return;
  }
  uint64_t value = 0;
  if (body.getAsInteger(radix, value)) {
    diags.error(range, "integer literal is too large");
    push(TokenKind::Error, start, cur);
    return;
  }
  push(TokenKind::IntLiteral, start, cur);
  tokens.back().intValue = value;
}

void Lexer::lexString() {
  const char *start = cur;
  char quote = *cur;
  bool triple = cur + 2 < end && cur[1] == quote && cur[2] == quote;
  cur += triple ? 3 : 1;
  std::string value;
  while (true) {
    if (cur == end || (!triple && (*cur == '\n' || *cur == '\r'))) {
      diags.error(SMLoc::getFromPointer(start), triple ? "unterminated triple-quoted string"
                                                       : "unterminated string literal");
      push(TokenKind::Error, start, cur);
      return;
    }
    char c = *cur;
    if (c == '\\' && cur + 1 < end) {
      char e = cur[1];
      cur += 2;
      switch (e) {
      case 'n': value.push_back('\n'); break;
      case 't': value.push_back('\t'); break;
      case 'r': value.push_back('\r'); break;
      case '0': value.push_back('\0'); break;
      case '\\': value.push_back('\\'); break;
      case '\'': value.push_back('\''); break;
      case '"': value.push_back('"'); break;
      case '\n': break; // a continuation inside the string
      case '\r':
        if (cur < end && *cur == '\n')
          ++cur;
        break;
      case 'x':
        if (cur + 1 < end && isHexDigit(cur[0]) && isHexDigit(cur[1])) {
          value.push_back(char(llvm::hexDigitValue(cur[0]) * 16 + llvm::hexDigitValue(cur[1])));
          cur += 2;
          break;
        }
        [[fallthrough]];
      default: // unknown escapes stay as written, as in Python
        value.push_back('\\');
        value.push_back(e);
        break;
      }
      continue;
    }
    if (c == quote) {
      if (!triple) {
        ++cur;
        break;
      }
      if (cur + 2 < end && cur[1] == quote && cur[2] == quote) {
        cur += 3;
        break;
      }
    }
    value.push_back(c);
    ++cur;
  }
  push(TokenKind::StringLiteral, start, cur);
  tokens.back().stringValue = std::move(value);
}

void Lexer::lexIdentifier() {
  const char *start = cur;
  while (cur < end && isIdentChar(*cur))
    ++cur;
  llvm::StringRef text(start, cur - start);
  TokenKind kind = llvm::StringSwitch<TokenKind>(text)
                       .Case("def", TokenKind::KwDef)
                       .Case("return", TokenKind::KwReturn)
                       .Case("if", TokenKind::KwIf)
                       .Case("elif", TokenKind::KwElif)
                       .Case("else", TokenKind::KwElse)
                       .Case("for", TokenKind::KwFor)
                       .Case("in", TokenKind::KwIn)
                       .Case("while", TokenKind::KwWhile)
                       .Case("and", TokenKind::KwAnd)
                       .Case("or", TokenKind::KwOr)
                       .Case("not", TokenKind::KwNot)
                       .Case("pass", TokenKind::KwPass)
                       .Case("True", TokenKind::KwTrue)
                       .Case("False", TokenKind::KwFalse)
                       .Case("None", TokenKind::KwNone)
                       .Case("break", TokenKind::KwBreak)
                       .Case("continue", TokenKind::KwContinue)
                       .Case("import", TokenKind::KwImport)
                       .Case("from", TokenKind::KwFrom)
                       .Case("as", TokenKind::KwAs)
                       .Case("is", TokenKind::KwIs)
                       .Case("lambda", TokenKind::KwLambda)
                       .Case("class", TokenKind::KwClass)
                       .Case("with", TokenKind::KwWith)
                       .Case("global", TokenKind::KwGlobal)
                       .Case("assert", TokenKind::KwAssert)
                       .Case("del", TokenKind::KwDel)
                       .Case("yield", TokenKind::KwYield)
                       .Case("try", TokenKind::KwTry)
                       .Default(TokenKind::Identifier);
  push(kind, start, cur);
}

void Lexer::lexToken() {
  char c = *cur;
  if (isIdentStart(c))
    return lexIdentifier();
  if (isDecDigit(c) || (c == '.' && cur + 1 < end && isDecDigit(cur[1])))
    return lexNumber();
  if (c == '"' || c == '\'')
    return lexString();

  const char *start = cur;
  auto next = [&](unsigned i) { return cur + i < end ? cur[i] : '\0'; };
  auto op = [&](TokenKind kind, unsigned len) {
    cur += len;
    push(kind, start, cur);
  };
  auto open = [&](TokenKind kind) {
    brackets.push_back({c, cur});
    op(kind, 1);
  };
  auto close = [&](TokenKind kind) {
    if (!brackets.empty())
      brackets.pop_back();
    op(kind, 1);
  };
  char c1 = next(1), c2 = next(2);
  switch (c) {
  case '(': return open(TokenKind::LParen);
  case '[': return open(TokenKind::LBracket);
  case '{': return open(TokenKind::LBrace);
  case ')': return close(TokenKind::RParen);
  case ']': return close(TokenKind::RBracket);
  case '}': return close(TokenKind::RBrace);
  case ',': return op(TokenKind::Comma, 1);
  case ':': return op(TokenKind::Colon, 1);
  case ';': return op(TokenKind::Semicolon, 1);
  case '~': return op(TokenKind::Tilde, 1);
  case '.':
    if (c1 == '.' && c2 == '.')
      return op(TokenKind::Ellipsis, 3);
    return op(TokenKind::Dot, 1);
  case '@':
    return c1 == '=' ? op(TokenKind::AtAssign, 2) : op(TokenKind::At, 1);
  case '=':
    return c1 == '=' ? op(TokenKind::EqualEqual, 2) : op(TokenKind::Assign, 1);
  case '!':
    if (c1 == '=')
      return op(TokenKind::NotEqual, 2);
    diags.error(SMRange(SMLoc::getFromPointer(cur), SMLoc::getFromPointer(cur + 1)),
                "invalid character '!' in source (use 'not' for logical negation)");
    return op(TokenKind::Error, 1);
  case '+':
    return c1 == '=' ? op(TokenKind::PlusAssign, 2) : op(TokenKind::Plus, 1);
  case '-':
    if (c1 == '>')
      return op(TokenKind::Arrow, 2);
    return c1 == '=' ? op(TokenKind::MinusAssign, 2) : op(TokenKind::Minus, 1);
  case '*':
    if (c1 == '*')
      return c2 == '=' ? op(TokenKind::DoubleStarAssign, 3) : op(TokenKind::DoubleStar, 2);
    return c1 == '=' ? op(TokenKind::StarAssign, 2) : op(TokenKind::Star, 1);
  case '/':
    if (c1 == '/')
      return c2 == '=' ? op(TokenKind::DoubleSlashAssign, 3) : op(TokenKind::DoubleSlash, 2);
    return c1 == '=' ? op(TokenKind::SlashAssign, 2) : op(TokenKind::Slash, 1);
  case '%':
    return c1 == '=' ? op(TokenKind::PercentAssign, 2) : op(TokenKind::Percent, 1);
  case '&':
    return c1 == '=' ? op(TokenKind::AmpAssign, 2) : op(TokenKind::Amp, 1);
  case '|':
    return c1 == '=' ? op(TokenKind::PipeAssign, 2) : op(TokenKind::Pipe, 1);
  case '^':
    return c1 == '=' ? op(TokenKind::CaretAssign, 2) : op(TokenKind::Caret, 1);
  case '<':
    if (c1 == '<')
      return c2 == '=' ? op(TokenKind::LShiftAssign, 3) : op(TokenKind::LShift, 2);
    return c1 == '=' ? op(TokenKind::LessEqual, 2) : op(TokenKind::Less, 1);
  case '>':
    if (c1 == '>')
      return c2 == '=' ? op(TokenKind::RShiftAssign, 3) : op(TokenKind::RShift, 2);
    return c1 == '=' ? op(TokenKind::GreaterEqual, 2) : op(TokenKind::Greater, 1);
  default:
    break;
  }
  // Anything else: one error for a whole run of bad bytes.
  const char *s = cur;
  while (cur < end) {
    char b = *cur;
    bool good = isIdentChar(b) || b == ' ' || b == '\t' || b == '\n' || b == '\r' ||
                b == '#' || llvm::StringRef("()[]{},:;.@=!+-*/%&|^~<>\"'\\").contains(b);
    if (good)
      break;
    ++cur;
  }
  if (cur == s)
    ++cur;
  unsigned char first = static_cast<unsigned char>(*s);
  std::string shown;
  if (first >= 0x20 && first < 0x7f)
    shown = std::string(1, char(first));
  else
    shown = "\\x" + llvm::utohexstr(first, /*LowerCase=*/false, /*Width=*/2);
  diags.error(SMRange(SMLoc::getFromPointer(s), SMLoc::getFromPointer(cur)),
              "invalid character '" + shown + "' in source");
  push(TokenKind::Error, s, cur);
}
