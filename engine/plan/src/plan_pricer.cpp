#include "shardlab/plan/plan_estimate.h"

#include "shardlab/model/presets.h"

#include <map>
#include <tuple>

namespace shardlab {

struct PlanPricer::State {
    State(const Topology& topology, CostProfile profile, std::optional<ComputeCalibration> c)
        : model(topology, std::move(profile)), compute(std::move(c))
    {
    }
    CostModel model;
    std::optional<ComputeCalibration> compute;
    std::map<std::tuple<OpKind, Bytes, std::vector<int>>, CollectiveCost> cache;
};

namespace {
std::optional<ComputeCalibration> shippedFor(const Topology& topology)
{
    if (topology.gpus.empty())
        return std::nullopt;
    return shippedComputeCalibration(acceleratorOf(topology.gpus.front()).name);
}
} // namespace

PlanPricer::PlanPricer(const Topology& topology, CostProfile profile)
    : m_state(std::make_unique<State>(topology, std::move(profile), shippedFor(topology)))
{
}

PlanPricer::PlanPricer(const Topology& topology, CostProfile profile, std::optional<ComputeCalibration> compute)
    : m_state(std::make_unique<State>(topology, std::move(profile), std::move(compute)))
{
}

const std::optional<ComputeCalibration>& PlanPricer::computeCalibration() const { return m_state->compute; }

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
