# Finds the CUDA toolkit and NCCL for live mode.
#
# Where CUDA is looked for: CUDAToolkit_ROOT if given (-DCUDAToolkit_ROOT=/opt/cuda), else the
# CUDA_PATH environment variable, else /usr/local/cuda. NCCL is looked for in NCCL_ROOT, then in
# the CUDA toolkit's include/ and lib64/ (where this project's machines have it), then the
# system paths. Without both, the app is built for simulation only (SHARDLAB_WITH_CUDA=AUTO) or
# configuration fails (SHARDLAB_WITH_CUDA=ON).
set(SHARDLAB_HAVE_LIVE OFF)
if(SHARDLAB_WITH_CUDA STREQUAL "OFF")
  return()
endif()

if(NOT CUDAToolkit_ROOT)
  if(DEFINED ENV{CUDA_PATH} AND EXISTS "$ENV{CUDA_PATH}/bin/nvcc")
    set(CUDAToolkit_ROOT "$ENV{CUDA_PATH}")
  elseif(EXISTS "/usr/local/cuda/bin/nvcc")
    set(CUDAToolkit_ROOT "/usr/local/cuda")
  endif()
endif()
if(CUDAToolkit_ROOT AND NOT CMAKE_CUDA_COMPILER AND EXISTS "${CUDAToolkit_ROOT}/bin/nvcc")
  set(CMAKE_CUDA_COMPILER "${CUDAToolkit_ROOT}/bin/nvcc")
endif()

include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  if(SHARDLAB_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "SHARDLAB_WITH_CUDA=ON but no CUDA compiler was found (set CUDAToolkit_ROOT)")
  endif()
  message(STATUS "ShardLab: no CUDA toolkit found: building for simulation only")
  return()
endif()

# Every generation CUDA 13 supports, Turing to Blackwell, plus PTX for newer ones.
if(NOT CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90-real 100-real 120-real 120-virtual)
endif()
enable_language(CUDA)
set(CMAKE_CUDA_STANDARD 17)  # CMake 3.25 knows no CUDA 20 flag for nvcc; the kernels need only C++17
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
find_package(CUDAToolkit REQUIRED)
find_package(Threads REQUIRED)

find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${NCCL_ROOT} $ENV{NCCL_ROOT} ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${NCCL_ROOT} $ENV{NCCL_ROOT} ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
if(NOT NCCL_INCLUDE_DIR OR NOT NCCL_LIBRARY)
  if(SHARDLAB_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "SHARDLAB_WITH_CUDA=ON but NCCL was not found (set NCCL_ROOT)")
  endif()
  message(STATUS "ShardLab: CUDA found but NCCL not: building for simulation only")
  return()
endif()
add_library(shardlab_nccl UNKNOWN IMPORTED)
set_target_properties(shardlab_nccl PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}" INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_ver REGEX "#define NCCL_(MAJOR|MINOR|PATCH) ")
string(REGEX REPLACE ".*NCCL_MAJOR ([0-9]+).*NCCL_MINOR ([0-9]+).*NCCL_PATCH ([0-9]+).*" "\\1.\\2.\\3" NCCL_VERSION "${_nccl_ver}")
set(SHARDLAB_HAVE_LIVE ON)
set(SHARDLAB_LIVE_BUILT_WITH "CUDA ${CUDAToolkit_VERSION_MAJOR}.${CUDAToolkit_VERSION_MINOR}, NCCL ${NCCL_VERSION}")
message(STATUS "ShardLab: live mode with CUDA ${CUDAToolkit_VERSION} (${CUDAToolkit_ROOT}), NCCL ${NCCL_VERSION}")
