//===- TileDialect.cpp - the tile dialect and its types -------------------===//

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
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

namespace {

/// `attr` as an integer satisfying `ok`, or an error on `op` naming what was expected.
LogicalResult expectInteger(Operation *op, NamedAttribute attr, function_ref<bool(int64_t)> ok,
                            StringRef what) {
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (value && value.getType().isSignlessInteger() && ok(value.getInt()))
    return success();
  return op->emitOpError() << "'" << attr.getName().getValue() << "' must be " << what << ", not "
                           << attr.getValue();
}

LogicalResult expectUnit(Operation *op, NamedAttribute attr) {
  if (isa<UnitAttr>(attr.getValue()))
    return success();
  return op->emitOpError() << "'" << attr.getName().getValue() << "' is a unit attribute, not "
                           << attr.getValue();
}

LogicalResult expectOn(Operation *op, NamedAttribute attr, bool ok, StringRef where) {
  if (ok)
    return success();
  return op->emitOpError() << "'" << attr.getName().getValue() << "' belongs on " << where;
}

bool isStringArray(Attribute attr, std::optional<size_t> size = std::nullopt) {
  auto array = dyn_cast<ArrayAttr>(attr);
  return array && (!size || array.size() == *size) &&
         llvm::all_of(array, [](Attribute a) { return isa<StringAttr>(a); });
}

LogicalResult verifyPredicatedAccess(Operation *op, NamedAttribute attribute) {
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

} // namespace

namespace {

/// What a discardable attribute of the dialect must be, and where it may be.
enum class Expect { Unit, ClusterSize, Warps, AtLeast1, NonNegative, Grid, Strings, Dictionary, Dictionaries, Target };
enum class Place { Function, FunctionOrLoop, Module, TileOp, Remainder };
struct AttrRule {
  StringLiteral name;
  Expect value;
  Place place;
};

constexpr AttrRule kAttrRules[] = {
    {kKernelAttrName, Expect::Unit, Place::Function},
    {kNumWarpsAttrName, Expect::Warps, Place::Function},
    {kNumStagesAttrName, Expect::AtLeast1, Place::FunctionOrLoop},
    {kProducerWarpsAttrName, Expect::NonNegative, Place::Function},
    {kConsumerGroupsAttrName, Expect::AtLeast1, Place::Function},
    {kSharedBytesAttrName, Expect::NonNegative, Place::Function},
    {kGridAttrName, Expect::Grid, Place::Function},
    {kPersistentAttrName, Expect::Unit, Place::Function},
    {kClusterSizeAttrName, Expect::ClusterSize, Place::Function},
    {kSplitKAttrName, Expect::ClusterSize, Place::Function},
    {kTileColumnAttrName, Expect::Unit, Place::Remainder},
    {kSpecializeWarpsAttrName, Expect::Unit, Place::FunctionOrLoop},
    {kArgNamesAttrName, Expect::Strings, Place::Function},
    {kConstexprsAttrName, Expect::Dictionary, Place::Function},
    {kCheckBoundsAttrName, Expect::Unit, Place::Function},
    {kCheckBoundsUncheckedAttrName, Expect::NonNegative, Place::Function},
    {kTensorMapsAttrName, Expect::Dictionaries, Place::Function},
    {kTargetAttrName, Expect::Target, Place::Module},
    {kUncheckedAttrName, Expect::Unit, Place::TileOp},
    {kSharedOffsetAttrName, Expect::NonNegative, Place::TileOp},
    {kGroupStrideAttrName, Expect::AtLeast1, Place::TileOp},
};

LogicalResult checkValue(Operation *op, NamedAttribute attribute, Expect rule) {
  Attribute value = attribute.getValue();
  auto fail = [&](StringRef what) {
    return op->emitOpError() << "'" << attribute.getName().getValue() << "' " << what << ", not "
                             << value;
  };
  switch (rule) {
  case Expect::Unit:
    return expectUnit(op, attribute);
  case Expect::Warps:
    return expectInteger(
        op, attribute, [](int64_t v) { return isPowerOf2(v) && v <= 32; },
        "a power of two from 1 to 32");
  case Expect::ClusterSize:
    // Multicast's pairs (2) and tile-split-k's clusters (2, 4, 8): portable cluster sizes.
    return expectInteger(op, attribute, [](int64_t v) { return v == 2 || v == 4 || v == 8; },
                         "2, 4 or 8");
  case Expect::AtLeast1:
    return expectInteger(op, attribute, [](int64_t v) { return v >= 1; }, "at least 1");
  case Expect::NonNegative:
    return expectInteger(op, attribute, [](int64_t v) { return v >= 0; }, "non-negative");
  case Expect::Grid:
    return isStringArray(value, 3) ? success()
                                   : fail("must be three grid expressions (strings)");
  case Expect::Strings:
    return isStringArray(value) ? success() : fail("must be an array of strings");
  case Expect::Dictionary:
    return isa<DictionaryAttr>(value) ? success() : fail("must be a dictionary");
  case Expect::Dictionaries: {
    auto list = dyn_cast<ArrayAttr>(value);
    return list && llvm::all_of(list, [](Attribute a) { return isa<DictionaryAttr>(a); })
               ? success()
               : fail("must be an array of dictionaries");
  }
  case Expect::Target:
    return isa<TargetAttr>(value) ? success() : fail("must be a #tile.target");
  }
  llvm_unreachable("every kind of value is checked");
}

LogicalResult checkPlace(Operation *op, NamedAttribute attribute, Place place) {
  switch (place) {
  case Place::Function:
    return expectOn(op, attribute, isa<FunctionOpInterface>(op), "a function");
  case Place::FunctionOrLoop:
    return expectOn(op, attribute, isa<FunctionOpInterface, LoopLikeOpInterface>(op),
                    "a function or a loop");
  case Place::Module:
    return expectOn(op, attribute, isa<ModuleOp>(op), "a module");
  case Place::TileOp:
    return expectOn(op, attribute, isa<TileDialect>(op->getDialect()),
                    "an op of the tile dialect");
  case Place::Remainder:
    return expectOn(op, attribute,
                    op->getName().getStringRef() == "arith.remsi" ||
                        op->getName().getStringRef() == "arith.remui",
                    "an integer remainder (arith.remsi or arith.remui)");
  }
  llvm_unreachable("every place is checked");
}

} // namespace

LogicalResult TileDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name == kPredicatedAccessAttrName)
    return verifyPredicatedAccess(op, attribute);
  for (const AttrRule &rule : kAttrRules)
    if (name == rule.name)
      return failure(failed(checkValue(op, attribute, rule.value)) ||
                     failed(checkPlace(op, attribute, rule.place)));
  return op->emitOpError() << "unknown attribute '" << name
                           << "' of the tile dialect (its attributes: docs/ir.md)";
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op, unsigned, unsigned argIndex,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name == kDivisibilityAttrName)
    return expectInteger(
        op, attribute, [](int64_t v) { return isPowerOf2(v); },
        "a positive power of two (argument #" + std::to_string(argIndex) + ")");
  if (name == kEqualToAttrName) {
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      if (argIndex < func.getNumArguments() &&
          !isa<IntegerType>(func.getArgument(argIndex).getType()))
        return op->emitOpError() << "'" << name << "' belongs on an integer argument, not #"
                                 << argIndex;
    return expectInteger(op, attribute, [](int64_t) { return true; }, "an integer");
  }
  if (name == kTensorMapAttrName) {
    auto func = dyn_cast<FunctionOpInterface>(op);
    if (!func || argIndex >= func.getNumArguments() ||
        !isa<TensorMapType>(func.getArgument(argIndex).getType()))
      return op->emitOpError() << "'" << name << "' belongs on a !tile.tensormap argument, not #"
                               << argIndex;
    auto info = dyn_cast<DictionaryAttr>(attribute.getValue());
    auto strings = [](Attribute list, size_t count) {
      auto array = dyn_cast_or_null<ArrayAttr>(list);
      return array && array.size() == count &&
             llvm::all_of(array, [](Attribute a) { return isa<StringAttr>(a); });
    };
    size_t rank = cast<TensorMapType>(func.getArgument(argIndex).getType()).getBox().size();
    if (!info || !info.getAs<StringAttr>("param") || !strings(info.get("dims"), rank) ||
        !strings(info.get("strides_bytes"), rank - 1))
      return op->emitOpError() << "'" << name << "' (argument #" << argIndex
                               << ") is {param = \"NAME\", dims = [" << rank
                               << " strings], strides_bytes = [" << rank - 1
                               << " strings]}, not " << attribute.getValue();
    return success();
  }
  return op->emitOpError() << "unknown argument attribute '" << name << "' (argument #"
                           << argIndex << ") of the tile dialect (its attributes: docs/ir.md)";
}

LogicalResult TileDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                       unsigned resultIndex,
                                                       NamedAttribute attribute) {
  return op->emitOpError() << "unknown result attribute '" << attribute.getName().getValue()
                           << "' (result #" << resultIndex
                           << ") of the tile dialect (it has none: docs/ir.md)";
}

bool mlir::tile::isKernel(Operation *op) { return op && op->hasAttr(kKernelAttrName); }

unsigned mlir::tile::getNumWarps(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto attr = p->getAttrOfType<IntegerAttr>(kNumWarpsAttrName))
      return unsigned(attr.getInt()); // verified: a power of two from 1 to 32
  return 4;
}

unsigned mlir::tile::getLaunchWarps(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (p->hasAttr(kNumWarpsAttrName)) {
      auto producer = p->getAttrOfType<IntegerAttr>(kProducerWarpsAttrName);
      return getNumWarps(p) * getConsumerGroups(p) + (producer ? unsigned(producer.getInt()) : 0);
    }
  return getNumWarps(op);
}

unsigned mlir::tile::getConsumerGroups(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto attr = p->getAttrOfType<IntegerAttr>(kConsumerGroupsAttrName))
      return unsigned(attr.getInt()); // verified: at least 1
  return 1;
}

unsigned mlir::tile::getThreadsPerWarp(Operation *op) { return getTarget(op).getThreadsPerWarp(); }

unsigned mlir::tile::getNumThreads(Operation *op) { return getNumWarps(op) * getThreadsPerWarp(op); }

unsigned mlir::tile::getVectorWidth(Operation *op) {
  std::optional<uint32_t> vec;
  if (auto load = dyn_cast<LoadOp>(op))
    vec = load.getVec();
  else if (auto store = dyn_cast<StoreOp>(op))
    vec = store.getVec();
  return vec ? unsigned(*vec) : 1;
}

void mlir::tile::setVectorWidth(Operation *op, unsigned width) {
  auto attr = IntegerAttr::get(IntegerType::get(op->getContext(), 32), width);
  if (auto load = dyn_cast<LoadOp>(op))
    load.setVecAttr(attr);
  else
    cast<StoreOp>(op).setVecAttr(attr);
}

LogicalResult
mlir::tile::rewriteKnownMask(RewriterBase &rewriter, Operation *access,
                             function_ref<std::optional<bool>(Value mask)> known) {
  Value mask = isa<LoadOp>(access) ? cast<LoadOp>(access).getMask()
                                   : cast<StoreOp>(access).getMask();
  std::optional<bool> value = mask ? known(mask) : std::nullopt;
  if (!value)
    return failure();
  if (auto load = dyn_cast<LoadOp>(access)) {
    if (*value) {
      rewriter.modifyOpInPlace(load, [&] {
        load.getMaskMutable().clear();
        load.getOtherMutable().clear();
      });
      return success();
    }
    // Nothing is read; without `other` the result is undefined, so the load stays.
    if (!load.getOther())
      return failure();
    rewriter.replaceOp(load, load.getOther());
    return success();
  }
  auto store = cast<StoreOp>(access);
  if (*value)
    rewriter.modifyOpInPlace(store, [&] { store.getMaskMutable().clear(); });
  else
    rewriter.eraseOp(store);
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
// !tile.tensormap
//===----------------------------------------------------------------------===//

LogicalResult TensorMapType::verify(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<int64_t> box, Type elementType, int64_t swizzle) {
  if (box.empty() || box.size() > 5)
    return emitError() << "a tensor map's box has 1 to 5 dimensions, not " << box.size();
  for (int64_t d : box)
    if (d < 1 || d > 256)
      return emitError() << "a tensor map's box dimensions are 1 to 256 elements, not " << d;
  if (!elementType.isIntOrFloat() || elementType.isInteger(1))
    return emitError() << "a tensor map describes an array of integers or floats, not "
                       << elementType;
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "a tensor map's swizzle is 0, 32, 64 or 128 bytes, not " << swizzle;
  int64_t innerBytes = box.back() * std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  if (innerBytes % 16)
    return emitError() << "a tensor map's box rows are multiples of 16 bytes, not " << innerBytes;
  if (swizzle && innerBytes > swizzle)
    return emitError() << "a " << swizzle << "-byte swizzle takes box rows of at most "
                       << swizzle << " bytes, not " << innerBytes;
  return success();
}

ArrayAttr mlir::tile::getTensorMapsDescription(Operation *op) {
  Builder b(op->getContext());
  SmallVector<Attribute> maps;
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return b.getArrayAttr(maps);
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto map = dyn_cast<TensorMapType>(type);
    if (!map)
      continue;
    NamedAttrList fields;
    if (auto info = func.getArgAttrOfType<DictionaryAttr>(unsigned(i), kTensorMapAttrName))
      fields.append(info.getValue());
    SmallVector<int64_t> box(map.getBox().rbegin(), map.getBox().rend());
    fields.set("box", b.getI64ArrayAttr(box));
    fields.set("swizzle", b.getI64IntegerAttr(map.getSwizzle()));
    fields.set("element", TypeAttr::get(map.getElementType()));
    maps.push_back(fields.getDictionary(op->getContext()));
  }
  return b.getArrayAttr(maps);
}

int64_t TensorMapType::getBoxBytes() const {
  int64_t elements = 1;
  for (int64_t d : getBox())
    elements *= d;
  return elements * getElementBytes();
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
