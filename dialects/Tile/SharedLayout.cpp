//===- SharedLayout.cpp - how a tile sits in shared memory ----------------===//

#include "dialects/Tile/SharedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;

namespace mlir::tile {

static Value i32Const(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

SharedLayout getSharedLayout(SharedMemType type) {
  auto nvmma = cast<NVMMASharedEncodingAttr>(type.getEncoding());
  SharedLayout layout;
  layout.shape.assign(type.getTileShape().begin(), type.getTileShape().end());
  layout.order.assign(nvmma.getOrder().begin(), nvmma.getOrder().end());
  int64_t bytes = std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
  layout.vec = std::max<int64_t>(1, 16 / bytes);
  if (int64_t swizzle = nvmma.getSwizzle()) {
    // The hardware's swizzles: 16-byte chunk c of row r at c ^ ((r / (128 / S)) % (S / 16))
    // within atoms S bytes wide.
    layout.atom = swizzle / bytes;
    layout.perPhase = 128 / swizzle;
    layout.maxPhase = swizzle / 16;
    if (layout.atom >= layout.rowLength())
      layout.atom = 0;
  }
  return layout;
}

int64_t SharedLayout::numRows() const {
  int64_t rows = 1;
  for (unsigned k = 1; k < order.size(); ++k)
    rows *= shape[order[k]];
  return rows;
}

int64_t SharedLayout::offset(ArrayRef<int64_t> coords) const {
  int64_t row = 0, stride = 1;
  for (unsigned k = 1; k < order.size(); ++k) {
    row += coords[order[k]] * stride;
    stride *= shape[order[k]];
  }
  int64_t col = coords[order[0]];
  int64_t width = atomWidth();
  int64_t atomStart = col / width * numRows() * width;
  col %= width;
  int64_t phase = (row / perPhase) % maxPhase;
  int64_t chunk = (col / vec) ^ phase;
  return atomStart + row * (width + pad) + chunk * vec + col % vec;
}

Value SharedLayout::emitOffset(OpBuilder &b, Location loc, ArrayRef<Value> coords) const {
  auto c = [&](int64_t v) { return i32Const(b, loc, v); };
  Value row;
  int64_t stride = 1;
  for (unsigned k = 1; k < order.size(); ++k) {
    Value term = coords[order[k]];
    if (stride > 1)
      term = arith::MulIOp::create(b, loc, term, c(stride));
    row = row ? arith::AddIOp::create(b, loc, row, term).getResult() : term;
    stride *= shape[order[k]];
  }
  Value col = coords[order[0]];
  Value atomStart;
  if (atom && atom < rowLength()) {
    Value index = arith::ShRUIOp::create(b, loc, col, c(llvm::Log2_64(atom)));
    atomStart = arith::MulIOp::create(b, loc, index, c(numRows() * atom));
    col = arith::AndIOp::create(b, loc, col, c(atom - 1));
  }
  if (maxPhase > 1) {
    Value phase = row;
    if (perPhase > 1)
      phase = arith::ShRUIOp::create(b, loc, phase, c(llvm::Log2_64(perPhase)));
    phase = arith::AndIOp::create(b, loc, phase, c(maxPhase - 1));
    // col ^ (phase * vec) swizzles the chunk index and keeps the position in the chunk.
    if (vec > 1)
      phase = arith::ShLIOp::create(b, loc, phase, c(llvm::Log2_64(vec)));
    col = arith::XOrIOp::create(b, loc, col, phase);
  }
  Value result = col;
  if (row) {
    Value rowStart = arith::MulIOp::create(b, loc, row, c(atomWidth() + pad));
    result = arith::AddIOp::create(b, loc, rowStart, col);
  }
  if (atomStart)
    result = arith::AddIOp::create(b, loc, atomStart, result);
  return result;
}

SmallVector<OffsetReuse> planOffsetReuse(
    const SharedLayout &layout, int64_t numAccesses, unsigned numWarps,
    function_ref<SmallVector<int64_t>(int64_t, unsigned, unsigned)> coordsOf) {
  unsigned numThreads = 32 * numWarps;
  // offsets[a * numThreads + t]: access a's element offset for thread t.
  SmallVector<int64_t> offsets;
  offsets.reserve(numAccesses * numThreads);
  for (int64_t a = 0; a < numAccesses; ++a)
    for (unsigned t = 0; t < numThreads; ++t)
      offsets.push_back(layout.offset(coordsOf(a, t % 32, t / 32)));
  SmallVector<OffsetReuse> reuse;
  SmallVector<int64_t> computed; // accesses whose offsets are computed
  for (int64_t a = 0; a < numAccesses; ++a) {
    const int64_t *mine = &offsets[a * numThreads];
    OffsetReuse r{a, 0};
    for (int64_t ref : computed) {
      const int64_t *theirs = &offsets[ref * numThreads];
      int64_t delta = mine[0] - theirs[0];
      bool same = true;
      for (unsigned t = 1; t < numThreads && same; ++t)
        same = mine[t] - theirs[t] == delta;
      if (same) {
        r = OffsetReuse{ref, delta};
        break;
      }
    }
    if (r.ref == a)
      computed.push_back(a);
    reuse.push_back(r);
  }
  return reuse;
}

unsigned accessWidth(const Distribution &dist, unsigned rowDim, unsigned maxWidth) {
  if (dist.getContigDim() != rowDim || dist.getContigRun() <= 1)
    return 1;
  return std::min<int64_t>(dist.getContigRun(), maxWidth);
}

WarpAccesses storeAccesses(const Distribution &dist, unsigned rowDim, unsigned elementBytes) {
  return distributionAccesses(dist, rowDim, std::max(1u, 16 / elementBytes));
}

SharedMemType transposedSharedTile(SharedMemType type) {
  auto encoding = cast<NVMMASharedEncodingAttr>(type.getEncoding());
  ArrayRef<int64_t> shape = type.getShape();
  ArrayRef<unsigned> order = encoding.getOrder();
  auto reversed = NVMMASharedEncodingAttr::get(type.getContext(), encoding.getSwizzle(),
                                               {order[1], order[0]});
  return SharedMemType::get(type.getContext(), {shape[1], shape[0]}, type.getElementType(),
                            reversed);
}

WarpAccesses distributionAccesses(const Distribution &dist, unsigned rowDim,
                                  unsigned maxWidth) {
  WarpAccesses accesses;
  accesses.width = accessWidth(dist, rowDim, maxWidth);
  SmallVector<SmallVector<int64_t>> bases;
  for (unsigned lane = 0; lane < 32; ++lane) {
    SmallVector<int64_t> base;
    for (unsigned d = 0; d < dist.getRank(); ++d)
      base.push_back(dist.getThreadBase(d, lane, 0));
    bases.push_back(base);
  }
  for (int64_t reg = 0; reg < dist.getNumRegs(); reg += accesses.width) {
    std::vector<std::optional<SmallVector<int64_t>>> lanes;
    SmallVector<int64_t> offsets = dist.getRegOffsets(reg);
    for (unsigned lane = 0; lane < 32; ++lane) {
      SmallVector<int64_t> coords = bases[lane];
      for (unsigned d = 0; d < coords.size(); ++d)
        coords[d] += offsets[d];
      lanes.push_back(coords);
    }
    accesses.instructions.push_back(std::move(lanes));
  }
  return accesses;
}

int64_t countWavefronts(const SharedLayout &layout, const WarpAccesses &accesses,
                        unsigned elementBytes, int64_t limit) {
  int64_t bytes = int64_t(accesses.width) * elementBytes;
  int64_t total = 0;
  // This runs for every candidate layout of every staged tile: no allocation per
  // instruction (the words of one instruction, sorted, are at most 32 lanes x 4 words).
  SmallVector<int64_t, 256> words;
  for (const auto &lanes : accesses.instructions) {
    // A wavefront serves one 4-byte word per bank (lanes reading the same word share
    // it) and at most 128 bytes: the cost is the busiest bank's distinct words, and at
    // least the distinct bytes over 128.
    words.clear();
    for (const auto &coords : lanes) {
      if (!coords)
        continue;
      int64_t start = layout.offset(*coords) * elementBytes;
      for (int64_t word = start / 4; word <= (start + bytes - 1) / 4; ++word)
        words.push_back(word);
    }
    llvm::sort(words);
    words.erase(std::unique(words.begin(), words.end()), words.end());
    int64_t perBank[32] = {};
    int64_t worst = (int64_t(words.size()) * 4 + 127) / 128;
    for (int64_t word : words)
      worst = std::max(worst, ++perBank[word & 31]);
    total += worst * accesses.repeat;
    if (limit >= 0 && total > limit)
      return total;
  }
  return total;
}

SharedLayout chooseSharedLayout(
    ArrayRef<int64_t> shape, ArrayRef<SmallVector<unsigned>> orders, unsigned elementBytes,
    function_ref<std::vector<WarpAccesses>(ArrayRef<unsigned> order, unsigned maxWidth)> patterns) {
  SharedLayout best;
  int64_t bestCost = -1, bestSize = 0;
  auto consider = [&](const SharedLayout &candidate, ArrayRef<WarpAccesses> accesses) {
    // Candidates already worse than the best are abandoned early.
    int64_t cost = 0;
    for (const WarpAccesses &a : accesses) {
      cost += countWavefronts(candidate, a, elementBytes, bestCost < 0 ? -1 : bestCost - cost);
      if (bestCost >= 0 && cost > bestCost)
        return;
    }
    int64_t size = candidate.sizeInElements();
    if (bestCost < 0 || cost < bestCost || (cost == bestCost && size < bestSize)) {
      best = candidate;
      bestCost = cost;
      bestSize = size;
    }
  };
  // Narrower vectors can pay: a 4-wide side forces 2-way conflicts on a scalar side
  // that 2-wide chunks would avoid. Try every width up to 16 bytes.
  for (const SmallVector<unsigned> &order : orders)
    for (unsigned maxWidth = std::max(1u, 16 / elementBytes); maxWidth >= 1; maxWidth /= 2) {
      std::vector<WarpAccesses> accesses = patterns(order, maxWidth);
      SharedLayout layout;
      layout.shape.assign(shape.begin(), shape.end());
      layout.order = order;
      for (const WarpAccesses &a : accesses)
        layout.vec = std::max<int64_t>(layout.vec, a.width);
      int64_t chunks = layout.rowLength() / layout.vec;
      consider(layout, accesses);
      for (int64_t maxPhase = 2; maxPhase <= std::min<int64_t>(chunks, 32); maxPhase *= 2)
        for (int64_t perPhase = 1; perPhase <= 32; perPhase *= 2) {
          SharedLayout swizzled = layout;
          swizzled.maxPhase = maxPhase;
          swizzled.perPhase = perPhase;
          consider(swizzled, accesses);
        }
      if (layout.numRows() > 1) {
        SharedLayout padded = layout;
        padded.pad = layout.vec;
        consider(padded, accesses);
      }
    }
  return best;
}

} // namespace mlir::tile
