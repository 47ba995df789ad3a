#!/usr/bin/env bash
# compute-sanitizer over a representative subset of the GPU tests (scripts/sanitize_select.py
# picks it: every kernel family, three configurations per kernel, every tensor-core path,
# the edge sizes, offsets past 2^31 bytes), once per tool: memcheck, racecheck, synccheck,
# initcheck. Run on the GPU machine, after or instead of scripts/gpu-run.sh (same build
# folder, same carried artifacts):
#
#   bash scripts/gpu-sanitize.sh [ARTIFACTS]        (default .carry/artifacts)
#
# Prints, per tool, the tests run, passed and failed and the errors compute-sanitizer
# reports (its ERROR SUMMARY / RACECHECK SUMMARY); logs under $OUT (sanitize-TOOL.log).
# Each tool gets a share of $TCC_GPU_SANITIZE_BUDGET (default 500 s). Exit status:
# non-zero on any error, failed test or a tool that did not finish.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$root" || exit 2
art=$(realpath -m "${1:-.carry/artifacts}")
out=${OUT:-$root/out/gpu-sanitize}
build=${TCC_GPU_BUILD_DIR:-$root/build-gpu}
budget=${TCC_GPU_SANITIZE_BUDGET:-500}
tools=${TCC_SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
mkdir -p "$out"
rc=0
# Under the sanitizers a test runs 10-100 times slower: no per-test watchdog
# (test/gpu/watchdog.h); timeout(1) below bounds each batch.
export TCC_GPU_TEST_TIMEOUT_S=${TCC_GPU_TEST_TIMEOUT_S:-0}
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ ! -x "$sanitizer" ]; then
  echo "gpu-sanitize: no compute-sanitizer on this machine"
  exit 2
fi
if [ ! -x "$build/bin/tcc-gpu-tests" ]; then
  echo "== build (runtime only)"
  gtest_args=()
  [ -d "$root/.carry/googletest" ] && gtest_args=(-DTCC_GTEST_SOURCE_DIR="$root/.carry/googletest")
  if ! { cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTCC_ENABLE_COMPILER=OFF \
           -DTCC_ARTIFACTS="$art" "${gtest_args[@]}" && ninja -C "$build" -j "$(nproc)"; } \
         >"$out/build.log" 2>&1; then
    tail -30 "$out/build.log"
    echo "gpu-sanitize: BUILD FAILED"
    exit 1
  fi
fi
ntools=$(echo "$tools" | wc -w)
summary=""
i=0
for tool in $tools; do
  i=$((i + 1))
  share=$(( (budget - SECONDS) / (ntools - i + 1) ))
  [ "$share" -lt 10 ] && share=10
  filters=$out/select-$tool.filters
  python3 "$root/scripts/sanitize_select.py" "$build/bin/tcc-gpu-tests" "$art" --tool "$tool" \
    >"$filters" 2>"$out/select-$tool.txt" || { echo "gpu-sanitize: selection failed"; exit 1; }
  log=$out/sanitize-$tool.log
  : >"$log"
  echo "== $tool ($(sed 's/^sanitize_select: //' "$out/select-$tool.txt"), at most $share s)"
  extra=()
  [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
  end=$((SECONDS + share))
  code=0
  # One process per filter line (a command-line argument holds 128 KiB).
  while IFS= read -r filter; do
    t=$((end - SECONDS))
    if [ "$t" -lt 5 ]; then
      code=124
      break
    fi
    TCC_ARTIFACTS="$art" timeout "$t" "$sanitizer" --tool "$tool" --print-limit 20 \
      --error-exitcode 86 "${extra[@]}" "$build/bin/tcc-gpu-tests" --gtest_color=no \
      --gtest_filter="$filter" >>"$log" 2>&1
    c=$?
    [ "$c" -ne 0 ] && code=$c
    [ "$c" -eq 124 ] && break
  done <"$filters"
  ran=$(grep -cE '^\[       OK \]|^\[  FAILED  \] [A-Za-z].* \([0-9]+ ms\)' "$log" || true)
  passed=$(grep -oE '^\[  PASSED  \] [0-9]+' "$log" | grep -oE '[0-9]+$' | awk '{s += $1} END {print s + 0}')
  failed=$(grep -oE '^\[  FAILED  \] [0-9]+ tests?,' "$log" | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}')
  errors=$(grep -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ (error|hazard)' "$log" | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}')
  summaries=$(grep -cE '(ERROR|RACECHECK) SUMMARY' "$log" || true)
  [ "$summaries" -eq 0 ] && errors="?"
  line="$tool: $ran tests run, $passed passed, $failed failed, $errors errors"
  if [ "$code" -eq 124 ]; then
    line="$line, TIMED OUT after $share s"
    rc=1
  elif [ "$code" -ne 0 ] || [ "$errors" != 0 ] || [ "$failed" != 0 ]; then
    line="$line (exit status $code)"
    rc=1
  fi
  echo "  $line ($SECONDS s)"
  grep -E "^========= (Invalid|Race|Barrier|Uninitialized|Error|Program hit)|^\[  FAILED  \] [A-Za-z]" \
    "$log" | sort | uniq -c | sort -rn | head -8 | sed 's/^/    /'
  summary="$summary$line; "
done
echo "compute-sanitizer: ${summary%; }" | tee "$out/summary.txt"
exit $rc
