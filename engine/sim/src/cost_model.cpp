// The cost model's entry points (cost_model.h). The parts live in files named for them: NCCL's
// tuning tables (nccl_tuning.h), patterns of transfers and their cost (pattern_cost.h), ring
// orders and channels (ring_order.h), nodes that are copies (node_copies.h), what the model keeps
// between calls (cost_model_state.h), one call as the algorithms see it (collective_context.h)
// and the algorithms themselves, one row each (collective_algorithms.h).
#include "shardlab/sim/cost_model.h"

#include "collective_algorithms.h"
#include "cost_model_state.h"
#include "nccl_tuning.h"
#include "pattern_cost.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shardlab {

using namespace detail;

CostModel::CostModel(const Topology& topology, CostProfile profile)
    : m_topology(topology), m_profile(std::move(profile)),
      m_state(std::make_unique<CostModelState>(m_topology, m_profile))
{
}

CostModel::~CostModel() = default;

double CostModel::computeUs(double flops, int rank, double slowdown) const
{
    if (flops <= 0)
        return 0.0;
    const Gpu& g = m_topology.gpus.at(static_cast<size_t>(rank));
    double eff = 1.0;
    if (auto it = m_profile.computeEfficiency.find(g.name); it != m_profile.computeEfficiency.end())
        eff = it->second;
    return flops / (g.tflops * 1e12 * eff) * 1e6 * slowdown;
}

const std::vector<int>& CostModel::ringOrder(const std::vector<int>& group) { return m_state->ringOrder(group); }

Router& CostModel::router() { return m_state->router; }

void CostModel::setNodeSymmetry(bool on)
{
    if (on != m_state->copies.on)
        m_state->cache.clear();
    m_state->copies.on = on;
}

bool CostModel::nodeSymmetry() const { return m_state->copies.on; }

std::vector<Flow> CostModel::patternFlows(OpKind kind, const std::vector<int>& group, Algorithm algorithm, int root)
{
    std::vector<Flow> flows;
    if (kind == OpKind::SendRecv) {
        const int to = group.size() == 2 ? (group[0] == root ? group[1] : group[0]) : root;
        flows.push_back({root, to, 1.0});
        return flows;
    }
    switch (algorithm) {
    case Algorithm::Direct:
        for (int a : group)
            for (int b : group)
                if (a != b)
                    flows.push_back({a, b, 1.0});
        return flows;
    case Algorithm::Hierarchical: {
        // one ring per local index ("rail") between the nodes, for the local indices every node
        // has: a node with fewer GPUs carries the other slices through the GPUs it has, so the
        // smallest node sets how many rails share the data (collective() divides by that count)
        const auto nodes = byNode(m_state->effective, group);
        size_t minLocal = std::numeric_limits<size_t>::max();
        for (auto& [node, ranks] : nodes)
            minLocal = std::min(minLocal, ranks.size());
        for (size_t local = 0; local < minLocal; ++local) {
            std::vector<int> rail;
            for (auto& [node, ranks] : nodes)
                rail.push_back(ranks[local]);
            auto f = ringFlows(rail);
            flows.insert(flows.end(), f.begin(), f.end());
        }
        return flows;
    }
    default: return m_state->ringChannels(group);
    }
}

CollectiveCost CostModel::collective(OpKind kind, Bytes bytes, const std::vector<int>& group, Algorithm forced,
                                     int root, const std::vector<Bytes>& pieces)
{
    CostModelState::Key key{static_cast<int>(kind), static_cast<int>(forced), root, bytes, group, pieces};
    if (auto it = m_state->cache.find(key); it != m_state->cache.end())
        return it->second;

    const int n = static_cast<int>(group.size());
    const Topology& topo = m_state->effective;
    CollectiveCost best;
    best.timeUs = std::numeric_limits<double>::infinity();
    if (n <= 1 && kind != OpKind::SendRecv) {
        // One rank: nothing is exchanged, but an out-of-place call (as ShardLab's live mode and
        // nccl-tests make it) copies its result from the send to the receive buffer on the GPU:
        // T = launch + 2 * result bytes / (kLocalCopyEfficiency * HBM bandwidth) (read and write).
        // Without an HBM bandwidth for the GPU the copy is not modelled (0).
        best.timeUs = 0;
        best.algorithm = Algorithm::Direct; // a copy on the GPU itself
        const double hbm = n == 1 && group[0] >= 0 && group[0] < static_cast<int>(topo.gpus.size())
                               ? topo.gpus[static_cast<size_t>(group[0])].memBandwidthGBps
                               : 0.0;
        const double copied = 2.0 * static_cast<double>(resultBytesPerRank(kind, bytes, 1, true));
        if (hbm > 0 && copied > 0) {
            best.timeUs = m_profile.launchUs + copied / (kLocalCopyEfficiency * hbm * kGB) * 1e6;
            best.patternGBps = kLocalCopyEfficiency * hbm;
            best.movedBytes = copied;
        }
        m_state->cache.emplace(std::move(key), best);
        return best;
    }

    if (kind == OpKind::ReduceScatterAllGather) {
        // not an algorithm but two collectives, one after the other
        const CollectiveCost rs = collective(OpKind::ReduceScatter, bytes, group, forced, root);
        const CollectiveCost ag = collective(OpKind::AllGather, bytes, group, forced, root);
        best = rs;
        best.timeUs = rs.timeUs + ag.timeUs;
        best.steps = rs.steps + ag.steps;
        best.patternGBps = std::min(rs.patternGBps, ag.patternGBps);
        best.movedBytes = rs.movedBytes + ag.movedBytes;
    } else {
        CollectiveContext context(*this, *m_state, kind, bytes, group, root, pieces);
        const auto algorithms = collectiveAlgorithms();
        // Send/recv is one transfer, whatever was asked for. A forced algorithm that does not
        // apply here falls back to the model's own choice (Auto).
        Algorithm want = kind == OpKind::SendRecv ? Algorithm::Direct : forced;
        if (want != Algorithm::Auto && std::none_of(algorithms.begin(), algorithms.end(), [&](const AlgorithmRow& a) {
                return a.algorithm == want && a.applies(context);
            }))
            want = Algorithm::Auto;
        for (const AlgorithmRow& a : algorithms) {
            if (want == Algorithm::Auto ? !a.tunerPicks : a.algorithm != want)
                continue;
            if (!a.applies(context))
                continue;
            const CollectiveCost cost = a.estimate(context);
            if (!cost.connected)
                best.connected = false;
            else if (cost.timeUs < best.timeUs)
                best = cost;
        }
    }
    if (!std::isfinite(best.timeUs)) {
        best.connected = false;
        best.timeUs = 0;
    }
    best.timeUs *= correctionFactor(m_profile, {kind, n}, bytes);
    m_state->cache.emplace(std::move(key), best);
    return best;
}

} // namespace shardlab
