#include "shardlab/sim/routing.h"

#include <algorithm>
#include <array>
#include <limits>
#include <queue>
#include <tuple>

namespace shardlab {

Router::Router(const Topology& topology) : m_topology(topology)
{
    const int n = topology.vertexCount();
    m_adjacency.resize(static_cast<size_t>(n));
    m_vertexNode.resize(static_cast<size_t>(n));
    std::unordered_map<std::string, int> index;
    for (int v = 0; v < n; ++v) {
        m_vertexNode[static_cast<size_t>(v)] = topology.nodeOf(v);
        index.emplace(topology.vertexId(v), v);
    }
    m_linkEnds.assign(topology.links.size(), {-1, -1});
    for (size_t i = 0; i < topology.links.size(); ++i) {
        const Link& l = topology.links[i];
        const auto a = index.find(l.a), b = index.find(l.b);
        if (a == index.end() || b == index.end())
            continue; // validateTopology reports it; routing just ignores the broken link
        m_linkEnds[i] = {a->second, b->second};
        m_adjacency[static_cast<size_t>(a->second)].push_back({static_cast<int>(i), b->second});
        m_adjacency[static_cast<size_t>(b->second)].push_back({static_cast<int>(i), a->second});
    }
}

const Route& Router::route(int from, int to)
{
    const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32)
                              | static_cast<std::uint32_t>(to);
    auto it = m_cache.find(key);
    if (it != m_cache.end())
        return it->second;
    Route r = compute(from, to, false);
    if (!r.valid())
        r = compute(from, to, true);
    return m_cache.emplace(key, std::move(r)).first->second;
}

// Widest path first, then least latency, then fewest hops. Third GPUs never forward, and the
// search never enters a third node's hardware (a route between two nodes uses their own NICs
// and the shared fabric), which keeps it cheap on thousand-GPU clusters. Two GPUs of one node
// talk inside it (NCCL uses P2P or shared memory there, never a loop out through the network
// switch): the shared fabric is entered only when `throughFabric` is set, which route() does
// only for GPUs of one node that nothing inside the node connects.
Route Router::compute(int from, int to, bool throughFabric) const
{
    Route r;
    r.from = from;
    r.to = to;
    if (from == to) {
        r.bottleneckGBps = std::numeric_limits<double>::infinity();
        return r;
    }
    const int n = m_topology.vertexCount();
    const int nodeA = m_vertexNode[static_cast<size_t>(from)], nodeB = m_vertexNode[static_cast<size_t>(to)];
    // Labels persist between searches; only those a search touched are reset afterwards.
    std::vector<Label>& label = m_labels;
    if (label.size() != static_cast<size_t>(n))
        label.assign(static_cast<size_t>(n), Label{});
    std::vector<int>& touched = m_labelTouched;
    touched.clear();
    struct Reset {
        std::vector<Label>& l;
        std::vector<int>& t;
        ~Reset() { for (int v : t) l[static_cast<size_t>(v)] = Label{}; }
    } reset{label, touched};
    using Key = std::tuple<double, double, int, int>; // -bw, lat, hops, vertex
    std::priority_queue<Key, std::vector<Key>, std::greater<>> heap;
    label[static_cast<size_t>(from)] = {std::numeric_limits<double>::infinity(), 0, 0, -1, -1, false};
    touched.push_back(from);
    heap.push({-std::numeric_limits<double>::infinity(), 0.0, 0, from});
    while (!heap.empty()) {
        auto [negBw, lat, hops, v] = heap.top();
        heap.pop();
        Label& lv = label[static_cast<size_t>(v)];
        if (lv.done)
            continue;
        lv.done = true;
        if (v == to)
            break;
        if (v != from && m_topology.isGpu(v))
            continue; // GPUs do not forward
        for (auto [linkIndex, w] : m_adjacency[static_cast<size_t>(v)]) {
            const int nodeW = m_vertexNode[static_cast<size_t>(w)];
            if (nodeW >= 0 ? nodeW != nodeA && nodeW != nodeB : nodeA == nodeB && !throughFabric)
                continue;
            Label& lw = label[static_cast<size_t>(w)];
            if (lw.done)
                continue;
            const Link& link = m_topology.links[static_cast<size_t>(linkIndex)];
            const double bw = std::min(-negBw, link.bandwidthGBps);
            const double l = lat + link.latencyUs;
            const int h = hops + 1;
            const bool better = bw > lw.bw || (bw == lw.bw && (l < lw.lat || (l == lw.lat && h < lw.hops)));
            if (better) {
                if (lw.bw < 0)
                    touched.push_back(w);
                lw = {bw, l, h, linkIndex, v, false};
                heap.push({-bw, l, h, w});
            }
        }
    }
    const Label& end = label[static_cast<size_t>(to)];
    if (end.bw < 0)
        return r; // not connected
    r.bottleneckGBps = end.bw;
    r.latencyUs = end.lat;
    for (int v = to; v != from;) {
        const Label& lv = label[static_cast<size_t>(v)];
        r.hops.push_back({lv.prevLink, m_linkEnds[static_cast<size_t>(lv.prevLink)].first == lv.prev});
        v = lv.prev;
    }
    std::reverse(r.hops.begin(), r.hops.end());
    return r;
}

FlowSetResult Router::shareLinks(const std::vector<Flow>& flows)
{
    FlowSetResult result;
    result.flowGBps.assign(flows.size(), std::numeric_limits<double>::infinity());
    // m_load[link][direction] = sum of the weights of the flows crossing it that way. The buffer
    // is kept between calls and only the touched entries are cleared: ring searches call this
    // thousands of times on topologies with thousands of links.
    if (m_load.size() != m_topology.links.size())
        m_load.assign(m_topology.links.size(), {0.0, 0.0});
    m_touched.clear();
    std::vector<const Route*> routes(flows.size(), nullptr);
    for (size_t i = 0; i < flows.size(); ++i) {
        if (flows[i].from == flows[i].to)
            continue;
        const Route& r = route(flows[i].from, flows[i].to);
        if (!r.valid()) {
            result.connected = false;
            continue;
        }
        routes[i] = &r;
        result.maxLatencyUs = std::max(result.maxLatencyUs, r.latencyUs);
        for (const Hop& h : r.hops) {
            auto& l = m_load[static_cast<size_t>(h.link)];
            if (l[0] == 0 && l[1] == 0)
                m_touched.push_back(h.link);
            l[h.forward ? 0 : 1] += flows[i].weight;
        }
    }
    // Each flow gets, on each hop, its weight's share of the link; its rate is the worst hop.
    // minGBps is normalised per unit of weight, so time = data / minGBps for the whole pattern.
    result.minGBps = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < flows.size(); ++i) {
        if (!routes[i])
            continue;
        double perWeight = std::numeric_limits<double>::infinity();
        int worst = -1;
        for (const Hop& h : routes[i]->hops) {
            const double share = m_topology.links[static_cast<size_t>(h.link)].bandwidthGBps
                                 / m_load[static_cast<size_t>(h.link)][h.forward ? 0 : 1];
            if (share < perWeight) {
                perWeight = share;
                worst = h.link;
            }
        }
        result.flowGBps[i] = perWeight * flows[i].weight;
        if (perWeight < result.minGBps) {
            result.minGBps = perWeight;
            result.bottleneckLink = worst;
        }
    }
    for (int link : m_touched)
        m_load[static_cast<size_t>(link)] = {0.0, 0.0};
    if (!result.connected)
        result.minGBps = 0;
    return result;
}

double hostLinkGBps(const Topology& topology, int rank)
{
    Router router(topology);
    double best = 0;
    for (int v = topology.rankCount(); v < topology.vertexCount(); ++v) {
        const SwitchNode& s = topology.switches[static_cast<size_t>(v - topology.rankCount())];
        if (s.kind != SwitchKind::Cpu || s.node != topology.gpus[static_cast<size_t>(rank)].node)
            continue;
        const Route& r = router.route(rank, v);
        if (r.valid())
            best = std::max(best, r.bottleneckGBps);
    }
    return best;
}

} // namespace shardlab
