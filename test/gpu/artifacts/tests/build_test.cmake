# ctest artifacts-build (test/gpu/CMakeLists.txt): the artifacts table builds, a small part
# of it in CI time, and a failing tcc fails the build.
#
#   cmake -DSOURCE_DIR=checkout -DWORK=dir -DTCC=tcc -DTCC_PACK=tcc-pack
#         [-DCUDA_HOME=...] -P build_test.cmake
#
# 1. The real table (test/gpu/artifacts.cmake) configured with TCC_ARTIFACT_EXAMPLES=vector_add;
#    then built: one course example's configuration (every variant, ptxas.txt), an nvcc
#    cubin packed by tcc-pack (its 16-byte variant), matmul with f32 operands (-D DTYPE=f32,
#    the bounds-checked build) and a tcc-pack header; each checked, then built again:
#    nothing to do.
# 2. A table with one kernel tcc rejects: the build fails, showing tcc's located error.
cmake_minimum_required(VERSION 3.20)
set(TEST_NAME artifacts-build)
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

file(REMOVE_RECURSE "${WORK}")
set(cuda)
if(CUDA_HOME)
  set(cuda "-DCUDA_HOME=${CUDA_HOME}")
endif()
set(art "${WORK}/art")
run("configure the table" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/test/gpu/artifacts"
    -B "${WORK}/build" -G Ninja "-DTCC_EXECUTABLE=${TCC}" "-DTCC_PACK_EXECUTABLE=${TCC_PACK}"
    "-DTCC_ARTIFACTS=${art}" -DTCC_ARTIFACT_EXAMPLES=vector_add -DTCC_TIMING_RUNS=1 ${cuda})
expect(rc EQUAL 0)
file(STRINGS "${WORK}/build/expected-artifacts.txt" promised)
expect("tcc/vector_add/BLOCK1024_W4/ptxas.txt" IN_LIST promised)
expect(NOT "tcc/softmax/BLOCK1024_W4/softmax.cubin" IN_LIST promised) # not in the subset
expect("fixture/tiny/tiny.cubin" IN_LIST promised) # nvcc fixtures: always

set(packed fixture/vector_add/BLOCK1024_W4/vector_add.d16_d16_d16_d16)
set(outputs tcc/vector_add/BLOCK1024_W4/vector_add.cubin ${packed}.cubin
            check_bounds/matmul_f32/matmul.cubin fixture/headers/tiny.h)
set(targets ${outputs})
list(TRANSFORM targets PREPEND "${art}/")
run("build a part" "${CMAKE_COMMAND}" --build "${WORK}/build" --target ${targets})
expect(rc EQUAL 0)

# The example: the general variant, its metadata, the aligned variant beside it, ptxas -v.
set(d "${art}/tcc/vector_add/BLOCK1024_W4")
foreach(f vector_add.cubin vector_add.json vector_add.ptx ptxas.txt)
  expect(EXISTS "${d}/${f}")
endforeach()
file(GLOB variants "${d}/vector_add.d16*.cubin")
expect(variants)
file(READ "${d}/ptxas.txt" ptxas)
expect(ptxas MATCHES "registers")
file(READ "${d}/vector_add.json" meta)
string(JSON warps GET "${meta}" num_warps)
string(JSON block GET "${meta}" constexprs BLOCK)
expect(warps EQUAL 4 AND block EQUAL 1024)

# The packed cubin: nvcc's code, the signature the table spells out (the aligned variant:
# every parameter divisible by 16).
file(READ "${art}/${packed}.json" fx)
string(JSON compiler GET "${fx}" compiler)
expect(compiler MATCHES "tcc-pack")
string(JSON name GET "${fx}" name)
string(JSON grid0 GET "${fx}" grid 0)
string(JSON warps GET "${fx}" num_warps)
expect(name STREQUAL "vector_add" AND grid0 STREQUAL "cdiv(n, 1024)" AND warps EQUAL 4)
foreach(i 0 1 2 3)
  string(JSON div GET "${fx}" params ${i} divisibility)
  expect(div EQUAL 16)
endforeach()

# matmul built with -D DTYPE=f32: its metadata says so, in the constexprs and the parameters.
file(READ "${art}/check_bounds/matmul_f32/matmul.json" mm)
string(JSON dtype GET "${mm}" constexprs DTYPE)
string(JSON a GET "${mm}" params 0 type)
string(JSON c GET "${mm}" params 2 type)
expect(dtype STREQUAL "f32" AND a STREQUAL "*f32" AND c STREQUAL "*f32")
# The header.
file(READ "${art}/fixture/headers/tiny.h" header)
expect(header MATCHES "namespace fixture")

# Built again: nothing to do (every output is up to date with its inputs).
run("build the part again" "${CMAKE_COMMAND}" --build "${WORK}/build" --target ${targets})
expect(rc EQUAL 0 AND out MATCHES "no work to do")

# A table whose kernel tcc rejects: the build fails with tcc's message.
run("configure a bad table" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/test/gpu/artifacts"
    -B "${WORK}/bad" -G Ninja "-DTCC_EXECUTABLE=${TCC}" "-DTCC_PACK_EXECUTABLE=${TCC_PACK}"
    "-DTCC_ARTIFACTS=${WORK}/bad-art" -DTCC_TIMING_RUNS=1 ${cuda}
    "-DTCC_ARTIFACT_TABLE=${SOURCE_DIR}/test/gpu/artifacts/tests/bad_table.cmake")
expect(rc EQUAL 0)
run("build the bad table" "${CMAKE_COMMAND}" --build "${WORK}/bad")
expect(NOT rc EQUAL 0)
expect(out MATCHES "bad.tile:5:21: error: undefined name 'undefined_name'")
expect(NOT EXISTS "${WORK}/bad-art/MANIFEST.txt")
message(STATUS "artifacts-build: passed")
