#!/usr/bin/env bash
# Fuzzes tcc's front end with libFuzzer (test/fuzz/frontend_fuzz.cpp) in the sanitizer
# build. Usage: scripts/fuzz.sh [SECONDS] (default 3600). Seeds: every .tile file of the
# repository; the corpus grows in build-asan/fuzz-corpus/frontend, findings land in
# build-asan/fuzz-findings/ (crash-*, timeout-*), each to become a regression test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-3600}
build=${TCC_ASAN_BUILD_DIR:-$root/build-asan}
TCC_BUILD_DIR="$build" TCC_CMAKE_ARGS="-DTCC_SANITIZE=ON" bash "$root/scripts/build.sh" tcc-fuzz-frontend
corpus=$build/fuzz-corpus/frontend
findings=$build/fuzz-findings
mkdir -p "$corpus" "$findings"
find "$root/lang-examples" "$root/test" -name '*.tile' -not -path '*/Output/*' \
  -exec cp -n {} "$corpus/" \; 2>/dev/null || true
export ASAN_OPTIONS=allow_user_poisoning=0:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:abort_on_error=1
"$build/bin/tcc-fuzz-frontend" "$corpus" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=4096 -max_len=4096 -artifact_prefix="$findings/" -print_final_stats=1
