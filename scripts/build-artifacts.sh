#!/usr/bin/env bash
# Builds what the GPU tests and benchmarks load into DIR (default build/artifacts): the table
# test/gpu/artifacts.cmake (what is built, the folder's layout), built by its own CMake
# project, test/gpu/artifacts/CMakeLists.txt, with
#   tcc       of the tcc build $TCC_BUILD_DIR (default build/), brought up to date here
#             (scripts/build.sh tcc); or $TCC, a tcc built elsewhere, used as it is
#   tcc-pack  of the same build (scripts/build.sh tcc-pack: the runtime, the artifact
#             writers of compiler/Target and tcc-pack)
#   nvcc      $CUDA_HOME/bin/nvcc (default /usr/local/cuda), for the few cubins the runtime
#             needs and tcc cannot make (test/gpu/fixtures/elementwise.cu: a foreign cubin
#             for tcc-pack, the launch-overhead kernel, wrong architectures)
# in the build folder $TCC_ARTIFACT_BUILD_DIR (default build-art/<DIR's path>). Every output
# depends on its sources and on the programs that make it: a second run after a change to
# tcc remakes what tcc made, and files no entry of the table makes are removed. A command
# that fails (tcc, nvcc, tcc-pack) fails the build and this script (exit 1), with what it
# printed. The folder's MANIFEST.txt says what made it, FILES.txt lists every file; the
# runtime-only build on the GPU machine checks the folder against the table.
#
# Environment: TCC_ARTIFACT_EXAMPLES="matmul matmul_bias" keeps only those examples'
# configurations (a focused GPU run, scripts/gpu-focus.sh; everything else is built either
# way); TCC_TIMING_RUNS (default 3): runs of each default configuration in
# compile_times.json; TCC_LIBDEVICE: libdevice.10.bc (default the toolkit's).
# Usage: scripts/build-artifacts.sh [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=$(realpath -m "${1:-$root/build/artifacts}")
build=${TCC_BUILD_DIR:-$root/build}
rel=${art#"$root"/}
abuild=${TCC_ARTIFACT_BUILD_DIR:-$root/build-art/$(printf '%s' "$rel" | tr -c 'A-Za-z0-9_-' '_')}
mkdir -p "$build"
targets=(tcc-pack)
[ -z "${TCC:-}" ] && targets+=(tcc)
if ! TCC_BUILD_DIR=$build bash "$root/scripts/build.sh" "${targets[@]}" >"$build/artifacts-tools.log" 2>&1; then
  tail -30 "$build/artifacts-tools.log" >&2
  echo "build-artifacts: building ${targets[*]} in $build FAILED (log: $build/artifacts-tools.log)" >&2
  exit 1
fi
tcc=${TCC:-$build/bin/tcc}
[ -x "$tcc" ] || { echo "build-artifacts: no tcc at $tcc" >&2; exit 1; }

args=(-DTCC_EXECUTABLE="$(realpath "$tcc")" -DTCC_PACK_EXECUTABLE="$build/bin/tcc-pack"
      -DTCC_ARTIFACTS="$art" -DTCC_ARTIFACT_EXAMPLES="${TCC_ARTIFACT_EXAMPLES:-}"
      -DTCC_TIMING_RUNS="${TCC_TIMING_RUNS:-3}")
[ -n "${CUDA_HOME:-}" ] && args+=(-DCUDA_HOME="$CUDA_HOME")
[ -n "${TCC_LIBDEVICE:-}" ] && args+=(-DTCC_LIBDEVICE="$TCC_LIBDEVICE")
mkdir -p "$abuild"
cmake -S "$root/test/gpu/artifacts" -B "$abuild" -G Ninja "${args[@]}" >"$abuild/configure.log" 2>&1 ||
  { cat "$abuild/configure.log" >&2; echo "build-artifacts: configuring $abuild FAILED" >&2; exit 1; }
if ! ninja -C "$abuild" -j "$(nproc)"; then
  echo "build-artifacts: FAILED (the first error above; build folder $abuild)" >&2
  exit 1
fi
cat "$art/MANIFEST.txt"
echo "artifacts in $art ($(find "$art" -name '*.cubin' | wc -l) cubins, $(du -sh "$art" | cut -f1))"
