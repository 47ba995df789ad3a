// libFuzzer target: what libtccrt reads before it reaches the CUDA driver. Byte 0 (mod 4)
// picks the reader, the rest is its input:
//   0: kernel metadata (parseMetadata, the .json beside a cubin); when it is accepted, its
//      grid expressions are bound the way a Kernel binds them (parameters, constexprs, the
//      device's symbols) and evaluated, and its descriptions made;
//   1: a grid expression (grid::parse, bind, evaluate, toCxx), the line after it holding the
//      values of its names (8 bytes each); the result is checked against a reference
//      evaluation in 128-bit arithmetic;
//   2: an image (inspectImage, ptxTarget, loadRank, cubinRunsOn, ptxRunsOn);
//   3: JSON (json::parse, then json::write read back must give the same text).
// A finding is a crash, a sanitizer report, a timeout, an exception other than tcc::Error
// (std::bad_alloc, std::out_of_range, ... escaping to the user), an error message longer
// than kMaxMessage (messages quote inputs shortened), a grid expression that metadata
// accepted and a Kernel could not bind, or an evaluation that disagrees with the reference.
#include "tcc/cubin.h"
#include "tcc/error.h"
#include "tcc/grid_expr.h"
#include "tcc/json.h"
#include "tcc/metadata.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr size_t kMaxMessage = 2048;

[[noreturn]] void finding(const std::string &what) {
  std::fprintf(stderr, "runtime_fuzz: %s\n", what.substr(0, 4000).c_str());
  std::abort();
}

void checkMessage(const std::string &message) {
  if (message.size() > kMaxMessage)
    finding("an error message of " + std::to_string(message.size()) +
            " characters (inputs must be quoted shortened): " + message.substr(0, 300));
}

/// The expression's value in exact arithmetic, or nullopt where evaluate must fail: a
/// division or remainder by zero, or an intermediate value outside int64.
std::optional<int64_t> reference(const tcc::grid::Expr &e, const std::vector<int64_t> &slots) {
  using tcc::grid::Op;
  using i128 = __int128;
  const i128 lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  std::vector<i128> v(e.nodes.size());
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const tcc::grid::Node &n = e.nodes[i];
    i128 a = n.lhs >= 0 ? v[size_t(n.lhs)] : 0, b = n.rhs >= 0 ? v[size_t(n.rhs)] : 0, r = 0;
    switch (n.op) {
    case Op::Lit:
      r = n.value;
      break;
    case Op::Name:
      r = slots[size_t(n.value)];
      break;
    case Op::Neg:
      r = -a;
      break;
    case Op::Add:
      r = a + b;
      break;
    case Op::Sub:
      r = a - b;
      break;
    case Op::Mul:
      r = a * b; // both within int64: the product fits 128 bits
      break;
    case Op::Div: // truncating, as C
      if (b == 0)
        return std::nullopt;
      r = a / b;
      break;
    case Op::Mod: // the sign of the dividend, as C
      if (b == 0)
        return std::nullopt;
      r = a % b;
      break;
    case Op::Cdiv: { // the exact ceiling of a / b
      if (b == 0)
        return std::nullopt;
      i128 q = a / b;
      if (q * b != a && ((a < 0) == (b < 0)))
        ++q;
      r = q;
      break;
    }
    case Op::Min:
      r = a < b ? a : b;
      break;
    case Op::Max:
      r = a < b ? b : a;
      break;
    }
    if (r < lo || r > hi)
      return std::nullopt;
    v[i] = r;
  }
  if (v.empty())
    return std::nullopt;
  return int64_t(v.back());
}

void fuzzMetadata(const std::string &text) {
  tcc::KernelMetadata m;
  try {
    m = tcc::parseMetadata(text, "<fuzz>.json", "/nonexistent");
  } catch (const tcc::Error &e) {
    checkMessage(e.what());
    return;
  }
  (void)m.threadsPerBlock();
  (void)m.specialisationScore();
  (void)m.configString();
  (void)m.specialisationString();
  for (const auto &c : m.constexprs) {
    if (m.constexprValue(c.first) == nullptr)
      finding("constexprValue cannot find constexpr '" + c.first + "'");
    (void)c.second.toString();
    (void)c.second.asDouble();
  }
  // Slots as a Kernel numbers them (runtime/src/kernel.cpp): the parameters, the
  // constexprs, then num_sms and occupancy.
  std::vector<int64_t> slots;
  for (size_t i = 0; i < m.params.size(); ++i)
    slots.push_back(int64_t(i) * 977 + 1);
  for (const auto &c : m.constexprs)
    slots.push_back(c.second.asInt());
  slots.push_back(132); // num_sms
  slots.push_back(2);   // occupancy
  auto slotOf = [&](const std::string &n) -> int {
    for (size_t i = 0; i < m.params.size(); ++i)
      if (m.params[i].name == n)
        return int(i);
    for (size_t i = 0; i < m.constexprs.size(); ++i)
      if (m.constexprs[i].first == n)
        return int(m.params.size() + i);
    if (n == "num_sms" || n == "occupancy")
      return int(m.params.size() + m.constexprs.size()) + (n == "occupancy");
    return -1;
  };
  for (int d = 0; d < 3; ++d) {
    tcc::grid::Expr e;
    std::string err;
    if (!tcc::grid::parse(m.grid[d], &e, &err) || !tcc::grid::bind(&e, slotOf, &err))
      finding("metadata accepted grid[" + std::to_string(d) + "] '" + m.grid[d] +
              "', which a Kernel cannot bind: " + err);
    int64_t value = 0;
    if (!tcc::grid::evaluate(e, slots.data(), &value, &err))
      checkMessage(err);
  }
}

void fuzzGrid(const std::string &input) {
  size_t nl = input.find('\n');
  std::string text = input.substr(0, nl);
  std::string values = nl == std::string::npos ? "" : input.substr(nl + 1);
  tcc::grid::Expr e;
  std::string err;
  if (!tcc::grid::parse(text, &e, &err)) {
    checkMessage(err);
    return;
  }
  std::vector<std::string> names = tcc::grid::names(e);
  std::vector<int64_t> slots(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    uint64_t raw = 0;
    if (values.size() >= 8 * (i + 1))
      std::memcpy(&raw, values.data() + 8 * i, 8);
    else
      raw = 64 * (i + 1);
    slots[i] = int64_t(raw);
  }
  // The first name stays unknown when the values say so: bind must fail on it.
  bool unknownFirst = !values.empty() && values[0] == '?' && !names.empty();
  auto slotOf = [&](const std::string &n) -> int {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == n)
        return unknownFirst && i == 0 ? -1 : int(i);
    return -1;
  };
  if (!tcc::grid::bind(&e, slotOf, &err)) {
    if (!unknownFirst)
      finding("bind failed on a name that names() listed: " + err);
    checkMessage(err);
    return;
  }
  if (unknownFirst)
    finding("bind accepted an unknown name");
  int64_t value = 0;
  bool ok = tcc::grid::evaluate(e, slots.data(), &value, &err);
  std::optional<int64_t> want = reference(e, slots);
  if (ok != want.has_value() || (ok && value != *want))
    finding("grid expression '" + text + "' evaluates to " +
            (ok ? std::to_string(value) : "an error (" + err + ")") + ", exactly it is " +
            (want ? std::to_string(*want) : "undefined (overflow or division by zero)"));
  if (!ok)
    checkMessage(err);
  (void)tcc::grid::toCxx(e, "::tcc::gx::", [](const std::string &n) { return "a_" + n; });
}

// `data` is libFuzzer's buffer, exactly `size` bytes: ASan sees a read past its end.
void fuzzImage(const uint8_t *data, size_t size) {
  tcc::ImageInfo info = tcc::inspectImage(data, size);
  bool archSpecific = false;
  int target = tcc::ptxTarget(data, size, &archSpecific);
  (void)tcc::archName(info.arch);
  for (int device : {80, 86, 89, 90, 100, 120})
    for (bool hasCubin : {false, true}) {
      (void)tcc::loadRank(info.arch, archSpecific, hasCubin, true, device);
      (void)tcc::loadRank(target, archSpecific, hasCubin, false, device);
    }
  (void)tcc::cubinRunsOn(info.arch, archSpecific, target);
  (void)tcc::ptxRunsOn(target, archSpecific, info.arch);
}

void fuzzJson(const std::string &text) {
  tcc::json::Value v;
  try {
    v = tcc::json::parse(text, "<fuzz>");
  } catch (const tcc::Error &e) {
    checkMessage(e.what());
    return;
  }
  std::string once = tcc::json::write(v);
  std::string twice;
  try {
    twice = tcc::json::write(tcc::json::parse(once, "<written>"));
  } catch (const tcc::Error &e) {
    finding(std::string("json::write wrote what json::parse rejects: ") + e.what());
  }
  if (once != twice)
    finding("a JSON round trip changed the text:\n" + once.substr(0, 500) + "\n---\n" +
            twice.substr(0, 500));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > (1u << 16))
    return 0;
  std::string rest(reinterpret_cast<const char *>(data + 1), size - 1);
  try {
    switch (data[0] & 3) {
    case 0:
      fuzzMetadata(rest);
      break;
    case 1:
      fuzzGrid(rest);
      break;
    case 2:
      fuzzImage(data + 1, size - 1);
      break;
    case 3:
      fuzzJson(rest);
      break;
    }
  } catch (const tcc::Error &e) {
    finding(std::string("tcc::Error where none was expected: ") + e.what());
  } catch (const std::exception &e) {
    finding(std::string("an exception other than tcc::Error escaped: ") + e.what());
  }
  return 0;
}
