#include "shardlab/sim/cost_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>

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
    // InfiniBand: NCCL reaches 24 GB/s per 200 Gb/s NIC and 12 per 100 Gb/s (sjeaugey,
    // github.com/NVIDIA/nccl-tests/issues/119 and /160) and 46-48 GB/s per 400 Gb/s NDR NIC
    // (AddyLaddy, github.com/NVIDIA/nccl-tests/issues/290): 0.92-0.96 of the line rate; 0.94.
    p.link[static_cast<int>(LinkKind::Network)] = {0.94, {5.0, 8.0, 14.0}};
    // NVLink SHARP on 8 H100: all-reduce algbw ~275 GB/s (busbw ~480) against 450 GB/s per
    // direction (sjeaugey, github.com/NVIDIA/nccl-tests/issues/212): 275 / 450 = 0.61. Fitted on
    // that one figure; the 5-7 GPU and two-node figures in docs/cost-model.md are predictions.
    p.nvlsEfficiency = 0.61;
    return p;
}

namespace {

// The GPU generations NCCL's tuner tells apart (NVIDIA/nccl src/graph/tuning.cc, NCCL 2.19:
// compCapIndex = minCompCap >= 90 ? HOPPER_COMPCAP_IDX : minCompCap >= 80 ? AMPERE_COMPCAP_IDX :
// VOLTA_COMPCAP_IDX), read from the GPU's name. A name the model does not know (AMD, Blackwell,
// consumer cards) is kUnknownGeneration: NCCL's per-channel caps are then not applied.
constexpr int kVoltaGeneration = 0, kAmpereGeneration = 1, kHopperGeneration = 2, kUnknownGeneration = -1;

int ncclGeneration(const std::string& gpuName)
{
    std::string name;
    for (char c : gpuName)
        name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto has = [&](const char* part) { return name.find(part) != std::string::npos; };
    if (has("H100") || has("H200") || has("H800") || has("H20")) // compute capability 9.0
        return kHopperGeneration;
    if (has("A100") || has("A800") || has("A30") || has("A40") || has("A10")) // 8.0 and 8.6
        return kAmpereGeneration;
    if (has("V100") || has("P100")) // 7.0 and 6.0: NCCL's Volta row covers everything below 8.0
        return kVoltaGeneration;
    return kUnknownGeneration;
}

} // namespace

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
    // rank -> nominal bandwidth (per direction) of its NVLink into an NVSwitch with NVLink SHARP;
    // 0 where it has none
    std::vector<double> nvlsPortGBps;
    struct Key {
        int kind, algorithm, root;
        Bytes bytes;
        std::vector<int> group;
        std::vector<Bytes> pieces;
        auto operator<=>(const Key&) const = default;
    };
    std::map<Key, CollectiveCost> cache;
    // Nodes that are copies of each other (CostModel::setNodeSymmetry): node -> its class of copies;
    // GPU -> its place among its node's GPUs. copiesApply: no link joins two nodes or two fabric
    // switches, so every link outside the nodes joins one node to the fabric.
    bool symmetryOn = true;
    bool copiesApply = false;
    std::unordered_map<int, int> nodeClass;
    std::vector<int> gpuPlace;
    std::vector<int> gpuGeneration; // rank -> ncclGeneration() of its GPU

    Impl(const Topology& t, const CostProfile& p) : effective(t), router(effective)
    {
        for (Link& l : effective.links)
            l.bandwidthGBps *= p.link[static_cast<int>(l.kind)].efficiency;
        classifyNodes();
        for (const Gpu& g : t.gpus)
            gpuGeneration.push_back(ncclGeneration(g.name));
        for (const SwitchNode& s : effective.switches)
            if (s.kind == SwitchKind::Nic)
                ++nicsByNode[s.node];
        nvlsPortGBps.assign(t.gpus.size(), 0.0);
        std::unordered_map<std::string, int> nvlsSwitches; // ids of the NVSwitches with NVLS
        for (size_t i = 0; i < t.switches.size(); ++i)
            if (t.switches[i].kind == SwitchKind::NvSwitch && t.switches[i].nvls)
                nvlsSwitches.emplace(t.switches[i].id, t.rankCount() + static_cast<int>(i));
        if (nvlsSwitches.empty())
            return;
        std::unordered_map<std::string, int> gpuIndex;
        for (size_t i = 0; i < t.gpus.size(); ++i)
            gpuIndex.emplace(t.gpus[i].id, static_cast<int>(i));
        for (const Link& l : t.links) {
            if (l.kind != LinkKind::NvLink)
                continue;
            for (auto [gpuId, otherId] : {std::pair{&l.a, &l.b}, std::pair{&l.b, &l.a}}) {
                const auto g = gpuIndex.find(*gpuId);
                if (g != gpuIndex.end() && nvlsSwitches.count(*otherId))
                    nvlsPortGBps[static_cast<size_t>(g->second)] += l.bandwidthGBps;
            }
        }
    }

    // Two nodes are copies when their GPUs, switches and links (including their links to the
    // fabric, by the fabric switch's vertex) are the same in the same order, ids aside: a
    // signature per node of everything the router and the model read, in one pass over the
    // vertices and links, O(V + E).
    void classifyNodes()
    {
        const Topology& t = effective;
        const int ranks = t.rankCount(), vertices = t.vertexCount();
        std::vector<int> node(static_cast<size_t>(vertices)), place(static_cast<size_t>(vertices), 0);
        std::unordered_map<int, std::pair<int, int>> seen; // node -> (GPUs, switches) so far
        std::unordered_map<int, std::string> signature;
        const auto put = [](std::string& out, auto value) { out.append(reinterpret_cast<const char*>(&value), sizeof value); };
        gpuPlace.assign(static_cast<size_t>(ranks), 0);
        for (int v = 0; v < vertices; ++v) {
            const size_t i = static_cast<size_t>(v);
            if (v < ranks) {
                const Gpu& g = t.gpus[i];
                node[i] = g.node;
                place[i] = gpuPlace[i] = seen[g.node].first++;
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
            nodeClass[n] = classes.emplace(std::move(sig), next).first->second;
        }
        copiesApply = true;
    }

    // The group's ranks on its first two nodes (ascending) when it spans three or more nodes that
    // are copies holding its ranks at the same places; else empty. Every node then sends to the
    // next and receives from the previous exactly as the first two do with each other, so the
    // ring, chain and rails patterns load every node's links (and its links to the fabric, which
    // no other node uses) as they load the first two's.
    std::vector<int> copiesSubgroup(const std::map<int, std::vector<int>>& nodes) const
    {
        if (!symmetryOn || !copiesApply || nodes.size() < 3)
            return {};
        const auto& [firstNode, first] = *nodes.begin();
        const auto firstClass = nodeClass.find(firstNode);
        if (firstClass == nodeClass.end())
            return {};
        for (const auto& [n, ranks] : nodes) {
            const auto c = nodeClass.find(n);
            if (c == nodeClass.end() || c->second != firstClass->second || ranks.size() != first.size())
                return {};
            for (size_t k = 0; k < ranks.size(); ++k)
                if (gpuPlace[static_cast<size_t>(ranks[k])] != gpuPlace[static_cast<size_t>(first[k])])
                    return {};
        }
        std::vector<int> sub = first;
        const std::vector<int>& second = std::next(nodes.begin())->second;
        sub.insert(sub.end(), second.begin(), second.end());
        std::sort(sub.begin(), sub.end());
        return sub;
    }

    int nicsPerNode(int node) const
    {
        const auto it = nicsByNode.find(node);
        return it == nicsByNode.end() ? 0 : it->second;
    }

    // Channels across nodes, as NCCL's graph search finds them where the NICs limit: one per NIC
    // (the fewest NICs, or ranks, of any node); 1 inside one node.
    int crossNodeChannels(const std::map<int, std::vector<int>>& nodes) const
    {
        if (nodes.size() <= 1)
            return 1;
        int channels = std::numeric_limits<int>::max();
        for (auto& [node, ranks] : nodes)
            channels = std::min(channels, std::max<int>(1, std::min<int>(nicsPerNode(node), static_cast<int>(ranks.size()))));
        return channels;
    }

    // The NCCL generation of a group (ncclGeneration()): its oldest GPU's, as NCCL takes the
    // lowest compute capability of the communicator; kUnknownGeneration when any GPU is unknown.
    int groupGeneration(const std::vector<int>& group) const
    {
        int generation = std::numeric_limits<int>::max();
        for (int r : group) {
            const int g = r >= 0 && r < static_cast<int>(gpuGeneration.size()) ? gpuGeneration[static_cast<size_t>(r)]
                                                                               : kUnknownGeneration;
            if (g == kUnknownGeneration)
                return kUnknownGeneration;
            generation = std::min(generation, g);
        }
        return group.empty() ? kUnknownGeneration : generation;
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
    // The same split by where the transfers run: between GPUs of one node (intra) and between
    // nodes (inter), as NCCL's tuning model prices a step by the hardware it crosses.
    LinkKind intraClass = LinkKind::NvLink, interClass = LinkKind::Network;
    double intraLatencyUs = 0, interLatencyUs = 0;
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

// floor(log2(n)), NCCL's log2i
int floorLog2(int n)
{
    int d = 0;
    while ((2 << d) <= n)
        ++d;
    return d;
}

// NCCL's own latency model for its tree and NVLS-tree all-reduce, taken whole (NVIDIA/nccl
// src/graph/tuning.cc, NCCL 2.19 on: baseLat and hwLat). With g ranks per node on N nodes:
//   tree, LL:            baseLat + 2 ((g - 1) hwLat[intra] + log2i(N) hwLat[net])
//                        = 6.8 + 2 ((g - 1) x 0.6 (NVLink; 1.0 other links) + log2i(N) x 5.0)
//   NVLS-tree (Simple):  hwLat[NVLink] + 2 log2i(N) hwLat[net] = 23 + 2 log2i(N) x 14
// NCCL fits these to what nccl-tests measures, launch included: on 2 x 8 H100 its tuner predicts
// 6.8 + 2 (7 x 0.6 + 5.0) = 25.2 us for a tree/LL all-reduce (log of github.com/NVIDIA/nccl/issues/1453)
// and nccl-tests measures 24.7 us at 8 B (github.com/NVIDIA/nccl-tests/issues/309); so neither
// the model's launch and base nor its route latencies are added. LL128 and Simple keep the
// model's own step latencies: NCCL pairs its LL128 and Simple tree latencies (14 + 1.25 / 8.5 per
// step; 28 per step, "the latency of a 256kB chunk") with tree bandwidths that it caps well below
// the model's, and taken alone they would make medium sizes too fast. docs/cost-model.md, section 3.
constexpr double kTreeBaseLlUs = 6.8;
constexpr double kTreeHopLlNvLinkUs = 0.6, kTreeHopLlPciUs = 1.0, kTreeHopLlNetUs = 5.0;
constexpr double kNvlsTreeIntraUs = 23.0, kNvlsTreeNetUs = 14.0;

constexpr double kNoTunerLatency = std::numeric_limits<double>::quiet_NaN();

// NCCL's correction of its tree's bandwidth at medium sizes ("trees are not perfectly sticking to
// the model for medium sizes"; NVIDIA/nccl src/graph/tuning.cc, treeCorrectionFactor, NCCL 2.19
// on): a factor by protocol (LL, LL128, Simple) and by floor(log2(S / 64)), i.e. one per power of
// two from 64 B to 256 MB; 1 outside. The tree's bandwidth is multiplied by it.
constexpr int kTreeCorrectionSizes = 23;
constexpr std::array<std::array<double, kTreeCorrectionSizes>, 3> kTreeCorrection{{
    // LL
    {1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0, 1.0, 1.0},
    // LL128
    {1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1.0, 1.0},
    // Simple
    {0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8, 0.9, 0.9},
}};

double treeCorrection(int protocol, Bytes bytes)
{
    const Bytes units = bytes >> 6;
    if (units < 1)
        return 1.0;
    int index = 0;
    while ((units >> (index + 1)) != 0)
        ++index;
    return index < kTreeCorrectionSizes ? kTreeCorrection[static_cast<size_t>(protocol)][static_cast<size_t>(index)] : 1.0;
}

// NCCL's per-channel caps on its tree's bus bandwidth, in GB/s, by generation (Volta, Ampere,
// Hopper: ncclGeneration()) and node count (one node, two nodes, more): NVIDIA/nccl
// src/graph/tuning.cc, NCCL 2.19, perChMaxTreeBws and perChMaxTreeLL128Bws. Its tuner:
//   tree busBw = min(0.92 x nChannels x bw, nChannels x perChMaxTreeBw)     (every protocol)
//   LL128:  busBw = min(busBw x 120/128, nChannels x perChMaxTreeLL128Bw)
//   algbw = busBw / 2 (ratio .5)
// The model's tree algbw is capped at nChannels x perChMaxTreeBw / 2, and its LL128 at
// nChannels x perChMaxTreeLL128Bw / 2, with nChannels one per NIC (Impl::crossNodeChannels, the
// channels NCCL's search finds where the NICs limit). Its 0.92 and 120/128 are not applied again:
// the model's links and protocols carry their own efficiencies. docs/cost-model.md, section 3.
constexpr std::array<std::array<double, 3>, 3> kPerChannelMaxTreeBusGBps{{
    {26.5, 18.5, 10.0}, // Volta
    {24.0, 23.6, 17.8}, // Ampere
    {38.7, 41.4, 36.0}, // Hopper
}};
constexpr std::array<std::array<double, 3>, 3> kPerChannelMaxTreeLl128BusGBps{{
    {20.0, 20.0, 20.0},
    {20.0, 20.0, 20.0},
    {36.7, 36.7, 29.0},
}};
// The ring's LL128 likewise (perChMaxRingLL128Bws): busBw = min(busBw x 0.92, nChannels x
// perChMaxRingLL128Bw). The ring's bus bandwidth is the model's per-rank bandwidth, so its LL128
// is capped at nChannels x perChMaxRingLL128Bw. Across nodes only: inside a node the model prices
// one ring where NCCL runs many channels.
constexpr std::array<std::array<double, 3>, 3> kPerChannelMaxRingLl128BusGBps{{
    {20.0, 20.0, 20.0},
    {20.0, 20.0, 20.0},
    {36.7, 36.7, 36.7},
}};

struct ChannelCaps {
    double treeGBps = std::numeric_limits<double>::infinity();      // tree algbw, every protocol
    double treeLl128GBps = std::numeric_limits<double>::infinity(); // tree algbw, LL128, on top
    double ringLl128GBps = std::numeric_limits<double>::infinity(); // ring bus bandwidth, LL128
};

ChannelCaps channelCaps(int generation, int channels, int nodes)
{
    ChannelCaps caps;
    if (generation < 0 || nodes < 2)
        return caps;
    const size_t g = static_cast<size_t>(generation), column = nodes == 2 ? 1 : 2;
    caps.treeGBps = channels * kPerChannelMaxTreeBusGBps[g][column] / 2.0;
    caps.treeLl128GBps = channels * kPerChannelMaxTreeLl128BusGBps[g][column] / 2.0;
    caps.ringLl128GBps = channels * kPerChannelMaxRingLl128BusGBps[g][column];
    return caps;
}

// NVLS-tree at medium sizes: NCCL's pipeline does not fill. NCCL divides the buffer over its NVLS
// channels (NVIDIA/nccl src/enqueue.cc, scheduleCollTasksToPlan; 16 on Hopper: src/transport/nvls.cc,
// NVLS_NCHANNELS_SM90) and each channel runs its share in loops of nHeads chunks (one chunk per NVLS
// head, a GPU with its own NIC). The chunk shrinks with the share b = S / 16 (calcCollChunking,
// NCCL 2.28: from NCCL_NVLS_CHUNKSIZE 128 KB, 64 KB from four nodes on (NVLSTREE_MAX_CHUNKSIZE),
// then 256 KB if b < 32 H c, 128 KB if b < 16 H c, 64 KB if b < 4 H c, 32 KB if b < H c, each only
// when the chunk c is larger), so up to 16 x 8 x 32 KB = 4 MB on eight heads all of S is a single loop.
// A loop's stages (the in-node NVLS reduce, the network up and down the tree, the in-node
// multicast) overlap only with other loops':
//   T_data = sum of one loop's stage times + (L - 1) x its slowest stage
//          = S / min(B_nvls, B_net / k) + fill,  fill = sum - slowest    (loop = S / L)
//   reduce = multicast = loop / B_nvls;  network = D x k x loop / B_net, D = ceil(log2 N)
// (on two nodes D = k = 1: half the channels go up one tree while the other half go up the other,
// then down, each direction of every NIC carrying half a loop each time). For many loops the fill,
// one loop's worth, is a small share of the time, and the algbw tends to the large-size
// min(B_nvls, B_net / k). docs/cost-model.md, 4b.
constexpr Bytes kNvlsChannels = 16;
constexpr Bytes kNvlsChunkBytes = 128 * 1024, kNvlsTreeMaxChunkFromFourNodes = 64 * 1024;

Bytes nvlsTreeLoops(Bytes bytes, int heads, int nodes)
{
    const Bytes share = bytes / kNvlsChannels, h = static_cast<Bytes>(std::max(heads, 1));
    Bytes chunk = nodes >= 4 ? kNvlsTreeMaxChunkFromFourNodes : kNvlsChunkBytes;
    if (share < 32 * h * chunk && chunk > 262144)
        chunk = 262144;
    if (share < 16 * h * chunk && chunk > 131072)
        chunk = 131072;
    if (share < 4 * h * chunk && chunk > 65536)
        chunk = 65536;
    if (share < h * chunk && chunk > 32768)
        chunk = 32768;
    return std::max<Bytes>(1, (share + h * chunk - 1) / (h * chunk));
}

double nvlsTreeFillUs(Bytes bytes, int heads, int nodes, double nvlsGBps, double netGBps)
{
    if (bytes == 0 || !(nvlsGBps > 0) || !(netGBps > 0) || !std::isfinite(netGBps))
        return 0.0;
    const double k = nodes == 2 ? 1.0 : 2.0;
    const double loop = static_cast<double>(bytes) / static_cast<double>(nvlsTreeLoops(bytes, heads, nodes));
    const double nvls = loop / (nvlsGBps * kGB / 1e6), net = k * loop / (netGBps * kGB / 1e6);
    const double sum = 2.0 * nvls + ceilLog2(nodes) * net;
    return sum - std::max(nvls, net);
}

// The tree's latency by protocol: NCCL's for LL, kNoTunerLatency (the model's own steps) else.
std::array<double, 3> treeTunerLatencyUs(int ranksPerNode, int nodes, LinkKind intraClass)
{
    const double intra = intraClass == LinkKind::NvLink ? kTreeHopLlNvLinkUs : kTreeHopLlPciUs;
    return {kTreeBaseLlUs + 2.0 * ((ranksPerNode - 1) * intra + floorLog2(nodes) * kTreeHopLlNetUs), kNoTunerLatency,
            kNoTunerLatency};
}

// NVLS-tree runs Simple only.
std::array<double, 3> nvlsTreeTunerLatencyUs(int nodes)
{
    return {kNoTunerLatency, kNoTunerLatency, kNvlsTreeIntraUs + 2.0 * floorLog2(nodes) * kNvlsTreeNetUs};
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

void CostModel::setNodeSymmetry(bool on)
{
    if (on != m_impl->symmetryOn)
        m_impl->cache.clear();
    m_impl->symmetryOn = on;
}

bool CostModel::nodeSymmetry() const
{
    return m_impl->symmetryOn;
}

// Rings: one per channel. Across nodes NCCL opens a channel per NIC and enters each node at a
// different GPU so that every NIC carries one ring; inside a node one ring suffices.
std::vector<Flow> CostModel::ringChannelFlows(const std::vector<int>& members)
{
    const Topology& topo = m_impl->effective;
    const std::vector<int>& order = ringOrder(members);
    const auto local = byNode(topo, members);
    const int channels = m_impl->crossNodeChannels(local);
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
            nicOf[i] = m_impl->router.homeNic(seg[i]);
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
                const std::tuple<int, int, int, size_t> key{std::max(in[a] + 1, out[b] + 1), a == want ? 0 : 1, b == a ? 0 : 1, i};
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
            const size_t start = channels > 1 ? startsByNode[node][static_cast<size_t>(c)] : static_cast<size_t>(c) % seg.size();
            std::rotate(seg.begin(), seg.begin() + static_cast<std::ptrdiff_t>(start), seg.end());
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
    // The ranks the ring, chain and rails patterns are priced on: the group, or its first two
    // nodes where its nodes are copies (Impl::copiesSubgroup, setNodeSymmetry).
    const std::vector<int> copies = m_impl->copiesSubgroup(nodes);
    const std::vector<int>& patternGroup = copies.empty() ? group : copies;

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

    // NCCL's per-channel caps across nodes (channelCaps), for the group's generation.
    const ChannelCaps caps = nodeCount >= 2 ? channelCaps(m_impl->groupGeneration(group), m_impl->crossNodeChannels(nodes), nodeCount)
                                            : ChannelCaps{};

    // Evaluates one algorithm for every protocol it runs with and keeps the fastest:
    //   T = launch + base[p] + intraSteps * (hop[p][intra class] + intra route latency)
    //       + interSteps * (hop[p][inter class] + inter route latency) + moved / (gbps * f[p])
    // (steps split by the hardware they cross as in NCCL src/graph/tuning.cc:
    // (nsteps - nInterSteps) * intraLat + nInterSteps * interLat).
    // `tuner`: for the protocols where it is a number, the whole latency as NCCL's tuner has it
    // (tree and NVLS-tree across nodes, treeTunerLatencyUs), in place of launch + base + steps.
    auto consider = [&](Algorithm algo, int intraSteps, int interSteps, double movedBytes, double gbps,
                        const PatternCost& pc, bool simpleOnly = false,
                        const std::array<double, 3>& tuner = {kNoTunerLatency, kNoTunerLatency, kNoTunerLatency},
                        double fillUs = 0.0) {
        if (!pc.connected) {
            best.connected = false;
            return;
        }
        for (int p = simpleOnly ? static_cast<int>(Protocol::Simple) : 0; p < 3; ++p) {
            const ProtocolParams& pp = m_profile.protocol[static_cast<size_t>(p)];
            const auto hopUs = [&](LinkKind k) { return m_profile.link[static_cast<int>(k)].hopUs[static_cast<size_t>(p)]; };
            const double latency = std::isnan(tuner[static_cast<size_t>(p)])
                                       ? m_profile.launchUs + pp.baseUs + intraSteps * (hopUs(pc.intraClass) + pc.intraLatencyUs)
                                             + interSteps * (hopUs(pc.interClass) + pc.interLatencyUs)
                                       : tuner[static_cast<size_t>(p)];
            double protocolGBps = gbps * pp.bandwidthFactor;
            // NCCL's per-channel caps across nodes (channelCaps): its tree's (perChMaxTreeBws,
            // then perChMaxTreeLL128Bws), before the protocol's own share as in its tuner, and
            // its ring's LL128 (perChMaxRingLL128Bws).
            if (algo == Algorithm::Tree) {
                protocolGBps = std::min(gbps, caps.treeGBps) * pp.bandwidthFactor;
                if (p == static_cast<int>(Protocol::LL128))
                    protocolGBps = std::min(protocolGBps, caps.treeLl128GBps);
            }
            if (algo == Algorithm::Ring && p == static_cast<int>(Protocol::LL128))
                protocolGBps = std::min(protocolGBps, caps.ringLl128GBps);
            // Across nodes NCCL caps LL's bus bandwidth at llMaxBws (CostProfile::llMaxBusGBps).
            // The ring's bus bandwidth is the model's per-rank bandwidth (its moved bytes are
            // nccl-tests' busbw factor times S); the tree's algbw is half its bus bandwidth
            // (tuning.cc: ratio .5), so the tree's cap is half the figure.
            if (p == static_cast<int>(Protocol::LL) && nodeCount >= 2 && (algo == Algorithm::Ring || algo == Algorithm::Tree)) {
                const double cap = m_profile.llMaxBusGBps[nodeCount == 2 ? 0 : 1];
                protocolGBps = std::min(protocolGBps, algo == Algorithm::Tree ? cap / 2.0 : cap);
            }
            if (algo == Algorithm::Tree)
                protocolGBps *= treeCorrection(p, bytes);
            const double bw = protocolGBps * kGB / 1e6; // bytes per microsecond
            const double t = latency + fillUs + (bw > 0 ? movedBytes / bw : 0.0);
            if (t < best.timeUs) {
                best = {t, algo, static_cast<Protocol>(p), gbps, pc.bottleneckLink, intraSteps + interSteps, true, movedBytes};
            }
        }
    };

    // The ring's pattern over the whole group, priced once per call (ring, tree and NVLS all ask
    // for it; on 65,536 GPUs it is 8 channels x 65,536 transfers).
    std::optional<PatternCost> ringPc;
    auto ringPattern = [&]() -> PatternCost {
        if (!ringPc)
            ringPc = pattern(router, topo, ringChannelFlows(patternGroup));
        return *ringPc;
    };

    const double dn = n;
    int maxLocal = 0;
    for (auto& [node, ranks] : nodes)
        maxLocal = std::max(maxLocal, static_cast<int>(ranks.size()));
    // NVLink SHARP applies when every member sits on an NVSwitch that has it (SwitchNode::nvls);
    // its bandwidth is the narrowest member's port times the profile's NVLS efficiency.
    double nvlsGBps = std::numeric_limits<double>::infinity();
    for (int r : group)
        nvlsGBps = std::min(nvlsGBps, r >= 0 && r < static_cast<int>(m_impl->nvlsPortGBps.size())
                                          ? m_impl->nvlsPortGBps[static_cast<size_t>(r)] : 0.0);
    nvlsGBps *= m_profile.nvlsEfficiency;
    const bool nvlsFabric = n >= 2 && std::isfinite(nvlsGBps) && nvlsGBps > 0;
    // A forced algorithm that does not apply here falls back to the model's own choice.
    Algorithm want = forced;
    const bool multiNodeAllReduce = nodeCount >= 2 && kind == OpKind::AllReduce;
    // hierarchical: all-reduce, and reduce-scatter and all-gather (its two halves)
    const bool hierarchical = nodeCount >= 2 && maxLocal > 1
                              && (kind == OpKind::AllReduce || kind == OpKind::ReduceScatter || kind == OpKind::AllGather);
    const bool nvls = nvlsFabric && nodeCount == 1
                      && (kind == OpKind::AllReduce || kind == OpKind::ReduceScatter || kind == OpKind::AllGather);
    // NVLS-tree reduces inside each node first: NCCL uses it only with at least two GPUs per node.
    int minLocal = std::numeric_limits<int>::max();
    for (auto& [node, ranks] : nodes)
        minLocal = std::min(minLocal, static_cast<int>(ranks.size()));
    const bool nvlsTree = nvlsFabric && multiNodeAllReduce && minLocal >= 2;
    if ((want == Algorithm::Tree && !multiNodeAllReduce) || (want == Algorithm::Hierarchical && !hierarchical)
        || (want == Algorithm::Nvls && !nvls) || (want == Algorithm::NvlsTree && !nvlsTree))
        want = Algorithm::Auto;

    // Between nodes, what one node's NICs carry per unit of time: the rails pattern (one ring per
    // local index, all at once, sharing NICs and PCIe as the topology has them), times the rails.
    // A node with fewer NICs than GPUs shares them here. Its intra-node chain: the node's ring.
    std::optional<std::pair<double, PatternCost>> railsPc;
    auto nodeNetworkGBps = [&]() {
        if (railsPc)
            return *railsPc;
        size_t rails = std::numeric_limits<size_t>::max();
        for (auto& [node, ranks] : nodes)
            rails = std::min(rails, ranks.size());
        const PatternCost pc = pattern(router, topo, patternFlows(OpKind::AllReduce, patternGroup, Algorithm::Hierarchical, root));
        railsPc = std::pair<double, PatternCost>(pc.gbps * static_cast<double>(rails), pc);
        return *railsPc;
    };
    // Every node's chain at once, in the order the group's ring visits the node (ringOrder()
    // keeps each node's ranks together): links of different nodes are not shared, so one
    // shareLinks over all of them gives the narrowest node's chain, in one pass over the group.
    auto chainGBps = [&]() {
        std::map<int, std::vector<int>> segments;
        for (int r : ringOrder(patternGroup))
            segments[topo.gpus[static_cast<size_t>(r)].node].push_back(r);
        std::vector<Flow> flows;
        for (auto& [node, seg] : segments) {
            auto f = ringFlows(seg);
            flows.insert(flows.end(), f.begin(), f.end());
        }
        return flows.empty() ? std::numeric_limits<double>::infinity() : pattern(router, topo, flows).gbps;
    };
    // Double binary tree between N nodes (NCCL, "Massively Scale Your Deep Learning Training with
    // NCCL 2.4", NVIDIA blog 2019): each node is a leaf in one tree and inner in the other, each
    // tree carrying S/2. Up and down, a node sends S into the network on 2 nodes (each is the
    // other's only child and parent) and 2S on more (an inner node sends S/2 up and S/2 to each
    // of two children). Inside a node the ranks form a chain that carries S up and S down, so each
    // GPU sends 2S. Pipelined: the narrower part sets the pace,
    //   algbw = min(B_chain / 2, B_net / k),  k = 1 on two nodes, 2 on more.
    auto treeAlgbw = [&](double intraGBps) {
        const auto [net, pc] = nodeNetworkGBps();
        const double k = nodeCount == 2 ? 1.0 : 2.0;
        return std::pair<double, PatternCost>(std::min(intraGBps, net / k), pc);
    };

    if (kind == OpKind::SendRecv) {
        PatternCost pc = pattern(router, topo, patternFlows(kind, group, Algorithm::Direct, root));
        const bool inter = nodeCount > 1;
        consider(Algorithm::Direct, inter ? 0 : 1, inter ? 1 : 0, S, pc.gbps, pc);
    } else if (kind == OpKind::ReduceScatterAllGather) {
        CollectiveCost rs = collective(OpKind::ReduceScatter, bytes, group, forced, root);
        CollectiveCost ag = collective(OpKind::AllGather, bytes, group, forced, root);
        best = rs;
        best.timeUs = rs.timeUs + ag.timeUs;
        best.steps = rs.steps + ag.steps;
        best.patternGBps = std::min(rs.patternGBps, ag.patternGBps);
        best.movedBytes = rs.movedBytes + ag.movedBytes;
    } else {
        // Ring: always applicable. Across N nodes NCCL counts 2(N-1) of all-reduce's 2(n-1) steps
        // (N-1 of n-1 for the others) as network steps (tuning.cc, nInterSteps).
        if (want == Algorithm::Auto || want == Algorithm::Ring) {
            const PatternCost pc = ringPattern();
            const int interOnce = nodeCount - 1;
            switch (kind) {
            case OpKind::AllReduce:
                consider(Algorithm::Ring, 2 * (n - 1) - 2 * interOnce, 2 * interOnce, 2 * (dn - 1) / dn * S, pc.gbps, pc);
                break;
            case OpKind::ReduceScatter:
            case OpKind::AllGather:
                consider(Algorithm::Ring, n - 1 - interOnce, interOnce, (dn - 1) / dn * S, pc.gbps, pc);
                break;
            case OpKind::AllGatherV: {
                // Built from one broadcast per member along the ring: the link into rank i carries
                // every piece except rank i's own, so the busiest link carries S - smallest piece.
                Bytes smallest = pieces.empty() ? bytes / static_cast<Bytes>(n) : *std::min_element(pieces.begin(), pieces.end());
                consider(Algorithm::Ring, n - 1 - interOnce, interOnce, S - static_cast<double>(smallest), pc.gbps, pc);
                break;
            }
            case OpKind::Broadcast:
            case OpKind::Reduce:
                // pipelined chain from (or to) the root along the ring
                consider(Algorithm::Ring, n - 1 - interOnce, interOnce, S, pc.gbps, pc);
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
            const bool inter = nodeCount > 1;
            consider(Algorithm::Direct, inter ? 0 : 1, inter ? 1 : 0, moved, pc.gbps, pc);
        }
        // Across nodes: tree (all-reduce) as NCCL does. Latency as tuning.cc:
        // baseLat + 2 * ((g - 1) * intraLat + log2(N) * interLat), g ranks per node, NCCL's own
        // figures for LL (treeTunerLatencyUs), the model's step latencies for LL128 and Simple.
        if (multiNodeAllReduce && (want == Algorithm::Auto || want == Algorithm::Tree)) {
            const double chain = chainGBps();
            auto [algbw, pc] = treeAlgbw(chain / 2.0);
            const PatternCost ring = ringPattern(); // the intra-node hops' class and latency
            pc.intraClass = ring.intraClass;
            pc.intraLatencyUs = ring.intraLatencyUs;
            consider(Algorithm::Tree, 2 * (maxLocal - 1), 2 * ceilLog2(nodeCount), S, algbw, pc, false,
                     treeTunerLatencyUs(maxLocal, nodeCount, pc.intraClass));
        }
        // NVLink SHARP in one node: every GPU sends its S bytes to the switch, which reduces them
        // and multicasts the S reduced bytes back, so each GPU moves S per direction (a ring moves
        // 2(n-1)/n S): algbw = B_nvls. nccl-tests still reports busbw = algbw * 2(n-1)/n, which
        // is why NVLS busbw exceeds the NVLink rate (docs/cost-model.md). Simple protocol only, as
        // in NCCL; two latency steps (reduce, multicast).
        if (nvls && (want == Algorithm::Auto || want == Algorithm::Nvls)) {
            const PatternCost pc = ringPattern();
            if (kind == OpKind::AllReduce)
                consider(Algorithm::Nvls, 2, 0, S, nvlsGBps, pc, true);
            else
                // NVLS reduce-scatter (each GPU pulls its reduced slice: the switch reads the
                // other GPUs' parts of it) and all-gather (each GPU multicasts its slice): each GPU
                // moves (n-1)/n S one way, one step. NCCL runs both since 2.19.
                consider(Algorithm::Nvls, 1, 0, (dn - 1) / dn * S, nvlsGBps, pc, true);
        }
        // NVLS-tree across nodes: NVLS inside each node, a tree between the nodes, pipelined:
        // algbw = min(B_nvls, B_net / k) with k as for the tree.
        if (nvlsTree && (want == Algorithm::Auto || want == Algorithm::NvlsTree)) {
            auto [algbw, pc] = treeAlgbw(nvlsGBps);
            const PatternCost ring = ringPattern();
            pc.intraClass = ring.intraClass;
            pc.intraLatencyUs = ring.intraLatencyUs;
            // At medium sizes its pipeline does not fill (nvlsTreeFillUs): one NVLS head per NIC.
            const double fill = nvlsTreeFillUs(bytes, m_impl->crossNodeChannels(nodes), nodeCount, nvlsGBps, nodeNetworkGBps().first);
            consider(Algorithm::NvlsTree, 2, 2 * ceilLog2(nodeCount), S, algbw, pc, true, nvlsTreeTunerLatencyUs(nodeCount), fill);
        }
        // Hierarchical across nodes (on request only: NCCL has no such algorithm, so Auto, which
        // stands for NCCL's tuner, never picks it): all-reduce = reduce-scatter in each node, an
        // all-reduce of each slice between the nodes on one ring per local index (all rails at
        // once), all-gather in each node, one phase after the other; reduce-scatter keeps the
        // first half (the slices between nodes reduce-scattered, (N-1)/N of a slice), all-gather
        // the mirror image. The rails' bandwidth is that of the local indices every node has.
        if (hierarchical && want == Algorithm::Hierarchical) {
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
            const PatternCost pc = pattern(router, topo, patternFlows(OpKind::AllReduce, patternGroup, Algorithm::Hierarchical, root));
            CollectiveCost saved = best;
            best.timeUs = std::numeric_limits<double>::infinity();
            consider(Algorithm::Hierarchical, 0, (both ? 2 : 1) * (nodeCount - 1), (both ? 2.0 : 1.0) * perRail, pc.gbps, pc);
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
