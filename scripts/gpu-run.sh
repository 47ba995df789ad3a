#!/usr/bin/env bash
# The one script run on the GPU machine (CUDA toolkit, cmake, ninja, g++, python3 with torch
# and triton; no LLVM/MLIR, no network). Usage:
#
#   bash scripts/gpu-run.sh [ARTIFACTS]      (default .carry/artifacts)
#
# Made here, carried there (scripts/prepare-gpu-run.sh): ARTIFACTS from
# scripts/build-artifacts.sh, the table test/gpu/artifacts.cmake built (with
# compile_times.json: tcc's compile times, measured where the artifacts were built), and
# .carry/googletest (the GPU machine has no libgtest).
#
# Steps, each with a share of a wall-time budget ($TCC_GPU_RUN_BUDGET, default 540 s: the
# device tool allows 600 s a command, unpacking and copying included: 570 ran over once)
# so that the summary is always printed (with the tutorial ports' rows, steps 2 and 3 no
# longer fit one call together: TCC_GPU_RUN_PHASES=tests, then =bench, in two). tcc-bench
# writes its JSON before each workload, so a limit that cuts it short keeps what it finished
# (the tutorial ports come last: `scripts/gpu-focus.sh NONE triton_` times them alone):
#   1. configure and build the runtime-only configuration (no LLVM/MLIR); configuring fails,
#      naming the files, when ARTIFACTS lacks one that the table promises;
#   2. unit tests (ctest) and the GPU tests, in several processes (a kernel that faults ends
#      its CUDA context, and with it only its own group): tcc's kernels by family, then the
#      nvcc cubins packed by tcc-pack;
#   3. Triton's kernels exported (bench/triton_bench.py --export-only: each configuration's
#      cubin and launch, checked through ctypes against Triton's own output), tcc-bench
#      (elementwise and 2-D workloads, and with --triton those cubins timed by the same
#      harness, A/B against tcc's best), tcc-launch-bench, then Triton and PyTorch on the
#      same shapes (bench/triton_bench.py, which skips what would not fit);
#   4. the summary table (bench/report.py), printed last.
# Logs under $OUT (or out/gpu-run), 11 files (asm.tgz: the kernels' PTX/SASS): build.log tests.log integration.log bench.log
# tcc-bench.json tcc-bench.csv tcc-bench-roofline.svg tcc-launch.json triton.json summary.txt.
# Exit status: non-zero if the build, a test or a correctness check failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$root" || exit 2
art=$(realpath -m "${1:-.carry/artifacts}")
out=${OUT:-$root/out/gpu-run}
build=${TCC_GPU_BUILD_DIR:-$root/build-gpu}
budget=${TCC_GPU_RUN_BUDGET:-540}
# TCC_GPU_RUN_PHASES=tests or =bench runs one half (the build and the summary always), each
# with the whole budget: two device calls when one no longer fits the tool's 600 s.
phases=${TCC_GPU_RUN_PHASES:-tests,bench}
want() { [[ ",$phases," == *",$1,"* ]]; }
# Time kept for later steps counts a quarter when the benchmarks do not follow.
keep_scale=4
want bench || keep_scale=1
jobs=$(nproc)
mkdir -p "$out"
export PYTHONUNBUFFERED=1
rc=0
step() { echo "== $* ($(date +%H:%M:%S), ${SECONDS} s)"; }
left() { echo $((budget - SECONDS)); }
# A phase's time limit: at most $1 seconds, and never eating into $2 seconds kept for later.
limit() {
  local want=$1 keep=$(($2 * keep_scale / 4)) l
  l=$(($(left) - keep))
  [ "$l" -gt "$want" ] && l=$want
  [ "$l" -lt 5 ] && l=5
  echo "$l"
}

step "environment" | tee "$out/build.log"
{
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?') $(git status --porcelain 2>/dev/null | wc -l) changed files"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1
  command -v nvcc >/dev/null && nvcc --version | tail -1
  cmake --version | head -1
  ninja --version
  ${CXX:-c++} --version | head -1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' 2>&1
  echo "artifacts: $art"
  cat "$art/MANIFEST.txt" 2>&1
} >>"$out/build.log" 2>&1
if [ ! -f "$art/MANIFEST.txt" ]; then
  echo "gpu-run: no artifacts at $art (run scripts/prepare-gpu-run.sh here, carry .carry)" | tee -a "$out/build.log"
  exit 2
fi

step "configure and build (runtime only) in $build" | tee -a "$out/build.log"
gtest_args=()
[ -d "$root/.carry/googletest" ] && gtest_args=(-DTCC_GTEST_SOURCE_DIR="$root/.carry/googletest")
# shellcheck disable=SC2016 # expanded by the inner bash
if ! timeout "$(limit 300 240)" bash -c '
       cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTCC_ENABLE_COMPILER=OFF \
         -DTCC_ARTIFACTS="$3" "${@:5}" && ninja -C "$2" -j "$4"' _ \
       "$root" "$build" "$art" "$jobs" "${gtest_args[@]}" >>"$out/build.log" 2>&1; then
  tail -30 "$out/build.log"
  echo "gpu-run: BUILD FAILED (see build.log)"
  exit 1
fi
warnings=$(grep -c "warning:" "$out/build.log" || true)
echo "built in ${SECONDS} s; $warnings compiler warnings (see build.log)" | tee -a "$out/build.log"

tests_summary="not run (TCC_GPU_RUN_PHASES=$phases)"
if want tests; then
step "tests" | tee "$out/tests.log"
tests_summary="not run"
if [ -x "$build/bin/tcc-gpu-tests" ]; then
  (cd "$build" && timeout "$(limit 60 360)" ctest -E '^gpu$' --output-on-failure -j "$jobs") \
    >>"$out/tests.log" 2>&1 || rc=1
  passed=0 failed=0 skipped=0 notrun=""
  # name|filter: tcc's kernels by family, then nvcc's vector add and copy packed by tcc-pack
  # (foreign cubins, whose 16-byte variant faults on misaligned pointers).
  groups=(
    "other|-Artifacts/*"
    "tcc-elementwise|Artifacts/Elementwise.*/tcc_*"
    "tcc-matrix|Artifacts/MatrixKernels.*/tcc_*"
    "tcc-rows|Artifacts/RowKernels.*/tcc_*"
    "tcc-matmul|Artifacts/Matmul.*/tcc_*"
    "sass|Artifacts/Sass.*"
    "tcc-pack|Artifacts/Elementwise.*/fixture_*"
  )
  tests_end=$((SECONDS + $(limit 330 300)))
  for g in "${groups[@]}"; do
    name=${g%%|*}
    filter=${g#*|}
    t=$((tests_end - SECONDS))
    if [ "$t" -lt 10 ]; then
      notrun="$notrun $name"
      continue
    fi
    step "tests: $name ($filter)" >>"$out/tests.log"
    log=$(mktemp)
    TCC_ARTIFACTS="$art" timeout "$t" "$build/bin/tcc-gpu-tests" --gtest_color=no \
      --gtest_filter="$filter" >"$log" 2>&1
    code=$?
    cat "$log" >>"$out/tests.log"
    p=$(grep -oE '^\[  PASSED  \] [0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
    f=$(grep -oE '^\[  FAILED  \] [0-9]+ tests?,' "$log" | grep -oE '[0-9]+' || echo 0)
    s=$(grep -oE '^\[  SKIPPED \] [0-9]+ tests?,' "$log" | grep -oE '[0-9]+' || echo 0)
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    line="$name: $p passed, $f failed, $s skipped"
    if [ "$code" -eq 124 ]; then
      line="$line, TIMED OUT"
      rc=1
    elif [ "$code" -ne 0 ]; then
      rc=1
      [ "$f" -eq 0 ] && line="$line, exit status $code"
    fi
    echo "  $line ($SECONDS s)"
    grep -E "^\[  FAILED  \] [A-Za-z]" "$log" | sort -u | head -8 | sed 's/^/    /'
    rm -f "$log"
  done
  tests_summary="$passed passed, $failed failed, $skipped skipped"
  [ -n "$notrun" ] && tests_summary="$tests_summary; not run for lack of time:$notrun"
  grep -E "^tcc-gpu:" "$out/tests.log" | head -1
  grep -E "tests passed|tests failed" "$out/tests.log" | head -2
  echo "GPU tests: $tests_summary"
else
  echo "gpu-run: tcc-gpu-tests was not built (no GoogleTest?)" | tee -a "$out/tests.log"
  rc=1
fi

step "consumer project (test/integration against the installed runtime)" | tee -a "$out/tests.log"
integration_summary="not run"
if [ -d "$root/.carry/integration-headers" ]; then
  if timeout "$(limit 120 300)" bash "$root/scripts/test-integration.sh" --build "$build" \
       --headers "$root/.carry/integration-headers" >"$out/integration.log" 2>&1; then
    integration_summary="passed"
  else
    integration_summary="FAILED (see integration.log)"
    rc=1
  fi
  tail -12 "$out/integration.log"
fi
echo "consumer project: $integration_summary"
tests_summary="$tests_summary; consumer project $integration_summary"

# tcc doctor on this machine, from a relocatable tcc (scripts/tcc-bundle.sh, 40 MB: carried
# on its own, e.g. `.carry/doctor`, as it does not fit beside the artifacts in one carry).
if [ -f "$root/.carry/doctor/tcc-bundle.tar.xz" ]; then
  step "tcc doctor (relocatable tcc)" | tee -a "$out/tests.log"
  rm -rf "$build/tcc-bundle" && tar -C "$build" -xJf "$root/.carry/doctor/tcc-bundle.tar.xz"
  if timeout 120 "$build/tcc-bundle/tcc" doctor >>"$out/tests.log" 2>&1; then
    tests_summary="$tests_summary; tcc doctor OK"
  else
    tests_summary="$tests_summary; tcc doctor FAILED"
    rc=1
  fi
  tail -1 "$out/tests.log"
fi

# The offline tuner on the course's vector add (docs/autotuning.md): the table and the
# report (text, CSV, JSON, sweep and roofline SVGs) into $out/tune, for a look.
if [ -x "$build/bin/tcc-tune" ] && [ -d "$art/kinds/default/vector_add" ]; then
  step "tcc-tune (vector_add, report in tune/)" | tee -a "$out/tests.log"
  mkdir -p "$out/tune"
  if TCC_CACHE_DIR= timeout "$(limit 60 200)" "$build/bin/tcc-tune" "$art/kinds/default/vector_add" \
       --shape n=1048576,268435456 x=rand:n y=rand:n out=empty:n --peak "$art/tcc/tensor_peak" \
       --budget-ms 20 -o "$out/tune/vector_add.tuning.json" --report "$out/tune" \
       >"$out/tune.log" 2>&1; then
    tests_summary="$tests_summary; tcc-tune OK"
  else
    tests_summary="$tests_summary; tcc-tune FAILED (see tune.log)"
    rc=1
  fi
  head -4 "$out/tune.log"
fi
fi # want tests

if want bench; then
step "benchmarks" | tee "$out/bench.log"
{
  step "triton_bench.py --export-only (Triton's cubins, for tcc-bench --triton)"
  tri_export="$build/triton-export"
  rm -rf "$tri_export"
  timeout "$(limit 120 250)" python3 "$root/bench/triton_bench.py" --export-only --export-selftest \
    --export "$tri_export" --json "$build/triton-export.json" || rc=1
  triton_args=()
  [ -d "$tri_export" ] && triton_args=(--triton "$tri_export" --rounds 6)
  step "tcc-bench (elementwise n = 2^28, then the 2-D workloads; Triton's cubins A/B)"
  timeout "$(limit 240 105)" "$build/bin/tcc-bench" --artifacts "$art" --budget-ms 100 \
    --json "$out/tcc-bench.json" --csv "$out/tcc-bench.csv" \
    --roofline "$out/tcc-bench-roofline.svg" "${triton_args[@]}" || rc=1
  step "tcc-launch-bench"
  timeout "$(limit 30 95)" "$build/bin/tcc-launch-bench" --artifacts "$art" \
    --json "$out/tcc-launch.json" || rc=1
  step "triton_bench.py (Triton and PyTorch, same shapes)"
  t=$(limit 400 15)
  timeout "$t" python3 "$root/bench/triton_bench.py" --json "$out/triton.json" \
    --deadline $((t - 10)) || rc=1
  step "sass_compare.py (tcc's and Triton's SASS for the same configurations)"
  timeout "$(limit 60 25)" python3 "$root/bench/sass_compare.py" "$art" --out "$build/sass-compare.txt" || true
  step "asm.tgz (Triton's exported kernels: PTX, SASS, registers; tcc's tutorial ports: SASS)"
  asm="$build/asm"
  rm -rf "$asm" && mkdir -p "$asm/triton" "$asm/tcc"
  [ -d "$tri_export" ] && cp -r "$tri_export"/. "$asm/triton/"
  [ -d "$art/tcc" ] && for d in "$art"/tcc/triton_*; do
    [ -d "$d" ] && cp -r "$d" "$asm/tcc/"
  done
  asm_until=$((SECONDS + $(limit 20 5)))
  find "$asm" -name '*.cubin' | while read -r c; do
    [ "$SECONDS" -lt "$asm_until" ] &&
      timeout 10 cuobjdump --dump-sass "$c" >"${c%.cubin}.sass" 2>&1
    rm -f "$c"
  done
  tar czf "$out/asm.tgz" -C "$asm" . && ls -l "$out/asm.tgz"
} >>"$out/bench.log" 2>&1
grep -E "WRONG|FAILED|skipped" "$out/bench.log" | head -12
tail -3 "$out/bench.log"
fi # want bench

step "summary"
python3 "$root/bench/report.py" --tcc "$out/tcc-bench.json" --launch "$out/tcc-launch.json" \
  --triton "$out/triton.json" --compile-times "$art/compile_times.json" \
  --manifest "$art/MANIFEST.txt" --tests "$tests_summary" >"$out/summary.txt" 2>&1
if [ -s "$build/sass-compare.txt" ]; then
  { echo; echo "SASS, aligned variants (cuobjdump; counts of instructions in the kernel body):"
    cat "$build/sass-compare.txt"; } >>"$out/summary.txt"
fi
echo "build warnings: $warnings; wall time ${SECONDS} s; exit status $rc" >>"$out/summary.txt"
cat "$out/summary.txt"
exit $rc
