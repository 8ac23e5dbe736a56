// The collective algorithms, one estimate each, and their table: collective_algorithms.h.
#include "collective_algorithms.h"

#include <algorithm>
#include <limits>

namespace shardlab::detail {

namespace {

bool isAllReduceOrHalf(OpKind kind)
{
    return kind == OpKind::AllReduce || kind == OpKind::ReduceScatter || kind == OpKind::AllGather;
}

// Ring: every collective with a ring form. Across N nodes NCCL counts 2(N-1) of all-reduce's
// 2(n-1) steps (N-1 of n-1 for the others) as network steps (tuning.cc, nInterSteps).
bool ringApplies(const CollectiveContext& c)
{
    switch (c.kind) {
    case OpKind::AllReduce:
    case OpKind::ReduceScatter:
    case OpKind::AllGather:
    case OpKind::AllGatherV:
    case OpKind::Broadcast:
    case OpKind::Reduce: return true;
    default: return false;
    }
}

CollectiveCost ringEstimate(CollectiveContext& c)
{
    const PatternCost& pc = c.ringPattern();
    const int interOnce = c.nodeCount - 1;
    // LL128's steps inside a node overlap with their data: every rank runs step j at once and
    // forwards each 128-byte line as it arrives (ll128IntraStepUs, nccl_tuning.h)
    Candidate ring{.algorithm = Algorithm::Ring,
                   .intraSteps = c.n - 1 - interOnce,
                   .interSteps = interOnce,
                   .movedBytes = c.S,
                   .gbps = pc.gbps,
                   .pattern = pc,
                   .ll128StepsOverlap = true};
    switch (c.kind) {
    case OpKind::AllReduce:
        ring.intraSteps = 2 * (c.n - 1) - 2 * interOnce;
        ring.interSteps = 2 * interOnce;
        ring.movedBytes = 2 * (c.dn - 1) / c.dn * c.S;
        // each pass: send, n-2 recv-reduce-send, recv-reduce-copy-send, n-2 recv-copy-send, then
        // a receive into the output (all_reduce.h, runRing): 2(n-1) steps send, the last copies
        ring.ringSteps = 2 * (c.n - 1);
        ring.finalStepTraffic = kFinalRecvCopyTraffic;
        break;
    case OpKind::ReduceScatter:
        // send, n-2 recv-reduce-send, then recv-reduce-copy into the output (reduce_scatter.h)
        ring.movedBytes = (c.dn - 1) / c.dn * c.S;
        ring.ringSteps = c.n - 1;
        ring.finalStepTraffic = kFinalRecvReduceCopyTraffic;
        break;
    case OpKind::AllGather:
        // send, n-2 recv-copy-send, then a receive into the output (all_gather.h)
        ring.movedBytes = (c.dn - 1) / c.dn * c.S;
        ring.ringSteps = c.n - 1;
        ring.finalStepTraffic = kFinalRecvCopyTraffic;
        break;
    case OpKind::AllGatherV: {
        // Built from one broadcast per member along the ring: the link into rank i carries
        // every piece except rank i's own, so the busiest link carries S - smallest piece.
        const Bytes smallest =
            c.pieces.empty() ? c.bytes / static_cast<Bytes>(c.n) : *std::min_element(c.pieces.begin(), c.pieces.end());
        ring.movedBytes = c.S - static_cast<double>(smallest);
        break;
    }
    default: break; // broadcast and reduce: a pipelined chain from (or to) the root along the ring
    }
    return c.price(ring);
}

// Direct (one-shot): every rank exchanges with every other at once. Only on request: NCCL
// without NVLink multicast does not use it, and neither does Auto. Send/recv is always direct.
bool directApplies(const CollectiveContext&) { return true; }

CollectiveCost directEstimate(CollectiveContext& c)
{
    const PatternCost pc = c.patternOf(c.kind, Algorithm::Direct);
    // per unit weight: each pair flow carries S/n for AG/RS, S for a one-shot all-reduce, a
    // broadcast or reduce, and the one transfer of a send/recv
    double moved = c.S / c.dn;
    if (c.kind == OpKind::AllReduce || c.kind == OpKind::Broadcast || c.kind == OpKind::Reduce
        || c.kind == OpKind::SendRecv)
        moved = c.S;
    const bool inter = c.nodeCount > 1;
    return c.price({.algorithm = Algorithm::Direct,
                    .intraSteps = inter ? 0 : 1,
                    .interSteps = inter ? 1 : 0,
                    .movedBytes = moved,
                    .gbps = pc.gbps,
                    .pattern = pc});
}

// Double binary tree between N nodes (NCCL, "Massively Scale Your Deep Learning Training with
// NCCL 2.4", NVIDIA blog 2019): each node is a leaf in one tree and inner in the other, each
// tree carrying S/2. Up and down, a node sends S into the network on 2 nodes (each is the
// other's only child and parent) and 2S on more (an inner node sends S/2 up and S/2 to each of
// two children). Inside a node the ranks form a chain that carries S up and S down, so each GPU
// sends 2S. Pipelined: the narrower part sets the pace,
//   algbw = min(B_chain / 2, B_net / k),  k = 1 on two nodes, 2 on more.
// The intra-node hops' class and latency are the ring's.
Candidate treeShaped(CollectiveContext& c, Algorithm algorithm, double intraGBps)
{
    const auto& [net, rails] = c.nodeNetwork();
    const double k = c.nodeCount == 2 ? 1.0 : 2.0;
    Candidate tree{.algorithm = algorithm, .movedBytes = c.S, .gbps = std::min(intraGBps, net / k), .pattern = rails};
    const PatternCost& ring = c.ringPattern();
    tree.pattern.intraClass = ring.intraClass;
    tree.pattern.intraLatencyUs = ring.intraLatencyUs;
    return tree;
}

// Across nodes, all-reduce only, as NCCL does. Latency as tuning.cc:
// baseLat + 2 * ((g - 1) * intraLat + log2(N) * interLat), g ranks per node, NCCL's own figures
// for LL (treeTunerLatencyUs), the model's step latencies for LL128 and Simple.
bool treeApplies(const CollectiveContext& c) { return c.multiNodeAllReduce(); }

CollectiveCost treeEstimate(CollectiveContext& c)
{
    Candidate tree = treeShaped(c, Algorithm::Tree, c.chainGBps() / 2.0);
    tree.intraSteps = 2 * (c.maxLocal - 1);
    tree.interSteps = 2 * ceilLog2(c.nodeCount);
    tree.tuner = treeTunerLatencyUs(c.maxLocal, c.nodeCount, tree.pattern.intraClass);
    return c.price(tree);
}

// NVLink SHARP in one node: every GPU sends its S bytes to the switch, which reduces them and
// multicasts the S reduced bytes back, so each GPU moves S per direction (a ring moves
// 2(n-1)/n S): algbw = B_nvls. nccl-tests still reports busbw = algbw * 2(n-1)/n, which is why
// NVLS busbw exceeds the NVLink rate (docs/cost-model.md). Simple protocol only, as in NCCL; two
// latency steps (reduce, multicast). NVLS reduce-scatter (each GPU pulls its reduced slice: the
// switch reads the other GPUs' parts of it) and all-gather (each GPU multicasts its slice): each
// GPU moves (n-1)/n S one way, one step. NCCL runs both since 2.19.
bool nvlsApplies(const CollectiveContext& c) { return c.nvlsFabric && c.nodeCount == 1 && isAllReduceOrHalf(c.kind); }

CollectiveCost nvlsEstimate(CollectiveContext& c)
{
    const bool allReduce = c.kind == OpKind::AllReduce;
    return c.price({.algorithm = Algorithm::Nvls,
                    .intraSteps = allReduce ? 2 : 1,
                    .interSteps = 0,
                    .movedBytes = allReduce ? c.S : (c.dn - 1) / c.dn * c.S,
                    .gbps = c.nvlsGBps,
                    .pattern = c.ringPattern(),
                    .simpleOnly = true});
}

// NVLS-tree across nodes: NVLS inside each node, a tree between the nodes, pipelined:
// algbw = min(B_nvls, B_net / k) with k as for the tree. It reduces inside each node first: NCCL
// uses it only with at least two GPUs per node. At medium sizes its pipeline does not fill
// (nvlsTreeFillUs): one NVLS head per NIC.
bool nvlsTreeApplies(const CollectiveContext& c) { return c.nvlsFabric && c.multiNodeAllReduce() && c.minLocal >= 2; }

CollectiveCost nvlsTreeEstimate(CollectiveContext& c)
{
    Candidate tree = treeShaped(c, Algorithm::NvlsTree, c.nvlsGBps);
    tree.intraSteps = 2;
    tree.interSteps = 2 * ceilLog2(c.nodeCount);
    tree.simpleOnly = true;
    tree.tuner = nvlsTreeTunerLatencyUs(c.nodeCount);
    tree.fillUs =
        nvlsTreeFillUs(c.bytes, c.state.crossNodeChannels(c.nodes), c.nodeCount, c.nvlsGBps, c.nodeNetwork().first);
    return c.price(tree);
}

// Hierarchical across nodes (on request only: NCCL has no such algorithm, so Auto, which stands
// for NCCL's tuner, never picks it): all-reduce = reduce-scatter in each node, an all-reduce of
// each slice between the nodes on one ring per local index (all rails at once), all-gather in
// each node, one phase after the other; reduce-scatter keeps the first half (the slices between
// nodes reduce-scattered, (N-1)/N of a slice), all-gather the mirror image. The rails' bandwidth
// is that of the local indices every node has.
bool hierarchicalApplies(const CollectiveContext& c)
{
    return c.nodeCount >= 2 && c.maxLocal > 1 && isAllReduceOrHalf(c.kind);
}

CollectiveCost hierarchicalEstimate(CollectiveContext& c)
{
    const bool both = c.kind == OpKind::AllReduce;
    double intraUs = 0;
    int intraSteps = 0;
    for (auto& [node, ranks] : c.nodes) {
        double us = 0;
        int steps = 0;
        if (c.kind != OpKind::AllGather) {
            const CollectiveCost rs = c.model.collective(OpKind::ReduceScatter, c.bytes, ranks, Algorithm::Ring);
            us += rs.timeUs;
            steps += rs.steps;
        }
        if (c.kind != OpKind::ReduceScatter) {
            const CollectiveCost ag = c.model.collective(OpKind::AllGather, c.bytes, ranks, Algorithm::Ring);
            us += ag.timeUs;
            steps += ag.steps;
        }
        if (us > intraUs) {
            intraUs = us;
            intraSteps = steps;
        }
    }
    // Between the nodes, node i (L_i of the n ranks) sends the part of the buffer that the other
    // nodes' ranks end with, (n - L_i)/n S, over its L_i rails; the busiest node sets the time:
    // max_i (n - L_i) / (n L_i) S, which is (N-1)/N S/L for N equal nodes of L.
    double perRail = 0;
    for (auto& [node, ranks] : c.nodes) {
        const double l = static_cast<double>(ranks.size());
        perRail = std::max(perRail, (c.dn - l) / (c.dn * l) * c.S);
    }
    const PatternCost pc =
        pattern(c.state.router, c.state.effective,
                c.model.patternFlows(OpKind::AllReduce, c.patternGroup(), Algorithm::Hierarchical, c.root));
    CollectiveCost cost = c.price({.algorithm = Algorithm::Hierarchical,
                                   .intraSteps = 0,
                                   .interSteps = (both ? 2 : 1) * (c.nodeCount - 1),
                                   .movedBytes = (both ? 2.0 : 1.0) * perRail,
                                   .gbps = pc.gbps,
                                   .pattern = pc});
    cost.timeUs += intraUs;
    cost.steps += intraSteps;
    return cost;
}

constexpr AlgorithmRow kAlgorithms[] = {
    {Algorithm::Ring, true, ringApplies, ringEstimate},
    {Algorithm::Direct, false, directApplies, directEstimate},
    {Algorithm::Tree, true, treeApplies, treeEstimate},
    {Algorithm::Nvls, true, nvlsApplies, nvlsEstimate},
    {Algorithm::NvlsTree, true, nvlsTreeApplies, nvlsTreeEstimate},
    {Algorithm::Hierarchical, false, hierarchicalApplies, hierarchicalEstimate},
};

} // namespace

std::span<const AlgorithmRow> collectiveAlgorithms() { return kAlgorithms; }

} // namespace shardlab::detail
