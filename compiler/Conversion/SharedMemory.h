//===- SharedMemory.h - the kernel's scratch buffer --------------*- C++ -*-===//
//
// A program has one dynamic shared-memory buffer, `tcc_shared`: tile-allocate-shared
// places every user in it (local_alloc offsets, `tile.shared_offset` scratch) and writes
// its size, `tile.shared_bytes`, which goes into the artifact metadata.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CONVERSION_SHAREDMEMORY_H
#define TCC_COMPILER_CONVERSION_SHAREDMEMORY_H

#include "dialects/Tile/SharedLayout.h"

#include "mlir/IR/Builders.h"

namespace tcc {

/// The buffer's address, `!llvm.ptr<3>`.
mlir::Value sharedBase(mlir::OpBuilder &b, mlir::Location loc);
/// Where the buffer of `owner` placed at byte `offset` starts: the offset, and in the
/// consumer region of a kernel of several consumer groups, where `owner` has a
/// `tile.group_stride`, the executing group's copy of it.
mlir::Value bufferBase(mlir::OpBuilder &b, mlir::Operation *owner, int64_t offset);
/// Where `op`'s scratch starts (`tile.shared_offset`, bufferBase); null, with an error on
/// `op`, when tile-allocate-shared has not placed it.
mlir::Value scratchBase(mlir::OpBuilder &b, mlir::Operation *op);
/// Address of element `index` (i32) of type `memType` from `base`.
mlir::Value sharedElementPtr(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                             mlir::Type memType, mlir::Value index);
/// Stores the memory-typed `elements` contiguously at `ptr` (one vector access if several).
void storeShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                 llvm::ArrayRef<mlir::Value> elements);
/// Loads `count` contiguous elements of `memType` from `ptr`.
llvm::SmallVector<mlir::Value> loadShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                                          mlir::Type memType, unsigned count);

/// The addresses of a thread's accesses (`width` registers of `dist` each, in register
/// order) to a tile laid out by `layout` in shared memory: an access whose offset is
/// another's plus a constant for every thread reuses that one's address (an immediate
/// offset) instead of computing its own.
class SharedAccesses {
public:
  SharedAccesses(const SharedLayout &layout, const mlir::tile::Distribution &dist, unsigned width);

  /// The address of the access starting at register `reg` (accesses in order), from
  /// the tile's `base` and the thread's base coordinates `bases`.
  mlir::Value emit(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base, mlir::Type memType,
                   llvm::ArrayRef<mlir::Value> bases, int64_t reg);

private:
  const SharedLayout &layout;
  unsigned width;
  llvm::SmallVector<OffsetReuse> reuse;
  llvm::SmallVector<llvm::SmallVector<int64_t>> offsets;
  llvm::SmallVector<mlir::Value> ptrs;
};

/// The thread's base coordinates in `dist`, one i32 per dimension (the `bases` of
/// SharedAccesses::emit).
llvm::SmallVector<mlir::Value> threadBases(mlir::OpBuilder &b, mlir::Location loc,
                                           const mlir::tile::Distribution &dist);

/// Stores the registers `regs` of a tile distributed by `dist` into the tile at `base`
/// laid out by `layout`, as `memType` elements, in accesses as wide as both allow.
void storeTile(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
               const SharedLayout &layout, const mlir::tile::Distribution &dist,
               mlir::Type memType, mlir::ValueRange regs);
/// The registers of `dist` loaded from the tile at `base` (the inverse of storeTile),
/// converted to `element`.
llvm::SmallVector<mlir::Value> loadTile(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                                        const SharedLayout &layout,
                                        const mlir::tile::Distribution &dist, mlir::Type memType,
                                        mlir::Type element);

/// Register value to what shared memory holds (i1 -> i8, pointers -> i64) and back.
mlir::Value toSharedMemory(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);
mlir::Value fromSharedMemory(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                             mlir::Type type);

} // namespace tcc

#endif // TCC_COMPILER_CONVERSION_SHAREDMEMORY_H
