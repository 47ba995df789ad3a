//===- TileAttrs.cpp - distribution layouts --------------------------------===//

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tile;

#include "dialects/Tile/TileOpsEnums.cpp.inc"

static constexpr unsigned kWarpSize = 32;

unsigned BlockedEncodingAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerCTA())
    n *= w;
  return n;
}

LogicalResult BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<unsigned> sizePerThread,
                                          ArrayRef<unsigned> threadsPerWarp,
                                          ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0)
    return emitError() << "a blocked layout needs at least one dimension";
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "a blocked layout's sizePerThread, threadsPerWarp, warpsPerCTA "
                          "and order must have one entry per dimension (order has "
                       << rank << ")";
  unsigned threads = 1;
  for (size_t d = 0; d < rank; ++d) {
    if (!isPowerOf2(sizePerThread[d]) || !isPowerOf2(threadsPerWarp[d]) ||
        !isPowerOf2(warpsPerCTA[d]))
      return emitError() << "blocked layout entries must be powers of two (dimension " << d
                         << ")";
    threads *= threadsPerWarp[d];
  }
  if (threads != kWarpSize)
    return emitError() << "threadsPerWarp must multiply to the warp size " << kWarpSize
                       << ", not " << threads;
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "order must be a permutation of the dimensions 0.." << rank - 1;
    seen[d] = true;
  }
  return success();
}

LogicalResult
BlockedEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                                    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getRank())
    return emitError() << "a rank-" << getRank() << " blocked layout cannot lay out a rank-"
                       << shape.size() << " tile";
  return success();
}

static unsigned layoutRank(Attribute layout) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
    return blocked.getRank();
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return layoutRank(slice.getParent()) - 1;
  return 0;
}

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        unsigned dim, Attribute parent) {
  if (!isa<BlockedEncodingAttr, SliceEncodingAttr>(parent))
    return emitError() << "a slice layout's parent must be a tile layout, not " << parent;
  unsigned parentRank = layoutRank(parent);
  if (dim >= parentRank)
    return emitError() << "slice dimension " << dim << " is out of range for a rank-"
                       << parentRank << " parent layout";
  return success();
}

LogicalResult
SliceEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                                  function_ref<InFlightDiagnostic()> emitError) const {
  unsigned rank = layoutRank(*this);
  if (shape.size() != rank)
    return emitError() << "a rank-" << rank << " slice layout cannot lay out a rank-"
                       << shape.size() << " tile";
  return success();
}
