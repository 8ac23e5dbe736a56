// One collective call as the algorithms see it: collective_context.h.
#include "collective_context.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shardlab::detail {

CollectiveContext::CollectiveContext(CostModel& model_, CostModelState& state_, OpKind kind_, Bytes bytes_,
                                     const std::vector<int>& group_, int root_, const std::vector<Bytes>& pieces_)
    : model(model_), state(state_), profile(model_.profile()), kind(kind_), bytes(bytes_),
      S(static_cast<double>(bytes_)), n(static_cast<int>(group_.size())), dn(static_cast<double>(group_.size())),
      group(group_), root(root_), pieces(pieces_), nodes(byNode(state_.effective, group_)),
      nodeCount(static_cast<int>(nodes.size())), m_copies(state_.copies.subgroup(nodes))
{
    minLocal = std::numeric_limits<int>::max();
    for (auto& [node, ranks] : nodes) {
        maxLocal = std::max(maxLocal, static_cast<int>(ranks.size()));
        minLocal = std::min(minLocal, static_cast<int>(ranks.size()));
    }
    double nvls = std::numeric_limits<double>::infinity();
    for (int r : group)
        nvls = std::min(nvls, r >= 0 && r < static_cast<int>(state.nvlsPortGBps.size())
                                  ? state.nvlsPortGBps[static_cast<size_t>(r)]
                                  : 0.0);
    nvlsGBps = nvls * profile.nvlsEfficiency;
    nvlsFabric = n >= 2 && std::isfinite(nvlsGBps) && nvlsGBps > 0;
    hbmGBps = std::numeric_limits<double>::infinity();
    for (int r : group)
        hbmGBps = std::min(hbmGBps, r >= 0 && r < static_cast<int>(state.effective.gpus.size())
                                        ? state.effective.gpus[static_cast<size_t>(r)].memBandwidthGBps
                                        : 0.0);
    if (!std::isfinite(hbmGBps))
        hbmGBps = 0;
    if (nodeCount >= 2)
        caps = channelCaps(state.groupGeneration(group), state.crossNodeChannels(nodes), nodeCount);
}

const PatternCost& CollectiveContext::ringPattern()
{
    if (!m_ring)
        m_ring = pattern(state.router, state.effective, state.ringChannels(patternGroup()));
    return *m_ring;
}

const std::pair<double, PatternCost>& CollectiveContext::nodeNetwork()
{
    if (!m_network) {
        size_t rails = std::numeric_limits<size_t>::max();
        for (auto& [node, ranks] : nodes)
            rails = std::min(rails, ranks.size());
        const PatternCost pc =
            pattern(state.router, state.effective,
                    model.patternFlows(OpKind::AllReduce, patternGroup(), Algorithm::Hierarchical, root));
        m_network.emplace(pc.gbps * static_cast<double>(rails), pc);
    }
    return *m_network;
}

double CollectiveContext::chainGBps()
{
    std::map<int, std::vector<int>> segments;
    for (int r : state.ringOrder(patternGroup()))
        segments[state.effective.gpus[static_cast<size_t>(r)].node].push_back(r);
    std::vector<Flow> flows;
    for (auto& [node, seg] : segments) {
        auto f = ringFlows(seg);
        flows.insert(flows.end(), f.begin(), f.end());
    }
    return flows.empty() ? std::numeric_limits<double>::infinity() : pattern(state.router, state.effective, flows).gbps;
}

PatternCost CollectiveContext::patternOf(OpKind k, Algorithm algorithm)
{
    return pattern(state.router, state.effective, model.patternFlows(k, group, algorithm, root));
}

CollectiveCost CollectiveContext::price(const Candidate& c) const
{
    CollectiveCost best;
    best.timeUs = std::numeric_limits<double>::infinity();
    if (!c.pattern.connected) {
        best.connected = false;
        return best;
    }
    const PatternCost& pc = c.pattern;
    for (int p = c.simpleOnly ? static_cast<int>(Protocol::Simple) : 0; p < 3; ++p) {
        const ProtocolParams& pp = profile.protocol[static_cast<size_t>(p)];
        const auto hopUs = [&](LinkKind k) { return profile.link[static_cast<int>(k)].hopUs[static_cast<size_t>(p)]; };
        double protocolGBps = c.gbps * pp.bandwidthFactor;
        // NCCL's per-channel caps across nodes (channelCaps): its tree's (perChMaxTreeBws, then
        // perChMaxTreeLL128Bws), before the protocol's own share as in its tuner, and its ring's
        // LL128 (perChMaxRingLL128Bws).
        if (c.algorithm == Algorithm::Tree) {
            protocolGBps = std::min(c.gbps, caps.treeGBps) * pp.bandwidthFactor;
            if (p == static_cast<int>(Protocol::LL128))
                protocolGBps = std::min(protocolGBps, caps.treeLl128GBps);
        }
        if (c.algorithm == Algorithm::Ring && p == static_cast<int>(Protocol::LL128))
            protocolGBps = std::min(protocolGBps, caps.ringLl128GBps);
        // Across nodes NCCL caps LL's bus bandwidth at llMaxBws (CostProfile::llMaxBusGBps). The
        // ring's bus bandwidth is the model's per-rank bandwidth (its moved bytes are nccl-tests'
        // busbw factor times S); the tree's algbw is half its bus bandwidth (tuning.cc: ratio .5),
        // so the tree's cap is half the figure.
        if (p == static_cast<int>(Protocol::LL) && nodeCount >= 2
            && (c.algorithm == Algorithm::Ring || c.algorithm == Algorithm::Tree)) {
            const double cap = profile.llMaxBusGBps[nodeCount == 2 ? 0 : 1];
            protocolGBps = std::min(protocolGBps, c.algorithm == Algorithm::Tree ? cap / 2.0 : cap);
        }
        if (c.algorithm == Algorithm::Tree)
            protocolGBps *= treeCorrection(p, bytes);
        const double stretch = finalStepStretch(c.ringSteps, c.finalStepTraffic, protocolGBps, hbmGBps);
        const double bw = protocolGBps * kGB / 1e6; // bytes per microsecond
        // A step inside a node costs hop + route latency; a ring's LL128 step only what its data
        // does not cover (ll128IntraStepUs, nccl_tuning.h): one step's data time is moved / bw / steps.
        const int steps = c.intraSteps + c.interSteps;
        const double stepDataUs = bw > 0 && steps > 0 ? c.movedBytes / bw / steps : 0.0;
        const double intraStepUs = c.ll128StepsOverlap && p == static_cast<int>(Protocol::LL128)
                                       ? ll128IntraStepUs(hopUs(pc.intraClass) + pc.intraLatencyUs, stepDataUs)
                                       : hopUs(pc.intraClass) + pc.intraLatencyUs;
        const std::optional<double>& tuner = c.tuner[static_cast<size_t>(p)];
        const double latency = tuner ? *tuner
                                     : profile.launchUs + pp.baseUs + c.intraSteps * intraStepUs
                                           + c.interSteps * (hopUs(pc.interClass) + pc.interLatencyUs);
        const double t = latency + c.fillUs + (bw > 0 ? c.movedBytes / bw * stretch : 0.0);
        if (t < best.timeUs)
            best = {t,    c.algorithm, static_cast<Protocol>(p), c.gbps, pc.bottleneckLink, c.intraSteps + c.interSteps,
                    true, c.movedBytes};
    }
    return best;
}

} // namespace shardlab::detail
