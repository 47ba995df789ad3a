//===- SemaShape.cpp - broadcast_to, expand_dims, join and split ----------===//
//
// Triton's shape builtins that keep every element where it is, written with typed nodes
// that every stage already lowers (the interpreter, the layout passes, the GPU):
// broadcast_to is a broadcast; expand_dims inserts dimensions of size 1; join(a, b)
// chooses between a and b, both broadcast along a new last dimension of size 2, by the
// index along it; split(x) takes each half of that dimension back with a reduction over
// it, `max` against the lowest value of the type elsewhere, which returns the element
// unchanged (NaN, -0.0, infinities and every integer included). reshape is supported
// where it only adds or removes dimensions of size 1 (the same reduction over a dimension
// of one removes one); trans/permute are tile.trans.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include <cmath>
#include <limits>

using namespace tcc;
using namespace tcc::sema;

bool Sema::trailingArguments(const ast::CallExpr *call, std::vector<Value> &out) {
  out.clear();
  for (size_t i = 1; i < call->args.size(); ++i) {
    Value d = expr(call->args[i]);
    if (d.isError())
      return false;
    if (call->args.size() == 2 && d.kind == Value::Kind::Tuple)
      out = d.elements;
    else
      out.push_back(d);
  }
  return true;
}

Value Sema::shapeCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  // A runtime number (not a pointer), or a compile-time number made one by rule 4 of
  // docs/language.md section 8; an error value after a message otherwise.
  auto runtimeNumber = [&](const Value &v, SMRange range) {
    if (v.isError())
      return v;
    if (v.isNumber())
      return Value::runtime(toRuntime(v, range));
    if (!v.isRuntime() || v.type().element().isPointer) {
      diags.error(range, name + "() applies to numbers and tiles of numbers, not " +
                             v.describe());
      noteDefinition(v);
      return Value::error();
    }
    return v;
  };
  // broadcast_to(x, *shape) and reshape(x, *shape): the input, and the shape given as one
  // tuple or as the remaining arguments, checked into `target`; false after a message.
  auto inputAndShape = [&](Value &x, llvm::SmallVector<int64_t, 4> &target) {
    x = expr(call->args[0]);
    std::vector<Value> dims;
    if (!trailingArguments(call, dims))
      return false;
    SMRange shapeRange(call->args[1]->range.Start, call->args.back()->range.End);
    return !x.isError() && shapeArgument(Value::tuple(dims), shapeRange, target);
  };
  // reshape's work once the input and the shape are read (reshape, view, ravel).
  auto reshapeTo = [&](Value x, llvm::SmallVector<int64_t, 4> target,
                       SMRange argRange) -> Value {
    if (!x.isRuntime() || !x.type().isTile() || x.type().element().isPointer) {
      diags.error(argRange, name + "() reshapes a tile of numbers, not " +
                                            x.describe());
      noteDefinition(x);
      return Value::error();
    }
    llvm::ArrayRef<int64_t> from = x.type().shape();
    if (x.type().numElements() != Type(x.type().element(), target).numElements()) {
      diags.error(call->range, name + "() cannot make " + x.type().str() + " (" +
                                   llvm::Twine(x.type().numElements()) + " elements) the shape " +
                                   shapeStr(target));
      return Value::error();
    }
    auto withoutOnes = [](llvm::ArrayRef<int64_t> s) {
      llvm::SmallVector<int64_t, 4> r;
      for (int64_t d : s)
        if (d != 1)
          r.push_back(d);
      return r;
    };
    if (withoutOnes(from) != withoutOnes(target)) {
      // Elements move between threads: tile.reshape (row-major order kept). fp8 moves
      // as its bits (it is never computed on).
      ElementType elem = x.type().element();
      typed::Expr *e = x.expr;
      if (elem.isFp8())
        e = make<typed::BitcastExpr>(e->type.withElement(ElementType::number(ScalarKind::I8)),
                                     argRange, e);
      e = make<typed::ReshapeExpr>(e->type.withShape(target), call->range, e);
      if (elem.isFp8())
        e = make<typed::BitcastExpr>(e->type.withElement(elem), call->range, e);
      return Value::runtime(e);
    }
    ElementType elem = x.type().element();
    typed::Expr *e = x.expr;
    if (elem.isBool())
      e = convertElement(e, ElementType::number(ScalarKind::I32), argRange);
    if (elem.isFp8()) // moved as its bits: fp8 is never computed on
      e = make<typed::BitcastExpr>(e->type.withElement(ElementType::number(ScalarKind::I8)),
                                   argRange, e);
    // Remove every dimension of size 1 (a reduction over one element returns it), last
    // first, then insert the target's.
    for (size_t d = from.size(); d-- > 0;) {
      if (from[d] != 1 || e->type.rank() == 1)
        continue;
      llvm::SmallVector<int64_t, 4> shape(e->type.shape().begin(), e->type.shape().end());
      shape.erase(shape.begin() + d);
      e = make<typed::ReduceExpr>(e->type.withShape(shape), call->range, typed::ReduceKind::Max,
                                  e, unsigned(d));
    }
    // A tile of one element keeps rank 1 above; make its rank the target's.
    while (e->type.rank() > target.size()) {
      llvm::SmallVector<int64_t, 4> shape(e->type.shape().begin() + 1, e->type.shape().end());
      e = make<typed::ReduceExpr>(e->type.withShape(shape), call->range, typed::ReduceKind::Max,
                                  e, 0u);
    }
    for (size_t d = 0; d < target.size(); ++d) {
      if (e->type.rank() == 0) {
        e = broadcastTo(e, llvm::SmallVector<int64_t, 4>(target.size(), 1), call->range);
        break;
      }
      if (d < e->type.rank() && e->type.shape()[d] == target[d])
        continue;
      llvm::SmallVector<int64_t, 4> shape(e->type.shape().begin(), e->type.shape().end());
      shape.insert(shape.begin() + d, 1);
      e = make<typed::ExpandDimsExpr>(e->type.withShape(shape), call->range, e, unsigned(d));
    }
    if (elem.isBool())
      e = convertElement(e, elem, call->range);
    if (elem.isFp8())
      e = make<typed::BitcastExpr>(e->type.withElement(elem), call->range, e);
    return Value::runtime(e);
  };
  switch (b) {
  case Builtin::BroadcastTo: {
    // broadcast_to(input, *shape): the shape as a tuple or as the remaining arguments.
    if (call->args.size() < 2 || !call->kwargs.empty()) {
      diags.error(call->range, name + "() takes the input and the shape: broadcast_to(x, "
                                      "(M, N)) or broadcast_to(x, M, N)");
      return Value::error();
    }
    Value x;
    llvm::SmallVector<int64_t, 4> target;
    if (!inputAndShape(x, target))
      return Value::error();
    if (x.isNumber())
      x = Value::runtime(toRuntime(x, call->args[0]->range));
    if (!x.isRuntime()) {
      diags.error(call->args[0]->range, name + "() broadcasts a value, not " + x.describe());
      return Value::error();
    }
    llvm::SmallVector<int64_t, 4> joined;
    if (!broadcastShapes(x.type().shape(), target, joined) ||
        llvm::ArrayRef<int64_t>(joined) != llvm::ArrayRef<int64_t>(target)) {
      diags.error(call->range, "cannot broadcast " + x.type().str() + " to the shape " +
                                   shapeStr(target) + " (each dimension must be 1 or equal)");
      noteDefinition(x);
      return Value::error();
    }
    return Value::runtime(broadcastTo(x.expr, target, call->range));
  }
  case Builtin::ExpandDims: {
    if (!bindArguments(call, name, {"input", "axis"}, 2, a, r))
      return Value::error();
    Value x = a[0];
    if (x.isNumber())
      x = Value::runtime(toRuntime(x, r[0]));
    if (!x.isRuntime()) {
      diags.error(r[0], name + "() applies to values, not " + x.describe());
      return Value::error();
    }
    std::vector<Value> given =
        a[1].kind == Value::Kind::Tuple ? a[1].elements : std::vector<Value>{a[1]};
    int64_t newRank = int64_t(x.type().rank() + given.size());
    std::vector<int64_t> axes;
    for (const Value &g : given) {
      std::optional<int64_t> ax = constantInt(g, r[1], "the axis of " + name.str() + "()");
      if (!ax)
        return Value::error();
      int64_t axis = *ax < 0 ? *ax + newRank : *ax;
      if (axis < 0 || axis >= newRank || llvm::is_contained(axes, axis)) {
        diags.error(r[1], name + "() axis " + llvm::Twine(*ax) + " is out of range or repeated "
                              "(the result has " + llvm::Twine(newRank) + " dimensions)");
        return Value::error();
      }
      axes.push_back(axis);
    }
    llvm::sort(axes);
    typed::Expr *e = x.expr;
    if (e->type.rank() == 0)
      return Value::runtime(
          broadcastTo(e, llvm::SmallVector<int64_t, 4>(size_t(newRank), 1), call->range));
    for (int64_t axis : axes) {
      llvm::SmallVector<int64_t, 4> shape(e->type.shape().begin(), e->type.shape().end());
      shape.insert(shape.begin() + axis, 1);
      e = make<typed::ExpandDimsExpr>(e->type.withShape(shape), call->range, e, unsigned(axis));
    }
    return Value::runtime(e);
  }
  case Builtin::Join: {
    if (!bindArguments(call, name, {"a", "b"}, 2, a, r))
      return Value::error();
    // A constant adopts the other operand's type (section 8); two constants are made
    // runtime values by rule 4 first.
    Value x = a[0], y = a[1];
    if (x.isNumber() && y.isNumber())
      x = runtimeNumber(x, r[0]);
    else if (!x.isNumber())
      x = runtimeNumber(x, r[0]);
    if (!y.isNumber())
      y = runtimeNumber(y, r[1]);
    if (x.isError() || y.isError())
      return Value::error();
    ElementType common = commonElement(x, y);
    typed::Expr *xe = nullptr, *ye = nullptr;
    llvm::SmallVector<int64_t, 4> shape;
    if (!numericOperands(x, y, name, call->range, r[0], r[1], common, xe, ye, shape))
      return Value::error();
    llvm::SmallVector<int64_t, 4> out(shape.begin(), shape.end());
    out.push_back(2);
    if (!checkTileSize(out, call->range))
      return Value::error();
    llvm::SmallVector<int64_t, 4> column(shape.begin(), shape.end());
    column.push_back(1);
    auto lastAxis = [&](typed::Expr *e) -> typed::Expr * {
      if (e->type.rank() > 0)
        e = make<typed::ExpandDimsExpr>(e->type.withShape(column), call->range, e,
                                        unsigned(shape.size()));
      return broadcastTo(e, out, call->range);
    };
    Type i32(ElementType::number(ScalarKind::I32), out);
    typed::Expr *index = broadcastTo(
        make<typed::ArangeExpr>(Type::tile(ElementType::number(ScalarKind::I32), {2}), call->range, 0, 2),
        out, call->range);
    typed::Expr *first = make<typed::CompareExpr>(
        Type(ElementType::number(ScalarKind::I1), out), call->range, typed::CompareOp::Eq, index,
        make<typed::ConstantExpr>(i32, call->range, 0, 0.0));
    return Value::runtime(make<typed::SelectExpr>(Type(common, out), call->range, first,
                                                  lastAxis(xe), lastAxis(ye)));
  }
  case Builtin::Split: {
    if (!bindArguments(call, name, {"a"}, 1, a, r))
      return Value::error();
    const Value &x = a[0];
    if (x.isError())
      return x;
    if (!x.isRuntime() || x.type().element().isPointer || x.type().rank() == 0 ||
        x.type().shape().back() != 2) {
      diags.error(r[0], name + "() splits a tile of numbers whose last dimension is 2, not " +
                            x.describe());
      noteDefinition(x);
      return Value::error();
    }
    ElementType elem = x.type().element();
    typed::Expr *src = x.expr;
    if (elem.isBool())
      src = convertElement(src, ElementType::number(ScalarKind::I32), r[0]);
    if (elem.isFp8()) // moved as its bits: fp8 is never computed on
      src = make<typed::BitcastExpr>(src->type.withElement(ElementType::number(ScalarKind::I8)),
                                     r[0], src);
    // Used by both halves: evaluated once.
    src = bindTemporary("split", src, r[0]).expr;
    llvm::ArrayRef<int64_t> shape = src->type.shape();
    unsigned axis = unsigned(shape.size() - 1);
    ElementType work = src->type.element();
    typed::Expr *lowest;
    if (work.isFloat()) {
      lowest = make<typed::ConstantExpr>(src->type, call->range, 0,
                                         -std::numeric_limits<double>::infinity());
    } else {
      unsigned bits = bitWidth(work.scalar);
      int64_t min = bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bits - 1));
      lowest = make<typed::ConstantExpr>(src->type, call->range, min, double(min));
    }
    Type i32(ElementType::number(ScalarKind::I32), shape);
    typed::Expr *index = broadcastTo(
        make<typed::ArangeExpr>(Type::tile(ElementType::number(ScalarKind::I32), {2}), call->range, 0, 2),
        shape, call->range);
    llvm::SmallVector<int64_t, 4> halfShape(shape.begin(), shape.end() - 1);
    std::vector<Value> halves;
    for (int64_t h = 0; h < 2; ++h) {
      typed::Expr *here = make<typed::CompareExpr>(
          Type(ElementType::number(ScalarKind::I1), shape), call->range, typed::CompareOp::Eq,
          index, make<typed::ConstantExpr>(i32, call->range, h, double(h)));
      typed::Expr *kept =
          make<typed::SelectExpr>(src->type, call->range, here, src, lowest);
      typed::Expr *half = make<typed::ReduceExpr>(Type(work, halfShape), call->range,
                                                  typed::ReduceKind::Max, kept, axis);
      if (elem.isBool())
        half = convertElement(half, elem, call->range);
      if (elem.isFp8())
        half = make<typed::BitcastExpr>(half->type.withElement(elem), call->range, half);
      halves.push_back(Value::runtime(half));
    }
    return Value::tuple(std::move(halves));
  }
  case Builtin::Ravel: {
    // ravel(x, can_reorder=False): the elements in row-major order as a 1-D tile.
    std::vector<Value> a;
    std::vector<SMRange> r;
    if (!bindArguments(call, name, {"x", "can_reorder"}, 1, a, r))
      return Value::error();
    if (a[1].kind != Value::Kind::None && a[1].kind != Value::Kind::Bool) {
      diags.error(r[1], "can_reorder must be True or False, not " + a[1].describe());
      return Value::error();
    }
    if (!a[0].isRuntime() || !a[0].type().isTile()) {
      diags.error(r[0], name + "() flattens a tile, not " + a[0].describe());
      noteDefinition(a[0]);
      return Value::error();
    }
    return reshapeTo(a[0], {a[0].type().numElements()}, r[0]);
  }
  case Builtin::View:
  case Builtin::Reshape: {
    // reshape(input, *shape, can_reorder=False), view(input, *shape): the shape as a
    // tuple or as the remaining arguments.
    if (call->args.size() < 2) {
      diags.error(call->range, name + "() takes the input and the new shape: reshape(x, (M, N))");
      return Value::error();
    }
    for (const ast::KeywordArg &kw : call->kwargs)
      if (kw.name != "can_reorder") {
        diags.error(kw.nameRange, name + "() has no parameter named '" + kw.name +
                                      "' (it takes the input, the shape and can_reorder)");
        return Value::error();
      } else if (Value v = expr(kw.value); v.kind != Value::Kind::Bool) {
        if (!v.isError())
          diags.error(kw.value->range, "can_reorder must be True or False, not " + v.describe());
        return Value::error();
      }
    Value x;
    llvm::SmallVector<int64_t, 4> target;
    if (!inputAndShape(x, target))
      return Value::error();
    return reshapeTo(x, target, call->args[0]->range);
  }
  case Builtin::Trans:
  case Builtin::Permute: {
    // trans(input, *dims) / permute(input, *dims): the order as a tuple or as the
    // remaining arguments; trans without one reverses a 2-D tile's dimensions.
    if (call->args.empty() || !call->kwargs.empty()) {
      diags.error(call->range, name + "() takes the input and the order of its dimensions: " +
                                   name + "(x, 1, 0) or " + name + "(x, (1, 0))");
      return Value::error();
    }
    Value x = expr(call->args[0]);
    std::vector<Value> order;
    if (!trailingArguments(call, order))
      return Value::error();
    if (x.isError())
      return x;
    if (b == Builtin::Permute && order.empty()) {
      diags.error(call->range, name + "() needs the order of the dimensions: " + name +
                                   "(x, 1, 0)");
      return Value::error();
    }
    SMRange orderRange = call->args.size() > 1
                             ? SMRange(call->args[1]->range.Start, call->args.back()->range.End)
                             : call->range;
    return permuteDims(x, std::move(order), call->range, orderRange, name);
  }
  default:
    break;
  }
  return Value::error();
}

Value Sema::permuteDims(const Value &x, std::vector<Value> order, SMRange range,
                        SMRange orderRange, llvm::StringRef name) {
  if (!x.isRuntime() || !x.type().isTile()) {
    diags.error(range, name + " permutes the dimensions of a tile, not " + x.describe());
    noteDefinition(x);
    return Value::error();
  }
  unsigned rank = x.type().rank();
  std::vector<int32_t> dims;
  if (order.empty()) {
    if (rank != 2) {
      diags.error(range, name + " without an order transposes a 2-D tile, not " +
                             x.type().str() + "; give the order, e.g. permute(x, 2, 1, 0)");
      noteDefinition(x);
      return Value::error();
    }
    dims = {1, 0};
  } else {
    std::vector<bool> seen(rank, false);
    for (const Value &d : order) {
      std::optional<int64_t> i = constantInt(d, orderRange, "a dimension of " + name.str() + "()");
      if (!i)
        return Value::error();
      int64_t dim = *i < 0 ? *i + rank : *i;
      if (order.size() != rank || dim < 0 || dim >= int64_t(rank) || seen[dim]) {
        diags.error(orderRange, name + "() needs a permutation of the " + llvm::Twine(rank) +
                                    " dimensions of " + x.type().str() + " (0 to " +
                                    llvm::Twine(rank - 1) + ", each once)");
        return Value::error();
      }
      seen[dim] = true;
      dims.push_back(int32_t(dim));
    }
  }
  bool identity = true;
  llvm::SmallVector<int64_t, 4> shape;
  for (unsigned i = 0; i < rank; ++i) {
    identity &= dims[i] == int32_t(i);
    shape.push_back(x.type().shape()[dims[i]]);
  }
  if (identity)
    return x;
  return Value::runtime(
      make<typed::TransExpr>(x.type().withShape(shape), range, x.expr, std::move(dims)));
}
