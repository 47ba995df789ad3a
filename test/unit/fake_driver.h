// The fake driver's own controls for the tests of tcc-runtime-driver-tests: the runtime
// dlopen's runtime_fake_cuda.cpp's library through TCC_LIBCUDA, and so do these, to read its
// log of driver calls and to set what it reports. Absent symbols stay null (a test that
// needs one asserts it first).
#pragma once

#include "tcc/runtime.h"

#include <dlfcn.h>

#include <cstdlib>
#include <functional>
#include <string>

namespace fakedriver {

struct Controls {
  const char* (*takeLog)() = nullptr;
  long (*launchCount)() = nullptr;
  bool (*setCc)(int, int) = nullptr;
  void (*setEncodeResult)(int) = nullptr;
  Controls() {
    void* h = ::dlopen(std::getenv("TCC_LIBCUDA"), RTLD_NOW | RTLD_LOCAL);
    if (!h)
      return;
    takeLog = reinterpret_cast<const char* (*)()>(::dlsym(h, "tcc_fake_take_log"));
    launchCount = reinterpret_cast<long (*)()>(::dlsym(h, "tcc_fake_launch_count"));
    setCc = reinterpret_cast<bool (*)(int, int)>(::dlsym(h, "tcc_fake_set_cc"));
    setEncodeResult = reinterpret_cast<void (*)(int)>(::dlsym(h, "tcc_fake_set_encode_result"));
  }
};

inline Controls& fake() {
  static Controls c;
  return c;
}

/// The driver calls logged since the last call.
inline std::string takeLog() { return fake().takeLog(); }

/// What `f` throws as a tcc::Error, or "(no error)".
inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const tcc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace fakedriver
