//===- Parser.cpp - Tokens to the syntax tree ---------------------------===//

#include "compiler/Frontend/Parser.h"
#include "compiler/Frontend/Diagnostics.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Casting.h"

#include <algorithm>

using namespace tcc;
using namespace tcc::ast;
using llvm::dyn_cast;
using llvm::isa;
using llvm::SMLoc;
using llvm::SMRange;

namespace {
/// Counts nesting for the lifetime of a parsing function; `ok` is false (and
/// an error reported) when the limit was hit.
struct NestingGuard {
  NestingGuard(unsigned &depth, bool ok) : depth(depth), ok(ok) {}
  ~NestingGuard() {
    if (ok)
      --depth;
  }
  unsigned &depth;
  bool ok;
};
} // namespace

Parser::Parser(DiagnosticEngine &diags, std::vector<Token> toks)
    : diags(diags), tokens(std::move(toks)) {
  if (tokens.empty() || tokens.back().kind != TokenKind::EndOfFile) {
    Token eof;
    eof.kind = TokenKind::EndOfFile;
    if (!tokens.empty())
      eof.loc = tokens.back().endLoc();
    tokens.push_back(eof);
  }
}

const Token &Parser::peek(unsigned n) const {
  return tokens[std::min(pos + n, tokens.size() - 1)];
}

Token Parser::consume() {
  Token t = tokens[pos];
  if (pos + 1 < tokens.size())
    ++pos;
  return t;
}

bool Parser::consumeIf(TokenKind k) {
  if (!at(k))
    return false;
  consume();
  return true;
}

SMRange Parser::rangeFrom(SMLoc start) const { return SMRange(start, prev().endLoc()); }

void Parser::errorAt(const Token &t, const llvm::Twine &message) {
  if (statementFailed)
    return;
  statementFailed = true;
  if (t.kind == TokenKind::Error)
    return; // the lexer already said what is wrong here
  SMRange r = t.range();
  if (t.kind == TokenKind::Newline)
    r = SMRange(t.loc, t.loc);
  diags.error(r, message);
}

void Parser::errorAt(SMRange range, const llvm::Twine &message) {
  if (statementFailed)
    return;
  statementFailed = true;
  diags.error(range, message);
}

bool Parser::expect(TokenKind k, llvm::StringRef context) {
  if (consumeIf(k))
    return true;
  errorAt(tok(), "expected " + tokenKindSpelling(k) + (context.empty() ? "" : " ") + context +
                     ", found " + tokenKindSpelling(tok().kind));
  return false;
}

bool Parser::enterNesting() {
  if (nesting >= kMaxNesting) {
    errorAt(tok(), "too many nested brackets, operators or blocks (the limit is " +
                       llvm::Twine(kMaxNesting) + ")");
    return false;
  }
  ++nesting;
  return true;
}

void Parser::skipIndentedBlock() {
  if (!at(TokenKind::Indent))
    return;
  unsigned depth = 0;
  do {
    if (at(TokenKind::Indent))
      ++depth;
    else if (at(TokenKind::Dedent))
      --depth;
    else if (at(TokenKind::EndOfFile))
      return;
    consume();
  } while (depth > 0);
}

void Parser::syncToStatementEnd() {
  while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile) && !at(TokenKind::Dedent) &&
         !at(TokenKind::Indent))
    consume();
  consumeIf(TokenKind::Newline);
  skipIndentedBlock();
}

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseModule() {
  auto result = std::make_unique<Module>();
  module = result.get();
  while (!at(TokenKind::EndOfFile) && !diags.tooManyErrors())
    parseTopLevel();
  module = nullptr;
  return result;
}

Expr *Parser::parseStandaloneExpression(Module &m) {
  module = &m;
  statementFailed = false;
  Expr *e = parseExpr();
  if (e && !at(TokenKind::Newline) && !at(TokenKind::EndOfFile)) {
    errorAt(tok(), "unexpected " + tokenKindSpelling(tok().kind) + " after the expression");
    e = nullptr;
  }
  module = nullptr;
  return e;
}

void Parser::parseTopLevel() {
  statementFailed = false;
  switch (tok().kind) {
  case TokenKind::Newline:
  case TokenKind::Dedent:
    consume();
    return;
  case TokenKind::Indent:
    errorAt(tok(), "unexpected indent");
    skipIndentedBlock();
    return;
  case TokenKind::At: {
    std::vector<Expr *> decorators;
    while (at(TokenKind::At)) {
      consume();
      Expr *d = parsePostfix();
      if (!d || !expect(TokenKind::Newline, "after the decorator")) {
        syncToStatementEnd();
        // Skip the decorated definition too: its meaning depends on the decorator.
        if (at(TokenKind::KwDef))
          syncToStatementEnd();
        return;
      }
      decorators.push_back(d);
    }
    if (!at(TokenKind::KwDef)) {
      errorAt(tok(), "expected 'def' after the decorator, found " +
                         tokenKindSpelling(tok().kind));
      syncToStatementEnd();
      return;
    }
    if (FunctionDef *fn = parseFunction(std::move(decorators)))
      module->functions.push_back(fn);
    return;
  }
  case TokenKind::KwDef:
    if (FunctionDef *fn = parseFunction({}))
      module->functions.push_back(fn);
    return;
  case TokenKind::KwImport:
  case TokenKind::KwFrom:
    parseImport();
    return;
  case TokenKind::Identifier:
    if (peek().is(TokenKind::Assign) || peek().is(TokenKind::Colon)) {
      parseGlobalConstant();
      return;
    }
    [[fallthrough]];
  default:
    errorAt(tok(), "expected a function definition ('def' or '@kernel'), an import or a "
                   "constant at the top level, found " +
                       tokenKindSpelling(tok().kind));
    syncToStatementEnd();
    return;
  }
}

// Imports are accepted so that Triton sources port unchanged, and ignored:
// every builtin is always available, with or without a `tl.` prefix.
void Parser::parseImport() {
  // Ignored, but the names it would bind are kept for diagnostics: `import a.b [as c]`
  // binds a (or c); `from m import x [as y], ...` binds x (or y).
  SMLoc start = tok().loc;
  std::vector<Token> line;
  while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile))
    line.push_back(consume());
  SMRange range = rangeFrom(start);
  consumeIf(TokenKind::Newline);
  size_t i = 0;
  bool from = !line.empty() && line[0].is(TokenKind::KwFrom);
  if (from) {
    while (i < line.size() && !line[i].is(TokenKind::KwImport))
      ++i;
  }
  ++i; // past `import`
  while (i < line.size()) {
    if (line[i].is(TokenKind::LParen) || line[i].is(TokenKind::RParen) ||
        line[i].is(TokenKind::Comma)) {
      ++i;
      continue;
    }
    if (!line[i].is(TokenKind::Identifier))
      return; // `*` or something else: nothing to keep
    std::string bound = line[i].text.str();
    ++i;
    while (!from && i + 1 < line.size() && line[i].is(TokenKind::Dot) &&
           line[i + 1].is(TokenKind::Identifier))
      i += 2; // import a.b.c binds a
    if (i + 1 < line.size() && line[i].is(TokenKind::KwAs) &&
        line[i + 1].is(TokenKind::Identifier)) {
      bound = line[i + 1].text.str();
      i += 2;
    }
    module->imports.push_back({bound, range});
  }
}

void Parser::parseGlobalConstant() {
  GlobalConstant c;
  Token name = consume();
  c.name = name.text.str();
  c.nameRange = name.range();
  if (consumeIf(TokenKind::Colon)) {
    Annotation ignored;
    if (!parseAnnotation(ignored)) {
      syncToStatementEnd();
      return;
    }
  }
  if (!expect(TokenKind::Assign, "in the constant definition")) {
    syncToStatementEnd();
    return;
  }
  c.value = parseExpr();
  if (!c.value || !expect(TokenKind::Newline, "after the constant definition")) {
    syncToStatementEnd();
    return;
  }
  module->constants.push_back(std::move(c));
}

FunctionDef *Parser::parseFunction(std::vector<Expr *> decorators) {
  SMLoc start = tok().loc;
  consume(); // def
  auto *fn = module->make<FunctionDef>();
  fn->decorators = std::move(decorators);
  if (!at(TokenKind::Identifier)) {
    errorAt(tok(), "expected a function name after 'def', found " +
                       tokenKindSpelling(tok().kind));
    syncToStatementEnd();
    return nullptr;
  }
  Token name = consume();
  fn->name = name.text.str();
  fn->nameRange = name.range();
  if (!expect(TokenKind::LParen, "after the function name") || !parseParams(*fn)) {
    syncToStatementEnd();
    return nullptr;
  }
  if (consumeIf(TokenKind::Arrow) && !consumeIf(TokenKind::KwNone)) {
    Annotation ignored; // return types are inferred; the annotation is documentation
    if (!parseAnnotation(ignored)) {
      syncToStatementEnd();
      return nullptr;
    }
  }
  if (!expect(TokenKind::Colon, "after the function signature")) {
    syncToStatementEnd();
    return nullptr;
  }
  fn->headerRange = rangeFrom(start);
  if (!parseBlock(fn->body, fn->headerRange, "function definition"))
    return nullptr;
  return fn;
}

bool Parser::parseParams(FunctionDef &fn) {
  llvm::StringSet<> seen;
  while (!at(TokenKind::RParen)) {
    if (at(TokenKind::Star) || at(TokenKind::DoubleStar)) {
      errorAt(tok(), "variadic parameters ('*args', '**kwargs') are not supported");
      return false;
    }
    if (!at(TokenKind::Identifier)) {
      errorAt(tok(), "expected a parameter name, found " + tokenKindSpelling(tok().kind));
      return false;
    }
    Param p;
    Token name = consume();
    p.name = name.text.str();
    p.nameRange = name.range();
    if (!seen.insert(p.name).second) {
      errorAt(name, "duplicate parameter '" + p.name + "'");
      return false;
    }
    if (consumeIf(TokenKind::Colon) && !parseAnnotation(p.annotation))
      return false;
    if (consumeIf(TokenKind::Assign)) {
      p.defaultValue = parseExpr();
      if (!p.defaultValue)
        return false;
    } else if (!fn.params.empty() && fn.params.back().defaultValue) {
      errorAt(name, "parameter '" + p.name + "' without a default follows a parameter with one");
      return false;
    }
    fn.params.push_back(std::move(p));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  return expect(TokenKind::RParen, "to close the parameter list");
}

bool Parser::parseAnnotation(Annotation &out) {
  SMLoc start = tok().loc;
  while (at(TokenKind::Star) || at(TokenKind::DoubleStar))
    out.pointerDepth += consume().kind == TokenKind::DoubleStar ? 2 : 1;
  if (!at(TokenKind::Identifier)) {
    errorAt(tok(), "expected a type (such as 'i32', '*f16' or 'constexpr'), found " +
                       tokenKindSpelling(tok().kind));
    return false;
  }
  std::string name = consume().text.str();
  while (at(TokenKind::Dot) && peek().is(TokenKind::Identifier)) {
    consume();
    name += ".";
    name += consume().text.str();
  }
  if (at(TokenKind::LBracket)) {
    errorAt(tok(), "parameterised type annotations are not supported; tile shapes are inferred");
    return false;
  }
  out.name = std::move(name);
  out.range = rangeFrom(start);
  return true;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool Parser::parseBlock(Block &out, SMRange owner, llvm::StringRef what) {
  NestingGuard guard(nesting, enterNesting());
  if (!guard.ok) {
    syncToStatementEnd();
    return false;
  }
  if (!at(TokenKind::Newline)) {
    // `if c: x = 1` -- simple statements on the header's line.
    return parseSimpleStatements(out);
  }
  consume();
  if (!at(TokenKind::Indent)) {
    unsigned line = diags.lineAndColumn(owner.Start).first;
    errorAt(tok(), "expected an indented block after the " + what + " on line " +
                       llvm::Twine(line));
    return false;
  }
  consume();
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile) && !diags.tooManyErrors())
    parseStatement(out);
  consumeIf(TokenKind::Dedent);
  return true;
}

void Parser::parseStatement(Block &out) {
  statementFailed = false;
  Stmt *s = nullptr;
  switch (tok().kind) {
  case TokenKind::Indent: {
    errorAt(tok(), "unexpected indent");
    // Parse the over-indented lines as if they were not, for further errors.
    consume();
    while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile) && !diags.tooManyErrors())
      parseStatement(out);
    consumeIf(TokenKind::Dedent);
    return;
  }
  case TokenKind::Newline:
    consume();
    return;
  case TokenKind::KwIf:
    s = parseIf(/*isElif=*/false);
    break;
  case TokenKind::KwFor:
    s = parseFor();
    break;
  case TokenKind::KwWhile:
    s = parseWhile();
    break;
  case TokenKind::KwElif:
  case TokenKind::KwElse:
    errorAt(tok(), tokenKindSpelling(tok().kind) + " without a matching 'if'");
    syncToStatementEnd();
    return;
  case TokenKind::KwDef:
  case TokenKind::At:
    errorAt(tok(), "nested function definitions are not supported; define helpers at the "
                   "top level");
    syncToStatementEnd();
    if (at(TokenKind::KwDef))
      syncToStatementEnd();
    return;
  case TokenKind::KwClass:
  case TokenKind::KwWith:
  case TokenKind::KwTry:
    errorAt(tok(), tokenKindSpelling(tok().kind) + " statements are not supported in kernels");
    syncToStatementEnd();
    return;
  default:
    parseSimpleStatements(out);
    return;
  }
  if (s)
    out.push_back(s);
}

Stmt *Parser::parseIf(bool isElif) {
  SMLoc start = tok().loc;
  consume(); // if / elif
  Expr *cond = parseExpr();
  if (!cond || !expect(TokenKind::Colon, "after the condition")) {
    syncToStatementEnd();
    while (at(TokenKind::KwElif) || at(TokenKind::KwElse))
      syncToStatementEnd();
    return nullptr;
  }
  SMRange header = rangeFrom(start);
  Block thenBody, elseBody;
  if (!parseBlock(thenBody, header, isElif ? "'elif'" : "'if' statement"))
    return nullptr;
  if (at(TokenKind::KwElif)) {
    statementFailed = false;
    if (Stmt *elif = parseIf(/*isElif=*/true))
      elseBody.push_back(elif);
  } else if (at(TokenKind::KwElse)) {
    statementFailed = false;
    Token elseTok = consume();
    if (!expect(TokenKind::Colon, "after 'else'")) {
      syncToStatementEnd();
      return nullptr;
    }
    if (!parseBlock(elseBody, elseTok.range(), "'else'"))
      return nullptr;
  }
  return module->make<IfStmt>(header, cond, std::move(thenBody), std::move(elseBody), isElif);
}

Stmt *Parser::parseFor() {
  SMLoc start = tok().loc;
  consume(); // for
  if (!at(TokenKind::Identifier)) {
    errorAt(tok(), "expected a loop variable name after 'for', found " +
                       tokenKindSpelling(tok().kind));
    syncToStatementEnd();
    return nullptr;
  }
  Token var = consume();
  if (at(TokenKind::Comma)) {
    errorAt(tok(), "a for loop has exactly one loop variable");
    syncToStatementEnd();
    return nullptr;
  }
  auto *target = module->make<NameExpr>(var.range(), var.text.str());
  if (!expect(TokenKind::KwIn, "after the loop variable")) {
    syncToStatementEnd();
    return nullptr;
  }
  Expr *iter = parseExpr();
  if (!iter || !expect(TokenKind::Colon, "after the loop range")) {
    syncToStatementEnd();
    return nullptr;
  }
  SMRange header = rangeFrom(start);
  Block body;
  if (!parseBlock(body, header, "'for' statement"))
    return nullptr;
  if (at(TokenKind::KwElse)) {
    statementFailed = false;
    errorAt(tok(), "'else' after a for loop is not supported");
    syncToStatementEnd();
  }
  return module->make<ForStmt>(header, target, iter, std::move(body));
}

Stmt *Parser::parseWhile() {
  SMLoc start = tok().loc;
  consume();
  Expr *cond = parseExpr();
  if (!cond || !expect(TokenKind::Colon, "after the condition")) {
    syncToStatementEnd();
    return nullptr;
  }
  SMRange header = rangeFrom(start);
  Block body;
  if (!parseBlock(body, header, "'while' statement"))
    return nullptr;
  return module->make<WhileStmt>(header, cond, std::move(body));
}

bool Parser::parseSimpleStatements(Block &out) {
  while (true) {
    Stmt *s = parseSimpleStatement();
    if (!s) {
      syncToStatementEnd();
      return false;
    }
    out.push_back(s);
    if (!consumeIf(TokenKind::Semicolon))
      break;
    if (at(TokenKind::Newline) || at(TokenKind::EndOfFile))
      break;
  }
  if (consumeIf(TokenKind::Newline) || at(TokenKind::EndOfFile))
    return true;
  errorAt(tok(), "expected end of line after the statement, found " +
                     tokenKindSpelling(tok().kind));
  syncToStatementEnd();
  return false;
}

static bool augAssignOp(TokenKind k, BinaryOp &op) {
  switch (k) {
  case TokenKind::PlusAssign: op = BinaryOp::Add; return true;
  case TokenKind::MinusAssign: op = BinaryOp::Sub; return true;
  case TokenKind::StarAssign: op = BinaryOp::Mul; return true;
  case TokenKind::SlashAssign: op = BinaryOp::Div; return true;
  case TokenKind::DoubleSlashAssign: op = BinaryOp::FloorDiv; return true;
  case TokenKind::PercentAssign: op = BinaryOp::Mod; return true;
  case TokenKind::AmpAssign: op = BinaryOp::BitAnd; return true;
  case TokenKind::PipeAssign: op = BinaryOp::BitOr; return true;
  case TokenKind::CaretAssign: op = BinaryOp::BitXor; return true;
  case TokenKind::LShiftAssign: op = BinaryOp::Shl; return true;
  case TokenKind::RShiftAssign: op = BinaryOp::Shr; return true;
  case TokenKind::DoubleStarAssign: op = BinaryOp::Pow; return true;
  case TokenKind::AtAssign: op = BinaryOp::MatMul; return true;
  default: return false;
  }
}

Stmt *Parser::parseSimpleStatement() {
  SMLoc start = tok().loc;
  switch (tok().kind) {
  case TokenKind::KwPass:
    return module->make<PassStmt>(consume().range());
  case TokenKind::KwBreak:
    return module->make<BreakStmt>(consume().range());
  case TokenKind::KwContinue:
    return module->make<ContinueStmt>(consume().range());
  case TokenKind::KwReturn: {
    consume();
    Expr *value = nullptr;
    if (!at(TokenKind::Newline) && !at(TokenKind::Semicolon) && !at(TokenKind::EndOfFile)) {
      value = parseExprList();
      if (!value)
        return nullptr;
    }
    return module->make<ReturnStmt>(rangeFrom(start), value);
  }
  case TokenKind::KwImport:
  case TokenKind::KwFrom:
    errorAt(tok(), "imports are only allowed at the top level");
    return nullptr;
  case TokenKind::KwAssert:
    errorAt(tok(), "'assert' is not supported; use static_assert(condition, \"message\") "
                   "for compile-time checks");
    return nullptr;
  case TokenKind::KwGlobal:
  case TokenKind::KwDel:
  case TokenKind::KwYield:
  case TokenKind::KwLambda:
    errorAt(tok(), tokenKindSpelling(tok().kind) + " is not supported in kernels");
    return nullptr;
  default:
    break;
  }

  Expr *lhs = parseExprList();
  if (!lhs)
    return nullptr;
  if (at(TokenKind::Assign)) {
    consume();
    if (!checkAssignTarget(lhs))
      return nullptr;
    Expr *value = parseExprList();
    if (!value)
      return nullptr;
    if (at(TokenKind::Assign)) {
      errorAt(tok(), "chained assignment ('a = b = value') is not supported");
      return nullptr;
    }
    return module->make<AssignStmt>(rangeFrom(start), lhs, value);
  }
  BinaryOp op;
  if (augAssignOp(tok().kind, op)) {
    Token opTok = consume();
    auto *name = dyn_cast<NameExpr>(lhs);
    if (!name) {
      errorAt(lhs->range, "the target of '" + opTok.text + "' must be a variable name");
      return nullptr;
    }
    Expr *value = parseExpr();
    if (!value)
      return nullptr;
    return module->make<AugAssignStmt>(rangeFrom(start), name, op, opTok.range(), value);
  }
  if (at(TokenKind::Colon)) {
    // `name: constexpr = value`: Sema checks the annotation and the value.
    auto *name = dyn_cast<NameExpr>(lhs);
    if (!name) {
      errorAt(tok(), "only a variable name can be annotated: 'name: constexpr = value'");
      return nullptr;
    }
    consume();
    Annotation annotation;
    if (!parseAnnotation(annotation))
      return nullptr;
    if (!at(TokenKind::Assign)) {
      errorAt(tok(), "an annotated name needs a value here: '" + name->name + ": " +
                         annotation.name + " = value'");
      return nullptr;
    }
    consume();
    Expr *value = parseExpr();
    if (!value)
      return nullptr;
    auto *assign = module->make<AssignStmt>(rangeFrom(start), lhs, value);
    assign->annotation = annotation;
    return assign;
  }
  return module->make<ExprStmt>(rangeFrom(start), lhs);
}

bool Parser::checkAssignTarget(Expr *target) {
  auto check = [&](Expr *e) {
    if (isa<NameExpr>(e))
      return true;
    if (isa<SubscriptExpr>(e))
      errorAt(e->range, "cannot assign to a subscript: tiles are values, build a new one "
                        "instead (for example with where())");
    else if (isa<AttributeExpr>(e))
      errorAt(e->range, "cannot assign to an attribute");
    else
      errorAt(e->range, "cannot assign to this expression; the target of '=' must be a "
                        "name or a tuple of names");
    return false;
  };
  if (auto *t = dyn_cast<TupleExpr>(target)) {
    for (Expr *e : t->elements)
      if (!check(e))
        return false;
    return true;
  }
  return check(target);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

static unsigned maxDepth(std::initializer_list<const Expr *> children) {
  unsigned d = 0;
  for (const Expr *c : children)
    if (c)
      d = std::max(d, c->depth);
  return d;
}

Expr *Parser::finish(Expr *e) {
  unsigned d = 0;
  switch (e->getKind()) {
  case Expr::Kind::Tuple:
    for (const Expr *c : llvm::cast<TupleExpr>(e)->elements)
      d = std::max(d, c->depth);
    break;
  case Expr::Kind::Unary:
    d = llvm::cast<UnaryExpr>(e)->operand->depth;
    break;
  case Expr::Kind::Binary: {
    auto *b = llvm::cast<BinaryExpr>(e);
    d = maxDepth({b->lhs, b->rhs});
    break;
  }
  case Expr::Kind::Ternary: {
    auto *t = llvm::cast<TernaryExpr>(e);
    d = maxDepth({t->cond, t->thenValue, t->elseValue});
    break;
  }
  case Expr::Kind::Call: {
    auto *c = llvm::cast<CallExpr>(e);
    d = c->callee->depth;
    for (const Expr *a : c->args)
      d = std::max(d, a->depth);
    for (const KeywordArg &k : c->kwargs)
      d = std::max(d, k.value->depth);
    break;
  }
  case Expr::Kind::Attribute:
    d = llvm::cast<AttributeExpr>(e)->base->depth;
    break;
  case Expr::Kind::Subscript: {
    auto *s = llvm::cast<SubscriptExpr>(e);
    d = s->base->depth;
    for (const Expr *i : s->indices)
      d = std::max(d, i->depth);
    break;
  }
  case Expr::Kind::Slice: {
    auto *s = llvm::cast<SliceExpr>(e);
    d = maxDepth({s->lo, s->hi, s->step});
    break;
  }
  case Expr::Kind::Dict:
    for (const auto &[key, value] : llvm::cast<DictExpr>(e)->items)
      d = std::max({d, key->depth, value->depth});
    break;
  default:
    break;
  }
  e->depth = d + 1;
  if (e->depth > kMaxExprDepth) {
    errorAt(e->range, "expression is too complex: its tree is more than " +
                          llvm::Twine(kMaxExprDepth) + " levels deep");
    return nullptr;
  }
  return e;
}

Expr *Parser::parseExprList() {
  SMLoc start = tok().loc;
  Expr *first = parseExpr();
  if (!first || !at(TokenKind::Comma))
    return first;
  std::vector<Expr *> elems{first};
  while (consumeIf(TokenKind::Comma)) {
    if (at(TokenKind::Newline) || at(TokenKind::Assign) || at(TokenKind::Semicolon) ||
        at(TokenKind::EndOfFile) || at(TokenKind::RParen))
      break;
    Expr *e = parseExpr();
    if (!e)
      return nullptr;
    elems.push_back(e);
  }
  return finish(module->make<TupleExpr>(rangeFrom(start), std::move(elems), false));
}

Expr *Parser::parseExpr() {
  NestingGuard guard(nesting, enterNesting());
  if (!guard.ok)
    return nullptr;
  SMLoc start = tok().loc;
  Expr *e = parseBinary(1);
  if (!e || !at(TokenKind::KwIf))
    return e;
  consume();
  Expr *cond = parseBinary(1);
  if (!cond || !expect(TokenKind::KwElse, "in the conditional expression"))
    return nullptr;
  Expr *other = parseExpr();
  if (!other)
    return nullptr;
  return finish(module->make<TernaryExpr>(rangeFrom(start), cond, e, other));
}

/// Binding power of binary operators, Python's order; 0 means not binary.
static unsigned binaryPrecedence(TokenKind k, BinaryOp &op) {
  switch (k) {
  case TokenKind::KwOr: op = BinaryOp::Or; return 1;
  case TokenKind::KwAnd: op = BinaryOp::And; return 2;
  // 3 is unary `not`.
  case TokenKind::Less: op = BinaryOp::Lt; return 4;
  case TokenKind::LessEqual: op = BinaryOp::Le; return 4;
  case TokenKind::Greater: op = BinaryOp::Gt; return 4;
  case TokenKind::GreaterEqual: op = BinaryOp::Ge; return 4;
  case TokenKind::EqualEqual: op = BinaryOp::Eq; return 4;
  case TokenKind::NotEqual: op = BinaryOp::Ne; return 4;
  case TokenKind::Pipe: op = BinaryOp::BitOr; return 5;
  case TokenKind::Caret: op = BinaryOp::BitXor; return 6;
  case TokenKind::Amp: op = BinaryOp::BitAnd; return 7;
  case TokenKind::LShift: op = BinaryOp::Shl; return 8;
  case TokenKind::RShift: op = BinaryOp::Shr; return 8;
  case TokenKind::Plus: op = BinaryOp::Add; return 9;
  case TokenKind::Minus: op = BinaryOp::Sub; return 9;
  case TokenKind::Star: op = BinaryOp::Mul; return 10;
  case TokenKind::Slash: op = BinaryOp::Div; return 10;
  case TokenKind::DoubleSlash: op = BinaryOp::FloorDiv; return 10;
  case TokenKind::Percent: op = BinaryOp::Mod; return 10;
  case TokenKind::At: op = BinaryOp::MatMul; return 10;
  default: return 0;
  }
}

Expr *Parser::parseBinary(unsigned minPrec) {
  SMLoc start = tok().loc;
  Expr *lhs;
  if (at(TokenKind::KwNot)) {
    NestingGuard guard(nesting, enterNesting());
    if (!guard.ok)
      return nullptr;
    Token notTok = consume();
    Expr *operand = parseBinary(4);
    if (!operand)
      return nullptr;
    lhs = finish(module->make<UnaryExpr>(rangeFrom(notTok.loc), UnaryOp::Not, operand));
  } else {
    lhs = parseFactor();
  }
  bool sawComparison = false;
  while (lhs) {
    if (at(TokenKind::KwIs) || at(TokenKind::KwIn) ||
        (at(TokenKind::KwNot) && peek().is(TokenKind::KwIn))) {
      errorAt(tok(), "the " + tokenKindSpelling(tok().kind) + " operator is not supported");
      return nullptr;
    }
    BinaryOp op;
    unsigned prec = binaryPrecedence(tok().kind, op);
    if (prec == 0 || prec < minPrec)
      break;
    if (isComparison(op)) {
      if (sawComparison) {
        errorAt(tok(), "chained comparisons such as 'a < b < c' are not supported; write "
                       "'(a < b) & (b < c)'");
        return nullptr;
      }
      sawComparison = true;
    }
    Token opTok = consume();
    Expr *rhs = parseBinary(prec + 1);
    if (!rhs)
      return nullptr;
    lhs = finish(module->make<BinaryExpr>(rangeFrom(start), op, opTok.range(), lhs, rhs));
  }
  return lhs;
}

Expr *Parser::parseFactor() {
  UnaryOp op;
  switch (tok().kind) {
  case TokenKind::Minus: op = UnaryOp::Neg; break;
  case TokenKind::Plus: op = UnaryOp::Pos; break;
  case TokenKind::Tilde: op = UnaryOp::Invert; break;
  default: return parsePower();
  }
  NestingGuard guard(nesting, enterNesting());
  if (!guard.ok)
    return nullptr;
  Token opTok = consume();
  Expr *operand = parseFactor();
  if (!operand)
    return nullptr;
  return finish(module->make<UnaryExpr>(rangeFrom(opTok.loc), op, operand));
}

Expr *Parser::parsePower() {
  SMLoc start = tok().loc;
  Expr *base = parsePostfix();
  if (!base || !at(TokenKind::DoubleStar))
    return base;
  Token opTok = consume();
  Expr *exponent = parseFactor();
  if (!exponent)
    return nullptr;
  return finish(
      module->make<BinaryExpr>(rangeFrom(start), BinaryOp::Pow, opTok.range(), base, exponent));
}

Expr *Parser::parsePostfix() {
  SMLoc start = tok().loc;
  Expr *e = parseAtom();
  while (e) {
    if (at(TokenKind::LParen)) {
      e = parseCallArgs(e);
    } else if (at(TokenKind::LBracket)) {
      e = parseSubscript(e);
    } else if (at(TokenKind::Dot)) {
      consume();
      if (!at(TokenKind::Identifier)) {
        errorAt(tok(), "expected an attribute name after '.', found " +
                           tokenKindSpelling(tok().kind));
        return nullptr;
      }
      Token name = consume();
      e = finish(module->make<AttributeExpr>(rangeFrom(start), e, name.text.str(),
                                             name.range()));
    } else {
      break;
    }
    if (e)
      e->range.Start = start;
  }
  return e;
}

Expr *Parser::parseCallArgs(Expr *callee) {
  consume(); // (
  std::vector<Expr *> args;
  std::vector<KeywordArg> kwargs;
  while (!at(TokenKind::RParen)) {
    if (at(TokenKind::Star) || at(TokenKind::DoubleStar)) {
      errorAt(tok(), "argument unpacking ('*args', '**kwargs') is not supported");
      return nullptr;
    }
    if (at(TokenKind::Identifier) && peek().is(TokenKind::Assign)) {
      Token name = consume();
      consume(); // =
      for (const KeywordArg &k : kwargs)
        if (k.name == name.text) {
          errorAt(name, "keyword argument '" + name.text + "' repeated");
          return nullptr;
        }
      Expr *value = parseExpr();
      if (!value)
        return nullptr;
      kwargs.push_back({name.text.str(), name.range(), value});
    } else {
      SMLoc argStart = tok().loc;
      Expr *value = parseExpr();
      if (!value)
        return nullptr;
      if (!kwargs.empty()) {
        errorAt(SMRange(argStart, prev().endLoc()),
                "positional argument follows keyword argument");
        return nullptr;
      }
      args.push_back(value);
    }
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RParen, "to close the argument list"))
    return nullptr;
  return finish(module->make<CallExpr>(SMRange(callee->range.Start, prev().endLoc()), callee,
                                       std::move(args), std::move(kwargs)));
}

Expr *Parser::parseSubscript(Expr *base) {
  consume(); // [
  std::vector<Expr *> indices;
  do {
    if (at(TokenKind::RBracket))
      break;
    Expr *i = parseSubscriptItem();
    if (!i)
      return nullptr;
    indices.push_back(i);
  } while (consumeIf(TokenKind::Comma));
  if (!expect(TokenKind::RBracket, "to close the subscript"))
    return nullptr;
  if (indices.empty()) {
    errorAt(prev(), "empty subscript");
    return nullptr;
  }
  return finish(module->make<SubscriptExpr>(SMRange(base->range.Start, prev().endLoc()), base,
                                            std::move(indices)));
}

Expr *Parser::parseSubscriptItem() {
  SMLoc start = tok().loc;
  auto atPartEnd = [&] {
    return at(TokenKind::Colon) || at(TokenKind::Comma) || at(TokenKind::RBracket);
  };
  Expr *lo = nullptr;
  if (!atPartEnd()) {
    lo = parseExpr();
    if (!lo)
      return nullptr;
  }
  if (!at(TokenKind::Colon))
    return lo;
  consume();
  Expr *hi = nullptr, *step = nullptr;
  if (!atPartEnd() && !(hi = parseExpr()))
    return nullptr;
  if (consumeIf(TokenKind::Colon) && !atPartEnd() && !(step = parseExpr()))
    return nullptr;
  return finish(module->make<SliceExpr>(rangeFrom(start), lo, hi, step));
}

Expr *Parser::parseParenthesized() {
  Token open = consume();
  bool isList = open.is(TokenKind::LBracket);
  TokenKind close = isList ? TokenKind::RBracket : TokenKind::RParen;
  std::vector<Expr *> elems;
  bool sawComma = false;
  while (!at(close)) {
    Expr *e = parseExpr();
    if (!e)
      return nullptr;
    elems.push_back(e);
    if (!consumeIf(TokenKind::Comma))
      break;
    sawComma = true;
  }
  if (!expect(close, isList ? "to close the list" : "to close the parenthesis"))
    return nullptr;
  SMRange range = rangeFrom(open.loc);
  if (!isList && elems.size() == 1 && !sawComma) {
    elems[0]->range = range; // keep the parentheses in the range for carets
    return elems[0];
  }
  return finish(module->make<TupleExpr>(range, std::move(elems), isList));
}

Expr *Parser::parseDict() {
  Token open = consume();
  std::vector<std::pair<Expr *, Expr *>> items;
  while (!at(TokenKind::RBrace)) {
    Expr *key = parseExpr();
    if (!key)
      return nullptr;
    if (!at(TokenKind::Colon)) {
      errorAt(tok(), "expected ':' after a dictionary key (sets are not supported), found " +
                         tokenKindSpelling(tok().kind));
      return nullptr;
    }
    consume();
    Expr *value = parseExpr();
    if (!value)
      return nullptr;
    items.push_back({key, value});
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RBrace, "to close the dictionary"))
    return nullptr;
  return finish(module->make<DictExpr>(rangeFrom(open.loc), std::move(items)));
}

Expr *Parser::parseAtom() {
  const Token &t = tok();
  switch (t.kind) {
  case TokenKind::Identifier: {
    Token n = consume();
    return module->make<NameExpr>(n.range(), n.text.str());
  }
  case TokenKind::IntLiteral: {
    Token n = consume();
    return module->make<IntLitExpr>(n.range(), n.intValue);
  }
  case TokenKind::FloatLiteral: {
    Token n = consume();
    return module->make<FloatLitExpr>(n.range(), n.floatValue);
  }
  case TokenKind::StringLiteral: {
    SMLoc start = t.loc;
    std::string value;
    while (at(TokenKind::StringLiteral))
      value += consume().stringValue;
    return module->make<StringLitExpr>(rangeFrom(start), std::move(value));
  }
  case TokenKind::KwTrue:
  case TokenKind::KwFalse: {
    Token n = consume();
    return module->make<BoolLitExpr>(n.range(), n.is(TokenKind::KwTrue));
  }
  case TokenKind::KwNone:
    return module->make<NoneLitExpr>(consume().range());
  case TokenKind::LParen:
  case TokenKind::LBracket:
    return parseParenthesized();
  case TokenKind::LBrace:
    return parseDict();
  case TokenKind::KwLambda:
    errorAt(t, "lambda expressions are not supported; define a helper function");
    return nullptr;
  default:
    errorAt(t, "expected an expression, found " + tokenKindSpelling(t.kind));
    return nullptr;
  }
}
