#!/usr/bin/env bash
# Builds what the GPU tests and benchmarks load, into DIR (default build/artifacts):
#
#   DIR/fixture/<kernel>/BLOCK<b>_W<w>/   nvcc-built stand-ins (test/gpu/fixtures/elementwise.cu)
#                                         wrapped by tcc-pack: a general variant and a 16-byte
#                                         specialised one (*.d16_*.cubin/json)
#   DIR/fixture/tiny/                     a near-empty kernel for launch-overhead measurements
#   DIR/fixture/errors/{sm_80,sm_100,mismatch}/   cubins for the wrong architecture
#   DIR/fixture/headers/*.h               generated launch headers (HeaderWriter) of the above
#   DIR/tcc/<example>/BLOCK<b>_W<w>/      lang-examples compiled by tcc, once tcc emits cubins
#   DIR/MANIFEST.txt                      what made them
#
# Needs nvcc (CUDA_HOME or /usr/local/cuda). Builds tcc-pack in a runtime-only build
# (build-rt/, no LLVM needed). Usage: scripts/build-artifacts.sh [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=$(realpath -m "${1:-$root/build/artifacts}")
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}
arch=${TCC_ARCH:-sm_90}
blocks=${TCC_BLOCKS:-"128 256 1024 4096"}
# Extra configurations for the benchmark sweep: BLOCK:NUM_WARPS.
extra=${TCC_EXTRA_CONFIGS:-"1024:8 2048:4 2048:8 4096:8"}
rtbuild=${TCC_RT_BUILD_DIR:-$root/build-rt}
tcc=${TCC:-$root/build/bin/tcc}

[ -x "$nvcc" ] || { echo "build-artifacts: no nvcc at $nvcc (set CUDA_HOME)" >&2; exit 1; }

(
  exec 9>/tmp/tcc-build.lock
  flock 9
  if [ ! -f "$rtbuild/build.ninja" ]; then
    cmake -S "$root" -B "$rtbuild" -G Ninja -DTCC_ENABLE_COMPILER=OFF >/dev/null
  fi
  ninja -C "$rtbuild" tcc-pack >/dev/null
)
pack=$rtbuild/bin/tcc-pack

rm -rf "$art"
mkdir -p "$art"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixture=$root/test/gpu/fixtures/elementwise.cu

cubin() { # out arch defines...
  local out=$1 a=$2
  shift 2
  "$nvcc" -cubin -arch="$a" -O3 "$@" -o "$out" "$fixture"
}

pack_elementwise() { # cubin block warps aligned(0|1) dir
  local c=$1 b=$2 w=$3 al=$4 dir=$5 d=""
  [ "$al" = 1 ] && d=":16"
  mkdir -p "$dir/vector_add" "$dir/vector_copy"
  "$pack" -o "$dir/vector_add/vector_add.cubin" --suffix --cubin "$c" --name vector_add \
    --arch "$arch" --num-warps "$w" --constexpr BLOCK="$b" --grid "cdiv(n, $b)" \
    --param "x:*f32$d" --param "y:*f32$d" --param "out:*f32$d" --param "n:i32$d" \
    --source test/gpu/fixtures/elementwise.cu
  "$pack" -o "$dir/vector_copy/vector_copy.cubin" --suffix --cubin "$c" --name vector_copy \
    --arch "$arch" --num-warps "$w" --constexpr BLOCK="$b" --grid "cdiv(n, $b)" \
    --param "x:*f32$d" --param "out:*f32$d" --param "n:i32$d" \
    --source test/gpu/fixtures/elementwise.cu
}

configs=""
for b in $blocks; do configs="$configs $b:4"; done
configs="$configs $extra"
for cfg in $configs; do
  b=${cfg%%:*}
  w=${cfg##*:}
  for al in 0 1; do
    cubin "$tmp/k.cubin" "$arch" -DBLOCK="$b" -DNUM_WARPS="$w" -DALIGNED="$al"
    pack_elementwise "$tmp/k.cubin" "$b" "$w" "$al" "$tmp/cfg"
  done
  for k in vector_add vector_copy; do
    mkdir -p "$art/fixture/$k"
    mv "$tmp/cfg/$k" "$art/fixture/$k/BLOCK${b}_W${w}"
  done
  rm -rf "$tmp/cfg"
done

# The launch-overhead kernel: 128 threads, one block for n <= 128.
cubin "$tmp/tiny.cubin" "$arch" -DBLOCK=128 -DNUM_WARPS=4
mkdir -p "$art/fixture/tiny"
"$pack" -o "$art/fixture/tiny/tiny.cubin" --cubin "$tmp/tiny.cubin" --name tiny --arch "$arch" \
  --num-warps 4 --grid "cdiv(n, 128)" --param "out:*f32" --param "n:i32"

# Wrong architectures: a cubin for sm_80 and one for sm_100 (at least one of them cannot run
# on any given device), and metadata that claims sm_90 for an sm_80 cubin.
for a in sm_80 sm_100; do
  if cubin "$tmp/$a.cubin" "$a" -DBLOCK=1024 -DNUM_WARPS=4 2>/dev/null; then
    mkdir -p "$art/fixture/errors/$a"
    "$pack" -o "$art/fixture/errors/$a/vector_add.cubin" --cubin "$tmp/$a.cubin" \
      --name vector_add --arch "$a" --num-warps 4 --constexpr BLOCK=1024 --grid "cdiv(n, 1024)" \
      --param "x:*f32" --param "y:*f32" --param "out:*f32" --param "n:i32"
  fi
done
mkdir -p "$art/fixture/errors/mismatch"
"$pack" -o "$art/fixture/errors/mismatch/vector_add.cubin" --cubin "$tmp/sm_80.cubin" \
  --name vector_add --arch "$arch" --num-warps 4 --constexpr BLOCK=1024 --grid "cdiv(n, 1024)" \
  --param "x:*f32" --param "y:*f32" --param "out:*f32" --param "n:i32"

# Generated headers, through the HeaderWriter.
mkdir -p "$art/fixture/headers"
"$pack" --header "$art/fixture/headers/vector_add.h" --namespace fixture \
  "$art"/fixture/vector_add/BLOCK1024_W4/*.json
"$pack" --header "$art/fixture/headers/vector_copy.h" --namespace fixture \
  "$art"/fixture/vector_copy/BLOCK1024_W4/*.json
"$pack" --header "$art/fixture/headers/tiny.h" --namespace fixture "$art"/fixture/tiny/tiny.json

# The real thing, once tcc can emit cubins: every 1D example for every BLOCK. Options tcc
# does not list in --help yet are left out. $TCC_SPECIALISE_FLAGS, when set, are the tcc
# options that declare x, y, out 16-byte aligned and n divisible by 16: a second,
# specialised variant is then compiled beside the general one.
tcc_status="tcc: not built ($tcc)"
if [ -x "$tcc" ]; then
  help=$("$tcc" --help 2>&1 || true)
  if grep -q cubin <<<"$help"; then
    tcc_status="tcc: compiled"
    flags=()
    grep -q -- "--num-warps" <<<"$help" && flags+=(--num-warps 4)
    grep -q -- "--arch" <<<"$help" && flags+=(--arch "$arch")
    for ex in vector_add vector_copy; do
      src=$root/lang-examples/$ex.tile
      [ -f "$src" ] || { tcc_status="$tcc_status; $ex.tile missing"; continue; }
      for b in $blocks; do
        dir=$art/tcc/$ex/BLOCK${b}_W4
        mkdir -p "$dir"
        if ! "$tcc" "$src" -D BLOCK="$b" "${flags[@]}" --emit=cubin -o "$dir/$ex.cubin" \
             >"$tmp/tcc.log" 2>&1; then
          tcc_status="$tcc_status; $ex BLOCK=$b FAILED: $(head -c 300 "$tmp/tcc.log" | tr '\n' ' ')"
          rm -rf "$dir"
          continue
        fi
        if [ -n "${TCC_SPECIALISE_FLAGS:-}" ]; then
          # shellcheck disable=SC2086
          "$tcc" "$src" -D BLOCK="$b" "${flags[@]}" $TCC_SPECIALISE_FLAGS --emit=cubin \
            -o "$dir/$ex.d16.cubin" >"$tmp/tcc.log" 2>&1 ||
            tcc_status="$tcc_status; $ex BLOCK=$b specialised FAILED"
        fi
        if ! ls "$dir"/*.json >/dev/null 2>&1; then
          tcc_status="$tcc_status; $ex BLOCK=$b: no metadata JSON beside the cubin"
        fi
      done
    done
  else
    tcc_status="tcc: built, but cannot emit cubins yet"
  fi
fi

{
  echo "made by scripts/build-artifacts.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "arch: $arch; nvcc: $("$nvcc" --version | tail -1)"
  echo "$tcc_status"
} >"$art/MANIFEST.txt"
cat "$art/MANIFEST.txt"
echo "artifacts in $art ($(find "$art" -name '*.cubin' | wc -l) cubins)"
