//===- Kernel.cpp - compiling a kernel once, running its grid -------------===//

#include "compiler/Interpreter/Compiler.h"

#include "dialects/Tile/TileDialect.h"
#include "tcc/grid_expr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <climits>

using namespace mlir;

namespace tcc::interp {

struct Kernel::Impl {
  explicit Impl(std::string name) : compiler(name), name(std::move(name)) {}
  Compiler compiler; // owns the slots and sites the instructions point to
  std::string name;
  std::vector<Param> params;
  std::vector<Slot> paramSlots;
  std::array<std::string, 3> grid = {"1", "1", "1"};
  InstList body;
};

Kernel::Kernel(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Kernel::~Kernel() = default;

const std::string &Kernel::name() const { return impl->name; }
const std::vector<Param> &Kernel::params() const { return impl->params; }
const std::array<std::string, 3> &Kernel::gridExprs() const { return impl->grid; }

std::unique_ptr<Kernel> Kernel::compile(Operation *op, std::string *error) {
  auto func = dyn_cast_or_null<func::FuncOp>(op);
  if (!func || func.isExternal() || !func.getBody().hasOneBlock()) {
    *error = "the interpreter runs a func.func with a body of one block";
    return nullptr;
  }
  auto impl = std::make_unique<Impl>(func.getSymName().str());
  Compiler &c = impl->compiler;
  auto names = func->getAttrOfType<ArrayAttr>(tile::kArgNamesAttrName);
  Block &entry = func.getBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    Param p;
    unsigned i = arg.getArgNumber();
    if (names && i < names.size() && isa<StringAttr>(names[i]))
      p.name = cast<StringAttr>(names[i]).str();
    else
      p.name = "arg" + std::to_string(i);
    if (isa<RankedTensorType>(arg.getType()) || !c.dtypeOf(arg.getType(), &p.type, &p.pointee)) {
      c.fail(func, "parameter '" + p.name + "' has a type the interpreter cannot pass");
      *error = c.error;
      return nullptr;
    }
    impl->params.push_back(p);
    impl->paramSlots.push_back(c.slot(arg));
  }
  if (auto grid = func->getAttrOfType<ArrayAttr>(tile::kGridAttrName))
    for (unsigned i = 0; i < 3 && i < grid.size(); ++i)
      if (auto s = dyn_cast<StringAttr>(grid[i]))
        impl->grid[i] = s.str();
  if (!c.emitBlock(entry, impl->body)) {
    *error = c.error;
    return nullptr;
  }
  return std::unique_ptr<Kernel>(new Kernel(std::move(impl)));
}

/// The device the interpreter pretends to be, for num_sms and occupancy in grids.
constexpr int64_t kInterpreterSms = 1, kInterpreterOccupancy = 1;

bool Kernel::computeGrid(const std::vector<ArgValue> &args, std::array<int64_t, 3> *grid,
                         std::string *error) const {
  std::vector<int64_t> values;
  for (size_t i = 0; i < impl->params.size(); ++i)
    values.push_back(i < args.size() ? args[i].i : 0);
  // The grid's device symbols: the interpreter is one SM running one program at a time, so a
  // persistent kernel (grid = min(num_sms * occupancy, rows)) gets one program that loops
  // over every row.
  size_t deviceSlot = values.size();
  values.push_back(kInterpreterSms);
  values.push_back(kInterpreterOccupancy);
  for (int axis = 0; axis < 3; ++axis) {
    tcc::grid::Expr e;
    if (!tcc::grid::parse(impl->grid[size_t(axis)], &e, error))
      return false;
    auto slotOf = [&](const std::string &name) -> int {
      for (size_t i = 0; i < impl->params.size(); ++i)
        if (impl->params[i].name == name && isInt(impl->params[i].type))
          return int(i);
      for (size_t i = 0; i < impl->params.size(); ++i)
        if (impl->params[i].name == name)
          return -1; // a parameter that is not an integer
      if (name == "num_sms" || name == "occupancy")
        return int(deviceSlot) + (name == "occupancy");
      return -1;
    };
    if (!tcc::grid::bind(&e, slotOf, error))
      return false;
    for (const std::string &name : tcc::grid::names(e)) {
      int i = slotOf(name);
      if (i >= int(deviceSlot))
        continue;
      if (size_t(i) >= args.size() || args[size_t(i)].kind != ArgValue::Kind::Int) {
        *error = "the grid needs integer argument '" + name + "'";
        return false;
      }
    }
    if (!tcc::grid::evaluate(e, values.data(), &(*grid)[size_t(axis)], error))
      return false;
  }
  return true;
}

/// Checks one argument against its parameter and writes it into the parameter's slot.
static bool bindArg(const Param &p, const ArgValue &a, const Slot &s, const Memory &memory,
                    std::string *error) {
  auto fail = [&](const std::string &msg) {
    *error = "argument '" + p.name + "': " + msg;
    return false;
  };
  if (p.type == DType::Ptr) {
    if (a.kind != ArgValue::Kind::Buffer || a.buffer < 0 || a.buffer >= memory.size())
      return fail(std::string("the kernel expects a buffer (*") + dtypeName(p.pointee) + ")");
    const Buffer &b = memory[a.buffer];
    if (b.dtype != p.pointee)
      return fail("buffer '" + b.name + "' holds " + dtypeName(b.dtype) + ", the kernel expects *" +
                  dtypeName(p.pointee));
    PtrVal v{0, a.buffer};
    std::memcpy(s.data, &v, sizeof v);
    return true;
  }
  if (a.kind == ArgValue::Kind::Buffer)
    return fail(std::string("the kernel expects a scalar ") + dtypeName(p.type) + ", not a buffer");
  if (isInt(p.type)) {
    if (a.kind != ArgValue::Kind::Int)
      return fail(std::string("the kernel expects an integer (") + dtypeName(p.type) + ")");
    unsigned w = intWidth(p.type);
    if (w < 64 && w > 1 &&
        (a.i < -(int64_t(1) << (w - 1)) || a.i >= (int64_t(1) << (w - 1))))
      return fail(std::to_string(a.i) + " does not fit in " + dtypeName(p.type));
    elementFromInt(p.type, a.i, s.data);
    return true;
  }
  elementFromDouble(p.type, a.kind == ArgValue::Kind::Int ? double(a.i) : a.f, s.data);
  return true;
}

RunResult Kernel::run(const std::vector<ArgValue> &args, Memory &memory,
                      const RunOptions &options) {
  RunResult r;
  auto fail = [&](const std::string &msg) {
    r.ok = false;
    r.error = "tcc: error: kernel '" + impl->name + "': " + msg + "\n";
    return r;
  };
  if (args.size() != impl->params.size())
    return fail("takes " + std::to_string(impl->params.size()) + " arguments, got " +
                std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    std::string err;
    if (!bindArg(impl->params[i], args[i], impl->paramSlots[i], memory, &err))
      return fail(err);
  }
  for (int64_t g : options.grid)
    if (g < 0 || g > INT32_MAX)
      return fail("grid dimension " + std::to_string(g) + " is out of range");

  ExecState st;
  st.memory = &memory;
  st.options = &options;
  for (int64_t i = 0; i < memory.size(); ++i) {
    Buffer &b = memory[i];
    st.buffers.push_back({b.bytes.data(), b.init.data(), int64_t(b.bytes.size()),
                          int64_t(b.elementSize()), &b.name});
  }
  for (int d = 0; d < 3; ++d)
    st.nprog[d] = int32_t(options.grid[size_t(d)]);
  for (int32_t z = 0; z < st.nprog[2]; ++z)
    for (int32_t y = 0; y < st.nprog[1]; ++y)
      for (int32_t x = 0; x < st.nprog[0]; ++x) {
        st.pid[0] = x;
        st.pid[1] = y;
        st.pid[2] = z;
        runList(impl->body, st);
        if (st.failed) {
          r.ok = false;
          r.error = st.error;
          r.warnings = st.warnings;
          return r;
        }
        ++r.programsRun;
      }
  r.warnings = st.warnings;
  return r;
}

Operation *findKernel(Operation *module, const std::string &name, std::string *error) {
  std::vector<func::FuncOp> kernels, all;
  module->walk([&](func::FuncOp f) {
    all.push_back(f);
    if (tile::isKernel(f))
      kernels.push_back(f);
  });
  if (!name.empty()) {
    for (func::FuncOp f : all)
      if (f.getSymName() == name)
        return f;
    *error = "no kernel named '" + name + "'";
    if (!kernels.empty()) {
      *error += "; kernels here:";
      for (func::FuncOp f : kernels)
        *error += " " + f.getSymName().str();
    }
    return nullptr;
  }
  if (kernels.size() == 1)
    return kernels.front();
  if (kernels.empty() && all.size() == 1)
    return all.front();
  if (kernels.empty()) {
    *error = "no function carries tile.kernel";
    return nullptr;
  }
  *error = "several kernels; choose one with --kernel:";
  for (func::FuncOp f : kernels)
    *error += " " + f.getSymName().str();
  return nullptr;
}

} // namespace tcc::interp
