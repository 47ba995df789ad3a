// Shared by the benchmark programs: finding artifact configurations, elementwise roles,
// small formatting helpers.
#pragma once

#include "tcc/tcc.h"

#include <string>
#include <vector>

namespace benchutil {

// Every folder under `root` (recursively) that directly holds tcc kernel metadata, sorted.
std::vector<std::string> configFolders(const std::string& root);

// "tcc/vector_add/BLOCK1024_W4" for root/tcc/vector_add/BLOCK1024_W4.
std::string relative(const std::string& root, const std::string& path);

std::string fmt(const char* format, double v);

// --filter: true when `filter` is empty or one of its comma-separated parts occurs in `text`.
bool matchesFilter(const std::string& filter, const std::string& text);

} // namespace benchutil
