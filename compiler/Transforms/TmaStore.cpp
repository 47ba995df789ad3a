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
// loop.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"
#include "compiler/Transforms/TmaAccess.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace tcc {
#define GEN_PASS_DEF_TILETMASTORE
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The store through TMA, if it can be: true if rewritten.
bool rewriteStore(StoreOp store) {
  auto func = store->getParentOfType<func::FuncOp>();
  if (!func || !isKernel(func) || store->getParentOfType<LoopLikeOpInterface>() ||
      !getTarget(func).hasWgmma())
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
  SmallVector<Value> coords;
  for (const tcc::TmaDim &d : access->dims) {
    Value c;
    for (Value o : d.origin)
      c = c ? arith::AddIOp::create(b, loc, c, o).getResult() : o;
    coords.push_back(c ? c : arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0).getResult());
  }
  TmaStoreOp::create(b, loc, arg, coords, tile);
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
