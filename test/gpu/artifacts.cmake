# The table of what the GPU tests (test/gpu) and the benchmarks (bench/) load: one line per
# artifact. Built by test/gpu/artifacts/CMakeLists.txt, where tcc runs (scripts/build-
# artifacts.sh DIR configures and builds it); read again by the runtime-only build on the GPU
# machine (test/gpu/CMakeLists.txt), which fails at configure time, naming the file, when a
# carried folder lacks anything a line here promises. The functions are in
# test/gpu/artifacts/rules.cmake; every command that fails fails the build.
#
# The folder's layout (docs/runtime.md):
#   tcc/<example>/<config>/        course examples compiled by tcc with --variants=auto
#                                  (<example>.cubin/json: the general variant; .d16_... the
#                                  aligned one; ..._e1_... unit inner strides where the
#                                  kernel has strides) and ptxas -v of every variant in
#                                  ptxas.txt; <config> is BM64_BN64_W4, BM128_BN128_BK32_RELU0_W8,
#                                  DTYPEbf16_BM64_BN64_BK32_W4 (matmul's bf16 operands)
#   tcc/<test kernel>/<config>/    kernels of single GPU tests, the Triton tutorial ports,
#                                  the tensor-core ceiling of tcc-tune --peak
#   fixture/                       nvcc-built cubins wrapped by tcc-pack, only where the
#                                  runtime needs what tcc cannot make: vector_add/copy/
#                                  <config>/ (a foreign cubin, general and 16-byte variants),
#                                  tiny (the launch-overhead kernel), errors (wrong-
#                                  architecture cubins), headers (tcc-pack --header)
#   headers/tcc_kernels/           launch headers of tcc --emit=header
#   kinds/                         artifact kinds the runtime loads, and every course example
#                                  built with no flags at all (kinds/default/<example>)
#   check_bounds/                  tcc --check-bounds builds
#   compile_times.json, MANIFEST.txt, FILES.txt
#
# TCC_ARTIFACT_EXAMPLES="matmul matmul_bias" keeps only those examples' tcc_example lines (and
# tcc_header lines), for a focused GPU run; everything else is built either way.

# --- the course examples: tcc_example(example "-D assignments" num_warps [num_stages]) ------
# An example's first line is its default configuration (timed into compile_times.json).
# Softmax and layer norm need BLOCK >= N: one configuration per power of two, with 4, 8 and
# 16 warps at BLOCK 4096..16384 (Triton's best at 4096x16384 is 4 warps); layernorm at BLOCK
# 16384 with 4 warps spills (255 registers, ~580 B: d, w and b are all live at once; see
# bench/RESULTS.md).
foreach(cfg 1024:4 128:4 256:4 512:4 4096:4 1024:8 2048:4 2048:8 4096:8)
  string(REPLACE ":" ";" cfg "${cfg}")
  list(GET cfg 0 block)
  list(GET cfg 1 warps)
  tcc_example(vector_add "BLOCK=${block}" ${warps})
endforeach()
foreach(cfg 1024:4 128:4 256:4 512:4 4096:4 1024:8 2048:4 2048:8 4096:8)
  string(REPLACE ":" ";" cfg "${cfg}")
  list(GET cfg 0 block)
  list(GET cfg 1 warps)
  tcc_example(vector_copy "BLOCK=${block}" ${warps})
endforeach()
tcc_example(copy2d "BM=32 BN=32" 4)
tcc_example(copy2d "BM=64 BN=64" 4)
tcc_example(transpose "BM=32 BN=32" 4)
tcc_example(transpose "BM=64 BN=64" 4)
tcc_example(transpose "BM=64 BN=64" 8)
tcc_example(bias_add "BM=64 BN=64" 4)
tcc_example(bias_add "BM=32 BN=128" 4)
tcc_example(bias_add "BM=128 BN=128" 8)
foreach(cfg 1024:4 1:4 8:4 1024:8 4096:8 4096:16 8192:16 16384:16 16384:32 4096:4 8192:4
            8192:8 16384:4 16384:8 1024:1 1024:2)
  string(REPLACE ":" ";" cfg "${cfg}")
  list(GET cfg 0 block)
  list(GET cfg 1 warps)
  tcc_example(softmax "BLOCK=${block}" ${warps})
endforeach()
foreach(cfg 1024:8 1:4 1024:4 4096:8 4096:16 16384:8 16384:16)
  string(REPLACE ":" ";" cfg "${cfg}")
  list(GET cfg 0 block)
  list(GET cfg 1 warps)
  tcc_example(softmax_persistent "BLOCK=${block}" ${warps})
endforeach()
foreach(cfg 1024:4 1:4 8:4 1024:8 4096:8 4096:16 8192:16 16384:16 16384:32 4096:4 8192:4
            8192:8 16384:8 16384:4 1024:1 1024:2)
  string(REPLACE ":" ";" cfg "${cfg}")
  list(GET cfg 0 block)
  list(GET cfg 1 warps)
  tcc_example(layernorm "BLOCK=${block}" ${warps})
endforeach()
tcc_example(matmul "BM=64 BN=64 BK=32" 4)
tcc_example(matmul "BM=128 BN=128 BK=32" 8)
tcc_example(matmul "BM=32 BN=32 BK=32" 4)
tcc_example(matmul "BM=128 BN=256 BK=64" 8 4)
tcc_example(matmul "BM=128 BN=128 BK=64" 8 4)
tcc_example(matmul "BM=64 BN=128 BK=64" 8 4)
tcc_example(matmul "BM=64 BN=128 BK=64" 4 4)
tcc_example(matmul "BM=128 BN=256 BK=32" 8 4)
tcc_example(matmul "BM=128 BN=256 BK=64" 8 3)
tcc_example(matmul "BM=128 BN=64 BK=64" 4 4)
tcc_example(matmul "BM=64 BN=64 BK=64" 4 4)
tcc_example(matmul "BM=64 BN=64 BK=64" 4 3)
tcc_example(matmul "BM=128 BN=64 BK=64" 4 3)
tcc_example(matmul "BM=64 BN=128 BK=64" 4 3)
tcc_example(matmul "BM=64 BN=128 BK=64" 4 5)
tcc_example(matmul "BM=128 BN=64 BK=64" 8 4)
# matmul's element type DTYPE (f16 above): bf16 operands (tcc-bench's matmul_bf16_4096^3 runs
# these), and f32 operands (tf32 mma.sync).
tcc_example(matmul "DTYPE=bf16 BM=64 BN=64 BK=32" 4)
tcc_example(matmul "DTYPE=bf16 BM=128 BN=128 BK=32" 8)
tcc_example(matmul "DTYPE=bf16 BM=32 BN=32 BK=32" 4)
tcc_example(matmul "DTYPE=bf16 BM=128 BN=256 BK=64" 8 4)
tcc_example(matmul "DTYPE=bf16 BM=128 BN=256 BK=64" 8 3)
tcc_example(matmul "DTYPE=f32 BM=64 BN=64 BK=32" 4)
tcc_example(matmul "DTYPE=f32 BM=32 BN=32 BK=32" 4)
tcc_example(matmul_bias "BM=64 BN=64 BK=32 RELU=True" 4)
tcc_example(matmul_bias "BM=64 BN=64 BK=32 RELU=False" 4)
tcc_example(matmul_bias "BM=128 BN=128 BK=32 RELU=True" 8)
tcc_example(matmul_bias "BM=128 BN=128 BK=32 RELU=False" 8)
tcc_example(matmul_bias "BM=32 BN=32 BK=32 RELU=True" 4)
tcc_example(matmul_bias "BM=128 BN=256 BK=64 RELU=False" 8 4)
tcc_example(matmul_bias "BM=128 BN=256 BK=64 RELU=True" 8 4)
tcc_example(matmul_bias "BM=128 BN=256 BK=64 RELU=False" 8 3)
# TMA is on by default (sm_90a, aligned unit-stride dot operands): the folders above use it.
# A configuration built again with extra FLAGS, in a folder PREFIX<config> beside it (the
# GPU tests check it as every configuration of the example, tcc-bench times it beside its
# twin for the A/B tables of bench/report.py).
function(tcc_example_twin prefix ex defines warps stages)
  _tcc_art_in_subset(${ex} keep)
  if(NOT keep)
    return()
  endif()
  tcc_artifact_config_name(cfg "${defines}" ${warps} ${stages})
  set(flags)
  separate_arguments(defs UNIX_COMMAND "${defines}")
  foreach(a IN LISTS defs)
    list(APPEND flags -D "${a}")
  endforeach()
  tcc_artifact(tcc/${ex}/${prefix}${cfg}/${ex}.cubin SOURCE "lang-examples/${ex}.tile"
               LOG ptxas.txt
               FLAGS ${flags} --num-warps ${warps} --num-stages ${stages}
                     --arch ${TCC_ARTIFACT_ARCH} --variants=auto --ptxas-verbose ${ARGN})
endfunction()
# The 4096^3 configurations again with --no-tma (CPASYNC_<config>), operands copied by
# cp.async: timed beside the TMA ones (the A/B of bench/RESULTS.md).
function(tcc_example_cpasync ex defines warps stages)
  tcc_example_twin(CPASYNC_ ${ex} "${defines}" ${warps} ${stages} --no-tma)
endfunction()
tcc_example_cpasync(matmul "BM=128 BN=256 BK=64" 8 4)
tcc_example_cpasync(matmul "BM=128 BN=256 BK=64" 8 3)
tcc_example_cpasync(matmul "DTYPE=bf16 BM=128 BN=256 BK=64" 8 4)
tcc_example_cpasync(matmul_bias "BM=128 BN=256 BK=64 RELU=False" 8 4)
# The same configurations warp-specialised (--warp-specialize: a producer warpgroup issues
# the bulk copies, the num_warps consumer warps compute), in folders WS_<config>.
function(tcc_example_ws ex defines warps stages)
  tcc_example_twin(WS_ ${ex} "${defines}" ${warps} ${stages} --warp-specialize)
endfunction()
tcc_example_ws(matmul "BM=128 BN=256 BK=64" 8 4)
tcc_example_ws(matmul "BM=128 BN=256 BK=64" 8 3)
tcc_example_ws(matmul "BM=128 BN=128 BK=64" 8 4)
tcc_example_ws(matmul "BM=64 BN=128 BK=64" 4 5)
tcc_example_ws(matmul "DTYPE=bf16 BM=128 BN=256 BK=64" 8 4)
tcc_example_ws(matmul "DTYPE=bf16 BM=128 BN=256 BK=64" 8 3)
tcc_example_ws(matmul_bias "BM=128 BN=256 BK=64 RELU=False" 8 4)
tcc_example_ws(matmul_bias "BM=128 BN=256 BK=64 RELU=True" 8 4)
# The TMA-store epilogue (--tma-store: the result tile written to a swizzled shared tile and
# stored by bulk tensor copies), in folders TMASTORE_<config>; and with warp
# specialisation, WS_TMASTORE_<config>. The ragged shapes of the GPU tests check the
# clipping at the tensor map's extents.
tcc_example_twin(TMASTORE_ matmul "BM=128 BN=256 BK=64" 8 4 --tma-store)
tcc_example_twin(TMASTORE_ matmul "BM=64 BN=128 BK=64" 4 5 --tma-store)
tcc_example_twin(TMASTORE_ matmul "DTYPE=bf16 BM=128 BN=256 BK=64" 8 4 --tma-store)
tcc_example_twin(TMASTORE_ matmul_bias "BM=128 BN=256 BK=64 RELU=False" 8 4 --tma-store)
tcc_example_twin(TMASTORE_ matmul_bias "BM=128 BN=256 BK=64 RELU=True" 8 4 --tma-store)
tcc_example_twin(WS_TMASTORE_ matmul "BM=128 BN=256 BK=64" 8 4 --warp-specialize --tma-store)
# Kernels without a dot whose result tile goes by TMA too: a 2-D copy and the bias add
# (their aligned variants; the GPU tests' ragged shapes clip at the maps' extents).
tcc_example_twin(TMASTORE_ copy2d "BM=64 BN=64" 4 3 --tma-store)
tcc_example_twin(TMASTORE_ bias_add "BM=64 BN=64" 4 3 --tma-store)
tcc_example_twin(TMASTORE_ bias_add "BM=128 BN=128" 8 3 --tma-store)
# Persistent is the default for sm_90a GEMMs (num_sms * occupancy programs, each looping
# over the tiles in grouped order, one TMA ring across them): every matmul and
# matmul_bias folder above is persistent. Their twins with one program per tile
# (--no-persistent), in folders NOPERSISTENT_<config> and WS_NOPERSISTENT_<config>, for
# the bench's A/B table.
tcc_example_twin(NOPERSISTENT_ matmul "BM=128 BN=256 BK=64" 8 3 --no-persistent)
tcc_example_twin(NOPERSISTENT_ matmul "BM=128 BN=256 BK=64" 8 4 --no-persistent)
tcc_example_twin(WS_NOPERSISTENT_ matmul "BM=128 BN=256 BK=64" 8 3 --no-persistent --warp-specialize)
tcc_example_twin(NOPERSISTENT_ matmul "BM=64 BN=128 BK=64" 4 5 --no-persistent)
tcc_example_twin(NOPERSISTENT_ matmul "DTYPE=bf16 BM=128 BN=256 BK=64" 8 3 --no-persistent)
tcc_example_twin(NOPERSISTENT_ matmul_bias "BM=128 BN=256 BK=64 RELU=False" 8 3 --no-persistent)
# Clusters of two programs multicasting B's tile (--multicast: persistent, the pair takes
# two tiles of one column), in folders MULTICAST_<config>; the GPU tests' shapes with an
# even number of rows of tiles multicast (256^2, 1024^3, 1000 x 1001 aligned), the others
# (2049 rows, 300) run the fallback in the same clusters.
tcc_example_twin(MULTICAST_ matmul "BM=128 BN=256 BK=64" 8 3 --multicast)
tcc_example_twin(MULTICAST_ matmul "BM=128 BN=256 BK=64" 8 4 --multicast)
tcc_example_twin(MULTICAST_ matmul "BM=64 BN=128 BK=64" 4 5 --multicast)
tcc_example_twin(MULTICAST_ matmul "DTYPE=bf16 BM=128 BN=256 BK=64" 8 3 --multicast)
tcc_example_twin(MULTICAST_ matmul_bias "BM=128 BN=256 BK=64 RELU=False" 8 3 --multicast)
# Multicast in the warp-specialised kernel (the producers copy B's halves to both programs
# and wait for both programs' hand-backs; the consumers never wait for the partner), in
# folders WS_MULTICAST_<config>, beside the WS_ folders above.
tcc_example_twin(WS_MULTICAST_ matmul "BM=128 BN=256 BK=64" 8 3 --warp-specialize --multicast)
tcc_example_twin(WS_MULTICAST_ matmul "BM=64 BN=128 BK=64" 4 5 --warp-specialize --multicast)
# Split over K in clusters of 2 and 4 (--split-k N: N programs a tile, rank 0 summing
# through distributed shared memory), in folders SPLITK<N>_<config>; for few tiles and a
# long K (the bench's 512 x 512 x 8192). The GPU tests' shapes give some ranks no
# iterations (K = 1, 40) and others a partial last one.
tcc_example_twin(SPLITK2_ matmul "BM=128 BN=128 BK=64" 8 4 --split-k 2)
tcc_example_twin(SPLITK4_ matmul "BM=128 BN=128 BK=64" 8 4 --split-k 4)
tcc_example_twin(SPLITK2_ matmul "BM=64 BN=128 BK=64" 4 5 --split-k 2)
tcc_example_twin(SPLITK4_ matmul "BM=64 BN=128 BK=64" 4 5 --split-k 4)
# The ping-pong schedule (--ping-pong: warp-specialised, two consumer warpgroups of one
# warpgroup's tile taking the persistent kernel's tiles in turn), in folders
# PINGPONG_<config>, beside the same configuration's default build (4 warps, 4 stages,
# 128 x 128) and the cooperative 128 x 256 on 8 warps (WS_ above). The GPU tests' shapes
# give programs an odd and an even number of tiles, and groups none (a 256^2 shape).
tcc_example(matmul "BM=128 BN=128 BK=64" 4 4)
tcc_example_twin(PINGPONG_ matmul "BM=128 BN=128 BK=64" 4 4 --ping-pong)
tcc_example_twin(PINGPONG_ matmul "BM=128 BN=128 BK=64" 4 5 --ping-pong)
tcc_example_twin(PINGPONG_ matmul "BM=64 BN=256 BK=64" 4 4 --ping-pong)
tcc_example_twin(PINGPONG_ matmul "DTYPE=bf16 BM=128 BN=128 BK=64" 4 4 --ping-pong)
tcc_example_twin(PINGPONG_ matmul_bias "BM=128 BN=128 BK=64 RELU=False" 4 4 --ping-pong)
tcc_example_twin(PINGPONG_TMASTORE_ matmul "BM=128 BN=128 BK=64" 4 4 --ping-pong --tma-store)

# --- nvcc cubins wrapped by tcc-pack: what the runtime needs and tcc cannot make ------------
# A foreign (nvcc) cubin packaged with tcc-pack, in two configurations (BLOCK, warps), each
# with its general variant and a 16-byte one that faults on misaligned pointers, so that the
# runtime's variant choice is observable (test/gpu/elementwise_test.cpp); BLOCK1024_W4 is
# also what launch_errors_test.cpp and the tcc-pack headers load, BLOCK4096_W8 differs in
# both block and warps, so a grid or block size not taken from the packed metadata fails.
foreach(cfg 1024:4 4096:8)
  string(REPLACE ":" ";" cfg "${cfg}")
  list(GET cfg 0 block)
  list(GET cfg 1 warps)
  tcc_elementwise_fixture(${block} ${warps})
endforeach()
# The launch-overhead kernel: 128 threads, one block for n <= 128.
tcc_nvcc_fixture(fixture/tiny/tiny.cubin CU elementwise.cu NVCC -DBLOCK=128 -DNUM_WARPS=4
  PACK --name tiny --arch ${TCC_ARTIFACT_ARCH} --num-warps 4 --grid "cdiv(n, 128)"
       --param "out:*f32" --param "n:i32")
# Wrong architectures (test/gpu/launch_errors_test.cpp): cubins for sm_80 and sm_100 (at least
# one of them cannot run on any given device), and metadata claiming sm_90 for an sm_80 cubin.
set(_va_signature --num-warps 4 --constexpr BLOCK=1024 --grid "cdiv(n, 1024)"
    --param "x:*f32" --param "y:*f32" --param "out:*f32" --param "n:i32")
foreach(arch sm_80 sm_100)
  tcc_nvcc_fixture(fixture/errors/${arch}/vector_add.cubin CU elementwise.cu ARCH ${arch}
    NVCC -DBLOCK=1024 -DNUM_WARPS=4 PACK --name vector_add --arch ${arch} ${_va_signature})
endforeach()
tcc_nvcc_fixture(fixture/errors/mismatch/vector_add.cubin CU elementwise.cu ARCH sm_80
  NVCC -DBLOCK=1024 -DNUM_WARPS=4
  PACK --name vector_add --arch ${TCC_ARTIFACT_ARCH} ${_va_signature})

# --- headers -------------------------------------------------------------------------------
# tcc-pack's (namespace fixture, test/gpu/header_test.cpp and bench/launch_overhead.cpp): the
# packed elementwise cubins and tiny.
tcc_pack_header(fixture/headers/vector_add.h NAMESPACE fixture METADATA
  fixture/vector_add/BLOCK1024_W4/vector_add.json
  fixture/vector_add/BLOCK1024_W4/vector_add.d16_d16_d16_d16.json)
tcc_pack_header(fixture/headers/vector_copy.h NAMESPACE fixture METADATA
  fixture/vector_copy/BLOCK1024_W4/vector_copy.json
  fixture/vector_copy/BLOCK1024_W4/vector_copy.d16_d16_d16.json)
tcc_pack_header(fixture/headers/tiny.h NAMESPACE fixture METADATA fixture/tiny/tiny.json)
# tcc's own (--emit=header, every variant; test/gpu/header_2d_test.cpp), default configurations.
tcc_header(transpose "BM=32 BN=32" 4)
tcc_header(softmax "BLOCK=1024" 4)
tcc_header(copy2d "BM=32 BN=32" 4)
# The autotuned axpy (test/gpu/autotune_header_test.cpp): the whole space of
# lang-examples/autotune.tile with a table choosing configuration 3 (BLOCK=2048, 8 warps)
# for n = 2^20 and n = 1000 (bucket 1024) on an H200 and, by its compute capability, any
# sm_90 GPU, in namespace tuned_axpy.
tcc_tuned_header(headers/tcc_kernels/axpy_tuned.h SOURCE lang-examples/autotune.tile
                 NAMESPACE tuned_axpy TABLE test/gpu/artifacts/axpy.tuning.json.in)

# --- kernels of single GPU tests -------------------------------------------------------------
# atomic_add (test/gpu/atomic_add_test.cpp).
tcc_artifact(tcc/histogram/BLOCK64_W2/histogram.cubin SOURCE test/gpu/kernels/histogram.tile)
# The tutorials' language features (test/gpu/tutorial_features_test.cpp): math, bitcast,
# assume, while, join and split, trans, Philox random numbers, float atomics; block pointers
# and tensor descriptors (test/gpu/tutorial_ports_test.cpp, BlockPointers).
foreach(k tutorial_math:BLOCK256_W4 collatz_while:BLOCK128_W4 complex_mul:BLOCK256_W4
          trans_dot:M64_D64_W4 tutorial_random:BLOCK256_W4 block_pointers:BM32_BN32_W4
          float_atomics:BLOCK256_W4)
  string(REPLACE ":" ";" k "${k}")
  list(GET k 0 name)
  list(GET k 1 cfg)
  tcc_artifact(tcc/${name}/${cfg}/${name}.cubin SOURCE test/gpu/kernels/${name}.tile)
endforeach()
# Scans, sort and flip, reshapes that move elements between threads (test/gpu/scan_test.cpp,
# sort_test.cpp, reshape_test.cpp).
foreach(name scans sort_flip reshape)
  tcc_artifact(tcc/${name}/W4/${name}.cubin SOURCE test/gpu/kernels/${name}.tile)
endforeach()
# device_assert (test/gpu/device_assert_test.cpp): as written, and compiled out.
tcc_artifact(tcc/checked_scale/BLOCK256_W4/checked_scale.cubin
             SOURCE test/gpu/kernels/checked_scale.tile)
tcc_artifact(tcc/checked_scale/off_BLOCK256_W4/checked_scale.cubin
             SOURCE test/gpu/kernels/checked_scale.tile FLAGS --no-device-assert)
# fp8 conversions (test/gpu/fp8_test.cpp): PTX's cvt instructions (sm_90) and tcc's integer
# arithmetic (sm_80, which the H200 runs from the PTX).
foreach(a sm90:sm_90 sm80:sm_80)
  string(REPLACE ":" ";" a "${a}")
  list(GET a 0 tag)
  list(GET a 1 arch)
  tcc_artifact(tcc/fp8_convert/${tag}_BLOCK256_W4/fp8_convert.cubin
               SOURCE test/gpu/kernels/fp8_convert.tile FLAGS --arch ${arch})
endforeach()
# TMA (test/gpu/tma_test.cpp): hand-written tile IR with tile.tma_load and its mbarrier,
# for sm_90a; its metadata carries a tensor map the runtime encodes at the launch.
tcc_artifact(tcc/tma_copy/W4/tma_copy.cubin SOURCE test/gpu/kernels/tma_copy.mlir
             FLAGS --arch sm_90a)
# The same with a 64-byte swizzle (64 x 32 boxes), which tile-pipeline does not use yet:
# this test is what lets it (docs/lowering.md, TMA).
tcc_artifact(tcc/tma_copy/SW64_W4/tma_copy.cubin SOURCE test/gpu/kernels/tma_copy_sw64.mlir
             FLAGS --arch sm_90a)
# The tensor-core ceiling of the offline tuner's report (runtime/tools/tensor_peak.tile:
# tcc-tune --peak; test/gpu/offline_tune_test.cpp and gpu-run.sh's tuning step).
tcc_artifact(tcc/tensor_peak/tensor_peak.cubin SOURCE runtime/tools/tensor_peak.tile)

# --- the ports of Triton's tutorials (lang-examples/triton/, tutorial_ports_test.cpp) -------
# tcc_artifact(tcc/<port>/<folder>/<kernel>.cubin ...): an autotuned port is built in chosen
# configurations (--config N), each a folder of its own.
set(_t lang-examples/triton)
tcc_artifact(tcc/triton_01_vector_add/BLOCK_SIZE1024_W4/add_kernel.cubin
             SOURCE ${_t}/01_vector_add.tile)
foreach(b 1024 4096 16384) # 16384: bench/'s triton_02_* workloads (12672 = 128 x 99 columns)
  tcc_artifact(tcc/triton_02_fused_softmax/BLOCK_SIZE${b}_W8/softmax_kernel.cubin
               SOURCE ${_t}/02_fused_softmax.tile FLAGS -D BLOCK_SIZE=${b})
endforeach()
# tcc's wgmma path (sm_90a); configuration 0 (128x256x64, 8 warps) spills 336 B there, so it
# is built with --max-spill-bytes -1 (correctness only; bench/ times the others).
set(_mm tcc/triton_03_matrix_multiplication)
set(_leaky -D "ACTIVATION=\"leaky_relu\"")
tcc_artifact(${_mm}/c3_W4_S4/matmul_kernel.cubin SOURCE ${_t}/03_matrix_multiplication.tile
             FLAGS --arch sm_90a --config 3)
# Triton's best configuration at 4096^3 (128 x 256 x 64, 8 warps, 3 stages), for the bench:
# its fast variant is tile-version-signs' then branch; the else branch (B element by
# element) takes the kernel to 255 registers and spills, so the spill check is off.
tcc_artifact(${_mm}/c0_W8_S3/matmul_kernel.cubin SOURCE ${_t}/03_matrix_multiplication.tile
             FLAGS --arch sm_90a --config 0 --max-spill-bytes -1)
# The same with one program per tile (--no-persistent: the default build is persistent, the
# kernel's own grouped order kept), for the bench's A/B table.
tcc_artifact(${_mm}/NOPERSISTENT_c0_W8_S3/matmul_kernel.cubin SOURCE ${_t}/03_matrix_multiplication.tile
             FLAGS --arch sm_90a --config 0 --max-spill-bytes -1 --no-persistent)
tcc_artifact(${_mm}/c3_leaky_W4_S4/matmul_kernel.cubin SOURCE ${_t}/03_matrix_multiplication.tile
             FLAGS --arch sm_90a --config 3 ${_leaky})
tcc_artifact(${_mm}/c15_leaky_W4_S4/matmul_kernel.cubin SOURCE ${_t}/03_matrix_multiplication.tile
             FLAGS --arch sm_90a --config 15 ${_leaky})
tcc_artifact(${_mm}/c0_leaky_W8_S3/matmul_kernel.cubin SOURCE ${_t}/03_matrix_multiplication.tile
             FLAGS --arch sm_90a --config 0 --max-spill-bytes -1 ${_leaky})
tcc_artifact(tcc/triton_04_low_memory_dropout/seeded_BLOCK_SIZE1024_W4/_seeded_dropout.cubin
             SOURCE ${_t}/04_low_memory_dropout.tile FLAGS --kernel _seeded_dropout)
tcc_artifact(tcc/triton_04_low_memory_dropout/plain_BLOCK_SIZE1024_W4/_dropout.cubin
             SOURCE ${_t}/04_low_memory_dropout.tile FLAGS --kernel _dropout)
# The tutorial's launches: N = 8192 (BLOCK 8192, 8 warps, 96 locks) and N <= 1024 (BLOCK
# 1024, 4 warps, 256 locks); its dw/db reduction in one configuration; for bench/ (tcc-bench's
# triton_05_* workloads, M = 4096) N = 4096 and 15872 (the tutorial's widest), with the
# launcher's num_warps = min(max(BLOCK_SIZE // 256, 1), 8).
set(_ln tcc/triton_05_layer_norm)
set(_lns ${_t}/05_layer_norm.tile)
set(_fwd --kernel _layer_norm_fwd_fused)
set(_bwd --kernel _layer_norm_bwd_dx_fused)
tcc_artifact(${_ln}/fwd_BLOCK8192_W8/_layer_norm_fwd_fused.cubin SOURCE ${_lns}
             FLAGS ${_fwd} -D BLOCK_SIZE=8192)
tcc_artifact(${_ln}/bwd_BLOCK8192_W8/_layer_norm_bwd_dx_fused.cubin SOURCE ${_lns}
             FLAGS ${_bwd} -D BLOCK_SIZE_N=8192 -D GROUP_SIZE_M=96)
tcc_artifact(${_ln}/fwd_BLOCK1024_W4/_layer_norm_fwd_fused.cubin SOURCE ${_lns}
             FLAGS ${_fwd} -D BLOCK_SIZE=1024 --num-warps 4)
tcc_artifact(${_ln}/fwd_BLOCK4096_W8/_layer_norm_fwd_fused.cubin SOURCE ${_lns}
             FLAGS ${_fwd} -D BLOCK_SIZE=4096)
tcc_artifact(${_ln}/fwd_BLOCK16384_W8/_layer_norm_fwd_fused.cubin SOURCE ${_lns}
             FLAGS ${_fwd} -D BLOCK_SIZE=16384)
tcc_artifact(${_ln}/bwd_BLOCK1024_W4/_layer_norm_bwd_dx_fused.cubin SOURCE ${_lns}
             FLAGS ${_bwd} -D BLOCK_SIZE_N=1024 -D GROUP_SIZE_M=256 --num-warps 4)
tcc_artifact(${_ln}/dwdb_BLOCK_SIZE_M32_BLOCK_SIZE_N128_W4/_layer_norm_bwd_dwdb.cubin
             SOURCE ${_lns} FLAGS --kernel _layer_norm_bwd_dwdb)
# Tensor descriptors made in the kernel; non-causal (STAGE 1) and causal (STAGE 3), folder
# TAG_cCONFIG_SUFFIX. Configuration 4 (BLOCK_M 64, BLOCK_N 64, 3 stages, 4 warps) at head
# dimensions 64 and 128; 13 (BLOCK_M 128, BLOCK_N 64, 3 stages, 4 warps) at 64, Triton's
# best there in this project's runs (tcc's too, non-causal: bench/RESULTS.md); 16 (BLOCK_M
# 128, BLOCK_N 128, 2 stages, 8 warps) at 128, the fastest of tcc's there (Triton's best,
# 3 stages, needs 256 KiB of shared memory).
foreach(v hd64:64:1:4:W4_S3 hd64_causal:64:3:4:W4_S3 hd128:128:1:4:W4_S3
          hd128_causal:128:3:4:W4_S3 hd64:64:1:13:W4_S3 hd64_causal:64:3:13:W4_S3
          hd128:128:1:16:W8_S2 hd128_causal:128:3:16:W8_S2)
  string(REPLACE ":" ";" v "${v}")
  list(GET v 0 tag)
  list(GET v 1 hd)
  list(GET v 2 stage)
  list(GET v 3 config)
  list(GET v 4 suffix)
  tcc_artifact(tcc/triton_06_fused_attention/${tag}_c${config}_${suffix}/_attn_fwd.cubin
               SOURCE ${_t}/06_fused_attention.tile
               FLAGS --arch sm_90a --config ${config} -D HEAD_DIM=${hd} -D STAGE=${stage})
endforeach()
# Warp-specialised (--warp-specialize: a producer warpgroup issues K's and V's bulk copies),
# folders WS_TAG_cCONFIG_SUFFIX, beside their twins above. The causal kernel's second loop
# (its diagonal blocks) stays on the consumers' TMA.
foreach(v hd64:64:1:13:W4_S3 hd64_causal:64:3:13:W4_S3 hd128:128:1:16:W8_S2)
  string(REPLACE ":" ";" v "${v}")
  list(GET v 0 tag)
  list(GET v 1 hd)
  list(GET v 2 stage)
  list(GET v 3 config)
  list(GET v 4 suffix)
  tcc_artifact(tcc/triton_06_fused_attention/WS_${tag}_c${config}_${suffix}/_attn_fwd.cubin
               SOURCE ${_t}/06_fused_attention.tile
               FLAGS --arch sm_90a --config ${config} -D HEAD_DIM=${hd} -D STAGE=${stage}
                     --warp-specialize)
endforeach()
# Made persistent (--persistent: one loop over the grid's (cdiv(N_CTX, BLOCK_M), Z * H)
# tiles; not the default on a 2-D grid), plain and warp-specialised, folders PERSISTENT_
# and WS_PERSISTENT_ beside their twins.
foreach(v PERSISTENT_hd64:64:1:--persistent PERSISTENT_hd64_causal:64:3:--persistent
          WS_PERSISTENT_hd64:64:1:--persistent WS_PERSISTENT_hd64_causal:64:3:--persistent)
  string(REPLACE ":" ";" v "${v}")
  list(GET v 0 tag)
  list(GET v 1 hd)
  list(GET v 2 stage)
  list(GET v 3 extra)
  if(tag MATCHES "^WS_")
    list(APPEND extra --warp-specialize)
  endif()
  tcc_artifact(tcc/triton_06_fused_attention/${tag}_c13_W4_S3/_attn_fwd.cubin
               SOURCE ${_t}/06_fused_attention.tile
               FLAGS --arch sm_90a --config 13 -D HEAD_DIM=${hd} -D STAGE=${stage} ${extra})
endforeach()
# NUM_SMS 132 (the constexpr's default: an H100 or H200); the pointer kernel's configuration
# 0 (128x128x64, 3 stages, 4 warps), the descriptor kernel's 7 (128x128x64, 3 stages, 8
# warps, no epilogue subtiling).
tcc_artifact(tcc/triton_09_persistent_matmul/persistent_c0_W4_S3/matmul_kernel_persistent.cubin
             SOURCE ${_t}/09_persistent_matmul.tile
             FLAGS --kernel matmul_kernel_persistent --arch sm_90a --config 0)
tcc_artifact(tcc/triton_09_persistent_matmul/descriptor_c7_W8_S3/matmul_kernel_descriptor_persistent.cubin
             SOURCE ${_t}/09_persistent_matmul.tile
             FLAGS --kernel matmul_kernel_descriptor_persistent --arch sm_90a --config 7)
# libdevice.10.bc (TCC_LIBDEVICE, by default the CUDA toolkit's), linked at compile time.
tcc_artifact(tcc/triton_07_extern_functions/BLOCK_SIZE1024_W4/asin_kernel.cubin
             SOURCE ${_t}/07_extern_functions.tile)
# Every configuration of the tutorial's space: 128x128x32 over 84 and 128 programs, 64x64x32
# over 84 and 128, 128x128x64 (Triton's best) and 64x128x64 over 132. The 128x128 ones build
# without spilling since `accumulator += tl.dot(a, b)` folds into the dot's accumulator.
foreach(c 0 1 2 3 4 5)
  tcc_artifact(tcc/triton_08_grouped_gemm/c${c}_W4/grouped_matmul_kernel.cubin
               SOURCE ${_t}/08_grouped_gemm.tile FLAGS --arch sm_90a --config ${c})
endforeach()

# --- artifact kinds the runtime must load (test/gpu/artifact_kinds_test.cpp) -----------------
# An sm_80 cubin with its PTX (on an H200 it runs from the PTX, JIT-compiled), PTX only,
# several architectures in one folder, two kernels in one cubin (two.<kernel>.json each).
tcc_artifact(kinds/sm80/vector_add.cubin SOURCE lang-examples/vector_add.tile FLAGS --arch sm_80)
tcc_artifact(kinds/ptx_only/vector_add.ptx SOURCE lang-examples/vector_add.tile)
tcc_artifact(kinds/multi_arch/vector_add.cubin SOURCE lang-examples/vector_add.tile
             FLAGS --arch sm_80,sm_90,sm_90a)
tcc_artifact(kinds/two_kernels/two.cubin SOURCE test/Target/Inputs/two_kernels.tile
             NO_METADATA ALSO two.scale.json two.fill.json)
# Every course example as a new user builds it, `tcc K.tile --emit=cubin` and nothing else:
# the default variant set (artifact_kinds_test.cpp checks the choice).
file(GLOB _examples RELATIVE "${CMAKE_CURRENT_LIST_DIR}/../../lang-examples"
     "${CMAKE_CURRENT_LIST_DIR}/../../lang-examples/*.tile")
list(SORT _examples)
foreach(f IN LISTS _examples)
  get_filename_component(ex "${f}" NAME_WE)
  tcc_artifact(kinds/default/${ex}/${ex}.cubin SOURCE lang-examples/${f})
endforeach()

# --- bounds-checked builds (test/gpu/check_bounds_test.cpp) ----------------------------------
# The GPU test kernel oob_copy (reads `shift` elements ahead), the course's vector add and
# matmul, and matmul with f32 operands (-D DTYPE=f32, whose operand loads become cp.async
# copies), each in its first configuration (--config 0: a bounds check need not tune) with
# its default variant set.
tcc_artifact(check_bounds/oob_copy/oob_copy.cubin SOURCE test/gpu/kernels/oob_copy.tile
             FLAGS --check-bounds)
tcc_artifact(check_bounds/vector_add/vector_add.cubin SOURCE lang-examples/vector_add.tile
             FLAGS --config 0 --check-bounds)
tcc_artifact(check_bounds/matmul/matmul.cubin SOURCE lang-examples/matmul.tile
             FLAGS --config 0 --check-bounds)
tcc_artifact(check_bounds/matmul_f32/matmul.cubin SOURCE lang-examples/matmul.tile
             FLAGS --config 0 -D DTYPE=f32 --check-bounds)
