// The runtime's JSON reader and writer.
#include "tcc/error.h"
#include "tcc/json.h"

#include <gtest/gtest.h>

using tcc::json::Value;

namespace {

std::string parseError(const std::string& text) {
  try {
    tcc::json::parse(text, "t.json");
  } catch (const tcc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RuntimeJson, ParsesScalars) {
  EXPECT_TRUE(tcc::json::parse("null").isNull());
  EXPECT_TRUE(tcc::json::parse(" true ").asBool());
  EXPECT_FALSE(tcc::json::parse("false").asBool());
  Value i = tcc::json::parse("-9223372036854775808");
  ASSERT_TRUE(i.isInt());
  EXPECT_EQ(i.asInt(), INT64_MIN);
  Value big = tcc::json::parse("18446744073709551616");
  EXPECT_TRUE(big.isNumber());
  EXPECT_FALSE(big.isInt());
  EXPECT_DOUBLE_EQ(big.asDouble(), 18446744073709551616.0);
  Value f = tcc::json::parse("2.5e-3");
  EXPECT_FALSE(f.isInt());
  EXPECT_DOUBLE_EQ(f.asDouble(), 0.0025);
  EXPECT_FALSE(tcc::json::parse("1.0").isInt());
}

TEST(RuntimeJson, ParsesStringsWithEscapes) {
  Value s = tcc::json::parse(R"("a\"b\\c\/d\n\t\u00e9\u20ac\ud83d\ude00")");
  EXPECT_EQ(s.asString(), "a\"b\\c/d\n\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
}

TEST(RuntimeJson, ObjectsKeepOrderAndFind) {
  Value o = tcc::json::parse(R"({"b": 1, "a": [1, 2, {"c": null}], "z": {}})");
  ASSERT_TRUE(o.isObject());
  ASSERT_EQ(o.members().size(), 3u);
  EXPECT_EQ(o.members()[0].first, "b");
  EXPECT_EQ(o.members()[1].first, "a");
  ASSERT_NE(o.find("a"), nullptr);
  EXPECT_EQ(o.find("a")->items().size(), 3u);
  EXPECT_TRUE(o.find("a")->items()[2].find("c")->isNull());
  EXPECT_EQ(o.find("missing"), nullptr);
  EXPECT_TRUE(o.find("z")->isObject());
}

TEST(RuntimeJson, ErrorsSayWhereAndWhat) {
  EXPECT_NE(parseError("{\"a\": 1,}").find("expected a string key"), std::string::npos);
  EXPECT_NE(parseError("[1, 2,]").find("unexpected character ']'"), std::string::npos);
  EXPECT_NE(parseError("{\"a\": 1, \"a\": 2}").find("duplicate key \"a\""), std::string::npos);
  EXPECT_NE(parseError("\"abc").find("unterminated string"), std::string::npos);
  EXPECT_NE(parseError("\"\\x\"").find("bad escape"), std::string::npos);
  EXPECT_NE(parseError("\"\\ud83d\"").find("surrogate"), std::string::npos);
  EXPECT_NE(parseError("012").find("leading zero"), std::string::npos);
  EXPECT_NE(parseError("1.").find("malformed number"), std::string::npos);
  EXPECT_NE(parseError("\"a\nb\"").find("control character"), std::string::npos);
  EXPECT_NE(parseError("{} x").find("unexpected text after"), std::string::npos);
  EXPECT_NE(parseError("").find("unexpected end of input"), std::string::npos);
  EXPECT_NE(parseError(std::string(300, '[')).find("nested too deeply"), std::string::npos);
  std::string e = parseError("{\n  \"a\": tru\n}");
  EXPECT_NE(e.find("t.json"), std::string::npos) << e;
  EXPECT_NE(e.find("line 2, column 8"), std::string::npos) << e;
}

// tcc-fuzz-runtime: -0e2 (the double -0) was written "-0", which reads back as the integer
// 0; a double with an integer value keeps a fraction when written.
TEST(RuntimeJson, DoublesWithIntegerValuesStayDoubles) {
  for (const char *text : {"-0e2", "3.0", "1e2"}) {
    std::string once = tcc::json::write(tcc::json::parse(text));
    Value back = tcc::json::parse(once);
    EXPECT_FALSE(back.isInt()) << text << " -> " << once;
    EXPECT_EQ(tcc::json::write(back), once);
  }
  EXPECT_EQ(tcc::json::write(tcc::json::parse("-0.0")), "-0.0\n");
  EXPECT_EQ(tcc::json::write(tcc::json::parse("7")), "7\n");
}

TEST(RuntimeJson, WriteRoundTrips) {
  Value o = Value::object();
  o.set("name", "vector_add");
  o.set("n", 268435456LL);
  o.set("ratio", 0.1);
  o.set("ok", true);
  o.set("nothing", nullptr);
  Value& list = o.set("list", Value::array());
  list.push(1);
  list.push("two\n\"quoted\"");
  list.push(Value::object());
  for (int indent : {0, 2}) {
    std::string text = tcc::json::write(o, indent);
    Value back = tcc::json::parse(text);
    EXPECT_EQ(tcc::json::write(back, indent), text);
    EXPECT_EQ(back.find("n")->asInt(), 268435456);
    EXPECT_DOUBLE_EQ(back.find("ratio")->asDouble(), 0.1);
    EXPECT_EQ(back.find("list")->items()[1].asString(), "two\n\"quoted\"");
  }
  EXPECT_EQ(tcc::json::write(Value(0.1), 0), "0.1");
  o.set("n", 5); // set replaces in place
  EXPECT_EQ(o.members()[1].second.asInt(), 5);
}

} // namespace
