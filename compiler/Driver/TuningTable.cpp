//===- TuningTable.cpp - tcc --tuning: reading and checking a table ------===//

#include "compiler/Driver/TuningTable.h"

#include "compiler/Frontend/Autotune.h"
#include "compiler/Frontend/Diagnostics.h"
#include "tcc/autotune_key.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <vector>

using namespace tcc;

namespace {

constexpr const char *kFormat = "tcc-tuning-table";
constexpr int kVersion = 1;

/// One step of a path into the document: an object's member or an array's element.
struct Step {
  Step(const char *k) : key(k) {}
  Step(std::string k) : key(std::move(k)) {}
  Step(size_t i) : index(int64_t(i)) {}
  std::string key;
  int64_t index = -1;
};

/// Where a value of the document starts (llvm::json keeps no positions): a scan of the
/// text along `path`; where a step is missing, the start of the value holding it.
class Locator {
public:
  explicit Locator(llvm::StringRef text) : t(text) {}

  size_t find(llvm::ArrayRef<Step> path) {
    p = 0;
    return at(path);
  }

private:
  void ws() {
    while (p < t.size() && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r'))
      ++p;
  }
  std::string string() {
    std::string s;
    ++p; // the opening quote
    while (p < t.size() && t[p] != '"') {
      if (t[p] == '\\' && p + 1 < t.size())
        ++p; // an escape: compared as written, enough for the names of the format
      s += t[p++];
    }
    ++p;
    return s;
  }
  void skip() {
    ws();
    if (p >= t.size())
      return;
    char c = t[p];
    if (c == '"') {
      string();
    } else if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      ++p;
      ws();
      while (p < t.size() && t[p] != close) {
        if (c == '{') {
          ws();
          string();
          ws();
          ++p; // ':'
        }
        skip();
        ws();
        if (p < t.size() && t[p] == ',')
          ++p;
        ws();
      }
      ++p;
    } else {
      while (p < t.size() && !llvm::is_contained(",]} \t\r\n", t[p]))
        ++p;
    }
  }
  size_t at(llvm::ArrayRef<Step> path) {
    ws();
    size_t start = p;
    if (path.empty() || p >= t.size())
      return start;
    const Step &step = path.front();
    if (step.index < 0 && t[p] == '{') {
      ++p;
      ws();
      while (p < t.size() && t[p] == '"') {
        std::string key = string();
        ws();
        ++p; // ':'
        if (key == step.key)
          return at(path.drop_front());
        skip();
        ws();
        if (p < t.size() && t[p] == ',')
          ++p;
        ws();
      }
    } else if (step.index >= 0 && t[p] == '[') {
      ++p;
      for (int64_t i = 0; p < t.size(); ++i) {
        ws();
        if (p >= t.size() || t[p] == ']')
          break;
        if (i == step.index)
          return at(path.drop_front());
        skip();
        ws();
        if (p < t.size() && t[p] == ',')
          ++p;
      }
    }
    return start;
  }

  llvm::StringRef t;
  size_t p = 0;
};


class Checker {
public:
  Checker(DiagnosticEngine &diags, unsigned buffer, const std::string &kernel,
          const typed::Autotune &space, const std::map<unsigned, std::string> *built)
      : diags(diags), kernel(kernel), space(space), built(built),
        buffer(diags.getSourceMgr().getMemoryBuffer(buffer)), locator(this->buffer->getBuffer()) {}

  bool run(std::string *normalized);

private:
  llvm::SMLoc loc(llvm::ArrayRef<Step> path) {
    return llvm::SMLoc::getFromPointer(buffer->getBufferStart() + locator.find(path));
  }
  void error(llvm::ArrayRef<Step> path, const llvm::Twine &message) {
    diags.error(loc(path), message);
  }
  bool checkEntry(size_t i, const llvm::json::Value &v, llvm::json::Array *kept);
  bool checkKey(size_t i, llvm::StringRef key);

  DiagnosticEngine &diags;
  const std::string &kernel;
  const typed::Autotune &space;
  const std::map<unsigned, std::string> *built;
  const llvm::MemoryBuffer *buffer;
  Locator locator;
  std::map<std::pair<std::string, std::string>, size_t> seen; // (device, key) -> entry
};

bool Checker::run(std::string *normalized) {
  llvm::StringRef text = buffer->getBuffer();
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    // "[line:col, byte=N]: message"
    std::string message = llvm::toString(parsed.takeError());
    size_t offset = 0;
    size_t byte = message.find("byte=");
    size_t close = message.find("]: ");
    if (byte != std::string::npos && close != std::string::npos && byte < close) {
      llvm::StringRef(message).substr(byte + 5, close - byte - 5).getAsInteger(10, offset);
      message = message.substr(close + 3);
    }
    diags.error(llvm::SMLoc::getFromPointer(buffer->getBufferStart() +
                                            std::min<size_t>(offset, text.size())),
                "not a tuning table: invalid JSON: " + message);
    return false;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root) {
    error({}, "a tuning table is a JSON object: {\"format\": \"" + std::string(kFormat) +
                  "\", \"version\": 1, \"kernel\": ..., \"space\": ..., \"entries\": [...]}");
    return false;
  }
  for (const auto &member : *root)
    if (!llvm::is_contained({"format", "version", "kernel", "space", "entries"},
                            member.first.str())) {
      error({member.first.str()}, "a tuning table has no field \"" + member.first.str() +
                                      "\" (it has format, version, kernel, space and entries)");
      return false;
    }
  std::optional<llvm::StringRef> format = root->getString("format");
  if (!format || *format != kFormat) {
    error({"format"}, format ? "\"format\" is \"" + format->str() + "\", not \"" + kFormat + "\""
                             : "no \"format\": \"" + std::string(kFormat) +
                                   "\": this is not a tuning table");
    return false;
  }
  std::optional<int64_t> version = root->getInteger("version");
  if (!version || *version != kVersion) {
    error({"version"}, version ? "tuning table version " + std::to_string(*version) +
                                     ": this tcc reads version " + std::to_string(kVersion)
                               : "\"version\" is missing or not an integer");
    return false;
  }
  std::optional<llvm::StringRef> k = root->getString("kernel");
  if (!k || *k != kernel) {
    error({"kernel"}, k ? "the table is for kernel '" + k->str() + "', not '" + kernel + "'"
                        : "\"kernel\" is missing or not a string");
    return false;
  }
  std::optional<llvm::StringRef> s = root->getString("space");
  if (!s || *s != space.space) {
    error({"space"}, s ? "the table is for search space " + s->str() + ", but '" + kernel +
                             "' is space " + space.space +
                             " here (its source or its configurations changed since it was "
                             "tuned: tune it again)"
                       : "\"space\" is missing or not a string");
    return false;
  }
  const llvm::json::Array *entries = root->getArray("entries");
  if (!entries) {
    error({"entries"}, "\"entries\" is missing or not an array");
    return false;
  }
  llvm::json::Array kept;
  bool ok = true;
  for (size_t i = 0; i < entries->size() && !diags.tooManyErrors(); ++i)
    ok = checkEntry(i, (*entries)[i], &kept) && ok;
  if (!ok)
    return false;
  // Written in the order of the format (llvm::json::Object would sort the fields).
  normalized->clear();
  llvm::raw_string_ostream os(*normalized);
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attribute("format", kFormat);
    j.attribute("version", kVersion);
    j.attribute("kernel", kernel);
    j.attribute("space", space.space);
    j.attributeArray("entries", [&] {
      for (const llvm::json::Value &v : kept) {
        const llvm::json::Object &e = *v.getAsObject();
        j.object([&] {
          for (const char *field : {"device", "cc", "key", "index", "config", "medians_ms"})
            if (const llvm::json::Value *value = e.get(field))
              j.attribute(field, *value);
        });
      }
    });
  });
  os << "\n";
  return true;
}

bool Checker::checkKey(size_t i, llvm::StringRef key) {
  llvm::SmallVector<llvm::StringRef> parts;
  if (!key.empty())
    key.split(parts, ", ");
  std::string expected;
  for (const std::string &name : space.key)
    expected += (expected.empty() ? "" : ", ") + name + "=N";
  auto bad = [&](const llvm::Twine &why) {
    error({"entries", i, "key"}, "key \"" + key + "\" " + why + "; the keys of '" + kernel +
                                     "' are " +
                                     (space.key.empty() ? std::string("\"\" (an empty key)")
                                                        : "\"" + expected + "\""));
    return false;
  };
  if (parts.size() != space.key.size())
    return bad("has " + llvm::Twine(parts.size()) + " value" + (parts.size() == 1 ? "" : "s") +
               ", not " + llvm::Twine(space.key.size()));
  for (size_t p = 0; p < parts.size(); ++p) {
    auto [name, value] = parts[p].split('=');
    int64_t v = 0;
    if (name != space.key[p])
      return bad("names '" + name + "' where '" + space.key[p] + "' is expected");
    if (value.getAsInteger(10, v))
      return bad("gives '" + name + "' the value '" + value + "', which is not an integer");
    if (tcc::autotuneBucket(v) != v)
      return bad("is not a bucket: the runtime rounds " + name + " up to a power of two (" +
                 name + "=" + llvm::Twine(tcc::autotuneBucket(v)) + ")");
  }
  return true;
}

bool Checker::checkEntry(size_t i, const llvm::json::Value &v, llvm::json::Array *kept) {
  const llvm::json::Object *e = v.getAsObject();
  if (!e) {
    error({"entries", i}, "entry " + llvm::Twine(i) + " is not an object");
    return false;
  }
  for (const auto &member : *e)
    if (!llvm::is_contained({"device", "cc", "key", "index", "config", "medians_ms"},
                            member.first.str())) {
      error({"entries", i, member.first.str()},
            "an entry has no field \"" + member.first.str() + "\"" +
                (member.first == "driver" ? " (a table applies across driver versions)" : "") +
                "; it has device, cc, key, index, config and medians_ms");
      return false;
    }
  for (const char *field : {"device", "key", "config"})
    if (!e->getString(field)) {
      error({"entries", i, field}, "entry " + llvm::Twine(i) + ": \"" + field +
                                       "\" is missing or not a string");
      return false;
    }
  for (const char *field : {"cc", "index"})
    if (!e->getInteger(field)) {
      error({"entries", i, field}, "entry " + llvm::Twine(i) + ": \"" + field +
                                       "\" is missing or not an integer");
      return false;
    }
  llvm::StringRef device = *e->getString("device");
  llvm::StringRef key = *e->getString("key");
  llvm::StringRef config = *e->getString("config");
  int64_t cc = *e->getInteger("cc");
  int64_t index = *e->getInteger("index");
  if (device.empty()) {
    error({"entries", i, "device"}, "an entry's \"device\" is the GPU's name, not empty");
    return false;
  }
  if (cc < 10 || cc > 1000) {
    error({"entries", i, "cc"}, "\"cc\": " + llvm::Twine(cc) +
                                    " is not a compute capability (90 for sm_90)");
    return false;
  }
  if (!checkKey(i, key))
    return false;
  if (const llvm::json::Value *medians = e->get("medians_ms")) {
    const llvm::json::Object *m = medians->getAsObject();
    if (!m) {
      error({"entries", i, "medians_ms"}, "\"medians_ms\" is not an object of times by index");
      return false;
    }
    for (const auto &time : *m) {
      unsigned at = 0;
      std::optional<double> ms = time.second.getAsNumber();
      if (llvm::StringRef(time.first).getAsInteger(10, at) || at >= space.configs.size() ||
          !ms || *ms < 0) {
        error({"entries", i, "medians_ms", time.first.str()},
              "\"medians_ms\" maps a configuration's index (0 to " +
                  llvm::Twine(space.configs.size() - 1) + ") to its median in milliseconds");
        return false;
      }
    }
  }
  if (index < 0 || index >= int64_t(space.configs.size())) {
    error({"entries", i, "index"},
          "configuration " + llvm::Twine(index) + " does not exist: '" + kernel + "' declares " +
              llvm::Twine(space.configs.size()) + " (0 to " +
              llvm::Twine(space.configs.size() - 1) + ")");
    return false;
  }
  const typed::AutotuneConfig &declared = space.configs[size_t(index)];
  if (!declared.prunedBy.empty()) {
    error({"entries", i, "index"}, "configuration " + llvm::Twine(index) + " (" +
                                       declared.description + ") is pruned: " +
                                       declared.prunedBy + " is false");
    return false;
  }
  auto [previous, fresh] = seen.try_emplace({device.str(), key.str()}, i);
  if (!fresh) {
    error({"entries", i}, "a second entry for device \"" + device + "\" and key \"" + key + "\"");
    llvm::SMLoc first = loc({"entries", previous->second});
    diags.note(llvm::SMRange(first, first), "the first one");
    return false;
  }
  if (built) {
    auto it = built->find(unsigned(index));
    if (it == built->end()) {
      llvm::SMLoc at = loc({"entries", i, "index"});
      diags.warning(llvm::SMRange(at, at),
                    "configuration " + llvm::Twine(index) + " (" + declared.description +
                        ") was dropped from this build: the entry is left out (the runtime "
                        "tunes key \"" + key + "\" on " + device + ")");
      return true;
    }
    if (it->second != config) {
      error({"entries", i, "config"}, "configuration " + llvm::Twine(index) + " is \"" +
                                          it->second + "\" here, not \"" + config + "\"");
      return false;
    }
  }
  kept->push_back(v);
  return true;
}

} // namespace

unsigned tcc::loadTuningTable(DiagnosticEngine &diags, const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file) {
    diags.error("cannot read the tuning table '" + path + "': " + file.getError().message());
    return 0;
  }
  if ((*file)->getBufferSize() > (16u << 20)) {
    diags.error("the tuning table '" + path + "' is larger than 16 MiB, which no table is");
    return 0;
  }
  return diags.getSourceMgr().AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
}

bool tcc::checkTuningTable(DiagnosticEngine &diags, unsigned buffer, const std::string &kernel,
                           const typed::Autotune &space,
                           const std::map<unsigned, std::string> *built,
                           std::string *normalized) {
  return Checker(diags, buffer, kernel, space, built).run(normalized);
}
