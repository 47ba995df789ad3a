#!/usr/bin/env bash
# Fuzzes tcc with libFuzzer in the sanitizer build (test/fuzz/, docs/sanitizers.md).
# Usage: scripts/fuzz.sh [TARGET|all] [SECONDS]  (TARGET: frontend, pipeline,
# interpreter-args, runtime; default all, one after another, 3600 s each). Seeds come from
# scripts/fuzz-seeds.py (the repository's .tile files, the test suite's arguments and .npy
# files, the metadata, cubins and PTX its lit runs left in the build); each corpus grows in
# build-asan/fuzz-corpus/TARGET, findings land in build-asan/fuzz-findings/TARGET/
# (crash-*, timeout-*, oom-*), each to become a regression test. TCC_FUZZ_PTXAS=PATH makes
# the pipeline target assemble what it compiles with that ptxas. Extra libFuzzer flags:
# TCC_FUZZ_FLAGS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
target=${1:-all}
seconds=${2:-3600}
build=${TCC_ASAN_BUILD_DIR:-$root/build-asan}
all="frontend pipeline interpreter-args runtime"
if [ "$target" = all ]; then targets=$all; else targets=$target; fi
for t in $targets; do
  case " $all " in *" $t "*) ;; *) echo "fuzz.sh: unknown target '$t' (expected: $all, all)" >&2; exit 2 ;; esac
done
bins=""
for t in $targets; do bins="$bins tcc-fuzz-$t"; done
# TCC_FUZZ_NO_BUILD=1 fuzzes the binaries as they are (while the tree does not build).
if [ -z "${TCC_FUZZ_NO_BUILD:-}" ]; then
  # shellcheck disable=SC2086
  TCC_BUILD_DIR="$build" TCC_CMAKE_ARGS="-DTCC_SANITIZE=ON" bash "$root/scripts/build.sh" $bins
fi
export ASAN_OPTIONS=allow_user_poisoning=0:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:abort_on_error=1
rc=0
for t in $targets; do
  corpus=$build/fuzz-corpus/$t
  findings=$build/fuzz-findings/$t
  mkdir -p "$corpus" "$findings"
  python3 "$root/scripts/fuzz-seeds.py" "$t" "$corpus" "$build"
  # shellcheck disable=SC2046
  "$build/bin/tcc-fuzz-$t" "$corpus" -max_total_time="$seconds" -rss_limit_mb=4096 \
    -artifact_prefix="$findings/" -print_final_stats=1 $("$root/scripts/fuzz-flags.sh" "$t") \
    ${TCC_FUZZ_FLAGS:-} || rc=1
done
exit $rc
