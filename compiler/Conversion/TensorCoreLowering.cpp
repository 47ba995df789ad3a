//===- TensorCoreLowering.cpp - shared-memory tiles and tensor-core dots ----===//
//
// The ops tile-accelerate-dot and tile-pipeline create:
//  - local_alloc / memdesc_index: a buffer is its address in `tcc_shared` (offset from
//    tile-allocate-shared); local_alloc of a tile stores each thread's registers there;
//  - async_copy: one cp.async per vector of a thread's pointers, masked elements
//    zero-filled (source size 0); commit/wait groups;
//  - local_load into #tile.dot_operand from an nvmma_shared tile of 16-bit elements:
//    ldmatrix.x4 (.trans when the operand's K is not the contiguous dimension), each
//    register pair of the fragment being one 8 x 8 matrix; other loads element by element;
//  - tile.dot on a version-2 #tile.mma accumulator: mma.sync m16n8k16 (m16n8k8 tf32) per
//    16 x 8 block and k step, fragments picked out of the operands' registers by their
//    coordinates (the layouts are PTX's fragments, see dialects/Tile/Distribution.h);
//  - warpgroup_dot: wgmma.fence, one wgmma.mma_async per 64-row block, instruction-N
//    block and k step, with shared-memory descriptors (start address, leading and stride
//    byte offsets of the nvmma_shared layout, swizzle mode), then commit_group;
//  - warpgroup_dot_wait: wgmma.wait_group as inline PTX that takes and returns every
//    accumulator register, so that no use of them moves above the wait.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/SharedMemory.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/SharedLayout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

unsigned elementBytes(Type type) { return std::max(1u, type.getIntOrFloatBitWidth() / 8); }

Value add(OpBuilder &b, Location loc, Value x, int64_t c) {
  return c ? arith::AddIOp::create(b, loc, x, i32Const(b, loc, c)).getResult() : x;
}

/// The register of `dist` holding the element at `offsets` from the thread's base;
/// the layouts guarantee it exists (checked where they are built).
int64_t regAt(const Distribution &dist, ArrayRef<int64_t> offsets) {
  std::optional<int64_t> reg = dist.findReg(offsets);
  assert(reg && "fragment element not held by the thread");
  return reg ? *reg : 0;
}

nvvm::MmaType mmaTypeOf(Type element) {
  if (element.isBF16())
    return nvvm::MmaType::BF16;
  if (element.isF32())
    return nvvm::MmaType::TF32;
  return nvvm::MmaType::F16;
}

/// Two 16-bit registers as the 32-bit operand mma.sync takes (vector<2xf16> for f16,
/// i32 for bf16); an f32 as tf32 (i32).
Value packPair(OpBuilder &b, Location loc, Value lo, Value hi) {
  Type element = lo.getType();
  auto vecType = VectorType::get({2}, element);
  Value v = LLVM::PoisonOp::create(b, loc, vecType);
  v = LLVM::InsertElementOp::create(b, loc, v, lo, i32Const(b, loc, 0));
  v = LLVM::InsertElementOp::create(b, loc, v, hi, i32Const(b, loc, 1));
  if (element.isF16())
    return v;
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
}

Value asTf32(OpBuilder &b, Location loc, Value f) {
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), f);
}

/// A packed pair (packPair) as the i32 an "r" operand of inline PTX takes.
Value asI32(OpBuilder &b, Location loc, Value pair) {
  if (pair.getType().isInteger(32))
    return pair;
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair);
}

/// One wgmma.mma_async m64`n`k16 with A from registers (`a`: four i32, f16 or bf16
/// pairs) and B from its descriptor, on the `n` / 2 accumulators `d` (D += A * B, or D =
/// A * B without `accumulate`); the new accumulators. NVVM's op takes a descriptor for A
/// only, so this is the PTX itself, the accumulators tied through it.
SmallVector<Value> wgmmaRegisterA(OpBuilder &b, Location loc, Type element, int64_t n,
                                  ArrayRef<Value> d, ArrayRef<Value> a, Value descB,
                                  bool transB, bool accumulate) {
  int64_t count = int64_t(d.size());
  std::string ty = element.isBF16() ? "bf16" : "f16";
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, " + std::string(accumulate ? "1" : "0") +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(n) +
                     "k16.f32." + ty + "." + ty + " {";
  for (int64_t i = 0; i < count; ++i)
    text += (i ? ", $" : "$") + std::to_string(i);
  text += "}, {";
  for (int64_t i = 0; i < 4; ++i)
    text += (i ? ", $" : "$") + std::to_string(count + i);
  text += "}, $" + std::to_string(count + 4) + ", p, 1, 1, " + (transB ? "1" : "0") + ";\n}";
  std::string constraints;
  for (int64_t i = 0; i < count; ++i)
    constraints += (i ? ",=f" : "=f");
  constraints += ",r,r,r,r,l";
  SmallVector<Value> operands(a.begin(), a.end());
  operands.push_back(descB);
  if (accumulate)
    for (int64_t i = 0; i < count; ++i) {
      constraints += "," + std::to_string(i);
      operands.push_back(d[i]);
    }
  Type f32 = b.getF32Type();
  auto result = LLVM::LLVMStructType::getLiteral(b.getContext(), SmallVector<Type>(count, f32));
  auto asmOp = LLVM::InlineAsmOp::create(b, loc, result, operands, text, constraints,
                                         /*has_side_effects=*/true, /*is_align_stack=*/false,
                                         LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
                                         ArrayAttr());
  SmallVector<Value> out;
  for (int64_t i = 0; i < count; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return out;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

struct LocalAllocLowering : OpConversionPattern<LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalAllocOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::optional<uint64_t> offset = op.getOffset();
    if (!offset)
      return op.emitOpError("has no place in shared memory: run tile-allocate-shared before "
                            "the lowering");
    Value base = bufferBase(rewriter, op, int64_t(*offset));
    if (Value src = op.getSrc()) {
      std::optional<Distribution> dist = getDistributionOrError(op, src.getType());
      if (!dist)
        return failure();
      storeTile(rewriter, loc, base, getSharedLayout(op.getType()), *dist,
                memoryType(adaptor.getSrc().front().getType()), adaptor.getSrc());
    }
    replaceWithRegisters(rewriter, op, {base});
    return success();
  }
};

struct MemDescIndexLowering : OpConversionPattern<MemDescIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MemDescIndexOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value index = adaptor.getIndex().front();
    Value bytes = arith::MulIOp::create(rewriter, loc, index,
                                        i32Const(rewriter, loc, op.getType().getTileBytes()));
    Value ptr = sharedElementPtr(rewriter, loc, adaptor.getSrc().front(), rewriter.getI8Type(),
                                 bytes);
    replaceWithRegisters(rewriter, op, {ptr});
    return success();
  }
};

/// The same bytes seen transposed: the same address.
struct MemDescTransLowering : OpConversionPattern<MemDescTransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MemDescTransOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    replaceWithRegisters(rewriter, op, {adaptor.getSrc().front()});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Loads out of shared memory
//===----------------------------------------------------------------------===//

/// ldmatrix of a 16-bit dot operand: every register pair (the pair holds consecutive k)
/// is one 8 x 8 matrix of the warp; up to four pairs per instruction. Lane l gives the
/// address of row l % 8 of matrix l / 8: rows run along the non-K dimension, or along K
/// when the operand is stored transposed (`.trans`).
SmallVector<Value> loadFragments(OpBuilder &b, Location loc, Value base,
                                 const SharedLayout &layout, const Distribution &dist,
                                 unsigned kDim, Type element) {
  unsigned xDim = 1 - kDim;
  bool trans = layout.order[0] != kDim;
  int64_t numPairs = dist.getNumRegs() / 2;
  unsigned numThreads = dist.getNumThreads();
  Value lane = emitLaneId(b, loc, numThreads);
  Value row = arith::AndIOp::create(b, loc, lane, i32Const(b, loc, 7));
  Value matrix = arith::ShRUIOp::create(b, loc, lane, i32Const(b, loc, 3));
  Value warpX = emitWarpBase(b, loc, dist, xDim);
  ArrayRef<BitTarget> regBits = dist.getBits().regs;
  SmallVector<Value> values(dist.getNumRegs());
  auto vecType = VectorType::get({2}, element);
  for (int64_t p0 = 0; p0 < numPairs;) {
    unsigned count = numPairs - p0 >= 4 ? 4 : numPairs - p0 >= 2 ? 2 : 1;
    // The coordinates lane l addresses: the first pair's, plus the register bits
    // 1 .. log2(count) of the group taken from the lane's matrix index.
    SmallVector<Value> coords(2);
    SmallVector<int64_t> first = dist.getRegOffsets(2 * p0);
    coords[xDim] = add(b, loc, warpX, first[xDim]);
    coords[kDim] = i32Const(b, loc, first[kDim]);
    for (unsigned t = 0; (1u << t) < count; ++t) {
      const BitTarget &target = regBits[1 + t];
      Value bit = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, matrix, i32Const(b, loc, t)),
                                        i32Const(b, loc, 1));
      Value shifted = arith::ShLIOp::create(b, loc, bit, i32Const(b, loc, target.bit));
      coords[target.dim] = arith::OrIOp::create(b, loc, coords[target.dim], shifted);
    }
    unsigned rowDim = trans ? kDim : xDim;
    coords[rowDim] = arith::OrIOp::create(b, loc, coords[rowDim], row);
    Value ptr = sharedElementPtr(b, loc, base, element, layout.emitOffset(b, loc, coords));
    SmallVector<Value> regs = nvvm::ldmatrix(b, loc, ptr, count, trans);
    for (unsigned j = 0; j < count; ++j) {
      Value pair = LLVM::BitcastOp::create(b, loc, vecType, regs[j]);
      for (unsigned h = 0; h < 2; ++h)
        values[2 * (p0 + j) + h] =
            LLVM::ExtractElementOp::create(b, loc, pair, i32Const(b, loc, h));
    }
    p0 += count;
  }
  return values;
}

struct LocalLoadLowering : OpConversionPattern<LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalLoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::optional<Distribution> dist = getDistributionOrError(op, op.getType());
    if (!dist)
      return failure();
    SharedLayout layout = getSharedLayout(op.getSrc().getType());
    Value base = adaptor.getSrc().front();
    Type element = getTypeConverter()->convertType(op.getType().getElementType());
    auto fragment = dyn_cast<DotOperandEncodingAttr>(op.getType().getEncoding());
    if (fragment && fragment.getKWidth() == 2 && elementBytes(element) == 2) {
      unsigned kDim = fragment.getOpIdx() == 0 ? 1 : 0;
      replaceWithRegisters(rewriter, op,
                           loadFragments(rewriter, loc, base, layout, *dist, kDim, element));
      return success();
    }
    replaceWithRegisters(rewriter, op,
                         loadTile(rewriter, loc, base, layout, *dist, memoryType(element), element));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Asynchronous copies, barriers, fences
//===----------------------------------------------------------------------===//

struct AsyncCopyLowering : OpConversionPattern<AsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncCopyOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::optional<Distribution> dist = getDistributionOrError(op, op.getPtr().getType());
    if (!dist)
      return failure();
    SharedLayout layout = getSharedLayout(op.getDst().getType());
    unsigned vec = op.getVec();
    if (vec > 1 && (dist->getContigDim() != layout.order[0] || dist->getContigRun() < vec))
      return op.emitOpError() << "copies " << vec << " elements per instruction, but a "
                              << "thread's pointers are not that many consecutive elements "
                              << "along the shared tile's rows";
    Type element = op.getDst().getType().getElementType();
    unsigned bytes = vec * elementBytes(element);
    SmallVector<Value> bases = threadBases(rewriter, loc, *dist);
    SharedAccesses addresses(layout, *dist, vec);
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask();
    Value base = adaptor.getDst().front();
    Value full = i32Const(rewriter, loc, bytes), none = i32Const(rewriter, loc, 0);
    for (int64_t reg = 0; reg < dist->getNumRegs(); reg += vec) {
      Value dst = addresses.emit(rewriter, loc, base, element, bases, reg);
      Value srcBytes = masks.empty() ? full
                                     : arith::SelectOp::create(rewriter, loc, masks[reg], full, none)
                                           .getResult();
      nvvm::cpAsync(rewriter, loc, dst, ptrs[reg], bytes, srcBytes);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

template <typename Op>
struct SimpleLowering : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<Op>::OneToNOpAdaptor;
  LogicalResult matchAndRewrite(Op op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if constexpr (std::is_same_v<Op, AsyncCommitOp>)
      nvvm::cpAsyncCommit(rewriter, loc);
    else if constexpr (std::is_same_v<Op, AsyncWaitOp>)
      nvvm::cpAsyncWait(rewriter, loc, op.getPending());
    else if constexpr (std::is_same_v<Op, BarrierOp>)
      nvvm::barrier(rewriter, loc);
    else
      nvvm::fenceProxyAsyncShared(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

struct MmaSyncLowering : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto mma = dyn_cast_or_null<MmaEncodingAttr>(op.getType().getEncoding());
    if (!mma)
      return rewriter.notifyMatchFailure(op, "a CUDA-core dot");
    if (mma.getVersion() != 2)
      return op.emitOpError("has a wgmma accumulator: it must be a tile.warpgroup_dot");
    std::optional<Distribution> a = getDistributionOrError(op, op.getA().getType());
    std::optional<Distribution> b = getDistributionOrError(op, op.getB().getType());
    std::optional<Distribution> acc = getDistributionOrError(op, op.getType());
    if (!a || !b || !acc)
      return failure();
    Location loc = op.getLoc();
    Type element = op.getA().getType().getElementType();
    nvvm::MmaType type = mmaTypeOf(element);
    bool tf32 = type == nvvm::MmaType::TF32;
    int64_t kInstr = tf32 ? 8 : 16;
    int64_t M = op.getType().getDimSize(0), N = op.getType().getDimSize(1);
    int64_t K = op.getA().getType().getDimSize(1);
    int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    int64_t mStride = 16 * wm, nStride = 8 * wn;
    int64_t mReps = std::max<int64_t>(1, M / mStride), nReps = std::max<int64_t>(1, N / nStride);
    ValueRange aRegs = adaptor.getA(), bRegs = adaptor.getB();
    SmallVector<Value> values = llvm::to_vector(adaptor.getAcc());
    for (int64_t ks = 0; ks < K / kInstr; ++ks) {
      int64_t k0 = ks * kInstr;
      for (int64_t mi = 0; mi < mReps; ++mi) {
        int64_t m0 = mi * mStride;
        SmallVector<Value> aOps;
        if (tf32) {
          for (int64_t j = 0; j < 4; ++j)
            aOps.push_back(asTf32(rewriter, loc, aRegs[regAt(*a, {m0 + 8 * (j % 2), k0 + 4 * (j / 2)})]));
        } else {
          for (int64_t j = 0; j < 8; j += 2) {
            auto at = [&](int64_t e) {
              return aRegs[regAt(*a, {m0 + 8 * ((e / 2) % 2), k0 + e % 2 + 8 * (e / 4)})];
            };
            aOps.push_back(packPair(rewriter, loc, at(j), at(j + 1)));
          }
        }
        for (int64_t ni = 0; ni < nReps; ++ni) {
          int64_t n0 = ni * nStride;
          SmallVector<Value> bOps;
          if (tf32) {
            for (int64_t j = 0; j < 2; ++j)
              bOps.push_back(asTf32(rewriter, loc, bRegs[regAt(*b, {k0 + 4 * j, n0})]));
          } else {
            for (int64_t j = 0; j < 4; j += 2) {
              auto at = [&](int64_t e) { return bRegs[regAt(*b, {k0 + e % 2 + 8 * (e / 2), n0})]; };
              bOps.push_back(packPair(rewriter, loc, at(j), at(j + 1)));
            }
          }
          SmallVector<int64_t> cRegs;
          for (int64_t i = 0; i < 4; ++i)
            cRegs.push_back(regAt(*acc, {m0 + 8 * (i / 2), n0 + i % 2}));
          SmallVector<Value> c;
          for (int64_t r : cRegs)
            c.push_back(values[r]);
          SmallVector<Value> d = nvvm::mmaSync(rewriter, loc, type, aOps, bOps, c);
          for (auto [r, v] : llvm::zip(cRegs, d))
            values[r] = v;
        }
      }
    }
    replaceWithRegisters(rewriter, op, values);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

/// How wgmma descriptors address an operand tile: its layout, whether it is stored
/// MN-major (transposed), its rows and swizzle, and the fixed part of the descriptor.
struct OperandDescriptor {
  SharedLayout layout;
  bool mnMajor;
  int64_t rows, swizzle, elementBytes;
  uint64_t fixed; // LBO, SBO and the swizzle mode

  OperandDescriptor(SharedMemType type, unsigned kDim) {
    layout = getSharedLayout(type);
    auto nvmma = cast<NVMMASharedEncodingAttr>(type.getEncoding());
    mnMajor = nvmma.getOrder()[0] != kDim;
    rows = layout.numRows();
    swizzle = nvmma.getSwizzle();
    elementBytes = tcc::elementBytes(type.getElementType());
    // Swizzled layouts (PTX, "matrix descriptor"): SBO = the 8-row group (8 x swizzle
    // bytes); LBO = the stride between atoms along M or N for MN-major operands, unused
    // (1) for K-major ones.
    uint64_t lbo = mnMajor ? uint64_t(rows * swizzle) >> 4 : 1;
    uint64_t sbo = uint64_t(8 * swizzle) >> 4;
    uint64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
    fixed = (lbo << 16) | (sbo << 32) | (mode << 62);
  }

  /// Byte offset, within the tile, of the instruction's block at M/N offset `mn` (a
  /// multiple of 8; run time) and k step 0.
  Value emitStart(OpBuilder &b, Location loc, Value mn) const {
    if (!mnMajor) // rows are M (or N): mn x swizzle
      return arith::MulIOp::create(b, loc, mn, i32Const(b, loc, swizzle));
    // Rows are k: whole atoms along M/N, then the bytes inside the row.
    int64_t atomWidth = swizzle / elementBytes;
    Value atom = arith::ShRUIOp::create(b, loc, mn, i32Const(b, loc, llvm::Log2_64(atomWidth)));
    Value atomBytes = arith::MulIOp::create(b, loc, atom, i32Const(b, loc, rows * swizzle));
    Value inRow = arith::AndIOp::create(b, loc, mn, i32Const(b, loc, atomWidth - 1));
    inRow = arith::MulIOp::create(b, loc, inRow, i32Const(b, loc, elementBytes));
    return arith::AddIOp::create(b, loc, atomBytes, inRow);
  }

  /// How far k step `ks`'s block starts from k step 0's (bytes; a multiple of 16, the same
  /// for every M/N offset; instruction depth 32 bytes). K-major: the atom along K, then the
  /// bytes in it; MN-major: 16 (8 for tf32) rows of the tile per k step.
  int64_t kStepBytes(int64_t ks) const {
    int64_t kBytes = ks * 32;
    if (!mnMajor)
      return kBytes / swizzle * rows * swizzle + kBytes % swizzle;
    return kBytes / elementBytes * swizzle;
  }

  /// The descriptor of the block at M/N offset `mn` and k step 0. Its start address field
  /// is `(address & 0x3FFFF) >> 4` (PTX, "matrix descriptor"): the mask matters in a
  /// kernel launched in clusters, where the shared::cta addresses of the programs of rank
  /// 1 and up have bits above 17 set; unmasked, they ran into the LBO field, and those
  /// programs' wgmma read the second atom of an MN-major operand (B's columns 64 to 127 of
  /// a 128-wide tile) from the wrong place (measured: GPU tests of --multicast and
  /// --split-k, 2026-12-07).
  Value emit(OpBuilder &b, Location loc, Value baseAddress, Value mn) const {
    Value address = arith::AddIOp::create(b, loc, baseAddress, emitStart(b, loc, mn));
    address = arith::AndIOp::create(b, loc, address, i32Const(b, loc, 0x3FFFF));
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), address);
    Value field = arith::ShRUIOp::create(b, loc, wide,
                                         arith::ConstantIntOp::create(b, loc, b.getI64Type(), 4));
    Value fixedValue = arith::ConstantIntOp::create(b, loc, b.getI64Type(), int64_t(fixed));
    return arith::OrIOp::create(b, loc, fixedValue, field);
  }

  /// The descriptor of k step `ks` from k step 0's: its start address field (bits 0-13,
  /// the address / 16) advanced by a constant. It cannot carry into the fixed bits: every
  /// block lies in the program's shared memory (below 228 KiB < 2^14 x 16 bytes from the
  /// masked address's origin). One 64-bit add, off
  /// the path from the shared address to the instruction, where building each descriptor
  /// from its address put a dependent add, shift, widening and or before every wgmma
  /// (as Triton's lowering, the k steps' descriptors are the first one's plus a constant).
  Value advance(OpBuilder &b, Location loc, Value first, int64_t ks) const {
    if (ks == 0)
      return first;
    int64_t delta = kStepBytes(ks);
    assert(delta % 16 == 0 && "a k step starts 16-byte aligned");
    return arith::AddIOp::create(b, loc, first,
                                 arith::ConstantIntOp::create(b, loc, b.getI64Type(), delta >> 4));
  }
};

Value sharedAddress(OpBuilder &b, Location loc, Value ptr) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), ptr);
}

struct WarpGroupDotLowering : OpConversionPattern<WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpGroupDotOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto mma = cast<MmaEncodingAttr>(op.getType().getEncoding());
    std::optional<Distribution> acc = getDistributionOrError(op, op.getType());
    if (!acc)
      return failure();
    SharedMemType bType = op.getB().getType();
    auto sharedA = dyn_cast<SharedMemType>(op.getA().getType());
    Type element = bType.getElementType();
    nvvm::MmaType type = mmaTypeOf(element);
    int64_t kInstr = type == nvvm::MmaType::TF32 ? 8 : 16;
    // A register operand (verified: f16/bf16 in the accumulator's mma layout) has no
    // descriptor; its distribution says which register holds which element.
    std::optional<OperandDescriptor> aDesc;
    std::optional<Distribution> aDist;
    if (sharedA)
      aDesc.emplace(sharedA, 1);
    else if (!(aDist = getDistributionOrError(op, op.getA().getType())))
      return failure();
    OperandDescriptor bDesc(bType, 0);
    if (((aDesc && aDesc->mnMajor) || bDesc.mnMajor) && type == nvvm::MmaType::TF32)
      return op.emitOpError("tf32 wgmma reads K-major operands only");
    int64_t M = op.getType().getDimSize(0), N = op.getType().getDimSize(1);
    int64_t K = sharedA ? sharedA.getShape()[1]
                        : cast<RankedTensorType>(op.getA().getType()).getDimSize(1);
    int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    int64_t instrN = mma.getInstrShape()[1];
    int64_t mStride = 16 * wm, nStride = instrN * wn;
    int64_t mReps = std::max<int64_t>(1, M / mStride), nReps = std::max<int64_t>(1, N / nStride);

    // The warpgroup's first row (its warps' rows, the row within a warp cleared) and
    // first column: the same in every thread of the warpgroup, as wgmma requires, and
    // from a warp id ptxas knows to be warp-uniform, so that the descriptors are built in
    // uniform registers.
    // Computed once, at the function's entry: they depend on the thread alone, and a
    // shuffle inside the K loop costs a shuffle and a register-to-uniform move per
    // iteration on the path from the barrier to the first wgmma (128x128x64 tiles, 8
    // warps: 3 % on the H200, bench/RESULTS.md).
    Value mBase, nBase;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      if (auto fn = op->getParentOfType<FunctionOpInterface>())
        rewriter.setInsertionPointToStart(&fn.getFunctionBody().front());
      Value warp = emitUniformWarpId(rewriter, loc, acc->getNumThreads());
      mBase = arith::AndIOp::create(rewriter, loc, emitWarpBase(rewriter, loc, *acc, 0, warp),
                                    i32Const(rewriter, loc, ~int64_t(63)));
      nBase = emitWarpBase(rewriter, loc, *acc, 1, warp);
    }
    Value bAddress = sharedAddress(rewriter, loc, adaptor.getB().front());
    SmallVector<Value> values = llvm::to_vector(adaptor.getAcc());
    Type f32 = rewriter.getF32Type();
    int64_t blockRegs = instrN / 2;
    auto structType =
        LLVM::LLVMStructType::getLiteral(getContext(), SmallVector<Type>(blockRegs, f32));

    // The k step 0 descriptor of each M and N block, built once; every k step's is that
    // plus a constant (OperandDescriptor::advance).
    SmallVector<Value> firstA, firstB;
    if (aDesc) {
      Value aAddress = sharedAddress(rewriter, loc, adaptor.getA().front());
      for (int64_t mi = 0; mi < mReps; ++mi)
        firstA.push_back(
            aDesc->emit(rewriter, loc, aAddress, add(rewriter, loc, mBase, mi * mStride)));
    }
    // A register A's fragments, all packed before wgmma.fence: registers written between
    // the fence and a wgmma reading them make ptxas insert another warpgroup.arrive
    // (C7519) before it.
    // wgmma's register A is mma.sync's m16k16 fragment per warp: a0 (row r, columns k0,
    // k0 + 1), a1 (r + 8), a2 (r, k0 + 8, k0 + 9), a3 (r + 8), r the thread's row in its
    // warp's 16: the registers an m64nNk16 accumulator holds for those elements.
    SmallVector<SmallVector<Value>> aFragments; // [ks * mReps + mi]: four i32
    if (!aDesc) {
      ValueRange aRegs = adaptor.getA();
      for (int64_t ks = 0; ks < K / kInstr; ++ks)
        for (int64_t mi = 0; mi < mReps; ++mi) {
          SmallVector<Value> &fragment = aFragments.emplace_back();
          int64_t m0 = mi * mStride, k0 = ks * kInstr;
          for (int64_t j = 0; j < 4; ++j) {
            int64_t row = m0 + 8 * (j % 2), col = k0 + 8 * (j / 2);
            Value pair = packPair(rewriter, loc, aRegs[regAt(*aDist, {row, col})],
                                  aRegs[regAt(*aDist, {row, col + 1})]);
            fragment.push_back(asI32(rewriter, loc, pair));
          }
        }
    }
    for (int64_t ni = 0; ni < nReps; ++ni)
      firstB.push_back(bDesc.emit(rewriter, loc, bAddress, add(rewriter, loc, nBase, ni * nStride)));
    // A zero accumulator (`dot(q, k)` with no `acc`) is not written into registers at
    // all: the first k step computes D = A * B (scale-d 0). Zeros moved into the
    // accumulators after wgmma.fence would make ptxas insert another warpgroup.arrive
    // (C7519) before the first wgmma.
    bool zeroAcc = matchPattern(op.getAcc(), m_AnyZeroFloat());
    nvvm::wgmmaFence(rewriter, loc);
    for (int64_t ks = 0; ks < K / kInstr; ++ks)
      for (int64_t mi = 0; mi < mReps; ++mi) {
        Value descA = aDesc ? aDesc->advance(rewriter, loc, firstA[mi], ks) : Value();
        for (int64_t ni = 0; ni < nReps; ++ni) {
          Value descB = bDesc.advance(rewriter, loc, firstB[ni], ks);
          // d[4j + i]: row l/4 + 8 (i / 2), column 8 j + 2 (l % 4) + i % 2.
          SmallVector<int64_t> regs;
          for (int64_t j = 0; j < instrN / 8; ++j)
            for (int64_t i = 0; i < 4; ++i)
              regs.push_back(regAt(*acc, {mi * mStride + 8 * (i / 2), ni * nStride + 8 * j + i % 2}));
          bool accumulate = !(zeroAcc && ks == 0);
          if (!aDesc) {
            SmallVector<Value> d;
            for (int64_t r : regs)
              d.push_back(values[r]);
            d = wgmmaRegisterA(rewriter, loc, element, instrN, d, aFragments[ks * mReps + mi],
                               descB, bDesc.mnMajor, accumulate);
            for (auto [i, r] : llvm::enumerate(regs))
              values[r] = d[i];
            continue;
          }
          Value block = LLVM::PoisonOp::create(rewriter, loc, structType);
          if (accumulate)
            for (auto [i, r] : llvm::enumerate(regs))
              block = LLVM::InsertValueOp::create(rewriter, loc, block, values[r], i);
          Value result = nvvm::wgmma(rewriter, loc, type, instrN, block, descA, descB,
                                     aDesc->mnMajor, bDesc.mnMajor, accumulate);
          for (auto [i, r] : llvm::enumerate(regs))
            values[r] = LLVM::ExtractValueOp::create(rewriter, loc, result, i);
        }
      }
    nvvm::wgmmaCommit(rewriter, loc);
    replaceWithRegisters(rewriter, op, values);
    return success();
  }
};

struct WarpGroupDotWaitLowering : OpConversionPattern<WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpGroupDotWaitOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange regs = adaptor.getSrc();
    // The accumulators go through the wait: outputs tied to the inputs ("0", "1", ...),
    // so that their uses follow it.
    std::string constraints;
    for (size_t i = 0; i < regs.size(); ++i)
      constraints += (i ? ",=f" : "=f");
    for (size_t i = 0; i < regs.size(); ++i)
      constraints += "," + std::to_string(i);
    std::string text = "wgmma.wait_group.sync.aligned " + std::to_string(op.getPending()) + ";";
    Type f32 = rewriter.getF32Type();
    Type result = regs.size() == 1 ? f32
                                   : LLVM::LLVMStructType::getLiteral(
                                         getContext(), SmallVector<Type>(regs.size(), f32));
    auto asmOp = LLVM::InlineAsmOp::create(rewriter, loc, result, regs, text, constraints,
                                           /*has_side_effects=*/true, /*is_align_stack=*/false,
                                           LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
                                           ArrayAttr());
    SmallVector<Value> values;
    if (regs.size() == 1)
      values.push_back(asmOp.getResult(0));
    else
      for (size_t i = 0; i < regs.size(); ++i)
        values.push_back(LLVM::ExtractValueOp::create(rewriter, loc, asmOp.getResult(0), i));
    replaceWithRegisters(rewriter, op, values);
    return success();
  }
};

} // namespace

void populateTensorCoreLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LocalAllocLowering, MemDescIndexLowering, MemDescTransLowering,
               LocalLoadLowering, AsyncCopyLowering,
               SimpleLowering<AsyncCommitOp>, SimpleLowering<AsyncWaitOp>,
               SimpleLowering<BarrierOp>, SimpleLowering<FenceAsyncSharedOp>, MmaSyncLowering,
               WarpGroupDotLowering, WarpGroupDotWaitLowering>(converter, patterns.getContext());
}

} // namespace tcc
