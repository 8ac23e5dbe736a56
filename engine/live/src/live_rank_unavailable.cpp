// Built when live mode is not: the multi-process path runs everything up to the GPU work and then
// explains why there is none. The live executor replaces these (live_rank.h gives the contract).
#include "shardlab/live/live_rank.h"

namespace shardlab {

Result<std::vector<std::uint8_t>> createNcclUniqueId()
{
    return badInput(Message("error.line.live_not_built_mpi").with("command", "shardlab sim").with("doc", "README"));
}

int visibleCudaDevices() { return -1; }

RankTopologyReport probeRankTopology(int device, const Environment& env) { return probeTopologyFromSysfs(device, env); }

Result<RunResult> runLiveRankPart(const Scenario&, int, int, const std::vector<std::uint8_t>&, const LiveOptions&,
                                  RankProgress&)
{
    return createNcclUniqueId().error();
}

} // namespace shardlab
