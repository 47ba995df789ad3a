#!/usr/bin/env bash
# A focused GPU run for work on one kernel family (scripts/gpu-run.sh is the full one):
# builds the runtime-only configuration, runs the GPU tests matching a filter, benchmarks
# the matching workloads with tcc-bench and Triton/PyTorch, and summarises the SASS of the
# matching cubins (instruction mix: HGMMA/HMMA/LDSM/LDGSTS, registers, spills). Before
# tcc-bench, Triton's kernels of the matching workloads are exported (bench/triton_bench.py
# --export-only) and tcc-bench --triton times them with tcc's own harness, A/B against tcc's
# best ($TCC_FOCUS_ROUNDS rounds, default 6; TCC_FOCUS_TRITON=0 skips Triton). Usage, on
# the GPU machine, with artifacts made here by
#   TCC_ARTIFACT_EXAMPLES="matmul ..." bash scripts/build-artifacts.sh .carry/artifacts:
#
#   bash scripts/gpu-focus.sh TEST_FILTER BENCH_FILTER [ARTIFACTS]
#
# e.g. gpu-focus.sh 'Artifacts/Matmul.*/tcc_*' matmul (BENCH_FILTER "a,b": either). Logs and
# results under $OUT. The SASS step takes the cubins whose path matches $TCC_FOCUS_SASS
# (default BENCH_FILTER); matmul's bf16 configurations are tcc/matmul/DTYPEbf16_*, so
# for matmul_bf16_4096^3: TCC_FOCUS_SASS=DTYPEbf16 gpu-focus.sh
# 'Artifacts/Matmul.*/tcc_matmul_DTYPEbf16_*' matmul_bf16. $TCC_FOCUS_KEEP (an extended
# regex) trims a copy of the artifacts to the configuration folders whose name matches it
# (tcc/<kernel>/<config>), so that tcc-bench times only those, e.g.
# TCC_FOCUS_KEEP='^(PINGPONG_.*|WS_BM128_BN256_BK64_W8_S3)$'.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$root" || exit 2
test_filter=${1:?test filter}
bench_filter=${2:?bench filter}
art=$(realpath -m "${3:-.carry/artifacts}")
out=${OUT:-$root/out/gpu-focus}
build=${TCC_GPU_BUILD_DIR:-$root/build-gpu}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
if [ -n "${TCC_FOCUS_KEEP:-}" ]; then
  trimmed="$build/focus-artifacts"
  rm -rf "$trimmed" && mkdir -p "$build" && cp -r "$art" "$trimmed" || exit 2
  for d in "$trimmed"/tcc/*/*/; do
    grep -qE "$TCC_FOCUS_KEEP" <<<"$(basename "$d")" || rm -rf "$d"
  done
  echo "== artifacts trimmed to $TCC_FOCUS_KEEP: $(ls -d "$trimmed"/tcc/*/*/ | wc -l) configuration folders"
  art=$trimmed
fi
rc=0
step() { echo "== $* (${SECONDS} s)"; }

step "build (runtime only)"
gtest_args=()
[ -d "$root/.carry/googletest" ] && gtest_args=(-DTCC_GTEST_SOURCE_DIR="$root/.carry/googletest")
if ! { cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTCC_ENABLE_COMPILER=OFF \
         -DTCC_ARTIFACTS="$art" "${gtest_args[@]}" && ninja -C "$build" -j "$(nproc)"; } \
       >"$out/build.log" 2>&1; then
  tail -30 "$out/build.log"
  echo "gpu-focus: BUILD FAILED"
  exit 1
fi

step "GPU tests: $test_filter"
TCC_ARTIFACTS="$art" timeout "${TCC_FOCUS_TEST_S:-240}" "$build/bin/tcc-gpu-tests" \
  --gtest_color=no --gtest_filter="$test_filter" >"$out/tests.log" 2>&1 || rc=1
grep -E "^\[  (PASSED|FAILED|SKIPPED) \]" "$out/tests.log" | sort | uniq -c | sort -rn | head -30
grep -B2 -A12 "Failure" "$out/tests.log" | head -80

triton_args=()
if [ "${TCC_FOCUS_TRITON:-1}" = 1 ]; then
  step "Triton's kernels exported: $bench_filter"
  tri_export="$build/triton-export"
  rm -rf "$tri_export"
  timeout "${TCC_FOCUS_EXPORT_S:-120}" python3 "$root/bench/triton_bench.py" --export-only \
    --export-selftest --export "$tri_export" --skip-elementwise --filter "$bench_filter" \
    >"$out/triton-export.log" 2>&1 || rc=1
  grep -E "exported|FAILED|WRONG" "$out/triton-export.log" | tail -20
  [ -d "$tri_export" ] && triton_args=(--triton "$tri_export" --rounds "${TCC_FOCUS_ROUNDS:-6}")
fi

step "tcc-bench: $bench_filter"
timeout "${TCC_FOCUS_BENCH_S:-150}" "$build/bin/tcc-bench" --artifacts "$art" --budget-ms 100 \
  --skip-elementwise --filter "$bench_filter" --json "$out/tcc-bench.json" \
  "${triton_args[@]}" >"$out/tcc-bench.log" 2>&1 || rc=1
grep -vE "^ *$" "$out/tcc-bench.log" | tail -60

if [ "${TCC_FOCUS_TRITON:-1}" = 1 ]; then
  step "Triton and PyTorch: $bench_filter"
  timeout "${TCC_FOCUS_TRITON_S:-150}" python3 "$root/bench/triton_bench.py" --skip-elementwise \
    --skip-launch --skip-cold-compile --filter "$bench_filter" --json "$out/triton.json" \
    >"$out/triton.log" 2>&1 || rc=1
  grep -E "triton |torch " "$out/triton.log" | tail -40
fi

step "SASS of the matching cubins"
{
  for c in $(find "$art/tcc" -name '*.cubin' | grep -E "${TCC_FOCUS_SASS:-${bench_filter//,/|}}" | sort | head -40); do
    sass=$(cuobjdump --dump-sass "$c" 2>/dev/null)
    res=$(cuobjdump --dump-resource-usage "$c" 2>/dev/null | grep -oE "REG:[0-9]+|STACK:[0-9]+|SHARED:[0-9]+" | tr '\n' ' ')
    count() { grep -cE "$1" <<<"$sass"; }
    printf '%-70s %s HGMMA=%s HMMA=%s LDSM=%s LDGSTS=%s LDG=%s STG=%s BAR=%s LDL/STL=%s\n' \
      "${c#"$art"/tcc/}" "$res" "$(count 'HGMMA')" "$(count 'HMMA')" "$(count 'LDSM')" \
      "$(count 'LDGSTS')" "$(count ' LDG')" "$(count ' STG')" "$(count ' BAR')" \
      "$(count ' (LDL|STL)')"
  done
} >"$out/sass.txt" 2>&1
cat "$out/sass.txt"
# The whole SASS of the cubins named by $TCC_FOCUS_DUMP (a regex), for reading here.
if [ -n "${TCC_FOCUS_DUMP:-}" ]; then
  for c in $(find "$art/tcc" -name '*.cubin' | grep -E "$TCC_FOCUS_DUMP" | sort | head -3); do
    echo "### $c"
    cuobjdump --dump-sass "$c"
  done >"$out/dump.sass" 2>&1
fi
echo "gpu-focus: exit status $rc, ${SECONDS} s"
exit $rc
