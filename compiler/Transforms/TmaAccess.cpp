//===- TmaAccess.cpp - loads a TMA tensor map can describe ------------------===//

#include "compiler/Transforms/TmaAccess.h"
#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/SpecializeArguments.h"
#include "dialects/Tile/SharedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <numeric>

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

/// An index tile: along `dim`, the sum of `origin` (scalars) and arange.
struct Index {
  unsigned dim;
  SmallVector<Value> origin;
  int64_t size; // elements of the arange
};

/// One term of an offset tile: an index times `stride` (null: the constant `factor`).
struct Term {
  Index index;
  Value stride;
  int64_t factor = 1;
};

/// The dimension `d` of a rank-r value becomes after expand_dims at `axis`.
unsigned expanded(unsigned d, unsigned axis) { return d < axis ? d : d + 1; }

/// Ops that keep which index runs along which dimension: layout conversions and
/// broadcasts of size-1 dimensions.
Value throughShapeKeeping(Value v) {
  while (true) {
    v = stripHints(v);
    if (auto cvt = v.getDefiningOp<ConvertLayoutOp>()) {
      v = cvt.getSrc();
      continue;
    }
    if (auto b = v.getDefiningOp<BroadcastOp>()) {
      v = b.getSrc();
      continue;
    }
    return v;
  }
}

std::optional<Index> indexOf(Value v, int depth = 0) {
  if (depth > 16)
    return std::nullopt;
  v = throughShapeKeeping(v);
  if (auto range = v.getDefiningOp<MakeRangeOp>()) {
    if (range.getStart() != 0)
      return std::nullopt;
    return Index{0, {}, int64_t(range.getEnd())};
  }
  if (auto expand = v.getDefiningOp<ExpandDimsOp>()) {
    std::optional<Index> i = indexOf(expand.getSrc(), depth + 1);
    if (!i)
      return std::nullopt;
    i->dim = expanded(i->dim, expand.getAxis());
    return i;
  }
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    for (auto [x, y] : {std::pair(add.getLhs(), add.getRhs()), std::pair(add.getRhs(), add.getLhs())})
      if (auto splat = throughShapeKeeping(x).getDefiningOp<SplatOp>())
        if (std::optional<Index> i = indexOf(y, depth + 1)) {
          i->origin.push_back(splat.getSrc());
          return i;
        }
  }
  return std::nullopt;
}

/// The scalar a tile of one repeated value holds.
Value scalarOf(Value v) {
  if (auto splat = throughShapeKeeping(v).getDefiningOp<SplatOp>())
    return splat.getSrc();
  return {};
}

bool termsOf(Value v, SmallVectorImpl<Term> &terms, int depth = 0) {
  if (depth > 16)
    return false;
  v = throughShapeKeeping(v);
  if (auto expand = v.getDefiningOp<ExpandDimsOp>()) {
    SmallVector<Term> inner;
    if (!termsOf(expand.getSrc(), inner, depth + 1))
      return false;
    for (Term &t : inner) {
      t.index.dim = expanded(t.index.dim, expand.getAxis());
      terms.push_back(t);
    }
    return true;
  }
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    // An index itself (its origin added), or the sum of two offset tiles.
    if (std::optional<Index> i = indexOf(v, depth + 1)) {
      terms.push_back({*i, Value()});
      return true;
    }
    return termsOf(add.getLhs(), terms, depth + 1) && termsOf(add.getRhs(), terms, depth + 1);
  }
  if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
    for (auto [x, y] : {std::pair(mul.getLhs(), mul.getRhs()), std::pair(mul.getRhs(), mul.getLhs())}) {
      Value s = scalarOf(y);
      APInt constant;
      bool isConstant = !s && matchPattern(throughShapeKeeping(y), m_ConstantInt(&constant));
      if (!s && !isConstant)
        continue;
      if (std::optional<Index> i = indexOf(x, depth + 1)) {
        terms.push_back({*i, s, isConstant ? constant.getSExtValue() : 1});
        return true;
      }
    }
    return false;
  }
  if (std::optional<Index> i = indexOf(v, depth + 1)) {
    terms.push_back({*i, Value()});
    return true;
  }
  return false;
}

/// The pointer argument and the offset terms of a pointer tile.
bool pointerOf(Value p, BlockArgument &base, SmallVectorImpl<Term> &terms, int depth = 0) {
  if (depth > 16)
    return false;
  p = throughShapeKeeping(p);
  if (auto splat = p.getDefiningOp<SplatOp>()) {
    auto arg = dyn_cast<BlockArgument>(stripHints(splat.getSrc()));
    if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
      return false;
    base = arg;
    return true;
  }
  if (auto add = p.getDefiningOp<AddPtrOp>())
    return pointerOf(add.getPtr(), base, terms, depth + 1) &&
           termsOf(add.getOffset(), terms, depth + 1);
  if (auto expand = p.getDefiningOp<ExpandDimsOp>()) {
    SmallVector<Term> inner;
    if (!pointerOf(expand.getSrc(), base, inner, depth + 1))
      return false;
    for (Term &t : inner) {
      t.index.dim = expanded(t.index.dim, expand.getAxis());
      terms.push_back(t);
    }
    return true;
  }
  return false;
}

/// The bound of each dimension the mask compares: `index < splat(bound)`, and-ed; an
/// `index >= 0` and-ed in is an entry with a null bound.
bool boundsOf(Value m, SmallVectorImpl<std::pair<Index, Value>> &bounds, int depth = 0) {
  if (depth > 16)
    return false;
  m = throughShapeKeeping(m);
  if (auto a = m.getDefiningOp<arith::AndIOp>())
    return boundsOf(a.getLhs(), bounds, depth + 1) && boundsOf(a.getRhs(), bounds, depth + 1);
  if (auto expand = m.getDefiningOp<ExpandDimsOp>()) {
    SmallVector<std::pair<Index, Value>> inner;
    if (!boundsOf(expand.getSrc(), inner, depth + 1))
      return false;
    for (auto &[i, b] : inner) {
      i.dim = expanded(i.dim, expand.getAxis());
      bounds.push_back({i, b});
    }
    return true;
  }
  if (auto cmp = m.getDefiningOp<arith::CmpIOp>()) {
    std::optional<Index> i = indexOf(cmp.getLhs(), depth + 1);
    if (!i)
      return false;
    if (cmp.getPredicate() == arith::CmpIPredicate::sge &&
        matchPattern(throughShapeKeeping(cmp.getRhs()), m_Zero())) {
      bounds.push_back({*i, Value()});
      return true;
    }
    Value bound = scalarOf(cmp.getRhs());
    if (cmp.getPredicate() != arith::CmpIPredicate::slt || !bound)
      return false;
    bounds.push_back({*i, bound});
    return true;
  }
  return false;
}

bool sameValues(ArrayRef<Value> a, ArrayRef<Value> b) {
  if (a.size() != b.size())
    return false;
  SmallVector<Value> x(a), y(b);
  auto less = [](Value l, Value r) { return l.getAsOpaquePointer() < r.getAsOpaquePointer(); };
  llvm::sort(x, less);
  llvm::sort(y, less);
  return x == y;
}

/// The TMA view of an access to `ptr` under `mask`, of tile type `type`.
std::optional<TmaAccess> matchAccess(Value ptr, Value mask, RankedTensorType type);

} // namespace

std::optional<TmaAccess> matchTmaAccess(LoadOp load) {
  if (!isZeroOrAbsent(load.getOther()))
    return std::nullopt;
  return matchAccess(load.getPtr(), load.getMask(), dyn_cast<RankedTensorType>(load.getType()));
}

std::optional<TmaAccess> matchTmaAccess(StoreOp store) {
  return matchAccess(store.getPtr(), store.getMask(),
                     dyn_cast<RankedTensorType>(store.getValue().getType()));
}

namespace {

std::optional<TmaAccess> matchAccess(Value ptr, Value mask, RankedTensorType type) {
  if (!type || type.getRank() < 1 || type.getRank() > 5 || !mask)
    return std::nullopt;
  unsigned rank = unsigned(type.getRank());
  TmaAccess access;
  SmallVector<Term> terms;
  if (!pointerOf(ptr, access.base, terms) || terms.size() != rank)
    return std::nullopt;
  access.dims.resize(rank);
  SmallVector<bool> seen(rank, false);
  for (Term &t : terms) {
    // An index covers its whole dimension (not a size-1 range broadcast along it).
    if (t.index.dim >= rank || seen[t.index.dim] || t.index.size != type.getDimSize(t.index.dim))
      return std::nullopt;
    seen[t.index.dim] = true;
    access.dims[t.index.dim].origin = t.index.origin;
    access.dims[t.index.dim].stride = t.stride;
    access.dims[t.index.dim].strideConstant = t.factor;
  }
  // The innermost dimension is contiguous.
  if (Value s = access.dims.back().stride; s && !matchPattern(s, m_One()))
    return std::nullopt;
  if (!access.dims.back().stride && access.dims.back().strideConstant != 1)
    return std::nullopt;
  access.dims.back().stride = Value();
  SmallVector<std::pair<Index, Value>> bounds;
  if (!boundsOf(mask, bounds))
    return std::nullopt;
  for (auto &[index, bound] : bounds) {
    if (index.dim >= rank || index.size != type.getDimSize(index.dim) ||
        !sameValues(index.origin, access.dims[index.dim].origin))
      return std::nullopt;
    if (!bound)
      continue; // index >= 0: a box reads zeros below its coordinates' zero too
    if (access.dims[index.dim].bound)
      return std::nullopt;
    access.dims[index.dim].bound = bound;
  }
  // A dimension without a bound: its index is arange alone, the tile read whole.
  for (auto [d, dim] : llvm::enumerate(access.dims))
    if (!dim.bound) {
      if (!dim.origin.empty())
        return std::nullopt;
      dim.extent = type.getDimSize(d);
    }
  if (llvm::all_of(access.dims, [](const TmaDim &d) { return !d.bound; }))
    return std::nullopt; // no mask to save: cp.async copies it as well
  return access;
}

} // namespace

std::optional<TmaDescription> describeTmaAccess(const TmaAccess &access, func::FuncOp kernel,
                                                int64_t elementBytes) {
  Block &entry = kernel.getBody().front();
  SmallVector<std::string> names = kernelArgumentNames(kernel);
  auto divisibility = [&](BlockArgument arg) -> int64_t {
    auto d = kernel.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), kDivisibilityAttrName);
    return d ? d.getInt() : 1;
  };
  // A bound or stride as a grid expression: arguments and constants, multiplied and added
  // (`Z * H * N_CTX`); *multipleOf is what it is known to be a multiple of.
  std::function<std::optional<std::string>(Value, int64_t *, int)> term =
      [&](Value v, int64_t *multipleOf, int depth) -> std::optional<std::string> {
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant))) {
      *multipleOf = constant.getSExtValue();
      return std::to_string(constant.getSExtValue());
    }
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != &entry || arg.getArgNumber() >= names.size())
        return std::nullopt;
      *multipleOf = divisibility(arg);
      return names[arg.getArgNumber()];
    }
    if (depth > 8)
      return std::nullopt;
    int64_t ml = 0, mr = 0;
    if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
      std::optional<std::string> l = term(mul.getLhs(), &ml, depth + 1);
      std::optional<std::string> r = term(mul.getRhs(), &mr, depth + 1);
      if (!l || !r)
        return std::nullopt;
      if (llvm::MulOverflow(ml, mr, *multipleOf))
        return std::nullopt;
      return *l + " * " + *r;
    }
    if (auto add = v.getDefiningOp<arith::AddIOp>()) {
      std::optional<std::string> l = term(add.getLhs(), &ml, depth + 1);
      std::optional<std::string> r = term(add.getRhs(), &mr, depth + 1);
      if (!l || !r)
        return std::nullopt;
      *multipleOf = std::gcd(ml, mr);
      return "(" + *l + " + " + *r + ")";
    }
    return std::nullopt;
  };
  auto expression = [&](Value v, int64_t scale,
                        int64_t *multipleOf) -> std::optional<std::string> {
    std::optional<std::string> e = term(v, multipleOf, 0);
    if (!e)
      return std::nullopt;
    if (llvm::MulOverflow(*multipleOf, scale, *multipleOf))
      return std::nullopt;
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant)))
      return std::to_string(constant.getSExtValue() * scale);
    return scale == 1 ? *e : *e + " * " + std::to_string(scale);
  };
  if (access.base.getOwner() != &entry || divisibility(access.base) < 16)
    return std::nullopt;
  TmaDescription d;
  unsigned rank = access.dims.size();
  for (int k = int(rank) - 1; k >= 0; --k) {
    int64_t unused;
    std::optional<std::string> bound =
        access.dims[k].bound ? expression(access.dims[k].bound, 1, &unused)
                             : std::optional<std::string>(std::to_string(access.dims[k].extent));
    if (!bound)
      return std::nullopt;
    d.dims.push_back(*bound);
    if (k == int(rank) - 1)
      continue;
    int64_t multiple = 0;
    std::optional<std::string> stride;
    if (access.dims[k].stride) {
      stride = expression(access.dims[k].stride, elementBytes, &multiple);
    } else if (access.dims[k].strideConstant > 1) {
      // A constant stride (`HEAD_DIM` rows): a stride of 1 in an outer dimension is not
      // a row-major array.
      multiple = access.dims[k].strideConstant * elementBytes;
      stride = std::to_string(multiple);
    }
    if (!stride || multiple == 0 || multiple % 16 != 0)
      return std::nullopt;
    d.stridesBytes.push_back(*stride);
  }
  return d;
}

SmallVector<Value> boxCoordinates(OpBuilder &b, Location loc, const TmaAccess &access,
                                  const IRMapping &mapping) {
  SmallVector<Value> coords;
  for (const TmaDim &d : access.dims) {
    Value c;
    for (Value o : d.origin) {
      Value mapped = mapping.lookupOrDefault(o);
      c = c ? arith::AddIOp::create(b, loc, c, mapped).getResult() : mapped;
    }
    coords.push_back(c ? c : arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0).getResult());
  }
  return coords;
}

std::optional<TmaMap> planTensorMap(const TmaAccess &access, func::FuncOp kernel,
                                    SharedMemType slot) {
  auto encoding = dyn_cast<NVMMASharedEncodingAttr>(slot.getEncoding());
  ArrayRef<int64_t> shape = slot.getTileShape();
  unsigned rank = shape.size();
  if (!encoding || rank != access.dims.size() || encoding.getSwizzle() != kTmaSwizzleBytes)
    return std::nullopt;
  for (unsigned k = 0; k < rank; ++k)
    if (encoding.getOrder()[k] != rank - 1 - k)
      return std::nullopt;
  Type element = slot.getElementType();
  int64_t elementBytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  std::optional<TmaDescription> description = describeTmaAccess(access, kernel, elementBytes);
  if (!description)
    return std::nullopt;
  SmallVector<std::string> names = kernelArgumentNames(kernel);
  // The box: whole rows of a swizzle atom, as many rows as fit.
  SharedLayout layout = getSharedLayout(slot);
  SmallVector<int64_t> box(shape.begin(), shape.end());
  box.back() = layout.atomWidth();
  for (unsigned k = 0; k + 1 < rank; ++k)
    box[k] = std::min<int64_t>(box[k], 256);
  MLIRContext *ctx = kernel.getContext();
  auto mapType = TensorMapType::getChecked([] { return InFlightDiagnostic(); }, ctx,
                                           ArrayRef<int64_t>(box), element,
                                           int64_t(encoding.getSwizzle()));
  if (!mapType)
    return std::nullopt;
  Builder b(ctx);
  SmallVector<Attribute> dimAttrs, strideAttrs;
  for (const std::string &d : description->dims)
    dimAttrs.push_back(b.getStringAttr(d));
  for (const std::string &st : description->stridesBytes)
    strideAttrs.push_back(b.getStringAttr(st));
  auto info = b.getDictionaryAttr(
      {b.getNamedAttr("param", b.getStringAttr(names[access.base.getArgNumber()])),
       b.getNamedAttr("dims", b.getArrayAttr(dimAttrs)),
       b.getNamedAttr("strides_bytes", b.getArrayAttr(strideAttrs))});
  return TmaMap{mapType, b.getDictionaryAttr(b.getNamedAttr(kTensorMapAttrName, info))};
}

BlockArgument tensorMapArgument(func::FuncOp kernel, const TmaMap &map, Location loc) {
  for (BlockArgument arg : kernel.getArguments())
    if (arg.getType() == map.type && kernel.getArgAttrDict(arg.getArgNumber()) == map.attrs)
      return arg;
  SmallVector<std::string> names = kernelArgumentNames(kernel);
  unsigned index = kernel.getNumArguments();
  auto info = map.attrs.getAs<DictionaryAttr>(kTensorMapAttrName);
  auto param = info ? info.getAs<StringAttr>("param") : StringAttr();
  if (!param || failed(kernel.insertArgument(index, map.type, map.attrs, loc)))
    return BlockArgument();
  Builder b(kernel.getContext());
  SmallVector<Attribute> argNames;
  for (const std::string &n : names)
    argNames.push_back(b.getStringAttr(n));
  argNames.push_back(b.getStringAttr(param.getValue().str() + "_tma" + std::to_string(index)));
  kernel->setAttr(kArgNamesAttrName, b.getArrayAttr(argNames));
  return kernel.getArgument(index);
}

} // namespace tcc

namespace tcc {

std::optional<SmallVector<scf::ForOp>> ringEnclosingLoops(scf::ForOp loop) {
  SmallVector<scf::ForOp> loops;
  // Other ops (an scf.if) may hold the outermost loop, not stand between two.
  bool other = false;
  for (Operation *p = loop->getParentOp(); p && !isa<func::FuncOp>(p); p = p->getParentOp()) {
    auto outer = dyn_cast<scf::ForOp>(p);
    if (!outer) {
      if (isa<LoopLikeOpInterface>(p))
        return std::nullopt;
      other = true;
      continue;
    }
    if (other || !outer.getInductionVar().getType().isInteger(32))
      return std::nullopt;
    loops.push_back(outer);
  }
  if (!loop->getParentOfType<func::FuncOp>())
    return std::nullopt;
  APInt step;
  if (!loops.empty() &&
      (!matchPattern(loop.getStep(), m_ConstantInt(&step)) || !step.isStrictlyPositive()))
    return std::nullopt;
  std::reverse(loops.begin(), loops.end());
  return loops;
}

} // namespace tcc
