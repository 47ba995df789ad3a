#include "tcc/json.h"

#include "tcc/error.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace tcc {
namespace json {

class Parser {
public:
  Parser(const std::string& text, const std::string& origin) : s_(text), origin_(origin) {}

  Value document() {
    Value v = value(0);
    space();
    if (pos_ != s_.size())
      fail("unexpected text after the JSON value");
    return v;
  }

private:
  const std::string& s_;
  const std::string& origin_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& msg) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw Error("parsing JSON " + origin_,
                msg + " at line " + std::to_string(line) + ", column " + std::to_string(col));
  }

  void space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }

  bool literal(const char* word) {
    size_t n = std::char_traits<char>::length(word);
    if (s_.compare(pos_, n, word) == 0) {
      pos_ += n;
      return true;
    }
    return false;
  }

  Value value(int depth) {
    if (depth > 256)
      fail("nested too deeply");
    space();
    if (pos_ >= s_.size())
      fail("unexpected end of input");
    char c = s_[pos_];
    if (c == '{')
      return object(depth);
    if (c == '[')
      return array(depth);
    if (c == '"')
      return Value(string());
    if (c == '-' || (c >= '0' && c <= '9'))
      return number();
    if (literal("true"))
      return Value(true);
    if (literal("false"))
      return Value(false);
    if (literal("null"))
      return Value();
    fail(std::string("unexpected character '") + c + "'");
  }

  Value object(int depth) {
    Value v = Value::object();
    ++pos_;
    space();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return v;
    }
    while (true) {
      space();
      if (pos_ >= s_.size() || s_[pos_] != '"')
        fail("expected a string key");
      std::string key = string();
      if (v.find(key))
        fail("duplicate key \"" +
             (key.size() <= 120 ? key + "\""
                                : key.substr(0, 100) + "...\" (" + std::to_string(key.size()) +
                                      " characters)"));
      space();
      if (pos_ >= s_.size() || s_[pos_] != ':')
        fail("expected ':'");
      ++pos_;
      v.members_.emplace_back(std::move(key), value(depth + 1));
      space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return v;
      }
      fail("expected ',' or '}'");
    }
  }

  Value array(int depth) {
    Value v = Value::array();
    ++pos_;
    space();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return v;
    }
    while (true) {
      v.items_.push_back(value(depth + 1));
      space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return v;
      }
      fail("expected ',' or ']'");
    }
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size())
      fail("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<unsigned>(c - 'A' + 10);
      else
        fail("bad hex digit in \\u escape");
    }
    return v;
  }

  static void utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string string() {
    ++pos_; // opening quote
    std::string out;
    while (true) {
      if (pos_ >= s_.size())
        fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c < 0x20)
        fail("control character in string");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos_;
        continue;
      }
      ++pos_;
      if (pos_ >= s_.size())
        fail("unterminated escape");
      char e = s_[pos_++];
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned cp = hex4();
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (s_.compare(pos_, 2, "\\u") != 0)
            fail("unpaired surrogate in \\u escape");
          pos_ += 2;
          unsigned lo = hex4();
          if (lo < 0xDC00 || lo > 0xDFFF)
            fail("invalid low surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          fail("unpaired surrogate in \\u escape");
        }
        utf8(out, cp);
        break;
      }
      default:
        --pos_;
        fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  Value number() {
    size_t start = pos_;
    if (s_[pos_] == '-')
      ++pos_;
    auto digits = [&] {
      size_t b = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9')
        ++pos_;
      return pos_ - b;
    };
    size_t intStart = pos_;
    size_t nint = digits();
    if (nint == 0)
      fail("malformed number");
    if (nint > 1 && s_[intStart] == '0')
      fail("leading zero in number");
    bool isInt = true;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      isInt = false;
      if (digits() == 0)
        fail("malformed number");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      isInt = false;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-'))
        ++pos_;
      if (digits() == 0)
        fail("malformed number");
    }
    std::string text = s_.substr(start, pos_ - start);
    Value v;
    v.kind_ = Value::Kind::Number;
    v.num_ = std::strtod(text.c_str(), nullptr);
    if (isInt) {
      errno = 0;
      long long i = std::strtoll(text.c_str(), nullptr, 10);
      if (errno != ERANGE) {
        v.isInt_ = true;
        v.int_ = i;
      }
    }
    return v;
  }
};

Value parse(const std::string& text, const std::string& origin) {
  Parser p(text, origin);
  return p.document();
}

} // namespace json
} // namespace tcc
