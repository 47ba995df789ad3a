//===- MLIRGen.h - Typed AST to the tile dialect -------------------------===//
//
// A direct translation of Sema's typed AST into `tile` + `arith` + `math` +
// `scf` + `func` (docs/ir.md is the contract), with FileLineColLoc locations
// (CallSiteLoc inside inlined helpers). The module is verified before it is
// returned; a verification failure is a compiler bug and is reported as an
// internal error through the DiagnosticEngine, never as an IR dump.
//
//===----------------------------------------------------------------------===//
#ifndef TCC_FRONTEND_MLIRGEN_H
#define TCC_FRONTEND_MLIRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tcc {

class DiagnosticEngine;
namespace typed {
class Program;
} // namespace typed

/// Loads every dialect MLIRGen emits.
void loadFrontendDialects(mlir::MLIRContext &context);

/// Null after reporting an internal error.
mlir::OwningOpRef<mlir::ModuleOp> generateTileModule(mlir::MLIRContext &context,
                                                     const typed::Program &program,
                                                     DiagnosticEngine &diags);

} // namespace tcc

#endif // TCC_FRONTEND_MLIRGEN_H
