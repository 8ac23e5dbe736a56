// The analytic cost model: how long a compute phase or a collective takes on a topology.
// docs/cost-model.md derives every formula below and cites its source.
//
// Collective time for algorithm a and protocol p on n ranks, S bytes (nccl-tests size):
//   T = launch + base[p] + intraSteps * (hop[p][intra class] + intra route latency)
//       + interSteps * (hop[p][network] + inter-node route latency) + moved(a, n, S) / (B * bw[p])
// (NCCL src/graph/tuning.cc splits the steps the same way: (nsteps - nInterSteps) * intraLat +
// nInterSteps * interLat.) The tree's LL latency and NVLS-tree's latency are NCCL's own figures
// from tuning.cc, taken whole in place of launch + base + steps (docs/cost-model.md, section 3);
// across nodes LL's bandwidth is capped as NCCL caps it (llMaxBusGBps), the tree and the ring's
// LL128 per channel by GPU generation (perChMaxTreeBws, perChMaxTreeLL128Bws,
// perChMaxRingLL128Bws), the tree's bandwidth is multiplied by NCCL's correction by size
// (treeCorrectionFactor), and NVLS-tree adds the fill of its pipeline where a few loops of NCCL's
// chunks hold the whole buffer (calcCollChunking).
// Across nodes the algorithms are pipelined, so B is the narrowest of
// their parts (intra-node chain, NICs, NVLink SHARP), not a sum of phases; docs/cost-model.md.
// B is the bandwidth each rank gets on the algorithm's pattern with links shared between its
// simultaneous transfers (Router::shareLinks) on links derated by their class's efficiency. As
// NCCL's tuner does, the model evaluates every algorithm/protocol that applies and keeps the
// fastest, then applies the calibration correction for that collective, rank count and size.
#pragma once

#include "shardlab/model/collectives.h"
#include "shardlab/model/program.h"
#include "shardlab/model/topology.h"
#include "shardlab/sim/routing.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

namespace detail {
struct CostModelState;
}

struct LinkClassParams {
    double efficiency = 1.0;       // share of the nominal bandwidth that large transfers reach
    std::array<double, 3> hopUs{}; // latency added per algorithm step, by protocol (LL, LL128, Simple)
    bool operator==(const LinkClassParams&) const = default;
};

struct ProtocolParams {
    double baseUs = 0;          // fixed cost of a collective with this protocol
    double bandwidthFactor = 1; // share of the link bandwidth the protocol's format delivers
    bool operator==(const ProtocolParams&) const = default;
};

// Which calibration correction applies to a collective: its kind and rank count. Profile files
// write it "all_reduce/4" (text(), fromText(), read in profiles.cpp); code may spell a key as such
// a literal, checked when it compiles.
struct CorrectionKey {
    OpKind kind = OpKind::AllReduce;
    int ranks = 0;

    CorrectionKey() = default;
    constexpr CorrectionKey(OpKind k, int n) : kind(k), ranks(n) {}
    // A literal such as "all_reduce/4"; one that is not a key does not compile.
    consteval CorrectionKey(const char* literal) : CorrectionKey(checkedLiteral(literal)) {}

    // "KIND/RANKS": a collective's name as opName() writes it and a rank count from 1 to 1e6.
    static constexpr std::optional<CorrectionKey> fromText(std::string_view text);
    std::string text() const; // "all_reduce/4"
    auto operator<=>(const CorrectionKey&) const = default;

private:
    static consteval CorrectionKey checkedLiteral(const char* literal)
    {
        const std::optional<CorrectionKey> key = fromText(literal);
        if (!key)
            throw "not a correction key: expected KIND/RANKS, as \"all_reduce/4\"";
        return *key;
    }
};

constexpr std::optional<CorrectionKey> CorrectionKey::fromText(std::string_view text)
{
    const size_t slash = text.find('/');
    if (slash == std::string_view::npos || slash + 1 == text.size() || text.size() - slash - 1 > 7)
        return std::nullopt;
    int ranks = 0;
    for (const char c : text.substr(slash + 1)) {
        if (c < '0' || c > '9')
            return std::nullopt;
        ranks = ranks * 10 + (c - '0');
    }
    if (ranks < 1 || ranks > 1'000'000)
        return std::nullopt;
    for (const OpInfo& op : kOpInfos)
        if (text.substr(0, slash) == op.name && op.kind != OpKind::Compute)
            return CorrectionKey(op.kind, ranks);
    return std::nullopt;
}

// A measured correction: at `bytes` the model's time must be multiplied by `factor`.
struct CorrectionPoint {
    Bytes bytes = 0;
    double factor = 1.0;
    bool operator==(const CorrectionPoint&) const = default;
};

struct CostProfile {
    std::string name = "default";
    std::string source; // where the numbers come from (a citation or "calibrated on HOST, DATE")
    double launchUs = 6.0;
    // NVLink SHARP: the share of a GPU's nominal NVLink bandwidth (per direction) that the NVLS
    // all-reduce reaches, sending its S bytes to the switch and receiving S reduced bytes back.
    double nvlsEfficiency = 0.61;
    // Across nodes NCCL caps the LL protocol's bus bandwidth by the hosts' CPU (NVIDIA/nccl
    // src/graph/tuning.cc, llMaxBws): 39.0 GB/s on two nodes and 20.4 on three or more with Intel
    // x86 CPUs (the DGX H100/A100 of docs/cost-model.md's figures have Intel Xeons); AMD: 22.5 and
    // 19.0. By node count: [0] two nodes, [1] three or more. docs/cost-model.md, section 3.
    std::array<double, 2> llMaxBusGBps{39.0, 20.4};
    std::array<ProtocolParams, 3> protocol{}; // by Protocol
    std::array<LinkClassParams, 4> link{};    // by LinkKind
    // Compute rate actually reached, as a share of the GPU's nominal TFLOP/s, by device name.
    std::map<std::string, double> computeEfficiency;
    // Size-dependent corrections from calibration, by collective and rank count, interpolated
    // log-linearly in size, flat beyond the ends (correctionFactor()).
    std::map<CorrectionKey, std::vector<CorrectionPoint>> corrections;
    bool operator==(const CostProfile&) const = default;

    static CostProfile defaults();
};

// The factor the profile's corrections give a collective of `bytes` (1 where it has none).
double correctionFactor(const CostProfile& profile, CorrectionKey key, Bytes bytes);

struct CollectiveCost {
    double timeUs = 0;
    Algorithm algorithm = Algorithm::Ring;
    Protocol protocol = Protocol::Simple;
    double patternGBps = 0;  // bandwidth per rank on the pattern, after sharing and efficiency
    int bottleneckLink = -1; // index into Topology::links: the link that limits the pattern
    int steps = 0;           // latency steps
    bool connected = true;
    // Bytes each flow of patternFlows() carries over the whole collective, per unit of flow
    // weight (the `moved` term of the formula above); playback spreads it over the steps.
    double movedBytes = 0;
};

class CostModel {
public:
    explicit CostModel(const Topology& topology, CostProfile profile = CostProfile::defaults());
    ~CostModel();
    CostModel(const CostModel&) = delete;
    CostModel& operator=(const CostModel&) = delete;

    const CostProfile& profile() const { return m_profile; }
    const Topology& topology() const { return m_topology; }

    // Time of a collective over `group` (ranks). `pieces` gives all-gather-v's per-member sizes.
    // `forced` = Auto lets the model choose, as NCCL's tuner does.
    CollectiveCost collective(OpKind kind, Bytes bytes, const std::vector<int>& group,
                              Algorithm forced = Algorithm::Auto, int root = 0, const std::vector<Bytes>& pieces = {});

    // Compute time in microseconds: flops / (rate * efficiency) * slowdown.
    double computeUs(double flops, int rank, double slowdown = 1.0) const;

    // The ring order over `group` that the model uses (built from the topology, cached).
    const std::vector<int>& ringOrder(const std::vector<int>& group);

    // The simultaneous transfers the model prices for `algorithm` (as chosen, never Auto): ring
    // and tree use the rings (one per channel across nodes), direct every ordered pair,
    // hierarchical the inter-node rails, send/recv the one transfer from root to the other rank.
    std::vector<Flow> patternFlows(OpKind kind, const std::vector<int>& group, Algorithm algorithm, int root = 0);

    // The router over the links as the model sees them (derated by their class's efficiency;
    // link indices are those of topology().links).
    Router& router();

    // Nodes that are copies of each other (same GPUs, switches and links in the same order, NICs
    // on the same fabric switches) and hold a group's ranks at the same places load their links
    // alike under the ring, chain and rails patterns, so across three or more such nodes the model
    // prices those patterns on the group's first two nodes: the same bandwidths, latencies and
    // bottleneck link, from O(ranks of two nodes) routes instead of O(n) (docs/cost-model.md,
    // "Nodes that are copies"). Applies only where no link joins two nodes directly and no link
    // joins two fabric switches (a spine shared by all nodes loads with their count). On by
    // default; off prices every transfer (the tests compare both).
    void setNodeSymmetry(bool on);
    bool nodeSymmetry() const;

private:
    Topology m_topology; // as given (bottleneck links are reported against it)
    CostProfile m_profile;
    std::unique_ptr<detail::CostModelState> m_state; // cost_model_state.h
};

} // namespace shardlab
