# The functions test/gpu/artifacts.cmake (the table of what the GPU tests and benchmarks
# load) is written in. Two modes, chosen by TCC_ARTIFACT_MODE before this file is included:
#
#   BUILD   (test/gpu/artifacts/CMakeLists.txt, where tcc runs) every entry becomes an
#           add_custom_command: tcc, nvcc and tcc-pack run by the build, each output
#           depending on its sources and on the programs that make it; a failing command
#           fails the build.
#   EXPECT  (the runtime-only build on the GPU machine, and script mode) no commands: only
#           the list of files the entries promise, to check a carried folder against.
#
# Either way the promised files (paths relative to the artifacts folder) collect in the
# global property TCC_ARTIFACT_OUTPUTS. Inputs:
#   TCC_ARTIFACT_DIR         the artifacts folder (BUILD: where the outputs go)
#   TCC_ARTIFACT_EXAMPLES    a subset of the examples of tcc_example() ("" or "all": every one);
#                            every other entry is built either way
#   TCC_ARTIFACT_ARCH        the architecture of the configurations (default sm_90)
#   BUILD only: TCC_EXECUTABLE, TCC_PACK_EXECUTABLE, TCC_NVCC (programs), TCC_LIBDEVICE.
include_guard(GLOBAL)

set(_tcc_art_rules_dir "${CMAKE_CURRENT_LIST_DIR}")
get_filename_component(_tcc_art_source_root "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TCC_ARTIFACT_MODE MATCHES "^(BUILD|EXPECT)$")
  message(FATAL_ERROR "tcc artifacts: TCC_ARTIFACT_MODE is BUILD or EXPECT, not "
                      "'${TCC_ARTIFACT_MODE}'")
endif()
if(NOT TCC_ARTIFACT_ARCH)
  set(TCC_ARTIFACT_ARCH sm_90)
endif()
if(TCC_ARTIFACT_EXAMPLES STREQUAL "all")
  set(TCC_ARTIFACT_EXAMPLES "")
endif()
separate_arguments(_tcc_art_subset UNIX_COMMAND "${TCC_ARTIFACT_EXAMPLES}")
set_property(GLOBAL PROPERTY TCC_ARTIFACT_OUTPUTS "")

# "BM=32 BN=32" 4 [3] -> BM32_BN32_W4[_S3]; True/False -> 1/0.
function(tcc_artifact_config_name out defines warps)
  set(name "")
  separate_arguments(defs UNIX_COMMAND "${defines}")
  foreach(a IN LISTS defs)
    string(REGEX MATCH "^([A-Za-z_][A-Za-z0-9_]*)=(.*)$" m "${a}")
    if(NOT m)
      message(FATAL_ERROR "tcc artifacts: '${a}' is not NAME=VALUE (in \"${defines}\")")
    endif()
    set(v "${CMAKE_MATCH_2}")
    if(v STREQUAL "True")
      set(v 1)
    elseif(v STREQUAL "False")
      set(v 0)
    endif()
    string(APPEND name "${CMAKE_MATCH_1}${v}_")
  endforeach()
  string(APPEND name "W${warps}")
  # ARGC, not ARGV3 alone: an ARGV3 of the calling function is visible here.
  if(ARGC GREATER 3 AND NOT "${ARGV3}" STREQUAL "")
    string(APPEND name "_S${ARGV3}")
  endif()
  set(${out} "${name}" PARENT_SCOPE)
endfunction()

function(_tcc_art_promise)
  foreach(f IN LISTS ARGN)
    get_property(have GLOBAL PROPERTY TCC_ARTIFACT_OUTPUTS)
    if(f IN_LIST have)
      message(FATAL_ERROR "tcc artifacts: two entries of the table make ${f}")
    endif()
    set_property(GLOBAL APPEND PROPERTY TCC_ARTIFACT_OUTPUTS "${f}")
  endforeach()
endfunction()

function(_tcc_art_in_subset ex out)
  if(NOT _tcc_art_subset OR ex IN_LIST _tcc_art_subset)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# A source named relative to the checkout (lang-examples/x.tile): sets <var> to its absolute
# path.
function(_tcc_art_resolve var src)
  set(${var} "${_tcc_art_source_root}/${src}" PARENT_SCOPE)
endfunction()

# tcc_artifact(<output> SOURCE <src> [FLAGS ...] [LOG <file>] [ALSO <file>...] [NO_METADATA]
#              [EXAMPLE <example>])
# One tcc run: `tcc <src> FLAGS --emit=<by the output's extension> -o <output>`. A .cubin or
# .ptx output brings its metadata <stem>.json (unless NO_METADATA: a file with several
# kernels names its JSON per kernel, listed in ALSO); LOG keeps what tcc printed (ptxas -v)
# in a file of the folder. Before tcc runs, the files of an earlier build of the same stem
# (variants that no longer exist) are removed. Outputs are relative to the artifacts folder.
function(tcc_artifact out)
  cmake_parse_arguments(PARSE_ARGV 1 A "NO_METADATA" "SOURCE;LOG;EXAMPLE" "FLAGS;ALSO")
  if(A_UNPARSED_ARGUMENTS OR NOT A_SOURCE)
    message(FATAL_ERROR "tcc_artifact(${out}): SOURCE is required; unknown: ${A_UNPARSED_ARGUMENTS}")
  endif()
  if(A_EXAMPLE)
    _tcc_art_in_subset(${A_EXAMPLE} keep)
    if(NOT keep)
      return()
    endif()
  endif()
  get_filename_component(ext "${out}" LAST_EXT)
  get_filename_component(rel_dir "${out}" DIRECTORY)
  get_filename_component(stem "${out}" NAME_WE)
  if(ext STREQUAL ".cubin")
    set(emit cubin)
  elseif(ext STREQUAL ".ptx")
    set(emit ptx)
  elseif(ext STREQUAL ".h")
    set(emit header)
    set(A_NO_METADATA TRUE)
  else()
    message(FATAL_ERROR "tcc_artifact(${out}): the output is a .cubin, .ptx or .h file")
  endif()
  set(promised "${out}")
  if(NOT A_NO_METADATA)
    list(APPEND promised "${rel_dir}/${stem}.json")
  endif()
  foreach(f IN LISTS A_ALSO)
    list(APPEND promised "${rel_dir}/${f}")
  endforeach()
  if(A_LOG)
    list(APPEND promised "${rel_dir}/${A_LOG}")
  endif()
  _tcc_art_promise(${promised})
  if(NOT TCC_ARTIFACT_MODE STREQUAL "BUILD")
    return()
  endif()
  _tcc_art_resolve(src "${A_SOURCE}")
  set(abs_out "${TCC_ARTIFACT_DIR}/${out}")
  list(TRANSFORM promised PREPEND "${TCC_ARTIFACT_DIR}/")
  set(log_arg)
  if(A_LOG)
    set(log_arg "-DLOG=${TCC_ARTIFACT_DIR}/${rel_dir}/${A_LOG}")
  endif()
  set(env_arg)
  if(TCC_LIBDEVICE)
    set(env_arg "-DSETENV=TCC_LIBDEVICE=${TCC_LIBDEVICE}")
  endif()
  set(dep "${CMAKE_BINARY_DIR}/deps/${out}.d")
  add_custom_command(
    OUTPUT ${promised}
    COMMAND "${CMAKE_COMMAND}" "-DMKDIR=${TCC_ARTIFACT_DIR}/${rel_dir}"
            "-DMKDIR2=${CMAKE_BINARY_DIR}/deps/${rel_dir}"
            "-DCLEAN=${TCC_ARTIFACT_DIR}/${rel_dir}/${stem}" ${log_arg} ${env_arg}
            -P "${_tcc_art_rules_dir}/run.cmake" --
            "${TCC_EXECUTABLE}" "${src}" ${A_FLAGS} --emit=${emit} -o "${abs_out}"
            --depfile "${dep}"
    DEPENDS "${src}" "${TCC_EXECUTABLE}" "${_tcc_art_rules_dir}/run.cmake"
    DEPFILE "${dep}"
    COMMENT "tcc: ${out}"
    VERBATIM)
  set_property(GLOBAL APPEND PROPERTY TCC_ARTIFACT_TCC_OUTPUTS "${abs_out}")
endfunction()

# tcc_example(<example> "<-D assignments>" <num_warps> [<num_stages>])
# A course example (lang-examples/<example>.tile) in one configuration, with --variants=auto
# and ptxas -v kept in ptxas.txt: tcc/<example>/<config>/<example>.cubin (+ variants beside
# it). The assignments may set a constexpr whose value is a type (matmul's "DTYPE=bf16": one
# kernel, other operand types). An example's first entry is its default configuration, the
# one compile_times.json times.
function(tcc_example ex defines warps)
  set(stages "")
  if(ARGC GREATER 3)
    set(stages "${ARGV3}")
  endif()
  _tcc_art_in_subset(${ex} keep)
  if(NOT keep)
    return()
  endif()
  tcc_artifact_config_name(cfg "${defines}" ${warps} ${stages})
  set(src "lang-examples/${ex}.tile")
  set(flags)
  separate_arguments(defs UNIX_COMMAND "${defines}")
  foreach(a IN LISTS defs)
    list(APPEND flags -D "${a}")
  endforeach()
  list(APPEND flags --num-warps ${warps})
  if(NOT stages STREQUAL "")
    list(APPEND flags --num-stages ${stages})
  endif()
  list(APPEND flags --arch ${TCC_ARTIFACT_ARCH})
  get_property(timed GLOBAL PROPERTY TCC_ARTIFACT_TIMED)
  if(NOT ex IN_LIST timed)
    set_property(GLOBAL APPEND PROPERTY TCC_ARTIFACT_TIMED ${ex})
    _tcc_art_resolve(abs "${src}")
    list(JOIN flags "\t" tflags)
    set_property(GLOBAL APPEND_STRING PROPERTY TCC_ARTIFACT_TIMING
                 "${ex}\t${cfg}\t${abs}\t${tflags}\n")
  endif()
  set_property(GLOBAL APPEND PROPERTY TCC_ARTIFACT_EXAMPLE_CONFIGS "${ex}/${cfg}")
  tcc_artifact(tcc/${ex}/${cfg}/${ex}.cubin SOURCE "${src}" LOG ptxas.txt
               FLAGS ${flags} --variants=auto --ptxas-verbose)
endfunction()

# An nvcc-built cubin in the build folder (not an artifact), shared by the entries that ask
# for the same source, architecture and flags. Sets <var> to its path.
function(_tcc_art_nvcc_cubin var cu arch)
  string(MD5 key "${cu};${arch};${ARGN}")
  string(SUBSTRING "${key}" 0 12 key)
  get_filename_component(base "${cu}" NAME_WE)
  set(cubin "${CMAKE_BINARY_DIR}/nvcc/${base}_${arch}_${key}.cubin")
  set(${var} "${cubin}" PARENT_SCOPE)
  get_property(made GLOBAL PROPERTY TCC_ARTIFACT_NVCC_CUBINS)
  if(cubin IN_LIST made)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY TCC_ARTIFACT_NVCC_CUBINS "${cubin}")
  set(abs_cu "${_tcc_art_source_root}/test/gpu/fixtures/${cu}")
  list(JOIN ARGN " " shown)
  add_custom_command(
    OUTPUT "${cubin}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${CMAKE_BINARY_DIR}/nvcc"
    COMMAND "${TCC_NVCC}" -cubin -arch=${arch} -O3 ${ARGN} -o "${cubin}" "${abs_cu}"
    DEPENDS "${abs_cu}" "${TCC_NVCC}"
    COMMENT "nvcc: ${cu} -arch=${arch} ${shown}"
    VERBATIM)
endfunction()

# tcc_nvcc_fixture(<output> CU <file in test/gpu/fixtures> [ARCH <nvcc arch>] [NVCC ...]
#                  [PACK ...])
# A cubin the runtime needs and tcc cannot make (a foreign compiler's; one for the wrong
# architecture): nvcc compiles CU to a cubin, tcc-pack wraps it into <output> (+ its .json)
# with the kernel's name, parameters, grid, constexprs and warps that PACK spells out.
function(tcc_nvcc_fixture out)
  cmake_parse_arguments(PARSE_ARGV 1 A "" "CU;ARCH" "NVCC;PACK")
  if(A_UNPARSED_ARGUMENTS OR NOT A_CU)
    message(FATAL_ERROR "tcc_nvcc_fixture(${out}): CU is required; unknown: ${A_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT A_ARCH)
    set(A_ARCH ${TCC_ARTIFACT_ARCH})
  endif()
  get_filename_component(rel_dir "${out}" DIRECTORY)
  get_filename_component(stem "${out}" NAME_WLE) # k.d16_d16: its metadata is k.d16_d16.json
  _tcc_art_promise("${out}" "${rel_dir}/${stem}.json")
  set_property(GLOBAL APPEND PROPERTY TCC_ARTIFACT_NVCC_FIXTURES "${out}")
  if(NOT TCC_ARTIFACT_MODE STREQUAL "BUILD")
    return()
  endif()
  _tcc_art_nvcc_cubin(cubin ${A_CU} ${A_ARCH} ${A_NVCC})
  add_custom_command(
    OUTPUT "${TCC_ARTIFACT_DIR}/${out}" "${TCC_ARTIFACT_DIR}/${rel_dir}/${stem}.json"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${TCC_ARTIFACT_DIR}/${rel_dir}"
    COMMAND "${TCC_PACK_EXECUTABLE}" -o "${TCC_ARTIFACT_DIR}/${out}" --cubin "${cubin}"
            ${A_PACK} --source test/gpu/fixtures/${A_CU}
    DEPENDS "${cubin}" "${TCC_PACK_EXECUTABLE}"
    COMMENT "tcc-pack: ${out}"
    VERBATIM)
endfunction()

# tcc_elementwise_fixture(<block> <num_warps>)
# nvcc's vector add and copy (fixtures/elementwise.cu) packed by tcc-pack: fixture/
# {vector_add,vector_copy}/BLOCK<block>_W<warps>/, each with the general variant and the
# 16-byte specialised one (which faults on misaligned pointers).
function(tcc_elementwise_fixture block warps)
  set(cfg BLOCK${block}_W${warps})
  foreach(aligned 0 1)
    set(d "")
    set(sfx_add "")
    set(sfx_copy "")
    if(aligned)
      set(d ":16")
      set(sfx_add ".d16_d16_d16_d16")
      set(sfx_copy ".d16_d16_d16")
    endif()
    set(nv -DBLOCK=${block} -DNUM_WARPS=${warps} -DALIGNED=${aligned})
    set(common --arch ${TCC_ARTIFACT_ARCH} --num-warps ${warps} --constexpr BLOCK=${block}
               --grid "cdiv(n, ${block})")
    tcc_nvcc_fixture(fixture/vector_add/${cfg}/vector_add${sfx_add}.cubin CU elementwise.cu
      NVCC ${nv} PACK --name vector_add ${common}
      --param "x:*f32${d}" --param "y:*f32${d}" --param "out:*f32${d}" --param "n:i32${d}")
    tcc_nvcc_fixture(fixture/vector_copy/${cfg}/vector_copy${sfx_copy}.cubin CU elementwise.cu
      NVCC ${nv} PACK --name vector_copy ${common}
      --param "x:*f32${d}" --param "out:*f32${d}" --param "n:i32${d}")
  endforeach()
endfunction()

# tcc_pack_header(<output.h> NAMESPACE <ns> METADATA <json>...)
# A launch header of packed cubins (tcc-pack --header), from their metadata files.
function(tcc_pack_header out)
  cmake_parse_arguments(PARSE_ARGV 1 A "" "NAMESPACE" "METADATA")
  _tcc_art_promise("${out}")
  set_property(GLOBAL APPEND PROPERTY TCC_ARTIFACT_HEADERS "${out}")
  if(NOT TCC_ARTIFACT_MODE STREQUAL "BUILD")
    return()
  endif()
  get_filename_component(rel_dir "${out}" DIRECTORY)
  set(metas ${A_METADATA})
  list(TRANSFORM metas PREPEND "${TCC_ARTIFACT_DIR}/")
  add_custom_command(
    OUTPUT "${TCC_ARTIFACT_DIR}/${out}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${TCC_ARTIFACT_DIR}/${rel_dir}"
    COMMAND "${TCC_PACK_EXECUTABLE}" --header "${TCC_ARTIFACT_DIR}/${out}"
            --namespace ${A_NAMESPACE} ${metas}
    DEPENDS ${metas} "${TCC_PACK_EXECUTABLE}"
    COMMENT "tcc-pack: ${out}"
    VERBATIM)
endfunction()

# tcc_header(<example> "<-D assignments>" <num_warps>)
# tcc's own launch header of an example's configuration (--emit=header --variants=auto):
# headers/tcc_kernels/<example>.h, when the example is built (TCC_ARTIFACT_EXAMPLES).
function(tcc_header ex defines warps)
  separate_arguments(defs UNIX_COMMAND "${defines}")
  set(flags)
  foreach(a IN LISTS defs)
    list(APPEND flags -D "${a}")
  endforeach()
  _tcc_art_in_subset(${ex} keep)
  if(keep)
    set_property(GLOBAL APPEND PROPERTY TCC_ARTIFACT_HEADERS headers/tcc_kernels/${ex}.h)
  endif()
  tcc_artifact(headers/tcc_kernels/${ex}.h SOURCE lang-examples/${ex}.tile EXAMPLE ${ex}
               FLAGS ${flags} --num-warps ${warps} --arch ${TCC_ARTIFACT_ARCH} --variants=auto)
endfunction()

# tcc_tuned_header(<output.h> SOURCE <src> NAMESPACE <ns> TABLE <tuning.json.in>)
# The header of an @autotune kernel's whole space with a tuning table: the table's template
# gets the space's hash (from the metadata tcc writes for the space) for @SPACE@.
function(tcc_tuned_header out)
  cmake_parse_arguments(PARSE_ARGV 1 A "" "SOURCE;NAMESPACE;TABLE" "")
  _tcc_art_promise("${out}")
  set_property(GLOBAL APPEND PROPERTY TCC_ARTIFACT_HEADERS "${out}")
  if(NOT TCC_ARTIFACT_MODE STREQUAL "BUILD")
    return()
  endif()
  _tcc_art_resolve(src "${A_SOURCE}")
  _tcc_art_resolve(table_in "${A_TABLE}")
  get_filename_component(stem "${out}" NAME_WE)
  set(work "${CMAKE_BINARY_DIR}/tuned/${stem}")
  get_filename_component(rel_dir "${out}" DIRECTORY)
  add_custom_command(
    OUTPUT "${TCC_ARTIFACT_DIR}/${out}"
    COMMAND "${CMAKE_COMMAND}" "-DMKDIR=${work}" "-DCLEAN=${work}/space" -P
            "${_tcc_art_rules_dir}/run.cmake" -- "${TCC_EXECUTABLE}" "${src}" --emit=ptx
            -o "${work}/space.ptx"
    COMMAND "${CMAKE_COMMAND}" "-DSPACE_DIR=${work}" "-DIN=${table_in}"
            "-DOUT=${work}/table.json" -P "${_tcc_art_rules_dir}/tuning_table.cmake"
    COMMAND "${CMAKE_COMMAND}" "-DMKDIR=${TCC_ARTIFACT_DIR}/${rel_dir}" -P
            "${_tcc_art_rules_dir}/run.cmake" -- "${TCC_EXECUTABLE}" "${src}"
            --arch ${TCC_ARTIFACT_ARCH} --emit=header --namespace ${A_NAMESPACE}
            --tuning "${work}/table.json" -o "${TCC_ARTIFACT_DIR}/${out}"
    DEPENDS "${src}" "${table_in}" "${TCC_EXECUTABLE}" "${_tcc_art_rules_dir}/run.cmake"
            "${_tcc_art_rules_dir}/tuning_table.cmake"
    COMMENT "tcc: ${out} (tuning table ${A_TABLE})"
    VERBATIM)
endfunction()

# After the table: compile_times.json (each timed example's default configuration, compiled
# again TCC_TIMING_RUNS times once everything else is built, so nothing runs beside it),
# then MANIFEST.txt and FILES.txt (what made the folder; every file in it), with files no
# entry makes removed. Writes TCC_ARTIFACT_LIST (default <binary dir>/expected-artifacts.txt):
# the promised files, one a line.
function(tcc_artifacts_finish)
  _tcc_art_promise(compile_times.json MANIFEST.txt FILES.txt)
  get_property(outputs GLOBAL PROPERTY TCC_ARTIFACT_OUTPUTS)
  if(NOT TCC_ARTIFACT_LIST)
    set(TCC_ARTIFACT_LIST "${CMAKE_BINARY_DIR}/expected-artifacts.txt")
  endif()
  list(JOIN outputs "\n" text)
  file(WRITE "${TCC_ARTIFACT_LIST}.tmp" "${text}\n")
  configure_file("${TCC_ARTIFACT_LIST}.tmp" "${TCC_ARTIFACT_LIST}" COPYONLY) # if different
  if(NOT TCC_ARTIFACT_MODE STREQUAL "BUILD")
    return()
  endif()
  get_property(timing GLOBAL PROPERTY TCC_ARTIFACT_TIMING)
  file(WRITE "${CMAKE_BINARY_DIR}/timing.tsv.tmp" "${timing}")
  configure_file("${CMAKE_BINARY_DIR}/timing.tsv.tmp" "${CMAKE_BINARY_DIR}/timing.tsv" COPYONLY)
  set(all ${outputs})
  list(REMOVE_ITEM all compile_times.json MANIFEST.txt FILES.txt)
  list(TRANSFORM all PREPEND "${TCC_ARTIFACT_DIR}/")
  if(NOT TCC_TIMING_RUNS)
    set(TCC_TIMING_RUNS 3)
  endif()
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  add_custom_command(
    OUTPUT "${TCC_ARTIFACT_DIR}/compile_times.json"
    COMMAND "${Python3_EXECUTABLE}" "${_tcc_art_rules_dir}/compile_times.py"
            --tcc "${TCC_EXECUTABLE}" --configs "${CMAKE_BINARY_DIR}/timing.tsv"
            --runs ${TCC_TIMING_RUNS} --work "${CMAKE_BINARY_DIR}/timing"
            -o "${TCC_ARTIFACT_DIR}/compile_times.json"
    DEPENDS ${all} "${CMAKE_BINARY_DIR}/timing.tsv" "${TCC_EXECUTABLE}"
            "${_tcc_art_rules_dir}/compile_times.py"
    COMMENT "tcc: compile_times.json (${TCC_TIMING_RUNS} runs of each default configuration)"
    VERBATIM)
  get_property(examples GLOBAL PROPERTY TCC_ARTIFACT_EXAMPLE_CONFIGS)
  get_property(fixtures GLOBAL PROPERTY TCC_ARTIFACT_NVCC_FIXTURES)
  get_property(headers GLOBAL PROPERTY TCC_ARTIFACT_HEADERS)
  list(LENGTH examples nexamples)
  list(LENGTH fixtures nfixtures)
  list(LENGTH headers nheaders)
  execute_process(COMMAND "${TCC_NVCC}" --version OUTPUT_VARIABLE nvcc_version
                  RESULT_VARIABLE rc)
  string(REGEX REPLACE ".*\n([^\n]+)\n*$" "\\1" nvcc_version "${nvcc_version}")
  set(examples_line "all")
  if(_tcc_art_subset)
    list(JOIN _tcc_art_subset " " examples_line)
  endif()
  file(WRITE "${CMAKE_BINARY_DIR}/manifest-lines.txt.tmp"
    "arch: ${TCC_ARTIFACT_ARCH}; nvcc: ${nvcc_version}\n"
    "tcc: compiled ${nexamples} configurations, 0 failed; specialised with --variants=auto\n"
    "nvcc fixtures: ${nfixtures} cubins packed by tcc-pack (foreign cubins, the launch-overhead "
    "kernel, wrong architectures)\n"
    "headers: ${nheaders}\n"
    "examples: ${examples_line}\n")
  configure_file("${CMAKE_BINARY_DIR}/manifest-lines.txt.tmp"
                 "${CMAKE_BINARY_DIR}/manifest-lines.txt" COPYONLY)
  add_custom_command(
    OUTPUT "${TCC_ARTIFACT_DIR}/MANIFEST.txt" "${TCC_ARTIFACT_DIR}/FILES.txt"
    COMMAND "${CMAKE_COMMAND}" "-DDIR=${TCC_ARTIFACT_DIR}"
            "-DEXPECTED=${TCC_ARTIFACT_LIST}"
            "-DLINES=${CMAKE_BINARY_DIR}/manifest-lines.txt" "-DSOURCE_DIR=${_tcc_art_source_root}"
            "-DTCC=${TCC_EXECUTABLE}" -P "${_tcc_art_rules_dir}/manifest.cmake"
    DEPENDS ${all} "${TCC_ARTIFACT_DIR}/compile_times.json"
            "${TCC_ARTIFACT_LIST}" "${CMAKE_BINARY_DIR}/manifest-lines.txt"
            "${_tcc_art_rules_dir}/manifest.cmake"
    COMMENT "MANIFEST.txt, FILES.txt"
    VERBATIM)
  list(TRANSFORM outputs PREPEND "${TCC_ARTIFACT_DIR}/")
  add_custom_target(tcc-artifacts ALL DEPENDS ${outputs})
endfunction()
