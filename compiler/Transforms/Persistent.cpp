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
// Only for sm_90a kernels with a dot in a loop, a one-dimensional grid whose expression
// names integer parameters only (not num_sms or occupancy already), and a body of one
// block (tcc --persistent).
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"
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

/// The grid's x expression as i32 IR at `b`, computed in i64 as the runtime does (a grid
/// the driver can launch fits in 32 bits), from the kernel's i32 parameters; null if it
/// names anything else.
Value emitGridExpression(OpBuilder &b, Location loc, func::FuncOp func, StringRef text) {
  tcc::grid::Expr expr;
  std::string error;
  if (!tcc::grid::parse(text.str(), &expr, &error))
    return {};
  auto names = func->getAttrOfType<ArrayAttr>(kArgNamesAttrName);
  Block &entry = func.getBody().front();
  auto slotOf = [&](const std::string &name) -> int {
    if (!names)
      return -1;
    for (auto [i, attr] : llvm::enumerate(names)) {
      auto s = dyn_cast<StringAttr>(attr);
      if (s && s.getValue() == name && i < entry.getNumArguments() &&
          entry.getArgument(unsigned(i)).getType().isInteger(32))
        return int(i);
    }
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
  return arith::TruncIOp::create(b, loc, b.getI32Type(), values.back());
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

bool makePersistent(func::FuncOp func) {
  if (!isKernel(func) || !func.getBody().hasOneBlock() || !getTarget(func).hasWgmma() ||
      !hasDotLoop(func))
    return false;
  auto grid = func->getAttrOfType<ArrayAttr>(kGridAttrName);
  if (!grid || grid.size() != 3)
    return false;
  auto x = dyn_cast<StringAttr>(grid[0]);
  auto y = dyn_cast<StringAttr>(grid[1]), z = dyn_cast<StringAttr>(grid[2]);
  if (!x || !y || !z || y.getValue() != "1" || z.getValue() != "1")
    return false;
  Block &entry = func.getBody().front();
  Location loc = func.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Value count = emitGridExpression(b, loc, func, x.getValue());
  if (!count) {
    // What was made before the failure goes.
    while (&entry.front() != &*b.getInsertionPoint()) {
      Operation *first = &entry.front();
      first->erase();
    }
    return false;
  }
  Value pid = ProgramIdOp::create(b, loc, b.getI32Type(), 0);
  Value programs = NumProgramsOp::create(b, loc, b.getI32Type(), 0);
  auto loop = scf::ForOp::create(b, loc, pid, count, programs);
  Block *body = loop.getBody();
  // The kernel's ops, but for what was just made, into the loop (before its yield).
  body->getOperations().splice(body->begin(), entry.getOperations(),
                               std::next(loop->getIterator()),
                               entry.getTerminator()->getIterator());
  Value tile = loop.getInductionVar();
  body->walk([&](Operation *op) {
    if (auto id = dyn_cast<ProgramIdOp>(op); id && id.getAxis() == 0) {
      id.getResult().replaceAllUsesWith(tile);
      id->erase();
    } else if (auto n = dyn_cast<NumProgramsOp>(op); n && n.getAxis() == 0) {
      n.getResult().replaceAllUsesWith(count);
      n->erase();
    }
  });
  std::string persistent = "min(num_sms * occupancy, " + x.getValue().str() + ")";
  func->setAttr(kGridAttrName, b.getStrArrayAttr({persistent, "1", "1"}));
  func->setAttr(kPersistentAttrName, b.getUnitAttr());
  return true;
}

struct Persistent : tcc::impl::TilePersistentBase<Persistent> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      makePersistent(func);
  }
};

} // namespace
