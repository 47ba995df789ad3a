//===- CheckBounds.cpp - tile-check-bounds ----------------------------------===//
//
// `tcc --check-bounds`: the interpreter's memory checker, on the GPU. Each kernel gets
// hidden trailing parameters (an i64 extent per pointer parameter, then a pointer to an
// error record); each global access whose pointers trace back to a pointer parameter is
// masked to the elements within [0, extent) of it, and the first masked-in element
// outside is recorded (tile.record_oob) for the runtime to report after the launch.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace tcc {
#define GEN_PASS_DEF_TILECHECKBOUNDS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Access kinds as tile.record_oob and the runtime number them.
enum AccessKind : int32_t { kLoad = 0, kStore = 1, kAtomicAdd = 2, kAsyncCopy = 3 };

/// Where a pointer comes from. `untraced`: not from one kernel argument; `arg` null and
/// not untraced: only from loop-carried values being traced (a cycle, neutral).
struct Origin {
  Value arg;
  bool untraced = false;
  static Origin none() { return {Value(), true}; }
};

Origin combine(Origin a, Origin b) {
  if (a.untraced || b.untraced)
    return Origin::none();
  if (!a.arg)
    return b;
  if (!b.arg || a.arg == b.arg)
    return a;
  return Origin::none();
}

/// The kernel argument `ptr` is derived from: tcc::pointerArgument's chain, plus
/// selects of pointers of one argument and scf.for iteration arguments whose initial and
/// yielded values both come from it (Triton's `a_ptrs += BLOCK_K * stride`).
Origin originOf(Value ptr, llvm::DenseSet<Value> &visiting) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(ptr)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (isa<func::FuncOp>(owner))
        return isa<PointerType>(arg.getType()) ? Origin{arg} : Origin::none();
      auto loop = dyn_cast<scf::ForOp>(owner);
      if (!loop || arg.getArgNumber() == 0)
        return Origin::none();
      if (!visiting.insert(arg).second)
        return Origin{}; // already being traced: neutral
      unsigned i = arg.getArgNumber() - 1;
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      Origin init = originOf(loop.getInitArgs()[i], visiting);
      Origin next = originOf(yield.getOperand(i), visiting);
      visiting.erase(arg);
      return combine(init, next);
    }
    Operation *def = ptr.getDefiningOp();
    if (!def)
      return Origin::none();
    if (auto add = dyn_cast<AddPtrOp>(def)) {
      ptr = add.getPtr();
    } else if (isa<SplatOp, BroadcastOp, ExpandDimsOp, ConvertLayoutOp, HintOp>(def)) {
      ptr = def->getOperand(0);
    } else if (auto select = dyn_cast<arith::SelectOp>(def)) {
      return combine(originOf(select.getTrueValue(), visiting),
                     originOf(select.getFalseValue(), visiting));
    } else if (auto loop = dyn_cast<scf::ForOp>(def)) {
      unsigned i = cast<OpResult>(ptr).getResultNumber();
      return originOf(loop.getRegionIterArgs()[i], visiting);
    } else {
      return Origin::none();
    }
  }
}

/// The innermost file:line:col of `loc` (an inlined helper's line rather than its call
/// site's, as the interpreter reports it); line 0 when there is none.
std::pair<int32_t, int32_t> lineAndColumn(Location loc) {
  std::pair<int32_t, int32_t> found{0, 0};
  loc->walk([&](Location l) {
    if (auto file = dyn_cast<FileLineColLoc>(l)) {
      found = {int32_t(file.getLine()), int32_t(file.getColumn())};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

int64_t pointeeBytes(Type ptrLike) {
  Type pointee = getPointeeType(ptrLike);
  if (auto tile = dyn_cast<RankedTensorType>(pointee))
    pointee = tile.getElementType();
  unsigned bits = pointee.getIntOrFloatBitWidth();
  return bits < 8 ? 1 : bits / 8; // i1 is stored as a byte
}

Type shapedLike(Type like, Type element) {
  if (auto tile = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tile.getShape(), element, tile.getEncoding());
  return element;
}

/// `value` (a scalar) as a value of type `type` (a scalar or a tile of it).
Value broadcastTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return SplatOp::create(b, loc, type, value);
}

Value constantLike(OpBuilder &b, Location loc, Type type, int64_t value) {
  auto element = cast<IntegerType>(getElementTypeOrSelf(type));
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tile, b.getIntegerAttr(element, value)));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(element, value));
}

struct CheckBounds : tcc::impl::TileCheckBoundsBase<CheckBounds> {
  void runOnOperation() override {
    for (auto func : llvm::make_early_inc_range(getOperation().getOps<func::FuncOp>()))
      if (!func.isExternal() && isKernel(func) &&
          failed(instrument(func)))
        return signalPassFailure();
  }

  LogicalResult instrument(func::FuncOp func) {
    if (func->hasAttr(kCheckBoundsAttrName))
      return func.emitError("kernel '") << func.getName()
                                        << "' is already instrumented by tile-check-bounds";
    MLIRContext *ctx = &getContext();
    Builder types(ctx);
    Type i64 = types.getI64Type();
    unsigned numParams = func.getNumArguments();
    SmallVector<unsigned> pointerParams;
    for (unsigned i = 0; i < numParams; ++i)
      if (isa<PointerType>(func.getArgument(i).getType()))
        pointerParams.push_back(i);

    // The hidden parameters: an extent per pointer parameter, then the record.
    Location loc = func.getLoc();
    llvm::DenseMap<unsigned, Value> extentOf; // pointer parameter -> its extent
    for (unsigned p : pointerParams) {
      if (failed(func.insertArgument(func.getNumArguments(), i64, {}, loc)))
        return func.emitError("cannot add the extent parameters of --check-bounds");
      extentOf[p] = func.getArgument(func.getNumArguments() - 1);
    }
    Type recordType = PointerType::get(ctx, types.getI32Type());
    if (failed(func.insertArgument(func.getNumArguments(), recordType, {}, loc)))
      return func.emitError("cannot add the error-record parameter of --check-bounds");
    Value record = func.getArgument(func.getNumArguments() - 1);
    if (auto names = func->getAttrOfType<ArrayAttr>(kArgNamesAttrName)) {
      SmallVector<Attribute> all(names.begin(), names.end());
      while (all.size() < numParams)
        all.push_back(types.getStringAttr("arg" + std::to_string(all.size())));
      all.resize(numParams);
      for (unsigned p : pointerParams)
        all.push_back(types.getStringAttr(cast<StringAttr>(all[p]).str() + ".extent"));
      all.push_back(types.getStringAttr("tcc.bounds_record"));
      func->setAttr(kArgNamesAttrName, types.getArrayAttr(all));
    }

    SmallVector<Operation *> accesses;
    func.walk([&](Operation *op) {
      if (isa<LoadOp, StoreOp, AtomicAddOp, AsyncCopyOp>(op))
        accesses.push_back(op);
    });
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    Value pid[3];
    for (int axis = 0; axis < 3; ++axis)
      pid[axis] = ProgramIdOp::create(entry, loc, entry.getI32Type(), axis);
    int32_t unchecked = 0;
    for (Operation *op : accesses) {
      Value ptr = op->getOperand(0);
      llvm::DenseSet<Value> visiting;
      Origin origin = originOf(ptr, visiting);
      if (origin.untraced || !origin.arg) {
        ++unchecked;
        op->setAttr(kUncheckedAttrName, UnitAttr::get(ctx));
        continue;
      }
      auto arg = cast<BlockArgument>(origin.arg);
      check(op, ptr, arg, extentOf.lookup(arg.getArgNumber()), record, pid);
    }
    func->setAttr(kCheckBoundsAttrName, UnitAttr::get(ctx));
    func->setAttr(kCheckBoundsUncheckedAttrName, types.getI32IntegerAttr(unchecked));
    return success();
  }

  void check(Operation *op, Value ptr, BlockArgument arg, Value extent, Value record,
             Value pid[3]) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type ptrType = ptr.getType();
    Type i1Type = shapedLike(ptrType, b.getI1Type());
    Type i64Type = shapedLike(ptrType, b.getI64Type());
    OpOperand *maskOperand = nullptr;
    int32_t kind = kLoad;
    if (auto load = dyn_cast<LoadOp>(op)) {
      maskOperand = load.getMask() ? &load.getMaskMutable()[0] : nullptr;
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      kind = kStore;
      maskOperand = store.getMask() ? &store.getMaskMutable()[0] : nullptr;
    } else if (auto atomic = dyn_cast<AtomicAddOp>(op)) {
      kind = kAtomicAdd;
      maskOperand = atomic.getMask() ? &atomic.getMaskMutable()[0] : nullptr;
    } else {
      kind = kAsyncCopy;
      auto copy = cast<AsyncCopyOp>(op);
      maskOperand = copy.getMask() ? &copy.getMaskMutable()[0] : nullptr;
    }
    Value mask = maskOperand ? maskOperand->get() : Value();

    // In bounds: 0 <= offset <= extent - element bytes (signed: an extent below the
    // element size leaves no offset valid).
    Value offset = PtrOffsetOp::create(b, loc, i64Type, ptr, arg);
    Value last = arith::SubIOp::create(b, loc, extent,
                                       arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                                                    pointeeBytes(ptrType)));
    Value atLeast0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, offset,
                                           constantLike(b, loc, i64Type, 0));
    Value atMostLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, offset,
                                             broadcastTo(b, loc, last, i64Type));
    Value inBounds = arith::AndIOp::create(b, loc, atLeast0, atMostLast);
    Value outside = arith::XOrIOp::create(b, loc, inBounds, constantLike(b, loc, i1Type, 1));
    Value bad = mask ? arith::AndIOp::create(b, loc, mask, outside).getResult() : outside;
    auto [line, column] = lineAndColumn(loc);
    RecordOutOfBoundsOp::create(b, loc, record, bad, offset, pid[0], pid[1], pid[2], line,
                                column, kind, int32_t(arg.getArgNumber()));
    Value checked = mask ? arith::AndIOp::create(b, loc, mask, inBounds).getResult() : inBounds;
    if (maskOperand) {
      maskOperand->set(checked);
      return;
    }
    if (auto load = dyn_cast<LoadOp>(op))
      load.getMaskMutable().assign(checked);
    else if (auto store = dyn_cast<StoreOp>(op))
      store.getMaskMutable().assign(checked);
    else if (auto atomic = dyn_cast<AtomicAddOp>(op))
      atomic.getMaskMutable().assign(checked);
    else
      cast<AsyncCopyOp>(op).getMaskMutable().assign(checked);
  }
};

} // namespace
