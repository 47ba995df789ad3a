#!/usr/bin/env bash
# Configures (once) and builds tcc into build/ (or $TCC_BUILD_DIR) with ninja and ccache.
# Extra arguments are ninja targets. Builds are serialised with a lock: two builds on a
# 2-core machine only slow each other down.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TCC_BUILD_DIR:-$root/build}
jobs=${TCC_JOBS:-$(nproc)}
# Paths under the checkout are hashed relative to it, so a fresh clone elsewhere (CI) reuses
# the compiler cache of this one.
export CCACHE_BASEDIR="$root"
exec 9>/tmp/tcc-build.lock
flock 9
if [ ! -f "$build/build.ninja" ]; then
  cc=gcc; cxx=g++
  # clang 14 parses the LLVM/MLIR headers about 30 % faster than g++ 12.
  if command -v clang++-14 >/dev/null; then cc=clang-14; cxx=clang++-14; fi
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=$cc -DCMAKE_CXX_COMPILER=$cxx \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir ${TCC_CMAKE_ARGS:-}
fi
ninja -C "$build" -j "$jobs" "$@"
