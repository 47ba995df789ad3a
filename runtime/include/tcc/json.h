// A small JSON reader and writer, enough for artifact metadata and benchmark results:
// RFC 8259 values, objects keep their key order, integers that fit int64 stay exact.
// Parse errors throw tcc::Error with line and column.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tcc {
namespace json {

class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : kind_(Kind::Bool), bool_(b) {}
  Value(int v) : Value(static_cast<long long>(v)) {}
  Value(long v) : Value(static_cast<long long>(v)) {}
  Value(long long v) : kind_(Kind::Number), isInt_(true), int_(v), num_(static_cast<double>(v)) {}
  Value(unsigned v) : Value(static_cast<long long>(v)) {}
  Value(unsigned long v) : Value(static_cast<long long>(v)) {}
  Value(unsigned long long v) : Value(static_cast<long long>(v)) {}
  Value(double v) : kind_(Kind::Number), num_(v) {}
  Value(const char* s) : kind_(Kind::String), str_(s) {}
  Value(std::string s) : kind_(Kind::String), str_(std::move(s)) {}

  static Value array() {
    Value v;
    v.kind_ = Kind::Array;
    return v;
  }
  static Value object() {
    Value v;
    v.kind_ = Kind::Object;
    return v;
  }

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::Null; }
  bool isBool() const { return kind_ == Kind::Bool; }
  bool isNumber() const { return kind_ == Kind::Number; }
  // A number written without fraction or exponent that fits int64.
  bool isInt() const { return kind_ == Kind::Number && isInt_; }
  bool isString() const { return kind_ == Kind::String; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isObject() const { return kind_ == Kind::Object; }

  bool asBool() const { return bool_; }
  int64_t asInt() const { return int_; }
  double asDouble() const { return num_; }
  const std::string& asString() const { return str_; }
  const std::vector<Value>& items() const { return items_; }
  const std::vector<std::pair<std::string, Value>>& members() const { return members_; }

  // Object lookup: the value of `key`, or nullptr.
  const Value* find(const std::string& key) const;
  // Array append / object insert-or-replace (keeps the first position).
  Value& push(Value v);
  Value& set(const std::string& key, Value v);

  static const char* kindName(Kind k);

private:
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  bool isInt_ = false;
  int64_t int_ = 0;
  double num_ = 0;
  std::string str_;
  std::vector<Value> items_;
  std::vector<std::pair<std::string, Value>> members_;

  friend class Parser;
};

// Parses a whole document (trailing whitespace only). `origin` (a file name) prefixes error
// messages.
Value parse(const std::string& text, const std::string& origin = "<json>");

// Writes `v`; with indent > 0, pretty-printed with that many spaces per level.
std::string write(const Value& v, int indent = 2);

} // namespace json
} // namespace tcc
