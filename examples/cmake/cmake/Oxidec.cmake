# Oxidec.cmake: compile Rust GPU kernels with oxidec into C/C++ headers for a target.
#
#   include(cmake/Oxidec.cmake)            # or list(APPEND CMAKE_MODULE_PATH ...) + include(Oxidec)
#   add_executable(app main.cpp)
#   oxidec_add_kernels(app kernels/relu.rs kernels/scale.rs [ARCH sm_90] [OPTIONS -O 2 ...])
#   target_link_libraries(app PRIVATE CUDA::cuda_driver)
#
# Each FILE.rs becomes ${CMAKE_CURRENT_BINARY_DIR}/oxidec/FILE.h (the PTX, a loader and typed
# launchers: `#include "FILE.h"`), rebuilt when the kernel source changes: oxidec writes a
# depfile listing every source it read (-MD), which CMake hands to make or ninja (DEPFILE).
#
# OXIDEC (cache variable, or the OXIDEC environment variable) is the command, for example
# `python3 -m oxidec` for an uninstalled checkout.

cmake_minimum_required(VERSION 3.20)  # DEPFILE for Makefile generators

if(NOT DEFINED OXIDEC)
  if(DEFINED ENV{OXIDEC})
    set(_oxidec_default "$ENV{OXIDEC}")
  else()
    set(_oxidec_default "oxidec")
  endif()
  set(OXIDEC "${_oxidec_default}" CACHE STRING "The oxidec command")
endif()

function(oxidec_add_kernels target)
  cmake_parse_arguments(OXK "" "ARCH" "OPTIONS" ${ARGN})
  if(NOT OXK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "oxidec_add_kernels(${target} ...): no kernel files given")
  endif()
  separate_arguments(_command NATIVE_COMMAND "${OXIDEC}")
  set(_flags ${OXK_OPTIONS})
  if(OXK_ARCH)
    list(APPEND _flags --arch ${OXK_ARCH})
  endif()
  set(_outdir "${CMAKE_CURRENT_BINARY_DIR}/oxidec")
  set(_headers "")
  foreach(_src IN LISTS OXK_UNPARSED_ARGUMENTS)
    get_filename_component(_abs "${_src}" ABSOLUTE)
    get_filename_component(_stem "${_src}" NAME_WE)
    set(_header "${_outdir}/${_stem}.h")
    add_custom_command(
      OUTPUT "${_header}"
      COMMAND ${_command} build "${_abs}" --emit header -o "${_header}"
              -MD -MF "${_header}.d" -MT "${_header}" ${_flags}
      DEPENDS "${_abs}"
      DEPFILE "${_header}.d"
      COMMENT "oxidec ${_src} -> oxidec/${_stem}.h"
      VERBATIM)
    list(APPEND _headers "${_header}")
  endforeach()
  target_sources(${target} PRIVATE ${_headers})
  target_include_directories(${target} PRIVATE "${_outdir}")
endfunction()
