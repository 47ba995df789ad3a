// The grid-expression language shared by the compiler (which writes grid expressions into
// artifacts and translates them into C++ for generated headers) and the runtime (which
// evaluates them at launch time). Header-only and exception-free, so that the compiler,
// built with -fno-exceptions, can use the very same parser.
//
// Grammar (docs/ir.md):  expr   := term (('+' | '-') term)*
//                         term   := unary (('*' | '//' | '%') unary)*
//                         unary  := '-' unary | primary
//                         primary:= INT | NAME | FN '(' expr ',' expr ')' | '(' expr ')'
//                         FN     := cdiv | min | max
// Arithmetic is on int64 with C semantics: '//' truncates toward zero, '%' takes the sign of
// the dividend. cdiv(a, b) is the exact ceiling of a / b. Division by zero and overflow are
// errors, never undefined behaviour.
#pragma once

#include "identifier.h" // beside this header: its users need no include path

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tcc {
namespace grid {

enum class Op : uint8_t { Lit, Name, Neg, Add, Sub, Mul, Div, Mod, Cdiv, Min, Max };

struct Node {
  Op op = Op::Lit;
  int64_t value = 0; // Lit: the literal; Name: the slot it was bound to (-1 before binding)
  int lhs = -1;      // operand node indices (Neg uses lhs only)
  int rhs = -1;
  std::string name;  // Name only
};

// A parsed expression: nodes in post-order, so evaluation is one forward sweep; the root
// is the last node.
struct Expr {
  std::vector<Node> nodes;
  std::string text;
  bool empty() const { return nodes.empty(); }
};

// ---- checked int64 arithmetic (false on overflow or division by zero) ----------------

inline bool add(int64_t a, int64_t b, int64_t* r) { return !__builtin_add_overflow(a, b, r); }
inline bool sub(int64_t a, int64_t b, int64_t* r) { return !__builtin_sub_overflow(a, b, r); }
inline bool mul(int64_t a, int64_t b, int64_t* r) { return !__builtin_mul_overflow(a, b, r); }
inline bool div(int64_t a, int64_t b, int64_t* r) {
  if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
    return false;
  *r = a / b;
  return true;
}
inline bool mod(int64_t a, int64_t b, int64_t* r) {
  if (b == 0)
    return false;
  *r = (b == -1) ? 0 : a % b;
  return true;
}
inline bool cdiv(int64_t a, int64_t b, int64_t* r) {
  int64_t q;
  if (!div(a, b, &q))
    return false;
  // Truncation rounded toward zero; the exact quotient is above q when the remainder is
  // non-zero and the signs agree.
  if (a % b != 0 && ((a < 0) == (b < 0)))
    ++q;
  *r = q;
  return true;
}

// ---- parsing -------------------------------------------------------------------------

namespace detail {
// An expression as messages quote it: whole up to 120 characters, otherwise its first 100
// and its length (a message must stay readable whatever the metadata holds).
inline std::string quoteExpr(std::string_view text) {
  if (text.size() <= 120)
    return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, 100)) + "...' (" + std::to_string(text.size()) +
         " characters)";
}
} // namespace detail

namespace detail {

class Parser {
public:
  Parser(std::string_view text, Expr* out, std::string* error)
      : s_(text), out_(out), error_(error) {}

  bool run() {
    int root = parseExpr();
    if (root < 0)
      return false;
    skipSpace();
    if (pos_ != s_.size())
      return fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return true;
  }

private:
  std::string_view s_;
  size_t pos_ = 0;
  Expr* out_;
  std::string* error_;
  int depth_ = 0;

  bool fail(const std::string& msg) {
    if (error_)
      *error_ = "grid expression " + quoteExpr(s_) + ": " + msg + " at column " +
                std::to_string(pos_ + 1);
    return false;
  }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t'))
      ++pos_;
  }
  bool peek(char c) {
    skipSpace();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  bool peek2(const char* two) {
    skipSpace();
    return pos_ + 1 < s_.size() && s_[pos_] == two[0] && s_[pos_ + 1] == two[1];
  }
  int emit(Node n) {
    out_->nodes.push_back(std::move(n));
    return static_cast<int>(out_->nodes.size()) - 1;
  }
  int binary(Op op, int l, int r) {
    Node n;
    n.op = op;
    n.lhs = l;
    n.rhs = r;
    return emit(std::move(n));
  }

  int parseExpr() {
    if (++depth_ > 64) {
      fail("nested too deeply");
      return -1;
    }
    int l = parseTerm();
    while (l >= 0) {
      Op op;
      if (peek('+'))
        op = Op::Add;
      else if (peek('-'))
        op = Op::Sub;
      else
        break;
      ++pos_;
      int r = parseTerm();
      if (r < 0)
        return -1;
      l = binary(op, l, r);
    }
    --depth_;
    return l;
  }

  int parseTerm() {
    int l = parseUnary();
    while (l >= 0) {
      Op op;
      if (peek2("//")) {
        op = Op::Div;
        pos_ += 2;
      } else if (peek('/')) {
        fail("'/' is not integer division: write '//'");
        return -1;
      } else if (peek('*')) {
        op = Op::Mul;
        ++pos_;
      } else if (peek('%')) {
        op = Op::Mod;
        ++pos_;
      } else {
        break;
      }
      int r = parseUnary();
      if (r < 0)
        return -1;
      l = binary(op, l, r);
    }
    return l;
  }

  int parseUnary() {
    if (peek('-')) {
      ++pos_;
      if (++depth_ > 64) {
        fail("nested too deeply");
        return -1;
      }
      int v = parseUnary();
      --depth_;
      if (v < 0)
        return -1;
      Node n;
      n.op = Op::Neg;
      n.lhs = v;
      return emit(std::move(n));
    }
    return parsePrimary();
  }

  static bool isIdentStart(char c) { return isIdentifierStart(c); }
  static bool isIdent(char c) { return isIdentifierChar(c); }

  int parsePrimary() {
    skipSpace();
    if (pos_ >= s_.size()) {
      fail("expected a number, a name or '('");
      return -1;
    }
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      int v = parseExpr();
      if (v < 0)
        return -1;
      if (!peek(')')) {
        fail("expected ')'");
        return -1;
      }
      ++pos_;
      return v;
    }
    if (c >= '0' && c <= '9') {
      uint64_t v = 0;
      size_t start = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        v = v * 10 + static_cast<uint64_t>(s_[pos_] - '0');
        if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          pos_ = start;
          fail("integer literal out of range");
          return -1;
        }
        ++pos_;
      }
      if (pos_ < s_.size() && isIdentStart(s_[pos_])) {
        fail("malformed number");
        return -1;
      }
      Node n;
      n.op = Op::Lit;
      n.value = static_cast<int64_t>(v);
      return emit(std::move(n));
    }
    if (isIdentStart(c)) {
      size_t start = pos_;
      while (pos_ < s_.size() && isIdent(s_[pos_]))
        ++pos_;
      std::string name(s_.substr(start, pos_ - start));
      if (peek('(')) {
        Op op;
        if (name == "cdiv")
          op = Op::Cdiv;
        else if (name == "min")
          op = Op::Min;
        else if (name == "max")
          op = Op::Max;
        else {
          pos_ = start;
          fail("unknown function '" + name + "' (cdiv, min and max exist)");
          return -1;
        }
        ++pos_;
        int a = parseExpr();
        if (a < 0)
          return -1;
        if (!peek(',')) {
          fail("expected ',': " + name + " takes two arguments");
          return -1;
        }
        ++pos_;
        int b = parseExpr();
        if (b < 0)
          return -1;
        if (!peek(')')) {
          fail("expected ')': " + name + " takes two arguments");
          return -1;
        }
        ++pos_;
        return binary(op, a, b);
      }
      Node n;
      n.op = Op::Name;
      n.value = -1;
      n.name = std::move(name);
      return emit(std::move(n));
    }
    fail("expected a number, a name or '('");
    return -1;
  }
};

} // namespace detail

// Parses `text`; on failure returns false and describes the problem (with its column) in
// *error.
inline bool parse(std::string_view text, Expr* out, std::string* error) {
  out->nodes.clear();
  out->text = std::string(text);
  detail::Parser p(text, out, error);
  if (!p.run()) {
    out->nodes.clear();
    return false;
  }
  return true;
}

// Binds every name to a slot via `slotOf(name) -> int` (negative: unknown). On an unknown
// name returns false and names it in *error.
template <typename SlotOf>
bool bind(Expr* e, SlotOf&& slotOf, std::string* error) {
  for (Node& n : e->nodes) {
    if (n.op != Op::Name)
      continue;
    int slot = slotOf(n.name);
    if (slot < 0) {
      if (error)
        *error = "grid expression " + detail::quoteExpr(e->text) + ": unknown name '" +
                 n.name.substr(0, 100) + "'";
      return false;
    }
    n.value = slot;
  }
  return true;
}

// Evaluates a bound expression with slot values `slots`. On division by zero or overflow
// returns false and describes it in *error.
inline bool evaluate(const Expr& e, const int64_t* slots, int64_t* result, std::string* error) {
  // Post-order: each node's operands come before it, so one array of results suffices.
  int64_t small[32];
  std::vector<int64_t> big;
  int64_t* v = small;
  if (e.nodes.size() > 32) {
    big.resize(e.nodes.size());
    v = big.data();
  }
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const Node& n = e.nodes[i];
    int64_t a = n.lhs >= 0 ? v[n.lhs] : 0;
    int64_t b = n.rhs >= 0 ? v[n.rhs] : 0;
    bool ok = true;
    const char* what = "overflows int64";
    switch (n.op) {
    case Op::Lit:
      v[i] = n.value;
      break;
    case Op::Name:
      v[i] = slots[n.value];
      break;
    case Op::Neg:
      ok = sub(0, a, &v[i]);
      break;
    case Op::Add:
      ok = add(a, b, &v[i]);
      break;
    case Op::Sub:
      ok = sub(a, b, &v[i]);
      break;
    case Op::Mul:
      ok = mul(a, b, &v[i]);
      break;
    case Op::Div:
      ok = div(a, b, &v[i]);
      if (!ok && b == 0)
        what = "divides by zero";
      break;
    case Op::Mod:
      ok = mod(a, b, &v[i]);
      if (!ok)
        what = "takes a remainder by zero";
      break;
    case Op::Cdiv:
      ok = cdiv(a, b, &v[i]);
      if (!ok && b == 0)
        what = "divides by zero (cdiv)";
      break;
    case Op::Min:
      v[i] = a < b ? a : b;
      break;
    case Op::Max:
      v[i] = a < b ? b : a;
      break;
    }
    if (!ok) {
      if (error)
        *error = "grid expression " + detail::quoteExpr(e.text) + " " + what;
      return false;
    }
  }
  if (e.nodes.empty()) {
    if (error)
      *error = "empty grid expression";
    return false;
  }
  *result = v[e.nodes.size() - 1];
  return true;
}

// Parses `text` and binds each name it mentions to the value `valueOf(name) ->
// std::optional<int64_t>` gives (none: an unknown name), appending the values to *slots so
// that evaluate(*e, slots->data(), ...) computes it. False with the reason in *error on a
// syntax error or an unknown name.
template <typename ValueOf>
bool parseWithValues(std::string_view text, ValueOf&& valueOf, Expr* e,
                     std::vector<int64_t>* slots, std::string* error) {
  slots->clear();
  return parse(text, e, error) && bind(
                                      e,
                                      [&](const std::string& name) -> int {
                                        std::optional<int64_t> v = valueOf(name);
                                        if (!v)
                                          return -1;
                                        slots->push_back(*v);
                                        return static_cast<int>(slots->size() - 1);
                                      },
                                      error);
}

// Parses `text`, binds its names through `valueOf` (as parseWithValues) and evaluates it
// into *result; false with the reason in *error on a syntax error, an unknown name,
// division by zero or overflow.
template <typename ValueOf>
bool evaluateWithValues(std::string_view text, ValueOf&& valueOf, int64_t* result,
                        std::string* error) {
  Expr e;
  std::vector<int64_t> slots;
  return parseWithValues(text, valueOf, &e, &slots, error) &&
         evaluate(e, slots.data(), result, error);
}

// Renders the expression as a C++ expression of type int64_t in which each operation is a
// call to a checked helper: `helper` is the prefix of those helpers (e.g. "::tcc::gx::",
// giving "::tcc::gx::cdiv(a, b)"; helpers: neg add sub mul div mod cdiv min max), and
// `nameToCxx(name)` renders a name as an int64_t-valued C++ expression.
template <typename NameToCxx>
std::string toCxx(const Expr& e, const std::string& helper, NameToCxx&& nameToCxx) {
  std::vector<std::string> s(e.nodes.size());
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const Node& n = e.nodes[i];
    auto call = [&](const char* fn) {
      std::string r = helper + fn + "(" + s[n.lhs];
      if (n.rhs >= 0)
        r += ", " + s[n.rhs];
      return r + ")";
    };
    switch (n.op) {
    case Op::Lit:
      s[i] = "INT64_C(" + std::to_string(n.value) + ")";
      break;
    case Op::Name:
      s[i] = nameToCxx(n.name);
      break;
    case Op::Neg:
      s[i] = call("neg");
      break;
    case Op::Add:
      s[i] = call("add");
      break;
    case Op::Sub:
      s[i] = call("sub");
      break;
    case Op::Mul:
      s[i] = call("mul");
      break;
    case Op::Div:
      s[i] = call("div");
      break;
    case Op::Mod:
      s[i] = call("mod");
      break;
    case Op::Cdiv:
      s[i] = call("cdiv");
      break;
    case Op::Min:
      s[i] = call("min");
      break;
    case Op::Max:
      s[i] = call("max");
      break;
    }
  }
  return s.empty() ? std::string() : s.back();
}

// The names an expression mentions, in first-mention order.
inline std::vector<std::string> names(const Expr& e) {
  std::vector<std::string> r;
  for (const Node& n : e.nodes) {
    if (n.op != Op::Name)
      continue;
    bool seen = false;
    for (const std::string& x : r)
      seen = seen || x == n.name;
    if (!seen)
      r.push_back(n.name);
  }
  return r;
}

} // namespace grid
} // namespace tcc
