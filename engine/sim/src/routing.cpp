#include "shardlab/sim/routing.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <tuple>

namespace shardlab {

Router::Router(const Topology& topology) : m_topology(topology)
{
    const int n = topology.vertexCount();
    m_adjacency.resize(static_cast<size_t>(n));
    m_toSwitches.resize(static_cast<size_t>(n));
    m_vertexNode.resize(static_cast<size_t>(n));
    for (int v = 0; v < n; ++v)
        m_vertexNode[static_cast<size_t>(v)] = topology.nodeOf(v);
    m_linkEnds = linkVertices(topology);
    for (size_t i = 0; i < topology.links.size(); ++i) {
        auto& [a, b] = m_linkEnds[i];
        if (a < 0 || b < 0) {
            a = b = -1; // validateTopology reports it; routing just ignores the broken link
            continue;
        }
        m_adjacency[static_cast<size_t>(a)].push_back({static_cast<int>(i), b});
        m_adjacency[static_cast<size_t>(b)].push_back({static_cast<int>(i), a});
    }
    for (int v = 0; v < n; ++v) {
        std::vector<Step>& steps = m_toSwitches[static_cast<size_t>(v)];
        for (auto [link, w] : m_adjacency[static_cast<size_t>(v)])
            if (!topology.isGpu(w))
                steps.push_back({m_vertexNode[static_cast<size_t>(w)], link, w});
        // stable: the links to one neighbour keep their order (ties between them go to the first)
        std::stable_sort(steps.begin(), steps.end(), [](const Step& x, const Step& y) { return x.node < y.node; });
    }
}

const Route& Router::route(int from, int to)
{
    const std::uint64_t key =
        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) | static_cast<std::uint32_t>(to);
    auto it = m_cache.find(key);
    if (it != m_cache.end())
        return it->second;
    std::optional<Route> r;
    const bool gpus = m_topology.isGpu(from) && m_topology.isGpu(to);
    const int nodeFrom = m_vertexNode[static_cast<size_t>(from)], nodeTo = m_vertexNode[static_cast<size_t>(to)];
    if (gpus && from != to && nodeFrom != nodeTo && nodeFrom >= 0 && nodeTo >= 0) {
        // Between nodes each GPU uses its own home NIC (NCCL gives each GPU its closest NIC and
        // spreads GPUs over NICs that are equally close), so the route is GPU -> its NIC ->
        // network -> the other GPU's NIC -> GPU. A widest-path search alone would send every
        // GPU of a PCIe switch through the switch's first NIC and leave the others idle.
        const int a = homeNic(from), b = homeNic(to);
        if (a >= 0 && b >= 0) {
            // The legs are cached like any route (a GPU's leg to its NIC serves all its peers);
            // references into the cache stay valid as it grows (unordered_map never moves nodes).
            const Route& first = route(from, a);
            const Route& middle = route(a, b);
            const Route& last = route(b, to);
            if (first.valid() && middle.valid() && last.valid()) {
                Route joined;
                joined.from = from;
                joined.to = to;
                joined.bottleneckGBps = std::numeric_limits<double>::infinity();
                for (const Route* legPtr : {&first, &middle, &last}) {
                    const Route& leg = *legPtr;
                    joined.bottleneckGBps = std::min(joined.bottleneckGBps, leg.bottleneckGBps);
                    joined.latencyUs += leg.latencyUs;
                    joined.hops.insert(joined.hops.end(), leg.hops.begin(), leg.hops.end());
                }
                r = std::move(joined);
            }
        }
    }
    if (!r && !gpus && nodeFrom != nodeTo && nodeFrom >= 0 && nodeTo >= 0) {
        // Two NICs of two nodes (the middle leg above): a path through the shared fabric only, of
        // up to three network switches (one switch; a rail leaf, the spine, another leaf), found
        // from the switches' fabric links instead of a search, which would also walk both nodes'
        // PCIe trees and might cross to another NIC of the node (a rail-optimised fabric's
        // cross-rail traffic belongs on the spine).
        auto fabricSteps = [&](int v) {
            const std::vector<Step>& steps = m_toSwitches[static_cast<size_t>(v)];
            return std::pair{steps.begin(),
                             std::find_if(steps.begin(), steps.end(), [](const Step& x) { return x.node >= 0; })};
        };
        auto consider = [&](std::initializer_list<std::pair<int, int>> hops) { // (link, from-vertex)
            Route c;
            c.from = from;
            c.to = to;
            c.bottleneckGBps = std::numeric_limits<double>::infinity();
            for (auto [link, v] : hops) {
                const Link& l = m_topology.links[static_cast<size_t>(link)];
                c.bottleneckGBps = std::min(c.bottleneckGBps, l.bandwidthGBps);
                c.latencyUs += l.latencyUs;
                c.hops.push_back({link, m_linkEnds[static_cast<size_t>(link)].first == v});
            }
            if (!r || c.bottleneckGBps > r->bottleneckGBps
                || (c.bottleneckGBps == r->bottleneckGBps && c.latencyUs < r->latencyUs))
                r = std::move(c);
        };
        for (auto [la, wa] : m_adjacency[static_cast<size_t>(from)]) {
            if (m_vertexNode[static_cast<size_t>(wa)] >= 0 || m_topology.isGpu(wa))
                continue;
            for (auto [lb, wb] : m_adjacency[static_cast<size_t>(to)]) {
                if (m_vertexNode[static_cast<size_t>(wb)] >= 0 || m_topology.isGpu(wb))
                    continue;
                if (wa == wb) {
                    consider({{la, from}, {lb, wa}});
                    continue;
                }
                auto [sa, ea] = fabricSteps(wa);
                for (auto x = sa; x != ea; ++x) {
                    if (x->to == wb) {
                        consider({{la, from}, {x->link, wa}, {lb, wb}});
                        continue;
                    }
                    auto [ss, es] = fabricSteps(x->to);
                    for (auto y = ss; y != es; ++y)
                        if (y->to == wb)
                            consider({{la, from}, {x->link, wa}, {y->link, x->to}, {lb, wb}});
                }
            }
        }
    }
    if (!r)
        r = compute(from, to, false);
    if (!r->valid())
        r = compute(from, to, true);
    return m_cache.emplace(key, std::move(*r)).first->second;
}

// Home NICs of a node: each GPU's closest NICs (widest route, then least latency); among equally
// close ones the one fewest GPUs have taken so far, in rank order. So eight GPUs behind four
// switches of two NICs each get a NIC apiece, and with four NICs for eight GPUs two GPUs share each.
int Router::homeNic(int gpu)
{
    if (m_homeNic.empty()) {
        m_homeNic.assign(static_cast<size_t>(m_topology.rankCount()), -2);
        for (int g = 0; g < m_topology.rankCount(); ++g)
            m_nodeGpusNics[m_vertexNode[static_cast<size_t>(g)]].first.push_back(g);
        for (size_t i = 0; i < m_topology.switches.size(); ++i)
            if (m_topology.switches[i].kind == SwitchKind::Nic)
                m_nodeGpusNics[m_topology.switches[i].node].second.push_back(m_topology.rankCount()
                                                                             + static_cast<int>(i));
    }
    if (m_homeNic[static_cast<size_t>(gpu)] != -2)
        return m_homeNic[static_cast<size_t>(gpu)];
    const auto& [gpusOfNode, nics] = m_nodeGpusNics[m_vertexNode[static_cast<size_t>(gpu)]];
    std::vector<int> taken(nics.size(), 0);
    for (int g : gpusOfNode) {
        int pick = -1;
        if (!nics.empty()) {
            search(g, -1, false);
            double bestBw = -1, bestLat = 0;
            for (size_t i = 0; i < nics.size(); ++i) {
                const Label& l = m_labels[static_cast<size_t>(nics[i])];
                if (l.bw < 0)
                    continue;
                const bool better =
                    pick < 0 || l.bw > bestBw * (1 + 1e-12)
                    || (l.bw >= bestBw * (1 - 1e-12)
                        && (l.lat < bestLat - 1e-12
                            || (l.lat <= bestLat + 1e-12 && taken[i] < taken[static_cast<size_t>(pick)])));
                if (better) {
                    pick = static_cast<int>(i);
                    bestBw = l.bw;
                    bestLat = l.lat;
                }
            }
        }
        if (pick >= 0)
            ++taken[static_cast<size_t>(pick)];
        m_homeNic[static_cast<size_t>(g)] = pick >= 0 ? nics[static_cast<size_t>(pick)] : -1;
    }
    return m_homeNic[static_cast<size_t>(gpu)];
}

// Widest path first, then least latency, then fewest hops. Third GPUs never forward, and the
// search never enters a third node's hardware (a route between two nodes uses their own NICs
// and the shared fabric), which keeps it cheap on thousand-GPU clusters. Two GPUs of one node
// talk inside it (NCCL uses P2P or shared memory there, never a loop out through the network
// switch): the shared fabric is entered only when `throughFabric` is set, which route() does
// only for GPUs of one node that nothing inside the node connects.
//
// With a destination (to >= 0) a switch relaxes only its links to other switches of the nodes
// allowed (m_toSwitches) and its links to the destination, never those to other GPUs: a GPU that
// is not the destination would be labelled, popped and dropped without forwarding anything, so
// leaving it out changes no label (the heap pops entries in the order of their keys and vertex
// ids, whatever else it holds) and the route is the one a search over every link finds.
// Without one (to = -1) every vertex of from's node is labelled, each with the label the search
// for it alone ends with: a label is final when its vertex is popped, and the search for one
// destination is this search stopped at that pop.
void Router::search(int from, int to, bool throughFabric) const
{
    const int n = m_topology.vertexCount();
    std::vector<Label>& label = m_labels;
    if (label.size() != static_cast<size_t>(n))
        label.assign(static_cast<size_t>(n), Label{});
    for (int v : m_labelTouched) // labels persist between searches; only those the last one touched are reset
        label[static_cast<size_t>(v)] = Label{};
    std::vector<int>& touched = m_labelTouched;
    touched.clear();
    const int nodeA = m_vertexNode[static_cast<size_t>(from)];
    const int nodeB = to >= 0 ? m_vertexNode[static_cast<size_t>(to)] : nodeA;
    const bool fabricAllowed = nodeA != nodeB || throughFabric;
    auto allowed = [&](int nodeW) { return nodeW >= 0 ? nodeW == nodeA || nodeW == nodeB : fabricAllowed; };
    using Key = std::tuple<double, double, int, int>; // -bw, lat, hops, vertex
    std::priority_queue<Key, std::vector<Key>, std::greater<>> heap;
    label[static_cast<size_t>(from)] = {std::numeric_limits<double>::infinity(), 0, 0, -1, -1, false};
    touched.push_back(from);
    heap.push({-std::numeric_limits<double>::infinity(), 0.0, 0, from});
    while (!heap.empty()) {
        // plain variables, not structured bindings: the lambdas below capture them (clang before
        // 16, which the fuzz and sanitizer builds use, cannot capture a structured binding)
        const double negBw = std::get<0>(heap.top());
        const double lat = std::get<1>(heap.top());
        const int hops = std::get<2>(heap.top());
        const int v = std::get<3>(heap.top());
        heap.pop();
        Label& lv = label[static_cast<size_t>(v)];
        if (lv.done)
            continue;
        lv.done = true;
        if (v == to)
            break;
        if (v != from && m_topology.isGpu(v))
            continue; // GPUs do not forward
        auto relax = [&](int linkIndex, int w) {
            Label& lw = label[static_cast<size_t>(w)];
            if (lw.done)
                return;
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
        };
        if (v == from || to < 0) {
            // the source (its degree is paid once), or a search for every vertex: every link
            for (auto [linkIndex, w] : m_adjacency[static_cast<size_t>(v)])
                if (allowed(m_vertexNode[static_cast<size_t>(w)]) && (to < 0 || w == to || !m_topology.isGpu(w)))
                    relax(linkIndex, w);
            continue;
        }
        // a switch on the way: its links to switches of nodes A and B and of the fabric ...
        const std::vector<Step>& steps = m_toSwitches[static_cast<size_t>(v)];
        auto relaxNode = [&](int node) {
            auto range = std::equal_range(steps.begin(), steps.end(), Step{node, 0, 0},
                                          [](const Step& x, const Step& y) { return x.node < y.node; });
            for (auto s = range.first; s != range.second; ++s)
                relax(s->link, s->to);
        };
        if (fabricAllowed)
            for (auto s = steps.begin(); s != steps.end() && s->node < 0; ++s)
                relax(s->link, s->to);
        if (nodeA >= 0)
            relaxNode(nodeA);
        if (nodeB != nodeA && nodeB >= 0)
            relaxNode(nodeB);
        // ... and its links to the destination, found from the destination's (short) list
        if (m_topology.isGpu(to) && allowed(nodeB))
            for (auto [linkIndex, w] : m_adjacency[static_cast<size_t>(to)])
                if (w == v)
                    relax(linkIndex, to);
    }
}

Route Router::compute(int from, int to, bool throughFabric) const
{
    Route r;
    r.from = from;
    r.to = to;
    if (from == to) {
        r.bottleneckGBps = std::numeric_limits<double>::infinity();
        return r;
    }
    search(from, to, throughFabric);
    const Label& end = m_labels[static_cast<size_t>(to)];
    if (end.bw < 0)
        return r; // not connected
    r.bottleneckGBps = end.bw;
    r.latencyUs = end.lat;
    for (int v = to; v != from;) {
        const Label& lv = m_labels[static_cast<size_t>(v)];
        r.hops.push_back({lv.prevLink, m_linkEnds[static_cast<size_t>(lv.prevLink)].first == lv.prev});
        v = lv.prev;
    }
    std::reverse(r.hops.begin(), r.hops.end());
    return r;
}

std::vector<Router::Reach> Router::reachWithinNode(int from, const std::vector<int>& targets)
{
    std::vector<Reach> out(targets.size());
    std::vector<size_t> missing;
    search(from, -1, false);
    for (size_t i = 0; i < targets.size(); ++i) {
        const Label& l = m_labels[static_cast<size_t>(targets[i])];
        if (targets[i] == from)
            out[i] = {std::numeric_limits<double>::infinity(), 0};
        else if (l.bw >= 0)
            out[i] = {l.bw, l.lat};
        else
            missing.push_back(i);
    }
    if (missing.empty())
        return out;
    search(from, -1, true); // as route(): GPUs that nothing inside the node joins, through the fabric
    for (size_t i : missing) {
        const Label& l = m_labels[static_cast<size_t>(targets[i])];
        if (l.bw >= 0)
            out[i] = {l.bw, l.lat};
    }
    return out;
}

std::vector<int> Router::interchangeableClasses(const std::vector<int>& ranks) const
{
    using Attachment = std::tuple<int, int, int, double, double>; // switch, class, count, bandwidth, latency
    std::map<std::pair<int, std::vector<Attachment>>, int> classOf;
    std::vector<int> out;
    out.reserve(ranks.size());
    int next = 0;
    for (int r : ranks) {
        std::vector<Attachment> links;
        bool alone = false; // a GPU joined to a GPU is its own class
        for (auto [linkIndex, w] : m_adjacency[static_cast<size_t>(r)]) {
            if (m_topology.isGpu(w)) {
                alone = true;
                break;
            }
            const Link& l = m_topology.links[static_cast<size_t>(linkIndex)];
            links.emplace_back(w, static_cast<int>(l.kind), l.count, l.bandwidthGBps, l.latencyUs);
        }
        if (alone) {
            out.push_back(next++);
            continue;
        }
        std::sort(links.begin(), links.end());
        auto [it, added] =
            classOf.emplace(std::make_pair(m_vertexNode[static_cast<size_t>(r)], std::move(links)), next);
        if (added)
            ++next;
        out.push_back(it->second);
    }
    return out;
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
    return hostLinkGBps(topology, std::vector<int>{rank}).front();
}

std::vector<double> hostLinkGBps(const Topology& topology, const std::vector<int>& ranks)
{
    Router router(topology);
    std::map<int, std::vector<int>> cpus; // node -> its CPUs, as vertices
    for (int v = topology.rankCount(); v < topology.vertexCount(); ++v) {
        const SwitchNode& s = topology.switches[static_cast<size_t>(v - topology.rankCount())];
        if (s.kind == SwitchKind::Cpu)
            cpus[s.node].push_back(v);
    }
    std::vector<double> out;
    out.reserve(ranks.size());
    for (int rank : ranks) {
        double best = 0;
        if (auto it = cpus.find(topology.gpus[static_cast<size_t>(rank)].node); it != cpus.end())
            for (int v : it->second) {
                const Route& r = router.route(rank, v);
                if (r.valid())
                    best = std::max(best, r.bottleneckGBps);
            }
        out.push_back(best);
    }
    return out;
}

} // namespace shardlab
