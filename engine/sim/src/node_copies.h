// Nodes that are copies of each other (CostModel::setNodeSymmetry): same GPUs, switches and links
// in the same order, NICs on the same fabric switches. Where a group's ranks sit at the same
// places of three or more such nodes, the ring, chain and rails patterns load every node's links
// as they load the first two's, so the model prices them on those two (docs/cost-model.md, "Nodes
// that are copies").
#pragma once

#include "shardlab/model/topology.h"
#include "shardlab/sim/routing.h"

#include <map>
#include <unordered_map>
#include <vector>

namespace shardlab::detail {

class NodeCopies {
public:
    // Sorts the nodes of `t` (links as `router` joins them) into classes of copies, O(V + E).
    NodeCopies(const Topology& t, const Router& router);

    // The group's ranks on its first two nodes (ascending) when it spans three or more nodes that
    // are copies holding its ranks at the same places, and symmetry is on; else empty.
    std::vector<int> subgroup(const std::map<int, std::vector<int>>& nodes) const;

    bool on = true; // CostModel::setNodeSymmetry

private:
    // copies apply only where no link joins two nodes or two fabric switches, so every link
    // outside the nodes joins one node to the fabric
    bool m_apply = false;
    std::unordered_map<int, int> m_nodeClass; // node -> its class of copies
    std::vector<int> m_gpuPlace;              // GPU -> its place among its node's GPUs
};

} // namespace shardlab::detail
