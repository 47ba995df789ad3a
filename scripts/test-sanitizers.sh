#!/usr/bin/env bash
# The lit suite and the GoogleTest units under AddressSanitizer + UndefinedBehaviorSanitizer
# (docs/sanitizers.md): builds build-asan/ with -DTCC_SANITIZE=ON (ccache shares what it
# can), then runs the tests there. The consumer-project and GPU entries are left to the
# normal build. Exit status non-zero on any failure or report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TCC_ASAN_BUILD_DIR:-$root/build-asan}
TCC_BUILD_DIR="$build" TCC_CMAKE_ARGS="-DTCC_SANITIZE=ON" bash "$root/scripts/build.sh"
export ASAN_OPTIONS=allow_user_poisoning=0:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:abort_on_error=1
cd "$build"
rc=0
echo "== sanitizers: lit"
ctest -R '^lit$' -V | grep -v -E '^[0-9]+: (PASS|UNSUPPORTED): ' || rc=1
echo "== sanitizers: GoogleTest units"
# Leak checking stays on for the compiler (lit, above); the units load a fake CUDA driver
# with dlopen, and LeakSanitizer's tracer crashed at their exit on the CI machine ("Tracer
# caught signal 11"), so there it is off (docs/sanitizers.md).
ASAN_OPTIONS=allow_user_poisoning=0:abort_on_error=1:detect_leaks=0 \
  ctest -E '^(lit|gpu|integration)$' --output-on-failure -j "${TCC_JOBS:-$(nproc)}" || rc=1
# A short fuzz run of every libFuzzer target from its seeds (scripts/fuzz-seeds.py: the
# repository's .tile files, the test suite's arguments and .npy files, the metadata, cubins
# and PTX lit just left here): any crash, sanitizer report, timeout or internal error fails
# CI. TCC_FUZZ_SMOKE_S seconds each (45: about 3 minutes for the four); scripts/fuzz.sh is
# the long run.
smoke_s=${TCC_FUZZ_SMOKE_S:-45}
for t in frontend pipeline interpreter-args runtime; do
  bin=$build/bin/tcc-fuzz-$t
  [ -x "$bin" ] || continue
  echo "== sanitizers: fuzz smoke ($t, $smoke_s s)"
  smoke=$(mktemp -d)
  python3 "$root/scripts/fuzz-seeds.py" "$t" "$smoke" "$build" >/dev/null
  # shellcheck disable=SC2046
  "$bin" "$smoke" -max_total_time="$smoke_s" -rss_limit_mb=4096 \
    -artifact_prefix="$build/fuzz-smoke-$t-" -print_final_stats=1 \
    $("$root/scripts/fuzz-flags.sh" "$t") >"$build/fuzz-smoke-$t.log" 2>&1 ||
    { rc=1; tail -40 "$build/fuzz-smoke-$t.log"; }
  grep -E "^stat::number_of_executed_units|^#[0-9]+ +DONE" "$build/fuzz-smoke-$t.log" | head -2 || true
  rm -rf "$smoke"
done
echo "sanitizers: exit status $rc"
exit $rc
