// One collective call as the algorithms see it (collective_algorithms.h): the call, the shape of
// its group, NCCL's caps for it, the patterns it is priced on (each priced at most once per call),
// and the pricing of one algorithm over the protocols it runs with.
#pragma once

#include "cost_model_state.h"
#include "nccl_tuning.h"
#include "pattern_cost.h"

#include "shardlab/sim/cost_model.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace shardlab::detail {

// What one algorithm moves and over what, as priced by CollectiveContext::price():
//   T = launch + base[p] + intraSteps * (hop[p][intra class] + intra route latency)
//       + interSteps * (hop[p][inter class] + inter route latency) + fill
//       + moved / (gbps * f[p]) * (1 + rho / ringSteps)
// (steps split by the hardware they cross as in NCCL src/graph/tuning.cc:
// (nsteps - nInterSteps) * intraLat + nInterSteps * interLat). `tuner`: for the protocols where
// it holds a number, the whole latency as NCCL's tuner has it (tree and NVLS-tree across nodes),
// in place of launch + base + steps. `ringSteps` and `finalStepTraffic`: a ring whose every pass
// ends with a step that only receives (finalStepStretch(), nccl_tuning.h); 0 for the others.
// `ll128StepsOverlap`: its LL128 steps inside a node cost only the latency their data does not
// cover (ll128IntraStepUs(), nccl_tuning.h): a ring, whose ranks run their steps in lock-step.
struct Candidate {
    Algorithm algorithm = Algorithm::Ring;
    int intraSteps = 0, interSteps = 0;
    double movedBytes = 0; // per unit of flow weight
    double gbps = 0;       // the pattern's bandwidth per rank
    PatternCost pattern;   // its bottleneck, link classes and route latencies
    bool simpleOnly = false;
    TunerLatency tuner{};
    double fillUs = 0;
    int ringSteps = 0;           // k: the steps of one pass that send over the links
    double finalStepTraffic = 0; // w: bytes of memory traffic per received byte in the last step
    bool ll128StepsOverlap = false;
};

class CollectiveContext {
public:
    CollectiveContext(CostModel& model, CostModelState& state, OpKind kind, Bytes bytes, const std::vector<int>& group,
                      int root, const std::vector<Bytes>& pieces);

    CostModel& model;
    CostModelState& state;
    const CostProfile& profile;
    const OpKind kind;
    const Bytes bytes;
    const double S;  // bytes, as a double
    const int n;     // ranks
    const double dn; // ranks, as a double
    const std::vector<int>& group;
    const int root;
    const std::vector<Bytes>& pieces;            // all-gather-v's sizes by member
    const std::map<int, std::vector<int>> nodes; // the group by node (byNode)
    const int nodeCount;
    int maxLocal = 0, minLocal = 0; // most and fewest ranks of the group on one node
    // NVLink SHARP's bandwidth: the narrowest member's port into an NVSwitch with NVLS times the
    // profile's NVLS efficiency; nvlsFabric when every member has one (and there are two or more).
    double nvlsGBps = 0;
    bool nvlsFabric = false;
    ChannelCaps caps; // NCCL's per-channel caps across nodes, for the group's generation
    // The slowest member's HBM bandwidth, GB/s; 0 where any member's is unknown (then the ring's
    // memory-bound last step is not modelled).
    double hbmGBps = 0;

    bool multiNodeAllReduce() const { return nodeCount >= 2 && kind == OpKind::AllReduce; }
    // The ranks the ring, chain and rails patterns are priced on: the group, or its first two
    // nodes where its nodes are copies (NodeCopies, CostModel::setNodeSymmetry).
    const std::vector<int>& patternGroup() const { return m_copies.empty() ? group : m_copies; }

    // The ring's pattern over the group, one ring per channel (ring, tree and NVLS all ask for
    // it; on 65,536 GPUs it is 8 channels x 65,536 transfers).
    const PatternCost& ringPattern();
    // Between nodes, what one node's NICs carry per unit of time: the rails pattern (one ring per
    // local index, all at once, sharing NICs and PCIe as the topology has them), times the rails;
    // and that pattern.
    const std::pair<double, PatternCost>& nodeNetwork();
    // Every node's chain at once, in the order the group's ring visits the node: links of
    // different nodes are not shared, so one pricing gives the narrowest node's chain.
    double chainGBps();
    // Any pattern the model prices (CostModel::patternFlows) over the whole group.
    PatternCost patternOf(OpKind kind, Algorithm algorithm);

    // The fastest protocol for one algorithm (CollectiveCost::connected false where its pattern
    // is not connected; timeUs infinite where no protocol gives a time).
    CollectiveCost price(const Candidate& c) const;

private:
    std::vector<int> m_copies;
    std::optional<PatternCost> m_ring;
    std::optional<std::pair<double, PatternCost>> m_network;
};

} // namespace shardlab::detail
