//===- Pipeline.cpp - the tile-level GPU pipeline ---------------------------===//

#include "compiler/Transforms/Pipeline.h"
#include "compiler/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace tcc {

void buildTileGpuPipeline(mlir::OpPassManager &pm, const GpuPipelineOptions &options) {
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // Split-K first (it takes the kernels it splits from tile-persistent): clusters of
  // programs sharing a tile over K, for every kernel with --split-k, else for those whose
  // configuration asks (`tile.split_k`). Not with check-bounds.
  if (!options.checkBounds) {
    TileSplitKOptions splitK;
    splitK.splits = options.splitK;
    pm.addPass(createTileSplitK(splitK));
  }
  // The persistent loop first: every later pass sees the tile loop around the body. Not
  // with check-bounds, whose reports name the program that made the access.
  if (options.persistent != GpuPipelineOptions::Persistence::Off && !options.checkBounds) {
    TilePersistentOptions persistent;
    persistent.all = options.persistent == GpuPipelineOptions::Persistence::On;
    pm.addPass(createTilePersistent(persistent));
  }
  // Before any pass reads AxisInfo: the version of the kernel that knows the signs of its
  // `%` and `//` gets the layouts and vector widths those allow.
  pm.addPass(createTileVersionSigns());
  // A dot loop's K masks are true but in its last iteration: the loop is split there,
  // before layouts and copies are decided for the two loops.
  TileSplitMaskedLoopsOptions split;
  split.tma = options.tma;
  pm.addPass(createTileSplitMaskedLoops(split));
  TileAssignLayoutsOptions assign;
  assign.numWarps = options.numWarps;
  pm.addPass(createTileAssignLayouts(assign));
  pm.addPass(createTileRemoveLayoutConversions());
  if (options.coalesce) {
    pm.addPass(createTileCoalesce());
    pm.addPass(createTileRemoveLayoutConversions());
  }
  // Tensor cores once the operands' loads have their layouts; the mma accumulator then
  // spreads around loops.
  pm.addPass(createTileAccelerateDot());
  pm.addPass(createTileRemoveLayoutConversions());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // --check-bounds: every access masked to its argument's extent before tile-mask decides
  // the vector widths from the masks, and before the loads become prefetches and copies
  // (which keep the masks).
  if (options.checkBounds)
    pm.addPass(createTileCheckBounds());
  // Masks and vector widths are decided last, on the final layouts; hints are read by
  // AxisInfo until then. The pipeliner needs the vector widths.
  if (options.mask)
    pm.addPass(createTileMask());
  // A small load after a dot loop (a bias row) is issued before the loop, its latency
  // hidden behind the products.
  pm.addPass(createTileHoistLoads());
  TilePipelineOptions pipelineOptions;
  pipelineOptions.tma = options.tma;
  pipelineOptions.warpSpecialize = options.warpSpecialize;
  pipelineOptions.multicast = options.multicast;
  pipelineOptions.pingPong = options.pingPong;
  TilePrefetchOptions prefetchOptions;
  if (options.numStages)
    pipelineOptions.numStages = prefetchOptions.numStages = options.numStages;
  // Loops without a dot first: tile-pipeline removes the loops' num_stages as it goes.
  pm.addPass(createTilePrefetch(prefetchOptions));
  pm.addPass(createTilePipeline(pipelineOptions));
  // The epilogue's store by TMA, from the layout its value has (after the pipeline, which
  // may have made the kernel's body a tile.warp_specialize).
  if (options.tma && options.tmaStore)
    pm.addPass(createTileTmaStore());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(createTileDropHints());
}

namespace {
struct PipelineCLOptions : mlir::PassPipelineOptions<PipelineCLOptions> {
  Option<unsigned> numWarps{*this, "num-warps",
                            llvm::cl::desc("warps per program (0: tile.num_warps, else 4)"),
                            llvm::cl::init(0)};
  Option<bool> coalesce{*this, "coalesce", llvm::cl::desc("run tile-coalesce"),
                        llvm::cl::init(true)};
  Option<bool> mask{*this, "mask", llvm::cl::desc("run tile-mask"), llvm::cl::init(true)};
  Option<unsigned> numStages{*this, "num-stages",
                             llvm::cl::desc("pipeline stages (0: tile.num_stages, else 3)"),
                             llvm::cl::init(0)};
  Option<bool> checkBounds{*this, "check-bounds",
                           llvm::cl::desc("run tile-check-bounds (tcc --check-bounds)"),
                           llvm::cl::init(false)};
  Option<bool> tma{*this, "tma",
                   llvm::cl::desc("TMA for dot operands on sm_90a (on, as tcc; tcc --no-tma)"),
                   llvm::cl::init(true)};
  Option<bool> tmaStore{*this, "tma-store",
                        llvm::cl::desc("the result tile stored by TMA (tcc --tma-store)"),
                        llvm::cl::init(false)};
  Option<bool> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("a producer warpgroup for TMA dot loops (tcc --warp-specialize)"),
      llvm::cl::init(false)};
  Option<bool> multicast{
      *this, "multicast",
      llvm::cl::desc("clusters of two multicasting a persistent GEMM's operand (tcc --multicast)"),
      llvm::cl::init(false)};
  Option<bool> pingPong{
      *this, "ping-pong",
      llvm::cl::desc("two consumer warpgroups taking a persistent GEMM's tiles in turn (tcc "
                     "--ping-pong)"),
      llvm::cl::init(false)};
  Option<unsigned> splitK{*this, "split-k",
                          llvm::cl::desc("programs per tile split over K (tcc --split-k)"),
                          llvm::cl::init(1)};
  Option<bool> persistent{*this, "persistent",
                          llvm::cl::desc("run tile-persistent first (tcc --persistent)"),
                          llvm::cl::init(false)};
};
} // namespace

void registerTileGpuPipeline() {
  mlir::PassPipelineRegistration<PipelineCLOptions>(
      "tile-gpu-pipeline",
      "the tile-level GPU passes: layouts, coalescing, conversion clean-up, masks",
      [](mlir::OpPassManager &pm, const PipelineCLOptions &cl) {
        GpuPipelineOptions options;
        options.numWarps = cl.numWarps;
        options.coalesce = cl.coalesce;
        options.mask = cl.mask;
        options.numStages = cl.numStages;
        options.checkBounds = cl.checkBounds;
        options.tma = cl.tma;
        options.warpSpecialize = cl.warpSpecialize;
        options.tmaStore = cl.tmaStore;
        options.multicast = cl.multicast;
        options.pingPong = cl.pingPong;
        options.splitK = cl.splitK;
        options.persistent = cl.persistent ? GpuPipelineOptions::Persistence::On
                                           : GpuPipelineOptions::Persistence::Off;
        buildTileGpuPipeline(pm, options);
      });
}

} // namespace tcc
