//===- Compiler.cpp - slots, sites and op dispatch ------------------------===//

#include "compiler/Interpreter/Compiler.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"

#include <cstring>
#include <functional>

using namespace mlir;

namespace tcc::interp {

bool Compiler::dtypeOf(Type type, DType *dtype, DType *pointee) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    type = tile.getElementType();
  if (auto ptr = dyn_cast<tile::PointerType>(type)) {
    DType inner;
    if (!dtypeOf(ptr.getPointeeType(), &inner) || inner == DType::Ptr)
      return false;
    *dtype = DType::Ptr;
    if (pointee)
      *pointee = inner;
    return true;
  }
  if (isa<IndexType>(type)) {
    *dtype = DType::I64;
    return true;
  }
  if (auto i = dyn_cast<IntegerType>(type)) {
    switch (i.getWidth()) {
    case 1:
      *dtype = DType::I1;
      return true;
    case 8:
      *dtype = DType::I8;
      return true;
    case 16:
      *dtype = DType::I16;
      return true;
    case 32:
      *dtype = DType::I32;
      return true;
    case 64:
      *dtype = DType::I64;
      return true;
    default:
      return false;
    }
  }
  if (type.isF16())
    *dtype = DType::F16;
  else if (type.isBF16())
    *dtype = DType::BF16;
  else if (type.isF32())
    *dtype = DType::F32;
  else if (type.isF64())
    *dtype = DType::F64;
  else if (llvm::isa<mlir::Float8E4M3FNType>(type))
    *dtype = DType::F8E4NV;
  else if (llvm::isa<mlir::Float8E5M2Type>(type))
    *dtype = DType::F8E5;
  else
    return false;
  return true;
}

void *Compiler::allocate(size_t bytes) {
  size_t words = (bytes + 7) / 8;
  storage.push_back(std::make_unique<uint64_t[]>(words ? words : 1));
  return storage.back().get();
}

Slot &Compiler::slot(Value v) {
  auto it = slots.find(v.getAsOpaquePointer());
  if (it != slots.end())
    return *it->second;
  slotStore.emplace_back();
  Slot &s = slotStore.back();
  slots[v.getAsOpaquePointer()] = &s;
  if (!dtypeOf(v.getType(), &s.dtype, &s.pointee)) {
    // Reported by the op that defines it; give it a byte so nothing dereferences null.
    s.data = allocate(8);
    return s;
  }
  if (auto tile = dyn_cast<RankedTensorType>(v.getType())) {
    s.shape.assign(tile.getShape().begin(), tile.getShape().end());
    for (int64_t d : s.shape)
      s.numel *= d;
  }
  s.data = allocate(s.bytes());
  return s;
}

bool Compiler::alias(Value result, Value source) {
  Slot &src = slot(source);
  slotStore.emplace_back();
  Slot &s = slotStore.back();
  slots[result.getAsOpaquePointer()] = &s;
  if (!dtypeOf(result.getType(), &s.dtype, &s.pointee))
    return false;
  if (auto tile = dyn_cast<RankedTensorType>(result.getType())) {
    s.shape.assign(tile.getShape().begin(), tile.getShape().end());
    for (int64_t d : s.shape)
      s.numel *= d;
  }
  s.data = src.data;
  return s.bytes() == src.bytes();
}

void Compiler::bind(Value v, const Slot &s) {
  slotStore.push_back(s);
  slots[v.getAsOpaquePointer()] = &slotStore.back();
}

OpSite *Compiler::site(Operation *op) {
  auto it = siteOf.find(op);
  if (it != siteOf.end())
    return it->second;
  sites.emplace_back();
  OpSite &s = sites.back();
  s.opName = op->getName().getStringRef().str();
  s.kernel = kernelName;
  // The first file location names the op; call-site locations (MLIRGen's inlined
  // helpers) add where the helper was called from.
  auto firstFile = [](Location loc) {
    FileLineColLoc found;
    loc->walk([&](Location l) {
      if (auto file = dyn_cast<FileLineColLoc>(l)) {
        found = file;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return found;
  };
  // A caller may itself be a call site of an outer helper: innermost first.
  std::function<void(Location, std::vector<std::string> &)> callers =
      [&](Location l, std::vector<std::string> &out) {
        if (auto call = dyn_cast<CallSiteLoc>(l)) {
          callers(call.getCallee(), out);
          callers(call.getCaller(), out);
        } else if (FileLineColLoc f = firstFile(l)) {
          out.push_back(f.getFilename().str() + ":" + std::to_string(f.getLine()) + ":" +
                        std::to_string(f.getColumn()));
        }
      };
  Location loc = op->getLoc();
  while (auto call = dyn_cast<CallSiteLoc>(loc)) {
    std::vector<std::string> level;
    callers(call.getCaller(), level);
    s.calledFrom.insert(s.calledFrom.begin(), level.begin(), level.end());
    loc = call.getCallee();
  }
  if (FileLineColLoc file = firstFile(loc)) {
    s.file = file.getFilename().str();
    s.line = file.getLine();
    s.col = file.getColumn();
  }
  siteOf[op] = &s;
  return &s;
}

Emitted Compiler::fail(Operation *op, const llvm::Twine &message) {
  if (error.empty())
    error = formatDiagnostic(site(op), "error", message.str(), false);
  return Emitted::Failed;
}

bool Compiler::emitBlock(Block &block, InstList &out) {
  for (Operation &op : block.without_terminator())
    if (!emitOp(&op, out))
      return false;
  return true;
}

bool Compiler::emitOp(Operation *op, InstList &out) {
  for (auto family : {emitControl, emitTile, emitMemory, emitArith, emitMath}) {
    Emitted e = family(*this, op, out);
    if (e == Emitted::Done)
      return true;
    if (e == Emitted::Failed)
      return false;
  }
  fail(op, "the interpreter does not support '" + op->getName().getStringRef() + "'");
  return false;
}

Inst copyInst(void *dst, const void *src, size_t bytes) {
  return [dst, src, bytes](ExecState &) { std::memmove(dst, src, bytes); };
}

} // namespace tcc::interp
