# The last step of the artifacts build: checks that every promised file is there, removes
# files that no entry of the table makes (left by an earlier build of another table), and
# writes MANIFEST.txt (what made the folder) and FILES.txt (every file in it, sorted):
#
#   cmake -DDIR=artifacts -DEXPECTED=expected-artifacts.txt -DLINES=manifest-lines.txt
#         -DSOURCE_DIR=checkout -DTCC=tcc -P manifest.cmake
#
# A file is kept when the table promises it, or when it lies beside a promised cubin or PTX
# file of the same stem (k.d16_....cubin beside k.cubin: the variants tcc names itself).
cmake_minimum_required(VERSION 3.20)
file(STRINGS "${EXPECTED}" expected)
set(missing)
set(stems)
foreach(f IN LISTS expected)
  if(NOT f MATCHES "^(MANIFEST|FILES)\\.txt$" AND NOT EXISTS "${DIR}/${f}")
    list(APPEND missing "${f}")
  endif()
  if(f MATCHES "^(.*/)?([^/.]+)\\.(cubin|ptx)$")
    list(APPEND stems "${CMAKE_MATCH_1}${CMAKE_MATCH_2}.")
  endif()
endforeach()
if(missing)
  list(JOIN missing "\n  " shown)
  message(FATAL_ERROR "artifacts: the build did not make these promised files in ${DIR}:\n  ${shown}")
endif()
file(GLOB_RECURSE present RELATIVE "${DIR}" "${DIR}/*")
set(removed 0)
foreach(f IN LISTS present)
  if(f IN_LIST expected)
    continue()
  endif()
  set(keep FALSE)
  foreach(s IN LISTS stems)
    string(FIND "${f}" "${s}" at)
    if(at EQUAL 0)
      string(LENGTH "${s}" n)
      string(SUBSTRING "${f}" ${n} -1 rest)
      if(NOT rest MATCHES "/")
        set(keep TRUE)
        break()
      endif()
    endif()
  endforeach()
  if(NOT keep)
    file(REMOVE "${DIR}/${f}")
    math(EXPR removed "${removed} + 1")
  endif()
endforeach()
# Folders left empty.
file(GLOB_RECURSE dirs LIST_DIRECTORIES TRUE "${DIR}/*")
list(SORT dirs ORDER DESCENDING)
foreach(d IN LISTS dirs)
  if(IS_DIRECTORY "${d}")
    file(GLOB inside "${d}/*")
    if(NOT inside)
      file(REMOVE_RECURSE "${d}")
    endif()
  endif()
endforeach()
string(TIMESTAMP now "%Y-%m-%dT%H:%M:%SZ" UTC)
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short HEAD
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit unknown)
endif()
file(READ "${LINES}" lines)
file(WRITE "${DIR}/MANIFEST.txt"
  "made by the artifacts build (test/gpu/artifacts.cmake) on ${now}\n"
  "commit: ${commit}\n"
  "tcc: ${TCC}\n"
  "${lines}")
file(GLOB_RECURSE present RELATIVE "${DIR}" "${DIR}/*")
list(APPEND present FILES.txt)
list(REMOVE_DUPLICATES present)
list(SORT present)
list(JOIN present "\n" text)
file(WRITE "${DIR}/FILES.txt" "${text}\n")
list(LENGTH present n)
message(STATUS "artifacts: ${n} files in ${DIR}; ${removed} left over from an earlier table removed")
