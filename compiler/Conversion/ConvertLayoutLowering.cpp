#include "compiler/Conversion/LoweringPatterns.h"
namespace tcc {
int64_t convertLayoutScratchBytes(mlir::Operation *) { return 0; }
void populateConvertLayoutLoweringPatterns(TileTypeConverter &, mlir::RewritePatternSet &,
                                           const SharedMemoryPlan &) {}
} // namespace tcc
