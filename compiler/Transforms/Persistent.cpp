//===- Persistent.cpp - tile-persistent -------------------------------------===//
//
// A GEMM launches one program per output tile; each program fills its pipeline, computes,
// writes its tile and exits, and the next program on that SM starts from an empty ring.
// Persistent, the kernel launches no more programs than the GPU holds at once and each
// walks the tiles `pid, pid + P, pid + 2P, ...` (P the programs launched):
//
//   %pid = tile.program_id 0                %pid = tile.program_id 0
//   ...body...                        =>    %n = <the grid's x expression>
//                                           %P = tile.num_programs 0
//                                           scf.for %t = %pid to %n step %P {
//                                             ...body, program_id 0 -> %t,
//                                                      num_programs 0 -> %n...
//                                           }
//
// and the grid becomes `min(num_sms * occupancy, <the grid's x expression>)` (the runtime
// and the generated header fill num_sms and occupancy from the device). Each iteration is
// one of the original programs, so results do not change. What it buys comes with the
// pipeline: a ring whose mbarriers live across the tiles (tile-pipeline carries their
// phase through this loop) and, warp-specialised, a producer that loads the next tile's
// operands while the consumers write this one.
//
// A grid of (X, Y, Z) becomes one loop over X * Y * Z tiles whose index is taken apart into
// the three coordinates (z outermost, then a grouped order over the (x, y) plane). Only
// for sm_90a kernels with a dot in a loop, grid expressions naming integer parameters only
// (not num_sms or occupancy already), and a body of one block; by default (all=false,
// tcc without --persistent) only those of a one-dimensional grid and one dot loop nest
// that do not schedule their tiles themselves.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/PersistentLoop.h"
#include "compiler/Transforms/Passes.h"
#include "compiler/Transforms/SpecializeArguments.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "tcc/grid_expr.h"

namespace tcc {
#define GEN_PASS_DEF_TILEPERSISTENT
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A grid expression as i64 IR at `b`, computed as the runtime does, from the kernel's i32
/// parameters; null if it names anything else.
Value emitGridExpression(OpBuilder &b, Location loc, func::FuncOp func, StringRef text) {
  tcc::grid::Expr expr;
  std::string error;
  if (!tcc::grid::parse(text.str(), &expr, &error))
    return {};
  SmallVector<std::string> names = tcc::kernelArgumentNames(func);
  Block &entry = func.getBody().front();
  auto slotOf = [&](const std::string &name) -> int {
    for (auto [i, n] : llvm::enumerate(names))
      if (n == name && entry.getArgument(unsigned(i)).getType().isInteger(32))
        return int(i);
    return -1;
  };
  if (!tcc::grid::bind(&expr, slotOf, &error))
    return {};
  Type i64 = b.getI64Type();
  SmallVector<Value> values;
  for (const tcc::grid::Node &n : expr.nodes) {
    Value lhs = n.lhs >= 0 ? values[size_t(n.lhs)] : Value();
    Value rhs = n.rhs >= 0 ? values[size_t(n.rhs)] : Value();
    Value v;
    switch (n.op) {
    case tcc::grid::Op::Lit:
      v = arith::ConstantIntOp::create(b, loc, i64, n.value);
      break;
    case tcc::grid::Op::Name:
      v = arith::ExtSIOp::create(b, loc, i64, entry.getArgument(unsigned(n.value)));
      break;
    case tcc::grid::Op::Neg:
      v = arith::SubIOp::create(b, loc, arith::ConstantIntOp::create(b, loc, i64, 0), lhs);
      break;
    case tcc::grid::Op::Add: v = arith::AddIOp::create(b, loc, lhs, rhs); break;
    case tcc::grid::Op::Sub: v = arith::SubIOp::create(b, loc, lhs, rhs); break;
    case tcc::grid::Op::Mul: v = arith::MulIOp::create(b, loc, lhs, rhs); break;
    case tcc::grid::Op::Div: v = arith::DivSIOp::create(b, loc, lhs, rhs); break;
    case tcc::grid::Op::Mod: v = arith::RemSIOp::create(b, loc, lhs, rhs); break;
    case tcc::grid::Op::Cdiv: v = arith::CeilDivSIOp::create(b, loc, lhs, rhs); break;
    case tcc::grid::Op::Min: v = arith::MinSIOp::create(b, loc, lhs, rhs); break;
    case tcc::grid::Op::Max: v = arith::MaxSIOp::create(b, loc, lhs, rhs); break;
    }
    values.push_back(v);
  }
  return values.back();
}

/// Whether the kernel computes a dot in a loop (what a persistent schedule is for).
bool hasDotLoop(func::FuncOp func) {
  bool found = false;
  func.walk([&](DotOp dot) {
    if (dot->getParentOfType<scf::ForOp>())
      found = true;
  });
  return found;
}

/// Whether a dot sits in a loop nested in `loop` (not directly in its body).
bool holdsDotLoop(scf::ForOp loop) {
  return loop
      ->walk([&](DotOp dot) {
        return dot->getParentOfType<scf::ForOp>() != loop ? WalkResult::interrupt()
                                                          : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether the kernel schedules its tiles itself, as Triton's persistent tutorials do: it
/// reads num_programs, a loop around a dot loop starts or strides by the program id
/// (tutorial 09's `range(start_pid, num_tiles, NUM_SMS)` around its K loop), or an
/// scf.while around a dot starts from it (tutorial 08's `tile_idx`). A dot loop whose
/// bounds come from the program id (a causal or triangular K loop) is one tile's work,
/// not scheduling.
bool schedulesItsTiles(func::FuncOp func) {
  WalkResult found = func.walk([&](Operation *op) {
    if (isa<NumProgramsOp>(op))
      return WalkResult::interrupt();
    if (auto loop = dyn_cast<scf::ForOp>(op);
        loop && (tcc::fromProgramId(loop.getLowerBound()) || tcc::fromProgramId(loop.getStep())) &&
        holdsDotLoop(loop))
      return WalkResult::interrupt();
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      bool holdsDot = loop->walk([](DotOp) { return WalkResult::interrupt(); }).wasInterrupted();
      if (holdsDot && llvm::any_of(loop.getInits(), tcc::fromProgramId))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Whether persistence is known to pay for the kernel (tcc's default): a one-dimensional
/// grid (a GEMM's tiles; measured on an H100, 2026-12-07: +0-5 % at 4096^3, +8-14 % at
/// 8192^3, +32-52 % for 64 x 128 tiles, in grouped order, where tutorial 06's attention,
/// on a 2-D grid of query blocks by heads, lost 4-7 %: its own order keeps a head's K and
/// V in L2), dot loops forming one loop
/// nest (two side by side, the causal attention's stages, would each keep a ring live
/// across the tiles where one program per tile lets the second reuse the first's shared
/// memory), and no scheduling of its own tiles.
bool paysFor(func::FuncOp func, bool oneDim) {
  if (!oneDim || schedulesItsTiles(func))
    return false;
  SmallPtrSet<Operation *, 2> nests;
  func.walk([&](Operation *op) {
    if (!isa<DotOp>(op))
      return;
    Operation *outermost = nullptr;
    for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>())
      outermost = loop;
    if (outermost)
      nests.insert(outermost);
  });
  return nests.size() == 1;
}

/// Rows of tiles a group spans in the grouped order: eight, as Triton's GROUP_SIZE_M and
/// CUTLASS's raster swizzle use on Hopper.
constexpr int64_t kGroupRows = 8;

/// `tile` (in [0, count)) in grouped order over count / columns rows of `columns` tiles,
/// as an index of the same row-major numbering; `tile` itself unless count is whole rows
/// and columns > 0 (every divisor is kept non-zero).
Value groupedOrder(OpBuilder &b, Location loc, Value tile, Value columns, Value count) {
  auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v); };
  Value g = i32(kGroupRows), one = i32(1);
  Value positive = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, columns, i32(0));
  Value x = arith::SelectOp::create(b, loc, positive, columns, one);
  Value rows = arith::DivUIOp::create(b, loc, count, x);
  Value width = arith::MulIOp::create(b, loc, g, x);
  Value group = arith::DivUIOp::create(b, loc, tile, width);
  Value first = arith::MulIOp::create(b, loc, group, g);
  Value size = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, arith::SubIOp::create(b, loc, rows, first), g), one);
  Value within = arith::RemUIOp::create(b, loc, tile, width);
  Value row = arith::AddIOp::create(b, loc, first, arith::RemUIOp::create(b, loc, within, size));
  Value column = arith::DivUIOp::create(b, loc, within, size);
  Value grouped = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, row, x), column);
  Value whole = arith::AndIOp::create(
      b, loc, positive,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            arith::MulIOp::create(b, loc, rows, x), count));
  return arith::SelectOp::create(b, loc, whole, grouped, tile);
}

/// The tile index in grouped order, where the body splits it into a row and a column of
/// tiles, `t // X` and `t % X` (every use of `tile` one of those, with the same X): the
/// programs running at once cover groups of kGroupRows rows (their A rows and B columns
/// stay in L2 together) instead of whole rows, one after the other. False where the body
/// does not split the index so, or splits a part again (its own order); where the grid's
/// count is not rows times X, the order stays at run time. Any order of the programs gives the same results.
bool groupTiles(OpBuilder &b, Location loc, Value tile, Value count) {
  Value columns;
  SmallVector<Operation *> splits(tile.getUsers().begin(), tile.getUsers().end());
  for (Operation *user : splits) {
    if (!isa<arith::DivSIOp, arith::RemSIOp, arith::DivUIOp, arith::RemUIOp>(user) ||
        user->getOperand(0) != tile)
      return false;
    Value x = user->getOperand(1);
    if (columns && x != columns)
      return false;
    columns = x;
  }
  if (!columns)
    return false;
  // A kernel that takes the row or the column apart again orders its tiles itself
  // (Triton's tutorial 03: `pid % num_pid_in_group` split by the group's height): a
  // grouped order on top would spread the tiles in flight over 8 of its groups.
  for (Operation *split : splits)
    for (Operation *user : split->getResult(0).getUsers())
      if (isa<arith::DivSIOp, arith::RemSIOp, arith::DivUIOp, arith::RemUIOp>(user))
        return false;
  // Computed where X is: at the body's start when it comes from outside the loop.
  OpBuilder::InsertionGuard guard(b);
  if (Operation *def = columns.getDefiningOp(); def && def->getBlock() == tile.getParentBlock())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(tile.getParentBlock());
  Value ordered = groupedOrder(b, loc, tile, columns, count);
  for (Operation *split : splits) {
    split->setOperand(0, ordered);
    // Which is the column, for tile-pipeline's multicast (kTileColumnAttrName).
    if (isa<arith::RemSIOp, arith::RemUIOp>(split))
      split->setAttr(kTileColumnAttrName, b.getUnitAttr());
  }
  return true;
}

bool makePersistent(func::FuncOp func, bool all) {
  // A kernel launched in clusters (tile-split-k's) shares its tiles among them already.
  if (!isKernel(func) || !func.getBody().hasOneBlock() || !getTarget(func).hasWgmma() ||
      !hasDotLoop(func) || func->hasAttr(kClusterSizeAttrName))
    return false;
  auto grid = func->getAttrOfType<ArrayAttr>(kGridAttrName);
  if (!grid || grid.size() != 3)
    return false;
  SmallVector<StringRef, 3> dims;
  for (Attribute d : grid) {
    auto text = dyn_cast<StringAttr>(d);
    if (!text)
      return false;
    dims.push_back(text.getValue());
  }
  bool oneDim = dims[1] == "1" && dims[2] == "1";
  if (!all && !paysFor(func, oneDim))
    return false;
  Block &entry = func.getBody().front();
  Location loc = func.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  // The grid's dimensions (i32) and their product, the count of tiles.
  SmallVector<Value, 3> extents;
  Value product;
  for (StringRef d : ArrayRef<StringRef>(dims).take_front(oneDim ? 1 : 3)) {
    Value v = emitGridExpression(b, loc, func, d);
    if (!v) {
      // What was made before the failure goes.
      while (&entry.front() != &*b.getInsertionPoint())
        entry.front().erase();
      return false;
    }
    product = product ? arith::MulIOp::create(b, loc, product, v).getResult() : v;
    extents.push_back(arith::TruncIOp::create(b, loc, b.getI32Type(), v));
  }
  Value count = oneDim ? extents[0] : arith::TruncIOp::create(b, loc, b.getI32Type(), product);
  Value pid = ProgramIdOp::create(b, loc, b.getI32Type(), 0);
  Value programs = NumProgramsOp::create(b, loc, b.getI32Type(), 0);
  auto loop = scf::ForOp::create(b, loc, pid, count, programs);
  Block *body = loop.getBody();
  // The kernel's ops, but for what was just made, into the loop (before its yield).
  body->getOperations().splice(body->begin(), entry.getOperations(),
                               std::next(loop->getIterator()),
                               entry.getTerminator()->getIterator());
  Value tile = loop.getInductionVar();
  // The original program's coordinates: the index itself on a one-dimensional grid; on a
  // grid of (X, Y, Z), z = t / (X * Y) and, within the plane, the index in grouped order
  // (groups of 8 along x, y within a group) split into x = i / Y and y = i % Y.
  SmallVector<Value, 3> coords{tile, Value(), Value()};
  if (!oneDim) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(body);
    Value plane = arith::MulIOp::create(b, loc, extents[0], extents[1]);
    Value within = arith::RemUIOp::create(b, loc, tile, plane);
    Value ordered = groupedOrder(b, loc, within, extents[1], plane);
    coords[0] = arith::DivUIOp::create(b, loc, ordered, extents[1]);
    coords[1] = arith::RemUIOp::create(b, loc, ordered, extents[1]);
    coords[2] = arith::DivUIOp::create(b, loc, tile, plane);
  }
  body->walk([&](Operation *op) {
    if (auto id = dyn_cast<ProgramIdOp>(op); id && (oneDim ? id.getAxis() == 0 : true)) {
      id.getResult().replaceAllUsesWith(coords[id.getAxis()]);
      id->erase();
    } else if (auto n = dyn_cast<NumProgramsOp>(op); n && (oneDim ? n.getAxis() == 0 : true)) {
      n.getResult().replaceAllUsesWith(extents[n.getAxis()]);
      n->erase();
    }
  });
  // A one-dimensional grid's tiles in grouped order where the body splits the index into
  // rows and columns.
  if (oneDim)
    groupTiles(b, loc, tile, count);
  std::string tiles = oneDim ? dims[0].str()
                             : "(" + dims[0].str() + ") * (" + dims[1].str() + ") * (" +
                                   dims[2].str() + ")";
  std::string persistent = "min(num_sms * occupancy, " + tiles + ")";
  func->setAttr(kGridAttrName, b.getStrArrayAttr({persistent, "1", "1"}));
  func->setAttr(kPersistentAttrName, b.getUnitAttr());
  return true;
}

struct Persistent : tcc::impl::TilePersistentBase<Persistent> {
  using TilePersistentBase::TilePersistentBase;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      makePersistent(func, all);
  }
};

} // namespace
