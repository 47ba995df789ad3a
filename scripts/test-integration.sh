#!/usr/bin/env bash
# Builds the consumer project test/integration against an installed tcc, as another project
# would (find_package(tcc), tcc_add_kernels), and runs it. CI runs it as the ctest entry
# `integration`.
#
#   bash scripts/test-integration.sh [PREFIX] [--build DIR] [--save-headers DIR] [--keep]
#   bash scripts/test-integration.sh --headers DIR [--build DIR]        (the GPU machine)
#
# PREFIX: an installed tcc; without it, `cmake --install` of the build folder (--build, default
# build/ or $TCC_BUILD_DIR) into a temporary prefix, whose layout is checked (bin/tcc,
# bin/tile-opt, bin/tcc-tune, lib/libtccrt.{a,so}, include/tcc, lib/cmake/tcc; no libTCC*.a, no test tools).
# Then, for Ninja and for Unix Makefiles: configure and build the consumer, run it (without a
# GPU it checks on the CPU that two configurations embed different code and skips the
# launches), check that a second build does nothing, that touching a .tile file rebuilds its
# header and only it (tcc's depfile), and (once) that one unit including two default-namespace
# configurations of a kernel cannot call it unqualified.
#
# --save-headers DIR: copy the generated headers to DIR (for the GPU machine, which has no tcc).
# --headers DIR: a tcc built without the compiler (-DTCC_ENABLE_COMPILER=OFF, the GPU
#   machine): build the consumer from those headers instead of tcc_add_kernels (Ninja only).
# Environment: CXX (the consumer's compiler), TCC_INTEGRATION_JOBS (default: nproc).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TCC_BUILD_DIR:-$root/build}
prefix="" save_headers="" headers="" keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --save-headers) save_headers=$(realpath -m "$2"); shift 2 ;;
    --headers) headers=$(realpath "$2"); shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "test-integration: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) prefix=$(realpath "$1"); shift ;;
  esac
done
jobs=${TCC_INTEGRATION_JOBS:-$(nproc)}
work=$(mktemp -d "${TMPDIR:-/tmp}/tcc-integration.XXXXXX")
if [ "$keep" = 1 ]; then
  echo "test-integration: keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi
failed=0
say() { echo "test-integration: $*"; }
fail() { say "FAILED: $*"; failed=1; }
die() { say "FAILED: $*"; exit 1; }
start=$SECONDS

# --- the installed package -----------------------------------------------------------------
if [ -z "$prefix" ]; then
  prefix=$work/prefix
  # What the install copies is built first: a build folder made for other targets (the
  # artifacts' tcc and tcc-pack alone, on a fresh machine) lacks the runtime's libraries.
  installed=(tccrt tccrt_shared)
  targets=$(cmake --build "$build" --target help 2>/dev/null | sed -E 's/^[. ]*//; s/:.*//')
  for t in tcc tile-opt tcc-tune; do
    grep -qx "$t" <<<"$targets" && installed+=("$t")
  done
  cmake --build "$build" --target "${installed[@]}" >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log"; die "building ${installed[*]} in $build"; }
  cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; die "cmake --install $build"; }
  want=(lib/libtccrt.a lib/libtccrt.so include/tcc/tcc.h include/tcc/embedded.h
        lib/cmake/tcc/tccConfig.cmake lib/cmake/tcc/tccConfigVersion.cmake
        lib/cmake/tcc/tccTargets.cmake lib/cmake/tcc/TccAddKernels.cmake)
  [ -x "$build/bin/tcc-tune" ] && want+=(bin/tcc-tune)
  [ -z "$headers" ] && want+=(bin/tcc bin/tile-opt)
  for f in "${want[@]}"; do
    [ -e "$prefix/$f" ] || fail "the install has no $f"
  done
  extra=$(cd "$prefix" && find . -path ./include -prune -o -type f -print | sed 's|^\./||' |
          grep -v -E '^(bin/(tcc|tile-opt|tcc-tune)|lib/libtccrt\.(a|so[.0-9]*)|lib/cmake/tcc/[A-Za-z-]+\.cmake)$' || true)
  [ -z "$extra" ] || fail "the install has files it should not: $(echo $extra)"
  [ "$(ls "$prefix/include")" = tcc ] || fail "the install has include/$(ls "$prefix/include" | grep -v '^tcc$' | head -1)"
  say "installed $build to $prefix: $(cd "$prefix" && find . -type f | wc -l) files"
  # The test tool that stays behind answers --help.
  if [ -x "$build/bin/tcc-pack" ]; then
    "$build/bin/tcc-pack" --help | grep -q "never installed" || fail "tcc-pack --help"
  fi
fi
if [ -z "$headers" ]; then
  "$prefix/bin/tcc" --version >/dev/null || die "the installed tcc does not run"
fi

# --- the consumer, with each generator -----------------------------------------------------
cp -r "$root/test/integration" "$work/src"
gen_dir=tcc_kernels/tcc-integration
mtimes() { (cd "$1/$gen_dir" && stat -c '%n %y' ./*.h); }
gens=("Ninja" "Unix Makefiles")
[ -n "$headers" ] && gens=("Ninja")
first=1
for gen in "${gens[@]}"; do
  command -v "$([ "$gen" = Ninja ] && echo ninja || echo make)" >/dev/null ||
    { say "no $gen here: skipped"; continue; }
  b=$work/build-${gen// /-}
  args=(-S "$work/src" -B "$b" -G "$gen" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix")
  [ -n "$headers" ] && args+=(-DTCC_INTEGRATION_HEADERS="$headers")
  if ! cmake "${args[@]}" >"$b.log" 2>&1; then
    cat "$b.log"; fail "$gen: configure"; continue
  fi
  if ! cmake --build "$b" -j "$jobs" >>"$b.log" 2>&1; then
    tail -40 "$b.log"; fail "$gen: build"; continue
  fi
  if ! "$b/tcc-integration" >"$b.run.log" 2>&1; then
    cat "$b.run.log"; fail "$gen: tcc-integration"; continue
  fi
  [ "$first" = 1 ] && cat "$b.run.log"
  say "$gen: built and ran ($((SECONDS - start)) s)"
  [ -n "$headers" ] && continue

  if [ -n "$save_headers" ] && [ "$first" = 1 ]; then
    rm -rf "$save_headers" && mkdir -p "$save_headers"
    cp "$b/$gen_dir"/*.h "$save_headers/"
    say "saved the generated headers in $save_headers"
  fi
  # Depfiles: tcc wrote one per header, naming the .tile file.
  for d in "$b/$gen_dir"/*.d; do
    grep -q '\.tile' "$d" || fail "$gen: $(basename "$d") names no .tile file"
  done
  # Nothing changed: nothing is regenerated.
  before=$(mtimes "$b")
  sleep 1
  cmake --build "$b" -j "$jobs" >>"$b.log" 2>&1 || fail "$gen: second build"
  [ "$before" = "$(mtimes "$b")" ] || fail "$gen: a build with nothing changed regenerated headers"
  if [ "$gen" = Ninja ] && ! ninja -C "$b" -n | grep -q "no work to do"; then
    fail "$gen: ninja has work left after a build"
  fi
  # A touched .tile file: its header (only) is regenerated, and the program rebuilt.
  program=$(stat -c %y "$b/tcc-integration")
  touch "$work/src/two_kernels.tile"
  cmake --build "$b" -j "$jobs" >>"$b.log" 2>&1 || fail "$gen: build after touching two_kernels.tile"
  after=$(mtimes "$b")
  changed=$({ diff <(echo "$before") <(echo "$after") || true; } | awk '/^>/ {print $2}' |
           tr '\n' ' ')
  [ "$changed" = "./two_kernels.h " ] ||
    fail "$gen: touching two_kernels.tile regenerated [${changed}] instead of [./two_kernels.h]"
  [ "$(stat -c %y "$b/tcc-integration")" != "$program" ] ||
    fail "$gen: tcc-integration not rebuilt after two_kernels.h changed"
  "$b/tcc-integration" >/dev/null 2>&1 || fail "$gen: tcc-integration after the rebuild"

  if [ "$first" = 1 ]; then
    # Two default-namespace configurations in one unit: `fill` is ambiguous, a compile error
    # (never a silent choice of one cubin).
    cat >"$work/ambiguous.cpp" <<'EOF'
#include <fill_value3.h>
#include <fill_value4.h>
void f(CUdeviceptr p) { fill(nullptr, p, 1); }
EOF
    if "${CXX:-c++}" -std=c++17 -fsyntax-only -I"$prefix/include" -I"$b/$gen_dir" \
         "$work/ambiguous.cpp" >"$work/ambiguous.log" 2>&1; then
      fail "one unit including fill_value3.h and fill_value4.h compiles an unqualified fill()"
    elif ! grep -q -i "ambiguous" "$work/ambiguous.log"; then
      cat "$work/ambiguous.log"; fail "the two-configuration unit fails, but not as ambiguous"
    fi
  fi
  say "$gen: rebuilds checked ($((SECONDS - start)) s)"
  first=0

  # The depfile reaches the build system: a file named only in the depfile (added by a
  # wrapper around tcc, as tcc would name a file the kernel reads) makes the header stale.
  d=$work/depfile-${gen// /-}
  mkdir -p "$d/src"
  cp "$work/src/fill.tile" "$d/src/"
  echo "read by the kernel" >"$d/src/extra.txt"
  printf '%s\n' '#!/bin/sh' "\"$prefix/bin/tcc\" \"\$@\" || exit" \
    'while [ $# -gt 0 ]; do' \
    "  [ \"\$1\" = --depfile ] && sed -i '1s|\$| $d/src/extra.txt|' \"\$2\"" \
    '  shift' 'done' >"$d/tcc-wrapper"
  chmod +x "$d/tcc-wrapper"
  printf '%s\n' 'cmake_minimum_required(VERSION 3.20)' 'project(depfile_check LANGUAGES CXX)' \
    'find_package(tcc REQUIRED)' 'add_library(k STATIC k.cpp)' \
    'tcc_add_kernels(k SOURCES fill.tile)' >"$d/src/CMakeLists.txt"
  echo '#include <fill.h>' >"$d/src/k.cpp"
  if cmake -S "$d/src" -B "$d/build" -G "$gen" -DCMAKE_PREFIX_PATH="$prefix" \
       -DTCC_EXECUTABLE="$d/tcc-wrapper" >"$d.log" 2>&1 &&
     cmake --build "$d/build" >>"$d.log" 2>&1; then
    h=$d/build/tcc_kernels/k/fill.h
    before=$(stat -c %y "$h")
    sleep 1
    touch "$d/src/extra.txt"
    cmake --build "$d/build" >>"$d.log" 2>&1 || fail "$gen: depfile check: rebuild"
    [ "$(stat -c %y "$h")" != "$before" ] ||
      fail "$gen: a file named only in the depfile changed, but its header was not regenerated"
  else
    cat "$d.log"; fail "$gen: depfile check: configure or build"
  fi
done

if [ "$failed" = 0 ]; then
  say "passed ($((SECONDS - start)) s)"
else
  say "FAILED ($((SECONDS - start)) s)"
fi
exit "$failed"
