// Lexer edge cases: indentation (spaces, tabs, their mixture), comments, literals, strings,
// line endings, brackets, invalid bytes, empty input.

#include "frontend_test_util.h"

#include <gtest/gtest.h>

using namespace tcc;
using namespace tcc::test;
using K = TokenKind;

namespace {

std::vector<K> lexKinds(const std::string &text, std::string *errors = nullptr) {
  Source s(text);
  std::vector<K> k = kinds(s.lex());
  if (errors)
    *errors = s.errors();
  else
    EXPECT_EQ(s.errors(), "") << "for input: " << text;
  return k;
}

TEST(Lexer, EmptyFileIsJustEndOfFile) {
  EXPECT_EQ(lexKinds(""), std::vector<K>{K::EndOfFile});
}

TEST(Lexer, BlankAndCommentLinesProduceNoTokens) {
  EXPECT_EQ(lexKinds("\n\n   \n# comment\n      # indented comment\n\t\n"),
            std::vector<K>{K::EndOfFile});
}

TEST(Lexer, IndentAndDedent) {
  std::vector<K> expected = {K::KwDef, K::Identifier, K::LParen, K::RParen, K::Colon,
                             K::Newline, K::Indent, K::Identifier, K::Assign, K::IntLiteral,
                             K::Newline, K::Dedent, K::EndOfFile};
  EXPECT_EQ(lexKinds("def f():\n    x = 1\n"), expected);
  // No newline at the end of the file: the lexer supplies it.
  EXPECT_EQ(lexKinds("def f():\n    x = 1"), expected);
}

TEST(Lexer, SeveralDedentsAtOnce) {
  std::vector<K> k = lexKinds("if a:\n  if b:\n    c\nd\n");
  std::vector<K> expected = {K::KwIf, K::Identifier, K::Colon, K::Newline, K::Indent,
                             K::KwIf, K::Identifier, K::Colon, K::Newline, K::Indent,
                             K::Identifier, K::Newline, K::Dedent, K::Dedent, K::Identifier,
                             K::Newline, K::EndOfFile};
  EXPECT_EQ(k, expected);
}

TEST(Lexer, CommentLinesDoNotAffectIndentation) {
  std::vector<K> k = lexKinds("if a:\n    b\n# at column 1\n        # deeper\n    c\n");
  std::vector<K> expected = {K::KwIf, K::Identifier, K::Colon, K::Newline, K::Indent,
                             K::Identifier, K::Newline, K::Identifier, K::Newline,
                             K::Dedent, K::EndOfFile};
  EXPECT_EQ(k, expected);
}

TEST(Lexer, TabsAloneAreConsistent) {
  std::vector<K> k = lexKinds("if a:\n\tb\n\tif c:\n\t\td\n");
  EXPECT_EQ(std::count(k.begin(), k.end(), K::Indent), 2);
  EXPECT_EQ(std::count(k.begin(), k.end(), K::Dedent), 2);
}

TEST(Lexer, TabsThenSpacesIsAnError) {
  std::string errors;
  lexKinds("if a:\n\tb\n        c\n", &errors);
  EXPECT_NE(errors.find("test.tile:3:9: error: inconsistent use of tabs and spaces in "
                        "indentation"),
            std::string::npos)
      << errors;
}

TEST(Lexer, SpacesThenTabIsAnError) {
  std::string errors;
  lexKinds("if a:\n    b\n\tc\n", &errors);
  EXPECT_NE(errors.find("test.tile:3:2: error: inconsistent use of tabs and spaces"),
            std::string::npos)
      << errors;
}

TEST(Lexer, UnindentToUnknownLevel) {
  std::string errors;
  lexKinds("if a:\n    b\n  c\n", &errors);
  EXPECT_NE(errors.find("3:3: error: unindent does not match any outer indentation level"),
            std::string::npos)
      << errors;
}

TEST(Lexer, IndentationDepthIsLimited) {
  std::string text;
  for (unsigned i = 0; i <= Lexer::kMaxIndentDepth + 5; ++i)
    text += std::string(i, ' ') + "if a:\n";
  std::string errors;
  lexKinds(text, &errors);
  EXPECT_NE(errors.find("too many levels of indentation (the limit is 100)"), std::string::npos);
}

TEST(Lexer, CrLfAndLoneCrEndLines) {
  std::vector<K> lf = lexKinds("def f():\n    x = 1\n    y = 2\n");
  EXPECT_EQ(lexKinds("def f():\r\n    x = 1\r\n    y = 2\r\n"), lf);
  EXPECT_EQ(lexKinds("def f():\r    x = 1\r    y = 2\r"), lf);
}

TEST(Lexer, CrLfKeepsLineNumbers) {
  Source s("a = 1\r\nb = 2\r\nc = $\r\n");
  s.lex();
  EXPECT_NE(s.errors().find("test.tile:3:5: error: invalid character '$'"), std::string::npos)
      << s.errors();
}

TEST(Lexer, BracketsJoinLinesAndIgnoreIndentation) {
  std::vector<K> k = lexKinds("x = f(1,\n        2,\n  3)\ny\n");
  EXPECT_EQ(std::count(k.begin(), k.end(), K::Newline), 2);
  EXPECT_EQ(std::count(k.begin(), k.end(), K::Indent), 0);
}

TEST(Lexer, BackslashContinuation) {
  std::vector<K> k = lexKinds("x = 1 + \\\n      2\n");
  EXPECT_EQ(k, (std::vector<K>{K::Identifier, K::Assign, K::IntLiteral, K::Plus, K::IntLiteral,
                               K::Newline, K::EndOfFile}));
}

TEST(Lexer, UnclosedBracketAtEndOfFile) {
  std::string errors;
  lexKinds("x = f(1, [2,\n", &errors);
  EXPECT_NE(errors.find("1:10: error: '[' was never closed"), std::string::npos) << errors;
}

TEST(Lexer, IntegerLiterals) {
  Source s("0 7 0x1F 0XfF 0o17 0b101 1_000_000 0x_ff 00 9223372036854775807");
  std::vector<Token> t = s.lex();
  ASSERT_EQ(s.errors(), "");
  std::vector<uint64_t> values = {0, 7, 31, 255, 15, 5, 1000000, 255, 0, 9223372036854775807ull};
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(t[i].kind, K::IntLiteral) << i;
    EXPECT_EQ(t[i].intValue, values[i]) << i;
  }
}

TEST(Lexer, FloatLiterals) {
  Source s("1.5 .5 2. 1e3 1E-2 2.5e+1 1_0.2_5 6.02_2e2_3");
  std::vector<Token> t = s.lex();
  ASSERT_EQ(s.errors(), "");
  std::vector<double> values = {1.5, 0.5, 2.0, 1000.0, 0.01, 25.0, 10.25, 6.022e23};
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(t[i].kind, K::FloatLiteral) << i;
    EXPECT_DOUBLE_EQ(t[i].floatValue, values[i]) << i;
  }
}

TEST(Lexer, BadNumericLiterals) {
  struct Case {
    const char *text;
    const char *message;
  } cases[] = {
      {"1__0", "1:2: error: invalid '_' in numeric literal"},
      {"10_", "1:3: error: invalid '_' in numeric literal"},
      {"0x", "1:3: error: expected hexadecimal digits"},
      {"0b102", "1:5: error: invalid suffix '2' on numeric literal"},
      {"12abc", "1:3: error: invalid suffix 'abc' on numeric literal"},
      {"0123", "1:1: error: leading zeros are not allowed"},
      {"1e", "1:2: error: exponent in floating-point literal has no digits"},
      {"1e999", "1:1: error: floating-point literal is out of range"},
      {"18446744073709551616", "1:1: error: integer literal is too large"},
  };
  for (const Case &c : cases) {
    Source s(c.text);
    std::vector<Token> t = s.lex();
    EXPECT_NE(s.errors().find(c.message), std::string::npos) << c.text << "\n" << s.errors();
    EXPECT_EQ(t[0].kind, K::Error) << c.text;
  }
}

TEST(Lexer, Strings) {
  Source s("'a' \"b\\n\\t\\\\\\\"\" '\\x41\\q' \"\"\"line1\nline2\"\"\" '''x'y'''");
  std::vector<Token> t = s.lex();
  ASSERT_EQ(s.errors(), "");
  ASSERT_GE(t.size(), 5u);
  EXPECT_EQ(t[0].stringValue, "a");
  EXPECT_EQ(t[1].stringValue, "b\n\t\\\"");
  EXPECT_EQ(t[2].stringValue, "A\\q");
  EXPECT_EQ(t[3].stringValue, "line1\nline2");
  EXPECT_EQ(t[4].stringValue, "x'y");
}

TEST(Lexer, UnterminatedStrings) {
  Source a("x = 'abc\ny = 1\n");
  a.lex();
  EXPECT_NE(a.errors().find("1:5: error: unterminated string literal"), std::string::npos);
  Source b("x = \"\"\"abc\n\ny = 1\n");
  b.lex();
  EXPECT_NE(b.errors().find("1:5: error: unterminated triple-quoted string"), std::string::npos);
}

TEST(Lexer, OperatorsTakeTheLongestMatch) {
  EXPECT_EQ(lexKinds("a //= b ** c -> d <<= e >>= f != g ... h @ i == j <= k"),
            (std::vector<K>{K::Identifier, K::DoubleSlashAssign, K::Identifier, K::DoubleStar,
                            K::Identifier, K::Arrow, K::Identifier, K::LShiftAssign,
                            K::Identifier, K::RShiftAssign, K::Identifier, K::NotEqual,
                            K::Identifier, K::Ellipsis, K::Identifier, K::At, K::Identifier,
                            K::EqualEqual, K::Identifier, K::LessEqual, K::Identifier,
                            K::Newline, K::EndOfFile}));
}

TEST(Lexer, KeywordsAndIdentifiers) {
  EXPECT_EQ(lexKinds("def return if elif else for in and or not True False None pass _x x1"),
            (std::vector<K>{K::KwDef, K::KwReturn, K::KwIf, K::KwElif, K::KwElse, K::KwFor,
                            K::KwIn, K::KwAnd, K::KwOr, K::KwNot, K::KwTrue, K::KwFalse,
                            K::KwNone, K::KwPass, K::Identifier, K::Identifier, K::Newline,
                            K::EndOfFile}));
}

TEST(Lexer, InvalidBytesAreOneErrorPerRun) {
  Source s(std::string("x = \x01\x02\xff\xfe 1\n"));
  std::vector<Token> t = s.lex();
  std::string e = s.errors();
  EXPECT_NE(e.find("1:5: error: invalid character '\\x01' in source"), std::string::npos) << e;
  EXPECT_EQ(e.find("error", e.find("error") + 1), std::string::npos) << e;
}

TEST(Lexer, NulBytesAreInvalidCharacters) {
  Source s(std::string("x = 1\0\n", 7));
  s.lex();
  EXPECT_NE(s.errors().find("invalid character '\\x00'"), std::string::npos);
}

TEST(Lexer, ErrorFloodIsCapped) {
  Source s(std::string(2000, '$') + "\n" + std::string(200, '\n') +
           [] {
             std::string many;
             for (int i = 0; i < 100; ++i)
               many += "$ x\n";
             return many;
           }());
  s.lex();
  std::string e = s.errors();
  EXPECT_NE(e.find("too many errors emitted, stopping now"), std::string::npos);
  size_t count = 0;
  for (size_t p = e.find(": error:"); p != std::string::npos; p = e.find(": error:", p + 1))
    ++count;
  EXPECT_EQ(count, 20u);
}

TEST(Lexer, TokenLocationsAndText) {
  Source s("abc = 12.5\n  # c\nxyz");
  std::vector<Token> t = s.lex();
  ASSERT_EQ(s.errors(), "");
  EXPECT_EQ(t[0].text, "abc");
  EXPECT_EQ(t[2].text, "12.5");
  auto [line, col] = s.diags.lineAndColumn(t[4].loc);
  EXPECT_EQ(t[4].text, "xyz");
  EXPECT_EQ(line, 3u);
  EXPECT_EQ(col, 1u);
}

} // namespace
