// The rings the cost model prices: the order of a group's ranks (each node's ranks together, in
// the best cyclic order the node's routes allow) and one ring per channel across nodes, entering
// each node where NCCL's ring search would place it on the NICs.
#pragma once

#include "shardlab/model/topology.h"
#include "shardlab/sim/routing.h"

#include <map>
#include <vector>

namespace shardlab::detail {

// Ring orders found so far: by group, and each node's solved order by the shape of its routes
// (the nodes of a cluster are copies, so one search serves them all).
class RingOrders {
public:
    const std::vector<int>& order(Router& router, const Topology& topo, const std::vector<int>& group);

private:
    std::map<std::vector<int>, std::vector<int>> m_rings;
    // node orders keyed by the bandwidth and latency of every ordered pair of its ranks
    std::map<std::vector<double>, std::vector<int>> m_localByShape;
    // the same for nodes of more than kPairwiseRingRanks ranks, keyed by their classes of
    // interchangeable GPUs and the routes between classes (largeNodeRing())
    std::map<std::vector<double>, std::vector<int>> m_localByClasses;
};

// One ring per channel over `order` (a ring order of the members, grouped `byNode`), each with
// weight 1/channels. Across nodes channel c enters each node at the GPU that keeps its NICs'
// busiest direction lowest; inside a node one ring suffices.
std::vector<Flow> ringChannelFlows(Router& router, const Topology& topo, const std::vector<int>& order,
                                   const std::map<int, std::vector<int>>& byNode, int channels);

} // namespace shardlab::detail
