// Writing a file so that a reader sees its old contents or its new ones, never a part: the
// bytes go to a temporary file beside it (named by the process and a per-process counter,
// so threads and processes writing the same file do not share one), renamed over it.
// Header-only and exception-free: the compiler's artifact and header writers and the
// runtime's autotuning cache use it.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace tcc {

// Writes `bytes` to `path` atomically; false with `*error` ("cannot write 'PATH': why")
// on failure, leaving no temporary file behind.
inline bool writeFileAtomically(const std::string& path, const std::string& bytes,
                                std::string* error) {
  static std::atomic<unsigned> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." +
                    std::to_string(counter.fetch_add(1));
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    *error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  int savedErrno = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) {
    *error = "cannot write '" + path + "': " + std::strerror(savedErrno ? savedErrno : errno);
    std::remove(tmp.c_str());
    return false;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    *error = "cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(errno);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace tcc
