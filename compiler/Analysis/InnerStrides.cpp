//===- InnerStrides.cpp - integer arguments that are inner strides --------===//
//
// See InnerStrides.h. AxisInfo gives each address's contiguity; an integer argument is an
// inner stride when, after splats, broadcasts and casts, it multiplies a tile contiguous
// along its last dimension into an address that is contiguous along no dimension (the
// address of a load or store, directly or as the initial value of a loop-carried pointer).
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/InnerStrides.h"

#include "compiler/Analysis/AxisInfo.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace tcc {

bool isSpecialisableInteger(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() > 1;
}

namespace {

/// True if `offset` (an integer tile) reaches, through the ops computing addresses, the
/// pointer of a load or store that is contiguous along no dimension: an access that a unit
/// stride could make contiguous. Transpose's destination (`rn[None, :] * stride_dst +
/// rm[:, None]`) is already contiguous along its first dimension: its stride is a row stride.
bool feedsNonContiguousAccess(Value offset, const AxisInfoAnalysis &axis) {
  SmallVector<Value> work{offset};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second || seen.size() > 256)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tile::LoadOp, tile::StoreOp>(user)) {
        if (use.getOperandNumber() != 0)
          continue; // a stored value or a mask, not an address
        auto shaped = dyn_cast<ShapedType>(v.getType());
        unsigned rank = shaped ? shaped.getRank() : 0;
        bool contiguous = false;
        for (unsigned d = 0; d < rank; ++d)
          contiguous = contiguous || axis.getContiguity(v, d) > 1;
        if (!contiguous)
          return true;
        continue;
      }
      if (isa<tile::BroadcastOp, tile::ExpandDimsOp, tile::AddPtrOp, arith::AddIOp,
              arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp>(user))
        for (Value r : user->getResults())
          work.push_back(r);
      // A loop-carried pointer (Triton's `a_ptrs = a + ...` before the loop, then
      // `a_ptrs += BLOCK_K * stride_ak` in it): the accesses are the iteration argument's.
      if (auto loop = dyn_cast<scf::ForOp>(user))
        if (BlockArgument iterArg = loop.getTiedLoopRegionIterArg(&use))
          work.push_back(iterArg);
    }
  }
  return false;
}

} // namespace

SmallVector<unsigned> innerStrideArguments(func::FuncOp kernel) {
  SmallVector<unsigned> result;
  if (kernel.isExternal())
    return result;
  AxisInfoAnalysis axis(kernel);
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    BlockArgument arg = kernel.getArgument(i);
    if (!isSpecialisableInteger(arg.getType()))
      continue;
    SmallVector<Value> work{arg};
    llvm::DenseSet<Value> seen;
    bool inner = false;
    while (!work.empty() && !inner) {
      Value v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        if (isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp, arith::ExtSIOp,
                arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp>(user)) {
          work.push_back(user->getResult(0));
        } else if (isa<arith::MulIOp>(user)) {
          Value other = user->getOperand(1 - use.getOperandNumber());
          auto shaped = dyn_cast<ShapedType>(other.getType());
          if (!shaped || shaped.getRank() == 0)
            continue;
          AxisInfo info = axis.getAxisInfo(other);
          if (info.getRank() == shaped.getRank() && info.contiguity.back() > 1 &&
              feedsNonContiguousAccess(user->getResult(0), axis))
            inner = true;
        }
      }
    }
    if (inner)
      result.push_back(i);
  }
  return result;
}

} // namespace tcc
