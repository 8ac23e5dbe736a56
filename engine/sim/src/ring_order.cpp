// The rings the cost model prices: ring_order.h.
#include "ring_order.h"

#include "pattern_cost.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>
#include <utility>

namespace shardlab::detail {

namespace {

// Best cyclic order of ranks inside one node: exhaustive up to 8 ranks (rank 0 fixed, so 7! =
// 5040 orders), otherwise the better of ascending order and a greedy widest-next-hop walk.
std::vector<int> bestLocalRing(Router& router, const Topology& topo, std::vector<int> ranks)
{
    if (ranks.size() <= 2)
        return ranks;
    auto score = [&](const std::vector<int>& order) {
        PatternCost pc = pattern(router, topo, ringFlows(order));
        return std::pair<double, double>(pc.gbps, -pc.latencyUs);
    };
    std::vector<int> best = ranks;
    auto bestScore = score(best);
    if (ranks.size() <= 8) {
        std::vector<int> perm = ranks;
        while (std::next_permutation(perm.begin() + 1, perm.end())) {
            // a ring and its reverse cost the same: keep the one whose second element is smaller
            if (perm[1] > perm.back())
                continue;
            auto s = score(perm);
            if (s.first > bestScore.first * (1 + 1e-9)
                || (std::fabs(s.first - bestScore.first) <= 1e-9 * bestScore.first
                    && s.second > bestScore.second + 1e-9)) {
                best = perm;
                bestScore = s;
            }
        }
        return best;
    }
    std::vector<int> greedy{ranks.front()};
    std::vector<bool> used(ranks.size(), false);
    used[0] = true;
    for (size_t step = 1; step < ranks.size(); ++step) {
        int pick = -1;
        double pickBw = -1, pickLat = 0;
        for (size_t j = 0; j < ranks.size(); ++j) {
            if (used[j])
                continue;
            const Route& r = router.route(greedy.back(), ranks[j]);
            if (r.bottleneckGBps > pickBw || (r.bottleneckGBps == pickBw && r.latencyUs < pickLat)) {
                pick = static_cast<int>(j);
                pickBw = r.bottleneckGBps;
                pickLat = r.latencyUs;
            }
        }
        used[static_cast<size_t>(pick)] = true;
        greedy.push_back(ranks[static_cast<size_t>(pick)]);
    }
    return score(greedy) > bestScore ? greedy : best;
}

// Nodes of up to this many ranks are solved as above, from the routes between every pair of their
// ranks (k^2 routes, and the k^2 greedy look-ups); larger ones by largeNodeRing().
constexpr size_t kPairwiseRingRanks = 64;
// A node whose GPUs fall into more classes than this keeps ascending order (no greedy walk): the
// walk costs a search of the node per class, O(m (V + E) log V), and m^2 routes between classes.
constexpr int kMaxRingClasses = 1024;

// The ring of a node of more than kPairwiseRingRanks ranks: the same choice as bestLocalRing()
// (the better of ascending order and the greedy widest-next-hop walk) computed on classes of
// interchangeable GPUs (Router::interchangeableClasses). Every unused member of one class is as
// good a next hop as any other, so the walk looks at the first unused member of each class; ties
// go to the lowest rank, as the walk over every rank does. Routes between classes come from one
// search of the node per class. Cost, for k ranks in m classes in a node of V vertices and E
// links: O(m (V + E) log V) for the searches, O(k m) for the walk, O(k) routes to score the two
// rings; one switch (m = 1) is O(k log k) in all. `key` receives what the result depends on: the
// classes in rank order and the routes between them (so an equal key is an equal pair matrix).
std::vector<int> largeNodeRing(Router& router, const Topology& topo, const std::vector<int>& ranks,
                               const std::map<std::vector<double>, std::vector<int>>& known, std::vector<double>& key,
                               bool& fromKnown)
{
    fromKnown = false;
    const std::vector<int> cls = router.interchangeableClasses(ranks);
    const int m = cls.empty() ? 0 : *std::max_element(cls.begin(), cls.end()) + 1;
    if (m > kMaxRingClasses) {
        key.clear();
        return ranks;
    }
    std::vector<std::vector<int>> members(static_cast<size_t>(m)); // positions in `ranks`, ascending
    for (size_t i = 0; i < ranks.size(); ++i)
        members[static_cast<size_t>(cls[i])].push_back(static_cast<int>(i));
    // reach[x * m + y]: route from a member of x to another GPU of y (bandwidth -1: no such pair)
    std::vector<Router::Reach> reach(static_cast<size_t>(m) * static_cast<size_t>(m), Router::Reach{-1, -1});
    for (int x = 0; x < m; ++x) {
        const std::vector<int>& mx = members[static_cast<size_t>(x)];
        std::vector<int> targets;
        std::vector<int> targetClass;
        for (int y = 0; y < m; ++y) {
            const std::vector<int>& my = members[static_cast<size_t>(y)];
            if (y != x || my.size() > 1) {
                targets.push_back(ranks[static_cast<size_t>(y == x ? my[1] : my[0])]);
                targetClass.push_back(y);
            }
        }
        const std::vector<Router::Reach> r = router.reachWithinNode(ranks[static_cast<size_t>(mx[0])], targets);
        for (size_t i = 0; i < r.size(); ++i)
            reach[static_cast<size_t>(x) * static_cast<size_t>(m) + static_cast<size_t>(targetClass[i])] = r[i];
    }
    key = {static_cast<double>(ranks.size()), static_cast<double>(m)};
    for (int c : cls)
        key.push_back(c);
    for (const Router::Reach& r : reach) {
        key.push_back(r.bottleneckGBps);
        key.push_back(r.latencyUs);
    }
    if (auto it = known.find(key); it != known.end()) {
        fromKnown = true;
        std::vector<int> local;
        for (int position : it->second)
            local.push_back(ranks[static_cast<size_t>(position)]);
        return local;
    }

    // The greedy walk from the first rank, one candidate per class.
    std::vector<size_t> next(static_cast<size_t>(m), 0); // first unused member of each class
    std::vector<int> open;                               // classes with an unused member
    for (int x = 0; x < m; ++x)
        open.push_back(x);
    auto use = [&](int position) {
        const size_t c = static_cast<size_t>(cls[static_cast<size_t>(position)]);
        ++next[c]; // members are used in ascending order: the walk always takes the first unused
        if (next[c] == members[c].size())
            std::erase(open, static_cast<int>(c));
    };
    std::vector<int> greedy{ranks.front()};
    int current = 0;
    use(0);
    while (!open.empty()) {
        const size_t from = static_cast<size_t>(cls[static_cast<size_t>(current)]);
        int pick = -1;
        double pickBw = -1, pickLat = 0;
        for (int y : open) {
            const int candidate = members[static_cast<size_t>(y)][next[static_cast<size_t>(y)]];
            const Router::Reach& r = reach[from * static_cast<size_t>(m) + static_cast<size_t>(y)];
            if (r.bottleneckGBps > pickBw
                || (r.bottleneckGBps == pickBw
                    && (r.latencyUs < pickLat || (r.latencyUs == pickLat && candidate < pick)))) {
                pick = candidate;
                pickBw = r.bottleneckGBps;
                pickLat = r.latencyUs;
            }
        }
        use(pick);
        greedy.push_back(ranks[static_cast<size_t>(pick)]);
        current = pick;
    }
    auto score = [&](const std::vector<int>& order) {
        PatternCost pc = pattern(router, topo, ringFlows(order));
        return std::pair<double, double>(pc.gbps, -pc.latencyUs);
    };
    const auto ascending = score(ranks);
    return score(greedy) > ascending ? greedy : ranks;
}

} // namespace

const std::vector<int>& RingOrders::order(Router& router, const Topology& topo, const std::vector<int>& group)
{
    auto it = m_rings.find(group);
    if (it != m_rings.end())
        return it->second;
    std::vector<int> order;
    for (auto& [node, ranks] : byNode(topo, group)) {
        if (ranks.size() > kPairwiseRingRanks) {
            std::vector<double> key;
            bool known = false;
            std::vector<int> local = largeNodeRing(router, topo, ranks, m_localByClasses, key, known);
            if (!known && !key.empty()) {
                std::vector<int> positions(local.size());
                std::vector<int> positionOf; // rank -> position, over the ranks' span
                const int lo = ranks.front();
                positionOf.assign(static_cast<size_t>(ranks.back() - lo + 1), -1);
                for (size_t i = 0; i < ranks.size(); ++i)
                    positionOf[static_cast<size_t>(ranks[i] - lo)] = static_cast<int>(i);
                for (size_t i = 0; i < local.size(); ++i)
                    positions[i] = positionOf[static_cast<size_t>(local[i] - lo)];
                m_localByClasses.emplace(std::move(key), std::move(positions));
            }
            order.insert(order.end(), local.begin(), local.end());
            continue;
        }
        std::vector<double> shape;
        for (int a : ranks)
            for (int b : ranks)
                if (a != b) {
                    const Route& r = router.route(a, b);
                    shape.push_back(r.bottleneckGBps);
                    shape.push_back(r.latencyUs);
                }
        std::vector<int> local;
        if (auto known = m_localByShape.find(shape); known != m_localByShape.end()) {
            for (int position : known->second)
                local.push_back(ranks[static_cast<size_t>(position)]);
        } else {
            local = bestLocalRing(router, topo, ranks);
            std::vector<int> positions;
            for (int r : local)
                positions.push_back(static_cast<int>(std::find(ranks.begin(), ranks.end(), r) - ranks.begin()));
            m_localByShape.emplace(std::move(shape), std::move(positions));
        }
        order.insert(order.end(), local.begin(), local.end());
    }
    return m_rings.emplace(group, std::move(order)).first->second;
}

// Rings: one per channel. Across nodes NCCL opens a channel per NIC and enters each node at a
// different GPU so that every NIC carries one ring; inside a node one ring suffices.
std::vector<Flow> ringChannelFlows(Router& router, const Topology& topo, const std::vector<int>& order,
                                   const std::map<int, std::vector<int>>& local, int channels)
{
    // each node's part of the ring, in ring order (one pass over the ring, not one per node)
    std::map<int, std::vector<int>> segments;
    for (int r : order)
        segments[topo.gpus[static_cast<size_t>(r)].node].push_back(r);
    // Where each channel enters each node, as NCCL's ring search places channels on NICs: channel
    // c prefers the node's c-th NIC (in ring order of the GPUs' home NICs) and a GPU whose ring
    // predecessor, where the channel leaves, has the same NIC; but first the entry that keeps the
    // busiest NIC direction (channels in, channels out) lowest. So with a NIC per GPU channel c
    // enters at the c-th GPU, with four NICs for eight GPUs each NIC carries one channel in and
    // one out, and a partly filled node spreads its channels as evenly as its NICs allow.
    // Without NICs: the c-th GPU.
    auto entries = [&](const std::vector<int>& seg) {
        const size_t k = seg.size();
        std::vector<size_t> starts(static_cast<size_t>(channels));
        std::vector<int> nicOf(k), nics;
        for (size_t i = 0; i < k; ++i) {
            nicOf[i] = router.homeNic(seg[i]);
            if (nicOf[i] >= 0 && std::find(nics.begin(), nics.end(), nicOf[i]) == nics.end())
                nics.push_back(nicOf[i]);
        }
        std::map<int, int> in, out;
        for (int c = 0; c < channels; ++c) {
            if (nics.empty()) {
                starts[static_cast<size_t>(c)] = static_cast<size_t>(c) % k;
                continue;
            }
            const int want = nics[static_cast<size_t>(c) % nics.size()];
            size_t best = 0;
            std::tuple<int, int, int, size_t> bestKey{std::numeric_limits<int>::max(), 0, 0, 0};
            for (size_t i = 0; i < k; ++i) {
                const int a = nicOf[i], b = nicOf[(i + k - 1) % k];
                const std::tuple<int, int, int, size_t> key{std::max(in[a] + 1, out[b] + 1), a == want ? 0 : 1,
                                                            b == a ? 0 : 1, i};
                if (key < bestKey) {
                    bestKey = key;
                    best = i;
                }
            }
            ++in[nicOf[best]];
            ++out[nicOf[(best + k - 1) % k]];
            starts[static_cast<size_t>(c)] = best;
        }
        return starts;
    };
    std::map<int, std::vector<size_t>> startsByNode;
    if (channels > 1)
        for (auto& [node, seg] : segments)
            startsByNode[node] = entries(seg);
    std::vector<Flow> flows;
    for (int c = 0; c < channels; ++c) {
        std::vector<int> rotated;
        for (auto& [node, ranks] : local) {
            std::vector<int> seg = segments[node];
            const size_t start =
                channels > 1 ? startsByNode[node][static_cast<size_t>(c)] : static_cast<size_t>(c) % seg.size();
            std::rotate(seg.begin(), seg.begin() + static_cast<std::ptrdiff_t>(start), seg.end());
            rotated.insert(rotated.end(), seg.begin(), seg.end());
        }
        auto f = ringFlows(rotated, 1.0 / channels);
        flows.insert(flows.end(), f.begin(), f.end());
    }
    return flows;
}

} // namespace shardlab::detail
