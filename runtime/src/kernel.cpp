#include "kernel_internal.h"
#include "tcc/cubin.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>

namespace tcc {

int detail::expressionSlot(const KernelMetadata& m, const std::string& name) {
  for (size_t i = 0; i < m.params.size(); ++i)
    if (m.params[i].name == name)
      return static_cast<int>(i);
  for (size_t i = 0; i < m.constexprs.size(); ++i)
    if (m.constexprs[i].first == name)
      return static_cast<int>(m.params.size() + i);
  return -1;
}

std::string Arg::describe() const {
  switch (kind_) {
  case Kind::Pointer:
    return "a pointer";
  case Kind::Bool:
    return std::string("a bool (") + (i_ ? "true" : "false") + ")";
  case Kind::Signed:
    return "a signed integer (" + std::to_string(i_) + ")";
  case Kind::Unsigned:
    return "an unsigned integer (" + std::to_string(u_) + ")";
  case Kind::Float32:
    return "a float (" + std::to_string(f_) + ")";
  case Kind::Float64:
    return "a double (" + std::to_string(d_) + ")";
  }
  return "?";
}

Kernel::Kernel(std::string name, std::vector<KernelMetadata> metas, std::vector<std::string> images,
               std::vector<std::string> ptxs)
    : name_(std::move(name)), contextOrders_(std::make_unique<ContextOrders>()) {
  // Architecture-specific variants (sm_90a) first, for the devices they run on; then by
  // architecture, newest first; then the most specialised first; among equals, the order
  // the files were found in.
  std::vector<size_t> order(metas.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (metas[a].archSpecific != metas[b].archSpecific)
      return metas[a].archSpecific;
    if (metas[a].archNumber != metas[b].archNumber)
      return metas[a].archNumber > metas[b].archNumber;
    return metas[a].specialisationScore() > metas[b].specialisationScore();
  });
  images.resize(metas.size());
  ptxs.resize(metas.size());
  const KernelMetadata& ref = metas[order.front()];
  for (size_t idx : order) {
    const KernelMetadata& m = metas[idx];
    bool same = m.params.size() == ref.params.size();
    for (size_t i = 0; same && i < m.params.size(); ++i)
      same = m.params[i].name == ref.params[i].name && m.params[i].type == ref.params[i].type;
    if (!same)
      throw Error("loading the variants of " + name_,
                  m.origin + " and " + ref.origin + " have different parameters", name_);
    for (const KernelMetadata& prev : metas_) {
      bool dup = m.arch == prev.arch;
      for (size_t i = 0; i < m.params.size(); ++i)
        dup = dup && m.params[i].divisibility == prev.params[i].divisibility &&
              m.params[i].equalToOne == prev.params[i].equalToOne;
      if (dup)
        throw Error("loading the variants of " + name_,
                    m.origin + " and " + prev.origin + " are the same specialisation (" +
                        m.specialisationString() + ")",
                    name_);
    }
    auto v = std::make_unique<Variant>();
    v->image = std::move(images[idx]);
    v->ptx = std::move(ptxs[idx]);
    v->hasCubin = !v->image.empty() || !m.cubinPath.empty();
    // A PTX file named in the metadata counts only if it is there: without it, a cubin that
    // cannot run on the device gives its own error.
    std::error_code ec;
    v->hasPtx = !v->ptx.empty() || (!m.ptxPath.empty() && std::filesystem::exists(m.ptxPath, ec));
    if (!v->hasCubin && !v->hasPtx)
      throw Error("loading the variants of " + name_,
                  m.origin + " has neither a cubin nor its PTX (" + m.ptxPath + " is missing)",
                  name_);
    // Slots: the parameters in order, then the constexprs.
    auto slotOf = [&](const std::string& n) -> int {
      if (int slot = detail::expressionSlot(m, n); slot >= 0)
        return slot;
      // The device's symbols (docs/ir.md), after them: filled in at launch.
      if (n == "num_sms" || n == "occupancy") {
        v->usesDeviceSymbols = true;
        return static_cast<int>(m.params.size() + m.constexprs.size()) + (n == "occupancy");
      }
      return -1;
    };
    for (int d = 0; d < 3; ++d) {
      std::string err;
      if (!grid::parse(m.grid[d], &v->grid[d], &err) || !grid::bind(&v->grid[d], slotOf, &err))
        throw Error("reading the grid of " + m.origin, err, name_);
    }
    if (!m.tensorMaps.empty())
      v->tensorMaps = std::make_unique<detail::TensorMaps>(m.tensorMaps, m.params, slotOf, name_);
    metas_.push_back(m);
    variants_.push_back(std::move(v));
  }
  if (metas_.back().specialisationScore() != 0)
    throw Error("loading the variants of " + name_,
                "no general variant (one without assumptions on its arguments) among " +
                    std::to_string(metas_.size()) + " variants of " + metas_.front().configString(),
                name_);
  for (size_t i = 1; i < metas_.size(); ++i)
    deviceDependent_ = deviceDependent_ || metas_[i].archNumber != metas_[0].archNumber ||
                       metas_[i].archSpecific != metas_[0].archSpecific ||
                       variants_[i]->hasCubin != variants_[0]->hasCubin ||
                       variants_[i]->hasPtx != variants_[0]->hasPtx;
}

Kernel::~Kernel() = default;

size_t Kernel::marshal(const Arg* args, size_t count, Marshalled* out) const {
  const std::vector<ParamInfo>& ps = params();
  if (count != ps.size()) {
    std::string sig;
    for (size_t i = 0; i < ps.size(); ++i)
      sig += (i ? ", " : "") + ps[i].name + ": " + ps[i].type;
    throw Error("checking the arguments",
                "expects " + std::to_string(ps.size()) + " argument" + (ps.size() == 1 ? "" : "s") +
                    " (" + sig + "), got " + std::to_string(count),
                name_);
  }
  size_t nslots = ps.size() + metas_.front().constexprs.size() + 2; // + num_sms, occupancy
  if (ps.size() > Marshalled::kInline || nslots > 2 * Marshalled::kInline) {
    out->storageHeap.resize(ps.size());
    out->pointersHeap.resize(ps.size());
    out->slotsHeap.resize(nslots);
    out->storage = out->storageHeap.data();
    out->pointers = out->pointersHeap.data();
    out->slots = out->slotsHeap.data();
  }
  for (size_t i = 0; i < ps.size(); ++i) {
    const ParamInfo& p = ps[i];
    const Arg& a = args[i];
    auto bad = [&](const std::string& why) {
      return Error("checking the arguments",
                   "argument " + std::to_string(i) + " ('" + p.name + "', " + p.type + ") " + why,
                   name_);
    };
    uint64_t bits = 0;
    int64_t slot = 0;
    if (p.isPointer) {
      if (a.kind() != Arg::Kind::Pointer)
        throw bad("must be a device pointer (CUdeviceptr or T*), got " + a.describe());
      bits = a.asUnsigned();
    } else if (p.elementKind == ScalarKind::Int) {
      int64_t v;
      if (a.kind() == Arg::Kind::Signed || a.kind() == Arg::Kind::Bool) {
        v = a.asSigned();
      } else if (a.kind() == Arg::Kind::Unsigned) {
        if (a.asUnsigned() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
          throw bad("is out of range: got " + a.describe());
        v = static_cast<int64_t>(a.asUnsigned());
      } else {
        throw bad("must be an integer, got " + a.describe());
      }
      int64_t lo, hi;
      if (p.elementBits == 1) {
        lo = 0;
        hi = 1;
      } else if (p.elementBits == 64) {
        lo = std::numeric_limits<int64_t>::min();
        hi = std::numeric_limits<int64_t>::max();
      } else {
        hi = (int64_t(1) << (p.elementBits - 1)) - 1;
        lo = -hi - 1;
      }
      if (v < lo || v > hi)
        throw bad("is out of range: got " + a.describe());
      slot = v;
      switch (p.elementBits) {
      case 1:
      case 8: {
        int8_t x = static_cast<int8_t>(v);
        std::memcpy(&bits, &x, sizeof x);
        break;
      }
      case 16: {
        int16_t x = static_cast<int16_t>(v);
        std::memcpy(&bits, &x, sizeof x);
        break;
      }
      case 32: {
        int32_t x = static_cast<int32_t>(v);
        std::memcpy(&bits, &x, sizeof x);
        break;
      }
      default:
        std::memcpy(&bits, &v, sizeof v);
      }
    } else if (p.elementBits == 16) {
      // f16 / bf16 scalars travel as their raw bits.
      bool isInt = a.kind() == Arg::Kind::Signed || a.kind() == Arg::Kind::Unsigned;
      int64_t v = a.kind() == Arg::Kind::Unsigned
                      ? (a.asUnsigned() > 0xffff ? -1 : static_cast<int64_t>(a.asUnsigned()))
                      : a.asSigned();
      if (!isInt || v < 0 || v > 0xffff)
        throw bad("must be given as its raw 16 bits (uint16_t), got " + a.describe());
      uint16_t x = static_cast<uint16_t>(v);
      std::memcpy(&bits, &x, sizeof x);
    } else {
      double v;
      if (a.kind() == Arg::Kind::Float32)
        v = a.asFloat();
      else if (a.kind() == Arg::Kind::Float64)
        v = a.asDouble();
      else
        throw bad("must be a float or double, got " + a.describe());
      if (p.elementBits == 32) {
        float x = static_cast<float>(v);
        std::memcpy(&bits, &x, sizeof x);
      } else {
        std::memcpy(&bits, &v, sizeof v);
      }
    }
    out->storage[i] = bits;
    out->pointers[i] = &out->storage[i];
    out->slots[i] = slot;
  }
  const auto& cs = metas_.front().constexprs;
  for (size_t i = 0; i < cs.size(); ++i)
    out->slots[ps.size() + i] = cs[i].second.asInt(); // grids use integer constexprs only

  // The first variant, in the order of how it runs on the device (launchOrder), whose
  // assumptions hold and whose TMA tensor maps, if any, can take the arguments (an aligned
  // base, strides that are multiples of 16, ...: docs/artifacts.md); where none does, the
  // general one of the oldest architecture (last), whose load or tensor maps then say why it
  // cannot run.
  for (size_t v : order()) {
    bool ok = true;
    const std::vector<ParamInfo>& vp = metas_[v].params;
    for (size_t i = 0; ok && i < vp.size(); ++i) {
      int64_t d = vp[i].divisibility;
      if (vp[i].equalToOne) {
        ok = out->slots[i] == 1; // integers only (checked when the metadata was read)
        continue;
      }
      if (d <= 1)
        continue;
      uint64_t value = vp[i].isPointer ? out->storage[i] : static_cast<uint64_t>(out->slots[i]);
      ok = (value & static_cast<uint64_t>(d - 1)) == 0; // d is a power of two
    }
    if (ok && variants_[v]->tensorMaps)
      ok = variants_[v]->tensorMaps->evaluate(out->slots, out->storage, &out->tensorMaps).empty();
    if (ok)
      return v;
  }
  const size_t last = metas_.size() - 1;
  if (variants_[last]->tensorMaps)
    out->tensorMapProblem =
        variants_[last]->tensorMaps->evaluate(out->slots, out->storage, &out->tensorMaps);
  return last;
}

std::vector<size_t> Kernel::orderFor(int deviceArch) const {
  std::vector<std::pair<LoadRank, size_t>> ranked;
  for (size_t v = 0; v < metas_.size(); ++v) {
    LoadRank r = deviceArch < 0 ? LoadRank::ExactCubin
                                : detail::rankOnDevice(metas_[v].archNumber,
                                                       metas_[v].archSpecific,
                                                       variants_[v]->hasCubin,
                                                       variants_[v]->hasPtx, deviceArch);
    if (r != LoadRank::CannotRun)
      ranked.emplace_back(r, v);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<size_t> order;
  for (const auto& r : ranked)
    order.push_back(r.second);
  return order;
}

const std::vector<size_t>& Kernel::order() const {
  // Without a driver or a device (plan() on a CPU machine), or where every variant runs
  // wherever one does, every variant is a candidate.
  if (!deviceDependent_ || !driverAvailable()) {
    std::call_once(anyOrderOnce_, [this] { anyOrder_ = orderFor(-1); });
    return anyOrder_;
  }
  const CUcontext context = ensureContext();
  return *contextOrders_->get(context, [this]() -> const std::vector<size_t>* {
    const int arch = deviceComputeCapability(); // of the context just made current
    std::lock_guard<std::mutex> lock(orderMutex_);
    for (const auto& [a, o] : ordersByArch_)
      if (a == arch)
        return o.get();
    ordersByArch_.emplace_back(arch, std::make_unique<std::vector<size_t>>(orderFor(arch)));
    return ordersByArch_.back().second.get();
  });
}

std::vector<size_t> Kernel::launchOrder() const {
  if (tuning_)
    return tuning_->configs.front()->launchOrder();
  return order();
}

void Kernel::fillDeviceSymbols(size_t v, Marshalled& m) const {
  Variant& var = *variants_[v];
  if (!var.usesDeviceSymbols)
    return;
  size_t at = params().size() + metas_.front().constexprs.size();
  std::string why;
  if (!driverAvailable(&why))
    throw Error("computing the grid",
                "the grid uses num_sms or occupancy, which need a GPU (" + why + ")", name_);
  const Driver& d = driver();
  int sms = 0;
  check(d.cuDeviceGetAttribute(&sms, cu::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                               currentDevice()),
        "querying the number of SMs", name_);
  // Of the variant being launched, on this context's device: its registers and shared
  // memory decide.
  VariantLoad& loaded = const_cast<Kernel*>(this)->ensureLoaded(v);
  int occ = loaded.occupancy.load(std::memory_order_relaxed);
  if (occ == 0) {
    check(d.cuOccupancyMaxActiveBlocksPerMultiprocessor(
              &occ, loaded.function, metas_[v].threadsPerBlock(),
              static_cast<size_t>(metas_[v].sharedBytes)),
          "computing the occupancy", name_);
    occ = occ < 1 ? 1 : occ; // a kernel that launches at all runs one program per SM
    loaded.occupancy.store(occ, std::memory_order_relaxed);
  }
  m.slots[at] = sms;
  m.slots[at + 1] = occ;
}

LaunchPlan Kernel::planFor(size_t v, Marshalled& m) const {
  LaunchPlan plan;
  plan.variant = &metas_[v];
  fillDeviceSymbols(v, m);
  int64_t g[3];
  for (int d = 0; d < 3; ++d) {
    std::string err;
    if (!grid::evaluate(variants_[v]->grid[d], m.slots, &g[d], &err))
      throw Error("computing the grid", err, name_);
  }
  plan.grid = Dim3{g[0], g[1], g[2]};
  // A launch that would launch something with tensor maps TMA cannot take is an error here,
  // before the driver (an empty grid launches nothing, whatever the maps).
  if (detail::checkGrid(plan.grid, name_) && !m.tensorMapProblem.empty())
    throw Error("checking the arguments against the TMA tensor maps", m.tensorMapProblem, name_);
  plan.blockThreads = static_cast<unsigned>(metas_[v].threadsPerBlock());
  plan.sharedBytes = static_cast<unsigned>(metas_[v].sharedBytes);
  return plan;
}

LaunchPlan Kernel::planArgs(const Arg* args, size_t count) const {
  if (tuning_)
    return tuning_->configs[chooseConfiguration(nullptr, args, count, false)]->planArgs(args, count);
  Marshalled m;
  size_t v = marshal(args, count, &m);
  return planFor(v, m);
}

Kernel::VariantLoad& Kernel::ensureLoaded(size_t v) {
  Variant& var = *variants_[v];
  const CUcontext context = ensureContext();
  for (const std::atomic<VariantLoad*>& slot : var.slots) {
    VariantLoad* l = slot.load(std::memory_order_acquire);
    if (!l)
      break;
    if (l->context == context)
      return *l;
  }
  std::lock_guard<std::mutex> lock(loadMutex_);
  for (const std::unique_ptr<VariantLoad>& l : var.loaded)
    if (l->context == context)
      return *l;
  const KernelMetadata& m = metas_[v];
  std::string cubinFile, ptxFile; // read only if used
  detail::VariantImages im;
  if (var.hasCubin) {
    im.cubinLabel = m.cubinPath.empty() ? "the in-memory cubin of " + name_ : m.cubinPath;
    im.cubin = [&]() -> std::string_view {
      if (!var.image.empty())
        return var.image;
      cubinFile = readFile(m.cubinPath, "cubin");
      return cubinFile;
    };
  }
  if (var.hasPtx) {
    im.ptxLabel = !var.ptx.empty() || m.ptxPath.empty() ? "the in-memory PTX of " + name_
                                                        : m.ptxPath;
    im.ptx = [&]() -> std::string_view {
      if (!var.ptx.empty())
        return var.ptx;
      ptxFile = readFile(m.ptxPath, "PTX");
      return ptxFile;
    };
  }
  auto l = std::make_unique<VariantLoad>();
  l->context = context;
  l->module = detail::loadVariant(im, m.archNumber, m.archSpecific, name_);
  l->function = l->module->function(m.entry, name_);
  detail::prepareFunction(l->function, m.numWarps + m.producerWarps, m.sharedBytes, name_);
  VariantLoad& added = *l;
  var.loaded.push_back(std::move(l));
  if (var.loaded.size() <= Variant::kSlots)
    var.slots[var.loaded.size() - 1].store(&added, std::memory_order_release);
  return added;
}

void Kernel::load() {
  if (tuning_) {
    for (Kernel* k : tuning_->configs)
      k->load();
    return;
  }
  for (size_t v = 0; v < variants_.size(); ++v)
    ensureLoaded(v);
}

CUfunction Kernel::function(size_t v) {
  if (tuning_)
    return tuning_->configs.front()->function(v);
  if (v >= variants_.size())
    throw Error("looking up a variant", "variant " + std::to_string(v) + " does not exist", name_);
  return ensureLoaded(v).function;
}

void Kernel::launchArgs(CUstream stream, const Arg* args, size_t count) {
  if (tuning_) {
    // Autotuned: one key computation and one lookup once the key's choice is made.
    tuning_->configs[chooseConfiguration(stream, args, count, true)]->launchArgs(stream, args,
                                                                                count);
    return;
  }
  Marshalled m;
  size_t v = marshal(args, count, &m);
  LaunchPlan plan = planFor(v, m);
  if (plan.empty())
    return; // nothing to do; a zero-sized grid is an error for the driver
  VariantLoad& loaded = ensureLoaded(v);
  // The TMA tensor maps: encoded (or found in the variant's cache) here, passed after the
  // parameters (and after a bounds-checked kernel's extents and record).
  void** params = m.pointers;
  std::vector<detail::EncodedTensorMap> maps;
  std::vector<void*> withMaps;
  std::vector<void*> trailing;
  if (const auto& tm = variants_[v]->tensorMaps) {
    maps.resize(tm->size());
    tm->encode(m.tensorMaps, maps.data());
    for (detail::EncodedTensorMap& e : maps)
      trailing.push_back(e.bytes);
    if (!metas_[v].checkBounds) {
      withMaps.assign(m.pointers, m.pointers + metas_[v].params.size());
      withMaps.insert(withMaps.end(), trailing.begin(), trailing.end());
      params = withMaps.data();
    }
  }
  if (const std::optional<BoundsCheckInfo>& check = metas_[v].checkBounds) {
    detail::launchBoundsChecked(loaded.function, plan.grid, plan.blockThreads,
                                plan.sharedBytes, stream, m.pointers, metas_[v].params, *check,
                                metas_[v].source, name_, loaded.context, trailing);
    return;
  }
  detail::launchChecked(loaded.function, plan.grid, plan.blockThreads, plan.sharedBytes, stream,
                        params, name_, loaded.context);
}

} // namespace tcc
