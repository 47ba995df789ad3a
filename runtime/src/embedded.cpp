#include "tcc/embedded.h"

#include "internal.h"
#include "per_context.h"
#include "tensor_map.h"
#include "tuner.h"
#include "tcc/cubin.h"
#include "tcc/grid_expr.h"

#include <cstring>
#include <mutex>
#include <vector>

namespace tcc {

// What the kernel knows about one CUDA context: how it runs on that context's device (its
// loadRank, asked when the context is first seen) and, once launched there, its module.
// Devices of different models in one process each get their own answer.
struct EmbeddedKernel::ContextState {
  CUcontext context = nullptr;
  int rank = 0;
  std::shared_ptr<Module> module; // set under loadIn's lock
  CUfunction function = nullptr;
};

// Remembered (PerContext::remember) only once its function is set.
struct EmbeddedKernel::Contexts : detail::PerContext<ContextState> {};

struct EmbeddedKernel::BoundsCheck {
  std::vector<ParamInfo> params;
  BoundsCheckInfo info;
  std::string source;
};

struct EmbeddedKernel::TensorMapState {
  KernelMetadata spec; // its params, constexprs and tensorMaps
  std::unique_ptr<detail::TensorMaps> maps;
};

void EmbeddedKernel::setTensorMaps(const char* spec) {
  auto t = std::make_unique<TensorMapState>();
  t->spec = parseTensorMapSpec(spec ? spec : "",
                               std::string("the tensor maps embedded for ") + name_);
  const KernelMetadata& m = t->spec;
  // Slots as tcc::Kernel's.
  auto slotOf = [&](const std::string& n) { return detail::expressionSlot(m, n); };
  t->maps = std::make_unique<detail::TensorMaps>(m.tensorMaps, m.params, slotOf, name_);
  tensorMaps_ = std::move(t);
}

std::string EmbeddedKernel::evaluateTensorMaps(void** args,
                                               std::vector<detail::TensorMapValues>* values) const {
  const KernelMetadata& m = tensorMaps_->spec;
  const size_t n = m.params.size();
  std::vector<int64_t> slots(n + m.constexprs.size(), 0);
  std::vector<uint64_t> bits(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const ParamInfo& p = m.params[i];
    // The launcher's arguments, as it declares them: CUdeviceptr for a pointer, bool and
    // int8_t..int64_t for integers (the others are no grid expression's).
    if (p.isPointer) {
      CUdeviceptr v;
      std::memcpy(&v, args[i], sizeof v);
      bits[i] = v;
    } else if (p.elementKind == ScalarKind::Int) {
      switch (p.elementBits) {
      case 1:
      case 8: {
        int8_t v;
        std::memcpy(&v, args[i], sizeof v);
        slots[i] = p.elementBits == 1 ? (v != 0) : v;
        break;
      }
      case 16: {
        int16_t v;
        std::memcpy(&v, args[i], sizeof v);
        slots[i] = v;
        break;
      }
      case 32: {
        int32_t v;
        std::memcpy(&v, args[i], sizeof v);
        slots[i] = v;
        break;
      }
      default:
        std::memcpy(&slots[i], args[i], sizeof(int64_t));
      }
    }
  }
  for (size_t i = 0; i < m.constexprs.size(); ++i)
    slots[n + i] = m.constexprs[i].second.asInt();
  return tensorMaps_->maps->evaluate(slots.data(), bits.data(), values);
}

bool EmbeddedKernel::tensorMapsAccept(void** args) const {
  if (!tensorMaps_)
    return true;
  std::vector<detail::TensorMapValues> values;
  return evaluateTensorMaps(args, &values).empty();
}

void EmbeddedKernel::setBoundsCheck(const char* params, const char* source,
                                    int64_t recordBytes) {
  auto b = std::make_unique<BoundsCheck>();
  std::string list = params ? params : "";
  size_t at = 0;
  while (at < list.size()) {
    size_t comma = list.find(',', at);
    if (comma == std::string::npos)
      comma = list.size();
    std::string item = list.substr(at, comma - at);
    size_t colon = item.find(':');
    ParamInfo p;
    if (colon == std::string::npos || colon == 0 || !parseParamType(item.substr(colon + 1), &p))
      throw Error("setting up the bounds check",
                  "parameter '" + item + "' is not NAME:TYPE with a parameter type", name_);
    p.name = item.substr(0, colon);
    if (p.isPointer) {
      b->info.extents.push_back(p.name);
      b->info.extentParams.push_back(b->params.size());
    }
    b->params.push_back(p);
    at = comma + 1;
  }
  if (recordBytes < 40 || recordBytes > 4096)
    throw Error("setting up the bounds check",
                "record size " + std::to_string(recordBytes) + " is outside 40..4096", name_);
  b->info.recordBytes = recordBytes;
  b->source = source ? source : "";
  bounds_ = std::move(b);
}

EmbeddedKernel::EmbeddedKernel(const char* name, const char* entry, const void* image, size_t size,
                               const char* arch, int numWarps, int64_t sharedBytes,
                               const char* ptx, size_t ptxSize)
    : name_(name), entry_(entry), image_(size ? image : nullptr), size_(image ? size : 0),
      arch_(arch), numWarps_(numWarps), sharedBytes_(sharedBytes),
      ptx_(ptxSize ? ptx : nullptr), ptxSize_(ptx ? ptxSize : 0),
      contexts_(std::make_unique<Contexts>()) {}

EmbeddedKernel::~EmbeddedKernel() {
  // Generated headers hold these in function-local statics, destroyed at exit, when the
  // driver may already be shutting down: the modules stay loaded (the process ends anyway).
  contexts_->forEach([](CUcontext, ContextState& state) {
    if (state.module) {
      // Kept rather than unloaded during teardown, reachable from a list that is never
      // freed (so that leak checkers see it as kept, which it is).
      static auto* kept = new std::vector<std::shared_ptr<Module>>();
      static std::mutex keptMutex;
      std::lock_guard<std::mutex> lock(keptMutex);
      kept->push_back(std::move(state.module));
    }
  });
}

// "sm_90a" -> (90, true).
static void parseArch(const char* arch, int* number, bool* specific) {
  *number = 0;
  *specific = false;
  if (arch && std::strncmp(arch, "sm_", 3) == 0) {
    const char* s = arch + 3;
    while (*s >= '0' && *s <= '9')
      *number = *number * 10 + (*s++ - '0');
    *specific = *s == 'a';
  }
}

EmbeddedKernel::ContextState* EmbeddedKernel::entryFor(CUcontext ctx) {
  return &contexts_->get(ctx, [&] {
    int archNumber = 0;
    bool specific = false;
    parseArch(arch_, &archNumber, &specific);
    ContextState state;
    state.context = ctx;
    // The context is current (ensureContext), so the device asked is the context's.
    state.rank = static_cast<int>(detail::rankOnDevice(
        archNumber, specific, image_ != nullptr, ptx_ != nullptr, deviceComputeCapability()));
    return state;
  });
}

int EmbeddedKernel::rankOnCurrentDevice() { return entryFor(ensureContext())->rank; }

bool EmbeddedKernel::runsOnCurrentDevice() {
  return rankOnCurrentDevice() != static_cast<int>(LoadRank::CannotRun);
}

bool EmbeddedKernel::usesPtxOnCurrentDevice() {
  return rankOnCurrentDevice() == static_cast<int>(LoadRank::PtxJit);
}

EmbeddedKernel::ContextState* EmbeddedKernel::loadIn(CUcontext ctx) {
  ContextState* pc = entryFor(ctx);
  static std::mutex m;
  std::lock_guard<std::mutex> lock(m);
  if (pc->function)
    return pc;
  int archNumber = 0;
  bool specific = false;
  parseArch(arch_, &archNumber, &specific);
  const char* archText = arch_ ? arch_ : "?";
  detail::VariantImages im;
  if (image_) {
    im.cubin = [this] { return std::string_view(static_cast<const char*>(image_), size_); };
    im.cubinLabel = std::string("the cubin embedded for ") + name_ + " (" + archText + ")";
  }
  if (ptx_) {
    im.ptx = [this] { return std::string_view(ptx_, ptxSize_); };
    im.ptxLabel = std::string("the PTX embedded for ") + name_ + " (" + archText + ")";
  }
  std::shared_ptr<Module> module = detail::loadVariant(im, archNumber, specific, name_);
  CUfunction f = module->function(entry_, name_);
  detail::prepareFunction(f, numWarps_, sharedBytes_, name_);
  pc->module = std::move(module);
  pc->function = f;
  return pc;
}

EmbeddedKernel::ContextState* EmbeddedKernel::current() {
  CUcontext ctx = nullptr;
  check(driver().cuCtxGetCurrent(&ctx), "querying the current CUDA context", name_);
  if (ctx)
    if (ContextState* last = contexts_->last(ctx)) // remembered only once its function is set
      return last;
  if (!ctx)
    ctx = ensureContext();
  ContextState* p = loadIn(ctx);
  contexts_->remember(*p);
  return p;
}

CUfunction EmbeddedKernel::function() { return current()->function; }

void EmbeddedKernel::launch(CUstream stream, int64_t gx, int64_t gy, int64_t gz, void** args) {
  Dim3 g{gx, gy, gz};
  if (!detail::checkGrid(g, name_))
    return;
  // The TMA tensor maps, checked before anything is loaded, then encoded (or found in the
  // cache) and passed after the arguments (and after a bounds check's extents and record).
  std::vector<detail::TensorMapValues> values;
  if (tensorMaps_) {
    std::string why = evaluateTensorMaps(args, &values);
    if (!why.empty())
      throw Error("checking the arguments against the TMA tensor maps", why, name_);
  }
  // This thread's context's entry (the one remembered may meanwhile be another thread's).
  ContextState* p = current();
  std::vector<detail::EncodedTensorMap> maps;
  std::vector<void*> trailing, all;
  if (tensorMaps_) {
    maps.resize(values.size());
    tensorMaps_->maps->encode(values, maps.data());
    for (detail::EncodedTensorMap& e : maps)
      trailing.push_back(e.bytes);
    if (!bounds_) {
      all.assign(args, args + tensorMaps_->spec.params.size());
      all.insert(all.end(), trailing.begin(), trailing.end());
      args = all.data();
    }
  }
  if (bounds_) {
    detail::launchBoundsChecked(p->function, g, static_cast<unsigned>(32 * numWarps_),
                                static_cast<unsigned>(sharedBytes_), stream, args,
                                bounds_->params, bounds_->info, bounds_->source, name_,
                                p->context, trailing);
    return;
  }
  detail::launchChecked(p->function, g, static_cast<unsigned>(32 * numWarps_),
                        static_cast<unsigned>(sharedBytes_), stream, args, name_, p->context);
}

int64_t EmbeddedKernel::numSms() {
  ensureContext();
  int sms = 0;
  check(driver().cuDeviceGetAttribute(&sms, cu::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                      currentDevice()),
        "querying the number of SMs", name_);
  return sms;
}

int64_t EmbeddedKernel::occupancy() {
  CUfunction f = function();
  int n = 0;
  check(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 32 * numWarps_,
                                                             static_cast<size_t>(sharedBytes_)),
        "computing the occupancy", name_);
  return n < 1 ? 1 : n;
}

namespace {
// The header's configurations as the tuner sees them.
class EmbeddedTarget : public detail::TuneTarget {
public:
  EmbeddedTarget(EmbeddedTuning::Target& t, const CUdeviceptr* saved, size_t savedCount)
      : t_(t), saved_(saved), savedCount_(savedCount) {}
  void launch(size_t config, CUstream stream) override { t_.launch(config, stream); }
  bool launchesNothing(size_t config) override {
    try {
      return t_.launchesNothing(config);
    } catch (const Error&) {
      return false;
    }
  }
  CUdeviceptr savedPointer(size_t i) override { return i < savedCount_ ? saved_[i] : 0; }

private:
  EmbeddedTuning::Target& t_;
  const CUdeviceptr* saved_;
  size_t savedCount_;
};
} // namespace

EmbeddedTuning::EmbeddedTuning(const char* kernel, const char* space, const char* const* key,
                               size_t keyCount, const Config* configs, size_t count,
                               const char* const* saved, size_t savedCount, const char* table,
                               size_t tableSize)
    : name_(kernel), count_(count), savedCount_(savedCount) {
  if (count == 0)
    throw Error("setting up autotuning", "no configurations to choose from", kernel);
  std::vector<std::string> keys(key, key + keyCount);
  std::vector<detail::Tuner::Config> cs;
  for (size_t i = 0; i < count; ++i)
    cs.push_back({configs[i].index, configs[i].config});
  std::vector<std::string> savedNames(saved, saved + savedCount);
  tuner_ = std::make_unique<detail::Tuner>(kernel, space, std::move(keys), std::move(cs),
                                           std::move(savedNames));
  if (table && tableSize)
    tuner_->setTable(std::string(table, tableSize),
                     std::string("the tuning table embedded for ") + kernel);
}

EmbeddedTuning::~EmbeddedTuning() = default;

size_t EmbeddedTuning::known(const int64_t* key) const {
  size_t at = tuner_->known(key);
  return at == detail::Tuner::kUnknown ? kUnknown : at;
}

size_t EmbeddedTuning::choose(CUstream stream, const int64_t* key, const CUdeviceptr* saved,
                              Target& target) {
  EmbeddedTarget t(target, saved, savedCount_);
  return tuner_->choose(stream, key, t, true);
}

std::vector<TuningReport> EmbeddedTuning::tunings() const { return tuner_->tunings(); }

void GridCalc::fail(const char* what) const {
  throw Error("computing the grid", std::string("grid expression '") + expr_ + "' " + what,
              kernel_);
}

int64_t GridCalc::checked(bool (*op)(int64_t, int64_t, int64_t*), int64_t a, int64_t b,
                          const char* what) const {
  int64_t r;
  if (!op(a, b, &r))
    fail(what);
  return r;
}

static const char* const kOverflows = "overflows int64";

int64_t GridCalc::neg(int64_t a) const { return checked(grid::sub, 0, a, kOverflows); }
int64_t GridCalc::add(int64_t a, int64_t b) const { return checked(grid::add, a, b, kOverflows); }
int64_t GridCalc::sub(int64_t a, int64_t b) const { return checked(grid::sub, a, b, kOverflows); }
int64_t GridCalc::mul(int64_t a, int64_t b) const { return checked(grid::mul, a, b, kOverflows); }
int64_t GridCalc::div(int64_t a, int64_t b) const {
  return checked(grid::div, a, b, b == 0 ? "divides by zero" : kOverflows);
}
int64_t GridCalc::mod(int64_t a, int64_t b) const {
  return checked(grid::mod, a, b, "takes a remainder by zero");
}
int64_t GridCalc::cdiv(int64_t a, int64_t b) const {
  return checked(grid::cdiv, a, b, b == 0 ? "divides by zero (cdiv)" : kOverflows);
}

} // namespace tcc
