// Built when CUDA or NCCL was not found: live mode explains why it is missing.
#include "shardlab/live/live.h"
#include "shardlab/live/live_gemm.h"

namespace shardlab {

namespace {
Error notBuiltIn()
{
    return badInput(Message("error.line.live_not_built_use_sim").with("command", "shardlab sim").with("doc", "README"));
}
} // namespace

bool liveBuiltIn() { return false; }

Message liveBuildInfo() { return Message("error.line.live_not_built"); }

Result<RunResult> runLive(const Scenario&, const LiveOptions&) { return notBuiltIn(); }

Result<Topology> discoverTopology()
{
    return badInput(
        Message("error.line.no_cuda_topology").with("option", "--preset ID").with("command", "shardlab topo --list"));
}

Result<std::vector<SweepRow>> benchLive(OpKind, int, const std::vector<Bytes>&, const LiveBenchOptions&)
{
    return notBuiltIn();
}

Result<std::vector<LiveDevice>> liveDevices() { return notBuiltIn(); }

Result<double> measureComputeTflops(int, double) { return notBuiltIn(); }

Result<ClockCheck> checkClockAlignment(int, double) { return notBuiltIn(); }

Result<GemmMeasurement> measureGemms(const std::vector<GemmShape>& shapes, const GemmMeasureOptions&)
{
    if (Status st = checkGemmShapes(shapes); !st)
        return st.error();
    return notBuiltIn();
}

} // namespace shardlab
