//===- SpecializeArguments.cpp - tile-specialize-arguments ----------------===//
//
// The argument assumptions of one variant (SpecializeArguments.h) and the pass that applies
// them. The driver runs the pass first in each variant's pipeline; AxisInfo then reads the
// attributes (divisibility) and the constants (a unit stride) like any other fact.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/SpecializeArguments.h"

#include "compiler/Analysis/AxisInfo.h"
#include "compiler/Analysis/InnerStrides.h"
#include "compiler/Analysis/PointerOrigin.h"
#include "compiler/Transforms/Passes.h"
#include "compiler/Transforms/VersionSigns.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"

namespace tcc {
#define GEN_PASS_DEF_TILESPECIALIZEARGUMENTS
#include "compiler/Transforms/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace tcc {

SmallVector<std::string> kernelArgumentNames(func::FuncOp kernel) {
  SmallVector<std::string> names;
  auto attr = kernel->getAttrOfType<ArrayAttr>(tile::kArgNamesAttrName);
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    auto name = attr && i < attr.size() ? dyn_cast<StringAttr>(attr[i]) : StringAttr();
    names.push_back(name ? name.str() : "arg" + std::to_string(i));
  }
  return names;
}

bool parseArgumentAssumptions(ArrayRef<std::string> entries, StringRef what,
                              ArgumentAssumptions *out, std::string *error) {
  for (const std::string &entry : entries) {
    SmallVector<StringRef> items;
    StringRef(entry).split(items, ',', -1, /*KeepEmpty=*/false);
    for (StringRef item : items) {
      auto [name, value] = item.split('=');
      name = name.trim();
      value = value.trim();
      ArgumentAssumption a;
      int64_t d = 0;
      if (!name.empty() && value == "eq1") {
        a.equalToOne = true;
      } else if (!name.empty() && !value.getAsInteger(10, d) && d > 0 && !(d & (d - 1))) {
        a.divisibility = d;
      } else {
        *error = "invalid " + what.str() + " '" + item.str() +
                 "': expected NAME=D with D a power of two (such as x=16) or NAME=eq1 (an "
                 "integer equal to 1, such as stride_n=eq1)";
        return false;
      }
      (*out)[name.str()] = a;
    }
  }
  return true;
}

bool resolveArgumentAssumptions(func::FuncOp kernel, const ArgumentAssumptions &requested,
                                bool all, StringRef what, ArgumentAssumptions *resolved,
                                std::string *error) {
  SmallVector<std::string> names = kernelArgumentNames(kernel);
  std::string kernelName = kernel.getName().str();
  for (auto &[name, a] : requested)
    if (!llvm::is_contained(names, name)) {
      *error = what.str() + " names '" + name + "', which is not a parameter of kernel '" +
               kernelName + "'";
      return false;
    }
  for (auto [i, name] : llvm::enumerate(names)) {
    Type type = kernel.getArgumentTypes()[i];
    ArgumentAssumption a;
    if (all && (isa<tile::PointerType>(type) || type.isInteger(32) || type.isInteger(64)))
      a.divisibility = 16;
    if (auto it = requested.find(name); it != requested.end())
      a = it->second;
    if (a.divisibility > 1 && !isa<tile::PointerType, IntegerType>(type)) {
      *error = what.str() + ": parameter '" + name + "' of kernel '" + kernelName +
               "' is not a pointer or an integer";
      return false;
    }
    if (a.equalToOne && !isSpecialisableInteger(type)) {
      *error = what.str() + " " + name + "=eq1: parameter '" + name + "' of kernel '" +
               kernelName + "' is not an integer (i8..i64)";
      return false;
    }
    if (a.divisibility > 1 || a.equalToOne)
      (*resolved)[name] = a;
  }
  return true;
}

void applyArgumentAssumptions(func::FuncOp kernel, const ArgumentAssumptions &assumptions) {
  SmallVector<std::string> names = kernelArgumentNames(kernel);
  Builder b(kernel.getContext());
  for (auto [i, name] : llvm::enumerate(names)) {
    auto it = assumptions.find(name);
    if (it == assumptions.end())
      continue;
    if (it->second.divisibility > 1)
      kernel.setArgAttr(i, tile::kDivisibilityAttrName,
                        b.getI32IntegerAttr(int32_t(it->second.divisibility)));
    if (it->second.equalToOne && !kernel.isExternal()) {
      kernel.setArgAttr(i, tile::kEqualToAttrName, b.getI32IntegerAttr(1));
      BlockArgument arg = kernel.getArgument(i);
      OpBuilder builder = OpBuilder::atBlockBegin(&kernel.getBody().front());
      Value one = arith::ConstantOp::create(builder, arg.getLoc(),
                                            b.getIntegerAttr(arg.getType(), 1));
      arg.replaceAllUsesWith(one);
    }
  }
}

namespace {

/// What the code generated for `kernel` under `assumptions` can know about its values,
/// flattened in walk order: each integer, boolean and pointer value's contiguity and
/// constancy, a pointer's divisibility, and a constant's value. An integer's own
/// divisibility is not listed: it matters only through what it makes of these (a pointer's
/// alignment, a mask's constancy, a remainder's contiguity).
std::vector<int64_t> valueFacts(func::FuncOp kernel, const ArgumentAssumptions &assumptions) {
  func::FuncOp probe = kernel.clone();
  applyArgumentAssumptions(probe, assumptions);
  // As the pipeline will: a version that knows its divisions' signs, where that gains.
  (void)versionOnSigns(probe);
  std::vector<int64_t> facts;
  {
    AxisInfoAnalysis axis(probe);
    auto record = [&](Value v) {
      AxisInfo info = axis.getAxisInfo(v);
      if (!info.isInitialized())
        return;
      facts.insert(facts.end(), info.contiguity.begin(), info.contiguity.end());
      facts.insert(facts.end(), info.constancy.begin(), info.constancy.end());
      Type element = v.getType();
      if (auto shaped = dyn_cast<ShapedType>(element))
        element = shaped.getElementType();
      if (isa<tile::PointerType>(element))
        facts.insert(facts.end(), info.divisibility.begin(), info.divisibility.end());
      std::optional<int64_t> constant = info.getConstantValue();
      facts.push_back(constant.has_value());
      facts.push_back(constant.value_or(0));
    };
    probe.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            record(arg);
      for (Value result : op->getResults())
        record(result);
    });
  }
  probe.erase();
  return facts;
}

} // namespace

std::vector<ArgumentAssumptions> deriveArgumentVariants(func::FuncOp kernel) {
  std::vector<ArgumentAssumptions> sets(1);
  ArgumentAssumptions aligned;
  std::string error;
  // Nothing requested: resolving cannot fail.
  (void)resolveArgumentAssumptions(kernel, {}, /*all=*/true, "--variants=auto", &aligned,
                                   &error);
  SmallVector<std::string> names = kernelArgumentNames(kernel);
  // Integers whose value reaches no address, mask or control are left out at once; the
  // others one at a time, where the facts stay the same without them.
  SmallVector<unsigned> addressing = addressingArguments(kernel);
  for (auto [i, arg] : llvm::enumerate(kernel.getArguments()))
    if (isa<IntegerType>(arg.getType()) && !llvm::is_contained(addressing, unsigned(i)))
      aligned.erase(names[i]);
  if (llvm::any_of(addressing, [&](unsigned i) { return aligned.count(names[i]); })) {
    std::vector<int64_t> facts = valueFacts(kernel, aligned);
    for (unsigned i : addressing) {
      auto it = aligned.find(names[i]);
      if (it == aligned.end())
        continue;
      ArgumentAssumptions without = aligned;
      without.erase(names[i]);
      if (valueFacts(kernel, without) == facts)
        aligned = std::move(without);
    }
  }
  if (!aligned.empty())
    sets.push_back(aligned);
  // The inner strides as the aligned variant sees them: its divisibilities keep addresses
  // contiguous that the general kernel cannot show to be (Triton's `(... + arange) % N`
  // is contiguous in runs of N's divisor, in the version of the kernel that knows the
  // signs: tile-version-signs).
  func::FuncOp probe = kernel.clone();
  applyArgumentAssumptions(probe, aligned);
  (void)versionOnSigns(probe);
  SmallVector<unsigned> strides = innerStrideArguments(probe);
  probe.erase();
  if (!strides.empty()) {
    ArgumentAssumptions unit = aligned;
    for (unsigned i : strides)
      unit[names[i]] = ArgumentAssumption{1, true};
    // A kernel with a dot keeps the unit-stride set in place of the aligned one: operands
    // whose inner strides are multiples of 16 but not 1 (every 16th column) are gathered
    // element by element in either, and each image of a dot kernel is 60-100 ms of
    // compilation (two architectures each).
    bool hasDot = false;
    kernel.walk([&](tile::DotOp) {
      hasDot = true;
      return WalkResult::interrupt();
    });
    if (hasDot && sets.size() > 1)
      sets.pop_back();
    sets.push_back(unit);
  }
  return sets;
}

std::string describeArgumentAssumptions(func::FuncOp kernel,
                                        const ArgumentAssumptions &assumptions) {
  std::string s;
  for (const std::string &name : kernelArgumentNames(kernel)) {
    auto it = assumptions.find(name);
    if (it == assumptions.end())
      continue;
    s += (s.empty() ? "" : ", ") + name +
         (it->second.equalToOne ? "==1" : "%" + std::to_string(it->second.divisibility));
  }
  return s.empty() ? "general" : s;
}

SmallVector<std::string> formatArgumentAssumptions(const ArgumentAssumptions &assumptions) {
  SmallVector<std::string> entries;
  for (auto &[name, a] : assumptions)
    entries.push_back(name + "=" + (a.equalToOne ? std::string("eq1")
                                                 : std::to_string(a.divisibility)));
  return entries;
}

} // namespace tcc

namespace {

struct TileSpecializeArguments
    : tcc::impl::TileSpecializeArgumentsBase<TileSpecializeArguments> {
  using TileSpecializeArgumentsBase::TileSpecializeArgumentsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    tcc::ArgumentAssumptions requested;
    SmallVector<std::string> entries(assume.begin(), assume.end());
    if (!tcc::parseArgumentAssumptions(entries, "assumption", &requested, &error)) {
      module.emitError() << "tile-specialize-arguments: " << error;
      return signalPassFailure();
    }
    bool found = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!tile::isKernel(func) || (!kernel.empty() && func.getName() != kernel))
        continue;
      found = true;
      tcc::ArgumentAssumptions resolved;
      if (!tcc::resolveArgumentAssumptions(func, requested, all, "assumption", &resolved,
                                           &error)) {
        func.emitError() << "tile-specialize-arguments: " << error;
        return signalPassFailure();
      }
      tcc::applyArgumentAssumptions(func, resolved);
    }
    if (!kernel.empty() && !found) {
      module.emitError() << "tile-specialize-arguments: no kernel named '" << kernel << "'";
      return signalPassFailure();
    }
  }
};

} // namespace
