#!/usr/bin/env bash
# A relocatable tcc for a machine without LLVM/MLIR (the GPU machine): the stripped tcc,
# libLLVM and the libraries Ubuntu 24.04 lacks (libz3), with a wrapper that points the
# loader at them. Usage: scripts/tcc-bundle.sh OUT.tar.xz   (then, there:
#   tar xJf OUT.tar.xz && tcc-bundle/tcc doctor)
# About 45 MB compressed; everything else tcc needs (libstdc++, libffi, libedit, libxml2,
# zlib, zstd) is part of a standard Ubuntu 24.04 or Debian 12.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:?usage: tcc-bundle.sh OUT.tar.xz}")
tcc=$root/build/bin/tcc
[ -x "$tcc" ] || { echo "tcc-bundle: build tcc first (scripts/build.sh tcc)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/tcc-bundle
mkdir -p "$b/lib"
cp "$tcc" "$b/tcc.bin"
strip "$b/tcc.bin"
for lib in libLLVM.so.22.1 libz3.so.4; do
  path=$(ldd "$tcc" | awk -v l="$lib" '$1 == l { print $3 }')
  [ -n "$path" ] || { echo "tcc-bundle: tcc does not use $lib?" >&2; exit 1; }
  cp -L "$path" "$b/lib/$lib"
done
cat >"$b/tcc" <<'WRAP'
#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/tcc.bin" "$@"
WRAP
chmod +x "$b/tcc"
tar -C "$tmp" -cf - tcc-bundle | xz -T0 -6 >"$out"
echo "tcc-bundle: $out ($(du -h "$out" | cut -f1))"
