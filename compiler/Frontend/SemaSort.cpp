//===- SemaSort.cpp - flip and sort ---------------------------------------===//
//
// Both are made of tile.permute_xor, which gives every element the value of the element
// whose coordinate along an axis is its own XORed with a constant: flip is one with the
// mask size - 1; sort is Triton's bitonic network (python/triton/language/standard.py),
// log2(n) (log2(n) + 1) / 2 compare-and-swap steps, each a permute_xor to the partner
// (mask 1 << j), a compare of the pair's lower and upper elements and a select. Every
// element keeps its bits (NaN and -0.0 included), as Triton's XOR swap does.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

namespace tcc {
namespace sema {

Value Sema::sortCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  bool isSort = b == Builtin::Sort;
  std::vector<Value> a;
  std::vector<SMRange> r;
  bool bound = isSort ? bindArguments(call, name, {"x", "dim", "descending"}, 1, a, r)
                      : bindArguments(call, name, {"x", "dim"}, 1, a, r);
  if (!bound)
    return Value::error();
  const Value &x = a[0];
  if (!x.isRuntime() || !x.type().isTile()) {
    diags.error(r[0], name + "() takes a tile, but its input is " + x.describe());
    noteDefinition(x);
    return Value::error();
  }
  if (x.type().element().isPointer) {
    diags.error(r[0], name + "() cannot " + (isSort ? "sort" : "flip") + " pointers");
    noteDefinition(x);
    return Value::error();
  }
  if (isSort && rejectFp8(x.type().element(), (name + "()").str(), r[0]))
    return Value::error();
  unsigned rank = x.type().rank();
  int64_t dim = int64_t(rank) - 1;
  if (a[1].kind != Value::Kind::None) {
    std::optional<int64_t> d = constantInt(a[1], r[1], "the dim of " + name.str() + "()");
    if (!d)
      return Value::error();
    dim = *d < 0 ? *d + rank : *d;
    if (dim < 0 || dim >= int64_t(rank)) {
      diags.error(r[1], "dim " + llvm::Twine(*d) + " is out of range for " + x.type().str() +
                            " (rank " + llvm::Twine(rank) + ")");
      noteDefinition(x);
      return Value::error();
    }
  }
  bool descending = false;
  if (isSort && a[2].kind != Value::Kind::None) {
    if (a[2].kind != Value::Kind::Bool &&
        !(a[2].kind == Value::Kind::Int && (a[2].intValue == 0 || a[2].intValue == 1))) {
      diags.error(r[2], "descending must be True or False (a compile-time constant), not " +
                            a[2].describe());
      return Value::error();
    }
    descending = a[2].intValue != 0;
  }
  const Type type = x.type();
  llvm::SmallVector<int64_t, 4> shape(type.shape().begin(), type.shape().end());
  int64_t size = shape[dim];
  unsigned axis = unsigned(dim);
  if (size == 1)
    return x; // nothing to move
  SMRange range = call->range;

  if (!isSort)
    return Value::runtime(make<typed::PermuteXorExpr>(type, range, x.expr, axis, size - 1));

  // The coordinate along the axis, as an i32 tile of the shape.
  Type i32Tile(ElementType::number(ScalarKind::I32), shape);
  typed::Expr *index =
      make<typed::ArangeExpr>(Type(ElementType::number(ScalarKind::I32), {size}), range, 0, size);
  for (unsigned d = 0; d < rank; ++d) {
    if (d == axis)
      continue;
    llvm::SmallVector<int64_t, 4> s(index->type.shape().begin(), index->type.shape().end());
    s.insert(s.begin() + d, 1);
    index = make<typed::ExpandDimsExpr>(index->type.withShape(s), range, index, d);
  }
  if (index->type.shape() != llvm::ArrayRef<int64_t>(shape))
    index = make<typed::BroadcastExpr>(i32Tile, range, index);
  Value idx = bind("sort.index", index, range);
  Type boolTile(ElementType::number(ScalarKind::I1), shape);
  auto bitSet = [&](int64_t bit) -> typed::Expr * {
    typed::Expr *m = constant(Value::integer(int64_t(1) << bit), i32Tile, range);
    typed::Expr *masked = make<typed::BinaryExpr>(i32Tile, range, typed::BinaryOp::And,
                                                  make<typed::VarRefExpr>(
                                                      cast<typed::VarRefExpr>(idx.expr)->var,
                                                      range),
                                                  m);
    return make<typed::CompareExpr>(boolTile, range, typed::CompareOp::Ne, masked,
                                    constant(Value::integer(0), i32Tile, range));
  };
  auto ref = [&](const Value &v) {
    return make<typed::VarRefExpr>(cast<typed::VarRefExpr>(v.expr)->var, range);
  };

  Value cur = bind("sort.x", x.expr, range);
  int64_t bits = 0;
  while ((int64_t(1) << bits) < size)
    ++bits;
  for (int64_t stage = 1; stage <= bits; ++stage) {
    // Alternating directions within a stage, the requested one in the last.
    Value flip = stage < bits ? bind("sort.flip", bitSet(stage), range) : Value::none();
    for (int64_t j = stage - 1; j >= 0; --j) {
      Value partner =
          bind("sort.partner", make<typed::PermuteXorExpr>(type, range, ref(cur), axis,
                                                           int64_t(1) << j),
               range);
      Value upper = bind("sort.upper", bitSet(j), range);
      typed::Expr *left = make<typed::SelectExpr>(type, range, ref(upper), ref(partner), ref(cur));
      typed::Expr *right = make<typed::SelectExpr>(type, range, ref(upper), ref(cur), ref(partner));
      typed::Expr *cond = make<typed::CompareExpr>(boolTile, range, typed::CompareOp::Gt, left, right);
      if (flip.isRuntime())
        cond = make<typed::BinaryExpr>(boolTile, range, typed::BinaryOp::Xor, cond, ref(flip));
      else if (descending)
        cond = make<typed::BinaryExpr>(boolTile, range, typed::BinaryOp::Xor, cond,
                                       constant(Value::boolean(true), boolTile, range));
      cur = bind("sort.x", make<typed::SelectExpr>(type, range, cond, ref(partner), ref(cur)),
                 range);
    }
  }
  return cur;
}

} // namespace sema
} // namespace tcc
