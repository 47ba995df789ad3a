#!/usr/bin/env bash
# Builds what the GPU tests and benchmarks load, into DIR (default build/artifacts):
#
#   DIR/tcc/<example>/<config>/          lang-examples compiled by tcc (--emit=cubin), once tcc
#                                        emits cubins: with --variants=auto the general variant
#                                        (<example>.cubin/json), the aligned one (.d16_...) and,
#                                        for kernels with strides, unit inner strides (..._e1_...);
#                                        ptxas -v of every variant in ptxas.txt
#   DIR/fixture/<kernel>/<config>/       nvcc-built stand-ins wrapped by tcc-pack:
#                                        vector_add/vector_copy (test/gpu/fixtures/elementwise.cu,
#                                        general + 16-byte specialised) and every 2-D example
#                                        (matrix.cu, rows.cu, matmul.cu; general only), each
#                                        with the signature and grid tcc's front end gives
#   DIR/fixture/tiny/                    a near-empty kernel for launch-overhead measurements
#   DIR/fixture/errors/{sm_80,sm_100,mismatch}/   cubins for the wrong architecture
#   DIR/fixture/headers/*.h              generated launch headers of vector_add/copy, tiny
#   DIR/headers/fixture_kernels/<example>.h   tcc-pack headers of the stand-ins' default configs
#   DIR/headers/tcc_kernels/{transpose,softmax,copy2d}.h   tcc --emit=header --variants=auto,
#                                        default configurations
#   DIR/kinds/{sm80,ptx_only,multi_arch,two_kernels}/   artifact kinds: sm_80 cubin + PTX,
#                                        PTX only, three architectures, two kernels in one cubin
#   DIR/kinds/default/<example>/         each course example built with no flags at all
#   DIR/tcc/tensor_peak/                 runtime/tools/tensor_peak.tile: the tensor-core
#                                        ceiling of tcc-tune's report (--peak)
#   DIR/check_bounds/{oob_copy,vector_add,matmul,matmul_f32}/   tcc --check-bounds builds
#                                        (test/gpu/check_bounds_test.cpp)
#   DIR/src/*.tile                       derived sources: matmul with bf16 and f32 operands
#   DIR/compile_times.json               tcc's time to compile each example to a cubin, here
#   DIR/MANIFEST.txt                     what made them, and what failed
#
# <config> names the constexprs and warps: BLOCK1024_W4, BM64_BN64_W4, BM128_BN128_BK32_RELU0_W8.
# The 2-D fixtures need build/bin/tcc (for the signatures: tcc --emit=tile) and nvcc
# (CUDA_HOME or /usr/local/cuda); tcc-pack is built in a runtime-only build (build-rt/).
# Usage: scripts/build-artifacts.sh [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=$(realpath -m "${1:-$root/build/artifacts}")
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}
arch=${TCC_ARCH:-sm_90}
rtbuild=${TCC_RT_BUILD_DIR:-$root/build-rt}
tcc=${TCC:-$root/build/bin/tcc}
# How often the default configuration of each example is compiled for its timing (median).
timing_runs=${TCC_TIMING_RUNS:-3}

# tcc's configurations: example | -D assignments | num_warps [| num_stages, folder suffix
# _S<n>]. The first line of an example
# is its default configuration (the one whose compile time is reported and whose header is
# generated). Softmax and layer norm need BLOCK >= N: one configuration per power of two, with
# 4, 8 and 16 warps at BLOCK 4096..16384 (Triton's best at 4096x16384 is 4 warps), except
# layernorm at BLOCK 16384 with 4 warps, which spills (255 registers, ~580 B: d, w and b are
# all live at once; see bench/RESULTS.md). `tcc --ptxas-verbose` of every configuration and
# variant is kept in its folder as ptxas.txt.
tcc_configs=(
  "vector_add|BLOCK=1024|4" "vector_add|BLOCK=128|4" "vector_add|BLOCK=256|4"
  "vector_add|BLOCK=512|4"
  "vector_add|BLOCK=4096|4" "vector_add|BLOCK=1024|8" "vector_add|BLOCK=2048|4"
  "vector_add|BLOCK=2048|8" "vector_add|BLOCK=4096|8"
  "vector_copy|BLOCK=1024|4" "vector_copy|BLOCK=128|4" "vector_copy|BLOCK=256|4"
  "vector_copy|BLOCK=4096|4" "vector_copy|BLOCK=1024|8" "vector_copy|BLOCK=2048|4"
  "vector_copy|BLOCK=2048|8" "vector_copy|BLOCK=4096|8"
  "copy2d|BM=32 BN=32|4" "copy2d|BM=64 BN=64|4"
  "transpose|BM=32 BN=32|4" "transpose|BM=64 BN=64|4" "transpose|BM=64 BN=64|8"
  "bias_add|BM=64 BN=64|4" "bias_add|BM=32 BN=128|4" "bias_add|BM=128 BN=128|8"
  "softmax|BLOCK=1024|4" "softmax|BLOCK=1|4" "softmax|BLOCK=8|4" "softmax|BLOCK=1024|8"
  "softmax|BLOCK=4096|8" "softmax|BLOCK=4096|16" "softmax|BLOCK=8192|16"
  "softmax|BLOCK=16384|16" "softmax|BLOCK=16384|32"
  "softmax|BLOCK=4096|4" "softmax|BLOCK=8192|4" "softmax|BLOCK=8192|8" "softmax|BLOCK=16384|4"
  "softmax|BLOCK=16384|8" "softmax|BLOCK=1024|1" "softmax|BLOCK=1024|2"
  "softmax_persistent|BLOCK=1024|8" "softmax_persistent|BLOCK=1|4"
  "softmax_persistent|BLOCK=1024|4" "softmax_persistent|BLOCK=4096|8"
  "softmax_persistent|BLOCK=4096|16" "softmax_persistent|BLOCK=16384|8"
  "softmax_persistent|BLOCK=16384|16"
  "layernorm|BLOCK=1024|4" "layernorm|BLOCK=1|4" "layernorm|BLOCK=8|4" "layernorm|BLOCK=1024|8"
  "layernorm|BLOCK=4096|8" "layernorm|BLOCK=4096|16" "layernorm|BLOCK=8192|16"
  "layernorm|BLOCK=16384|16" "layernorm|BLOCK=16384|32"
  "layernorm|BLOCK=4096|4" "layernorm|BLOCK=8192|4" "layernorm|BLOCK=8192|8"
  "layernorm|BLOCK=16384|8" "layernorm|BLOCK=16384|4" "layernorm|BLOCK=1024|1"
  "layernorm|BLOCK=1024|2"
  "matmul|BM=64 BN=64 BK=32|4" "matmul|BM=128 BN=128 BK=32|8" "matmul|BM=32 BN=32 BK=32|4"
  "matmul|BM=128 BN=256 BK=64|8|4" "matmul|BM=128 BN=128 BK=64|8|4" "matmul|BM=64 BN=128 BK=64|8|4"
  "matmul|BM=64 BN=128 BK=64|4|4" "matmul|BM=128 BN=256 BK=32|8|4" "matmul|BM=128 BN=256 BK=64|8|3"
  "matmul|BM=128 BN=64 BK=64|4|4" "matmul|BM=64 BN=64 BK=64|4|4" "matmul|BM=64 BN=64 BK=64|4|3"
  "matmul|BM=128 BN=64 BK=64|4|3" "matmul|BM=64 BN=128 BK=64|4|3"
  "matmul|BM=64 BN=128 BK=64|4|5" "matmul|BM=128 BN=64 BK=64|8|4"
  "matmul_bias|BM=64 BN=64 BK=32 RELU=True|4" "matmul_bias|BM=64 BN=64 BK=32 RELU=False|4"
  "matmul_bias|BM=128 BN=128 BK=32 RELU=True|8" "matmul_bias|BM=128 BN=128 BK=32 RELU=False|8"
  "matmul_bias|BM=32 BN=32 BK=32 RELU=True|4"
  "matmul_bias|BM=128 BN=256 BK=64 RELU=False|8|4" "matmul_bias|BM=128 BN=256 BK=64 RELU=True|8|4"
  "matmul_bias|BM=128 BN=256 BK=64 RELU=False|8|3"
  "matmul_bf16|BM=64 BN=64 BK=32|4" "matmul_bf16|BM=128 BN=128 BK=32|8" "matmul_bf16|BM=32 BN=32 BK=32|4"
  "matmul_bf16|BM=128 BN=256 BK=64|8|4" "matmul_bf16|BM=128 BN=256 BK=64|8|3"
  "matmul_f32|BM=64 BN=64 BK=32|4" "matmul_f32|BM=32 BN=32 BK=32|4"
)
# TCC_ARTIFACT_EXAMPLES="matmul matmul_bias": only those examples' configurations (a focused
# GPU run); the fixtures are built either way.
if [ -n "${TCC_ARTIFACT_EXAMPLES:-}" ]; then
  kept=()
  for line in "${tcc_configs[@]}"; do
    for ex in $TCC_ARTIFACT_EXAMPLES; do
      [ "${line%%|*}" = "$ex" ] && kept+=("$line")
    done
  done
  tcc_configs=("${kept[@]}")
fi
# The nvcc stand-ins of the 2-D examples: fixture file | kernels | -D assignments | num_warps.
fixture_configs=(
  "matrix.cu|copy2d transpose bias_add|BM=32 BN=32|4"
  "matrix.cu|copy2d transpose bias_add|BM=64 BN=64|4"
  "rows.cu|softmax layernorm|BLOCK=1|4"
  "rows.cu|softmax layernorm|BLOCK=8|4"
  "rows.cu|softmax layernorm|BLOCK=1024|4"
  "rows.cu|softmax layernorm|BLOCK=4096|8"
  "rows.cu|softmax layernorm|BLOCK=8192|16"
  "rows.cu|softmax layernorm|BLOCK=16384|16"
  "matmul.cu|matmul matmul_bias|BM=128 BN=128 BK=32 RELU=True|8"
  "matmul.cu|matmul_bias|BM=128 BN=128 BK=32 RELU=False|8"
  "matmul.cu|matmul matmul_bias|BM=32 BN=32 BK=32 RELU=True|4"
  "matmul.cu|matmul_bf16|BM=32 BN=32 BK=32|4"
  "matmul.cu|matmul_f32|BM=32 BN=32 BK=32|4"
)
# The elementwise stand-ins: BLOCK:NUM_WARPS.
elementwise_configs=${TCC_ELEMENTWISE_CONFIGS:-"128:4 256:4 1024:4 4096:4 1024:8 2048:4 2048:8 4096:8"}

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
mkdir -p "$art/src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixtures=$root/test/gpu/fixtures
notes=()
note() { notes+=("$*"); echo "build-artifacts: $*" >&2; }

# "BM=32 BN=32" + 4 (+ 3 stages) -> BM32_BN32_W4 (BM32_BN32_W4_S3); True/False -> 1/0.
config_name() {
  local n="" a k v
  for a in $1; do
    k=${a%%=*}
    v=${a#*=}
    case $v in True) v=1 ;; False) v=0 ;; esac
    n="$n${k}${v}_"
  done
  echo "${n}W$2${3:+_S$3}"
}
defines() { local a; for a in $1; do printf -- '-D\n%s\n' "$a"; done; }
nvcc_defines() { # "BM=32 RELU=True" -> -DBM=32 -DRELU=1
  local a k v
  for a in $1; do
    k=${a%%=*}
    v=${a#*=}
    case $v in True) v=1 ;; False) v=0 ;; esac
    printf -- '-D%s=%s\n' "$k" "$v"
  done
}

# The example sources: lang-examples/<ex>.tile, and matmul with other operand types.
source_of() {
  case $1 in
    matmul_bf16 | matmul_f32) echo "$art/src/$1.tile" ;;
    *) echo "$root/lang-examples/$1.tile" ;;
  esac
}
if [ -f "$root/lang-examples/matmul.tile" ]; then
  for t in bf16 f32; do
    sed -e "s/\\bf16\\b/$t/g" -e "s/^def matmul(/def matmul_$t(/" \
      -e "1i # Derived by scripts/build-artifacts.sh from lang-examples/matmul.tile: $t operands." \
      "$root/lang-examples/matmul.tile" >"$art/src/matmul_$t.tile"
  done
fi

# ---------------------------------------------------------------------------------------
# Elementwise stand-ins (nvcc), the launch-overhead kernel, wrong architectures, headers.
cubin() { # out arch source defines...
  local out=$1 a=$2 src=$3
  shift 3
  "$nvcc" -cubin -arch="$a" -O3 "$@" -o "$out" "$src"
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

ew=$fixtures/elementwise.cu
for cfg in $elementwise_configs; do
  b=${cfg%%:*}
  w=${cfg##*:}
  for al in 0 1; do
    cubin "$tmp/k.cubin" "$arch" "$ew" -DBLOCK="$b" -DNUM_WARPS="$w" -DALIGNED="$al"
    pack_elementwise "$tmp/k.cubin" "$b" "$w" "$al" "$tmp/cfg"
  done
  for k in vector_add vector_copy; do
    mkdir -p "$art/fixture/$k"
    mv "$tmp/cfg/$k" "$art/fixture/$k/BLOCK${b}_W${w}"
  done
  rm -rf "$tmp/cfg"
done

# The launch-overhead kernel: 128 threads, one block for n <= 128.
cubin "$tmp/tiny.cubin" "$arch" "$ew" -DBLOCK=128 -DNUM_WARPS=4
mkdir -p "$art/fixture/tiny"
"$pack" -o "$art/fixture/tiny/tiny.cubin" --cubin "$tmp/tiny.cubin" --name tiny --arch "$arch" \
  --num-warps 4 --grid "cdiv(n, 128)" --param "out:*f32" --param "n:i32"

# Wrong architectures: a cubin for sm_80 and one for sm_100 (at least one of them cannot run
# on any given device), and metadata that claims sm_90 for an sm_80 cubin.
for a in sm_80 sm_100; do
  if cubin "$tmp/$a.cubin" "$a" "$ew" -DBLOCK=1024 -DNUM_WARPS=4 2>/dev/null; then
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

mkdir -p "$art/fixture/headers"
"$pack" --header "$art/fixture/headers/vector_add.h" --namespace fixture \
  "$art"/fixture/vector_add/BLOCK1024_W4/*.json
"$pack" --header "$art/fixture/headers/vector_copy.h" --namespace fixture \
  "$art"/fixture/vector_copy/BLOCK1024_W4/*.json
"$pack" --header "$art/fixture/headers/tiny.h" --namespace fixture "$art"/fixture/tiny/tiny.json

# ---------------------------------------------------------------------------------------
# 2-D stand-ins (nvcc), described by tcc's front end: tcc --emit=tile gives the parameters
# and the grid, so a stand-in cannot drift from its example's signature.
fixture_status="2-D fixtures: none (no tcc at $tcc for the signatures)"
if [ -x "$tcc" ]; then
  built=0
  for line in "${fixture_configs[@]}"; do
    IFS='|' read -r file kernels assigns warps <<<"$line"
    mapfile -t nv < <(nvcc_defines "$assigns")
    for k in $kernels; do
      # matmul_bf16 / matmul_f32: the plain matmul entry compiled for other operand types.
      extra=()
      case $k in
        matmul) extra=(-DELEM=1 -DNAME=matmul) ;;
        matmul_bf16) extra=(-DELEM=2 -DNAME=matmul_bf16) ;;
        matmul_f32) extra=(-DELEM=3 -DNAME=matmul_f32) ;;
        matmul_bias) extra=(-DELEM=1 -DNAME=matmul) ;;
      esac
      # The example's own constexprs (RELU only for matmul_bias).
      ex_assigns=""
      for a in $assigns; do
        [ "${a%%=*}" = RELU ] && [ "$k" != matmul_bias ] && continue
        ex_assigns="$ex_assigns $a"
      done
      name=$(config_name "$ex_assigns" "$warps")
      c="$tmp/fx_${file%.cu}_${k}_$name.cubin"
      if ! cubin "$c" "$arch" "$fixtures/$file" "${nv[@]}" -DNUM_WARPS="$warps" "${extra[@]}" \
           >"$tmp/nvcc.log" 2>&1; then
        note "fixture $k $name: nvcc FAILED: $(head -c 400 "$tmp/nvcc.log" | tr '\n' ' ')"
        continue
      fi
      mapfile -t d < <(defines "$ex_assigns")
      if ! "$tcc" "$(source_of "$k")" "${d[@]}" --emit=tile 2>"$tmp/sig.log" |
           python3 "$root/scripts/tile_signature.py" --kernel "$k" --num-warps "$warps" \
             >"$tmp/sig.txt" 2>>"$tmp/sig.log"; then
        note "fixture $k $name: no signature from tcc --emit=tile: $(head -c 400 "$tmp/sig.log" | tr '\n' ' ')"
        continue
      fi
      mapfile -t sig <"$tmp/sig.txt"
      dir=$art/fixture/$k/$name
      mkdir -p "$dir"
      "$pack" -o "$dir/$k.cubin" --cubin "$c" --arch "$arch" "${sig[@]}" \
        --source "test/gpu/fixtures/$file"
      built=$((built + 1))
    done
  done
  fixture_status="2-D fixtures: $built configurations (nvcc stand-ins, signatures from tcc --emit=tile)"
fi

# ---------------------------------------------------------------------------------------
# The real thing, once tcc can emit cubins: every example in every configuration, timed.
now() { echo "$EPOCHREALTIME"; }
tcc_status="tcc: not built ($tcc)"
spec=()
: >"$tmp/times.tsv"
if [ -x "$tcc" ]; then
  help=$("$tcc" --help 2>&1 || true)
  if grep -q cubin <<<"$help"; then
    flags=(--arch "$arch")
    grep -q -- "--arch" <<<"$help" || flags=()
    # The specialised variants: --variants=auto (general, aligned, and aligned with unit
    # inner strides where the kernel has strides: k.cubin, k.d16_..., k.d16_..._e1_...),
    # or one --specialize-all variant (k.spec.cubin) from an older tcc, or
    # $TCC_SPECIALISE_FLAGS (k.spec.cubin).
    auto=0
    if [ -n "${TCC_SPECIALISE_FLAGS:-}" ]; then
      read -r -a spec <<<"$TCC_SPECIALISE_FLAGS"
    elif grep -q -- "--variants" <<<"$help"; then
      spec=(--variants=auto)
      auto=1
    elif grep -q -- "--specialize-all" <<<"$help"; then
      spec=(--specialize-all)
    fi
    verbose=()
    grep -q -- "--ptxas-verbose" <<<"$help" && verbose=(--ptxas-verbose)
    has_warps=0
    grep -q -- "--num-warps" <<<"$help" && has_warps=1
    ok=0 failed=0
    declare -A seen=()
    for line in "${tcc_configs[@]}"; do
      IFS='|' read -r ex assigns warps stages <<<"$line"
      src=$(source_of "$ex")
      [ -f "$src" ] || { note "tcc $ex: $src missing"; failed=$((failed + 1)); continue; }
      name=$(config_name "$assigns" "$warps" "$stages")
      is_default=0
      [ -z "${seen[$ex]:-}" ] && is_default=1
      seen[$ex]=1
      w=()
      if [ "$has_warps" = 1 ]; then
        w=(--num-warps "$warps")
        [ -n "$stages" ] && w+=(--num-stages "$stages")
      elif [ "$is_default" = 0 ]; then
        continue # without --num-warps only the source's own num_warps can be built
      fi
      mapfile -t d < <(defines "$assigns")
      dir=$art/tcc/$ex/$name
      mkdir -p "$dir"
      runs=1
      [ "$is_default" = 1 ] && runs=$timing_runs
      secs=()
      failed_here=0
      for ((r = 0; r < runs; r++)); do
        t0=$(now)
        if ! "$tcc" "$src" "${d[@]}" "${w[@]}" "${flags[@]}" --emit=cubin -o "$dir/$ex.cubin" \
             >"$tmp/tcc.log" 2>&1; then
          failed_here=1
          break
        fi
        t1=$(now)
        secs+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')")
      done
      if [ "$failed_here" = 1 ]; then
        note "tcc $ex $name FAILED: $(head -c 400 "$tmp/tcc.log" | tr '\n' ' ')"
        rm -rf "$dir"
        failed=$((failed + 1))
        continue
      fi
      printf '%s\t%s\t%s\t%s\n' "$ex" "$name" "$is_default" "${secs[*]}" >>"$tmp/times.tsv"
      if ((${#spec[@]})); then
        out=$dir/$ex.spec.cubin
        [ "$auto" = 1 ] && out=$dir/$ex.cubin # the general variant again, the others beside it
        if ! "$tcc" "$src" "${d[@]}" "${w[@]}" "${flags[@]}" "${spec[@]}" "${verbose[@]}" \
             --emit=cubin -o "$out" >"$tmp/tcc.log" 2>&1; then
          note "tcc $ex $name specialised (${spec[*]}) FAILED: $(head -c 300 "$tmp/tcc.log" | tr '\n' ' ')"
          rm -f "$dir/$ex.spec".* "$dir/$ex".d*.*
        fi
        [ ${#verbose[@]} -gt 0 ] && cp "$tmp/tcc.log" "$dir/ptxas.txt"
      fi
      if ! ls "$dir"/*.json >/dev/null 2>&1; then
        note "tcc $ex $name: no metadata JSON beside the cubin (tcc wrote: $(find "$dir" -type f -printf '%f '))"
        rm -rf "$dir"
        failed=$((failed + 1))
        continue
      fi
      ok=$((ok + 1))
    done
    tcc_status="tcc: compiled $ok configurations, $failed failed"
    [ ${#spec[@]} -gt 0 ] && tcc_status="$tcc_status; specialised with ${spec[*]}"
  else
    tcc_status="tcc: built, but cannot emit cubins yet (no 'cubin' in tcc --help)"
  fi
fi

find "$art/tcc" -mindepth 1 -type d -empty -delete 2>/dev/null || true

# compile_times.json: per example, the default configuration's median over its runs.
python3 - "$tmp/times.tsv" "$art/compile_times.json" "$tcc" "$(nproc)" "$timing_runs" <<'EOF'
import json, os, platform, statistics, sys
tsv, out, tcc, cores, runs = sys.argv[1:6]
examples, configs = {}, []
for line in open(tsv):
    ex, cfg, default, secs = line.rstrip("\n").split("\t")
    s = [float(x) for x in secs.split()]
    configs.append({"example": ex, "config": cfg, "seconds": s})
    if default == "1":
        examples[ex] = {"config": cfg, "median_s": statistics.median(s), "min_s": min(s),
                        "runs": len(s)}
json.dump({"what": "wall time of tcc --emit=cubin (front end to ptxas, one process) per "
                   "example, default configuration, median of the runs",
           "host": platform.node(), "cores": int(cores), "load_average": os.getloadavg()[0],
           "tcc": tcc, "examples": examples, "configs": configs},
          open(out, "w"), indent=1)
EOF

# atomic_add's GPU test kernel (test/gpu/atomic_add_test.cpp): one configuration.
if [ -x "$tcc" ]; then
  mkdir -p "$art/tcc/histogram/BLOCK64_W2"
  "$tcc" "$root/test/gpu/kernels/histogram.tile" --emit=cubin \
    -o "$art/tcc/histogram/BLOCK64_W2/histogram.cubin" >"$tmp/hist.log" 2>&1 ||
    note "histogram (atomic_add): tcc FAILED: $(head -c 300 "$tmp/hist.log" | tr '\n' ' ')"
fi

# The tutorials' language features (test/gpu/tutorial_features_test.cpp): math, bitcast,
# assume, while, join and split, trans, Philox random numbers, one configuration each; block
# pointers and tensor descriptors (test/gpu/tutorial_ports_test.cpp, BlockPointers).
if [ -x "$tcc" ]; then
  for k in tutorial_math:BLOCK256_W4 collatz_while:BLOCK128_W4 complex_mul:BLOCK256_W4 \
      trans_dot:M64_D64_W4 tutorial_random:BLOCK256_W4 block_pointers:BM32_BN32_W4 \
      float_atomics:BLOCK256_W4; do
    name=${k%%:*} cfg=${k#*:}
    mkdir -p "$art/tcc/$name/$cfg"
    "$tcc" "$root/test/gpu/kernels/$name.tile" --emit=cubin \
      -o "$art/tcc/$name/$cfg/$name.cubin" >"$tmp/$name.log" 2>&1 ||
      note "$name: tcc FAILED: $(head -c 300 "$tmp/$name.log" | tr '\n' ' ')"
  done
fi

# fp8 conversions (test/gpu/fp8_test.cpp): PTX's cvt instructions (sm_90) and tcc's
# integer arithmetic (sm_80, which the H200 runs from the PTX).
if [ -x "$tcc" ]; then
  for a in sm90:sm_90 sm80:sm_80; do
    mkdir -p "$art/tcc/fp8_convert/${a%%:*}_BLOCK256_W4"
    "$tcc" "$root/test/gpu/kernels/fp8_convert.tile" --arch "${a#*:}" --emit=cubin \
      -o "$art/tcc/fp8_convert/${a%%:*}_BLOCK256_W4/fp8_convert.cubin" >"$tmp/fp8.log" 2>&1 ||
      note "fp8_convert ${a#*:}: tcc FAILED: $(head -c 300 "$tmp/fp8.log" | tr '\n' ' ')"
  done
fi

# The ports of Triton's tutorials (lang-examples/triton/, test/gpu/tutorial_ports_test.cpp):
# folder | source | kernel | tcc flags (eval'd: quote string values, -D A='"s"'). An
# autotuned port is built in chosen configurations (--config N), each a folder of its own.
triton_ports=(
  "triton_01_vector_add/BLOCK_SIZE1024_W4|01_vector_add|add_kernel|"
  "triton_02_fused_softmax/BLOCK_SIZE1024_W8|02_fused_softmax|softmax_kernel|-D BLOCK_SIZE=1024"
  "triton_02_fused_softmax/BLOCK_SIZE4096_W8|02_fused_softmax|softmax_kernel|-D BLOCK_SIZE=4096"
  # bench/ (tcc-bench's triton_02_* workloads): the tutorial's widest rows, 12672 = 128 x 99.
  "triton_02_fused_softmax/BLOCK_SIZE16384_W8|02_fused_softmax|softmax_kernel|-D BLOCK_SIZE=16384"
  # tcc's wgmma path (sm_90a); configuration 0 (128x256x64, 8 warps) spills 336 B there, so
  # it is built with --max-spill-bytes -1 (correctness only; bench/ times the others).
  "triton_03_matrix_multiplication/c3_W4_S4|03_matrix_multiplication|matmul_kernel|--arch sm_90a --config 3"
  "triton_03_matrix_multiplication/c3_leaky_W4_S4|03_matrix_multiplication|matmul_kernel|--arch sm_90a --config 3 -D ACTIVATION='\"leaky_relu\"'"
  "triton_03_matrix_multiplication/c15_leaky_W4_S4|03_matrix_multiplication|matmul_kernel|--arch sm_90a --config 15 -D ACTIVATION='\"leaky_relu\"'"
  "triton_03_matrix_multiplication/c0_leaky_W8_S3|03_matrix_multiplication|matmul_kernel|--arch sm_90a --config 0 --max-spill-bytes -1 -D ACTIVATION='\"leaky_relu\"'"
  "triton_04_low_memory_dropout/seeded_BLOCK_SIZE1024_W4|04_low_memory_dropout|_seeded_dropout|--kernel _seeded_dropout"
  "triton_04_low_memory_dropout/plain_BLOCK_SIZE1024_W4|04_low_memory_dropout|_dropout|--kernel _dropout"
  # The tutorial's launches: N = 8192 (BLOCK 8192, 8 warps, 96 locks) and N <= 1024 (BLOCK
  # 1024, 4 warps, 256 locks); its dw/db reduction in one configuration.
  "triton_05_layer_norm/fwd_BLOCK8192_W8|05_layer_norm|_layer_norm_fwd_fused|--kernel _layer_norm_fwd_fused -D BLOCK_SIZE=8192"
  "triton_05_layer_norm/bwd_BLOCK8192_W8|05_layer_norm|_layer_norm_bwd_dx_fused|--kernel _layer_norm_bwd_dx_fused -D BLOCK_SIZE_N=8192 -D GROUP_SIZE_M=96"
  "triton_05_layer_norm/fwd_BLOCK1024_W4|05_layer_norm|_layer_norm_fwd_fused|--kernel _layer_norm_fwd_fused -D BLOCK_SIZE=1024 --num-warps 4"
  # bench/ (tcc-bench's triton_05_* workloads, M = 4096): N = 4096 and 15872 (the
  # tutorial's widest), with the launcher's num_warps = min(max(BLOCK_SIZE // 256, 1), 8).
  "triton_05_layer_norm/fwd_BLOCK4096_W8|05_layer_norm|_layer_norm_fwd_fused|--kernel _layer_norm_fwd_fused -D BLOCK_SIZE=4096"
  "triton_05_layer_norm/fwd_BLOCK16384_W8|05_layer_norm|_layer_norm_fwd_fused|--kernel _layer_norm_fwd_fused -D BLOCK_SIZE=16384"
  "triton_05_layer_norm/bwd_BLOCK1024_W4|05_layer_norm|_layer_norm_bwd_dx_fused|--kernel _layer_norm_bwd_dx_fused -D BLOCK_SIZE_N=1024 -D GROUP_SIZE_M=256 --num-warps 4"
  "triton_05_layer_norm/dwdb_BLOCK_SIZE_M32_BLOCK_SIZE_N128_W4|05_layer_norm|_layer_norm_bwd_dwdb|--kernel _layer_norm_bwd_dwdb"
  # Tensor descriptors made in the kernel; configuration 4 (BLOCK_M 64, BLOCK_N 64, 3
  # stages, 4 warps), head dimensions 64 and 128, non-causal (STAGE 1) and causal (STAGE 3).
  "triton_06_fused_attention/hd64_c4_W4_S3|06_fused_attention|_attn_fwd|--arch sm_90a --config 4 -D HEAD_DIM=64 -D STAGE=1"
  "triton_06_fused_attention/hd64_causal_c4_W4_S3|06_fused_attention|_attn_fwd|--arch sm_90a --config 4 -D HEAD_DIM=64 -D STAGE=3"
  "triton_06_fused_attention/hd128_c4_W4_S3|06_fused_attention|_attn_fwd|--arch sm_90a --config 4 -D HEAD_DIM=128 -D STAGE=1"
  "triton_06_fused_attention/hd128_causal_c4_W4_S3|06_fused_attention|_attn_fwd|--arch sm_90a --config 4 -D HEAD_DIM=128 -D STAGE=3"
  # NUM_SMS 132 (the constexpr's default: an H100 or H200); the pointer kernel's
  # configuration 0 (128x128x64, 3 stages, 4 warps), the descriptor kernel's 7 (128x128x64,
  # 3 stages, 8 warps, no epilogue subtiling).
  "triton_09_persistent_matmul/persistent_c0_W4_S3|09_persistent_matmul|matmul_kernel_persistent|--kernel matmul_kernel_persistent --arch sm_90a --config 0"
  "triton_09_persistent_matmul/descriptor_c7_W8_S3|09_persistent_matmul|matmul_kernel_descriptor_persistent|--kernel matmul_kernel_descriptor_persistent --arch sm_90a --config 7"
  # libdevice.10.bc from CUDA_HOME (or TCC_LIBDEVICE), linked at compile time.
  "triton_07_extern_functions/BLOCK_SIZE1024_W4|07_extern_functions|asin_kernel|"
  # Configurations 2 and 3 (64x64x32 tiles over 84 and 128 programs); the 128x128 ones spill
  # with 4 warps (the matrices' addresses come from memory: no alignment is known, so the
  # loads are not vectorised).
  "triton_08_grouped_gemm/c2_W4|08_grouped_gemm|grouped_matmul_kernel|--arch sm_90a --config 2"
  "triton_08_grouped_gemm/c3_W4|08_grouped_gemm|grouped_matmul_kernel|--arch sm_90a --config 3"
)
if [ -x "$tcc" ]; then
  # The toolkit's libdevice for 07 (tcc looks only at TCC_LIBDEVICE when it is set).
  if [ -z "${TCC_LIBDEVICE:-}" ] && [ -f "$cuda/nvvm/libdevice/libdevice.10.bc" ]; then
    export TCC_LIBDEVICE=$cuda/nvvm/libdevice/libdevice.10.bc
  fi
  for line in "${triton_ports[@]}"; do
    IFS='|' read -r dir src kern flags <<<"$line"
    mkdir -p "$art/tcc/$dir"
    eval "\"\$tcc\" \"\$root/lang-examples/triton/$src.tile\" $flags --emit=cubin" \
      "-o \"\$art/tcc/$dir/$kern.cubin\"" >"$tmp/port.log" 2>&1 ||
      note "triton port $dir: tcc FAILED: $(head -c 300 "$tmp/port.log" | tr '\n' ' ')"
  done
fi

# The tensor-core ceiling of the offline tuner's report (runtime/tools/tensor_peak.tile:
# tcc-tune --peak; test/gpu/offline_tune_test.cpp and gpu-run.sh's tuning step).
if [ -x "$tcc" ]; then
  mkdir -p "$art/tcc/tensor_peak"
  "$tcc" "$root/runtime/tools/tensor_peak.tile" --emit=cubin \
    -o "$art/tcc/tensor_peak/tensor_peak.cubin" >"$tmp/peak.log" 2>&1 ||
    note "tensor_peak: tcc FAILED: $(head -c 300 "$tmp/peak.log" | tr '\n' ' ')"
fi

# Artifact kinds the runtime must load (test/gpu/artifact_kinds_test.cpp): an sm_80 cubin with
# its PTX (on an H200 it runs from the PTX, JIT-compiled), PTX only (--emit=ptx -o), several
# architectures in one folder, and a file with two kernels in one cubin.
if [ -x "$tcc" ]; then
  k=$art/kinds
  rm -rf "$k" && mkdir -p "$k/sm80" "$k/ptx_only" "$k/multi_arch" "$k/two_kernels"
  va=$root/lang-examples/vector_add.tile
  { "$tcc" "$va" --arch sm_80 --emit=cubin -o "$k/sm80/vector_add.cubin" &&
    "$tcc" "$va" --emit=ptx -o "$k/ptx_only/vector_add.ptx" &&
    "$tcc" "$va" --arch sm_80,sm_90,sm_90a --emit=cubin -o "$k/multi_arch/vector_add.cubin" &&
    "$tcc" "$root/test/Target/Inputs/two_kernels.tile" --emit=cubin \
      -o "$k/two_kernels/two.cubin"; } >"$tmp/kinds.log" 2>&1 ||
    note "artifact kinds: tcc FAILED: $(head -c 300 "$tmp/kinds.log" | tr '\n' ' ')"
  # Every course example as a new user builds it, `tcc K.tile --emit=cubin` and nothing
  # else: the default variant set (test/gpu/artifact_kinds_test.cpp checks the choice).
  for src in "$root"/lang-examples/*.tile; do
    ex=$(basename "$src" .tile)
    mkdir -p "$k/default/$ex"
    "$tcc" "$src" --emit=cubin -o "$k/default/$ex/$ex.cubin" >"$tmp/kinds.log" 2>&1 ||
      note "default build of $ex: tcc FAILED: $(head -c 300 "$tmp/kinds.log" | tr '\n' ' ')"
  done
fi

# Bounds-checked builds (test/gpu/check_bounds_test.cpp): tcc --check-bounds of the GPU test
# kernel oob_copy (reads `shift` elements ahead), of the course's vector add and matmul, and of
# the f32 matmul (whose operand loads become cp.async copies), each in its first configuration
# (--config 0: the examples carry search spaces, which a bounds check need not tune) with its
# default variant set (every variant checked; the matmuls' sm_90a ones too).
if [ -x "$tcc" ]; then
  cb=$art/check_bounds
  rm -rf "$cb" && mkdir -p "$cb/oob_copy" "$cb/vector_add" "$cb/matmul" "$cb/matmul_f32"
  { "$tcc" "$root/test/gpu/kernels/oob_copy.tile" --check-bounds --emit=cubin \
      -o "$cb/oob_copy/oob_copy.cubin" &&
    "$tcc" "$root/lang-examples/vector_add.tile" --config 0 --check-bounds --emit=cubin \
      -o "$cb/vector_add/vector_add.cubin" &&
    "$tcc" "$root/lang-examples/matmul.tile" --config 0 --check-bounds --emit=cubin \
      -o "$cb/matmul/matmul.cubin" &&
    "$tcc" "$art/src/matmul_f32.tile" --config 0 --check-bounds --emit=cubin \
      -o "$cb/matmul_f32/matmul_f32.cubin"; } >"$tmp/check_bounds.log" 2>&1 ||
    note "check_bounds: tcc FAILED: $(head -c 300 "$tmp/check_bounds.log" | tr '\n' ' ')"
fi

# Generated headers of the default configurations: the stand-ins' through tcc-pack (namespace
# fixture), tcc's own through `tcc --emit=header` (general + specialised variants, functions
# in the global namespace), for the kernels test/gpu/header_2d_test.cpp launches.
default_config() { # example -> "assignments|warps" of its first configuration
  local line e assigns warps
  for line in "${tcc_configs[@]}"; do
    IFS='|' read -r e assigns warps _ <<<"$line"
    [ "$e" = "$1" ] && { echo "$assigns|$warps"; return; }
  done
}
headers_made=0
mkdir -p "$art/headers/fixture_kernels" "$art/headers/tcc_kernels"
for ex in copy2d transpose bias_add softmax layernorm matmul matmul_bias; do
  IFS='|' read -r assigns warps <<<"$(default_config "$ex")"
  cfgdir=$art/fixture/$ex/$(config_name "$assigns" "$warps")
  [ -d "$cfgdir" ] || continue
  if "$pack" --header "$art/headers/fixture_kernels/$ex.h" --namespace fixture \
       "$cfgdir"/*.json 2>"$tmp/hdr.log"; then
    headers_made=$((headers_made + 1))
  else
    note "header fixture $ex: $(head -c 300 "$tmp/hdr.log")"
  fi
done
if [ -x "$tcc" ] && grep -q header <<<"$("$tcc" --help 2>&1)"; then
  for ex in transpose softmax copy2d; do
    IFS='|' read -r assigns warps <<<"$(default_config "$ex")"
    [ -d "$art/tcc/$ex/$(config_name "$assigns" "$warps")" ] || continue # it did not compile
    mapfile -t d < <(defines "$assigns")
    if "$tcc" "$(source_of "$ex")" "${d[@]}" --num-warps "$warps" --arch "$arch" "${spec[@]}" \
         --emit=header -o "$art/headers/tcc_kernels/$ex.h" >"$tmp/hdr.log" 2>&1; then
      headers_made=$((headers_made + 1))
    else
      note "header tcc $ex: $(head -c 300 "$tmp/hdr.log" | tr '\n' ' ')"
      rm -f "$art/headers/tcc_kernels/$ex.h"
    fi
  done
fi

# The autotuned axpy's header with a tuning table (test/gpu/autotune_header_test.cpp): the
# whole space of lang-examples/autotune.tile, and a table choosing configuration 3
# (BLOCK=2048, num_warps=8) for n = 2^20 and n = 1000 (bucket 1024) on an H200 (and, by its
# compute capability, any sm_90 GPU), in namespace tuned_axpy.
if [ -x "$tcc" ] && grep -q -- "--tuning" <<<"$("$tcc" --help 2>&1)"; then
  mkdir -p "$tmp/axpy"
  if "$tcc" "$root/lang-examples/autotune.tile" --emit=ptx -o "$tmp/axpy/axpy.ptx" \
       >"$tmp/hdr.log" 2>&1; then
    space=$(grep -o '"space": "[0-9a-f]*"' "$tmp/axpy/axpy.json" | head -1 | cut -d'"' -f4)
    cat >"$tmp/axpy.tuning.json" <<EOF
{"format": "tcc-tuning-table", "version": 1, "kernel": "axpy", "space": "$space",
 "entries": [
  {"device": "NVIDIA H200", "cc": 90, "key": "n=1048576", "index": 3,
   "config": "BLOCK=2048, num_warps=8, num_stages=3"},
  {"device": "NVIDIA H200", "cc": 90, "key": "n=1024", "index": 3,
   "config": "BLOCK=2048, num_warps=8, num_stages=3"}]}
EOF
    if "$tcc" "$root/lang-examples/autotune.tile" --arch "$arch" --emit=header \
         --namespace tuned_axpy --tuning "$tmp/axpy.tuning.json" \
         -o "$art/headers/tcc_kernels/axpy_tuned.h" >"$tmp/hdr.log" 2>&1; then
      headers_made=$((headers_made + 1))
    else
      note "header tcc axpy_tuned: $(head -c 300 "$tmp/hdr.log" | tr '\n' ' ')"
      rm -f "$art/headers/tcc_kernels/axpy_tuned.h"
    fi
  else
    note "header tcc axpy_tuned: $(head -c 300 "$tmp/hdr.log" | tr '\n' ' ')"
  fi
fi

{
  echo "made by scripts/build-artifacts.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "arch: $arch; nvcc: $("$nvcc" --version | tail -1)"
  echo "$tcc_status"
  echo "$fixture_status"
  echo "headers: $headers_made"
  for n in "${notes[@]}"; do echo "note: $n"; done
} >"$art/MANIFEST.txt"
cat "$art/MANIFEST.txt"
echo "artifacts in $art ($(find "$art" -name '*.cubin' | wc -l) cubins, $(du -sh "$art" | cut -f1))"
