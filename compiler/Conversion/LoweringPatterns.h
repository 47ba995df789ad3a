//===- LoweringPatterns.h - the pieces of TileToNVVM --------------*- C++ -*-===//
//
// The tile-to-NVVM lowering is a 1:N dialect conversion: every tile value becomes the
// scalars one thread holds (Distribution), every tile op the per-thread code that
// computes them. Each file contributes the patterns for one concept; TileToNVVM.cpp
// strings them together. docs/lowering.md describes the design.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CONVERSION_LOWERINGPATTERNS_H
#define TCC_COMPILER_CONVERSION_LOWERINGPATTERNS_H

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir {
class LLVMTypeConverter;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace tcc {

class AxisInfoAnalysis;

using mlir::tile::Distribution;

/// Tiles to the scalars one thread holds, tile pointers to `!llvm.ptr<1>`.
class TileTypeConverter : public mlir::TypeConverter {
public:
  explicit TileTypeConverter(mlir::MLIRContext *ctx);
};

/// The global address space's pointer type.
mlir::Type globalPtrType(mlir::MLIRContext *ctx);
/// The shared address space's pointer type.
mlir::Type sharedPtrType(mlir::MLIRContext *ctx);
/// How an element of type `type` sits in memory: i1 as i8, pointers as i64 (in shared
/// memory), everything else as itself.
mlir::Type memoryType(mlir::Type type);

/// Name of the kernel-wide dynamic shared-memory buffer (`extern .shared` in PTX).
inline constexpr const char *kSharedBufferName = "tcc_shared";

/// Attribute names the lowering reads and writes (the dialect's: TileDialect.h).
inline constexpr llvm::StringLiteral kSharedBytesAttr = mlir::tile::kSharedBytesAttrName;
/// On an op exchanging data through shared memory: where its scratch starts (bytes),
/// set by tile-allocate-shared.
inline constexpr llvm::StringLiteral kSharedOffsetAttr = mlir::tile::kSharedOffsetAttrName;

/// Threads per program of the kernel around `op` (tile::getNumThreads): those its tiles
/// are laid out over (a warp-specialised kernel's consumers).
unsigned kernelNumThreads(mlir::Operation *op);
/// Threads a program of the kernel around `op` is launched with: kernelNumThreads and, in
/// a warp-specialised kernel, its producer warpgroup's (tile::getLaunchWarps).
unsigned kernelLaunchThreads(mlir::Operation *op);

/// Scratch bytes an op needs (0 for none). Defined beside each pattern.
int64_t convertLayoutScratchBytes(mlir::Operation *op);
int64_t reduceScratchBytes(mlir::Operation *op);
int64_t scanScratchBytes(mlir::Operation *op);
int64_t permuteXorScratchBytes(mlir::Operation *op);
int64_t reshapeScratchBytes(mlir::Operation *op);
int64_t dotScratchBytes(mlir::Operation *op);
/// tile.cluster_reduce: a program's registers of its tile (TmaLowering.cpp).
int64_t clusterReduceScratchBytes(mlir::Operation *op);
/// A scalar tile.atomic_rmw / atomic_cas whose old value is used broadcasts it (AtomicLowering.cpp).
int64_t atomicScratchBytes(mlir::Operation *op);
/// An error on a tile atomic whose old values the layout would not give every copy of.
mlir::LogicalResult checkAtomicResults(mlir::Operation *op);
/// The threads that perform atomic `op` on its value of type `type`: each element's owner
/// for a tile (whose used old values must have no replicas: checkAtomicResults reported
/// them), thread 0 for a scalar (AtomicLowering.cpp).
mlir::FailureOr<mlir::Value> emitAtomicOwner(mlir::Operation *op, mlir::Type type,
                                             mlir::ConversionPatternRewriter &rewriter);
/// An error on a tile.extern_elementwise where no libdevice.10.bc is found (ExternLowering.cpp).
mlir::LogicalResult checkExternAvailable(mlir::Operation *op);

/// Stage 1 (tiles to per-thread scalars).
void populateKernelLoweringPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
/// `axisInfo` (of the IR being lowered; may be null) lets an integer or boolean op whose
/// result is constant over groups of a thread's registers be computed once per group.
void populateElementwiseLoweringPatterns(TileTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns,
                                         const AxisInfoAnalysis *axisInfo);
void populateShapeLoweringPatterns(TileTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
void populateGridLoweringPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populatePointerLoweringPatterns(TileTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
void populateMemoryLoweringPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateExternLoweringPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateAtomicLoweringPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populatePrintLoweringPatterns(TileTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
void populateConvertLayoutLoweringPatterns(TileTypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);
void populateReduceLoweringPatterns(TileTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
void populateScanLoweringPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populatePermuteLoweringPatterns(TileTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
void populateDotLoweringPatterns(TileTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

void populateTensorCoreLoweringPatterns(TileTypeConverter &converter,
                                        mlir::RewritePatternSet &patterns);
/// Bulk tensor copies (tile.tma_load) and their mbarriers (TmaLowering.cpp).
void populateTmaLoweringPatterns(TileTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
/// The function attribute of a warp-specialised kernel: the registers each of its
/// threads launches with (`.maxnreg`), set by budgetWarpSpecializedRegisters.
inline constexpr llvm::StringLiteral kLaunchRegistersAttr = "tcc.launch_registers";
/// Before the lowering, with `tile.shared_bytes` known: the register budget of the
/// kernel's tile.warp_specialize, if it has one (TmaLowering.cpp). It keeps as many
/// programs per SM as shared memory allows while its consumers still get the registers
/// their accumulators need (at least 64 beside them), and sets kLaunchRegistersAttr
/// and the op's consumerRegs accordingly.
void budgetWarpSpecializedRegisters(mlir::func::FuncOp func);

/// Stage 2: fp8 conversions, constants and bitcasts (Fp8Lowering.cpp), before the upstream
/// arith-to-llvm patterns, which have no fp8 lowering.
void populateFp8LoweringPatterns(mlir::LLVMTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

/// Stage 2 (scalar math to NVVM intrinsics, before the upstream *-to-llvm patterns).
void populateMathToNVVMPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);

/// Stage 2, before the above: scalar math that has no PTX instruction nor LLVM lowering
/// without libdevice (tanh, erf) becomes arithmetic (f16/bf16 through f32).
mlir::LogicalResult expandMathWithoutLibdevice(mlir::Operation *root);

/// For every register of `dst`, the register of `src` that holds, in the same thread,
/// the element at `toSrc(coordinates in dst)`; std::nullopt if some thread lacks it.
std::optional<llvm::SmallVector<int64_t>> mapRegistersInThread(
    const Distribution &src, const Distribution &dst,
    llvm::function_ref<llvm::SmallVector<int64_t>(llvm::ArrayRef<int64_t>)> toSrc);

/// Replaces the single result of `op` by the registers `values`.
inline void replaceWithRegisters(mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op,
                                 llvm::ArrayRef<mlir::Value> values) {
  llvm::SmallVector<llvm::SmallVector<mlir::Value>> replacement;
  replacement.emplace_back(values.begin(), values.end());
  rewriter.replaceOpWithMultiple(op, std::move(replacement));
}

/// The distribution of a converted tile value's type, or an error on `op`.
std::optional<Distribution> getDistributionOrError(mlir::Operation *op, mlir::Type type);

} // namespace tcc

#endif // TCC_COMPILER_CONVERSION_LOWERINGPATTERNS_H
