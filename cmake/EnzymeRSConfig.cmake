# EnzymeRSConfig.cmake -- find_package(EnzymeRS) for enzyme-rs, the LLVM pass
# plugin that synthesizes derivatives (Enzyme's interface).
#
#   find_package(EnzymeRS REQUIRED)
#   add_executable(app main.c)
#   target_link_libraries(app PRIVATE EnzymeRS::ClangPlugin)
#   # or, the same plus the Fortran module `enzyme` for Fortran sources:
#   enzyme_rs_differentiate(app)
#
# Targets:
#   EnzymeRS::Headers      the include directory (enzyme/enzyme.h, enzyme.hpp)
#   EnzymeRS::ClangPlugin  the plugin flags for C and C++ (clang:
#                          -fplugin=P -fpass-plugin=P) and Fortran
#                          (flang-new: -fpass-plugin=P), and the headers
#   EnzymeRS::Fortran      the Fortran module `enzyme` (markers and typed
#                          interfaces), compiled with the project's Fortran
#                          compiler; defined when Fortran is enabled before
#                          find_package
# Function:
#   enzyme_rs_differentiate(<target>...)  links EnzymeRS::ClangPlugin, and
#                          EnzymeRS::Fortran when the target has Fortran
#                          sources.
# Variables:
#   EnzymeRS_PLUGIN, EnzymeRS_PLUGIN_LLVM22 (when installed),
#   EnzymeRS_INCLUDE_DIR, EnzymeRS_FORTRAN_MODULE_SOURCE, EnzymeRS_VERSION
#
# The plugin is built for one LLVM: clang/flang 16 use libenzyme_rs.so,
# clang 22 libenzyme_rs-llvm22.so (when installed). A language whose
# compiler has no matching plugin gets no flags and a warning (configure
# with CC=clang-16 CXX=clang++-16 FC=flang-new-16).
cmake_minimum_required(VERSION 3.16)

get_filename_component(_enzyme_rs_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(EnzymeRS_INCLUDE_DIR "${_enzyme_rs_prefix}/include")
set(EnzymeRS_PLUGIN "${_enzyme_rs_prefix}/lib/libenzyme_rs.so")
set(EnzymeRS_FORTRAN_MODULE_SOURCE "${EnzymeRS_INCLUDE_DIR}/enzyme/enzyme.f90")
if(EXISTS "${_enzyme_rs_prefix}/lib/libenzyme_rs-llvm22.so")
  set(EnzymeRS_PLUGIN_LLVM22 "${_enzyme_rs_prefix}/lib/libenzyme_rs-llvm22.so")
endif()
if(NOT EXISTS "${EnzymeRS_PLUGIN}")
  set(EnzymeRS_FOUND FALSE)
  set(EnzymeRS_NOT_FOUND_MESSAGE "enzyme-rs plugin not found at ${EnzymeRS_PLUGIN}")
  return()
endif()

# The plugin for language LANG's compiler, or "" (and a warning).
function(_enzyme_rs_plugin_for lang out)
  set(id "${CMAKE_${lang}_COMPILER_ID}")
  set(ver "${CMAKE_${lang}_COMPILER_VERSION}")
  string(REGEX MATCH "^[0-9]+" major "${ver}")
  set(plugin "")
  if(id MATCHES "^(Clang|LLVMFlang|Flang)$")
    if(major STREQUAL "16")
      set(plugin "${EnzymeRS_PLUGIN}")
    elseif(major STREQUAL "22" AND EnzymeRS_PLUGIN_LLVM22)
      set(plugin "${EnzymeRS_PLUGIN_LLVM22}")
    endif()
  endif()
  if(NOT plugin)
    message(WARNING "EnzymeRS: the ${lang} compiler is ${id} ${ver}; the enzyme-rs "
      "plugin needs clang/flang-new 16${EnzymeRS_PLUGIN_LLVM22_NOTE} "
      "(e.g. CC=clang-16 CXX=clang++-16 FC=flang-new-16): ${lang} sources get no plugin flags")
  endif()
  set(${out} "${plugin}" PARENT_SCOPE)
endfunction()
if(EnzymeRS_PLUGIN_LLVM22)
  set(EnzymeRS_PLUGIN_LLVM22_NOTE " or 22")
endif()

if(NOT TARGET EnzymeRS::Headers)
  add_library(EnzymeRS::Headers INTERFACE IMPORTED)
  set_target_properties(EnzymeRS::Headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${EnzymeRS_INCLUDE_DIR}")
endif()

if(NOT TARGET EnzymeRS::ClangPlugin)
  add_library(EnzymeRS::ClangPlugin INTERFACE IMPORTED)
  get_property(_enzyme_rs_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(_enzyme_rs_opts "")
  foreach(_lang C CXX)
    if(_lang IN_LIST _enzyme_rs_langs)
      _enzyme_rs_plugin_for(${_lang} _p)
      if(_p)
        list(APPEND _enzyme_rs_opts "$<$<COMPILE_LANGUAGE:${_lang}>:-fplugin=${_p};-fpass-plugin=${_p}>")
      endif()
    endif()
  endforeach()
  if("Fortran" IN_LIST _enzyme_rs_langs)
    _enzyme_rs_plugin_for(Fortran _p)
    if(_p)
      list(APPEND _enzyme_rs_opts "$<$<COMPILE_LANGUAGE:Fortran>:-fpass-plugin=${_p}>")
    endif()
  endif()
  set_target_properties(EnzymeRS::ClangPlugin PROPERTIES
    INTERFACE_COMPILE_OPTIONS "${_enzyme_rs_opts}"
    INTERFACE_LINK_LIBRARIES EnzymeRS::Headers)
endif()

# The Fortran module: compiled once per project by its own Fortran compiler
# (module files are compiler-specific), into its own module directory.
get_property(_enzyme_rs_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
if("Fortran" IN_LIST _enzyme_rs_langs AND NOT TARGET EnzymeRS::Fortran)
  add_library(enzyme_rs_fortran_module OBJECT "${EnzymeRS_FORTRAN_MODULE_SOURCE}")
  set_target_properties(enzyme_rs_fortran_module PROPERTIES
    Fortran_MODULE_DIRECTORY "${CMAKE_BINARY_DIR}/enzyme_rs_fortran")
  target_include_directories(enzyme_rs_fortran_module INTERFACE "${CMAKE_BINARY_DIR}/enzyme_rs_fortran")
  add_library(EnzymeRS::Fortran INTERFACE IMPORTED)
  set_target_properties(EnzymeRS::Fortran PROPERTIES
    INTERFACE_LINK_LIBRARIES "enzyme_rs_fortran_module;$<TARGET_OBJECTS:enzyme_rs_fortran_module>;EnzymeRS::ClangPlugin")
endif()

function(enzyme_rs_differentiate)
  foreach(tgt IN LISTS ARGN)
    target_link_libraries(${tgt} PRIVATE EnzymeRS::ClangPlugin)
    get_target_property(srcs ${tgt} SOURCES)
    foreach(s IN LISTS srcs)
      if(s MATCHES "\\.(f|F|for|f90|F90|f95|f03|f08)$")
        if(NOT TARGET EnzymeRS::Fortran)
          message(FATAL_ERROR "EnzymeRS: ${tgt} has Fortran sources; enable Fortran before find_package(EnzymeRS)")
        endif()
        target_link_libraries(${tgt} PRIVATE EnzymeRS::Fortran)
        break()
      endif()
    endforeach()
  endforeach()
endfunction()

set(EnzymeRS_FOUND TRUE)
