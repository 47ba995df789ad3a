//===- Cost.cpp - bytes moved and FLOPs of a kernel, as grid expressions -===//
//
// A small symbolic arithmetic over the kernel's integer parameters: costs are sums of
// per-operation counts (literals: tile shapes are static), multiplied by loop trip counts
// (expressions of the loop bounds, when those are expressions of the parameters) and by
// the grid. Literals fold as the expressions are built, so a kernel without loops gets
// `12288 * cdiv(n, 1024)`, not a sum of three products.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/Cost.h"

#include "dialects/Tile/TileDialect.h"
#include "tcc/grid_expr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

using namespace mlir;

namespace tcc {
namespace {

using grid::Op;

struct Sym;
using S = std::shared_ptr<const Sym>; // null: not expressible

struct Sym {
  Op op = Op::Lit;
  int64_t value = 0;
  std::string name;
  S a, b;
};

S make(Op op, S a, S b) {
  auto s = std::make_shared<Sym>();
  s->op = op;
  s->a = std::move(a);
  s->b = std::move(b);
  return s;
}
S lit(int64_t v) {
  auto s = std::make_shared<Sym>();
  s->value = v;
  return s;
}
S named(std::string n) {
  auto s = std::make_shared<Sym>();
  s->op = Op::Name;
  s->name = std::move(n);
  return s;
}
bool isLit(const S &s, int64_t *v = nullptr) {
  if (!s || s->op != Op::Lit)
    return false;
  if (v)
    *v = s->value;
  return true;
}
bool isLitEq(const S &s, int64_t want) {
  int64_t v;
  return isLit(s, &v) && v == want;
}

// The constructors fold literals and a few identities; all keep C semantics on int64
// (a fold that would overflow is left unfolded).
S add(S a, S b) {
  if (!a || !b)
    return nullptr;
  int64_t x, y, r;
  if (isLit(a, &x) && isLit(b, &y) && grid::add(x, y, &r))
    return lit(r);
  if (isLitEq(a, 0))
    return b;
  if (isLitEq(b, 0))
    return a;
  if (isLit(a) && !isLit(b))
    std::swap(a, b); // the literal last: "8192 * cdiv(K, 32) + 8192"
  if (isLit(b, &y) && a->op == Op::Add && isLit(a->b, &x) && grid::add(x, y, &r))
    return add(a->a, lit(r));
  return make(Op::Add, a, b);
}
S sub(S a, S b) {
  if (!a || !b)
    return nullptr;
  int64_t x, y, r;
  if (isLit(a, &x) && isLit(b, &y) && grid::sub(x, y, &r))
    return lit(r);
  if (isLit(b, &y) && y != std::numeric_limits<int64_t>::min())
    return add(a, lit(-y));
  return make(Op::Sub, a, b);
}
S mul(S a, S b) {
  if (!a || !b)
    return nullptr;
  int64_t x, y, r;
  if (isLit(a, &x) && isLit(b, &y) && grid::mul(x, y, &r))
    return lit(r);
  if (isLitEq(a, 0) || isLitEq(b, 0))
    return lit(0);
  if (isLitEq(a, 1))
    return b;
  if (isLitEq(b, 1))
    return a;
  if (isLit(b) && !isLit(a))
    std::swap(a, b); // the literal first: "12288 * cdiv(n, 1024)"
  if (isLit(a, &x) && b->op == Op::Mul && isLit(b->a, &y) && grid::mul(x, y, &r))
    return mul(lit(r), b->b);
  if (!isLit(a) && b->op == Op::Mul && isLit(b->a)) // the literal first: 512 * A * cdiv(B, 2)
    return mul(b->a, mul(a, b->b));
  return make(Op::Mul, a, b);
}
S cdiv(S a, S b) {
  if (!a || !b)
    return nullptr;
  int64_t x, y, r;
  if (isLit(a, &x) && isLit(b, &y) && grid::cdiv(x, y, &r))
    return lit(r);
  if (isLitEq(b, 1))
    return a;
  return make(Op::Cdiv, a, b);
}
S div(S a, S b) {
  if (!a || !b)
    return nullptr;
  int64_t x, y, r;
  if (isLit(a, &x) && isLit(b, &y) && grid::div(x, y, &r))
    return lit(r);
  if (isLitEq(b, 1))
    return a;
  // (x + (c - 1)) // c, how `cdiv` reaches the IR: written as cdiv again.
  if (isLit(b, &y) && y > 1 && a->op == Op::Add && isLitEq(a->b, y - 1))
    return cdiv(a->a, b);
  return make(Op::Div, a, b);
}
S binary(Op op, S a, S b) {
  if (!a || !b)
    return nullptr;
  int64_t x, y, r;
  bool folded = false;
  if (isLit(a, &x) && isLit(b, &y)) {
    switch (op) {
    case Op::Mod:
      folded = grid::mod(x, y, &r);
      break;
    case Op::Min:
      r = std::min(x, y);
      folded = true;
      break;
    case Op::Max:
      r = std::max(x, y);
      folded = true;
      break;
    default:
      break;
    }
  }
  if (folded)
    return lit(r);
  return make(op, a, b);
}

// Printing with the fewest parentheses the grammar needs (docs/ir.md): '+' '-' bind
// loosest, then '*' '//' '%' (left-associative), then unary '-'.
int precedence(const Sym &s) {
  switch (s.op) {
  case Op::Add:
  case Op::Sub:
    return 1;
  case Op::Mul:
  case Op::Div:
  case Op::Mod:
    return 2;
  case Op::Neg:
    return 3;
  case Op::Lit:
    return s.value < 0 ? 3 : 4;
  default:
    return 4;
  }
}

std::string print(const S &s, int need) {
  std::string t;
  switch (s->op) {
  case Op::Lit:
    t = std::to_string(s->value);
    break;
  case Op::Name:
    t = s->name;
    break;
  case Op::Neg:
    t = "-" + print(s->a, 3);
    break;
  case Op::Add: {
    int64_t v;
    if (isLit(s->b, &v) && v < 0 && v != std::numeric_limits<int64_t>::min())
      t = print(s->a, 1) + " - " + std::to_string(-v);
    else
      t = print(s->a, 1) + " + " + print(s->b, 2);
    break;
  }
  case Op::Sub:
    t = print(s->a, 1) + " - " + print(s->b, 2);
    break;
  case Op::Mul:
    // a * (b * c) is (a * b) * c on integers; a * (b // c) is not a * b // c.
    t = print(s->a, 2) + " * " + print(s->b, s->b->op == Op::Mul ? 2 : 3);
    break;
  case Op::Div:
  case Op::Mod:
    t = print(s->a, 2) + (s->op == Op::Div ? " // " : " % ") + print(s->b, 3);
    break;
  case Op::Cdiv:
  case Op::Min:
  case Op::Max:
    t = std::string(s->op == Op::Cdiv ? "cdiv" : s->op == Op::Min ? "min" : "max") + "(" +
        print(s->a, 0) + ", " + print(s->b, 0) + ")";
    break;
  }
  return precedence(*s) < need ? "(" + t + ")" : t;
}

// A grid expression's text as a symbolic expression (null if it does not parse).
S fromGridText(const std::string &text) {
  grid::Expr e;
  if (!grid::parse(text, &e, nullptr) || e.empty())
    return nullptr;
  std::vector<S> at(e.nodes.size());
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const grid::Node &n = e.nodes[i];
    S l = n.lhs >= 0 ? at[size_t(n.lhs)] : nullptr, r = n.rhs >= 0 ? at[size_t(n.rhs)] : nullptr;
    switch (n.op) {
    case Op::Lit:
      at[i] = lit(n.value);
      break;
    case Op::Name:
      at[i] = named(n.name);
      break;
    case Op::Neg:
      at[i] = sub(lit(0), l);
      break;
    case Op::Add:
      at[i] = add(l, r);
      break;
    case Op::Sub:
      at[i] = sub(l, r);
      break;
    case Op::Mul:
      at[i] = mul(l, r);
      break;
    case Op::Div:
      at[i] = div(l, r);
      break;
    case Op::Cdiv:
      at[i] = cdiv(l, r);
      break;
    default:
      at[i] = binary(n.op, l, r);
      break;
    }
  }
  return at.back();
}

int64_t numel(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    return shaped.hasStaticShape() ? shaped.getNumElements() : -1;
  return 1;
}

int64_t elementBytes(Type t) {
  Type e = getElementTypeOrSelf(t);
  if (!e.isIntOrFloat())
    return 8; // a pointer
  return (int64_t(e.getIntOrFloatBitWidth()) + 7) / 8;
}

bool isFloat(Type t) { return isa<FloatType>(getElementTypeOrSelf(t)); }

struct Cost {
  S bytes = lit(0), flops = lit(0);
};

Cost sum(const Cost &a, const Cost &b) { return {add(a.bytes, b.bytes), add(a.flops, b.flops)}; }

class Counter {
public:
  explicit Counter(func::FuncOp kernel) : kernel_(kernel) {
    auto names = kernel->getAttrOfType<ArrayAttr>(tile::kArgNamesAttrName);
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
      auto n = names && i < names.size() ? dyn_cast<StringAttr>(names[i]) : StringAttr();
      names_.push_back(n ? n.str() : "");
    }
    auto gridAttr = kernel->getAttrOfType<ArrayAttr>(tile::kGridAttrName);
    for (unsigned i = 0; i < 3; ++i) {
      auto text = gridAttr && i < gridAttr.size() ? dyn_cast<StringAttr>(gridAttr[i]) : StringAttr();
      grid_[i] = text ? fromGridText(text.str()) : lit(1);
    }
  }

  KernelCost run() {
    Cost c = region(kernel_.getBody());
    S programs = mul(mul(grid_[0], grid_[1]), grid_[2]);
    KernelCost out;
    // Only what the runtime's grammar reads back (it always should: a safeguard, so that a
    // count never fails a compilation).
    auto text = [](S s) -> std::optional<std::string> {
      if (!s)
        return std::nullopt;
      std::string t = print(s, 0);
      grid::Expr e;
      if (!grid::parse(t, &e, nullptr))
        return std::nullopt;
      return t;
    };
    out.bytes = text(mul(c.bytes, programs));
    out.flops = text(mul(c.flops, programs));
    return out;
  }

private:
  // An integer scalar as an expression of the parameters (null: not one).
  S value(Value v) {
    if (!v.getType().isIntOrIndex())
      return nullptr;
    auto it = memo_.find(v);
    if (it != memo_.end())
      return it->second;
    S s = compute(v);
    memo_[v] = s;
    return s;
  }

  S compute(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != &kernel_.getBody().front() || names_[arg.getArgNumber()].empty())
        return nullptr;
      return named(names_[arg.getArgNumber()]);
    }
    Operation *op = v.getDefiningOp();
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        return lit(i.getType().isInteger(1) ? int64_t(i.getValue().getBoolValue()) : i.getInt());
      return nullptr;
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp>(op))
      return value(op->getOperand(0));
    if (auto np = dyn_cast<tile::NumProgramsOp>(op)) {
      uint32_t axis = np.getAxis(); // verified: 0, 1 or 2
      return axis < 3 ? grid_[axis] : nullptr;
    }
    if (op->getNumOperands() != 2)
      return nullptr;
    S a = value(op->getOperand(0)), b = value(op->getOperand(1));
    if (!a || !b)
      return nullptr;
    if (isa<arith::AddIOp>(op))
      return add(a, b);
    if (isa<arith::SubIOp>(op))
      return sub(a, b);
    if (isa<arith::MulIOp>(op))
      return mul(a, b);
    if (isa<arith::DivSIOp, arith::DivUIOp>(op))
      return div(a, b);
    if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(op))
      return cdiv(a, b);
    if (isa<arith::RemSIOp, arith::RemUIOp>(op))
      return binary(Op::Mod, a, b);
    if (isa<arith::MinSIOp, arith::MinUIOp>(op))
      return binary(Op::Min, a, b);
    if (isa<arith::MaxSIOp, arith::MaxUIOp>(op))
      return binary(Op::Max, a, b);
    return nullptr;
  }

  Cost region(Region &r) {
    Cost c;
    for (Block &b : r)
      for (Operation &op : b)
        c = sum(c, operation(op));
    return c;
  }

  static S count(int64_t n) { return n < 0 ? nullptr : lit(n); }

  Cost operation(Operation &op) {
    Cost c;
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      Type t = load.getResult().getType();
      c.bytes = count(numel(t) < 0 ? -1 : numel(t) * elementBytes(t));
    } else if (auto store = dyn_cast<tile::StoreOp>(op)) {
      Type t = store.getValue().getType();
      c.bytes = count(numel(t) < 0 ? -1 : numel(t) * elementBytes(t));
    } else if (auto atomic = dyn_cast<tile::AtomicAddOp>(op)) {
      Type t = atomic.getValue().getType();
      c.bytes = count(numel(t) < 0 ? -1 : 2 * numel(t) * elementBytes(t)); // read + write
      if (isFloat(t))
        c.flops = count(numel(t));
    } else if (auto dot = dyn_cast<tile::DotOp>(op)) {
      auto a = cast<ShapedType>(dot.getA().getType());
      int64_t k = a.getShape().back();
      int64_t n = numel(dot.getResult().getType());
      c.flops = count(n < 0 ? -1 : 2 * n * k);
    } else if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      Type src = reduce.getSrc().getType();
      if (isFloat(src)) {
        int64_t in = numel(src), out = numel(reduce.getResult().getType());
        c.flops = count(in < 0 || out < 0 ? -1 : in - out);
      }
    } else if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::RemFOp,
                   arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp>(op)) {
      c.flops = count(numel(op.getResult(0).getType()));
    } else if (op.getDialect() && op.getDialect()->getNamespace() == "math" &&
               op.getNumResults() == 1 && isFloat(op.getResult(0).getType())) {
      int64_t n = numel(op.getResult(0).getType());
      c.flops = count(n < 0 ? -1 : (op.getName().stripDialect() == "fma" ? 2 * n : n));
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Cost body = region(loop.getRegion());
      S trip = cdiv(sub(value(loop.getUpperBound()), value(loop.getLowerBound())),
                    value(loop.getStep()));
      c.bytes = isLitEq(body.bytes, 0) ? lit(0) : mul(trip, body.bytes);
      c.flops = isLitEq(body.flops, 0) ? lit(0) : mul(trip, body.flops);
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      // The costlier branch: an upper bound, as masked lanes are.
      Cost t = region(branch.getThenRegion()), e = region(branch.getElseRegion());
      auto most = [](S a, S b) {
        if (!a || !b)
          return S();
        return isLitEq(a, 0) ? b : isLitEq(b, 0) ? a : binary(Op::Max, a, b);
      };
      c.bytes = most(t.bytes, e.bytes);
      c.flops = most(t.flops, e.flops);
    } else if (isa<scf::WhileOp>(op)) {
      // Its trip count is not an expression of the parameters.
      Cost body;
      for (Region &r : op.getRegions())
        body = sum(body, region(r));
      c.bytes = isLitEq(body.bytes, 0) ? lit(0) : nullptr;
      c.flops = isLitEq(body.flops, 0) ? lit(0) : nullptr;
    } else {
      for (Region &r : op.getRegions()) // run once (e.g. scf.execute_region)
        c = sum(c, region(r));
    }
    return c;
  }

  func::FuncOp kernel_;
  SmallVector<std::string> names_;
  S grid_[3];
  llvm::DenseMap<Value, S> memo_;
};

} // namespace

KernelCost kernelCost(func::FuncOp kernel) {
  if (kernel.getBody().empty())
    return {};
  return Counter(kernel).run();
}

} // namespace tcc
