#!/usr/bin/env bash
# The one script run on the GPU machine (CUDA toolkit, cmake, ninja, g++, python3 with torch
# and triton; no LLVM/MLIR, no network). Usage:
#
#   bash scripts/gpu-run.sh [ARTIFACTS]      (default .carry/artifacts)
#
# Made here, carried there (scripts/prepare-gpu-run.sh): ARTIFACTS from
# scripts/build-artifacts.sh, and .carry/googletest (GoogleTest's sources, since the GPU
# machine has no libgtest). It configures and builds the runtime-only configuration, runs the
# unit and GPU tests, then tcc's benchmarks and, in the same run, Triton's and PyTorch's on
# the same shapes, and prints a summary table last. Everything is logged under $OUT (or
# out/gpu-run), at most 8 files:
#   build.log tests.log bench.log tcc-bench.json tcc-bench.csv tcc-launch.json triton.json
#   summary.txt
# Exit status: non-zero if the build, a test or a correctness check failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
art=$(realpath -m "${1:-.carry/artifacts}")
out=${OUT:-$root/out/gpu-run}
build=${TCC_GPU_BUILD_DIR:-$root/build-gpu}
jobs=$(nproc)
mkdir -p "$out"
export PYTHONUNBUFFERED=1
rc=0
step() { echo "== $* ($(date +%H:%M:%S))"; }

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
if [ ! -d "$art/fixture" ]; then
  echo "gpu-run: no artifacts at $art (run scripts/prepare-gpu-run.sh here, carry .carry)" | tee -a "$out/build.log"
  exit 2
fi

step "configure and build (runtime only) in $build" | tee -a "$out/build.log"
gtest_args=()
[ -d "$root/.carry/googletest" ] && gtest_args=(-DTCC_GTEST_SOURCE_DIR="$root/.carry/googletest")
if ! { cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DTCC_ENABLE_COMPILER=OFF -DTCC_ARTIFACTS="$art" "${gtest_args[@]}" &&
       ninja -C "$build" -j "$jobs"; } >>"$out/build.log" 2>&1; then
  tail -30 "$out/build.log"
  echo "gpu-run: BUILD FAILED (see build.log)"
  exit 1
fi
warnings=$(grep -c "warning:" "$out/build.log" || true)
echo "built; $warnings compiler warnings (see build.log)" | tee -a "$out/build.log"

step "tests" | tee "$out/tests.log"
if [ -x "$build/bin/tcc-gpu-tests" ]; then
  (cd "$build" && ctest -E '^gpu$' --output-on-failure -j "$jobs") >>"$out/tests.log" 2>&1 || rc=1
  TCC_ARTIFACTS="$art" "$build/bin/tcc-gpu-tests" --gtest_color=no >>"$out/tests.log" 2>&1 || rc=1
else
  echo "gpu-run: tcc-gpu-tests was not built (no GoogleTest?)" >>"$out/tests.log"
  rc=1
fi
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  (SKIPPED|FAILED) \] [0-9]+ tests?|tests passed|tests failed|^tcc-gpu:" "$out/tests.log"
grep -E "^\[  FAILED  \] [A-Za-z]" "$out/tests.log" | sort -u | head -20

step "benchmarks" | tee "$out/bench.log"
{
  step "tcc-bench (tcc kernels and the nvcc fixtures, n = 2^28)"
  "$build/bin/tcc-bench" --artifacts "$art" --json "$out/tcc-bench.json" --csv "$out/tcc-bench.csv" || rc=1
  step "tcc-launch-bench"
  "$build/bin/tcc-launch-bench" --artifacts "$art" --json "$out/tcc-launch.json" || rc=1
  step "triton_bench.py (Triton and PyTorch, same shapes)"
  # The device tool allows 600 s a command: keep the Python part inside what is left.
  left=$((560 - SECONDS))
  cold=()
  [ "$left" -lt 150 ] && cold=(--skip-cold-compile)
  [ "$left" -lt 60 ] && left=60
  timeout "$left" python3 "$root/bench/triton_bench.py" --json "$out/triton.json" "${cold[@]}" || rc=1
} >>"$out/bench.log" 2>&1
tail -5 "$out/bench.log"

step "summary"
python3 "$root/bench/report.py" --tcc "$out/tcc-bench.json" --launch "$out/tcc-launch.json" \
  --triton "$out/triton.json" --manifest "$art/MANIFEST.txt" >"$out/summary.txt" 2>&1
echo "build warnings: $warnings; exit status $rc" >>"$out/summary.txt"
cat "$out/summary.txt"
exit $rc
