# Derives a source of the artifacts table from another with other operand types:
#
#   cmake -DIN=matmul.tile -DOUT=src/matmul_bf16.tile -DTYPE=bf16 -DKERNEL=matmul
#         -DNAME=matmul_bf16 [-DSHOWN=lang-examples/matmul.tile] -P derive_source.cmake
#
# Every `f16` that is a whole word becomes TYPE, and `def KERNEL(` becomes `def NAME(`; a
# first comment line says where the file comes from. Fails when IN has no such kernel.
cmake_minimum_required(VERSION 3.20)
file(READ "${IN}" text)
# Twice: a match consumes the character after `f16`, which may start the next one.
foreach(pass 1 2)
  string(REGEX REPLACE "(^|[^A-Za-z0-9_])f16([^A-Za-z0-9_]|$)" "\\1${TYPE}\\2" text "${text}")
endforeach()
string(FIND "${text}" "def ${KERNEL}(" at)
if(at EQUAL -1)
  message(FATAL_ERROR "derive_source: ${IN} has no 'def ${KERNEL}('")
endif()
string(REPLACE "def ${KERNEL}(" "def ${NAME}(" text "${text}")
if(NOT SHOWN)
  set(SHOWN "${IN}")
endif()
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
file(WRITE "${OUT}" "# Derived by the artifacts build (test/gpu/artifacts.cmake) from ${SHOWN}: ${TYPE} operands.\n${text}")
