# What `cmake --install` puts under the prefix, and the CMake package other projects find
# with find_package(tcc) (docs/cmake.md). Included at the end of the top-level CMakeLists.txt,
# once every target exists:
#
#   bin/tcc, bin/tile-opt                         (with TCC_ENABLE_COMPILER)
#   lib/libtccrt.a, lib/libtccrt.so*              (with TCC_ENABLE_RUNTIME)
#   include/tcc/*.h                               the runtime's public headers
#   lib/cmake/tcc/tccConfig.cmake, tccConfigVersion.cmake, tccTargets*.cmake,
#                 TccAddKernels.cmake             targets tcc::runtime (static),
#                 tcc::runtime_shared, tcc::tcc, tcc::tile-opt; tcc_add_kernels()
#
# The compiler's own libraries (libTCC*.a) and test-only tools (tcc-pack, the test and bench
# programs) are not installed: the top-level CMakeLists.txt sets LLVM_INSTALL_TOOLCHAIN_ONLY
# before add_mlir_library runs, and nothing else here has an install rule.
#
# The build tree is a package too: find_package(tcc) with tcc_DIR=<build>/lib/cmake/tcc uses
# the freshly built tcc and libtccrt without installing them.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The package's version: keep in step with `tcc --version` (tools/tcc/tcc.cpp).
set(TCC_PACKAGE_VERSION 0.1.0)
set(TCC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tcc" CACHE STRING
    "Where the tcc CMake package is installed, relative to the prefix")

set(_tcc_export_targets)

# --- the runtime: libtccrt.a (tcc::runtime) and libtccrt.so (tcc::runtime_shared) ----------
if(TARGET tccrt)
  # Usage requirements that name folders of this checkout (its include/ folder, a CUDA
  # include folder found at configure time) hold in the build tree only; installed, the
  # headers are under <prefix>/include.
  foreach(prop INTERFACE_INCLUDE_DIRECTORIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
    get_target_property(dirs tccrt ${prop})
    set(wrapped)
    if(dirs)
      foreach(d IN LISTS dirs)
        if(d MATCHES "^\\$<")
          list(APPEND wrapped "${d}")
        else()
          list(APPEND wrapped "$<BUILD_INTERFACE:${d}>")
        endif()
      endforeach()
    endif()
    if(prop STREQUAL "INTERFACE_INCLUDE_DIRECTORIES")
      list(APPEND wrapped "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
    endif()
    if(wrapped)
      set_property(TARGET tccrt PROPERTY ${prop} "${wrapped}")
    endif()
  endforeach()

  # The shared library: the same sources, compiled with the same settings (whatever
  # runtime/CMakeLists.txt gives tccrt), into libtccrt.so next to libtccrt.a. In-tree tests
  # keep linking the static one.
  get_target_property(srcs tccrt SOURCES)
  get_target_property(srcdir tccrt SOURCE_DIR)
  set(abs)
  foreach(s IN LISTS srcs)
    if(IS_ABSOLUTE "${s}" OR s MATCHES "^\\$<")
      list(APPEND abs "${s}")
    else()
      list(APPEND abs "${srcdir}/${s}")
    endif()
  endforeach()
  add_library(tccrt_shared SHARED ${abs})
  foreach(prop INCLUDE_DIRECTORIES COMPILE_OPTIONS COMPILE_DEFINITIONS COMPILE_FEATURES
               LINK_LIBRARIES LINK_OPTIONS CXX_STANDARD CXX_STANDARD_REQUIRED
               INTERFACE_INCLUDE_DIRECTORIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES
               INTERFACE_COMPILE_DEFINITIONS INTERFACE_COMPILE_OPTIONS
               INTERFACE_COMPILE_FEATURES INTERFACE_LINK_LIBRARIES)
    get_target_property(v tccrt ${prop})
    if(v)
      set_property(TARGET tccrt_shared PROPERTY ${prop} "${v}")
    endif()
  endforeach()
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" _tcc_soversion "${TCC_PACKAGE_VERSION}")
  set_target_properties(tccrt_shared PROPERTIES
    OUTPUT_NAME tccrt
    VERSION ${TCC_PACKAGE_VERSION}
    SOVERSION ${_tcc_soversion}
    EXPORT_NAME runtime_shared)
  set_target_properties(tccrt PROPERTIES EXPORT_NAME runtime)
  add_library(tcc::runtime ALIAS tccrt)
  add_library(tcc::runtime_shared ALIAS tccrt_shared)
  list(APPEND _tcc_export_targets tccrt tccrt_shared)

  install(DIRECTORY ${srcdir}/include/tcc
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.h")
endif()

# --- the programs: tcc (tcc::tcc), tile-opt (tcc::tile-opt), tcc-tune (tcc::tcc-tune) ---------
# tcc-tune (the offline tuner, runtime/tools) is built in the runtime-only configuration too.
foreach(tool tcc tile-opt tcc-tune)
  if(TARGET ${tool})
    # LLVM and MLIR are shared libraries outside the prefix (/usr/lib/llvm-22/lib): keep
    # their folder in the installed programs' run path.
    set_target_properties(${tool} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON EXPORT_NAME ${tool})
    list(APPEND _tcc_export_targets ${tool})
  endif()
endforeach()
if(TARGET tcc)
  add_executable(tcc::tcc ALIAS tcc)
endif()

# --- install rules and the package -----------------------------------------------------------
if(_tcc_export_targets)
  install(TARGETS ${_tcc_export_targets}
          EXPORT tccTargets
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT tccTargets
          NAMESPACE tcc::
          DESTINATION ${TCC_INSTALL_CMAKEDIR})
  # The same targets, for a package read straight from the build tree.
  export(EXPORT tccTargets NAMESPACE tcc::
         FILE ${PROJECT_BINARY_DIR}/lib/cmake/tcc/tccTargets.cmake)
endif()

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tccConfig.cmake.in
  ${PROJECT_BINARY_DIR}/CMakeFiles/tcc-install/tccConfig.cmake
  INSTALL_DESTINATION ${TCC_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tccConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/tcc/tccConfig.cmake
  INSTALL_DESTINATION ${PROJECT_BINARY_DIR}/lib/cmake/tcc
  INSTALL_PREFIX ${PROJECT_BINARY_DIR})
# 0.x: a new minor version may change the runtime's API, so only 0.1.* satisfies 0.1.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/lib/cmake/tcc/tccConfigVersion.cmake
  VERSION ${TCC_PACKAGE_VERSION}
  COMPATIBILITY SameMinorVersion)
configure_file(${CMAKE_CURRENT_LIST_DIR}/TccAddKernels.cmake
               ${PROJECT_BINARY_DIR}/lib/cmake/tcc/TccAddKernels.cmake COPYONLY)
install(FILES ${PROJECT_BINARY_DIR}/CMakeFiles/tcc-install/tccConfig.cmake
              ${PROJECT_BINARY_DIR}/lib/cmake/tcc/tccConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/TccAddKernels.cmake
        DESTINATION ${TCC_INSTALL_CMAKEDIR})

# tcc_add_kernels() in this build too (for projects that add tcc as a subdirectory, and any
# folder added after this point).
include(${CMAKE_CURRENT_LIST_DIR}/TccAddKernels.cmake)

# --- the consumer project (test/integration) as a ctest entry --------------------------------
# Installs this build to a temporary prefix and builds test/integration against it with
# Ninja and Makefiles (scripts/test-integration.sh); without a GPU it skips the launches.
if(TARGET tcc AND TARGET tccrt AND EXISTS ${PROJECT_SOURCE_DIR}/test/integration/CMakeLists.txt)
  add_test(NAME integration
           COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/test-integration.sh
                   --build ${PROJECT_BINARY_DIR})
  set_tests_properties(integration PROPERTIES
    TIMEOUT 900
    ENVIRONMENT "CXX=${CMAKE_CXX_COMPILER};TCC_INTEGRATION_JOBS=2")
endif()
