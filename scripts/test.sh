#!/usr/bin/env bash
# Sets up (idempotent), builds everything and runs every test: lit + FileCheck compiler
# tests, GoogleTest units, the interpreter's example checks, and the GPU tests (which skip
# themselves with a message where there is no GPU), then lit and the units again under
# AddressSanitizer + UndefinedBehaviorSanitizer. Exit status is non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TCC_BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
cd "$build"
# lit first, verbosely enough to show its counts; then everything else (GoogleTest, GPU).
rc=0
ctest -R '^lit$' -V "$@" | grep -v -E '^[0-9]+: (PASS|UNSUPPORTED): ' || rc=1
ctest -E '^lit$' --output-on-failure -j "${TCC_JOBS:-$(nproc)}" "$@" || rc=1
# The same suites under ASan + UBSan (docs/sanitizers.md); TCC_SKIP_SANITIZERS=1 skips them.
if [ "${TCC_SKIP_SANITIZERS:-0}" != 1 ]; then
  bash "$root/scripts/test-sanitizers.sh" || rc=1
fi
exit $rc
