#!/usr/bin/env bash
# The newcomer's first command: installs what tcc needs, builds it, and compiles the
# vector add example to PTX, cubins (general and 16-byte-aligned variants) with their
# metadata, and a C++ launch header embedding both, under
# build/examples/. Without a CUDA toolkit (no ptxas) it stops at PTX.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TCC_BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" tcc tile-opt
out="$build/examples"
mkdir -p "$out"
tcc="$build/bin/tcc"
src="$root/lang-examples/vector_add.tile"
echo "== $src"
cat "$src"
"$tcc" "$src" --emit=ptx -o "$out/vector_add.ptx"
echo "== PTX: $out/vector_add.ptx (global accesses shown)"
grep -E 'ld\.global|st\.global' "$out/vector_add.ptx"
if "$tcc" "$src" --emit=cubin --variants=auto -o "$out/vector_add.cubin" 2>/dev/null; then
  "$tcc" "$src" --emit=header --variants=auto -o "$out/vector_add.h"
  echo "== cubins (general and specialised variants), metadata and launch header:"
  ls -l "$out"/vector_add*.cubin "$out"/vector_add*.json "$out/vector_add.h"
else
  echo "== no ptxas (CUDA toolkit) found: stopped at PTX; set CUDA_HOME to assemble cubins"
fi
