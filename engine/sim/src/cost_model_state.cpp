// What a CostModel keeps between calls: cost_model_state.h.
#include "cost_model_state.h"

#include "nccl_tuning.h"
#include "pattern_cost.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>

namespace shardlab::detail {

namespace {

Topology derated(const Topology& t, const CostProfile& p)
{
    Topology effective = t;
    for (Link& l : effective.links)
        l.bandwidthGBps *= p.link[static_cast<int>(l.kind)].efficiency;
    return effective;
}

} // namespace

CostModelState::CostModelState(const Topology& t, const CostProfile& p)
    : effective(derated(t, p)), router(effective), copies(effective, router)
{
    for (const Gpu& g : t.gpus)
        gpuGeneration.push_back(ncclGeneration(g.name));
    for (const SwitchNode& s : effective.switches)
        if (s.kind == SwitchKind::Nic)
            ++nicsByNode[s.node];
    nvlsPortGBps.assign(t.gpus.size(), 0.0);
    std::unordered_map<std::string, int> nvlsSwitches; // ids of the NVSwitches with NVLS
    for (size_t i = 0; i < t.switches.size(); ++i)
        if (t.switches[i].kind == SwitchKind::NvSwitch && t.switches[i].nvls)
            nvlsSwitches.emplace(t.switches[i].id, t.rankCount() + static_cast<int>(i));
    if (nvlsSwitches.empty())
        return;
    std::unordered_map<std::string, int> gpuIndex;
    for (size_t i = 0; i < t.gpus.size(); ++i)
        gpuIndex.emplace(t.gpus[i].id, static_cast<int>(i));
    for (const Link& l : t.links) {
        if (l.kind != LinkKind::NvLink)
            continue;
        for (auto [gpuId, otherId] : {std::pair{&l.a, &l.b}, std::pair{&l.b, &l.a}}) {
            const auto g = gpuIndex.find(*gpuId);
            if (g != gpuIndex.end() && nvlsSwitches.count(*otherId))
                nvlsPortGBps[static_cast<size_t>(g->second)] += l.bandwidthGBps;
        }
    }
}

const std::vector<int>& CostModelState::ringOrder(const std::vector<int>& group)
{
    return rings.order(router, effective, group);
}

std::vector<Flow> CostModelState::ringChannels(const std::vector<int>& members)
{
    const auto local = byNode(effective, members);
    return ringChannelFlows(router, effective, ringOrder(members), local, crossNodeChannels(local));
}

int CostModelState::nicsPerNode(int node) const
{
    const auto it = nicsByNode.find(node);
    return it == nicsByNode.end() ? 0 : it->second;
}

int CostModelState::crossNodeChannels(const std::map<int, std::vector<int>>& nodes) const
{
    if (nodes.size() <= 1)
        return 1;
    int channels = std::numeric_limits<int>::max();
    for (auto& [node, ranks] : nodes)
        channels =
            std::min(channels, std::max<int>(1, std::min<int>(nicsPerNode(node), static_cast<int>(ranks.size()))));
    return channels;
}

int CostModelState::groupGeneration(const std::vector<int>& group) const
{
    int generation = std::numeric_limits<int>::max();
    for (int r : group) {
        const int g = r >= 0 && r < static_cast<int>(gpuGeneration.size()) ? gpuGeneration[static_cast<size_t>(r)]
                                                                           : kUnknownGeneration;
        if (g == kUnknownGeneration)
            return kUnknownGeneration;
        generation = std::min(generation, g);
    }
    return group.empty() ? kUnknownGeneration : generation;
}

} // namespace shardlab::detail
