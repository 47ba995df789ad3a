#include "example_harness.h"

#include "compiler/Driver/Driver.h"
#include "compiler/Interpreter/ArgSpec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace tcc::examples {

struct Example::State {
  std::string diagnostics;
  llvm::raw_string_ostream os{diagnostics};
  std::unique_ptr<Driver> driver;
};

Example::Example(const std::string &file, std::vector<std::string> defines, int config,
                 const std::string &kernelName)
    : state(std::make_unique<State>()) {
  DriverOptions options;
  options.inputPath = std::string(TCC_EXAMPLES_DIR) + "/" + file;
  options.defines = std::move(defines);
  options.autotuneConfig = config;
  state->driver = std::make_unique<Driver>(options, state->os);
  mlir::ModuleOp module = state->driver->buildTileModule();
  if (!module) {
    err = "cannot compile " + options.inputPath + ":\n" + state->diagnostics;
    return;
  }
  mlir::Operation *func = interp::findKernel(module, kernelName, &err);
  if (func)
    kernel = interp::Kernel::compile(func, &err);
}

Example::~Example() = default;

View makeView(int64_t rows, int64_t cols, Layout layout) {
  View v;
  v.rows = rows;
  v.cols = cols;
  switch (layout) {
  case Layout::Contiguous:
    v.rowStride = cols;
    v.colStride = 1;
    break;
  case Layout::Padded:
    v.rowStride = cols + 5;
    v.colStride = 1;
    break;
  case Layout::Transposed:
    v.rowStride = 1;
    v.colStride = rows;
    break;
  }
  v.size = (rows - 1) * v.rowStride + (cols - 1) * v.colStride + 1;
  if (layout == Layout::Padded)
    v.size += 3; // padding after the last row too
  return v;
}

const char *layoutName(Layout layout) {
  switch (layout) {
  case Layout::Contiguous:
    return "contiguous";
  case Layout::Padded:
    return "padded";
  case Layout::Transposed:
    return "transposed";
  }
  return "?";
}

Buffer &Launch::random(const std::string &name, DType t, int64_t n, uint64_t seed) {
  Buffer b = interp::makeBuffer(name, t, {n}, true);
  interp::Rng rng(seed * 7919 + 17);
  for (int64_t i = 0; i < n; ++i)
    b.set(i, rng.uniform() * 2 - 1);
  buffers[name] = memory.add(std::move(b));
  return memory[buffers[name]];
}

Buffer &Launch::output(const std::string &name, DType t, int64_t n) {
  buffers[name] = memory.add(interp::makeBuffer(name, t, {n}, false));
  return memory[buffers[name]];
}

Buffer &Launch::operator[](const std::string &name) { return memory[buffers.at(name)]; }

interp::RunResult Launch::run() {
  interp::RunResult r;
  std::vector<interp::ArgValue> args;
  for (const interp::Param &p : kernel.params()) {
    if (auto b = buffers.find(p.name); b != buffers.end())
      args.push_back(interp::ArgValue::ofBuffer(b->second));
    else if (auto s = scalars.find(p.name); s != scalars.end())
      args.push_back(s->second);
    else {
      r.ok = false;
      r.error = "the test binds no argument '" + p.name + "'";
      return r;
    }
  }
  interp::RunOptions options;
  options.showSource = false;
  if (!kernel.computeGrid(args, &options.grid, &r.error)) {
    r.ok = false;
    return r;
  }
  return kernel.run(args, memory, options);
}

std::string checkClose(double got, double want, double tol) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got) ? "" : "got " + std::to_string(got) + ", want " +
                                                           std::to_string(want);
  if (std::fabs(got - want) <= tol)
    return "";
  char buf[160];
  std::snprintf(buf, sizeof buf, "got %.9g, want %.9g (|diff| %.3g > %.3g)", got, want,
                std::fabs(got - want), tol);
  return buf;
}

} // namespace tcc::examples
