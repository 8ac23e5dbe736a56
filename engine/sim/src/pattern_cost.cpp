// What a pattern of simultaneous transfers costs: pattern_cost.h.
#include "pattern_cost.h"

#include <algorithm>

namespace shardlab::detail {

namespace {

// Order of "slowness" of link classes for per-step latency: the worst class on any route sets it.
int classRank(LinkKind k)
{
    switch (k) {
    case LinkKind::NvLink: return 0;
    case LinkKind::Pcie: return 1;
    case LinkKind::CrossSocket: return 2;
    case LinkKind::Network: return 3;
    }
    return 0;
}

} // namespace

PatternCost pattern(Router& router, const Topology& topo, const std::vector<Flow>& flows)
{
    PatternCost pc;
    if (flows.empty())
        return pc;
    FlowSetResult r = router.shareLinks(flows);
    pc.connected = r.connected;
    pc.gbps = r.minGBps;
    pc.latencyUs = r.maxLatencyUs;
    pc.bottleneckLink = r.bottleneckLink;
    int worst = 0, worstIntra = 0, worstInter = -1;
    for (const Flow& f : flows) {
        if (f.from == f.to)
            continue;
        const bool inter = topo.gpus[static_cast<size_t>(f.from)].node != topo.gpus[static_cast<size_t>(f.to)].node;
        const Route& route = router.route(f.from, f.to);
        double& lat = inter ? pc.interLatencyUs : pc.intraLatencyUs;
        lat = std::max(lat, route.latencyUs);
        for (const Hop& h : route.hops) {
            const LinkKind kind = topo.links[static_cast<size_t>(h.link)].kind;
            const int c = classRank(kind);
            if (c > worst) {
                worst = c;
                pc.slowestClass = kind;
            }
            int& part = inter ? worstInter : worstIntra;
            if (c > part) {
                part = c;
                (inter ? pc.interClass : pc.intraClass) = kind;
            }
        }
    }
    return pc;
}

std::vector<Flow> ringFlows(const std::vector<int>& order, double weight)
{
    std::vector<Flow> flows;
    const size_t n = order.size();
    if (n < 2)
        return flows;
    for (size_t i = 0; i < n; ++i)
        flows.push_back({order[i], order[(i + 1) % n], weight});
    return flows;
}

std::map<int, std::vector<int>> byNode(const Topology& t, const std::vector<int>& group)
{
    std::map<int, std::vector<int>> nodes;
    for (int r : group)
        nodes[t.gpus[static_cast<size_t>(r)].node].push_back(r);
    for (auto& [node, ranks] : nodes)
        std::sort(ranks.begin(), ranks.end());
    return nodes;
}

} // namespace shardlab::detail
