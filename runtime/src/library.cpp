#include "tcc/runtime.h"

#include "tcc/json.h"
#include "tcc/metadata.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace tcc {
namespace {

namespace fs = std::filesystem;

const char* const kTableSuffix = ".tuning.json";

bool sameConfig(const KernelMetadata& a, const KernelMetadata& b) {
  if (a.numWarps != b.numWarps || a.numStages != b.numStages ||
      a.constexprs.size() != b.constexprs.size())
    return false;
  // Configurations of an autotune space are told apart by their index too.
  if (a.autotune.has_value() != b.autotune.has_value() ||
      (a.autotune && (a.autotune->space != b.autotune->space ||
                      a.autotune->index != b.autotune->index)))
    return false;
  for (const auto& c : a.constexprs) {
    const ConstexprValue* d = b.constexprValue(c.first);
    if (!d || *d != c.second)
      return false;
  }
  return true;
}

using Selector = std::vector<std::pair<std::string, ConstexprValue>>;

bool matches(const KernelMetadata& m, const Selector& sel) {
  for (const auto& s : sel) {
    if (s.first == "num_warps" || s.first == "num_stages") {
      if (!s.second.sameValue(ConstexprValue(s.first == "num_warps" ? m.numWarps : m.numStages)))
        return false;
      continue;
    }
    const ConstexprValue* c = m.constexprValue(s.first);
    if (!c || !c->sameValue(s.second))
      return false;
  }
  return true;
}

std::string selectorString(const Selector& sel) {
  std::string s;
  for (const auto& x : sel)
    s += (s.empty() ? "" : ", ") + x.first + "=" + x.second.toString();
  return s;
}

} // namespace

Library::Library() = default;
Library::Library(const std::string& path) { add(path); }
Library::~Library() = default;
Library::Library(Library&&) noexcept = default;
Library& Library::operator=(Library&&) noexcept = default;

void Library::add(const std::string& path) { add(path, true); }

void Library::add(const std::string& path, bool archSpecific) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    throw Error("loading kernels from '" + path + "'", "no such file or folder");
  if (!fs::is_directory(st)) {
    KernelMetadata m = loadMetadataFile(path);
    if (m.autotune) {
      fs::path table = fs::path(path).parent_path() / (m.name + kTableSuffix);
      if (fs::is_regular_file(table, ec))
        addTable(m.name, table.string());
    }
    if (archSpecific || !m.archSpecific)
      add(std::move(m));
    return;
  }
  std::vector<std::string> files;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json" && it->is_regular_file())
      files.push_back(it->path().string());
  if (ec)
    throw Error("loading kernels from '" + path + "'", ec.message());
  std::sort(files.begin(), files.end());
  size_t added = 0;
  for (const std::string& f : files) {
    // A tuning table: read now, checked by the kernel's tuner (a bad one is a warning there).
    if (f.size() > std::strlen(kTableSuffix) &&
        f.compare(f.size() - std::strlen(kTableSuffix), std::string::npos, kTableSuffix) == 0) {
      std::string base = fs::path(f).filename().string();
      addTable(base.substr(0, base.size() - std::strlen(kTableSuffix)), f);
      continue;
    }
    // Other JSON files may share the folder; a .json that is not JSON at all is an error (a
    // truncated metadata file must not vanish into "no such configuration" later).
    std::string text = readFile(f, "JSON", kMaxMetadataBytes);
    json::Value v;
    try {
      v = json::parse(text, f);
    } catch (const Error& e) {
      throw Error("loading kernels from '" + path + "'",
                  f + " is not valid JSON (a truncated metadata file?): " + e.what());
    }
    const json::Value* format = v.isObject() ? v.find("format") : nullptr;
    if (!format || !format->isString() || format->asString() != "tcc-kernel")
      continue;
    size_t slash = f.find_last_of('/');
    KernelMetadata m = parseMetadata(text, f, slash == std::string::npos ? "" : f.substr(0, slash));
    if (archSpecific || !m.archSpecific)
      add(std::move(m));
    ++added;
  }
  if (added == 0)
    throw Error("loading kernels from '" + path + "'",
                "the folder holds no kernel metadata (*.json with \"format\": \"tcc-kernel\")");
}

void Library::addTable(const std::string& name, const std::string& path) {
  if (tuned_.count(name))
    throw Error("adding the tuning table " + path,
                "autotuned kernel '" + name +
                    "' is already in use; add its table before the first launch",
                name);
  tables_[name] = {path, readFile(path, "tuning table", kMaxMetadataBytes)};
}

void Library::add(KernelMetadata m, std::string image, std::string ptx) {
  if (tuned_.count(m.name))
    throw Error("adding " + m.origin,
                "autotuned kernel '" + m.name +
                    "' is already in use; add every configuration before the first launch",
                m.name);
  auto& configs = kernels_[m.name];
  for (auto& e : configs) {
    if (!sameConfig(e->metas.front(), m))
      continue;
    if (e->kernel)
      throw Error("adding " + m.origin,
                  "kernel '" + m.name + "' (" + m.configString() +
                      ") is already in use; add every variant before the first launch",
                  m.name);
    e->metas.push_back(std::move(m));
    e->images.push_back(std::move(image));
    e->ptxs.push_back(std::move(ptx));
    return;
  }
  auto e = std::make_unique<Entry>();
  e->metas.push_back(std::move(m));
  e->images.push_back(std::move(image));
  e->ptxs.push_back(std::move(ptx));
  configs.push_back(std::move(e));
}

Kernel& Library::build(Entry& e) {
  if (!e.kernel)
    e.kernel.reset(new Kernel(e.metas.front().name, e.metas, e.images, e.ptxs));
  return *e.kernel;
}

std::string Library::available() const {
  if (kernels_.empty())
    return "no kernels are loaded";
  std::string s = "the kernels loaded are:";
  for (const auto& k : kernels_)
    s += " " + k.first;
  return s;
}

Kernel& Library::kernel(const std::string& name) { return kernel(name, {}); }

Kernel& Library::kernel(const std::string& name, const Selector& sel) {
  auto it = kernels_.find(name);
  if (it == kernels_.end())
    throw Error("looking up kernel '" + name + "'", "no such kernel; " + available(), name);
  std::vector<Entry*> found;
  for (auto& e : it->second)
    if (matches(e->metas.front(), sel))
      found.push_back(e.get());
  if (found.size() == 1)
    return build(*found.front());
  std::string notTuned;
  if (sel.empty() && found.size() > 1)
    if (Kernel* k = buildTuned(name, found, &notTuned))
      return *k;
  std::string configs;
  for (auto& e : it->second)
    configs += "\n  " + e->metas.front().configString() + "  (" + e->metas.front().origin + ")";
  if (found.empty())
    throw Error("looking up kernel '" + name + "'",
                "no configuration with " + selectorString(sel) + "; there are:" + configs, name);
  throw Error("looking up kernel '" + name + "'",
              std::to_string(found.size()) + " configurations match" +
                  (sel.empty() ? "" : " " + selectorString(sel)) +
                  (notTuned.empty() ? "" : " and " + notTuned) +
                  "; choose one with kernel(name, {{\"BLOCK\", ...}}). There are:" + configs,
              name);
}

Kernel* Library::buildTuned(const std::string& name, const std::vector<Entry*>& found,
                            std::string* why) {
  auto t = tuned_.find(name);
  if (t != tuned_.end())
    return t->second.get();
  const KernelMetadata* first = nullptr;
  for (Entry* e : found) {
    const KernelMetadata& m = e->metas.front();
    if (!m.autotune) {
      *why = "they are not one autotuned kernel (" + m.origin + " carries no autotune metadata)";
      return nullptr;
    }
    if (!first) {
      first = &m;
      continue;
    }
    if (m.autotune->space != first->autotune->space) {
      *why = "they are not one autotuned kernel (different autotune spaces: " +
             first->autotune->space + " in " + first->origin + ", " + m.autotune->space +
             " in " + m.origin + ")";
      return nullptr;
    }
  }
  // One space: its configurations must agree on everything but their own values.
  auto signature = [](const KernelMetadata& m) {
    std::string s;
    for (size_t i = 0; i < m.params.size(); ++i)
      s += (i ? ", " : "") + m.params[i].name + ": " + m.params[i].type;
    return s;
  };
  const std::string doing = "looking up autotuned kernel '" + name + "'";
  for (Entry* e : found) {
    const KernelMetadata& m = e->metas.front();
    if (signature(m) != signature(*first))
      throw Error(doing,
                  "configurations of autotune space " + first->autotune->space +
                      " have different parameters: (" + signature(*first) + ") in " +
                      first->origin + ", (" + signature(m) + ") in " + m.origin,
                  name);
    const AutotuneInfo &a = *m.autotune, &b = *first->autotune;
    if (a.count != b.count || a.key != b.key || a.writes != b.writes || a.restore != b.restore)
      throw Error(doing,
                  "configurations of autotune space " + b.space + " disagree on its \"count\", "
                  "\"key\", \"writes\" or \"restore\": " + first->origin + " and " + m.origin,
                  name);
  }
  std::vector<Entry*> byIndex = found;
  std::stable_sort(byIndex.begin(), byIndex.end(), [](Entry* a, Entry* b) {
    return a->metas.front().autotune->index < b->metas.front().autotune->index;
  });
  for (size_t i = 1; i < byIndex.size(); ++i)
    if (byIndex[i]->metas.front().autotune->index == byIndex[i - 1]->metas.front().autotune->index)
      throw Error(doing,
                  "two configurations have autotune index " +
                      std::to_string(byIndex[i]->metas.front().autotune->index) + ": " +
                      byIndex[i - 1]->metas.front().configString() + " (" +
                      byIndex[i - 1]->metas.front().origin + ") and " +
                      byIndex[i]->metas.front().configString() + " (" +
                      byIndex[i]->metas.front().origin + ")",
                  name);
  std::vector<Kernel*> configs;
  for (Entry* e : byIndex)
    configs.push_back(&build(*e));
  std::unique_ptr<Kernel> k(new Kernel(name, std::move(configs)));
  if (auto table = tables_.find(name); table != tables_.end())
    k->setTuningTable(table->second.second, table->second.first);
  Kernel* r = k.get();
  tuned_.emplace(name, std::move(k));
  return r;
}

std::vector<std::string> Library::kernelNames() const {
  std::vector<std::string> r;
  for (const auto& k : kernels_)
    r.push_back(k.first);
  return r;
}

std::vector<Kernel*> Library::configurations(const std::string& name) {
  std::vector<Kernel*> r;
  auto it = kernels_.find(name);
  if (it == kernels_.end())
    return r;
  for (auto& e : it->second)
    r.push_back(&build(*e));
  return r;
}

} // namespace tcc
