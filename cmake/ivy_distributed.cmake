# ivy::distributed (src/distributed, header ivy/distributed.hpp): collectives and
# data-parallel training over Open MPI (Debian's libopenmpi-dev; mpirun from openmpi-bin runs
# its tests). Found through its C++ wrapper (the project enables no C compiler); only MPI's C
# API is used (MPI_CXX_SKIP_MPICXX: no libmpi_cxx), and mpi.h stays inside
# src/distributed/comm.cpp.
option(IVY_WITH_MPI "Build ivy::distributed when Open MPI is found" ON)
if(IVY_WITH_MPI)
  set(MPI_CXX_SKIP_MPICXX ON)
  find_package(MPI QUIET COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    add_library(ivy_distributed SHARED
      src/distributed/comm.cpp
      src/distributed/reduce.cpp
      src/distributed/data_parallel.cpp)
    add_library(ivy::distributed ALIAS ivy_distributed)
    set_target_properties(ivy_distributed PROPERTIES EXPORT_NAME distributed INSTALL_RPATH_USE_LINK_PATH TRUE)
    target_link_libraries(ivy_distributed PUBLIC ivy PRIVATE MPI::MPI_CXX)
    target_include_directories(ivy_distributed PRIVATE src)
    target_compile_definitions(ivy_distributed PUBLIC IVY_HAS_DISTRIBUTED)
    target_link_options(ivy_distributed PRIVATE -Wl,--no-undefined)
    install(TARGETS ivy_distributed EXPORT ivyTargets
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    # the launcher the tests run under (mpirun), with the flags a root CI user and a 2-core
    # machine need
    find_program(IVY_MPIEXEC NAMES mpirun mpiexec HINTS ${MPI_CXX_COMPILER_DIR})
    message(STATUS "ivy: ivy::distributed over MPI ${MPI_CXX_VERSION} (${MPI_CXX_LIBRARIES}); launcher ${IVY_MPIEXEC}")
  else()
    ivy_optional_missing("Open MPI (ivy::distributed)" "libopenmpi-dev openmpi-bin")
  endif()
endif()
