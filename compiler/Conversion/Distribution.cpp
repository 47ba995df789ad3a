//===- Distribution.cpp - which thread holds which tile element -----------===//

#include "compiler/Conversion/Distribution.h"

#include "dialects/Tile/TileDialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {

std::optional<Distribution> Distribution::get(RankedTensorType type) {
  if (!type || !type.getEncoding())
    return std::nullopt;
  return get(type.getShape(), type.getEncoding());
}

std::optional<Distribution> Distribution::get(ArrayRef<int64_t> shape, Attribute layout) {
  // Peel slices down to the root blocked layout, remembering which root dimensions the
  // tile lacks.
  SmallVector<unsigned> sliced; // root dims removed, in peeling order (outermost first)
  Attribute current = layout;
  while (auto slice = dyn_cast_or_null<SliceEncodingAttr>(current)) {
    sliced.push_back(slice.getDim());
    current = slice.getParent();
  }
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(current);
  if (!blocked)
    return std::nullopt;
  unsigned rootRank = blocked.getRank();
  if (rootRank != shape.size() + sliced.size())
    return std::nullopt;

  Distribution dist;
  dist.spt.assign(blocked.getSizePerThread().begin(), blocked.getSizePerThread().end());
  dist.tpw.assign(blocked.getThreadsPerWarp().begin(), blocked.getThreadsPerWarp().end());
  dist.wpc.assign(blocked.getWarpsPerCTA().begin(), blocked.getWarpsPerCTA().end());
  dist.order.assign(blocked.getOrder().begin(), blocked.getOrder().end());
  dist.shape.assign(shape.begin(), shape.end());

  // Slices were peeled outermost first: the innermost slice's dim indexes the root, each
  // outer one indexes the dims that remain after the inner ones. Rebuild the map from
  // tile dims to root dims by re-applying the removals from the inside out.
  SmallVector<unsigned> dims;
  for (unsigned d = 0; d < rootRank; ++d)
    dims.push_back(d);
  for (auto it = sliced.rbegin(); it != sliced.rend(); ++it) {
    if (*it >= dims.size())
      return std::nullopt;
    dims.erase(dims.begin() + *it);
  }
  dist.tileToRoot = dims;
  dist.rootShape.assign(rootRank, 1);
  for (unsigned i = 0; i < dims.size(); ++i)
    dist.rootShape[dims[i]] = shape[i];

  dist.regsAlong.resize(rootRank);
  dist.runAlong.resize(rootRank);
  for (unsigned d = 0; d < rootRank; ++d) {
    int64_t s = dist.rootShape[d];
    int64_t run = std::min<int64_t>(dist.spt[d], s);
    int64_t reps = std::max<int64_t>(1, s / dist.ctaTile(d));
    dist.runAlong[d] = run;
    dist.regsAlong[d] = run * reps;
    dist.numRegs *= run * reps;
  }
  // Consecutive registers walk the first dimension (in order) that has more than one.
  for (unsigned d : dist.order) {
    if (dist.regsAlong[d] > 1) {
      auto it = llvm::find(dist.tileToRoot, d);
      dist.contigDim = it - dist.tileToRoot.begin();
      dist.contigRun = dist.runAlong[d];
      break;
    }
  }
  return dist;
}

unsigned Distribution::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : wpc)
    n *= w;
  return n;
}

int64_t Distribution::rootRegOffset(int64_t reg, unsigned rootDim) const {
  // Registers enumerate per-dimension local indices in mixed radix, order[0] fastest.
  for (unsigned d : order) {
    int64_t local = reg % regsAlong[d];
    reg /= regsAlong[d];
    if (d == rootDim)
      return (local / runAlong[d]) * ctaTile(d) + local % runAlong[d];
  }
  return 0;
}

int64_t Distribution::getRegOffset(int64_t reg, unsigned dim) const {
  return rootRegOffset(reg, tileToRoot[dim]);
}

SmallVector<int64_t> Distribution::getRegOffsets(int64_t reg) const {
  SmallVector<int64_t> offsets;
  for (unsigned d = 0; d < getRank(); ++d)
    offsets.push_back(getRegOffset(reg, d));
  return offsets;
}

std::optional<int64_t> Distribution::findReg(ArrayRef<int64_t> offsets) const {
  int64_t reg = 0, stride = 1;
  for (unsigned d : order) {
    int64_t off = 0;
    auto it = llvm::find(tileToRoot, d);
    if (it != tileToRoot.end())
      off = offsets[it - tileToRoot.begin()];
    int64_t run = runAlong[d], cta = ctaTile(d);
    int64_t rep = off / cta, within = off % cta;
    if (off < 0 || within >= run || rep * run >= regsAlong[d])
      return std::nullopt;
    reg += (rep * run + within) * stride;
    stride *= regsAlong[d];
  }
  return reg;
}

Distribution::DimThreads Distribution::getDimThreads(unsigned dim) const {
  unsigned rootDim = tileToRoot[dim];
  DimThreads t{0, 1, 0, 1, spt[rootDim]};
  unsigned laneShift = 0, warpShift = 0;
  for (unsigned d : order) {
    if (d == rootDim) {
      t.laneShift = laneShift;
      t.lanes = tpw[d];
      t.warpShift = warpShift;
      t.warps = wpc[d];
      break;
    }
    laneShift += llvm::Log2_32(tpw[d]);
    warpShift += llvm::Log2_32(wpc[d]);
  }
  return t;
}

int64_t Distribution::rootThreadPosition(unsigned rootDim, unsigned lane, unsigned warp) const {
  unsigned laneShift = 0, warpShift = 0;
  for (unsigned d : order) {
    if (d == rootDim) {
      unsigned l = (lane >> laneShift) & (tpw[d] - 1);
      unsigned w = (warp >> warpShift) & (wpc[d] - 1);
      return int64_t(w) * tpw[d] + l;
    }
    laneShift += llvm::Log2_32(tpw[d]);
    warpShift += llvm::Log2_32(wpc[d]);
  }
  return 0;
}

int64_t Distribution::getThreadBase(unsigned dim, unsigned lane, unsigned warp) const {
  unsigned rootDim = tileToRoot[dim];
  int64_t base = rootThreadPosition(rootDim, lane, warp) * spt[rootDim];
  return base & (rootShape[rootDim] - 1);
}

bool Distribution::hasReplicas() const {
  for (unsigned d = 0; d < rootShape.size(); ++d)
    if (rootShape[d] < ctaTile(d) && tpw[d] * wpc[d] > 1)
      return true;
  return false;
}

bool Distribution::isOwner(unsigned lane, unsigned warp) const {
  for (unsigned d = 0; d < rootShape.size(); ++d)
    if (rootThreadPosition(d, lane, warp) * spt[d] >= rootShape[d])
      return false;
  return true;
}

unsigned Distribution::getDistinctLanes(unsigned dim) const {
  unsigned d = tileToRoot[dim];
  int64_t positions = std::max<int64_t>(1, rootShape[d] / spt[d]);
  return std::min<int64_t>(tpw[d], positions);
}

unsigned Distribution::getDistinctWarps(unsigned dim) const {
  unsigned d = tileToRoot[dim];
  int64_t positions = std::max<int64_t>(1, rootShape[d] / (int64_t(spt[d]) * tpw[d]));
  return std::min<int64_t>(wpc[d], positions);
}

SmallVector<unsigned> Distribution::getTileOrder() const {
  SmallVector<unsigned> result;
  for (unsigned d : order) {
    auto it = llvm::find(tileToRoot, d);
    if (it != tileToRoot.end())
      result.push_back(it - tileToRoot.begin());
  }
  return result;
}

bool Distribution::isSameAs(const Distribution &other) const {
  if (shape != other.shape || numRegs != other.numRegs ||
      getNumThreads() != other.getNumThreads())
    return false;
  for (int64_t r = 0; r < numRegs; ++r)
    if (getRegOffsets(r) != other.getRegOffsets(r))
      return false;
  for (unsigned t = 0; t < getNumThreads(); ++t)
    for (unsigned d = 0; d < getRank(); ++d)
      if (getThreadBase(d, t % 32, t / 32) != other.getThreadBase(d, t % 32, t / 32))
        return false;
  return true;
}

} // namespace tcc
