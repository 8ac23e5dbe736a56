// The MPI transport, loaded at run time. MPI lives in a module of its own (libshardlab_mpi.so,
// package shardlab-mpi) so that the app and the command line run, and install, without an MPI
// library; `shardlab live` and `shardlab topo` load it only when a launcher started them
// (docs/mpi.md, "Why a module").
#pragma once

#include "shardlab/cluster/transport.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace shardlab {

// Whether this build made the MPI module.
bool mpiBuiltIn();
// "built in (Open MPI v4.1.4; module /usr/lib/x86_64-linux-gnu/shardlab/libshardlab_mpi.so)", or why not.
Message mpiBuildInfo();
// Where the module is looked for: $SHARDLAB_MPI_MODULE alone when set; otherwise
// <executable>/../lib/<...>/shardlab/ (installed), then the build tree.
std::vector<std::filesystem::path> mpiModuleCandidates();
// Loads the module and initialises MPI (MPI_Init_thread). Call once per process, only when a
// launcher started it. The transport finalises MPI when destroyed.
Result<std::unique_ptr<Transport>> openMpiTransport();

} // namespace shardlab
