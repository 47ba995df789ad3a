#include "tcc/runtime.h"

#include "tcc/json.h"
#include "tcc/metadata.h"

#include <algorithm>
#include <filesystem>

namespace tcc {
namespace {

namespace fs = std::filesystem;

bool sameConfig(const KernelMetadata& a, const KernelMetadata& b) {
  if (a.numWarps != b.numWarps || a.constexprs.size() != b.constexprs.size())
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
    if (s.first == "num_warps") {
      if (!s.second.sameValue(ConstexprValue(m.numWarps)))
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

void Library::add(KernelMetadata m, std::string image, std::string ptx) {
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
  std::string configs;
  for (auto& e : it->second)
    configs += "\n  " + e->metas.front().configString() + "  (" + e->metas.front().origin + ")";
  if (found.empty())
    throw Error("looking up kernel '" + name + "'",
                "no configuration with " + selectorString(sel) + "; there are:" + configs, name);
  throw Error("looking up kernel '" + name + "'",
              std::to_string(found.size()) + " configurations match" +
                  (sel.empty() ? "" : " " + selectorString(sel)) +
                  "; choose one with kernel(name, {{\"BLOCK\", ...}}). There are:" + configs,
              name);
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
