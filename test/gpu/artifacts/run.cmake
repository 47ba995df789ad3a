# Runs one command of the artifacts build and fails the build, showing what it printed, when
# the command fails:
#
#   cmake [-DMKDIR=dir] [-DMKDIR2=dir] [-DCLEAN=dir/stem] [-DLOG=file] [-DSETENV=NAME=VALUE]
#         -P run.cmake -- COMMAND ARGS...
#
# MKDIR and MKDIR2 are made first (tcc does not make the folder of -o); the files CLEAN.* (an earlier
# build's variants of the same output) are removed; LOG keeps the command's output (stdout
# and stderr, e.g. ptxas -v), which is otherwise shown only on failure.
cmake_minimum_required(VERSION 3.20)
set(args)
set(seen FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(seen)
    list(APPEND args "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(seen TRUE)
  endif()
endforeach()
if(NOT args)
  message(FATAL_ERROR "run.cmake: no command after --")
endif()
foreach(d MKDIR MKDIR2)
  if(${d})
    file(MAKE_DIRECTORY "${${d}}")
  endif()
endforeach()
if(CLEAN)
  file(GLOB old "${CLEAN}.*")
  if(old)
    file(REMOVE ${old})
  endif()
endif()
if(SETENV MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
  set(ENV{${CMAKE_MATCH_1}} "${CMAKE_MATCH_2}")
endif()
execute_process(COMMAND ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(LOG)
  file(WRITE "${LOG}" "${out}")
endif()
if(NOT rc STREQUAL "0")
  list(JOIN args " " shown)
  message("${out}") # as printed (a FATAL_ERROR message would be re-wrapped)
  message(FATAL_ERROR "failed (exit status ${rc}): ${shown}")
endif()
