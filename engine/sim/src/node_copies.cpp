// Nodes that are copies of each other: node_copies.h.
#include "node_copies.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>

namespace shardlab::detail {

// Two nodes are copies when their GPUs, switches and links (including their links to the
// fabric, by the fabric switch's vertex) are the same in the same order, ids aside: a
// signature per node of everything the router and the model read, in one pass over the
// vertices and links, O(V + E).
NodeCopies::NodeCopies(const Topology& t, const Router& router)
{
    const int ranks = t.rankCount(), vertices = t.vertexCount();
    std::vector<int> node(static_cast<size_t>(vertices)), place(static_cast<size_t>(vertices), 0);
    std::unordered_map<int, std::pair<int, int>> seen; // node -> (GPUs, switches) so far
    std::unordered_map<int, std::string> signature;
    const auto put = [](std::string& out, auto value) {
        out.append(reinterpret_cast<const char*>(&value), sizeof value);
    };
    m_gpuPlace.assign(static_cast<size_t>(ranks), 0);
    for (int v = 0; v < vertices; ++v) {
        const size_t i = static_cast<size_t>(v);
        if (v < ranks) {
            const Gpu& g = t.gpus[i];
            node[i] = g.node;
            place[i] = m_gpuPlace[i] = seen[g.node].first++;
            std::string& out = signature[g.node];
            put(out, 'g');
            out += g.name;
            put(out, '\0');
            put(out, g.memory);
            put(out, g.tflops);
            put(out, g.memBandwidthGBps);
            put(out, g.socket);
        } else {
            const SwitchNode& sw = t.switches[i - static_cast<size_t>(ranks)];
            node[i] = sw.node;
            if (sw.node < 0)
                continue;
            place[i] = seen[sw.node].second++;
            std::string& out = signature[sw.node];
            put(out, 's');
            put(out, static_cast<int>(sw.kind));
            put(out, sw.socket);
            put(out, sw.nvls);
        }
    }
    for (size_t i = 0; i < t.links.size(); ++i) {
        const auto [a, b] = router.linkEnds(static_cast<int>(i));
        if (a < 0 || b < 0)
            continue;
        const int na = node[static_cast<size_t>(a)], nb = node[static_cast<size_t>(b)];
        if ((na >= 0 && nb >= 0 && na != nb) || (na < 0 && nb < 0))
            return; // a link between nodes or between fabric switches: no copies
        std::string& out = signature[na >= 0 ? na : nb];
        put(out, 'l');
        for (const int v : {a, b}) {
            if (node[static_cast<size_t>(v)] < 0) {
                put(out, 2);
                put(out, v); // the fabric switch itself
            } else {
                put(out, v < ranks ? 0 : 1);
                put(out, place[static_cast<size_t>(v)]);
            }
        }
        const Link& l = t.links[i];
        put(out, static_cast<int>(l.kind));
        put(out, l.count);
        put(out, l.bandwidthGBps);
        put(out, l.latencyUs);
    }
    std::unordered_map<std::string, int> classes;
    for (auto& [n, sig] : signature) {
        const int next = static_cast<int>(classes.size());
        m_nodeClass[n] = classes.emplace(std::move(sig), next).first->second;
    }
    m_apply = true;
}

// The group's ranks on its first two nodes (ascending) when it spans three or more nodes that
// are copies holding its ranks at the same places; else empty. Every node then sends to the
// next and receives from the previous exactly as the first two do with each other, so the
// ring, chain and rails patterns load every node's links (and its links to the fabric, which
// no other node uses) as they load the first two's.
std::vector<int> NodeCopies::subgroup(const std::map<int, std::vector<int>>& nodes) const
{
    if (!on || !m_apply || nodes.size() < 3)
        return {};
    const auto& [firstNode, first] = *nodes.begin();
    const auto firstClass = m_nodeClass.find(firstNode);
    if (firstClass == m_nodeClass.end())
        return {};
    for (const auto& [n, ranks] : nodes) {
        const auto c = m_nodeClass.find(n);
        if (c == m_nodeClass.end() || c->second != firstClass->second || ranks.size() != first.size())
            return {};
        for (size_t k = 0; k < ranks.size(); ++k)
            if (m_gpuPlace[static_cast<size_t>(ranks[k])] != m_gpuPlace[static_cast<size_t>(first[k])])
                return {};
    }
    std::vector<int> sub = first;
    const std::vector<int>& second = std::next(nodes.begin())->second;
    sub.insert(sub.end(), second.begin(), second.end());
    std::sort(sub.begin(), sub.end());
    return sub;
}

} // namespace shardlab::detail
