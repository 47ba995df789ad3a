// Distributed layouts (dialects/Tile/Distribution.h) against what they promise: the
// blocked layout's formula of docs/layouts.md, and the register fragments of PTX's
// mma.sync m16n8k16 / m16n8k8 and wgmma m64nNk16 as the PTX ISA states them.
#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tile;

namespace {

class LayoutTest : public ::testing::Test {
protected:
  LayoutTest() { ctx.loadDialect<TileDialect>(); }
  MLIRContext ctx;

  Distribution dist(ArrayRef<int64_t> shape, Attribute layout) {
    std::optional<Distribution> d = Distribution::get(shape, layout);
    EXPECT_TRUE(d.has_value());
    return *d;
  }
  MmaEncodingAttr mma(unsigned version, unsigned wm, unsigned wn, unsigned n, unsigned k) {
    return MmaEncodingAttr::get(&ctx, version, {wm, wn}, {16, n, k});
  }
};

/// (thread, register) -> coordinates, for every thread and register.
using Placement = std::map<std::pair<unsigned, int64_t>, std::vector<int64_t>>;

Placement placement(const Distribution &d) {
  Placement p;
  for (unsigned t = 0; t < d.getNumThreads(); ++t)
    for (int64_t r = 0; r < d.getNumRegs(); ++r) {
      std::vector<int64_t> c;
      for (unsigned dim = 0; dim < d.getRank(); ++dim)
        c.push_back(d.getThreadBase(dim, t % 32, t / 32) + d.getRegOffset(r, dim));
      p[{t, r}] = c;
    }
  return p;
}

TEST_F(LayoutTest, BlockedMatchesTheDocumentedFormula) {
  // docs/layouts.md: x[d] = r * C[d] + (w * tpw[d] + l) * spt[d] + i, modulo the size.
  auto layout = BlockedEncodingAttr::get(&ctx, {2, 4}, {4, 8}, {2, 2}, {1, 0});
  for (std::vector<int64_t> shape : {std::vector<int64_t>{32, 64}, {8, 8}, {64, 256}, {1, 32}}) {
    Distribution d = dist(shape, layout);
    std::set<std::vector<int64_t>> covered;
    for (auto &[key, c] : placement(d)) {
      unsigned t = key.first, lane = t % 32, warp = t / 32;
      unsigned laneM = lane / 8, laneN = lane % 8, warpM = warp / 2, warpN = warp % 2;
      // The register's own coordinates, relative to its thread, by the documented order.
      int64_t baseM = ((warpM * 4 + laneM) * 2) % shape[0];
      int64_t baseN = ((warpN * 8 + laneN) * 4) % shape[1];
      EXPECT_EQ(c[0] - d.getRegOffset(key.second, 0), baseM);
      EXPECT_EQ(c[1] - d.getRegOffset(key.second, 1), baseN);
      EXPECT_LT(c[0], shape[0]);
      EXPECT_LT(c[1], shape[1]);
      covered.insert(c);
    }
    EXPECT_EQ(int64_t(covered.size()), shape[0] * shape[1]);
  }
  // Registers run along order[0] in groups of sizePerThread: 4 contiguous along N.
  Distribution d = dist({64, 256}, layout);
  EXPECT_EQ(d.getContigDim(), 1u);
  EXPECT_EQ(d.getContigRun(), 4);
  EXPECT_EQ(d.getNumRegs(), 64 * 256 / 128);
  EXPECT_FALSE(d.hasReplicas());
  // 8 x 8 over 128 threads of 8 elements each: only 8 threads hold distinct elements.
  Distribution small = dist({8, 8}, layout);
  EXPECT_TRUE(small.hasReplicas());
  unsigned owners = 0;
  for (unsigned t = 0; t < 128; ++t)
    owners += small.isOwner(t % 32, t / 32);
  EXPECT_EQ(owners * small.getNumRegs(), 64u);
}

TEST_F(LayoutTest, SliceDropsADimensionAndReplicatesAlongIt) {
  auto parent = BlockedEncodingAttr::get(&ctx, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  auto slice = SliceEncodingAttr::get(&ctx, 1, parent);
  Distribution d = dist({64}, slice);
  Distribution p = dist({64, 32}, parent);
  // Every thread keeps its rows: the lanes along the sliced N hold copies.
  for (unsigned t = 0; t < 128; ++t)
    EXPECT_EQ(d.getThreadBase(0, t % 32, t / 32), p.getThreadBase(0, t % 32, t / 32));
  EXPECT_EQ(d.getReplicaLaneMask(), 7u); // lane bits 0-2 ran along N
}

TEST_F(LayoutTest, MmaSyncAccumulatorIsPtxFragmentC) {
  // PTX mma.m16n8: c0,c1 at (groupID, 2*threadID_in_group + {0,1}), c2,c3 at row + 8.
  for (auto [wm, wn] : {std::pair<unsigned, unsigned>{2, 4}, {4, 2}, {1, 1}}) {
    Distribution d = dist({128, 128}, mma(2, wm, wn, 8, 16));
    std::set<std::vector<int64_t>> covered;
    for (unsigned t = 0; t < 32 * wm * wn; ++t) {
      unsigned lane = t % 32, warp = t / 32;
      int64_t warpRow = (warp % wm) * 16, warpCol = (warp / wm) * 8;
      // The first instruction's four registers.
      for (int64_t r = 0; r < 4; ++r) {
        EXPECT_EQ(d.getThreadBase(0, lane, warp) + d.getRegOffset(r, 0),
                  warpRow + lane / 4 + 8 * (r / 2));
        EXPECT_EQ(d.getThreadBase(1, lane, warp) + d.getRegOffset(r, 1),
                  warpCol + 2 * (lane % 4) + r % 2);
      }
      for (int64_t r = 0; r < d.getNumRegs(); ++r)
        covered.insert({d.getThreadBase(0, lane, warp) + d.getRegOffset(r, 0),
                        d.getThreadBase(1, lane, warp) + d.getRegOffset(r, 1)});
    }
    EXPECT_EQ(covered.size(), 128u * 128u);
  }
}

TEST_F(LayoutTest, WgmmaAccumulatorIsPtxFragmentD) {
  // PTX wgmma m64nNk16, D: warp w of the warpgroup has rows 16w..16w+15; d[4j+i] at row
  // l/4 + 8*(i/2), column 8j + 2*(l%4) + i%2.
  Distribution d = dist({128, 256}, mma(3, 8, 1, 256, 16));
  EXPECT_EQ(d.getNumRegs(), 128);
  for (unsigned t = 0; t < 256; ++t) {
    unsigned lane = t % 32, warp = t / 32;
    for (int64_t r = 0; r < 128; ++r) {
      int64_t j = r / 4, i = r % 4;
      EXPECT_EQ(d.getThreadBase(0, lane, warp) + d.getRegOffset(r, 0),
                16 * warp + lane / 4 + 8 * (i / 2));
      EXPECT_EQ(d.getThreadBase(1, lane, warp) + d.getRegOffset(r, 1), 8 * j + 2 * (lane % 4) + i % 2);
    }
  }
  // A 64 x 64 tile with a 64 x 64 instruction over 8 warps: the second warpgroup copies.
  Distribution half = dist({64, 64}, mma(3, 8, 1, 64, 16));
  EXPECT_EQ(half.getReplicaWarpMask(), 4u);
}

TEST_F(LayoutTest, DotOperandsArePtxFragmentsAAndB) {
  auto parent = mma(2, 2, 2, 8, 16);
  // m16n8k16 A (f16): a0..a7 = (groupID + 8*((i/2)%2), 2*tig + i%2 + 8*(i/4)).
  Distribution a = dist({32, 32}, DotOperandEncodingAttr::get(&ctx, 0, parent, 2));
  // B: b0..b3 = (k = 2*tig + i%2 + 8*(i/2), n = groupID).
  Distribution b = dist({32, 16}, DotOperandEncodingAttr::get(&ctx, 1, parent, 2));
  for (unsigned t = 0; t < 128; ++t) {
    unsigned lane = t % 32, warp = t / 32, g = lane / 4, tig = lane % 4;
    for (int64_t i = 0; i < 8; ++i) {
      EXPECT_EQ(a.getThreadBase(0, lane, warp) + a.getRegOffset(i, 0), (warp % 2) * 16 + g + 8 * ((i / 2) % 2));
      EXPECT_EQ(a.getThreadBase(1, lane, warp) + a.getRegOffset(i, 1), 2 * tig + i % 2 + 8 * (i / 4));
    }
    for (int64_t i = 0; i < 4; ++i) {
      EXPECT_EQ(b.getThreadBase(0, lane, warp) + b.getRegOffset(i, 0), 2 * tig + i % 2 + 8 * (i / 2));
      EXPECT_EQ(b.getThreadBase(1, lane, warp) + b.getRegOffset(i, 1), (warp / 2) * 8 + g);
    }
  }
  // Warps along the other operand's dimension hold copies.
  EXPECT_EQ(a.getReplicaWarpMask(), 2u);
  EXPECT_EQ(b.getReplicaWarpMask(), 1u);
  // m16n8k8 tf32: a0..a3 = (g + 8*(i%2), tig + 4*(i/2)); b0,b1 = (tig + 4*i, g).
  auto tf32 = mma(2, 1, 1, 8, 8);
  Distribution a8 = dist({16, 8}, DotOperandEncodingAttr::get(&ctx, 0, tf32, 1));
  Distribution b8 = dist({8, 8}, DotOperandEncodingAttr::get(&ctx, 1, tf32, 1));
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned g = lane / 4, tig = lane % 4;
    for (int64_t i = 0; i < 4; ++i) {
      EXPECT_EQ(a8.getThreadBase(0, lane, 0) + a8.getRegOffset(i, 0), g + 8 * (i % 2));
      EXPECT_EQ(a8.getThreadBase(1, lane, 0) + a8.getRegOffset(i, 1), tig + 4 * (i / 2));
    }
    for (int64_t i = 0; i < 2; ++i) {
      EXPECT_EQ(b8.getThreadBase(0, lane, 0) + b8.getRegOffset(i, 0), tig + 4 * i);
      EXPECT_EQ(b8.getThreadBase(1, lane, 0) + b8.getRegOffset(i, 1), g);
    }
  }
}

TEST_F(LayoutTest, FindRegInvertsRegisterOffsets) {
  for (Attribute layout : {Attribute(mma(2, 2, 4, 8, 16)), Attribute(mma(3, 4, 2, 64, 16)),
                           Attribute(BlockedEncodingAttr::get(&ctx, {4, 1}, {8, 4}, {1, 8}, {0, 1}))}) {
    Distribution d = dist({128, 128}, layout);
    for (int64_t r = 0; r < d.getNumRegs(); ++r)
      EXPECT_EQ(d.findReg(d.getRegOffsets(r)), r);
    EXPECT_FALSE(d.findReg({128, 0}).has_value());
  }
}

TEST_F(LayoutTest, SlicesOfMmaLayoutsAreClipped) {
  // A row vector of an mma accumulator (a reduction along N): the lanes that ran along
  // N hold copies; each thread keeps its two rows (l / 4 and l / 4 + 8) of every warp's
  // 16-row block.
  auto acc = mma(2, 2, 2, 8, 16);
  Distribution rows = dist({64}, SliceEncodingAttr::get(&ctx, 1, acc));
  EXPECT_EQ(rows.getReplicaLaneMask(), 3u);
  EXPECT_EQ(rows.getNumRegs(), 4); // rows +0, +8, and the repetition 32 rows down
  for (unsigned lane = 0; lane < 32; ++lane)
    for (int64_t r = 0; r < 4; ++r)
      EXPECT_EQ(rows.getThreadBase(0, lane, 0) + rows.getRegOffset(r, 0),
                lane / 4 + 8 * (r % 2) + 32 * (r / 2));
}

TEST_F(LayoutTest, BitsMustSelectEachCoordinateOnce) {
  std::string why;
  LayoutBits bits;
  bits.regs = {BitTarget::of(0, 0), BitTarget::of(0, 0)};
  bits.order = {0};
  EXPECT_FALSE(Distribution::fromBits({4}, bits, &why).has_value());
  EXPECT_NE(why.find("selected 2 times"), std::string::npos) << why;
}

} // namespace
