//===- TypeConversion.cpp - tiles to the scalars a thread holds ------------===//

#include "compiler/Conversion/LoweringPatterns.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;

namespace tcc {

Type globalPtrType(MLIRContext *ctx) { return LLVM::LLVMPointerType::get(ctx, 1); }
Type sharedPtrType(MLIRContext *ctx) { return LLVM::LLVMPointerType::get(ctx, 3); }

Type memoryType(Type type) {
  if (type.isInteger(1) || isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return IntegerType::get(type.getContext(), 8);
  if (isa<LLVM::LLVMPointerType, tile::PointerType>(type))
    return IntegerType::get(type.getContext(), 64);
  return type;
}

TileTypeConverter::TileTypeConverter(MLIRContext *ctx) {
  addConversion([](Type type) { return type; });
  addConversion([ctx](tile::PointerType) -> Type { return globalPtrType(ctx); });
  // A shared-memory buffer is its start address.
  addConversion([ctx](tile::SharedMemType) -> Type { return sharedPtrType(ctx); });
  // A TMA tensor map is the generic address of its 128-byte kernel parameter.
  addConversion([ctx](tile::TensorMapType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
  addConversion([this](RankedTensorType type,
                       SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
    std::optional<Distribution> dist = Distribution::get(type);
    if (!dist)
      return failure();
    Type element = convertType(type.getElementType());
    if (!element)
      return failure();
    results.append(dist->getNumRegs(), element);
    return success();
  });
}

std::optional<Distribution> getDistributionOrError(Operation *op, Type type) {
  auto tile = dyn_cast<RankedTensorType>(type);
  std::optional<Distribution> dist = tile ? Distribution::get(tile) : std::nullopt;
  if (!dist)
    op->emitOpError() << "operates on " << type
                      << ", which has no distribution layout (run tile-assign-layouts first)";
  return dist;
}

std::optional<SmallVector<int64_t>>
mapRegistersInThread(const Distribution &src, const Distribution &dst,
                     function_ref<SmallVector<int64_t>(ArrayRef<int64_t>)> toSrc) {
  unsigned threadsPerWarp = dst.getThreadsPerWarp();
  if (src.getNumThreads() != dst.getNumThreads() || src.getThreadsPerWarp() != threadsPerWarp)
    return std::nullopt;
  SmallVector<int64_t> map(dst.getNumRegs(), -1);
  SmallVector<int64_t> coords(dst.getRank()), rel(src.getRank());
  for (unsigned t = 0; t < dst.getNumThreads(); ++t) {
    unsigned lane = t % threadsPerWarp, warp = t / threadsPerWarp;
    SmallVector<int64_t> dstBase, srcBase;
    for (unsigned d = 0; d < dst.getRank(); ++d)
      dstBase.push_back(dst.getThreadBase(d, lane, warp));
    for (unsigned d = 0; d < src.getRank(); ++d)
      srcBase.push_back(src.getThreadBase(d, lane, warp));
    for (int64_t q = 0; q < dst.getNumRegs(); ++q) {
      for (unsigned d = 0; d < dst.getRank(); ++d)
        coords[d] = dstBase[d] + dst.getRegOffset(q, d);
      SmallVector<int64_t> s = toSrc(coords);
      for (unsigned d = 0; d < src.getRank(); ++d)
        rel[d] = s[d] - srcBase[d];
      std::optional<int64_t> p = src.findReg(rel);
      if (!p || (map[q] >= 0 && map[q] != *p))
        return std::nullopt;
      map[q] = *p;
    }
  }
  return map;
}

} // namespace tcc
