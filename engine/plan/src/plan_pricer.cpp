#include "shardlab/plan/plan_estimate.h"

#include "shardlab/model/presets.h"

#include <map>
#include <tuple>

namespace shardlab {

struct PlanPricer::State {
    explicit State(const Topology& topology, CostProfile profile) : model(topology, std::move(profile)) {}
    CostModel model;
    std::map<std::tuple<OpKind, Bytes, std::vector<int>>, CollectiveCost> cache;
};

PlanPricer::PlanPricer(const Topology& topology, CostProfile profile)
    : m_state(std::make_unique<State>(topology, std::move(profile)))
{
}

PlanPricer::~PlanPricer() = default;

const Topology& PlanPricer::topology() const { return m_state->model.topology(); }

CollectiveCost PlanPricer::price(OpKind kind, Bytes bytes, const std::vector<int>& group)
{
    if (group.size() < 2 || bytes == 0)
        return {};
    auto key = std::make_tuple(kind, bytes, group);
    if (auto hit = m_state->cache.find(key); hit != m_state->cache.end())
        return hit->second;
    const int root = group.front();
    CollectiveCost cost = m_state->model.collective(kind, bytes, group, Algorithm::Auto, root);
    m_state->cache.emplace(std::move(key), cost);
    return cost;
}

CollectiveCost PlanPricer::allToAll(Bytes bytesPerRank, const std::vector<int>& group)
{
    return price(OpKind::AllGather, bytesPerRank, group);
}

Result<Topology> planMachine(const std::string& presetId, int gpus)
{
    auto topo = preset(presetId);
    if (!topo)
        return badInput(unknownPresetSentence(presetId));
    if (gpus < 1 || gpus > kMaxTopologyGpus)
        return badInput(
            Message("plan.error.gpus_range").with("option", "--gpus").with("gpus", gpus).with("max", kMaxTopologyGpus));
    if (gpus <= topo->rankCount())
        return topo->firstGpus(gpus);
    return scaleOut(*topo, gpus);
}

} // namespace shardlab
