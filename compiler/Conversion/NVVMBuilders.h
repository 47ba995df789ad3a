//===- NVVMBuilders.h - the few NVVM ops the lowering emits ------*- C++ -*-===//
//
// The only place that includes NVVMDialect.h (it is expensive to compile): thread and
// program ids, barriers, warp shuffles, and the tensor-core instructions (ldmatrix,
// mma.sync, cp.async, wgmma), built through plain OpBuilder calls.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CONVERSION_NVVMBUILDERS_H
#define TCC_COMPILER_CONVERSION_NVVMBUILDERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LogicalResult.h"

#include <optional>

namespace tcc::nvvm {

/// Registers the LLVM and NVVM dialects (what the lowering produces).
void registerTargetDialects(mlir::DialectRegistry &registry);

/// Marks the llvm.func `func` as a kernel entry (NVVM's kernel attribute) launched with
/// exactly `numThreads` threads per program (its reqntid, as Triton's kernels: ptxas knows
/// the block size, not only a bound; the runtime and the header launch exactly that).
void markKernel(mlir::Operation *func, int32_t numThreads);
/// Marks the llvm.func `func` as launched in clusters of `size` programs along x
/// (`nvvm.cluster_dim`, .reqnctapercluster in the PTX).
void markCluster(mlir::Operation *func, int32_t size);

/// threadIdx.x as i32, known to lie in [0, numThreads); in the consumer region of a
/// warp-specialised kernel of several consumer groups, the thread's index in its group
/// (threadIdx.x mod the group's threads).
mlir::Value threadIdX(mlir::OpBuilder &b, mlir::Location loc, unsigned numThreads);
/// In the consumer region of a warp-specialised kernel of several consumer groups, the
/// executing thread's group (threadIdx.x / the group's threads); 0 elsewhere.
mlir::Value consumerGroup(mlir::OpBuilder &b, mlir::Location loc);
/// blockIdx along `axis` (0..2) as i32.
mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, unsigned axis);
/// gridDim along `axis` (0..2) as i32.
mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, unsigned axis);
/// On the scf.if a warp-specialised kernel's body becomes (TmaLowering.cpp): the number
/// of consumer threads (i32). Its `then` region runs on the producer warpgroup, its `else`
/// region on the consumer warps.
inline constexpr llvm::StringLiteral kWarpSpecializedAttr = "tcc.warp_specialized";
/// On the same scf.if, where the consumers are several groups (ping-pong): their number.
inline constexpr llvm::StringLiteral kConsumerGroupsAttr = "tcc.consumer_groups";
/// Whether `block` lies in the producer (`then`) or consumer (`else`) side of a
/// warp-specialised kernel, its consumers' thread count (all groups) and the number of
/// groups they form; nullopt outside one.
struct WarpSide {
  bool producer;
  unsigned consumerThreads;
  unsigned groups = 1;
  unsigned groupThreads() const { return consumerThreads / groups; }
};
std::optional<WarpSide> warpSideOf(mlir::Block *block);

/// Synchronises the threads of the program at `b`'s insertion point and makes their
/// shared-memory writes visible: bar.sync 0, or, on the consumer side of a
/// warp-specialised kernel, `bar.sync 1, consumers` (the producer warpgroup takes no part),
/// and where the consumers are groups, `bar.sync 1 + group, group's threads`.
void barrier(mlir::OpBuilder &b, mlir::Location loc);
/// setmaxnreg.{inc,dec}.sync.aligned.u32 `regs` (the executing warpgroup's registers).
void setMaxRegisters(mlir::OpBuilder &b, mlir::Location loc, unsigned regs, bool increase);
/// mbarrier.arrive.shared.b64 on `bar` (an !llvm.ptr<3>), unpredicated.
void mbarrierArrive(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar);
/// Limits every thread of kernel `func` to `regs` registers (.maxnreg).
void limitRegisters(mlir::Operation *func, unsigned regs);
/// shfl.sync.bfly over the full warp: the i32 or f32 `value` of lane (lane ^ laneMask).
mlir::Value shuffleXor32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                         unsigned laneMask);

/// shfl.sync.bfly of any integer or float scalar up to 64 bits (through 32-bit words).
mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                       unsigned laneMask);

/// shfl.sync.idx over the full warp: lane `srcLane`'s i32 `value`.
mlir::Value shuffleIdx32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                         unsigned srcLane);

/// Rewrites the NVVM ops that have no LLVM intrinsic (wgmma.mma_async, the predicated
/// mbarrier ops and bulk tensor copies, mbarrier.try_wait.parity) into inline PTX.
mlir::LogicalResult lowerToInlinePtx(mlir::Operation *module);

/// The element types of tensor-core operands.
enum class MmaType { F16, BF16, TF32 };

/// ldmatrix.sync.aligned.m8n8.x`count`(.trans).shared.b16: the warp's lanes give the
/// addresses of the rows of `count` 8 x 8 matrices; each lane gets one i32 per matrix.
llvm::SmallVector<mlir::Value> ldmatrix(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                                        unsigned count, bool trans);

/// mma.sync.aligned.m16n8k16 (k8 for tf32).row.col.f32 on packed i32 / vector<2xf16>
/// operands: 4 (A), 2 (B) and 4 f32 (C) registers; the 4 f32 of D.
llvm::SmallVector<mlir::Value> mmaSync(mlir::OpBuilder &b, mlir::Location loc, MmaType type,
                                       mlir::ValueRange a, mlir::ValueRange b2,
                                       mlir::ValueRange c);

/// cp.async.{ca,cg}.shared.global [dst], [src], bytes, srcBytes: `srcBytes` (i32) of 0
/// zero-fills the destination.
void cpAsync(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dst, mlir::Value src,
             unsigned bytes, mlir::Value srcBytes);
void cpAsyncCommit(mlir::OpBuilder &b, mlir::Location loc);
void cpAsyncWait(mlir::OpBuilder &b, mlir::Location loc, unsigned pending);

/// fence.proxy.async.shared::cta.
void fenceProxyAsyncShared(mlir::OpBuilder &b, mlir::Location loc);

/// The mbarrier instructions of TMA copies (`bar` an !llvm.ptr<3>), each executed only
/// where the i1 `pred` holds (one elected thread): mbarrier.init with `count` arrivals;
/// fence.mbarrier_init.release.cluster (the inits visible to the async proxy);
/// mbarrier.arrive.expect_tx of `bytes`; and the retried mbarrier.try_wait.parity, by every
/// thread, for the phase of parity `phase` (i32).
void mbarrierInit(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar, unsigned count,
                  mlir::Value pred);
void fenceMbarrierInit(mlir::OpBuilder &b, mlir::Location loc);
/// mbarrier.inval.shared.b64 [bar] (unpredicated: the caller elects the thread).
void mbarrierInval(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar);
void mbarrierArriveExpectTx(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                            unsigned bytes, mlir::Value pred);
void mbarrierWaitParity(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                        mlir::Value phase);
/// cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes [dst],
/// [desc, {coords}], [bar], where `pred` holds: one box of the tensor map `desc` (a generic
/// !llvm.ptr to the 128-byte kernel parameter) at `coords` (i32, innermost first).
/// cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group [desc, {coords}], [src]: one box
/// of the shared tile at `src` (!llvm.ptr<3>) to the array of `desc` at `coords` (i32,
/// innermost first); unpredicated (the caller elects the thread).
void tmaStore(mlir::OpBuilder &b, mlir::Location loc, mlir::Value src, mlir::Value desc,
              mlir::ValueRange coords);
/// cp.async.bulk.commit_group, then cp.async.bulk.wait_group.read 0: the bulk copies
/// issued have read their shared sources.
void bulkCommitAndWaitRead(mlir::OpBuilder &b, mlir::Location loc);
/// A bulk tensor copy of one box into `dst`, completing on `bar`, by the threads where
/// `pred` holds; with `ctaMask` (i16) multicast to the same offsets of the cluster's
/// programs the mask names (`.multicast::cluster`).
void tmaLoad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dst, mlir::Value desc,
             mlir::ValueRange coords, mlir::Value bar, mlir::Value pred,
             mlir::Value ctaMask = {});
/// %cluster_ctarank (i32): the program's rank in its cluster.
mlir::Value clusterRank(mlir::OpBuilder &b, mlir::Location loc);
/// Arrives (release, cluster scope) on the mbarrier at the same shared address as `bar`
/// in the program of rank `rank` of the cluster (`mapa`, then
/// `mbarrier.arrive.release.cluster.shared::cluster`).
void mbarrierArriveRemote(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                          mlir::Value rank);
/// The address (`!llvm.ptr<7>`, shared::cluster) of the shared `ptr` (`!llvm.ptr<3>`) in
/// the program of rank `rank` of the cluster (`mapa`): loads from it read that program's
/// shared memory (`ld.shared::cluster`).
mlir::Value mapaShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                       mlir::Value rank);
/// `barrier.cluster.arrive` (release) and `barrier.cluster.wait` (acquire): every thread
/// of the cluster.
void clusterSync(mlir::OpBuilder &b, mlir::Location loc);
/// mbarrierWaitParity with `.acquire.cluster`: the wait that observes another program's
/// `mbarrier.arrive.release.cluster` (inline PTX; NVVM's op has CTA scope only).
void mbarrierWaitParityCluster(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                               mlir::Value phase);
/// Marks argument `index` of the llvm.func `func` as a TMA tensor map: a 128-byte byval
/// parameter, 64-byte aligned, read in place (nvvm.grid_constant).
void markTensorMapArgument(mlir::Operation *func, unsigned index);

/// wgmma.fence / commit_group, and one wgmma.mma_async m64n`n`k16 (k8 for tf32) with D +=
/// A * B on the accumulator struct `acc` (n / 2 f32), operands from descriptors;
/// `transA`/`transB`: A M-major, B N-major (16-bit types only). `accumulate` false: D =
/// A * B (scale-d 0), `acc` only names the registers (poison will do).
void wgmmaFence(mlir::OpBuilder &b, mlir::Location loc);
void wgmmaCommit(mlir::OpBuilder &b, mlir::Location loc);
mlir::Value wgmma(mlir::OpBuilder &b, mlir::Location loc, MmaType type, unsigned n,
                  mlir::Value acc, mlir::Value descA, mlir::Value descB, bool transA,
                  bool transB, bool accumulate = true);

} // namespace tcc::nvvm

#endif // TCC_COMPILER_CONVERSION_NVVMBUILDERS_H
