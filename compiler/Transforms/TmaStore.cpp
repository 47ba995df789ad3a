//===- TmaStore.cpp - tile-tma-store ---------------------------------------===//
//
// A kernel's result tile written once, after its loops (a GEMM's epilogue: the product,
// cast and biased, stored under bounds masks), is written by the tensor memory
// accelerator instead of by every thread: the tile goes to a swizzled shared tile in the
// layout it has (the accumulator's, before the conversion the store would have needed),
// and one thread issues bulk tensor copies to global memory, which drop the elements
// outside the array's extents as the mask did:
//
//   %v  = tile.convert_layout %acc : #mma -> #blocked      %s = tile.local_alloc %acc
//   tile.store %ptrs, %v, mask %m                    =>    tile.tma_store %map[%r, %c], %s
//
// The kernel gains a tensor map argument for the output (TmaAccess.h); the runtime
// encodes it as it does the operands'. Only on sm_90a, for a store whose pointers and
// mask a tensor map describes with 16-byte aligned base and strides in this variant, of
// 2- or 4-byte elements whose rows are at least a swizzle atom (128 bytes), outside any
// loop, and the kernel's last access to memory (nothing may read the bytes before the
// copy's writes land; of two trailing stores, the last goes by TMA).
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"
#include "compiler/Transforms/TmaAccess.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tcc {
#define GEN_PASS_DEF_TILETMASTORE
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether nothing after `store` in its kernel touches memory: the bulk copy's writes to
/// global memory complete on their own before the program ends, unordered with any access
/// of the program after it (a load of the same bytes would read what was there before).
bool isLastMemoryAccess(Operation *store) {
  for (Operation *op = store; op && !isa<func::FuncOp>(op); op = op->getParentOp())
    for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
      if (!next->hasTrait<OpTrait::IsTerminator>() && !isMemoryEffectFree(next))
        return false;
  return true;
}

/// The store through TMA, if it can be: true if rewritten.
bool rewriteStore(StoreOp store) {
  auto func = store->getParentOfType<func::FuncOp>();
  if (!func || !isKernel(func) || store->getParentOfType<LoopLikeOpInterface>() ||
      !getTarget(func).hasWgmma() || !isLastMemoryAccess(store))
    return false;
  auto type = dyn_cast<RankedTensorType>(store.getValue().getType());
  if (!type || type.getRank() != 2)
    return false;
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || (element.getIntOrFloatBitWidth() != 16 &&
                                  element.getIntOrFloatBitWidth() != 32))
    return false;
  int64_t rowBytes = type.getDimSize(1) * element.getIntOrFloatBitWidth() / 8;
  if (rowBytes % tcc::kTmaSwizzleBytes != 0)
    return false;
  std::optional<tcc::TmaAccess> access = tcc::matchTmaAccess(store);
  if (!access)
    return false;
  MLIRContext *ctx = store.getContext();
  auto encoding = NVMMASharedEncodingAttr::get(ctx, unsigned(tcc::kTmaSwizzleBytes), {1, 0});
  auto tileType = SharedMemType::get(ctx, type.getShape(), element, encoding);
  std::optional<tcc::TmaMap> map = tcc::planTensorMap(*access, func, tileType);
  if (!map)
    return false;
  BlockArgument arg = tcc::tensorMapArgument(func, *map, store.getLoc());
  if (!arg)
    return false;
  OpBuilder b(store);
  Location loc = store.getLoc();
  // The tile in the layout it had before a conversion made for the store.
  Value value = store.getValue();
  auto cvt = value.getDefiningOp<ConvertLayoutOp>();
  if (cvt)
    value = cvt.getSrc();
  Value tile = LocalAllocOp::create(b, loc, tileType, value, IntegerAttr());
  TmaStoreOp::create(b, loc, arg, tcc::boxCoordinates(b, loc, *access, IRMapping()), tile);
  store.erase();
  if (cvt && cvt->use_empty())
    cvt.erase();
  return true;
}

struct TmaStore : tcc::impl::TileTmaStoreBase<TmaStore> {
  void runOnOperation() override {
    SmallVector<StoreOp> stores;
    getOperation().walk([&](StoreOp store) { stores.push_back(store); });
    for (StoreOp store : stores)
      rewriteStore(store);
  }
};

} // namespace
