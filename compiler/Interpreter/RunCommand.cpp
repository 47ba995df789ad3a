//===- RunCommand.cpp - `tcc run --interpret` behind the command line -----===//

#include "compiler/Interpreter/RunCommand.h"
#include "compiler/Interpreter/ArgSpec.h"
#include "compiler/Interpreter/Format.h"
#include "compiler/Interpreter/Npy.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

namespace tcc::interp {

bool parseGrid(const std::string &text, std::array<int64_t, 3> *grid, std::string *error) {
  std::vector<int64_t> dims;
  if (!parseShape(text, &dims) || dims.size() > 3) {
    *error = "--grid '" + text + "': expected X, X,Y or X,Y,Z (non-negative integers)";
    return false;
  }
  *grid = {1, 1, 1};
  for (size_t i = 0; i < dims.size(); ++i)
    (*grid)[i] = dims[i];
  return true;
}

namespace {

std::string paramType(const Param &p) {
  return p.type == DType::Ptr ? std::string("*") + dtypeName(p.pointee) : dtypeName(p.type);
}

/// "x: *f32, n: i32" and an example command line for the missing ones.
std::string signature(const Kernel &k) {
  std::string s;
  for (const Param &p : k.params())
    s += (s.empty() ? "" : ", ") + p.name + ": " + paramType(p);
  return k.name() + "(" + s + ")";
}

std::string exampleArg(const Param &p) {
  if (p.type == DType::Ptr)
    return p.name + "=rand:1024";
  return p.name + (isFloat(p.type) ? "=1.0" : "=1024");
}

std::string describeBuffer(const Buffer &b, int64_t limit) {
  std::string s = b.name + ": " + dtypeName(b.dtype) + shapeString(b.shape) + " = " +
                  formatTile(b.dtype, b.shape, b.bytes.data(), limit);
  int64_t unwritten = 0;
  for (uint8_t f : b.init)
    unwritten += f == 0;
  if (unwritten)
    s += "  (" + std::to_string(unwritten) + " of " + std::to_string(b.numel()) +
         " elements never written)";
  return s;
}

} // namespace

int runInterpreted(mlir::Operation *module, const RunRequest &request, llvm::raw_ostream &out,
                   llvm::raw_ostream &err) {
  std::string error;
  auto fail = [&](const std::string &msg) {
    err << "tcc: error: " << msg << "\n";
    return 1;
  };
  mlir::Operation *func = findKernel(module, request.kernel, &error);
  if (!func)
    return fail(error);
  std::unique_ptr<Kernel> kernel = Kernel::compile(func, &error);
  if (!kernel) {
    err << error;
    return 1;
  }

  // Arguments, by name, in the kernel's parameter order.
  const std::vector<Param> &params = kernel->params();
  std::vector<std::optional<ArgSpec>> specs(params.size());
  for (const std::string &text : request.args) {
    ArgSpec spec;
    if (!parseArgSpec(text, &spec, &error))
      return fail(error);
    size_t i = 0;
    while (i < params.size() && params[i].name != spec.name)
      ++i;
    if (i == params.size())
      return fail("'" + spec.name + "' is not a parameter of " + signature(*kernel));
    if (specs[i])
      return fail("'" + spec.name + "' is given twice");
    specs[i] = spec;
  }
  std::string missing, example;
  for (size_t i = 0; i < params.size(); ++i)
    if (!specs[i]) {
      missing += (missing.empty() ? "" : ", ") + params[i].name;
      example += " --arg " + exampleArg(params[i]);
    }
  if (!missing.empty())
    return fail("missing arguments: " + missing + " of " + signature(*kernel) + "\n  e.g." +
                example + "\n  (an output buffer: NAME=empty:SHAPE; docs/interpreter.md)");

  Memory memory;
  std::vector<ArgValue> args(params.size());
  std::vector<bool> isOutput(params.size(), false);
  for (size_t i = 0; i < params.size(); ++i) {
    if (!materializeArg(*specs[i], params[i], request.seed, memory, &args[i], &error))
      return fail(error);
    isOutput[i] = specs[i]->kind == ArgSpec::Kind::Empty;
  }

  RunOptions options;
  options.uninitReads = request.uninit;
  options.printLimit = request.printLimit;
  options.printSink = [&](const std::string &line) { out << line << "\n"; };
  options.warningSink = [&](const std::string &text) { err << text << "\n"; };
  if (request.grid) {
    options.grid = *request.grid;
  } else if (!kernel->computeGrid(args, &options.grid, &error)) {
    return fail(error + " (pass --grid X,Y,Z)");
  }
  if (request.verbose)
    err << "running " << signature(*kernel) << " on a " << options.grid[0] << "x"
        << options.grid[1] << "x" << options.grid[2] << " grid\n";

  auto start = std::chrono::steady_clock::now();
  RunResult result = kernel->run(args, memory, options);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.flush();
  if (!result.ok) {
    err << result.error;
    return 1;
  }
  if (request.verbose)
    err << result.programsRun << " programs in " << llvm::format("%.3f", seconds) << " s\n";

  // Outputs: the requested buffers, or every buffer made with empty:.
  if (!request.printNothing) {
    for (size_t i = 0; i < params.size(); ++i) {
      if (args[i].kind != ArgValue::Kind::Buffer)
        continue;
      bool wanted = request.print.empty() ? isOutput[i] : false;
      for (const std::string &name : request.print)
        wanted = wanted || name == params[i].name;
      if (wanted)
        out << describeBuffer(memory[args[i].buffer], request.printLimit) << "\n";
    }
    for (const std::string &name : request.print)
      if (memory.find(name) < 0)
        return fail("--print " + name + ": no buffer of that name");
  }
  for (const auto &[name, path] : request.save) {
    int64_t b = memory.find(name);
    if (b < 0)
      return fail("--save " + name + ": no buffer of that name");
    if (!writeNpy(path, memory[b], &error))
      return fail(error);
  }
  if (result.warnings)
    err << "warning: " << result.warnings << " reads of uninitialised memory\n";
  return 0;
}

} // namespace tcc::interp
