// Parser edge cases: precedence, postfix chains, statements and blocks, error recovery,
// nesting limits, empty input.

#include "frontend_test_util.h"

#include "llvm/Support/Casting.h"

#include <gtest/gtest.h>

using namespace tcc;
using namespace tcc::test;

namespace {

/// The S-expression of `expr` parsed on its own; "" after errors.
std::string sexpr(const std::string &expr, std::string *errors = nullptr) {
  Source s(expr);
  ast::Module m;
  Parser p(s.diags, s.lex());
  const ast::Expr *e = p.parseStandaloneExpression(m);
  if (errors)
    *errors = s.errors();
  else
    EXPECT_EQ(s.errors(), "") << expr;
  return e ? ast::toSExpr(e) : "";
}

TEST(Parser, ArithmeticPrecedence) {
  EXPECT_EQ(sexpr("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(sexpr("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(sexpr("(a + b) * c"), "(* (+ a b) c)");
  EXPECT_EQ(sexpr("a // b % c * d"), "(* (% (// a b) c) d)");
  EXPECT_EQ(sexpr("-a ** 2"), "(- (** a 2))");
  EXPECT_EQ(sexpr("a ** -b ** c"), "(** a (- (** b c)))");
  EXPECT_EQ(sexpr("-a * b"), "(* (- a) b)");
}

TEST(Parser, BitwiseComparisonAndLogicalPrecedence) {
  EXPECT_EQ(sexpr("a | b ^ c & d << 1 + e"), "(| a (^ b (& c (<< d (+ 1 e)))))");
  EXPECT_EQ(sexpr("a < b & c"), "(< a (& b c))");
  EXPECT_EQ(sexpr("(a < b) & (c >= d)"), "(& (< a b) (>= c d))");
  EXPECT_EQ(sexpr("not a == b"), "(not (== a b))");
  EXPECT_EQ(sexpr("a and b or not c and d"), "(or (and a b) (and (not c) d))");
  EXPECT_EQ(sexpr("~a + 1"), "(+ (~ a) 1)");
}

TEST(Parser, ConditionalExpression) {
  EXPECT_EQ(sexpr("a if c else b"), "(if c a b)");
  EXPECT_EQ(sexpr("a if c else b if d else e"), "(if c a (if d b e))");
}

TEST(Parser, PostfixChains) {
  EXPECT_EQ(sexpr("tl.load(x + offs, mask=m, other=0.0)"),
            "(call (. tl load) (+ x offs) mask=m other=0)");
  EXPECT_EQ(sexpr("rm[:, None]"), "([] rm (: _ _ _) None)");
  EXPECT_EQ(sexpr("a[1:2:3, ::2]"), "([] a (: 1 2 3) (: _ _ 2))");
  EXPECT_EQ(sexpr("f(x).to(f16)[None, :]"), "([] (call (. (call f x) to) f16) None (: _ _ _))");
  EXPECT_EQ(sexpr("f(a, b,)"), "(call f a b)");
}

TEST(Parser, TuplesListsAndLiterals) {
  EXPECT_EQ(sexpr("(BM, BN)"), "(tuple BM BN)");
  EXPECT_EQ(sexpr("(n,)"), "(tuple n)");
  EXPECT_EQ(sexpr("()"), "(tuple)");
  EXPECT_EQ(sexpr("[1, 2]"), "(list 1 2)");
  EXPECT_EQ(sexpr("'a' \"b\""), "\"ab\"");
  EXPECT_EQ(sexpr("True or None"), "(or True None)");
}

TEST(Parser, ExpressionErrors) {
  std::string errors;
  EXPECT_EQ(sexpr("a < b < c", &errors), "");
  EXPECT_NE(errors.find("1:7: error: chained comparisons"), std::string::npos) << errors;
  EXPECT_EQ(sexpr("f(a=1, 2)", &errors), "");
  EXPECT_NE(errors.find("1:8: error: positional argument follows keyword argument"),
            std::string::npos)
      << errors;
  EXPECT_EQ(sexpr("a is b", &errors), "");
  EXPECT_NE(errors.find("the 'is' operator is not supported"), std::string::npos) << errors;
  EXPECT_EQ(sexpr("x[]", &errors), "");
  EXPECT_NE(errors.find("empty subscript"), std::string::npos) << errors;
  EXPECT_EQ(sexpr("{1, 2}", &errors), "");
  EXPECT_NE(errors.find("1:3: error: expected ':' after a dictionary key (sets are not "
                        "supported)"),
            std::string::npos)
      << errors;
  EXPECT_EQ(sexpr("{'a': 1", &errors), "");
  EXPECT_NE(errors.find("to close the dictionary"), std::string::npos) << errors;
}

TEST(Parser, Dictionaries) {
  EXPECT_EQ(sexpr("{'BLOCK': 1024, 'W': 2 * 4}"), "({} (\"BLOCK\" 1024) (\"W\" (* 2 4)))");
  EXPECT_EQ(sexpr("{}"), "({})");
}

TEST(Parser, DeepNestingIsAnErrorNotACrash) {
  std::string errors;
  std::string deep = std::string(100000, '(') + "1" + std::string(100000, ')');
  EXPECT_EQ(sexpr(deep, &errors), "");
  EXPECT_NE(errors.find("too many nested brackets, operators or blocks (the limit is 200)"),
            std::string::npos);
  EXPECT_EQ(sexpr(std::string(100000, '-') + "1", &errors), "");
  EXPECT_NE(errors.find("too many nested"), std::string::npos);
  // Within the limit is fine.
  EXPECT_EQ(sexpr(std::string(100, '(') + "1" + std::string(100, ')')), "1");
}

TEST(Parser, TallTreesAreAnErrorNotACrash) {
  std::string chain = "a";
  for (int i = 0; i < 10000; ++i)
    chain += " + a";
  std::string errors;
  EXPECT_EQ(sexpr(chain, &errors), "");
  EXPECT_NE(errors.find("expression is too complex"), std::string::npos);
}

TEST(Parser, EmptyModule) {
  Source s("");
  std::unique_ptr<ast::Module> m = s.parse();
  EXPECT_TRUE(m->functions.empty());
  EXPECT_EQ(s.errors(), "");
}

TEST(Parser, FunctionsDecoratorsParameters) {
  Source s("import triton.language as tl\n"
           "from x import y\n"
           "LIMIT = 4\n"
           "@kernel(grid=(cdiv(n, B),), num_warps=4)\n"
           "def k(x: *f32, n: i32, B: constexpr = 128, p: **i8 = 0) -> None:\n"
           "    pass\n"
           "def helper(a, b=2):\n"
           "    return a, b\n");
  std::unique_ptr<ast::Module> m = s.parse();
  ASSERT_EQ(s.errors(), "");
  ASSERT_EQ(m->functions.size(), 2u);
  ASSERT_EQ(m->constants.size(), 1u);
  EXPECT_EQ(m->constants[0].name, "LIMIT");
  const ast::FunctionDef &k = *m->functions[0];
  EXPECT_EQ(k.name, "k");
  ASSERT_EQ(k.decorators.size(), 1u);
  EXPECT_EQ(ast::toSExpr(k.decorators[0]),
            "(call kernel grid=(tuple (call cdiv n B)) num_warps=4)");
  ASSERT_EQ(k.params.size(), 4u);
  EXPECT_EQ(k.params[0].annotation.pointerDepth, 1u);
  EXPECT_EQ(k.params[0].annotation.name, "f32");
  EXPECT_EQ(k.params[2].annotation.name, "constexpr");
  EXPECT_EQ(ast::toSExpr(k.params[2].defaultValue), "128");
  EXPECT_EQ(k.params[3].annotation.pointerDepth, 2u);
  const ast::FunctionDef &h = *m->functions[1];
  EXPECT_TRUE(h.decorators.empty());
  EXPECT_FALSE(h.params[0].annotation.present());
  ASSERT_EQ(h.body.size(), 1u);
  auto *ret = llvm::dyn_cast<ast::ReturnStmt>(h.body[0]);
  ASSERT_NE(ret, nullptr);
  EXPECT_EQ(ast::toSExpr(ret->value), "(tuple a b)");
}

TEST(Parser, StatementsAndBlocks) {
  Source s("def f(n):\n"
           "    a, b = 1, 2\n"
           "    a += 3; b -= 1\n"
           "    for i in range(0, n):\n"
           "        if i > 2:\n"
           "            pass\n"
           "        elif i == 1:\n"
           "            a = 0\n"
           "        else:\n"
           "            b = 0\n"
           "    if n: a = 5\n"
           "    return a\n");
  std::unique_ptr<ast::Module> m = s.parse();
  ASSERT_EQ(s.errors(), "");
  const ast::Block &body = m->functions[0]->body;
  ASSERT_EQ(body.size(), 6u);
  EXPECT_TRUE(llvm::isa<ast::AssignStmt>(body[0]));
  EXPECT_TRUE(llvm::isa<ast::AugAssignStmt>(body[1]));
  EXPECT_TRUE(llvm::isa<ast::AugAssignStmt>(body[2]));
  auto *loop = llvm::dyn_cast<ast::ForStmt>(body[3]);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->target->name, "i");
  ASSERT_EQ(loop->body.size(), 1u);
  auto *ifs = llvm::dyn_cast<ast::IfStmt>(loop->body[0]);
  ASSERT_NE(ifs, nullptr);
  ASSERT_EQ(ifs->elseBody.size(), 1u);
  auto *elif = llvm::dyn_cast<ast::IfStmt>(ifs->elseBody[0]);
  ASSERT_NE(elif, nullptr);
  EXPECT_TRUE(elif->isElif);
  EXPECT_EQ(elif->elseBody.size(), 1u);
  auto *oneLine = llvm::dyn_cast<ast::IfStmt>(body[4]);
  ASSERT_NE(oneLine, nullptr);
  EXPECT_EQ(oneLine->thenBody.size(), 1u);
}

TEST(Parser, RecoversAndReportsSeveralErrors) {
  Source s("def f(n):\n"
           "    if n > 0\n"          // missing ':'
           "        a = 1\n"
           "    b = (1 + )\n"        // bad expression
           "    c = 2 = 3\n"         // chained assignment
           "    x[0] = 1\n"          // subscript target
           "    d = 4\n");
  std::unique_ptr<ast::Module> m = s.parse();
  std::string e = s.errors();
  EXPECT_NE(e.find("2:13: error: expected ':' after the condition"), std::string::npos) << e;
  EXPECT_NE(e.find("4:14: error: expected an expression, found ')'"), std::string::npos) << e;
  EXPECT_NE(e.find("5:11: error: chained assignment"), std::string::npos) << e;
  EXPECT_NE(e.find("6:5: error: cannot assign to a subscript"), std::string::npos) << e;
  EXPECT_EQ(s.diags.errorCount(), 4u) << e;
  // The last statement still parsed.
  ASSERT_EQ(m->functions.size(), 1u);
  EXPECT_FALSE(m->functions[0]->body.empty());
}

TEST(Parser, IndentationErrors) {
  Source a("def f():\nx = 1\n");
  a.parse();
  EXPECT_NE(a.errors().find("2:1: error: expected an indented block after the function "
                            "definition on line 1"),
            std::string::npos)
      << a.errors();
  Source b("def f():\n    x = 1\n        y = 2\n    z = 3\n");
  b.parse();
  EXPECT_NE(b.errors().find("3:9: error: unexpected indent"), std::string::npos) << b.errors();
  EXPECT_EQ(b.diags.errorCount(), 1u);
}

TEST(Parser, DeeplyNestedBlocksAreBounded) {
  std::string text = "def f(n):\n";
  for (int i = 0; i < 150; ++i)
    text += std::string(4 * (i + 1), ' ') + "if n:\n";
  text += std::string(4 * 151, ' ') + "pass\n";
  Source s(text);
  s.parse();
  EXPECT_TRUE(s.diags.hasErrors());
  EXPECT_NE(s.errors().find("too many levels of indentation"), std::string::npos);
}

TEST(Parser, UnsupportedStatementsAreNamed) {
  Source s("def f(n):\n"
           "    with n:\n"
           "        pass\n"
           "    assert n\n"
           "    lambda: 1\n"
           "    def g():\n"
           "        pass\n");
  s.parse();
  std::string e = s.errors();
  EXPECT_NE(e.find("2:5: error: 'with' statements are not supported"), std::string::npos) << e;
  EXPECT_NE(e.find("4:5: error: 'assert' is not supported; use static_assert"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("5:5: error: 'lambda' is not supported"), std::string::npos) << e;
  EXPECT_NE(e.find("6:5: error: nested function definitions are not supported"),
            std::string::npos)
      << e;
}

} // namespace
