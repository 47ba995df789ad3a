//===- TileDialect.cpp - the tile dialect and its types -------------------===//

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "dialects/Tile/TileOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/TileOpsTypes.cpp.inc"

// Attribute storage must be complete where the dialect registers it; the layouts'
// verifiers live in TileAttrs.cpp.
#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/TileOpsAttrs.cpp.inc"

namespace {
/// Prints layouts as `#blocked`, `#blocked1`, ... aliases at the top of a module, as
/// tensors of a kernel mostly share a handful of them.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandEncodingAttr>(attr)) {
      os << "dot_op";
      return AliasResult::FinalAlias;
    }
    if (isa<NVMMASharedEncodingAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Tile/TileOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Tile/TileOpsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/Tile/TileOps.cpp.inc"
      >();
  addInterfaces<TileOpAsmInterface>();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                            Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  if (attribute.getName() != kPredicatedAccessAttrName)
    return success();
  auto access = dyn_cast<PredicatedAccessAttr>(attribute.getValue());
  if (!access)
    return op->emitOpError() << "'" << kPredicatedAccessAttrName
                             << "' must be a #tile.predicated_access, not " << attribute.getValue();
  // What the LLVM IR translation relies on; it checks the constraints itself.
  if (op->getName().getStringRef() != "llvm.inline_asm")
    return op->emitOpError() << "'" << kPredicatedAccessAttrName
                             << "' marks an llvm.inline_asm, not this op";
  if (access.getAddress() >= op->getNumOperands())
    return op->emitOpError() << "'" << kPredicatedAccessAttrName << "': address operand #"
                             << access.getAddress() << " of " << op->getNumOperands()
                             << " operands";
  bool isLoad = access.getKind() == PredicatedAccessKind::Load;
  if (isLoad != (op->getNumResults() == 1))
    return op->emitOpError() << "'" << kPredicatedAccessAttrName << "': a predicated "
                             << (isLoad ? "load has a result" : "store has no result");
  return success();
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointeeType) {
  if (!pointeeType.isIntOrFloat())
    return emitError() << "a tile pointer points to a scalar (integer or float), not "
                       << pointeeType;
  return success();
}

Type mlir::tile::getPointeeType(Type ptrLike) {
  if (auto ptr = dyn_cast<PointerType>(ptrLike))
    return ptr.getPointeeType();
  if (auto tile = dyn_cast<RankedTensorType>(ptrLike))
    if (auto ptr = dyn_cast<PointerType>(tile.getElementType()))
      return RankedTensorType::get(tile.getShape(), ptr.getPointeeType(), tile.getEncoding());
  return {};
}

Type mlir::tile::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tile.getShape(), i1, tile.getEncoding());
  return i1;
}

//===----------------------------------------------------------------------===//
// !tile.smem
//===----------------------------------------------------------------------===//

Type SharedMemType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type element;
  Attribute encoding;
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(element) || parser.parseComma() || parser.parseAttribute(encoding) ||
      parser.parseGreater())
    return {};
  return SharedMemType::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                                   parser.getContext(), shape, element, encoding);
}

void SharedMemType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding() << ">";
}

static unsigned encodingRank(Attribute encoding) {
  if (auto nvmma = dyn_cast<NVMMASharedEncodingAttr>(encoding))
    return nvmma.getOrder().size();
  return 0;
}

LogicalResult SharedMemType::verify(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<int64_t> shape, Type elementType,
                                    Attribute encoding) {
  unsigned rank = encodingRank(encoding);
  if (!rank)
    return emitError() << "a shared-memory buffer needs a shared layout (#tile.nvmma_shared), not "
                       << encoding;
  if (shape.size() != rank && shape.size() != rank + 1)
    return emitError() << "a rank-" << rank << " shared layout holds rank-" << rank
                       << " tiles or a ring of them, not shape of rank " << shape.size();
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "shared-memory buffer dimensions must be positive";
  for (int64_t d : shape.take_back(rank))
    if (!isPowerOf2(d))
      return emitError() << "shared-memory tile dimensions must be powers of two";
  if (!elementType.isIntOrFloat())
    return emitError() << "shared-memory buffers hold integers or floats, not " << elementType;
  if (auto nvmma = dyn_cast<NVMMASharedEncodingAttr>(encoding)) {
    int64_t rowBytes = shape.take_back(rank)[nvmma.getOrder()[0]] *
                       std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
    if (nvmma.getSwizzle() && rowBytes % nvmma.getSwizzle())
      return emitError() << "rows of " << rowBytes << " bytes cannot take a "
                         << nvmma.getSwizzle() << "-byte swizzle: use one dividing the row";
  }
  return success();
}

bool SharedMemType::isRing() const {
  return getShape().size() == encodingRank(getEncoding()) + 1;
}

int64_t SharedMemType::getTileBytes() const {
  int64_t elements = 1;
  for (int64_t d : getTileShape())
    elements *= d;
  return elements * std::max<int64_t>(1, getElementType().getIntOrFloatBitWidth() / 8);
}
