#include "compiler/Conversion/LoweringPatterns.h"
namespace tcc {
int64_t dotScratchBytes(mlir::Operation *) { return 0; }
void populateDotLoweringPatterns(TileTypeConverter &, mlir::RewritePatternSet &,
                                 const SharedMemoryPlan &) {}
} // namespace tcc
