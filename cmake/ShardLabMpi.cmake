# Finds MPI for multi-process live runs (mpirun/srun, one process per GPU; docs/mpi.md).
#
# MPI is used only by the module libshardlab_mpi.so (engine/cluster/mpi/), which the command line loads
# at run time when a launcher started it; nothing else links MPI. SHARDLAB_WITH_MPI: AUTO builds
# the module when an MPI with C++ support is found (Debian: libopenmpi-dev), ON requires it, OFF
# leaves it out. Without it `shardlab live` under mpirun explains what is missing.
set(SHARDLAB_HAVE_MPI OFF)
if(SHARDLAB_WITH_MPI STREQUAL "OFF")
  return()
endif()
set(MPI_DETERMINE_LIBRARY_VERSION TRUE) # MPI_CXX_LIBRARY_VERSION_STRING for --version
find_package(MPI COMPONENTS CXX QUIET)
if(NOT MPI_CXX_FOUND)
  if(SHARDLAB_WITH_MPI STREQUAL "ON")
    message(FATAL_ERROR "SHARDLAB_WITH_MPI=ON but no MPI with C++ support was found (Debian: apt install libopenmpi-dev)")
  endif()
  message(STATUS "ShardLab: no MPI found: multi-process runs (mpirun/srun) are not built")
  return()
endif()
set(SHARDLAB_HAVE_MPI ON)
set(SHARDLAB_MPI_LIBRARY "MPI ${MPI_CXX_VERSION}")
if(MPI_CXX_LIBRARY_VERSION_STRING)
  # "Open MPI v4.1.4, package: Debian OpenMPI, ..." -> "Open MPI v4.1.4"
  string(REGEX REPLACE "[,\n].*" "" SHARDLAB_MPI_LIBRARY "${MPI_CXX_LIBRARY_VERSION_STRING}")
endif()
message(STATUS "ShardLab: multi-process runs with ${SHARDLAB_MPI_LIBRARY} (mpirun: ${MPIEXEC_EXECUTABLE})")
