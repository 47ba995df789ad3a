//===- Compiler.h - turns tile IR into interpreter instructions -*- C++ -*-===//
//
// The compiler walks a kernel once, gives every SSA value a slot (a typed array sized by
// its static shape) and emits one closure per op. Ops are handled by families, each in
// its own file: arith/math element-wise ops (EmitArith.cpp, EmitMath.cpp), tile ops
// (EmitTile.cpp), memory (EmitMemory.cpp) and control flow (EmitControl.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_INTERPRETER_COMPILER_H
#define TCC_INTERPRETER_COMPILER_H

#include "compiler/Interpreter/Exec.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

#include <deque>
#include <memory>

namespace tcc::interp {

/// A value's slot: element type, shape (empty for scalars) and storage.
struct Slot {
  DType dtype = DType::I32;
  DType pointee = DType::F32; // for pointers
  std::vector<int64_t> shape;
  int64_t numel = 1;
  void *data = nullptr;

  size_t bytes() const { return size_t(numel) * dtypeSize(dtype); }
  template <typename T> T *as() const { return static_cast<T *>(data); }
};

/// What an emitter made of an op.
enum class Emitted { Done, NotMine, Failed };

class Compiler {
public:
  explicit Compiler(std::string kernelName) : kernelName(std::move(kernelName)) {}

  /// Emits the ops of `block` (not its terminator) into `out`.
  bool emitBlock(mlir::Block &block, InstList &out);
  bool emitOp(mlir::Operation *op, InstList &out);

  /// The slot of `v`; allocates one when `v` has none yet.
  Slot &slot(mlir::Value v);
  /// Makes `result` share `source`'s storage (ops that only reinterpret their operand).
  bool alias(mlir::Value result, mlir::Value source);
  /// Makes `v` use a copy of `s` (same storage): arguments and results of inlined calls.
  void bind(mlir::Value v, const Slot &s);
  bool hasSlot(mlir::Value v) const { return slots.count(v.getAsOpaquePointer()) != 0; }
  /// The slot map is keyed per inlined call, so that a function called twice gets two
  /// sets of slots.
  using SlotMap = llvm::DenseMap<const void *, Slot *>;
  SlotMap swapSlots(SlotMap map) {
    std::swap(map, slots);
    return map;
  }

  /// Fresh zeroed storage of `bytes` bytes that lives as long as the kernel.
  void *allocate(size_t bytes);
  /// The site of `op` (for run-time diagnostics).
  OpSite *site(mlir::Operation *op);
  /// Records a compile error at `op`; returns Failed.
  Emitted fail(mlir::Operation *op, const llvm::Twine &message);
  /// The element type of a scalar or tile type; false when the interpreter has none.
  bool dtypeOf(mlir::Type type, DType *dtype, DType *pointee = nullptr);

  std::string error;
  std::string kernelName;
  int inlineDepth = 0;

private:
  SlotMap slots;
  std::deque<Slot> slotStore;
  std::vector<std::unique_ptr<uint64_t[]>> storage;
  std::deque<OpSite> sites;
  llvm::DenseMap<mlir::Operation *, OpSite *> siteOf;
};

// The families; each returns NotMine for ops it does not know.
Emitted emitArith(Compiler &c, mlir::Operation *op, InstList &out);
Emitted emitMath(Compiler &c, mlir::Operation *op, InstList &out);
Emitted emitTile(Compiler &c, mlir::Operation *op, InstList &out);
Emitted emitMemory(Compiler &c, mlir::Operation *op, InstList &out);
Emitted emitControl(Compiler &c, mlir::Operation *op, InstList &out);

/// Copies `bytes` between slots at run time (yields, iter_args).
Inst copyInst(void *dst, const void *src, size_t bytes);

} // namespace tcc::interp

#endif // TCC_INTERPRETER_COMPILER_H
