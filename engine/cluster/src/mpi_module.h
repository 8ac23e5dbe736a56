// The C entry points of the MPI transport module (libshardlab_mpi.so, engine/cluster/mpi/), shared by the
// module and its loader (mpi_loader.cpp). The module is built from this source tree with the same
// compiler as the program that loads it, so it hands back a C++ Transport; the ABI number guards
// against a module left over from another version.
#pragma once

#include "shardlab/cluster/transport.h"

#include <cstddef>

namespace shardlab::detail {

inline constexpr int kMpiModuleAbi = 1; // bump whenever transport.h changes
inline constexpr const char* kMpiModuleFile = "libshardlab_mpi.so";

using MpiAbiFn = int (*)();
// Initialises MPI and returns the transport over MPI_COMM_WORLD, or nullptr with `error` filled.
using MpiOpenFn = Transport* (*)(char* error, std::size_t errorSize);

} // namespace shardlab::detail

extern "C" {
int shardlab_mpi_abi();
shardlab::Transport* shardlab_mpi_open(char* error, std::size_t errorSize);
}
