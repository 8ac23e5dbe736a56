// `shardlab live --share-gpu N`: the course's multi-GPU lab on a machine with one GPU. ShardLab
// starts N copies of itself, one per rank, all on that one GPU. NCCL refuses two ranks of one
// communicator on one GPU of one host, so each process declares a host of its own (NCCL_HOSTID)
// and NCCL talks between them over sockets on the loopback (peer-to-peer, shared memory and
// InfiniBand off). What the ranks compute, the results they check and the waits at each
// collective are real; the times are those of N processes taking turns on one GPU, not of N GPUs
// (docs/live-engine.md, "Several ranks on one GPU").
//
// The processes find each other through a socket mesh the launcher makes (socket_mesh.h) and run
// as the processes of an mpirun job do (multi_process.h: Launcher::SharedGpu); rank 0 prints.
#pragma once

#include "shardlab/cluster/launch.h"
#include "shardlab/text/message.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

inline constexpr int kMinSharedGpuRanks = 2;
inline constexpr int kMaxSharedGpuRanks = 8;

// Why `ranks` processes cannot share one GPU (empty when they can): outside 2..8.
Message sharedGpuRanksProblem(int ranks);

// The GPU they share, as CUDA_VISIBLE_DEVICES names it: this process's first visible GPU (the
// first entry of CUDA_VISIBLE_DEVICES, else "0"). nullopt when CUDA_VISIBLE_DEVICES hides every
// GPU (Message "share_gpu.none_visible" says so).
std::optional<std::string> sharedGpuChoice(const Environment& env);

// The variables rank `rank` of `ranks` gets on top of the launcher's own: its rank, the mesh's
// descriptors (`fds`, socket_mesh.h), the one GPU, its own NCCL host and NCCL on loopback sockets.
// NCCL_NVLS_ENABLE and every other NCCL setting the user made stay as they are.
Environment sharedGpuEnvironment(int rank, int ranks, const std::string& gpu, const std::string& fds);

struct SharedGpuJob {
    std::string program;                // the ShardLab executable ("/proc/self/exe" resolved)
    std::vector<std::string> arguments; // each process's arguments (argv[1..]), without --share-gpu
    int ranks = 2;
    std::string gpu = "0"; // sharedGpuChoice()
    // After a process ends with an error or is killed, how long the others get to end by themselves
    // (they notice through the mesh and their heartbeats) before they are killed.
    double graceMs = 15'000;
};

struct SharedGpuOutcome {
    int exitStatus = 0; // rank 0's, or the first failed process's when rank 0 says 0
    Message message;    // what the launcher saw (a process killed, or stopped): empty when each ended by itself
};

// Starts the processes and waits for all of them. Rank 0 keeps this process's standard input and
// output; the others read nothing and write on standard error. SIGINT, SIGTERM and SIGHUP sent to
// the launcher are passed on to every process, and a process whose launcher dies is killed
// (PR_SET_PDEATHSIG), so that nothing is left running on the GPU. An error when they cannot start.
Result<SharedGpuOutcome> runSharedGpuJob(const SharedGpuJob& job);

} // namespace shardlab
