# tcc_add_kernels(): compiles .tile files to C++ headers at build time (docs/cmake.md).
#
#   tcc_add_kernels(<target>
#     SOURCES a.tile [b.tile ...]         .tile files (relative to the current source folder)
#     [ARCH sm_80 sm_90 sm_90a ...]       one artifact with a cubin per architecture (and PTX)
#     [DEFINES BLOCK=1024 ACT=relu ...]   -D NAME=VALUE for constexpr parameters and constants
#     [NUM_WARPS n] [NUM_STAGES n]        --num-warps, --num-stages
#     [NAMESPACE ns]                      C++ namespace of the launchers (may be nested: a::b)
#     [VARIANTS auto|single]              --variants (auto: aligned / unit-stride variants too)
#     [KERNEL name]                       only this kernel of each file
#     [OUTPUT_NAME name]                  header name without .h (one source only)
#     [OPTIONS ...]                       any other tcc flags, passed as they are (-O2, ...)
#     [RUNTIME tcc::runtime|tcc::runtime_shared|NONE]   what <target> links (default tcc::runtime)
#     [PUBLIC])                           include folder and runtime PUBLIC (default PRIVATE)
#
# For each source, one header <binary dir>/tcc_kernels/<target>/<name>.h, name = OUTPUT_NAME or
# the source's file name without .tile. The folder is on <target>'s include path, so a .cpp of
# <target> writes `#include <name.h>`. tcc writes a depfile, so the header is rebuilt when the
# .tile file, a file it reads or tcc itself changes (Ninja and Makefile generators). The
# headers of this call are also left in TCC_KERNEL_HEADERS (the caller's scope).
#
# The compiler: TCC_EXECUTABLE when set, else the tcc::tcc target (the installed package's
# imported executable, or in the tcc build tree the tcc target itself).
include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "tcc_add_kernels needs CMake 3.20 or newer (custom-command depfiles "
                      "with Makefile generators); this is ${CMAKE_VERSION}")
endif()

# Functions keep the policies in force where they are defined: CMP0116 (depfile paths relative
# to the build folder with Ninja) and the rest as of 3.20, whatever the including project says.
cmake_policy(PUSH)
cmake_policy(VERSION 3.20...3.31)

set(TCC_EXECUTABLE "" CACHE FILEPATH "tcc used by tcc_add_kernels (default: the tcc::tcc target)")

function(tcc_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "PUBLIC"
    "NUM_WARPS;NUM_STAGES;NAMESPACE;VARIANTS;KERNEL;OUTPUT_NAME;RUNTIME"
    "SOURCES;ARCH;DEFINES;OPTIONS")
  set(fn "tcc_add_kernels(${target})")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${fn}: no target named '${target}' (create it first)")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "${fn}: no SOURCES")
  endif()
  list(LENGTH ARG_SOURCES nsources)
  if(DEFINED ARG_OUTPUT_NAME AND nsources GREATER 1)
    message(FATAL_ERROR "${fn}: OUTPUT_NAME names one header; it needs exactly one source")
  endif()
  if(DEFINED ARG_VARIANTS AND NOT ARG_VARIANTS MATCHES "^(auto|single)$")
    message(FATAL_ERROR "${fn}: VARIANTS is 'auto' or 'single', not '${ARG_VARIANTS}'")
  endif()
  foreach(opt NUM_WARPS NUM_STAGES)
    if(DEFINED ARG_${opt} AND NOT ARG_${opt} MATCHES "^[0-9]+$")
      message(FATAL_ERROR "${fn}: ${opt} is a number, not '${ARG_${opt}}'")
    endif()
  endforeach()

  # The compiler, and what makes the headers depend on it.
  if(TCC_EXECUTABLE)
    set(tcc "${TCC_EXECUTABLE}")
    set(tcc_dep "${TCC_EXECUTABLE}")
  elseif(TARGET tcc::tcc)
    set(tcc "$<TARGET_FILE:tcc::tcc>")
    get_target_property(real tcc::tcc ALIASED_TARGET)
    if(real)
      set(tcc_dep ${real})            # in the tcc build tree: build tcc first
    else()
      set(tcc_dep "$<TARGET_FILE:tcc::tcc>")
    endif()
  else()
    message(FATAL_ERROR "${fn}: no tcc compiler: this tcc package was built without it "
                        "(TCC_ENABLE_COMPILER=OFF); set TCC_EXECUTABLE to a tcc program")
  endif()

  # Flags shared by every source of this call.
  set(flags)
  if(ARG_ARCH)
    list(JOIN ARG_ARCH "," archs)
    list(APPEND flags --arch ${archs})
  endif()
  foreach(d IN LISTS ARG_DEFINES)
    if(NOT d MATCHES "^[A-Za-z_][A-Za-z0-9_]*=")
      message(FATAL_ERROR "${fn}: DEFINES entries are NAME=VALUE, not '${d}'")
    endif()
    list(APPEND flags -D ${d})
  endforeach()
  if(DEFINED ARG_NUM_WARPS)
    list(APPEND flags --num-warps ${ARG_NUM_WARPS})
  endif()
  if(DEFINED ARG_NUM_STAGES)
    list(APPEND flags --num-stages ${ARG_NUM_STAGES})
  endif()
  if(DEFINED ARG_NAMESPACE)
    list(APPEND flags --namespace ${ARG_NAMESPACE})
  endif()
  if(DEFINED ARG_VARIANTS)
    list(APPEND flags --variants ${ARG_VARIANTS})
  endif()
  if(DEFINED ARG_KERNEL)
    list(APPEND flags --kernel ${ARG_KERNEL})
  endif()
  list(APPEND flags ${ARG_OPTIONS})

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tcc_kernels/${target}")
  get_target_property(existing ${target} TCC_KERNEL_HEADERS)
  if(NOT existing)
    set(existing)
  endif()
  set(headers)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(DEFINED ARG_OUTPUT_NAME)
      set(name "${ARG_OUTPUT_NAME}")
    else()
      get_filename_component(name "${src}" NAME_WLE)
    endif()
    set(header "${dir}/${name}.h")
    if(header IN_LIST existing OR header IN_LIST headers)
      message(FATAL_ERROR "${fn}: ${name}.h is already generated for ${target}; give this "
                          "configuration its own OUTPUT_NAME")
    endif()
    list(APPEND headers "${header}")
    file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${src}")
    if(shown MATCHES "^\\.\\./")
      set(shown "${src}")
    endif()
    set(depfile_args)
    if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
      set(depfile_args DEPFILE "${dir}/${name}.d")
    endif()
    add_custom_command(
      OUTPUT "${header}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"   # Makefiles do not make it
      COMMAND "${tcc}" "${src}" --emit=header -o "${header}" --depfile "${dir}/${name}.d" ${flags}
      DEPENDS "${src}" ${tcc_dep}
      ${depfile_args}
      COMMENT "tcc: ${shown} -> tcc_kernels/${target}/${name}.h"
      VERBATIM)
  endforeach()

  # One utility target per call carries the commands; <target> builds after it, so the headers
  # exist before its first compile and are regenerated (then its objects recompiled, through
  # the compiler's own dependency files) whenever a .tile file changes.
  get_target_property(calls ${target} TCC_KERNEL_CALLS)
  if(NOT calls)
    set(calls 0)
  endif()
  math(EXPR calls "${calls} + 1")
  set(gen "${target}_tcc_kernels")
  if(calls GREATER 1)
    set(gen "${gen}_${calls}")
  endif()
  add_custom_target(${gen} DEPENDS ${headers} SOURCES ${ARG_SOURCES})
  add_dependencies(${target} ${gen})
  list(APPEND existing ${headers})
  set_target_properties(${target} PROPERTIES TCC_KERNEL_CALLS ${calls}
                                             TCC_KERNEL_HEADERS "${existing}")

  set(scope PRIVATE)
  if(ARG_PUBLIC)
    set(scope PUBLIC)
  endif()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    set(scope INTERFACE)
  endif()
  target_include_directories(${target} ${scope} "$<BUILD_INTERFACE:${dir}>")
  if(NOT DEFINED ARG_RUNTIME)
    set(ARG_RUNTIME tcc::runtime)
  endif()
  if(NOT ARG_RUNTIME STREQUAL "NONE")
    if(NOT TARGET ${ARG_RUNTIME})
      message(FATAL_ERROR "${fn}: no runtime target '${ARG_RUNTIME}' (find_package(tcc) "
                          "first, or RUNTIME NONE)")
    endif()
    target_link_libraries(${target} ${scope} ${ARG_RUNTIME})
  endif()
  set(TCC_KERNEL_HEADERS "${headers}" PARENT_SCOPE)
endfunction()

cmake_policy(POP)
