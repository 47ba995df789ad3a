//===- Parser.h - Tokens to the syntax tree -----------------------------===//
//
// Recursive descent over the lexer's tokens, Python's grammar restricted to
// what kernels need (docs/language.md has the EBNF). On an error the parser
// reports it, skips to the end of the statement (and any block it opened) and
// goes on, so one run reports several independent mistakes. Nesting is bounded
// so that no input can exhaust the stack.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_PARSER_H
#define TCC_FRONTEND_PARSER_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/Token.h"

#include <memory>
#include <vector>

namespace tcc {

class DiagnosticEngine;

class Parser {
public:
  Parser(DiagnosticEngine &diags, std::vector<Token> tokens);

  /// Parses a whole file. Always returns a module; check the engine for errors.
  std::unique_ptr<ast::Module> parseModule();

  /// Parses one expression followed by the end of the input (for -D values and
  /// tests); null after an error. Nodes live in `module`.
  ast::Expr *parseStandaloneExpression(ast::Module &module);

  /// How deeply brackets, unary operators and blocks may nest.
  static constexpr unsigned kMaxNesting = 200;
  /// The tallest expression tree accepted (e.g. `a + a + ... + a`).
  static constexpr unsigned kMaxExprDepth = 256;

private:
  // Top level.
  void parseTopLevel();
  ast::FunctionDef *parseFunction(std::vector<ast::Expr *> decorators);
  bool parseParams(ast::FunctionDef &fn);
  bool parseAnnotation(ast::Annotation &out);
  void parseImport();
  void parseGlobalConstant();

  // Statements.
  bool parseBlock(ast::Block &out, llvm::SMRange owner, llvm::StringRef what);
  void parseStatement(ast::Block &out);
  ast::Stmt *parseIf(bool isElif);
  ast::Stmt *parseFor();
  ast::Stmt *parseWhile();
  bool parseSimpleStatements(ast::Block &out);
  ast::Stmt *parseSimpleStatement();
  bool checkAssignTarget(ast::Expr *target);

  // Expressions.
  ast::Expr *parseExprList(); // a, b, c  -> tuple
  ast::Expr *parseExpr();     // with `x if c else y`
  ast::Expr *parseBinary(unsigned minPrec);
  ast::Expr *parseFactor();
  ast::Expr *parsePower();
  ast::Expr *parsePostfix();
  ast::Expr *parseAtom();
  ast::Expr *parseCallArgs(ast::Expr *callee);
  ast::Expr *parseSubscript(ast::Expr *base);
  ast::Expr *parseSubscriptItem();
  ast::Expr *parseParenthesized();
  ast::Expr *parseDict();
  ast::Expr *finish(ast::Expr *e); // enforces kMaxExprDepth

  // Tokens.
  const Token &tok() const { return tokens[pos]; }
  const Token &peek(unsigned n = 1) const;
  const Token &prev() const { return tokens[pos ? pos - 1 : 0]; }
  bool at(TokenKind k) const { return tok().kind == k; }
  Token consume();
  bool consumeIf(TokenKind k);
  bool expect(TokenKind k, llvm::StringRef context);
  llvm::SMRange rangeFrom(llvm::SMLoc start) const;

  // Errors and recovery.
  void errorAt(const Token &t, const llvm::Twine &message);
  void errorAt(llvm::SMRange range, const llvm::Twine &message);
  void syncToStatementEnd();
  void skipIndentedBlock();
  bool enterNesting();
  void leaveNesting() { --nesting; }

  DiagnosticEngine &diags;
  std::vector<Token> tokens;
  size_t pos = 0;
  ast::Module *module = nullptr;
  unsigned nesting = 0;
  /// Set after an error inside the current statement: further errors in it
  /// would only be consequences of the first.
  bool statementFailed = false;
};

} // namespace tcc

#endif // TCC_FRONTEND_PARSER_H
