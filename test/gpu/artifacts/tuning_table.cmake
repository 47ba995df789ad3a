# Writes a tuning table for an @autotune kernel's space from a template:
#
#   cmake -DSPACE_DIR=dir -DIN=table.json.in -DOUT=table.json -P tuning_table.cmake
#
# SPACE_DIR holds the metadata tcc wrote for the space (tcc K.tile --emit=ptx -o dir/x.ptx);
# the template's @SPACE@ becomes the space's hash ("autotune": {"space": ...}), which
# `tcc --tuning` checks the table against.
cmake_minimum_required(VERSION 3.20)
file(GLOB metas "${SPACE_DIR}/*.json")
set(space "")
foreach(m IN LISTS metas)
  file(READ "${m}" json)
  string(JSON s ERROR_VARIABLE err GET "${json}" autotune space)
  if(NOT err)
    set(space "${s}")
    break()
  endif()
endforeach()
if(space STREQUAL "")
  message(FATAL_ERROR "tuning_table: no metadata with an autotune space in ${SPACE_DIR}")
endif()
set(SPACE "${space}")
configure_file("${IN}" "${OUT}" @ONLY)
