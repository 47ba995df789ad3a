#!/usr/bin/env bash
# Prepares, here, what scripts/gpu-run.sh needs on the GPU machine, in .carry/ (ignored by
# git; name it in the device run's `carry`): the artifacts (scripts/build-artifacts.sh) and
# GoogleTest's sources (the GPU machine has no libgtest).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Always run: it brings tcc and tcc-pack up to date and remakes every artifact older than
# them, its source or its line of the table (test/gpu/CMakeLists.txt says why the tcc build's
# GPU tests do not depend on the artifacts instead).
bash "$root/scripts/build-artifacts.sh" "$root/.carry/artifacts"
gtest=${TCC_GTEST_SOURCES:-/usr/src/googletest}
if [ -f "$gtest/googletest/CMakeLists.txt" ]; then
  rm -rf "$root/.carry/googletest"
  cp -r "$gtest" "$root/.carry/googletest"
else
  echo "prepare-gpu-run: no GoogleTest sources at $gtest (apt-get install libgtest-dev)" >&2
  exit 1
fi
# The consumer project (test/integration) compiled to headers here, where tcc runs; the GPU
# machine builds it against its runtime-only build and runs it.
rm -rf "$root/.carry/integration-headers"
bash "$root/scripts/test-integration.sh" --save-headers "$root/.carry/integration-headers"
echo "prepared $root/.carry ($(du -sh "$root/.carry" | cut -f1)); on the GPU machine:"
echo "  bash scripts/gpu-run.sh .carry/artifacts     (carry: .carry)"
