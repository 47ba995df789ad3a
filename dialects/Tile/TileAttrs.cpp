//===- TileAttrs.cpp - distribution layouts --------------------------------===//

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/InterleavedRange.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#include "dialects/Tile/TileOpsEnums.cpp.inc"
#include "dialects/Tile/TileAttrInterfaces.cpp.inc"

static unsigned product(ArrayRef<unsigned> values) {
  unsigned n = 1;
  for (unsigned v : values)
    n *= v;
  return n;
}

static unsigned log2Of(int64_t v) { return llvm::Log2_64(uint64_t(v)); }

//===----------------------------------------------------------------------===//
// blocked
//===----------------------------------------------------------------------===//

unsigned BlockedEncodingAttr::getNumWarps() const { return product(getWarpsPerCTA()); }
unsigned BlockedEncodingAttr::getRank() const { return getOrder().size(); }

FailureOr<LayoutBits> BlockedEncodingAttr::getLayoutBits(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return failure();
  return blockedLayoutBits(shape, getSizePerThread(), getThreadsPerWarp(), getWarpsPerCTA(),
                           getOrder());
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
  if (threads != kThreadsPerWarp)
    return emitError() << "threadsPerWarp must multiply to the warp size " << kThreadsPerWarp
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

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

static unsigned layoutRank(Attribute layout) {
  if (auto distributed = dyn_cast<DistributedLayoutInterface>(layout))
    return distributed.getRank();
  return 0;
}

unsigned SliceEncodingAttr::getNumWarps() const {
  return cast<DistributedLayoutInterface>(getParent()).getNumWarps();
}
unsigned SliceEncodingAttr::getRank() const { return layoutRank(getParent()) - 1; }

FailureOr<LayoutBits> SliceEncodingAttr::getLayoutBits(ArrayRef<int64_t> shape) const {
  // The parent over the shape with the sliced dimension put back as 1: nothing selects
  // a coordinate of it, so the threads spread along it hold copies.
  SmallVector<int64_t> parentShape(shape.begin(), shape.end());
  if (getDim() > parentShape.size())
    return failure();
  parentShape.insert(parentShape.begin() + getDim(), 1);
  FailureOr<LayoutBits> parent =
      cast<DistributedLayoutInterface>(getParent()).getLayoutBits(parentShape);
  if (failed(parent))
    return failure();
  auto renumber = [&](SmallVector<BitTarget> &targets) {
    for (BitTarget &t : targets) {
      if (t.dim == int(getDim()))
        t = BitTarget::none();
      else if (t.dim > int(getDim()))
        --t.dim;
    }
  };
  renumber(parent->regs);
  renumber(parent->lanes);
  renumber(parent->warps);
  SmallVector<unsigned> order;
  for (unsigned d : parent->order)
    if (d != getDim())
      order.push_back(d > getDim() ? d - 1 : d);
  parent->order = order;
  return parent;
}

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        unsigned dim, Attribute parent) {
  if (!isa<DistributedLayoutInterface>(parent))
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

//===----------------------------------------------------------------------===//
// mma
//===----------------------------------------------------------------------===//

unsigned MmaEncodingAttr::getNumWarps() const { return product(getWarpsPerCTA()); }
unsigned MmaEncodingAttr::getRank() const { return 2; }

/// Bits of a warp's 16 x n block of an accumulator (M is dimension `m`, N `n`): lane l
/// holds row l / 4 (+8 for register bit 1) and columns 2 (l % 4) + register bit 0 of each
/// group of 8 columns, the groups in further register bits.
static void warpAccumulatorBits(LayoutBits &bits, unsigned m, unsigned n, unsigned logInstrN) {
  bits.regs.push_back(BitTarget::of(n, 0));
  bits.regs.push_back(BitTarget::of(m, 3));
  for (unsigned b = 3; b < logInstrN; ++b)
    bits.regs.push_back(BitTarget::of(n, b));
  for (unsigned b : {1u, 2u})
    bits.lanes.push_back(BitTarget::of(n, b));
  for (unsigned b : {0u, 1u, 2u})
    bits.lanes.push_back(BitTarget::of(m, b));
}

/// `count` id bits selecting bits `first`, first + 1, ... of `dim`; nothing beyond `logSize`.
static void pushIdBits(SmallVector<BitTarget> &out, unsigned count, int dim, unsigned first,
                       unsigned logSize) {
  for (unsigned j = 0; j < count; ++j)
    out.push_back(dim >= 0 && first + j < logSize ? BitTarget::of(dim, first + j)
                                                  : BitTarget::none());
}

/// Register bits for the repetitions along `dim` from coordinate bit `first` up.
static void pushRepetitions(SmallVector<BitTarget> &regs, unsigned dim, unsigned first,
                            unsigned logSize) {
  for (unsigned b = first; b < logSize; ++b)
    regs.push_back(BitTarget::of(dim, b));
}

/// Bits selecting coordinates beyond the tile (a dimension smaller than an instruction,
/// as in a slice's parent): register bits go (those registers would be copies within the
/// thread), lane and warp bits select nothing (the threads hold copies).
static void clipToShape(LayoutBits &bits, ArrayRef<int64_t> shape) {
  auto beyond = [&](const BitTarget &t) {
    return !t.isNone() && t.bit >= log2Of(shape[t.dim]);
  };
  llvm::erase_if(bits.regs, beyond);
  for (SmallVector<BitTarget> *ids : {&bits.lanes, &bits.warps})
    for (BitTarget &t : *ids)
      if (beyond(t))
        t = BitTarget::none();
}

FailureOr<LayoutBits> MmaEncodingAttr::getLayoutBits(ArrayRef<int64_t> shape) const {
  if (shape.size() != 2 || getWarpsPerCTA().size() != 2 || getInstrShape().size() != 3)
    return failure();
  unsigned logM = log2Of(shape[0]), logN = log2Of(shape[1]);
  unsigned logInstrN = log2Of(getInstrShape()[1]);
  unsigned logWm = log2Of(getWarpsPerCTA()[0]), logWn = log2Of(getWarpsPerCTA()[1]);
  LayoutBits bits;
  bits.order = {1, 0};
  warpAccumulatorBits(bits, 0, 1, logInstrN);
  pushIdBits(bits.warps, logWm, 0, 4, logM);
  pushIdBits(bits.warps, logWn, 1, logInstrN, logN);
  pushRepetitions(bits.regs, 1, logInstrN + logWn, logN);
  pushRepetitions(bits.regs, 0, 4 + logWm, logM);
  clipToShape(bits, shape);
  return bits;
}

LogicalResult MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      unsigned version, ArrayRef<unsigned> warpsPerCTA,
                                      ArrayRef<unsigned> instrShape) {
  if (version != 2 && version != 3)
    return emitError() << "mma version must be 2 (mma.sync) or 3 (wgmma), not " << version;
  if (warpsPerCTA.size() != 2 || instrShape.size() != 3)
    return emitError() << "an mma layout has warpsPerCTA = [wm, wn] and instrShape = [16, n, k]";
  for (unsigned w : warpsPerCTA)
    if (!isPowerOf2(w))
      return emitError() << "mma warpsPerCTA entries must be powers of two";
  if (instrShape[0] != 16 || !isPowerOf2(instrShape[1]) || instrShape[1] < 8)
    return emitError() << "mma instrShape must be [16, n, k] with n a power of two >= 8";
  if (version == 2 && (instrShape[1] != 8 || (instrShape[2] != 16 && instrShape[2] != 8)))
    return emitError() << "mma.sync (version 2) instructions are 16 x 8 x 16 or 16 x 8 x 8";
  if (version == 3) {
    if (warpsPerCTA[0] % 4)
      return emitError() << "wgmma (version 3) stacks the 4 warps of a warpgroup along M: "
                            "warpsPerCTA[0] must be a multiple of 4";
    if (instrShape[1] > 256 || (instrShape[2] != 16 && instrShape[2] != 8))
      return emitError() << "wgmma (version 3) instructions are 64 x n x 16 (or x 8 for "
                            "tf32) with n <= 256";
  }
  return success();
}

/// The distribution of `shape` under `layout`, or an error saying why not.
static LogicalResult verifyDistributable(Attribute layout, ArrayRef<int64_t> shape,
                                         function_ref<InFlightDiagnostic()> emitError) {
  auto distributed = cast<DistributedLayoutInterface>(layout);
  if (shape.size() != distributed.getRank())
    return emitError() << "a rank-" << distributed.getRank() << " layout cannot lay out a rank-"
                       << shape.size() << " tile";
  for (int64_t s : shape)
    if (!isPowerOf2(s))
      return success(); // the tile type's own verifier reports it
  FailureOr<LayoutBits> bits = distributed.getLayoutBits(shape);
  std::string why = "the tile is smaller than one instruction";
  if (failed(bits) || !Distribution::fromBits(shape, std::move(*bits), &why))
    return emitError() << layout << " cannot lay out a tile of shape "
                       << llvm::interleaved(shape, "x") << ": " << why;
  return success();
}

LogicalResult MmaEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                              function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() == 2 && (shape[0] < 16 || shape[1] < getInstrShape()[1]))
    return emitError() << *this << " cannot lay out a " << shape[0] << "x" << shape[1]
                       << " tile: it is smaller than one instruction (16 x "
                       << getInstrShape()[1] << ")";
  return verifyDistributable(*this, shape, emitError);
}

//===----------------------------------------------------------------------===//
// dot_operand
//===----------------------------------------------------------------------===//

unsigned DotOperandEncodingAttr::getNumWarps() const {
  return cast<MmaEncodingAttr>(getParent()).getNumWarps();
}
unsigned DotOperandEncodingAttr::getRank() const { return 2; }

FailureOr<LayoutBits> DotOperandEncodingAttr::getLayoutBits(ArrayRef<int64_t> shape) const {
  auto mma = cast<MmaEncodingAttr>(getParent());
  if (shape.size() != 2)
    return failure();
  // A is M x K (K = dimension 1), B is K x N (K = dimension 0).
  bool isA = getOpIdx() == 0;
  unsigned k = isA ? 1 : 0, other = isA ? 0 : 1;
  unsigned logK = log2Of(shape[k]), logOther = log2Of(shape[other]);
  unsigned logInstrK = getKWidth() == 2 ? 4 : 3;
  unsigned logInstrOther = isA ? 4 : 3; // 16 rows of A, 8 columns of B per instruction
  LayoutBits bits;
  bits.order = {k, other};
  // Registers and lanes of one instruction's fragment (PTX: mma.m16n8k16 / m16n8k8).
  if (getKWidth() == 2) {
    bits.regs.push_back(BitTarget::of(k, 0));
    if (isA)
      bits.regs.push_back(BitTarget::of(other, 3));
    bits.regs.push_back(BitTarget::of(k, 3));
    bits.lanes = {BitTarget::of(k, 1), BitTarget::of(k, 2)};
  } else {
    if (isA)
      bits.regs.push_back(BitTarget::of(other, 3));
    bits.regs.push_back(BitTarget::of(k, 2));
    bits.lanes = {BitTarget::of(k, 0), BitTarget::of(k, 1)};
  }
  for (unsigned b : {0u, 1u, 2u})
    bits.lanes.push_back(BitTarget::of(other, b));
  // Warps: the parent's along this operand's M or N; the others hold copies.
  unsigned logWm = log2Of(mma.getWarpsPerCTA()[0]), logWn = log2Of(mma.getWarpsPerCTA()[1]);
  pushIdBits(bits.warps, logWm, isA ? int(other) : -1, 4, logOther);
  pushIdBits(bits.warps, logWn, isA ? -1 : int(other), 3, logOther);
  pushRepetitions(bits.regs, k, logInstrK, logK);
  pushRepetitions(bits.regs, other, logInstrOther + (isA ? logWm : logWn), logOther);
  clipToShape(bits, shape);
  return bits;
}

LogicalResult DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned opIdx, Attribute parent, unsigned kWidth) {
  auto mma = dyn_cast<MmaEncodingAttr>(parent);
  if (!mma || mma.getVersion() != 2)
    return emitError() << "a dot_operand layout's parent must be a version-2 #tile.mma, not "
                       << parent;
  if (opIdx > 1)
    return emitError() << "dot_operand opIdx must be 0 (A) or 1 (B), not " << opIdx;
  if (kWidth != 1 && kWidth != 2)
    return emitError() << "dot_operand kWidth must be 2 (16-bit elements) or 1 (tf32)";
  if ((kWidth == 2) != (mma.getInstrShape()[2] == 16))
    return emitError() << "dot_operand kWidth " << kWidth << " does not match the parent's "
                       << "instruction depth k = " << mma.getInstrShape()[2];
  return success();
}

LogicalResult
DotOperandEncodingAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                                       function_ref<InFlightDiagnostic()> emitError) const {
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if ((getKWidth() == 2 && bits != 16) || (getKWidth() == 1 && bits != 32))
    return emitError() << "a dot_operand layout of kWidth " << getKWidth()
                       << " holds " << (getKWidth() == 2 ? "16" : "32") << "-bit elements, not "
                       << elementType;
  int64_t k = getOpIdx() == 0 ? 1 : 0, other = 1 - k;
  if (shape.size() == 2 && (shape[k] < (getKWidth() == 2 ? 16 : 8) ||
                            shape[other] < (getOpIdx() == 0 ? 16 : 8)))
    return emitError() << *this << " cannot lay out a " << shape[0] << "x" << shape[1]
                       << " tile: it is smaller than one instruction's operand";
  return verifyDistributable(*this, shape, emitError);
}

//===----------------------------------------------------------------------===//
// nvmma_shared, target
//===----------------------------------------------------------------------===//

LogicalResult NVMMASharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                              unsigned swizzle, ArrayRef<unsigned> order) {
  if (!llvm::is_contained({0u, 32u, 64u, 128u}, swizzle))
    return emitError() << "nvmma_shared swizzle must be 0, 32, 64 or 128 bytes, not " << swizzle;
  SmallVector<bool> seen(order.size(), false);
  for (unsigned d : order) {
    if (d >= order.size() || seen[d])
      return emitError() << "nvmma_shared order must be a permutation of the dimensions";
    seen[d] = true;
  }
  return success();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef arch,
                                 unsigned threadsPerWarp, int64_t maxSharedBytes) {
  StringRef digits = arch;
  if (!digits.consume_front("sm_"))
    return emitError() << "target arch must be sm_<NN>[a], not '" << arch << "'";
  digits.consume_back("a");
  unsigned cc = 0;
  if (digits.getAsInteger(10, cc) || cc < 10)
    return emitError() << "target arch must be sm_<NN>[a], not '" << arch << "'";
  if (threadsPerWarp != kThreadsPerWarp)
    return emitError() << "NVIDIA GPUs have " << kThreadsPerWarp << " threads per warp, not "
                       << threadsPerWarp;
  if (maxSharedBytes <= 0)
    return emitError() << "target maxSharedBytes must be positive";
  return success();
}

unsigned TargetAttr::getComputeCapability() const {
  StringRef digits = getArch();
  digits.consume_front("sm_");
  digits.consume_back("a");
  unsigned cc = 0;
  (void)digits.getAsInteger(10, cc);
  return cc;
}

TargetAttr mlir::tile::getTargetFor(MLIRContext *ctx, StringRef arch) {
  // Shared memory one block may have: 227 KiB on Hopper, 163 KiB on sm_80, else 99 KiB.
  StringRef digits = arch;
  digits.consume_front("sm_");
  digits.consume_back("a");
  unsigned cc = 0;
  (void)digits.getAsInteger(10, cc);
  int64_t maxShared = cc >= 90 ? 227 * 1024 : cc == 80 ? 163 * 1024 : 99 * 1024;
  return TargetAttr::get(ctx, arch, kThreadsPerWarp, maxShared);
}

TargetAttr mlir::tile::getTarget(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto target = p->getAttrOfType<TargetAttr>(kTargetAttrName))
      return target;
  return getTargetFor(op->getContext(), "sm_90");
}
