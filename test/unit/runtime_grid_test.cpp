// The grid-expression language shared by the compiler and the runtime (tcc/grid_expr.h).
#include "tcc/grid_expr.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>

namespace {

struct Env {
  std::vector<std::string> names = {"n", "m", "BLOCK"};
  std::vector<int64_t> values = {1000, -7, 128};
};

// Parses, binds against `env` and evaluates; on error returns the message in *error.
bool eval(const std::string& text, int64_t* out, std::string* error, const Env& env = Env()) {
  tcc::grid::Expr e;
  if (!tcc::grid::parse(text, &e, error))
    return false;
  auto slotOf = [&](const std::string& name) -> int {
    for (size_t i = 0; i < env.names.size(); ++i)
      if (env.names[i] == name)
        return static_cast<int>(i);
    return -1;
  };
  if (!tcc::grid::bind(&e, slotOf, error))
    return false;
  return tcc::grid::evaluate(e, env.values.data(), out, error);
}

int64_t value(const std::string& text) {
  int64_t v = 0;
  std::string err;
  EXPECT_TRUE(eval(text, &v, &err)) << text << ": " << err;
  return v;
}

std::string error(const std::string& text) {
  int64_t v = 0;
  std::string err;
  EXPECT_FALSE(eval(text, &v, &err)) << text << " evaluated to " << v;
  return err;
}

TEST(RuntimeGrid, Arithmetic) {
  EXPECT_EQ(value("1"), 1);
  EXPECT_EQ(value("n"), 1000);
  EXPECT_EQ(value("1 + 2 * 3"), 7);
  EXPECT_EQ(value("(1 + 2) * 3"), 9);
  EXPECT_EQ(value("10 - 4 - 3"), 3);
  EXPECT_EQ(value("100 // 10 // 3"), 3);
  EXPECT_EQ(value("-n + 1"), -999);
  EXPECT_EQ(value("--3"), 3);
  EXPECT_EQ(value("  n//BLOCK  "), 7);
  EXPECT_EQ(value("min(n, 5) + max(m, 2)"), 7);
  EXPECT_EQ(value("cdiv(n, BLOCK) * 2 % 5"), 1);
  EXPECT_EQ(value("9223372036854775807"), std::numeric_limits<int64_t>::max());
}

TEST(RuntimeGrid, DivisionFollowsC) {
  // Truncation toward zero, remainder with the dividend's sign (docs/ir.md).
  EXPECT_EQ(value("m // 2"), -3);
  EXPECT_EQ(value("m % 2"), -1);
  EXPECT_EQ(value("7 // -2"), -3);
  EXPECT_EQ(value("7 % -2"), 1);
  EXPECT_EQ(value("m % -1"), 0);
}

TEST(RuntimeGrid, CdivIsTheExactCeiling) {
  EXPECT_EQ(value("cdiv(0, 1024)"), 0);
  EXPECT_EQ(value("cdiv(1, 1024)"), 1);
  EXPECT_EQ(value("cdiv(1024, 1024)"), 1);
  EXPECT_EQ(value("cdiv(1025, 1024)"), 2);
  EXPECT_EQ(value("cdiv(268435456, 1024)"), 262144);
  EXPECT_EQ(value("cdiv(m, 2)"), -3);  // ceil(-3.5)
  EXPECT_EQ(value("cdiv(7, -2)"), -3); // ceil(-3.5)
  EXPECT_EQ(value("cdiv(-8, -2)"), 4);
  EXPECT_EQ(value("cdiv(-7, -2)"), 4); // ceil(3.5)
  EXPECT_EQ(value("cdiv(9223372036854775807, 2)"), 4611686018427387904);
}

TEST(RuntimeGrid, SyntaxErrors) {
  EXPECT_NE(error("n / 2").find("write '//'"), std::string::npos);
  EXPECT_NE(error("foo(n, 2)").find("unknown function 'foo'"), std::string::npos);
  EXPECT_NE(error("cdiv(n)").find("takes two arguments"), std::string::npos);
  EXPECT_NE(error("(n + 1").find("expected ')'"), std::string::npos);
  EXPECT_NE(error("n 1").find("unexpected '1'"), std::string::npos);
  EXPECT_NE(error("").find("expected a number"), std::string::npos);
  EXPECT_NE(error("n +").find("expected a number"), std::string::npos);
  EXPECT_NE(error("12abc").find("malformed number"), std::string::npos);
  EXPECT_NE(error("9223372036854775808").find("out of range"), std::string::npos);
  EXPECT_NE(error(std::string(100, '(') + "1" + std::string(100, ')')).find("nested too deeply"),
            std::string::npos);
  std::string e = error("n $ 2");
  EXPECT_NE(e.find("'n $ 2'"), std::string::npos) << e;
  EXPECT_NE(e.find("column 3"), std::string::npos) << e;
}

TEST(RuntimeGrid, UnknownNames) {
  EXPECT_NE(error("cdiv(N, 128)").find("unknown name 'N'"), std::string::npos);
}

TEST(RuntimeGrid, EvaluationErrors) {
  EXPECT_NE(error("n // (m + 7)").find("divides by zero"), std::string::npos);
  EXPECT_NE(error("n % 0").find("remainder by zero"), std::string::npos);
  EXPECT_NE(error("cdiv(n, 0)").find("divides by zero"), std::string::npos);
  EXPECT_NE(error("9223372036854775807 + 1").find("overflows"), std::string::npos);
  EXPECT_NE(error("3037000500 * 3037000500").find("overflows"), std::string::npos);
  EXPECT_NE(error("(-9223372036854775807 - 1) // -1").find("overflows"), std::string::npos);
  EXPECT_NE(error("-(-9223372036854775807 - 1)").find("overflows"), std::string::npos);
}

TEST(RuntimeGrid, NamesAndCxx) {
  tcc::grid::Expr e;
  std::string err;
  ASSERT_TRUE(tcc::grid::parse("cdiv(n, BLOCK) + n * -2", &e, &err)) << err;
  EXPECT_EQ(tcc::grid::names(e), (std::vector<std::string>{"n", "BLOCK"}));
  std::string cxx = tcc::grid::toCxx(e, "g.", [](const std::string& n) { return "v_" + n; });
  EXPECT_EQ(cxx, "g.add(g.cdiv(v_n, v_BLOCK), g.mul(v_n, g.neg(INT64_C(2))))");
}

// parseWithValues / evaluateWithValues: names bound by value through a lookup (the form the
// runtime's argument specifications and tcc-tune use).
std::optional<int64_t> lookup(const std::string& name) {
  Env env;
  for (size_t i = 0; i < env.names.size(); ++i)
    if (env.names[i] == name)
      return env.values[i];
  return std::nullopt;
}

TEST(RuntimeGrid, ValuesByName) {
  int64_t v = 0;
  std::string err;
  EXPECT_TRUE(tcc::grid::evaluateWithValues("cdiv(n, BLOCK) - m", lookup, &v, &err)) << err;
  EXPECT_EQ(v, 15);
  // The same messages as parse, bind and evaluate give.
  EXPECT_FALSE(tcc::grid::evaluateWithValues("cdiv(N, 128)", lookup, &v, &err));
  EXPECT_EQ(err, error("cdiv(N, 128)"));
  EXPECT_NE(err.find("unknown name 'N'"), std::string::npos) << err;
  EXPECT_FALSE(tcc::grid::evaluateWithValues("n / 2", lookup, &v, &err));
  EXPECT_EQ(err, error("n / 2"));
  EXPECT_FALSE(tcc::grid::evaluateWithValues("n // (m + 7)", lookup, &v, &err));
  EXPECT_EQ(err, error("n // (m + 7)"));
  EXPECT_NE(err.find("divides by zero"), std::string::npos) << err;

  // Parsing and binding alone: one slot per mention, in order, and nothing evaluated yet
  // (tcc-tune tells a name not yet known from an expression that fails to evaluate).
  tcc::grid::Expr e;
  std::vector<int64_t> slots = {99};
  ASSERT_TRUE(tcc::grid::parseWithValues("m * n + n // 0", lookup, &e, &slots, &err)) << err;
  EXPECT_EQ(slots, (std::vector<int64_t>{-7, 1000, 1000}));
  EXPECT_FALSE(tcc::grid::evaluate(e, slots.data(), &v, &err));
  EXPECT_NE(err.find("divides by zero"), std::string::npos) << err;
  EXPECT_FALSE(tcc::grid::parseWithValues("n + K", lookup, &e, &slots, &err));
  EXPECT_NE(err.find("unknown name 'K'"), std::string::npos) << err;
}

TEST(RuntimeGrid, LongExpressionsUseTheHeap) {
  std::string text = "1";
  for (int i = 0; i < 40; ++i)
    text += " + 1";
  EXPECT_EQ(value(text), 41);
}

} // namespace
