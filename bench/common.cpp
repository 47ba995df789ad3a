#include "common.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace benchutil {

std::vector<std::string> configFolders(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> r;
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return r;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_directory())
      continue;
    bool has = false;
    for (const auto& f : fs::directory_iterator(it->path(), ec))
      if (f.path().extension() == ".json" && tcc::isKernelMetadataFile(f.path().string()))
        has = true;
    if (has)
      r.push_back(it->path().string());
  }
  std::sort(r.begin(), r.end());
  return r;
}

std::string relative(const std::string& root, const std::string& path) {
  if (path.compare(0, root.size(), root) == 0) {
    std::string r = path.substr(root.size());
    while (!r.empty() && r[0] == '/')
      r.erase(0, 1);
    return r;
  }
  return path;
}

bool matchesFilter(const std::string& filter, const std::string& text) {
  if (filter.empty())
    return true;
  size_t start = 0;
  while (start <= filter.size()) {
    size_t end = filter.find(',', start);
    if (end == std::string::npos)
      end = filter.size();
    const std::string part = filter.substr(start, end - start);
    if (!part.empty() && text.find(part) != std::string::npos)
      return true;
    start = end + 1;
  }
  return false;
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

} // namespace benchutil
