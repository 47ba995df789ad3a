#include "compiler/Conversion/LoweringPatterns.h"
namespace tcc {
int64_t reduceScratchBytes(mlir::Operation *) { return 0; }
void populateReduceLoweringPatterns(TileTypeConverter &, mlir::RewritePatternSet &,
                                    const SharedMemoryPlan &) {}
} // namespace tcc
