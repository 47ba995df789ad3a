//===- Distribution.cpp - which thread holds which tile element -----------===//

#include "dialects/Tile/TileDialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

unsigned log2Of(int64_t v) { return llvm::Log2_64(uint64_t(v)); }

/// The coordinate that the set bits of `index` select along `dim`.
int64_t gather(ArrayRef<BitTarget> targets, uint64_t index, unsigned dim) {
  int64_t value = 0;
  for (auto [i, t] : llvm::enumerate(targets))
    if ((index >> i) & 1 && t.dim == int(dim))
      value |= int64_t(1) << t.bit;
  return value;
}

SmallVector<std::pair<unsigned, unsigned>> bitsAlong(ArrayRef<BitTarget> targets, unsigned dim) {
  SmallVector<std::pair<unsigned, unsigned>> result;
  for (auto [i, t] : llvm::enumerate(targets))
    if (t.dim == int(dim))
      result.push_back({unsigned(i), t.bit});
  return result;
}

unsigned noneMask(ArrayRef<BitTarget> targets) {
  unsigned mask = 0;
  for (auto [i, t] : llvm::enumerate(targets))
    if (t.isNone())
      mask |= 1u << i;
  return mask;
}

} // namespace

std::optional<Distribution> Distribution::get(RankedTensorType type) {
  if (!type || !type.getEncoding())
    return std::nullopt;
  return get(type.getShape(), type.getEncoding());
}

std::optional<Distribution> Distribution::get(ArrayRef<int64_t> shape, Attribute layout) {
  auto distributed = dyn_cast_or_null<DistributedLayoutInterface>(layout);
  if (!distributed || distributed.getRank() != shape.size())
    return std::nullopt;
  for (int64_t s : shape)
    if (!isPowerOf2(s))
      return std::nullopt;
  FailureOr<LayoutBits> bits = distributed.getLayoutBits(shape);
  if (failed(bits))
    return std::nullopt;
  return fromBits(shape, std::move(*bits));
}

std::optional<Distribution> Distribution::fromBits(ArrayRef<int64_t> shape, LayoutBits bits,
                                                   std::string *why) {
  auto fail = [&](const Twine &message) -> std::optional<Distribution> {
    if (why)
      *why = message.str();
    return std::nullopt;
  };
  // Every coordinate bit is selected by exactly one register, lane or warp bit.
  SmallVector<SmallVector<int>> selected;
  for (int64_t s : shape)
    selected.emplace_back(log2Of(s), 0);
  auto mark = [&](ArrayRef<BitTarget> targets) -> bool {
    for (const BitTarget &t : targets) {
      if (t.isNone())
        continue;
      if (t.dim >= int(shape.size()) || t.bit >= selected[t.dim].size())
        return false;
      ++selected[t.dim][t.bit];
    }
    return true;
  };
  for (const BitTarget &t : bits.regs)
    if (t.isNone())
      return fail("a register bit selects no element");
  if (!mark(bits.regs) || !mark(bits.lanes) || !mark(bits.warps))
    return fail("a bit selects a coordinate outside the tile");
  for (auto [d, counts] : llvm::enumerate(selected))
    for (auto [b, count] : llvm::enumerate(counts))
      if (count != 1)
        return fail("bit " + Twine(b) + " of dimension " + Twine(d) + " is selected " +
                    Twine(count) + " times, not once");
  if (bits.order.size() != shape.size())
    return fail("the order has " + Twine(bits.order.size()) + " dimensions, not " +
                Twine(shape.size()));

  Distribution dist;
  dist.shape.assign(shape.begin(), shape.end());
  dist.bits = std::move(bits);
  if (!dist.bits.regs.empty()) {
    const BitTarget &first = dist.bits.regs.front();
    dist.contigDim = first.dim;
    if (first.bit == 0) {
      unsigned k = 1;
      while (k < dist.bits.regs.size() && dist.bits.regs[k] == BitTarget::of(first.dim, k))
        ++k;
      dist.contigRun = int64_t(1) << k;
    }
  }
  return dist;
}

int64_t Distribution::getRegOffset(int64_t reg, unsigned dim) const {
  return gather(bits.regs, uint64_t(reg), dim);
}

SmallVector<int64_t> Distribution::getRegOffsets(int64_t reg) const {
  SmallVector<int64_t> offsets;
  for (unsigned d = 0; d < getRank(); ++d)
    offsets.push_back(getRegOffset(reg, d));
  return offsets;
}

std::optional<int64_t> Distribution::findReg(ArrayRef<int64_t> offsets) const {
  int64_t reg = 0;
  for (unsigned d = 0; d < getRank(); ++d) {
    int64_t off = offsets[d];
    if (off < 0 || off >= shape[d])
      return std::nullopt;
    for (unsigned b = 0; off >> b; ++b) {
      if (!((off >> b) & 1))
        continue;
      auto it = llvm::find(bits.regs, BitTarget::of(d, b));
      if (it == bits.regs.end())
        return std::nullopt;
      reg |= int64_t(1) << (it - bits.regs.begin());
    }
  }
  return reg;
}

int64_t Distribution::getThreadBase(unsigned dim, unsigned lane, unsigned warp) const {
  return gather(bits.lanes, lane, dim) | gather(bits.warps, warp, dim);
}

SmallVector<std::pair<unsigned, unsigned>> Distribution::getLaneBitsAlong(unsigned dim) const {
  return bitsAlong(bits.lanes, dim);
}

SmallVector<std::pair<unsigned, unsigned>> Distribution::getWarpBitsAlong(unsigned dim) const {
  return bitsAlong(bits.warps, dim);
}

unsigned Distribution::getReplicaLaneMask() const { return noneMask(bits.lanes); }
unsigned Distribution::getReplicaWarpMask() const { return noneMask(bits.warps); }

bool Distribution::isOwner(unsigned lane, unsigned warp) const {
  return !(lane & getReplicaLaneMask()) && !(warp & getReplicaWarpMask());
}

int64_t Distribution::getRunAlong(unsigned dim) const {
  unsigned k = 0;
  while (llvm::is_contained(bits.regs, BitTarget::of(dim, k)))
    ++k;
  return int64_t(1) << k;
}

bool Distribution::isSameAs(const Distribution &other) const {
  return shape == other.shape && bits.regs == other.bits.regs &&
         bits.lanes == other.bits.lanes && bits.warps == other.bits.warps;
}

LayoutBits mlir::tile::blockedLayoutBits(ArrayRef<int64_t> shape, ArrayRef<unsigned> spt,
                                         ArrayRef<unsigned> tpw, ArrayRef<unsigned> wpc,
                                         ArrayRef<unsigned> order) {
  LayoutBits bits;
  bits.order.assign(order.begin(), order.end());
  // Registers: per dimension in order, the in-thread run, then the repetitions of the
  // whole CTA tile.
  for (unsigned d : order) {
    unsigned logS = log2Of(shape[d]);
    unsigned logRun = std::min(log2Of(spt[d]), logS);
    for (unsigned b = 0; b < logRun; ++b)
      bits.regs.push_back(BitTarget::of(d, b));
    unsigned logCta = log2Of(int64_t(spt[d]) * tpw[d] * wpc[d]);
    for (unsigned b = logCta; b < logS; ++b)
      bits.regs.push_back(BitTarget::of(d, b));
  }
  // Lanes, then warps, in mixed radix over the dimensions in order; a coordinate bit
  // beyond the dimension's size selects nothing (the tile is smaller than the threads).
  auto threads = [&](ArrayRef<unsigned> counts, auto below, SmallVector<BitTarget> &out) {
    for (unsigned d : order) {
      unsigned logS = log2Of(shape[d]);
      unsigned first = below(d);
      for (unsigned j = 0; j < log2Of(counts[d]); ++j)
        out.push_back(first + j < logS ? BitTarget::of(d, first + j) : BitTarget::none());
    }
  };
  threads(tpw, [&](unsigned d) { return log2Of(spt[d]); }, bits.lanes);
  threads(wpc, [&](unsigned d) { return log2Of(int64_t(spt[d]) * tpw[d]); }, bits.warps);
  return bits;
}
