# ctest artifacts-check (test/gpu/CMakeLists.txt): the runtime-only build, as on the GPU
# machine, fails to configure when its artifacts folder lacks a file the table promises or
# its FILES.txt lists, and names the file.
#
#   cmake -DSOURCE_DIR=checkout -DWORK=dir [-DCXX=compiler] -P check_test.cmake
#
# The folder is made of empty files, one for each file test/gpu/artifacts.cmake promises
# (read in EXPECT mode, as the runtime-only build reads it), plus one variant listed only in
# FILES.txt. Complete, it configures; without a promised file or without the variant it does
# not; built for a subset (MANIFEST.txt's `examples: matmul`), another example's files are
# not required.
cmake_minimum_required(VERSION 3.20)
set(TEST_NAME artifacts-check)
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

file(REMOVE_RECURSE "${WORK}")
set(art "${WORK}/art")
file(MAKE_DIRECTORY "${art}")
include("${SOURCE_DIR}/test/gpu/artifacts/expect.cmake")
tcc_expected_artifacts("${art}" "${WORK}/promised.txt")
file(STRINGS "${WORK}/promised.txt" promised)
list(LENGTH promised n)
expect(n GREATER 400)
set(variant tcc/matmul/BM64_BN64_BK32_W4/matmul.d16_d16_d16_d16_d16_d16.cubin)
foreach(f IN LISTS promised variant)
  get_filename_component(d "${art}/${f}" DIRECTORY)
  file(MAKE_DIRECTORY "${d}")
  file(TOUCH "${art}/${f}")
endforeach()
file(WRITE "${art}/MANIFEST.txt" "made by check_test.cmake\nexamples: all\n")
list(APPEND promised "${variant}")
list(JOIN promised "\n" files)
file(WRITE "${art}/FILES.txt" "${files}\n")

set(compiler)
if(CXX)
  set(compiler "-DCMAKE_CXX_COMPILER=${CXX}")
endif()
set(configure "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK}/build" -G Ninja
    -DTCC_ENABLE_COMPILER=OFF "-DTCC_ARTIFACTS=${art}" ${compiler})
run("configure with every artifact" ${configure})
expect(rc EQUAL 0 AND out MATCHES "every file the table promises is there")

set(gone tcc/matmul/BM64_BN64_BK32_W4/matmul.json)
file(RENAME "${art}/${gone}" "${WORK}/aside")
run("configure without ${gone}" ${configure})
# CMake wraps a FATAL_ERROR's text at word boundaries (where depends on the folder's path).
expect(NOT rc EQUAL 0 AND out MATCHES "lacks[ \t\r\n]+1[ \t\r\n]+of[ \t\r\n]+the[ \t\r\n]+files"
       AND out MATCHES "${gone}")
file(RENAME "${WORK}/aside" "${art}/${gone}")

file(RENAME "${art}/${variant}" "${WORK}/aside")
run("configure without the variant FILES.txt lists" ${configure})
expect(NOT rc EQUAL 0 AND out MATCHES "${variant}")
file(RENAME "${WORK}/aside" "${art}/${variant}")

# Built for matmul only: softmax's configurations are not required, matmul's are.
file(WRITE "${art}/MANIFEST.txt" "made by check_test.cmake\nexamples: matmul\n")
list(FILTER promised EXCLUDE REGEX "^tcc/softmax/")
list(JOIN promised "\n" files)
file(WRITE "${art}/FILES.txt" "${files}\n")
file(REMOVE_RECURSE "${art}/tcc/softmax")
run("configure a matmul-only folder without softmax" ${configure})
expect(rc EQUAL 0)
file(RENAME "${art}/${gone}" "${WORK}/aside")
run("configure a matmul-only folder without ${gone}" ${configure})
expect(NOT rc EQUAL 0 AND out MATCHES "${gone}")
message(STATUS "artifacts-check: passed")
