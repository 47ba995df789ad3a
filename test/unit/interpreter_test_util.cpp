#include "interpreter_test_util.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/Diagnostics.h"

namespace tcc::interp::testing {

struct Compiled::State {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

Compiled compileIR(const std::string &ir, const std::string &name,
                   const std::string &bufferName) {
  Compiled c;
  c.state = std::make_shared<Compiled::State>();
  auto &ctx = c.state->context;
  ctx.loadDialect<mlir::tile::TileDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::func::FuncDialect>();
  std::string diags;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    llvm::raw_string_ostream os(diags);
    os << d.getLocation() << ": " << d << "\n";
    return mlir::success();
  });
  mlir::ParserConfig config(&ctx);
  c.state->module = mlir::parseSourceString<mlir::ModuleOp>(ir, config, bufferName);
  if (!c.state->module) {
    c.error = "parse error: " + diags;
    return c;
  }
  mlir::Operation *f = findKernel(c.state->module->getOperation(), name, &c.error);
  if (!f)
    return c;
  c.kernel = Kernel::compile(f, &c.error);
  return c;
}

Compiled compileIRFile(const std::string &file, const std::string &name) {
  std::string path = std::string(TCC_UNIT_INPUTS) + "/interpreter/" + file;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    Compiled c;
    c.error = "cannot read " + path + ": " + buffer.getError().message();
    return c;
  }
  return compileIR((*buffer)->getBuffer().str(), name, file);
}

RunOutput run(Kernel &k, const std::vector<ArgValue> &args, Memory &mem, std::array<int64_t, 3> grid,
        UninitPolicy uninit) {
  RunOutput r;
  RunOptions o;
  o.grid = grid;
  o.uninitReads = uninit;
  o.showSource = false;
  o.printSink = [&](const std::string &s) { r.printed.push_back(s); };
  o.warningSink = [&](const std::string &s) { r.warnings.push_back(s); };
  r.result = k.run(args, mem, o);
  return r;
}

int64_t addF32(Memory &mem, const std::string &name, const std::vector<float> &v) {
  Buffer b = makeBuffer(name, DType::F32, {int64_t(v.size())}, true);
  for (size_t i = 0; i < v.size(); ++i)
    b.data<float>()[i] = v[i];
  return mem.add(std::move(b));
}

int64_t addEmpty(Memory &mem, const std::string &name, DType t, std::vector<int64_t> shape) {
  return mem.add(makeBuffer(name, t, std::move(shape), false));
}

} // namespace tcc::interp::testing
