// Built when CUDA or NCCL was not found: live mode explains why it is missing.
#include "shardlab/live/live.h"

namespace shardlab {

namespace {
Error notBuiltIn()
{
    return badInput("live mode is not built into this ShardLab (it was built without CUDA/NCCL); "
                    "use `shardlab sim` or rebuild with the CUDA toolkit and NCCL (see README)");
}
} // namespace

bool liveBuiltIn() { return false; }

std::string liveBuildInfo()
{
    return "not built in (no CUDA toolkit with NCCL was found when this ShardLab was built; simulation only)";
}

Result<RunResult> runLive(const Scenario&, const LiveOptions&) { return notBuiltIn(); }

Result<Topology> discoverTopology()
{
    return badInput("this ShardLab was built without CUDA, so it cannot read this machine's topology; "
                    "use --preset ID (shardlab topo --list shows them)");
}

Result<std::vector<SweepRow>> benchLive(OpKind, int, const std::vector<Bytes>&, const LiveBenchOptions&) { return notBuiltIn(); }

Result<std::vector<LiveDevice>> liveDevices() { return notBuiltIn(); }

Result<double> measureComputeTflops(int, double) { return notBuiltIn(); }

Result<ClockCheck> checkClockAlignment(int, double) { return notBuiltIn(); }


} // namespace shardlab
