# What a carried artifacts folder must hold, from the table (test/gpu/artifacts.cmake) read in
# EXPECT mode: no tcc, nvcc or commands, only the files its entries promise. Used by the
# runtime-only build (test/gpu/CMakeLists.txt) and its test (check_test.cmake).
#
#   tcc_expected_artifacts(<folder> <list file>)
#     writes the promised files (relative paths, one a line) to <list file>, for the examples
#     the folder was built with (its MANIFEST.txt's `examples:` line; every example without
#     one), and sets TCC_ARTIFACTS_MISSING to those the folder lacks, together with the files
#     its own FILES.txt lists that are gone (a carry cut short).
include_guard(GLOBAL)

function(tcc_expected_artifacts dir list_file)
  set(TCC_ARTIFACT_EXAMPLES "")
  if(EXISTS "${dir}/MANIFEST.txt")
    file(STRINGS "${dir}/MANIFEST.txt" line REGEX "^examples: ")
    string(REGEX REPLACE "^examples: " "" TCC_ARTIFACT_EXAMPLES "${line}")
  endif()
  set(TCC_ARTIFACT_MODE EXPECT)
  set(TCC_ARTIFACT_DIR "${dir}")
  set(TCC_ARTIFACT_LIST "${list_file}")
  include("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/rules.cmake")
  include("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../artifacts.cmake")
  tcc_artifacts_finish()
  get_property(promised GLOBAL PROPERTY TCC_ARTIFACT_OUTPUTS)
  set(inventory)
  if(EXISTS "${dir}/FILES.txt")
    file(STRINGS "${dir}/FILES.txt" inventory)
  endif()
  set(missing)
  foreach(f IN LISTS promised inventory)
    if(NOT EXISTS "${dir}/${f}" AND NOT f IN_LIST missing)
      list(APPEND missing "${f}")
    endif()
  endforeach()
  set(TCC_ARTIFACTS_MISSING "${missing}" PARENT_SCOPE)
endfunction()
