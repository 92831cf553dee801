# oneDNN for the xtensor backend's float32 convolutions, found from its header and shared
# library alone (Debian's libdnnl-dev), not through its CMake package: that package's
# dnnl-config.cmake calls find_package(OpenCL REQUIRED) whenever oneDNN was built with the
# OpenCL GPU runtime, as Debian's is, which needs OpenCL's headers and libOpenCL.so
# (ocl-icd-opencl-dev, only a recommendation of libdnnl-dev) although ivy calls none of
# oneDNN's GPU API. libdnnl.so's own runtime dependencies (libOpenCL.so.1 among them) come with
# the library's package.
#
# Defines the imported target ivy_dnnl (local to this build, never exported: libivy links it
# privately) and sets IVY_DNNL_FOUND and IVY_DNNL_VERSION. Hints: DNNL_ROOT or
# CMAKE_PREFIX_PATH for a oneDNN outside the system directories.

set(IVY_DNNL_FOUND FALSE)
find_path(IVY_DNNL_INCLUDE_DIR oneapi/dnnl/dnnl.hpp HINTS ${DNNL_ROOT} PATH_SUFFIXES include)
find_library(IVY_DNNL_LIBRARY NAMES dnnl HINTS ${DNNL_ROOT} PATH_SUFFIXES lib lib64)
mark_as_advanced(IVY_DNNL_INCLUDE_DIR IVY_DNNL_LIBRARY)

if(IVY_DNNL_INCLUDE_DIR AND IVY_DNNL_LIBRARY)
  # the version from dnnl_version.h; ivy's calls need the 2.x API (primitive descriptors
  # built from operation descriptors), which 3.0 removed
  file(STRINGS "${IVY_DNNL_INCLUDE_DIR}/oneapi/dnnl/dnnl_version.h" _ivy_dnnl_version_lines
       REGEX "^#define DNNL_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+")
  set(_ivy_dnnl_parts "")
  foreach(_part IN ITEMS MAJOR MINOR PATCH)
    set(_value "")
    foreach(_line IN LISTS _ivy_dnnl_version_lines)
      if(_line MATCHES "^#define DNNL_VERSION_${_part} +([0-9]+)")
        set(_value ${CMAKE_MATCH_1})
      endif()
    endforeach()
    list(APPEND _ivy_dnnl_parts "${_value}")
  endforeach()
  list(JOIN _ivy_dnnl_parts "." IVY_DNNL_VERSION)
  list(GET _ivy_dnnl_parts 0 _ivy_dnnl_major)
  if(_ivy_dnnl_major STREQUAL "2")
    set(IVY_DNNL_FOUND TRUE)
    if(NOT TARGET ivy_dnnl)
      add_library(ivy_dnnl SHARED IMPORTED)
      set_target_properties(ivy_dnnl PROPERTIES
        IMPORTED_LOCATION "${IVY_DNNL_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${IVY_DNNL_INCLUDE_DIR}")
    endif()
  else()
    message(STATUS "ivy: oneDNN ${IVY_DNNL_VERSION} at ${IVY_DNNL_LIBRARY} is not a 2.x release; "
                   "the xtensor convolutions use im2col + Eigen")
  endif()
  unset(_ivy_dnnl_version_lines)
  unset(_ivy_dnnl_parts)
  unset(_ivy_dnnl_major)
  unset(_part)
  unset(_value)
endif()
