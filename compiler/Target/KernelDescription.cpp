//===- KernelDescription.cpp - a kernel's metadata from its tile IR -------===//

#include "compiler/Target/KernelDescription.h"

#include "compiler/Analysis/Cost.h"
#include "compiler/Analysis/PointerOrigin.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

using namespace mlir;

namespace tcc {
namespace {

/// "f32", "i32", "bf16", ...; empty for types a kernel parameter cannot have.
std::string scalarName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (isa<Float8E4M3FNType>(type))
    return "f8e4nv";
  if (isa<Float8E5M2Type>(type))
    return "f8e5";
  if (auto integer = dyn_cast<IntegerType>(type))
    if (llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth()))
      return "i" + std::to_string(integer.getWidth());
  return "";
}

std::string paramTypeName(Type type) {
  if (auto ptr = dyn_cast<tile::PointerType>(type)) {
    std::string element = scalarName(ptr.getPointeeType());
    return element.empty() ? "" : "*" + element;
  }
  return scalarName(type);
}

/// A constexpr's value as recorded: an integer, a boolean, a number, a string; a dtype is
/// its name.
std::optional<KernelConstexpr> constexprOf(NamedAttribute c) {
  std::string name = c.getName().str();
  Attribute value = c.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return integer.getType().isInteger(1)
               ? KernelConstexpr::boolean(name, integer.getValue().getBoolValue())
               : KernelConstexpr(name, integer.getInt());
  if (auto real = dyn_cast<FloatAttr>(value))
    return KernelConstexpr::number(name, real.getValueAsDouble());
  if (auto text = dyn_cast<StringAttr>(value))
    return KernelConstexpr::string(name, text.str());
  if (auto type = dyn_cast<TypeAttr>(value))
    return KernelConstexpr::string(name, scalarName(type.getValue()));
  return std::nullopt;
}

} // namespace

std::vector<KernelParam> kernelParams(func::FuncOp kernel, const ArgumentAssumptions &assumptions) {
  std::vector<KernelParam> params;
  for (auto [i, name] : llvm::enumerate(kernelArgumentNames(kernel))) {
    if (isa<tile::TensorMapType>(kernel.getArgumentTypes()[i]))
      continue; // a hidden parameter the launcher fills (tensorMapsOf)
    KernelParam param;
    param.name = name;
    param.type = paramTypeName(kernel.getArgumentTypes()[i]);
    if (auto it = assumptions.find(name); it != assumptions.end()) {
      param.divisibility = it->second.divisibility;
      param.equalToOne = it->second.equalToOne;
    }
    params.push_back(param);
  }
  return params;
}

std::vector<KernelTensorMap> tensorMapsOf(ArrayAttr lowered) {
  std::vector<KernelTensorMap> maps;
  auto strings = [](Attribute list) {
    std::vector<std::string> out;
    if (auto array = dyn_cast_or_null<ArrayAttr>(list))
      for (Attribute a : array)
        if (auto text = dyn_cast<StringAttr>(a))
          out.push_back(text.str());
    return out;
  };
  for (Attribute entry : lowered) {
    auto info = dyn_cast<DictionaryAttr>(entry);
    if (!info)
      continue;
    KernelTensorMap m;
    if (auto param = info.getAs<StringAttr>("param"))
      m.param = param.str();
    m.dims = strings(info.get("dims"));
    m.stridesBytes = strings(info.get("strides_bytes"));
    if (auto box = info.getAs<ArrayAttr>("box"))
      for (Attribute b : box)
        if (auto v = dyn_cast<IntegerAttr>(b))
          m.box.push_back(v.getInt());
    if (auto swizzle = info.getAs<IntegerAttr>("swizzle"))
      m.swizzle = int(swizzle.getInt());
    if (auto element = info.getAs<TypeAttr>("element"))
      m.dtype = scalarName(element.getValue());
    maps.push_back(std::move(m));
  }
  return maps;
}

KernelArtifact describeKernel(func::FuncOp kernel, const ArgumentAssumptions &assumptions,
                              const KernelDescriptionOptions &options) {
  KernelArtifact artifact;
  artifact.name = kernel.getName().str();
  artifact.params = kernelParams(kernel, assumptions);
  artifact.tensorMaps = tensorMapsOf(tile::getTensorMapsDescription(kernel));
  if (auto constexprs = kernel->getAttrOfType<DictionaryAttr>(tile::kConstexprsAttrName))
    for (NamedAttribute c : constexprs)
      if (std::optional<KernelConstexpr> value = constexprOf(c))
        artifact.constexprs.push_back(std::move(*value));
  if (auto grid = kernel->getAttrOfType<ArrayAttr>(tile::kGridAttrName))
    for (unsigned i = 0; i < 3 && i < grid.size(); ++i)
      if (auto expr = dyn_cast<StringAttr>(grid[i]))
        artifact.grid[i] = expr.str();
  // Bytes moved and FLOPs per launch (docs/artifacts.md, "cost").
  KernelCost cost = kernelCost(kernel);
  artifact.costBytes = cost.bytes;
  artifact.costFlops = cost.flops;
  // The stages its loops were pipelined for: --num-stages, else the kernel's, else 3.
  artifact.numStages = options.numStages;
  if (!artifact.numStages)
    if (auto stages = kernel->getAttrOfType<IntegerAttr>(tile::kNumStagesAttrName))
      artifact.numStages = int(stages.getInt());
  if (!artifact.numStages)
    artifact.numStages = 3;
  if (options.autotune) {
    KernelAutotune t = *options.autotune;
    // What the runtime restores around benchmarking trials: every pointer the kernel
    // writes (all of them when a store cannot be traced), and what the source names.
    std::optional<llvm::SmallVector<unsigned>> written = writtenArguments(kernel);
    t.writes.clear();
    for (auto [i, param] : llvm::enumerate(artifact.params))
      if (llvm::StringRef(param.type).starts_with("*") &&
          (!written || llvm::is_contained(*written, unsigned(i))))
        t.writes.push_back(param.name);
    t.restore = t.writes;
    for (const std::string &r : options.autotune->restore)
      if (!llvm::is_contained(t.restore, r))
        t.restore.push_back(r);
    artifact.autotune = std::move(t);
  }
  if (options.checkBounds) {
    KernelBoundsCheck check;
    for (const KernelParam &param : artifact.params)
      if (llvm::StringRef(param.type).starts_with("*"))
        check.extents.push_back(param.name);
    artifact.checkBounds = std::move(check);
  }
  artifact.source = options.source;
  artifact.compiler = options.compiler;
  return artifact;
}

} // namespace tcc
