//===- Pipeline.h - the tile-level GPU pipeline ------------------*- C++ -*-===//
//
// One function for the Driver and the conversion tests: the passes that take tile IR
// from MLIRGen to layout-annotated tile IR with vector widths, in order.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_TRANSFORMS_PIPELINE_H
#define TCC_COMPILER_TRANSFORMS_PIPELINE_H

#include "mlir/Pass/PassManager.h"

namespace tcc {

struct GpuPipelineOptions {
  /// Warps per program; 0 keeps each kernel's `tile.num_warps` (4 where absent).
  unsigned numWarps = 0;
  /// tile-coalesce; off, every tile keeps its default layout (one element per thread).
  bool coalesce = true;
  /// tile-mask; off, masks stay and no memory op gets `vec` (the lowering then
  /// accesses one element at a time).
  bool mask = true;
  /// Ring slots of tile-pipeline where the loop and kernel do not say; 0: its default.
  unsigned numStages = 0;
  /// tile-check-bounds before tile-mask (tcc --check-bounds).
  bool checkBounds = false;
  /// TMA for the dot operands a tensor map describes (on, as in tcc; tcc --no-tma turns it
  /// off): tile-split-masked-loops keeps their loops whole, tile-pipeline copies them with
  /// tile.tma_load (sm_90a wgmma loops only).
  bool tma = true;
  /// With tma: a producer warpgroup for a kernel's loop whose dot operands all come by TMA
  /// (tile-pipeline's warp-specialize; tcc --warp-specialize).
  bool warpSpecialize = false;
  /// With tma: tile-tma-store (a kernel's result tile stored by TMA; tcc --tma-store).
  bool tmaStore = false;
  /// With tma: tile-pipeline's clusters of two programs multicasting a persistent GEMM's
  /// shared operand (tcc --multicast).
  bool multicast = false;
  /// With tma: tile-pipeline's ping-pong schedule, two consumer warpgroups taking a
  /// persistent kernel's tiles in turn (tcc --ping-pong; implies warp specialisation).
  bool pingPong = false;
  /// tile-split-k's programs per tile (tcc --split-k; 1: off).
  unsigned splitK = 1;
  /// tile-persistent first: an sm_90a dot kernel's programs become iterations of a loop
  /// over its tiles on num_sms * occupancy programs. Auto (tcc's default): the kernels of
  /// a 1-D grid and one dot loop nest that do not schedule their own tiles; On (tcc --persistent): every
  /// kernel the pass can take; Off (tcc --no-persistent).
  enum class Persistence { Off, Auto, On };
  Persistence persistent = Persistence::Off;
};

/// canonicalize, cse, [tile-persistent], tile-version-signs, tile-split-masked-loops,
/// tile-assign-layouts, tile-remove-layout-conversions,
/// tile-coalesce, tile-remove-layout-conversions, tile-accelerate-dot,
/// tile-remove-layout-conversions, canonicalize, cse, [tile-check-bounds], tile-mask, tile-pipeline, cse,
/// tile-drop-hints, on a module of kernels (tile-allocate-shared follows, before the
/// lowering).
void buildTileGpuPipeline(mlir::OpPassManager &pm, const GpuPipelineOptions &options = {});

/// Registers `tile-gpu-pipeline` (with options num-warps, coalesce, mask) for tile-opt.
void registerTileGpuPipeline();

} // namespace tcc

#endif // TCC_COMPILER_TRANSFORMS_PIPELINE_H
