//===- SemaBlockPtr.cpp - Block pointers and tensor descriptors ----------===//
//
// Triton's `make_block_ptr` / `advance` / `load(block_ptr, boundary_check=, padding_option=)`
// / `store(block_ptr, value, boundary_check=)` and `make_tensor_descriptor` with
// `desc.load(offsets)` / `desc.store(offsets, value)`.
//
// A block pointer is a compile-time structure (BlockPointer) of runtime scalars: the base
// pointer, the tensor's shape and strides, the block's offsets, and compile-time block shape
// and order. Nothing of it reaches the IR until it is read or written: then it becomes an
// ordinary tile of pointers, base + sum over d of (offset_d + arange(0, B_d)) * stride_d
// (broadcast along the other dimensions), with a bounds mask 0 <= index_d < shape_d on the
// checked dimensions and `other` 0 (or NaN) -- so every pass that handles masked loads and
// stores (coalescing, vectorisation by the axis analysis, the tile pipeline and the
// tensor-core operand path) applies unchanged, and the interpreter runs them as it runs any
// tile IR. A tensor descriptor is the same with every dimension checked (Triton's semantics:
// reads outside the tensor give zero, writes there are dropped) and offsets given at each
// access. Loops carry a block pointer's offsets, one i32 each; its base, shape and strides
// must stay as they are (advance() only moves the offsets).
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/SemaInternal.h"

#include "llvm/Support/Casting.h"

#include <limits>

using namespace tcc;
using namespace tcc::sema;

std::string BlockPointer::describe() const {
  std::string elem = base ? base->type.str() : "?";
  return std::string(isDescriptor ? "a tensor descriptor" : "a block pointer") +
         " (block " + shapeStr(blockShape) + " of " + elem + ")";
}

static bool isConstantInt(const Value &v, int64_t n) { return v.isIntLike() && v.intValue == n; }

/// The entries of a shape / strides / offsets argument: a tuple or list of integers (runtime
/// integer scalars or compile-time integers).
static bool integerList(Sema &s, const Value &v, SMRange range, llvm::StringRef fn,
                        llvm::StringRef what, std::vector<Value> &out) {
  out.clear();
  if (v.kind == Value::Kind::Tuple)
    out = v.elements;
  else
    out.push_back(v);
  for (size_t i = 0; i < out.size(); ++i) {
    const Value &e = out[i];
    if (e.isError())
      return false;
    if (e.isIntLike())
      continue;
    if (e.isRuntime() && !e.type().isTile() && e.type().element().isInteger() &&
        !e.type().element().isBool())
      continue;
    s.diags.error(range, fn + "()'s " + what + " must be integers (a tuple or list of them), "
                                                "but " +
                             (out.size() > 1 || v.kind == Value::Kind::Tuple
                                  ? "entry " + std::to_string(i) + " is "
                                  : std::string("it is ")) +
                             e.describe());
    s.noteDefinition(e);
    return false;
  }
  if (out.empty()) {
    s.diags.error(range, fn + "()'s " + what + " are empty; a block has at least one dimension");
    return false;
  }
  return true;
}

/// Whether `fn`() got one offset per dimension of `bp` (a block pointer's offsets, a
/// descriptor's block shape); false after an error and a note where `bp` is made.
static bool oneOffsetPerDimension(Sema &s, const BlockPointer &bp, size_t given, SMRange range,
                                  llvm::StringRef fn) {
  size_t rank = bp.isDescriptor ? bp.blockShape.size() : bp.offsets.size();
  if (given == rank)
    return true;
  llvm::StringRef what = bp.isDescriptor ? "descriptor" : "block pointer";
  s.diags.error(range, fn + "() got " + std::to_string(given) + " offset" +
                           (given == 1 ? "" : "s") + " for a " + what + " of rank " +
                           std::to_string(rank) + "; give one per dimension");
  s.diags.note(bp.range, ("the " + what + " is made here").str());
  return false;
}

/// Compile-time integers of a block_shape / order argument.
static bool constantList(Sema &s, const Value &v, SMRange range, llvm::StringRef fn,
                         llvm::StringRef what, std::vector<int64_t> &out) {
  out.clear();
  std::vector<Value> elems;
  if (v.kind == Value::Kind::Tuple)
    elems = v.elements;
  else
    elems.push_back(v);
  for (const Value &e : elems) {
    std::optional<int64_t> n = s.constantInt(e, range, (fn + "()'s " + what).str());
    if (!n)
      return false;
    out.push_back(*n);
  }
  return true;
}

static bool checkBlockShape(Sema &s, const std::vector<int64_t> &shape, SMRange range,
                            llvm::StringRef fn) {
  for (int64_t d : shape)
    if (!isPowerOfTwo(d)) {
      s.diags.error(range, fn + "()'s block_shape " + shapeStr(shape) +
                               " must be powers of two (it is the shape of the tiles it loads "
                               "and stores), but one is " + std::to_string(d));
      return false;
    }
  return s.checkTileSize(shape, range);
}

/// An offset as Triton keeps it: i32 (a runtime integer converted, a constant kept).
static Value asOffset(Sema &s, const Value &v, SMRange range) {
  if (!v.isRuntime())
    return v;
  return Value::runtime(s.convertElement(v.expr, ElementType::number(ScalarKind::I32), range));
}

static bool rankMatches(Sema &s, size_t n, size_t rank, SMRange range, llvm::StringRef fn,
                        llvm::StringRef what) {
  if (n == rank)
    return true;
  bool plural = what == "strides" || what == "offsets";
  s.diags.error(range, fn + "()'s " + what + (plural ? " have " : " has ") + std::to_string(n) +
                           (n == 1 ? " entry" : " entries") + " but its shape has " +
                           std::to_string(rank) + "; give one per dimension");
  return false;
}

/// `base` as the pointer scalar a block starts at.
static bool readBase(Sema &s, const Value &v, SMRange range, llvm::StringRef fn) {
  if (v.isRuntime() && !v.type().isTile() && v.type().element().isPointer)
    return true;
  s.diags.error(range, fn + "()'s base must be a pointer (a scalar such as a *f16 parameter "
                            "plus an offset), not " + v.describe());
  s.noteDefinition(v);
  return false;
}

static Value makeValue(BlockPointer bp) {
  Value v;
  v.kind = Value::Kind::BlockPtr;
  v.blockPtr = std::make_shared<const BlockPointer>(std::move(bp));
  return v;
}

Value Sema::blockPtrCall(Builtin b, llvm::StringRef name, const ast::CallExpr *call) {
  std::vector<Value> a;
  std::vector<SMRange> r;
  switch (b) {
  case Builtin::MakeBlockPtr: {
    if (!bindArguments(call, name, {"base", "shape", "strides", "offsets", "block_shape", "order"},
                       6, a, r))
      return Value::error();
    BlockPointer bp;
    bp.range = call->range;
    if (!readBase(*this, a[0], r[0], name))
      return Value::error();
    bp.base = a[0].expr;
    std::vector<Value> offsets;
    if (!integerList(*this, a[1], r[1], name, "shape", bp.shape) ||
        !integerList(*this, a[2], r[2], name, "strides", bp.strides) ||
        !integerList(*this, a[3], r[3], name, "offsets", offsets) ||
        !constantList(*this, a[4], r[4], name, "block_shape", bp.blockShape) ||
        !constantList(*this, a[5], r[5], name, "order", bp.order))
      return Value::error();
    size_t rank = bp.shape.size();
    if (!rankMatches(*this, bp.strides.size(), rank, r[2], name, "strides") ||
        !rankMatches(*this, offsets.size(), rank, r[3], name, "offsets") ||
        !rankMatches(*this, bp.blockShape.size(), rank, r[4], name, "block_shape") ||
        !rankMatches(*this, bp.order.size(), rank, r[5], name, "order"))
      return Value::error();
    if (!checkBlockShape(*this, bp.blockShape, r[4], name))
      return Value::error();
    std::vector<bool> seen(rank, false);
    for (int64_t o : bp.order) {
      if (o < 0 || o >= int64_t(rank) || seen[size_t(o)]) {
        std::string list;
        for (int64_t x : bp.order)
          list += (list.empty() ? "" : ", ") + std::to_string(x);
        diags.error(r[5], name + "()'s order (" + list + ") must be a permutation of the " +
                              std::to_string(rank) + " dimensions 0 to " +
                              std::to_string(rank - 1) + " (fastest-varying first)");
        return Value::error();
      }
      seen[size_t(o)] = true;
    }
    for (size_t i = 0; i < rank; ++i)
      bp.offsets.push_back(asOffset(*this, offsets[i], r[3]));
    return makeValue(std::move(bp));
  }
  case Builtin::MakeTensorDescriptor: {
    if (!bindArguments(call, name, {"base", "shape", "strides", "block_shape", "padding_option"},
                       4, a, r))
      return Value::error();
    BlockPointer bp;
    bp.isDescriptor = true;
    bp.range = call->range;
    if (!readBase(*this, a[0], r[0], name))
      return Value::error();
    bp.base = a[0].expr;
    if (!integerList(*this, a[1], r[1], name, "shape", bp.shape) ||
        !integerList(*this, a[2], r[2], name, "strides", bp.strides) ||
        !constantList(*this, a[3], r[3], name, "block_shape", bp.blockShape))
      return Value::error();
    size_t rank = bp.shape.size();
    if (rank > 5) {
      diags.error(r[1], name + "() describes tensors of 1 to 5 dimensions, not " +
                            std::to_string(rank));
      return Value::error();
    }
    if (!rankMatches(*this, bp.strides.size(), rank, r[2], name, "strides") ||
        !rankMatches(*this, bp.blockShape.size(), rank, r[3], name, "block_shape"))
      return Value::error();
    if (!isConstantInt(bp.strides.back(), 1)) {
      diags.error(r[2], name + "()'s last stride must be the constant 1 (the innermost "
                               "dimension is contiguous, as Triton requires), not " +
                            bp.strides.back().describe());
      noteDefinition(bp.strides.back());
      return Value::error();
    }
    if (!checkBlockShape(*this, bp.blockShape, r[3], name))
      return Value::error();
    if (a[4].kind != Value::Kind::None &&
        !(a[4].kind == Value::Kind::Str && (a[4].str == "zero" || a[4].str == "nan"))) {
      diags.error(r[4], name + "()'s padding_option must be \"zero\" or \"nan\", not " +
                            (a[4].kind == Value::Kind::Str ? "\"" + a[4].str + "\""
                                                           : a[4].describe()));
      return Value::error();
    }
    if (a[4].kind == Value::Kind::Str && a[4].str == "nan") {
      if (!bp.base->type.element().isPointer || !tcc::isFloat(bp.base->type.element().scalar)) {
        diags.error(r[4], "padding_option=\"nan\" needs floating-point elements, but the base "
                          "is " + bp.base->type.str());
        return Value::error();
      }
      bp.nanPadding = true;
    }
    return makeValue(std::move(bp));
  }
  case Builtin::Advance: {
    if (!bindArguments(call, name, {"base", "offsets"}, 2, a, r))
      return Value::error();
    if (a[0].kind != Value::Kind::BlockPtr || a[0].blockPtr->isDescriptor) {
      diags.error(r[0], name + "() moves a block pointer (made by make_block_ptr), not " +
                            a[0].describe() +
                            (a[0].kind == Value::Kind::BlockPtr
                                 ? "; a descriptor takes its offsets at each load and store"
                                 : ""));
      noteDefinition(a[0]);
      return Value::error();
    }
    BlockPointer bp = *a[0].blockPtr;
    std::vector<Value> deltas;
    if (!integerList(*this, a[1], r[1], name, "offsets", deltas))
      return Value::error();
    if (!oneOffsetPerDimension(*this, bp, deltas.size(), r[1], name))
      return Value::error();
    for (size_t i = 0; i < deltas.size(); ++i) {
      if (isConstantInt(deltas[i], 0))
        continue;
      Value sum = binary(ast::BinaryOp::Add, bp.offsets[i], deltas[i], call->range, r[0], r[1],
                         call->range);
      if (sum.isError())
        return sum;
      bp.offsets[i] = asOffset(*this, sum, call->range);
    }
    return makeValue(std::move(bp));
  }
  case Builtin::IsInstance: {
    if (!bindArguments(call, name, {"obj", "classinfo"}, 2, a, r))
      return Value::error();
    std::vector<Value> classes =
        a[1].kind == Value::Kind::Tuple ? a[1].elements : std::vector<Value>{a[1]};
    for (const Value &c : classes)
      if (c.kind != Value::Kind::Builtin || c.builtin != Builtin::TensorDescriptorType) {
        diags.error(r[1], "isinstance() in tcc tests only for tl.tensor_descriptor (a "
                          "compile-time question about a value), not for " + c.describe());
        return Value::error();
      }
    return Value::boolean(a[0].kind == Value::Kind::BlockPtr && a[0].blockPtr->isDescriptor);
  }
  case Builtin::TensorDescriptorType:
    diags.error(call->callee->range, "'" + name + "' is the type of tensor descriptors; make "
                                     "one with make_tensor_descriptor(base, shape, strides, "
                                     "block_shape)");
    return Value::error();
  default:
    break;
  }
  diags.error(call->range, "internal error: '" + name + "' is not a block-pointer builtin");
  return Value::error();
}

/// The dimensions a boundary_check= names, checked against the rank.
static bool boundaryCheck(Sema &s, const Value &v, SMRange range, size_t rank,
                          std::vector<bool> &check) {
  check.assign(rank, false);
  if (v.kind == Value::Kind::None)
    return true;
  std::vector<Value> dims = v.kind == Value::Kind::Tuple ? v.elements : std::vector<Value>{v};
  for (const Value &d : dims) {
    std::optional<int64_t> n = s.constantInt(d, range, "a dimension of boundary_check");
    if (!n)
      return false;
    if (*n < 0 || *n >= int64_t(rank)) {
      s.diags.error(range, "boundary_check names dimension " + std::to_string(*n) +
                               ", but the block pointer has " + std::to_string(rank) +
                               " dimension" + (rank == 1 ? "" : "s") + " (0 to " +
                               std::to_string(rank - 1) + ")");
      return false;
    }
    check[size_t(*n)] = true;
  }
  return true;
}

/// `d`'s index tile (arange(0, B_d), B_d at position d of `rank` dimensions).
static typed::Expr *indexAlong(Sema &s, int64_t size, unsigned d, unsigned rank, SMRange range) {
  typed::Expr *e = s.make<typed::ArangeExpr>(
      Type(ElementType::number(ScalarKind::I32), {size}), range, 0, size);
  for (unsigned k = 0; k < d; ++k) {
    llvm::SmallVector<int64_t, 4> shape{1};
    shape.append(e->type.shape().begin(), e->type.shape().end());
    e = s.make<typed::ExpandDimsExpr>(e->type.withShape(shape), range, e, 0);
  }
  while (e->type.rank() < rank) {
    llvm::SmallVector<int64_t, 4> shape(e->type.shape().begin(), e->type.shape().end());
    shape.push_back(1);
    e = s.make<typed::ExpandDimsExpr>(e->type.withShape(shape), range, e, e->type.rank());
  }
  return e;
}

/// The block at `offsets`: its tile of pointers and (where some dimension is checked and
/// not known to be inside) its mask.
static bool blockAddresses(Sema &s, const BlockPointer &bp, const std::vector<Value> &offsets,
                           const std::vector<bool> &check, SMRange range, typed::Expr *&ptrs,
                           typed::Expr *&mask) {
  using ast::BinaryOp;
  unsigned rank = unsigned(bp.blockShape.size());
  Value addr = Value::error(), m = Value::none();
  for (unsigned d = 0; d < rank; ++d) {
    int64_t size = bp.blockShape[d];
    Value idx = Value::runtime(indexAlong(s, size, d, rank, range));
    const Value &off = offsets[d];
    if (!isConstantInt(off, 0))
      idx = s.binary(BinaryOp::Add, idx, off, range, range, range, range);
    if (idx.isError())
      return false;
    if (check[d] && idx.expr->getKind() != typed::Expr::Kind::ExpandDims &&
        idx.expr->getKind() != typed::Expr::Kind::Arange)
      idx = s.bind("block.index", idx.expr, range); // used by the mask and the address
    if (check[d]) {
      const Value &dim = bp.shape[d];
      bool lowerInside = off.isIntLike() && off.intValue >= 0;
      bool upperInside = off.isIntLike() && dim.isIntLike() && off.intValue + size <= dim.intValue;
      std::vector<Value> conds;
      if (!lowerInside)
        conds.push_back(s.binary(BinaryOp::Ge, idx, Value::integer(0), range, range, range, range));
      if (!upperInside)
        conds.push_back(s.binary(BinaryOp::Lt, idx, dim, range, range, range, range));
      for (const Value &c : conds) {
        if (c.isError())
          return false;
        m = m.kind == Value::Kind::None
                ? c
                : s.binary(BinaryOp::BitAnd, m, c, range, range, range, range);
        if (m.isError())
          return false;
      }
    }
    Value term = idx;
    if (!isConstantInt(bp.strides[d], 1))
      term = s.binary(BinaryOp::Mul, idx, bp.strides[d], range, range, range, range);
    addr = addr.isError() ? term : s.binary(BinaryOp::Add, addr, term, range, range, range, range);
    if (addr.isError())
      return false;
  }
  Value p = s.binary(BinaryOp::Add, Value::runtime(bp.base), addr, range, range, range, range);
  if (p.isError())
    return false;
  ptrs = s.broadcastTo(p.expr, bp.blockShape, range);
  mask = m.isRuntime() ? s.broadcastTo(m.expr, bp.blockShape, range) : nullptr;
  return true;
}

static typed::Expr *readBlock(Sema &s, const BlockPointer &bp, const std::vector<Value> &offsets,
                              const std::vector<bool> &check, bool nan, SMRange range) {
  typed::Expr *ptrs = nullptr, *mask = nullptr;
  if (!blockAddresses(s, bp, offsets, check, range, ptrs, mask))
    return nullptr;
  Type result(ElementType::number(bp.base->type.element().scalar), bp.blockShape);
  typed::Expr *other = nullptr;
  if (mask)
    other = s.constant(nan ? Value::floating(std::numeric_limits<double>::quiet_NaN())
                           : Value::integer(0),
                       result, range);
  return s.make<typed::LoadExpr>(result, range, ptrs, mask, other);
}

static bool writeBlock(Sema &s, const BlockPointer &bp, const std::vector<Value> &offsets,
                       const std::vector<bool> &check, const Value &value, SMRange valueRange,
                       SMRange range, llvm::StringRef fn) {
  if (!value.isNumber() && !(value.isRuntime() && !value.type().element().isPointer)) {
    s.diags.error(valueRange, fn + " writes numbers, not " + value.describe());
    s.noteDefinition(value);
    return false;
  }
  if (value.isRuntime() && value.type().isTile() &&
      value.type().shape() != llvm::ArrayRef<int64_t>(bp.blockShape)) {
    s.diags.error(valueRange, "the value's shape " + shapeStr(value.type().shape()) +
                                  " is not the block's shape " + shapeStr(bp.blockShape) +
                                  " (" + fn + " writes whole blocks)");
    s.diags.note(bp.range, std::string(bp.isDescriptor ? "the descriptor" : "the block pointer") +
                               " is made here");
    s.noteDefinition(value);
    return false;
  }
  typed::Expr *ptrs = nullptr, *mask = nullptr;
  if (!blockAddresses(s, bp, offsets, check, range, ptrs, mask))
    return false;
  typed::Expr *v = s.coerce(
      value, Type(ElementType::number(bp.base->type.element().scalar), bp.blockShape), valueRange);
  if (!v)
    return false;
  s.emit(s.make<typed::StoreStmt>(range, ptrs, v, mask));
  return true;
}

Value Sema::blockPtrLoad(const ast::CallExpr *call, const std::vector<Value> &a,
                         const std::vector<SMRange> &r) {
  const BlockPointer &bp = *a[0].blockPtr;
  if (bp.isDescriptor) {
    diags.error(r[0], "a tensor descriptor is read with desc.load([offsets]), not load()");
    diags.note(bp.range, "the descriptor is made here");
    return Value::error();
  }
  if (a[1].kind != Value::Kind::None || a[2].kind != Value::Kind::None) {
    diags.error(a[1].kind != Value::Kind::None ? r[1] : r[2],
                "load() of a block pointer takes no mask= or other=: boundary_check= says "
                "which dimensions to check and padding_option= what to read outside");
    return Value::error();
  }
  std::vector<bool> check;
  if (!boundaryCheck(*this, a[3], r[3], bp.blockShape.size(), check))
    return Value::error();
  bool nan = false;
  if (a[4].kind != Value::Kind::None) {
    if (a[4].kind != Value::Kind::Str ||
        (a[4].str != "" && a[4].str != "zero" && a[4].str != "nan")) {
      diags.error(r[4], "padding_option must be \"zero\" or \"nan\", not " +
                            (a[4].kind == Value::Kind::Str ? "\"" + a[4].str + "\""
                                                           : a[4].describe()));
      return Value::error();
    }
    nan = a[4].str == "nan";
    if (nan && !tcc::isFloat(bp.base->type.element().scalar)) {
      diags.error(r[4], "padding_option=\"nan\" needs floating-point elements, but the block "
                        "pointer's base is " + bp.base->type.str());
      return Value::error();
    }
  }
  typed::Expr *load = readBlock(*this, bp, bp.offsets, check, nan, call->range);
  if (!load)
    return Value::error();
  return bindTemporary("load", load, call->range);
}

Value Sema::blockPtrStore(const ast::CallExpr *call, const std::vector<Value> &a,
                          const std::vector<SMRange> &r) {
  const BlockPointer &bp = *a[0].blockPtr;
  if (bp.isDescriptor) {
    diags.error(r[0], "a tensor descriptor is written with desc.store([offsets], value), not "
                      "store()");
    diags.note(bp.range, "the descriptor is made here");
    return Value::error();
  }
  if (a[2].kind != Value::Kind::None) {
    diags.error(r[2], "store() to a block pointer takes no mask=: boundary_check= says which "
                      "dimensions to check");
    return Value::error();
  }
  std::vector<bool> check;
  if (!boundaryCheck(*this, a[3], r[3], bp.blockShape.size(), check))
    return Value::error();
  if (!writeBlock(*this, bp, bp.offsets, check, a[1], r[1], call->range, "store()"))
    return Value::error();
  return Value::none();
}

Value Sema::descriptorMethod(const Value &desc, const ast::AttributeExpr *attr,
                             const ast::CallExpr *call) {
  const BlockPointer &bp = *desc.blockPtr;
  if (!bp.isDescriptor) {
    diags.error(attr->nameRange, bp.describe() + " has no method '" + attr->name +
                                     "'; use load(p, boundary_check=...), store(p, value) "
                                     "and advance(p, offsets)");
    return Value::error();
  }
  bool isLoad = attr->name == "load", isStore = attr->name == "store";
  if (!isLoad && !isStore) {
    diags.error(attr->nameRange, "a tensor descriptor has no method '" + attr->name +
                                     "' (it has load(offsets) and store(offsets, value))");
    return Value::error();
  }
  std::string name = "desc." + attr->name;
  std::vector<Value> a;
  std::vector<SMRange> r;
  if (isLoad ? !bindArguments(call, name, {"offsets"}, 1, a, r)
             : !bindArguments(call, name, {"offsets", "value"}, 2, a, r))
    return Value::error();
  std::vector<Value> offsets;
  if (!integerList(*this, a[0], r[0], name, "offsets", offsets))
    return Value::error();
  if (!oneOffsetPerDimension(*this, bp, offsets.size(), r[0], name))
    return Value::error();
  for (Value &o : offsets)
    o = asOffset(*this, o, r[0]);
  std::vector<bool> all(bp.blockShape.size(), true);
  if (isLoad) {
    typed::Expr *load = readBlock(*this, bp, offsets, all, bp.nanPadding, call->range);
    if (!load)
      return Value::error();
    return bindTemporary("load", load, call->range);
  }
  if (!writeBlock(*this, bp, offsets, all, a[1], r[1], call->range, name + "()"))
    return Value::error();
  return Value::none();
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

void Sema::carryBlockPointer(const std::string &name, const Value &init, SMRange defRange,
                             SMRange loopRange, std::vector<CarriedName> &out) {
  const BlockPointer &bp = *init.blockPtr;
  if (bp.isDescriptor) {
    diags.error(loopRange, "'" + name + "' is a tensor descriptor assigned in this loop: it "
                           "cannot change from one iteration to the next (make it before the "
                           "loop and pass the offsets to its load and store)");
    diags.note(defRange, "'" + name + "' is made here");
    return;
  }
  for (size_t i = 0; i < bp.offsets.size(); ++i) {
    typed::Expr *e = toRuntime(bp.offsets[i], defRange);
    if (!e)
      return;
    e = convertElement(e, ElementType::number(ScalarKind::I32), defRange);
    out.push_back({name, e, defRange, int(i)});
  }
}

typed::Variable *Sema::bindBlockPointerOffset(const CarriedName &c, const Type &type) {
  typed::Variable *arg =
      newVariable(c.name + ".offset" + std::to_string(c.component), type, c.defRange);
  Binding &b = frame->env[c.name];
  setBlockPointerOffset(b, c.component, make<typed::VarRefExpr>(arg, c.defRange));
  return arg;
}

void Sema::setBlockPointerOffset(Binding &b, int component, typed::Expr *offset) {
  b.version = ++versionCounter;
  if (b.value.kind != Value::Kind::BlockPtr)
    return;
  BlockPointer bp = *b.value.blockPtr;
  bp.offsets[size_t(component)] = Value::runtime(offset);
  b.value = makeValue(std::move(bp));
}

static bool sameScalar(const Value &a, const Value &b) {
  if (a.isRuntime() || b.isRuntime())
    return a.isRuntime() && b.isRuntime() && a.expr == b.expr;
  return a.kind == b.kind && a.intValue == b.intValue;
}

/// The same block pointer but for its offsets.
static bool sameStructure(const BlockPointer &a, const BlockPointer &b) {
  if (a.isDescriptor != b.isDescriptor || a.base != b.base || a.blockShape != b.blockShape ||
      a.order != b.order || a.shape.size() != b.shape.size())
    return false;
  for (size_t i = 0; i < a.shape.size(); ++i)
    if (!sameScalar(a.shape[i], b.shape[i]) || !sameScalar(a.strides[i], b.strides[i]))
      return false;
  return true;
}

typed::Expr *Sema::blockPointerNext(const std::string &name, int component, typed::Variable *arg,
                                    const llvm::StringMap<Binding> &saved, SMRange loopRange) {
  const Binding &b = frame->env[name];
  typed::Expr *keep = make<typed::VarRefExpr>(arg, loopRange);
  if (b.value.isError())
    return keep;
  const Binding &before = saved.lookup(name);
  if (b.value.kind != Value::Kind::BlockPtr || before.value.kind != Value::Kind::BlockPtr ||
      !sameStructure(*b.value.blockPtr, *before.value.blockPtr)) {
    if (component == 0) {
      diags.error(b.defRange, "'" + name + "' is a block pointer carried by the loop, so only "
                              "its offsets may change from one iteration to the next (move it "
                              "with advance()); here it is " + b.value.describe() +
                              (b.value.kind == Value::Kind::BlockPtr
                                   ? " with another base, shape, strides or block shape"
                                   : ""));
      diags.note(before.defRange, "'" + name + "' is made here, before the loop");
    }
    return keep;
  }
  typed::Expr *e = toRuntime(b.value.blockPtr->offsets[size_t(component)], b.defRange);
  if (!e)
    return keep;
  return convertElement(e, ElementType::number(ScalarKind::I32), b.defRange);
}
