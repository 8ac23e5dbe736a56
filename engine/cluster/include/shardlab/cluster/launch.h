// Multi-process launches: which launcher started this process (Open MPI's mpirun, Slurm's srun,
// MPICH/Intel MPI's Hydra), this process's rank, and which GPU it takes. Pure functions over an
// environment map, so every rule is tested without a launcher (docs/mpi.md, "Launchers").
#pragma once

#include "shardlab/base/result.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

using Environment = std::map<std::string, std::string>;

// This process's environment (environ), for the functions below.
Environment processEnvironment();

// SharedGpu: ShardLab itself (`shardlab live --share-gpu N`, shared_gpu_launch.h), every process on
// this one machine's one GPU.
enum class Launcher { OpenMpi, Slurm, Pmi, SharedGpu };
// "Open MPI (mpirun)", "Slurm (srun)", "MPICH/PMI (Hydra)", "ShardLab (--share-gpu)"
const char* launcherName(Launcher launcher);

struct LaunchInfo {
    Launcher launcher = Launcher::OpenMpi;
    int rank = 0;          // in the whole job
    int size = 1;          // processes in the whole job
    int localRank = 0;     // among this job's processes on this node
    int localSize = 1;     // this job's processes on this node (0: the launcher did not say)
    int node = -1;         // node index where the launcher says (Slurm), else -1
    std::string variables; // the variables it was read from, for messages: "OMPI_COMM_WORLD_RANK=1, ..."
};

// The launcher that started this process, read from its variables, in this order:
//   ShardLab:  SHARDLAB_SHARED_RANK, SHARDLAB_SHARED_SIZE (first: its children may run inside an
//              mpirun or srun job of their own)
//   Open MPI:  OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK, _LOCAL_SIZE (first: mpirun inside a Slurm
//              allocation also leaves the SLURM_* variables of its own daemons' step)
//   Slurm:     SLURM_PROCID, SLURM_STEP_NUM_TASKS (else SLURM_NTASKS), SLURM_LOCALID, SLURM_NODEID,
//              SLURM_STEP_TASKS_PER_NODE / SLURM_TASKS_PER_NODE / SLURM_NTASKS_PER_NODE. Only inside
//              a job step (SLURM_STEP_ID or SLURM_STEP_NUM_TASKS set): a batch script itself also
//              carries SLURM_PROCID=0 and SLURM_NTASKS=N but is one process, not rank 0 of N.
//   MPICH/PMI: PMI_RANK, PMI_SIZE, MPI_LOCALRANKID, MPI_LOCALNRANKS (Hydra, Intel MPI)
// nullopt: no launcher (a plain single-process run). An error: the variables are there but
// contradict each other (rank >= size, not a number); the message names the variable.
Result<std::optional<LaunchInfo>> detectLauncher(const Environment& env);

// Slurm's tasks-per-node lists: "4(x2),2" -> {4, 4, 2}. Error on anything else.
Result<std::vector<int>> parseSlurmTasksPerNode(const std::string& text);

// The GPU a process takes: one process per GPU, local rank k takes the k-th GPU it can see.
struct DeviceChoice {
    int device = 0;       // CUDA device index inside this process (after CUDA_VISIBLE_DEVICES)
    std::string physical; // the GPU that is, as named by CUDA_VISIBLE_DEVICES ("3", "GPU-1a2b...") or the index
    std::string how;      // one line on why this device, for the placement table
};

// Rules (docs/mpi.md):
//  * CUDA_VISIBLE_DEVICES set with one entry: the launcher gave this process its own GPU
//    (srun --gpus-per-task=1, or a wrapper script): device 0.
//  * CUDA_VISIBLE_DEVICES with several entries, or unset: device = local rank, which must be below
//    the number of GPUs visible (the list's length, else `visibleDevices` from CUDA; a negative
//    count means unknown and is not checked here: the live executor checks it).
//  * CUDA_VISIBLE_DEVICES set but empty, or local rank >= visible GPUs: an error naming the
//    local rank, the host's GPU count and what to change.
// CUDA_VISIBLE_DEVICES entries follow CUDA: the list stops at the first entry that is not a
// number, GPU-UUID or MIG-UUID.
Result<DeviceChoice> deviceForLocalRank(const LaunchInfo& launch, const Environment& env, int visibleDevices);

// CUDA_VISIBLE_DEVICES as CUDA reads it; nullopt when the variable is unset.
std::optional<std::vector<std::string>> cudaVisibleDevices(const Environment& env);

} // namespace shardlab
