#include "shardlab/sim/cost_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace shardlab {

// A device-to-device copy reaches this share of the HBM bandwidth: on one H200 (4.8 TB/s) a
// 250 MB out-of-place 1-rank all-reduce took 0.126-0.136 ms (docs/benchmarks.md, issue 14), and
// 2 x 250 MB / (0.85 x 4.8 TB/s) + 6 us = 0.129 ms.
constexpr double kLocalCopyEfficiency = 0.85;

// Defaults. Structure after NCCL's tuning model (src/graph/tuning.cc: a base latency per
// algorithm/protocol, a per-step hardware latency per link class, a bandwidth share per protocol).
// The values are fitted to nccl-tests all_reduce_perf on this project's H200 machines (NCCL
// 2.28.9, NVLS off; ../shared/docs/PEERS.md). At 8 B the ring takes 2(n-1) LL steps: 13-18 us on
// 2 GPUs (2 steps) and ~24 us on 4 GPUs (6 steps) give 2.0 us per NVLink step (hop 1.6 + 0.4 us
// of route latency) and launch + base(LL) = 12 us, so 16 us on 2 GPUs and 24 us on 4 (the
// earlier 9 us + 2.4 us per step gave 13.8 and 23.4). 359 GB/s busbw at 2 GB on 4 GPUs against
// 450 GB/s nominal NVLink gives an efficiency of 0.80 (docs/benchmarks.md, "Analysis", compares
// every published figure). PCIe and network efficiencies are the usual shares of line rate that
// NCCL reaches (~80% PCIe, ~90% InfiniBand); calibration replaces all of them.
CostProfile CostProfile::defaults()
{
    CostProfile p;
    p.name = "default";
    p.source = "NCCL tuning model structure; fitted to nccl-tests on 2x/4x H200 (PEERS.md)";
    p.launchUs = 6.0;
    p.protocol[static_cast<int>(Protocol::LL)] = {6.0, 0.30};
    p.protocol[static_cast<int>(Protocol::LL128)] = {6.0, 0.85};
    p.protocol[static_cast<int>(Protocol::Simple)] = {12.0, 1.0};
    p.link[static_cast<int>(LinkKind::NvLink)] = {0.80, {1.6, 2.6, 4.0}};
    p.link[static_cast<int>(LinkKind::Pcie)] = {0.80, {2.5, 3.5, 6.0}};
    // GPU peer traffic between sockets is slow: NCCL stages it through host memory (its SHM
    // transport), reaching about half of the CPU interconnect rate.
    p.link[static_cast<int>(LinkKind::CrossSocket)] = {0.50, {3.0, 4.0, 7.0}};
    p.link[static_cast<int>(LinkKind::Network)] = {0.90, {5.0, 8.0, 14.0}};
    return p;
}

struct CostModel::Impl {
    Topology effective; // links derated by their class's efficiency
    Router router;
    std::map<std::vector<int>, std::vector<int>> rings;
    // Ring orders solved for a node, keyed by the shape of its routes (bandwidth and latency of
    // every ordered pair): the nodes of a cluster are copies, so one search serves them all.
    std::map<std::vector<double>, std::vector<int>> localRingsByShape;
    // The same for nodes of more than kPairwiseRingRanks ranks, keyed by their classes of
    // interchangeable GPUs and the routes between classes (largeNodeRing()).
    std::map<std::vector<double>, std::vector<int>> localRingsByClasses;
    std::map<int, int> nicsByNode; // node -> its NICs
    struct Key {
        int kind, algorithm, root;
        Bytes bytes;
        std::vector<int> group;
        std::vector<Bytes> pieces;
        auto operator<=>(const Key&) const = default;
    };
    std::map<Key, CollectiveCost> cache;

    Impl(const Topology& t, const CostProfile& p) : effective(t), router(effective)
    {
        for (Link& l : effective.links)
            l.bandwidthGBps *= p.link[static_cast<int>(l.kind)].efficiency;
        for (const SwitchNode& s : effective.switches)
            if (s.kind == SwitchKind::Nic)
                ++nicsByNode[s.node];
    }

    int nicsPerNode(int node) const
    {
        const auto it = nicsByNode.find(node);
        return it == nicsByNode.end() ? 0 : it->second;
    }
};

CostModel::CostModel(const Topology& topology, CostProfile profile)
    : m_topology(topology), m_profile(std::move(profile)), m_impl(std::make_unique<Impl>(m_topology, m_profile))
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

namespace {

struct PatternCost {
    double gbps = 0;            // per unit of data weight
    double latencyUs = 0;       // longest route
    int bottleneckLink = -1;
    LinkKind slowestClass = LinkKind::NvLink;
    bool connected = true;
};

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
    int worst = 0;
    for (const Flow& f : flows) {
        if (f.from == f.to)
            continue;
        for (const Hop& h : router.route(f.from, f.to).hops) {
            const int c = classRank(topo.links[static_cast<size_t>(h.link)].kind);
            if (c > worst) {
                worst = c;
                pc.slowestClass = topo.links[static_cast<size_t>(h.link)].kind;
            }
        }
    }
    return pc;
}

std::vector<Flow> ringFlows(const std::vector<int>& order, double weight = 1.0)
{
    std::vector<Flow> flows;
    const size_t n = order.size();
    if (n < 2)
        return flows;
    for (size_t i = 0; i < n; ++i)
        flows.push_back({order[i], order[(i + 1) % n], weight});
    return flows;
}

// Groups `group` by node, in node order, keeping each node's ranks in ascending order.
std::map<int, std::vector<int>> byNode(const Topology& t, const std::vector<int>& group)
{
    std::map<int, std::vector<int>> nodes;
    for (int r : group)
        nodes[t.gpus[static_cast<size_t>(r)].node].push_back(r);
    for (auto& [node, ranks] : nodes)
        std::sort(ranks.begin(), ranks.end());
    return nodes;
}

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
                || (std::fabs(s.first - bestScore.first) <= 1e-9 * bestScore.first && s.second > bestScore.second + 1e-9)) {
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
                || (r.bottleneckGBps == pickBw && (r.latencyUs < pickLat || (r.latencyUs == pickLat && candidate < pick)))) {
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

int ceilLog2(int n)
{
    int d = 0;
    while ((1 << d) < n)
        ++d;
    return d;
}

} // namespace

const std::vector<int>& CostModel::ringOrder(const std::vector<int>& group)
{
    auto it = m_impl->rings.find(group);
    if (it != m_impl->rings.end())
        return it->second;
    std::vector<int> order;
    for (auto& [node, ranks] : byNode(m_impl->effective, group)) {
        if (ranks.size() > kPairwiseRingRanks) {
            std::vector<double> key;
            bool known = false;
            std::vector<int> local = largeNodeRing(m_impl->router, m_impl->effective, ranks, m_impl->localRingsByClasses,
                                                   key, known);
            if (!known && !key.empty()) {
                std::vector<int> positions(local.size());
                std::vector<int> positionOf; // rank -> position, over the ranks' span
                const int lo = ranks.front();
                positionOf.assign(static_cast<size_t>(ranks.back() - lo + 1), -1);
                for (size_t i = 0; i < ranks.size(); ++i)
                    positionOf[static_cast<size_t>(ranks[i] - lo)] = static_cast<int>(i);
                for (size_t i = 0; i < local.size(); ++i)
                    positions[i] = positionOf[static_cast<size_t>(local[i] - lo)];
                m_impl->localRingsByClasses.emplace(std::move(key), std::move(positions));
            }
            order.insert(order.end(), local.begin(), local.end());
            continue;
        }
        std::vector<double> shape;
        for (int a : ranks)
            for (int b : ranks)
                if (a != b) {
                    const Route& r = m_impl->router.route(a, b);
                    shape.push_back(r.bottleneckGBps);
                    shape.push_back(r.latencyUs);
                }
        std::vector<int> local;
        if (auto known = m_impl->localRingsByShape.find(shape); known != m_impl->localRingsByShape.end()) {
            for (int position : known->second)
                local.push_back(ranks[static_cast<size_t>(position)]);
        } else {
            local = bestLocalRing(m_impl->router, m_impl->effective, ranks);
            std::vector<int> positions;
            for (int r : local)
                positions.push_back(static_cast<int>(std::find(ranks.begin(), ranks.end(), r) - ranks.begin()));
            m_impl->localRingsByShape.emplace(std::move(shape), std::move(positions));
        }
        order.insert(order.end(), local.begin(), local.end());
    }
    return m_impl->rings.emplace(group, std::move(order)).first->second;
}

Router& CostModel::router()
{
    return m_impl->router;
}

// Rings: one per channel. Across nodes NCCL opens a channel per NIC and enters each node at a
// different GPU so that every NIC carries one ring; inside a node one ring suffices.
std::vector<Flow> CostModel::ringChannelFlows(const std::vector<int>& members)
{
    const Topology& topo = m_impl->effective;
    const std::vector<int>& order = ringOrder(members);
    const auto local = byNode(topo, members);
    int channels = 1;
    if (local.size() > 1) {
        channels = std::numeric_limits<int>::max();
        for (auto& [node, ranks] : local)
            channels = std::min(channels, std::max<int>(1, std::min<int>(m_impl->nicsPerNode(node), static_cast<int>(ranks.size()))));
    }
    // each node's part of the ring, in ring order (one pass over the ring, not one per node)
    std::map<int, std::vector<int>> segments;
    for (int r : order)
        segments[topo.gpus[static_cast<size_t>(r)].node].push_back(r);
    std::vector<Flow> flows;
    for (int c = 0; c < channels; ++c) {
        std::vector<int> rotated;
        for (auto& [node, ranks] : local) {
            std::vector<int> seg = segments[node];
            std::rotate(seg.begin(), seg.begin() + (c % static_cast<int>(seg.size())), seg.end());
            rotated.insert(rotated.end(), seg.begin(), seg.end());
        }
        auto f = ringFlows(rotated, 1.0 / channels);
        flows.insert(flows.end(), f.begin(), f.end());
    }
    return flows;
}

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
        const auto nodes = byNode(m_impl->effective, group);
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
    default:
        return ringChannelFlows(group);
    }
}

CollectiveCost CostModel::collective(OpKind kind, Bytes bytes, const std::vector<int>& group, Algorithm forced,
                                     int root, const std::vector<Bytes>& pieces)
{
    Impl::Key key{static_cast<int>(kind), static_cast<int>(forced), root, bytes, group, pieces};
    if (auto it = m_impl->cache.find(key); it != m_impl->cache.end())
        return it->second;

    const int n = static_cast<int>(group.size());
    const Topology& topo = m_impl->effective;
    Router& router = m_impl->router;
    const auto nodes = byNode(topo, group);
    const int nodeCount = static_cast<int>(nodes.size());
    const double S = static_cast<double>(bytes);

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
        m_impl->cache.emplace(std::move(key), best);
        return best;
    }

    // Evaluates one algorithm for every protocol and keeps the fastest.
    auto consider = [&](Algorithm algo, int steps, double movedBytes, const PatternCost& pc) {
        if (!pc.connected) {
            best.connected = false;
            return;
        }
        for (int p = 0; p < 3; ++p) {
            const ProtocolParams& pp = m_profile.protocol[static_cast<size_t>(p)];
            const double hop = m_profile.link[static_cast<int>(pc.slowestClass)].hopUs[static_cast<size_t>(p)] + pc.latencyUs;
            const double bw = pc.gbps * pp.bandwidthFactor * kGB / 1e6; // bytes per microsecond
            const double t = m_profile.launchUs + pp.baseUs + steps * hop + (bw > 0 ? movedBytes / bw : 0.0);
            if (t < best.timeUs) {
                best = {t, algo, static_cast<Protocol>(p), pc.gbps, pc.bottleneckLink, steps, true, movedBytes};
            }
        }
    };

    auto ringPattern = [&](const std::vector<int>& members) { return pattern(router, topo, ringChannelFlows(members)); };

    const double dn = n;
    int maxLocal = 0;
    for (auto& [node, ranks] : nodes)
        maxLocal = std::max(maxLocal, static_cast<int>(ranks.size()));
    // A forced algorithm that does not apply here falls back to the model's own choice.
    Algorithm want = forced;
    const bool multiNodeAllReduce = nodeCount >= 2 && kind == OpKind::AllReduce;
    // hierarchical: all-reduce, and reduce-scatter and all-gather (its two halves)
    const bool hierarchical = nodeCount >= 2 && maxLocal > 1
                              && (kind == OpKind::AllReduce || kind == OpKind::ReduceScatter || kind == OpKind::AllGather);
    if ((want == Algorithm::Tree && !multiNodeAllReduce) || (want == Algorithm::Hierarchical && !hierarchical))
        want = Algorithm::Auto;
    if (kind == OpKind::SendRecv) {
        PatternCost pc = pattern(router, topo, patternFlows(kind, group, Algorithm::Direct, root));
        consider(Algorithm::Direct, 1, S, pc);
    } else if (kind == OpKind::ReduceScatterAllGather) {
        CollectiveCost rs = collective(OpKind::ReduceScatter, bytes, group, forced, root);
        CollectiveCost ag = collective(OpKind::AllGather, bytes, group, forced, root);
        best = rs;
        best.timeUs = rs.timeUs + ag.timeUs;
        best.steps = rs.steps + ag.steps;
        best.patternGBps = std::min(rs.patternGBps, ag.patternGBps);
        best.movedBytes = rs.movedBytes + ag.movedBytes;
    } else {
        // Ring: always applicable.
        if (want == Algorithm::Auto || want == Algorithm::Ring) {
            const PatternCost pc = ringPattern(group);
            switch (kind) {
            case OpKind::AllReduce:
                consider(Algorithm::Ring, 2 * (n - 1), 2 * (dn - 1) / dn * S, pc);
                break;
            case OpKind::ReduceScatter:
            case OpKind::AllGather:
                consider(Algorithm::Ring, n - 1, (dn - 1) / dn * S, pc);
                break;
            case OpKind::AllGatherV: {
                // Built from one broadcast per member along the ring: the link into rank i carries
                // every piece except rank i's own, so the busiest link carries S - smallest piece.
                Bytes smallest = pieces.empty() ? bytes / static_cast<Bytes>(n) : *std::min_element(pieces.begin(), pieces.end());
                consider(Algorithm::Ring, n - 1, S - static_cast<double>(smallest), pc);
                break;
            }
            case OpKind::Broadcast:
            case OpKind::Reduce:
                // pipelined chain from (or to) the root along the ring
                consider(Algorithm::Ring, n - 1, S, pc);
                break;
            default:
                break;
            }
        }
        // Direct (one-shot): every rank exchanges with every other at once. Only on request:
        // NCCL without NVLink multicast does not use it, and neither does Auto.
        if (want == Algorithm::Direct) {
            const PatternCost pc = pattern(router, topo, patternFlows(kind, group, Algorithm::Direct, root));
            // per unit weight: each pair flow carries S/n for AG/RS, S for a one-shot all-reduce
            double moved = S / dn;
            if (kind == OpKind::AllReduce)
                moved = S;
            else if (kind == OpKind::Broadcast || kind == OpKind::Reduce)
                moved = S;
            consider(Algorithm::Direct, 1, moved, pc);
        }
        // Across nodes: tree (all-reduce) as NCCL does.
        if (multiNodeAllReduce && (want == Algorithm::Auto || want == Algorithm::Tree)) {
            // chain inside each node, double binary tree between nodes, up then down
            const PatternCost pc = ringPattern(group);
            consider(Algorithm::Tree, 2 * (ceilLog2(nodeCount) + maxLocal - 1), 2 * S, pc);
        }
        // Hierarchical across nodes, the structure NCCL's multi-channel rings reach when each rail
        // has its own NIC: all-reduce = reduce-scatter in each node, an all-reduce of each slice
        // between the nodes on one ring per local index (all rails at once), all-gather in each
        // node; reduce-scatter keeps the first half (the slices between nodes reduce-scattered,
        // (N-1)/N of a slice), all-gather the mirror image. The rails' bandwidth is that of the
        // local indices every node has (patternFlows). So reduce-scatter is never slower than the
        // all-reduce it is half of (issue 14: 17.9 against 9.8 ms).
        if (hierarchical && (want == Algorithm::Auto || want == Algorithm::Hierarchical)) {
            const bool both = kind == OpKind::AllReduce;
            double intraUs = 0;
            int intraSteps = 0;
            for (auto& [node, ranks] : nodes) {
                double us = 0;
                int steps = 0;
                if (kind != OpKind::AllGather) {
                    const CollectiveCost rs = collective(OpKind::ReduceScatter, bytes, ranks, Algorithm::Ring);
                    us += rs.timeUs;
                    steps += rs.steps;
                }
                if (kind != OpKind::ReduceScatter) {
                    const CollectiveCost ag = collective(OpKind::AllGather, bytes, ranks, Algorithm::Ring);
                    us += ag.timeUs;
                    steps += ag.steps;
                }
                if (us > intraUs) {
                    intraUs = us;
                    intraSteps = steps;
                }
            }
            // Between the nodes, node i (L_i of the n ranks) sends the part of the buffer that the
            // other nodes' ranks end with, (n - L_i)/n S, over its L_i rails; the busiest node sets
            // the time: max_i (n - L_i) / (n L_i) S, which is (N-1)/N S/L for N equal nodes of L.
            double perRail = 0;
            for (auto& [node, ranks] : nodes) {
                const double l = static_cast<double>(ranks.size());
                perRail = std::max(perRail, (dn - l) / (dn * l) * S);
            }
            const PatternCost pc = pattern(router, topo, patternFlows(OpKind::AllReduce, group, Algorithm::Hierarchical, root));
            CollectiveCost saved = best;
            best.timeUs = std::numeric_limits<double>::infinity();
            consider(Algorithm::Hierarchical, (both ? 2 : 1) * (nodeCount - 1), (both ? 2.0 : 1.0) * perRail, pc);
            best.timeUs += intraUs;
            best.steps += intraSteps;
            if (saved.timeUs <= best.timeUs)
                best = saved;
        }
    }
    if (!std::isfinite(best.timeUs)) {
        best.connected = false;
        best.timeUs = 0;
    }
    const std::string ck = std::string(opName(kind)) + "/" + std::to_string(n);
    if (auto it = m_profile.corrections.find(ck); it != m_profile.corrections.end() && !it->second.empty()) {
        const auto& pts = it->second;
        double f = pts.front().factor;
        if (bytes >= pts.back().bytes)
            f = pts.back().factor;
        else
            for (size_t i = 1; i < pts.size(); ++i)
                if (bytes < pts[i].bytes) {
                    if (bytes <= pts[i - 1].bytes) {
                        f = pts[i - 1].factor; // at a measured size (or below the first): its own factor
                        break;
                    }
                    const double x0 = std::log(static_cast<double>(pts[i - 1].bytes)), x1 = std::log(static_cast<double>(pts[i].bytes));
                    const double t = (std::log(S) - x0) / (x1 - x0);
                    f = pts[i - 1].factor + t * (pts[i].factor - pts[i - 1].factor);
                    break;
                }
        best.timeUs *= f;
    }
    m_impl->cache.emplace(std::move(key), best);
    return best;
}

} // namespace shardlab
