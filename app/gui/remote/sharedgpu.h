// Run > Live with N ranks on this one GPU: the course's two-GPU lab on a machine with one GPU.
// The GUI runs `shardlab live --share-gpu N --stream -` on this machine, with the scenario on its
// standard input, and reads the run stream as it reads a remote run (RemoteSession): ShardLab's
// command line starts one process per rank on the one GPU (cluster/shared_gpu_launch.h), and the
// run comes back marked "N ranks shared one GPU" (RunResult::sharedGpu, and the first note).
#pragma once

#include "remote/remotetarget.h"

namespace shardlab::gui {

// The command for a scenario's `ranks` on this machine, through `shardlab` (a path), with the
// watchdog's deadline (--watchdog-ms; <= 0: the command's default).
RemoteTarget sharedGpuTarget(const QString& shardlab, int ranks, double watchdogMs = 0);
// Why a scenario of `ranks` GPUs cannot run so (empty when it can), in the user's language.
QString sharedGpuProblem(int ranks);

} // namespace shardlab::gui
