//===- SemaRandom.cpp - Philox random numbers and umulhi ------------------===//
//
// Triton's random numbers (python/triton/language/random.py), bit for bit: Philox4x32 with
// Triton's constants and its mapping of seed and offsets to key and counter, then Triton's
// conversions to floats. Everything is written with typed nodes that every stage already
// lowers (integer arithmetic on i32 and i64, casts, selects, math), so the interpreter and
// the GPU compute the same bits:
//
//   key      (k0, k1) = (low, high) 32 bits of the seed sign-extended to 64 bits
//   counter  (c0, c1, c2, c3) = (low 32 bits of the offset, its high 32 bits for an i64
//            offset else 0, 0, 0)
//   round    c0' = umulhi(B, c2) ^ c1 ^ k0;  c2' = umulhi(A, c0) ^ c3 ^ k1
//            c1' = B * c2;  c3' = A * c0;  then k0 += KEY_A, k1 += KEY_B (mod 2^32)
//            with A = 0xD2511F53, B = 0xCD9E8D57, KEY_A = 0x9E3779B9, KEY_B = 0xBB67AE85
//   uniform  x -> (x < 0 ? ~x : x) * 4.6566127342e-10 in f32 (x read as i32): [0, 1)
//   normal   Box-Muller of two uniforms: sqrt(-2 log max(u1, 1e-7)) * cos(2 pi u2)
//
// umulhi(a, b) (the high half of the unsigned 64-bit product) is the product of both
// operands widened to i64 and masked to their low 32 bits, shifted right by 32.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include <array>
#include <cstdint>

using namespace tcc;
using namespace tcc::sema;

namespace {
constexpr uint32_t kRoundA = 0xD2511F53u, kRoundB = 0xCD9E8D57u;
constexpr uint32_t kKeyA = 0x9E3779B9u, kKeyB = 0xBB67AE85u;
constexpr int64_t kDefaultRounds = 10;
/// The i32 with the bits of `u`.
int64_t asI32(uint64_t u) { return int64_t(int32_t(uint32_t(u))); }
} // namespace

namespace tcc::sema {

/// Builds Philox and its conversions for one call; `range` locates every node.
class PhiloxBuilder {
public:
  PhiloxBuilder(Sema &s, SMRange range) : s(s), range(range) {}

  ElementType i32() const { return ElementType::number(ScalarKind::I32); }
  ElementType i64() const { return ElementType::number(ScalarKind::I64); }
  ElementType f32() const { return ElementType::number(ScalarKind::F32); }

  typed::Expr *intConst(ElementType t, int64_t v, llvm::ArrayRef<int64_t> shape) {
    return s.make<typed::ConstantExpr>(Type(t, shape), range, v, double(v));
  }
  typed::Expr *floatConst(double v, llvm::ArrayRef<int64_t> shape) {
    return s.make<typed::ConstantExpr>(Type(f32(), shape), range, 0, v);
  }
  /// a `op` b, both broadcast to their common shape; a constant operand may be null
  /// meaning zero only where the caller says so (see xor3).
  typed::Expr *bin(typed::BinaryOp op, typed::Expr *a, typed::Expr *b) {
    llvm::SmallVector<int64_t, 4> shape;
    s.broadcastShapes(a->type.shape(), b->type.shape(), shape);
    return s.make<typed::BinaryExpr>(Type(a->type.element(), shape), range, op,
                                     s.broadcastTo(a, shape, range),
                                     s.broadcastTo(b, shape, range));
  }
  typed::Expr *cast(typed::Expr *e, ElementType to) {
    if (e->type.element() == to)
      return e;
    return s.make<typed::CastExpr>(e->type.withElement(to), range, e);
  }
  /// The high 32 bits of the unsigned product of the constant `a` and the i32 `b`.
  typed::Expr *umulhiConst(uint32_t a, typed::Expr *b) {
    typed::Expr *wide = bin(typed::BinaryOp::And, cast(b, i64()),
                            intConst(i64(), 0xFFFFFFFFll, {}));
    return umulhiWide(intConst(i64(), int64_t(a), {}), wide);
  }
  /// The same for two i32 operands.
  typed::Expr *umulhi(typed::Expr *a, typed::Expr *b) {
    typed::Expr *wa = bin(typed::BinaryOp::And, cast(a, i64()), intConst(i64(), 0xFFFFFFFFll, {}));
    typed::Expr *wb = bin(typed::BinaryOp::And, cast(b, i64()), intConst(i64(), 0xFFFFFFFFll, {}));
    return umulhiWide(wa, wb);
  }
  typed::Expr *umulhiWide(typed::Expr *wa, typed::Expr *wb) {
    typed::Expr *p = bin(typed::BinaryOp::Mul, wa, wb); // wraps: the unsigned product's bits
    return cast(bin(typed::BinaryOp::Shr, p, intConst(i64(), 32, {})), i32());
  }
  /// a ^ b ^ c where null operands are zero (and are left out).
  typed::Expr *xor3(typed::Expr *a, typed::Expr *b, typed::Expr *c) {
    typed::Expr *r = nullptr;
    for (typed::Expr *e : {a, b, c})
      if (e)
        r = r ? bin(typed::BinaryOp::Xor, r, e) : e;
    return r;
  }

  /// The four words of Philox for key (k0, k1) and counter `c` (null words are zero),
  /// each of `shape`.
  std::array<typed::Expr *, 4> philox(typed::Expr *k0, typed::Expr *k1,
                                      std::array<typed::Expr *, 4> c, int64_t rounds,
                                      llvm::ArrayRef<int64_t> shape) {
    for (int64_t round = 0; round < rounds; ++round) {
      // The round's key: the seed's words plus `round` times the key increments.
      typed::Expr *rk0 = keyWord(k0, uint32_t(uint64_t(kKeyA) * uint64_t(round)));
      typed::Expr *rk1 = keyWord(k1, uint32_t(uint64_t(kKeyB) * uint64_t(round)));
      typed::Expr *c0 = c[0], *c2 = c[2];
      // c0 and c2 each feed a product and a high product: computed once.
      if (c0 && !llvm::isa<typed::VarRefExpr>(c0))
        c0 = s.bind("philox", c0, range).expr;
      if (c2 && !llvm::isa<typed::VarRefExpr>(c2))
        c2 = s.bind("philox", c2, range).expr;
      typed::Expr *n0 = xor3(c2 ? umulhiConst(kRoundB, c2) : nullptr, c[1], rk0);
      typed::Expr *n2 = xor3(c0 ? umulhiConst(kRoundA, c0) : nullptr, c[3], rk1);
      typed::Expr *n1 = c2 ? bin(typed::BinaryOp::Mul, intConst(i32(), asI32(kRoundB), {}), c2) : nullptr;
      typed::Expr *n3 = c0 ? bin(typed::BinaryOp::Mul, intConst(i32(), asI32(kRoundA), {}), c0) : nullptr;
      c = {n0, n1, n2, n3};
    }
    for (typed::Expr *&w : c)
      w = s.broadcastTo(w ? w : intConst(i32(), 0, {}), shape, range);
    return c;
  }
  /// k + delta (mod 2^32), folded where k is a constant.
  typed::Expr *keyWord(typed::Expr *k, uint32_t delta) {
    if (auto *c = dyn_cast<typed::ConstantExpr>(k))
      return intConst(i32(), asI32(uint64_t(c->intValue) + delta), k->type.shape());
    if (delta == 0)
      return k;
    return bin(typed::BinaryOp::Add, k, intConst(i32(), asI32(delta), {}));
  }

  /// Triton's uint_to_uniform_float for 32 bits: a float in [0, 1).
  typed::Expr *uniform(typed::Expr *x) {
    x = s.bind("philox", x, range).expr;
    llvm::ArrayRef<int64_t> shape = x->type.shape();
    typed::Expr *neg = s.make<typed::CompareExpr>(Type(ElementType::number(ScalarKind::I1), shape),
                                                  range, typed::CompareOp::Lt, x,
                                                  intConst(i32(), 0, shape));
    typed::Expr *flipped = s.make<typed::UnaryExpr>(x->type, range, typed::UnaryOp::BitNot, x);
    typed::Expr *pos = s.make<typed::SelectExpr>(x->type, range, neg, flipped, x);
    return bin(typed::BinaryOp::Mul, cast(pos, f32()), floatConst(4.6566127342e-10, {}));
  }
  /// Triton's pair_uniform_to_normal: (r cos th, r sin th).
  std::pair<typed::Expr *, typed::Expr *> normal(typed::Expr *u1, typed::Expr *u2, bool both) {
    Type t = u1->type;
    u1 = bin(typed::BinaryOp::Max, u1, floatConst(1.0e-7, {}));
    typed::Expr *th = bin(typed::BinaryOp::Mul, floatConst(6.283185307179586, {}), u2);
    typed::Expr *lg = s.make<typed::MathExpr>(t, range, typed::MathFn::Log, u1);
    typed::Expr *r = s.make<typed::MathExpr>(
        t, range, typed::MathFn::Sqrt, bin(typed::BinaryOp::Mul, floatConst(-2.0, {}), lg));
    if (both) {
      th = s.bind("philox", th, range).expr;
      r = s.bind("philox", r, range).expr;
    }
    typed::Expr *n1 = bin(typed::BinaryOp::Mul, r, s.make<typed::MathExpr>(t, range, typed::MathFn::Cos, th));
    typed::Expr *n2 = both ? bin(typed::BinaryOp::Mul, r, s.make<typed::MathExpr>(t, range, typed::MathFn::Sin, th))
                           : nullptr;
    return {n1, n2};
  }

private:
  Sema &s;
  SMRange range;
};

} // namespace tcc::sema

Value Sema::randomCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  PhiloxBuilder pb(*this, call->range);
  if (b == Builtin::Umulhi) {
    if (!bindArguments(call, name, {"x", "y"}, 2, a, r))
      return Value::error();
    typed::Expr *ops[2];
    for (int i = 0; i < 2; ++i) {
      const Value &v = a[size_t(i)];
      if (v.isIntLike() && v.intValue >= INT32_MIN && v.intValue <= UINT32_MAX) {
        ops[i] = pb.intConst(pb.i32(), asI32(uint64_t(v.intValue)), {});
        continue;
      }
      if (!v.isRuntime() || v.type().element() != pb.i32()) {
        if (!v.isError())
          diags.error(r[size_t(i)], name + "() multiplies 32-bit integers (i32, read as "
                                           "unsigned), not " + v.describe());
        noteDefinition(v);
        return Value::error();
      }
      ops[i] = v.expr;
    }
    llvm::SmallVector<int64_t, 4> shape;
    if (!broadcastShapes(ops[0]->type.shape(), ops[1]->type.shape(), shape)) {
      diags.error(call->range, name + "() operands of shapes " + shapeStr(ops[0]->type.shape()) +
                                   " and " + shapeStr(ops[1]->type.shape()) +
                                   " do not broadcast together");
      return Value::error();
    }
    return Value::runtime(pb.umulhi(ops[0], ops[1]));
  }

  if (!bindArguments(call, name, {"seed", "offset", "n_rounds"}, 2, a, r))
    return Value::error();
  int64_t rounds = kDefaultRounds;
  if (a[2].kind != Value::Kind::None) {
    std::string what = name.str() + "() n_rounds";
    std::optional<int64_t> n = constantInt(a[2], r[2], what);
    if (!n)
      return Value::error();
    if (*n < 1 || *n > 64) {
      diags.error(r[2], name + "() n_rounds must be from 1 to 64, not " + llvm::Twine(*n) +
                            " (Triton's default is 10)");
      return Value::error();
    }
    rounds = *n;
  }
  // The key: the seed sign-extended to 64 bits, its low and high words.
  const Value &seed = a[0];
  typed::Expr *k0, *k1;
  if (seed.isIntLike()) {
    uint64_t u = uint64_t(seed.intValue);
    k0 = pb.intConst(pb.i32(), asI32(u), {});
    k1 = pb.intConst(pb.i32(), asI32(u >> 32), {});
  } else if (seed.isRuntime() && !seed.type().element().isPointer &&
             !seed.type().element().isFloat()) {
    typed::Expr *s64 = pb.cast(seed.expr, pb.i64());
    if (!llvm::isa<typed::VarRefExpr>(s64))
      s64 = bind("seed", s64, r[0]).expr;
    k0 = bind("seed", pb.cast(s64, pb.i32()), r[0]).expr;
    k1 = bind("seed", pb.cast(pb.bin(typed::BinaryOp::Shr, s64, pb.intConst(pb.i64(), 32, {})),
                              pb.i32()),
              r[0])
             .expr;
  } else {
    if (!seed.isError())
      diags.error(r[0], name + "() seed must be an integer (a scalar or tile), not " +
                            seed.describe());
    noteDefinition(seed);
    return Value::error();
  }
  // The counter: the offsets' low word, and for i64 offsets their high word.
  const Value &offset = a[1];
  typed::Expr *off;
  if (offset.isIntLike()) {
    bool wide = offset.intValue < INT32_MIN || offset.intValue > INT32_MAX;
    off = pb.intConst(wide ? pb.i64() : pb.i32(), offset.intValue, {});
  } else if (offset.isRuntime() && !offset.type().element().isPointer &&
             !offset.type().element().isFloat()) {
    off = offset.expr;
    if (off->type.element() != pb.i64())
      off = pb.cast(off, pb.i32());
  } else {
    if (!offset.isError())
      diags.error(r[1], name + "() offset must be an integer scalar or tile (i32 or i64), not " +
                            offset.describe());
    noteDefinition(offset);
    return Value::error();
  }
  llvm::SmallVector<int64_t, 4> shape;
  if (!broadcastShapes(k0->type.shape(), off->type.shape(), shape)) {
    diags.error(call->range, name + "() seed of shape " + shapeStr(k0->type.shape()) +
                                 " and offset of shape " + shapeStr(off->type.shape()) +
                                 " do not broadcast together");
    return Value::error();
  }
  std::array<typed::Expr *, 4> counter = {nullptr, nullptr, nullptr, nullptr};
  if (off->type.element() == pb.i64()) {
    if (!llvm::isa<typed::VarRefExpr>(off) && !llvm::isa<typed::ConstantExpr>(off))
      off = bind("offset", off, r[1]).expr;
    counter[0] = pb.cast(off, pb.i32());
    counter[1] = pb.cast(pb.bin(typed::BinaryOp::Shr, off, pb.intConst(pb.i64(), 32, {})), pb.i32());
  } else {
    counter[0] = off;
  }
  std::array<typed::Expr *, 4> w = pb.philox(k0, k1, counter, rounds, shape);
  switch (b) {
  case Builtin::Randint:
    return Value::runtime(w[0]);
  case Builtin::Randint4x:
    return Value::tuple({Value::runtime(w[0]), Value::runtime(w[1]), Value::runtime(w[2]),
                         Value::runtime(w[3])});
  case Builtin::Rand:
    return Value::runtime(pb.uniform(w[0]));
  case Builtin::Rand4x:
    return Value::tuple({Value::runtime(pb.uniform(w[0])), Value::runtime(pb.uniform(w[1])),
                         Value::runtime(pb.uniform(w[2])), Value::runtime(pb.uniform(w[3]))});
  case Builtin::Randn:
    return Value::runtime(pb.normal(pb.uniform(w[0]), pb.uniform(w[1]), false).first);
  default: { // Randn4x
    auto [n1, n2] = pb.normal(pb.uniform(w[0]), pb.uniform(w[1]), true);
    auto [n3, n4] = pb.normal(pb.uniform(w[2]), pb.uniform(w[3]), true);
    return Value::tuple({Value::runtime(n1), Value::runtime(n2), Value::runtime(n3),
                         Value::runtime(n4)});
  }
  }
}
