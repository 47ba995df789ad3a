//===- PrintLowering.cpp - tile.print through the device's vprintf --------===//
//
// Every thread prints what it owns, as Triton's device_print does: scalars once per
// program (thread 0), and each tile element on a line of its own with its index, by the
// thread that owns it. Lines read `pid (x, y, z) idx (i, j) prefix value`. The format
// strings are constant globals; the arguments go through a buffer on the thread's stack,
// laid out as C varargs (vprintf's convention: integers widened to 32 bits, floats to
// double).
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/LoweringPatterns.h"
#include "compiler/Conversion/NVVMBuilders.h"
#include "compiler/Conversion/ThreadIndex.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

namespace tcc {
namespace {

/// printf's conversion for a value of `type`, and the type vprintf expects it in.
std::pair<std::string, Type> conversionFor(OpBuilder &b, Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return {"%p", type};
  if (type.isF64())
    return {"%.17g", b.getF64Type()};
  if (type.isF32())
    return {"%.9g", b.getF64Type()};
  if (isa<FloatType>(type))
    return {"%.5g", b.getF64Type()};
  if (type.getIntOrFloatBitWidth() == 64)
    return {"%lld", b.getI64Type()};
  return {"%d", b.getI32Type()};
}

Value widen(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (isa<FloatType>(from))
    return arith::ExtFOp::create(b, loc, to, v);
  if (from.isInteger(1))
    return arith::ExtUIOp::create(b, loc, to, v);
  return arith::ExtSIOp::create(b, loc, to, v);
}

std::string escapePercent(StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

/// The address of a constant, NUL-terminated copy of `text` (one global per text).
Value formatString(OpBuilder &b, Location loc, ModuleOp module, StringRef text) {
  std::string bytes = text.str();
  bytes.push_back('\0');
  LLVM::GlobalOp global;
  for (auto g : module.getOps<LLVM::GlobalOp>())
    if (g.getSymName().starts_with("tcc_fmt_"))
      if (auto value = dyn_cast_or_null<StringAttr>(g.getValueOrNull()))
        if (value.getValue() == bytes)
          global = g;
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    std::string name;
    for (unsigned i = 0;; ++i) {
      name = "tcc_fmt_" + std::to_string(i);
      if (!module.lookupSymbol(name))
        break;
    }
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal,
                                    name, b.getStringAttr(bytes));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

/// The declaration of the external function `name` in `module`, added at its start the first
/// time.
LLVM::LLVMFuncOp declareFunction(OpBuilder &b, Location loc, ModuleOp module, StringRef name,
                                 LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, loc, name, type);
}

/// Where print and assert are lowered: the module (their strings, the declaration of the CUDA
/// system function they call), the kernel function (its stack slots, its name) and that
/// system function.
struct SystemCall {
  ModuleOp module;
  LLVM::LLVMFuncOp func;
  LLVM::LLVMFuncOp callee;
};

/// The SystemCall of `op` calling `name` of type `type`; nullopt outside a lowered kernel.
std::optional<SystemCall> systemCall(OpBuilder &b, Operation *op, StringRef name,
                                     LLVM::LLVMFunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  if (!module || !func)
    return std::nullopt;
  return SystemCall{module, func, declareFunction(b, op->getLoc(), module, name, type)};
}

struct PrintLowering : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(PrintOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    std::optional<SystemCall> call = systemCall(
        rewriter, op, "vprintf", LLVM::LLVMFunctionType::get(rewriter.getI32Type(), {ptr, ptr}));
    if (!call)
      return failure();
    ModuleOp module = call->module;
    LLVM::LLVMFuncOp func = call->func, vprintf = call->callee;
    std::string prefix = escapePercent(op.getPrefix());
    if (!prefix.empty() && prefix.back() != ' ')
      prefix += " ";
    SmallVector<Value> pid;
    for (unsigned axis = 0; axis < 3; ++axis)
      pid.push_back(nvvm::programId(rewriter, loc, axis));

    // One vprintf call: "pid (x, y, z) " + `format` over pid and `values`, under `guard`.
    auto emitLine = [&](StringRef format, ArrayRef<Value> values, Value guard) {
      std::string text = "pid (%d, %d, %d) " + format.str() + "\n";
      auto body = [&](OpBuilder &b, Location l) {
        SmallVector<Value> fields(pid);
        for (Value v : values)
          fields.push_back(widen(b, l, v, conversionFor(b, v.getType()).second));
        SmallVector<Type> types;
        for (Value f : fields)
          types.push_back(f.getType());
        auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
        auto bufferType = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
        Value buffer;
        {
          // In the entry block: one stack slot per call site, also inside loops.
          OpBuilder::InsertionGuard entry(b);
          b.setInsertionPointToStart(&func.getBody().front());
          Value one = LLVM::ConstantOp::create(b, l, b.getI32Type(), b.getI32IntegerAttr(1));
          buffer = LLVM::AllocaOp::create(b, l, ptrType, bufferType, one, /*alignment=*/8);
        }
        for (auto [i, f] : llvm::enumerate(fields)) {
          Value slot = LLVM::GEPOp::create(b, l, ptrType, bufferType, buffer,
                                           ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
          LLVM::StoreOp::create(b, l, f, slot);
        }
        Value fmt = formatString(b, l, module, text);
        LLVM::CallOp::create(b, l, vprintf, ValueRange{fmt, buffer});
      };
      if (!guard) {
        body(rewriter, loc);
        return;
      }
      scf::IfOp::create(rewriter, loc, guard, [&](OpBuilder &b, Location l) {
        body(b, l);
        scf::YieldOp::create(b, l);
      });
    };

    // Scalars: once per program, by thread 0.
    SmallVector<Value> scalars;
    std::string scalarFormat = prefix;
    for (auto [arg, regs] : llvm::zip(op.getArgs(), adaptor.getArgs()))
      if (!isa<RankedTensorType>(arg.getType())) {
        scalarFormat += (scalars.empty() ? "" : ", ") + conversionFor(rewriter, regs.front().getType()).first;
        scalars.push_back(regs.front());
      }
    bool anyTile =
        llvm::any_of(op.getArgs(), [](Value a) { return isa<RankedTensorType>(a.getType()); });
    if (!scalars.empty() || !anyTile) {
      emitLine(scalarFormat, scalars, emitIsThreadZero(rewriter, loc, kernelNumThreads(op)));
    }
    // Tiles: every element once, by the thread that owns it, with its index.
    for (auto [arg, regs] : llvm::zip(op.getArgs(), adaptor.getArgs())) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type)
        continue;
      std::optional<Distribution> dist = getDistributionOrError(op, type);
      if (!dist)
        return failure();
      Value owner = emitOwnerPredicate(rewriter, loc, *dist);
      SmallVector<Value> bases;
      std::string format = "idx (";
      for (unsigned d = 0; d < dist->getRank(); ++d) {
        bases.push_back(emitThreadBase(rewriter, loc, *dist, d));
        format += d ? ", %d" : "%d";
      }
      format += ") " + prefix + conversionFor(rewriter, regs.front().getType()).first;
      for (int64_t r = 0; r < dist->getNumRegs(); ++r) {
        SmallVector<Value> values;
        for (unsigned d = 0; d < dist->getRank(); ++d) {
          int64_t offset = dist->getRegOffset(r, d);
          values.push_back(offset ? arith::AddIOp::create(rewriter, loc, bases[d],
                                                          i32Const(rewriter, loc, offset))
                                        .getResult()
                                  : bases[d]);
        }
        values.push_back(regs[r]);
        emitLine(format, values, owner);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

/// tile.assert (device_assert): a thread holding a false element calls the CUDA system call
/// __assertfail(message, file, line, function, 1), which prints them with the program and
/// thread and fails the launch (CUDA_ERROR_ASSERT), as CUDA's assert() and Triton do. A
/// scalar condition is the same in every thread: thread 0 reports it.
struct AssertLowering : OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(AssertOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    std::optional<SystemCall> call = systemCall(
        rewriter, op, "__assertfail",
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(rewriter.getContext()),
                                    {ptr, ptr, rewriter.getI32Type(), ptr, rewriter.getI64Type()}));
    if (!call)
      return failure();
    ModuleOp module = call->module;
    LLVM::LLVMFuncOp func = call->func, assertFail = call->callee;
    // The innermost file:line (an inlined helper's, as the interpreter reports it).
    std::string file = "<unknown>";
    int32_t line = 0;
    loc->walk([&](Location l) {
      if (auto f = dyn_cast<FileLineColLoc>(l)) {
        file = f.getFilename().str();
        line = int32_t(f.getLine());
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    Value bad;
    for (Value reg : adaptor.getCond()) {
      Value no = arith::XOrIOp::create(rewriter, loc, reg,
                                       arith::ConstantIntOp::create(rewriter, loc, reg.getType(), 1));
      bad = bad ? arith::OrIOp::create(rewriter, loc, bad, no).getResult() : no;
    }
    if (!isa<RankedTensorType>(op.getCond().getType()))
      bad = arith::AndIOp::create(rewriter, loc, bad,
                                  emitIsThreadZero(rewriter, loc, kernelNumThreads(op)));
    std::string message = op.getMessage().str();
    std::string function = func.getSymName().str();
    scf::IfOp::create(rewriter, loc, bad, [&](OpBuilder &b, Location l) {
      Value msg = formatString(b, l, module, message);
      Value fileName = formatString(b, l, module, file);
      Value fn = formatString(b, l, module, function);
      Value lineValue = LLVM::ConstantOp::create(b, l, b.getI32Type(), b.getI32IntegerAttr(line));
      Value one = LLVM::ConstantOp::create(b, l, b.getI64Type(), b.getI64IntegerAttr(1));
      LLVM::CallOp::create(b, l, assertFail, ValueRange{msg, fileName, lineValue, fn, one});
      scf::YieldOp::create(b, l);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

void populatePrintLoweringPatterns(TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PrintLowering, AssertLowering>(converter, patterns.getContext());
}

} // namespace tcc
