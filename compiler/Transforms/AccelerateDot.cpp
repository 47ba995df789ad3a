//===- AccelerateDot.cpp - tile-accelerate-dot ------------------------------===//
//
// Puts `tile.dot` on the tensor cores where the target and the operands allow:
//
//  - wgmma (sm_90a, f16/bf16, a warpgroup of 4 warps per 64 rows): both operands go to
//    shared memory (`tile.local_alloc`, a #tile.nvmma_shared layout the descriptors can
//    address) and the dot becomes `tile.warpgroup_dot` + `tile.warpgroup_dot_wait`;
//  - mma.sync (sm_80 and later; f16/bf16 as m16n8k16, f32 as tf32 m16n8k8): the operands
//    go through shared memory into register fragments (`tile.local_load` into
//    #tile.dot_operand layouts, ldmatrix) and the dot keeps its op with a version-2 #tile.mma
//    accumulator.
//
// The accumulator and result get the #tile.mma layout; conversions from and to the old
// layout keep every other op as it was, and tile-remove-layout-conversions then carries the
// mma layout around loops. The CUDA-core path stays for `input_precision = "ieee"` f32
// products, shapes smaller than one instruction, and targets without tensor cores.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/LayoutUtils.h"
#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/SharedLayout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/Support/MathExtras.h"

namespace tcc {
#define GEN_PASS_DEF_TILEACCELERATEDOT
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

enum class Path { Fma, MmaSync, Wgmma };

/// The contiguous dimension an operand should have in shared memory: the one its
/// registers run along (a coalesced load's), so that copies stay 16 bytes wide.
unsigned contiguousDim(Value operand) {
  auto type = cast<RankedTensorType>(operand.getType());
  std::optional<Distribution> dist = Distribution::get(type);
  return dist ? dist->getTileOrder().front() : 1;
}

/// The widest hardware swizzle (128, 64 or 32 bytes) that divides the rows of a tile whose
/// contiguous dimension is `contig`; 0 when rows are narrower than 32 bytes.
unsigned widestSwizzle(RankedTensorType type, unsigned contig) {
  int64_t rowBytes = type.getDimSize(contig) * type.getElementTypeBitWidth() / 8;
  for (unsigned s : {128u, 64u, 32u})
    if (rowBytes % s == 0)
      return s;
  return 0;
}

SmallVector<unsigned> orderFor(unsigned contig) {
  return contig == 0 ? SmallVector<unsigned>{0, 1} : SmallVector<unsigned>{1, 0};
}

/// Warp 0's 16-byte row reads of ldmatrix from an operand in `dist` (a dot_operand
/// layout of 16-bit elements; K is dimension `kDim`), for the bank-conflict simulation:
/// every pair of registers is one 8 x 8 matrix, lane l giving the address of its row l % 8
/// (rows along the non-K dimension, or along K when transposed).
WarpAccesses ldmatrixAccesses(const Distribution &dist, unsigned kDim, bool trans) {
  WarpAccesses accesses;
  accesses.width = 8;
  unsigned xDim = 1 - kDim;
  for (int64_t pair = 0; pair + 1 < dist.getNumRegs(); pair += 2) {
    std::vector<std::optional<SmallVector<int64_t>>> lanes;
    for (unsigned lane = 0; lane < 32; ++lane) {
      SmallVector<int64_t> coords(2);
      coords[xDim] = dist.getThreadBase(xDim, 0, 0) + dist.getRegOffset(pair, xDim);
      coords[kDim] = dist.getRegOffset(pair, kDim);
      (trans ? coords[kDim] : coords[xDim]) += lane % 8;
      lanes.push_back(coords);
    }
    accesses.instructions.push_back(std::move(lanes));
  }
  return accesses;
}

class Accelerator {
public:
  Accelerator(func::FuncOp func, TargetAttr target)
      : func(func), target(target), numWarps(tcc::getNumWarps(func)), builder(func.getContext()) {}

  void run() {
    SmallVector<DotOp> dots;
    func.walk([&](DotOp dot) { dots.push_back(dot); });
    for (DotOp dot : dots)
      accelerate(dot);
  }

private:
  func::FuncOp func;
  TargetAttr target;
  unsigned numWarps;
  OpBuilder builder;

  Path choosePath(DotOp dot) {
    auto a = dot.getA().getType(), b = dot.getB().getType();
    Type element = a.getElementType();
    int64_t M = a.getDimSize(0), K = a.getDimSize(1), N = b.getDimSize(1);
    bool f32 = element.isF32();
    if (f32 && dot.getInputPrecision() == "ieee")
      return Path::Fma;
    if (!target.hasMmaSync())
      return Path::Fma;
    if (!f32 && target.hasWgmma() && numWarps % 4 == 0 && M >= 64 && N >= 8 && K >= 16 &&
        wgmmaCanRead(dot.getA(), /*kDim=*/1) && wgmmaCanRead(dot.getB(), /*kDim=*/0))
      return Path::Wgmma;
    if (M >= 16 && N >= 8 && K >= (f32 ? 8 : 16))
      return Path::MmaSync;
    return Path::Fma;
  }

  /// Whether wgmma descriptors can address the operand as it would be stored: a 32- to
  /// 128-byte swizzle, 8-row groups along the other dimension (K-major) or 16-row k steps
  /// (M- or N-major).
  bool wgmmaCanRead(Value operand, unsigned kDim) {
    auto type = cast<RankedTensorType>(operand.getType());
    unsigned contig = contiguousDim(operand);
    if (!widestSwizzle(type, contig))
      return false;
    int64_t rows = type.getDimSize(1 - contig);
    return contig == kDim ? rows % 8 == 0 : rows % 16 == 0;
  }

  /// [wm, wn] for wgmma: warpgroups along M first (64 rows each), the rest along N.
  std::pair<unsigned, unsigned> wgmmaWarps(int64_t M, int64_t N) {
    unsigned wm = 4;
    while (wm < numWarps && M >= int64_t(16) * wm * 2)
      wm *= 2;
    unsigned wn = numWarps / wm;
    while (wn > 1 && N / wn < 8)
      wn /= 2, wm *= 2; // too narrow: the extra warpgroups repeat along M (replicas)
    return {wm, wn};
  }

  /// [wm, wn] for mma.sync: each doubling goes to the dimension whose per-warp extent is
  /// larger in instructions (16 rows, 8 columns), keeping warp tiles square-ish, so that
  /// the fragments read per k step are fewest.
  std::pair<unsigned, unsigned> mmaSyncWarps(int64_t M, int64_t N) {
    unsigned wm = 1, wn = 1;
    while (wm * wn < numWarps) {
      bool mFits = M / (16 * wm) > 1, nFits = N / (8 * wn) > 1;
      if (mFits && (!nFits || M / wm >= N / wn))
        wm *= 2;
      else if (nFits)
        wn *= 2;
      else
        wm *= 2; // the tile is smaller than the warps: copies
    }
    return {wm, wn};
  }

  /// The operand's shared layout: rows along its registers' dimension, the swizzle with
  /// the fewest bank conflicts for the stores and, with ldmatrix, the reads (ties go to
  /// the wider swizzle); wgmma takes only the hardware's 32/64/128-byte swizzles.
  NVMMASharedEncodingAttr operandEncoding(Value operand, unsigned kDim, Path path,
                                          Attribute fragment) {
    auto type = cast<RankedTensorType>(operand.getType());
    unsigned contig = contiguousDim(operand);
    unsigned widest = widestSwizzle(type, contig);
    SmallVector<unsigned> order = orderFor(contig);
    unsigned elementBytes = type.getElementTypeBitWidth() / 8;
    std::optional<Distribution> src = Distribution::get(type);
    SmallVector<unsigned> candidates;
    for (unsigned s = widest; s >= 32; s /= 2)
      candidates.push_back(s);
    if (path != Path::Wgmma)
      candidates.push_back(0);
    if (candidates.empty())
      candidates.push_back(0);
    unsigned best = candidates.front();
    int64_t bestCost = -1;
    for (unsigned s : candidates) {
      auto encoding = NVMMASharedEncodingAttr::get(type.getContext(), s, order);
      auto memType = SharedMemType::get(type.getContext(), type.getShape(),
                                        type.getElementType(), encoding);
      SharedLayout layout = getSharedLayout(memType);
      int64_t cost = 0;
      if (src)
        cost += countWavefronts(layout, storeAccesses(*src, contig, elementBytes), elementBytes);
      if (fragment && elementBytes == 2) {
        std::optional<Distribution> frag = Distribution::get(type.getShape(), fragment);
        if (frag)
          cost += countWavefronts(layout, ldmatrixAccesses(*frag, kDim, contig != kDim),
                                  elementBytes);
      }
      if (bestCost < 0 || cost < bestCost) {
        best = s;
        bestCost = cost;
      }
    }
    return NVMMASharedEncodingAttr::get(type.getContext(), best, order);
  }

  Value toShared(Value operand, NVMMASharedEncodingAttr encoding, Location loc) {
    auto type = cast<RankedTensorType>(operand.getType());
    auto memType = SharedMemType::get(type.getContext(), type.getShape(), type.getElementType(),
                                      encoding);
    return LocalAllocOp::create(builder, loc, memType, operand, IntegerAttr());
  }

  void accelerate(DotOp dot) {
    // Operands are stored to shared memory from whatever layout they have: a conversion
    // before would be a second trip through shared memory. (A CUDA-core dot stages them
    // from any layout too.)
    for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()})
      if (auto convert = operand->get().getDefiningOp<ConvertLayoutOp>()) {
        operand->set(convert.getSrc());
        if (convert->use_empty())
          convert->erase();
      }
    Path path = choosePath(dot);
    if (path == Path::Fma)
      return;
    Location loc = dot.getLoc();
    MLIRContext *ctx = dot.getContext();
    auto accType = dot.getType();
    int64_t M = accType.getDimSize(0), N = accType.getDimSize(1);
    bool f32 = dot.getA().getType().getElementType().isF32();
    builder.setInsertionPoint(dot);

    if (path == Path::Wgmma) {
      auto [wm, wn] = wgmmaWarps(M, N);
      unsigned instrN = unsigned(std::min<int64_t>(256, N / wn));
      auto mma = MmaEncodingAttr::get(ctx, 3, {wm, wn}, {16, instrN, 16});
      Value a = toShared(dot.getA(), operandEncoding(dot.getA(), 1, path, {}), loc);
      Value b = toShared(dot.getB(), operandEncoding(dot.getB(), 0, path, {}), loc);
      Value acc = tcc::convertBefore(builder, dot, dot.getAcc(), mma);
      Value started = WarpGroupDotOp::create(builder, loc, acc.getType(), a, b, acc);
      Value done = WarpGroupDotWaitOp::create(builder, loc, acc.getType(), started, 0);
      Value back = ConvertLayoutOp::create(builder, loc, accType, done);
      dot.getResult().replaceAllUsesWith(back);
      dot.erase();
      return;
    }

    auto [wm, wn] = mmaSyncWarps(M, N);
    unsigned kWidth = f32 ? 1 : 2;
    auto mma = MmaEncodingAttr::get(ctx, 2, {wm, wn}, {16, 8, f32 ? 8u : 16u});
    Value operands[2];
    for (unsigned i = 0; i < 2; ++i) {
      Value operand = i == 0 ? dot.getA() : dot.getB();
      auto fragment = DotOperandEncodingAttr::get(ctx, i, mma, kWidth);
      Value shared = toShared(operand, operandEncoding(operand, i == 0 ? 1 : 0, path, fragment), loc);
      operands[i] = LocalLoadOp::create(builder, loc, tcc::withLayout(operand.getType(), fragment),
                                        shared);
    }
    Value acc = tcc::convertBefore(builder, dot, dot.getAcc(), mma);
    auto fast = DotOp::create(builder, loc, acc.getType(), operands[0], operands[1], acc,
                              dot.getInputPrecisionAttr());
    Value back = ConvertLayoutOp::create(builder, loc, accType, fast);
    dot.getResult().replaceAllUsesWith(back);
    dot.erase();
  }
};

struct AccelerateDot : tcc::impl::TileAccelerateDotBase<AccelerateDot> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    TargetAttr target = getTarget(module);
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        Accelerator(func, target).run();
  }
};

} // namespace
