//===- temp_dir.h - a temporary folder for a unit test ---------*- C++ -*-===//
//
// Made under /tmp when constructed, removed with everything in it when destroyed.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_UNIT_TEMP_DIR_H
#define TCC_TEST_UNIT_TEMP_DIR_H

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace tcctest {

class TempDir {
public:
  TempDir() {
    char tmpl[] = "/tmp/tcc-unit-XXXXXX";
    if (const char* made = ::mkdtemp(tmpl))
      path_ = made;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  /// Writes `bytes` to the file `name` in the folder.
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path_ + "/" + name, std::ios::binary) << bytes;
  }

private:
  std::string path_;
};

} // namespace tcctest

#endif // TCC_TEST_UNIT_TEMP_DIR_H
