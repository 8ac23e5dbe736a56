// What a CostModel keeps between calls: the links as the model sees them, the router over them,
// ring orders, nodes that are copies, the NICs and NVLink SHARP ports, and the priced collectives.
#pragma once

#include "node_copies.h"
#include "ring_order.h"

#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/routing.h"

#include <map>
#include <vector>

namespace shardlab::detail {

struct CostModelState {
    CostModelState(const Topology& t, const CostProfile& p);

    Topology effective; // links derated by their class's efficiency
    Router router;
    RingOrders rings;
    NodeCopies copies;
    std::map<int, int> nicsByNode; // node -> its NICs
    // rank -> nominal bandwidth (per direction) of its NVLink into an NVSwitch with NVLink SHARP;
    // 0 where it has none
    std::vector<double> nvlsPortGBps;
    std::vector<int> gpuGeneration; // rank -> ncclGeneration() of its GPU

    struct Key {
        int kind, algorithm, root;
        Bytes bytes;
        std::vector<int> group;
        std::vector<Bytes> pieces;
        auto operator<=>(const Key&) const = default;
    };
    std::map<Key, CollectiveCost> cache;

    // The ring order over `group` (RingOrders), and its rings, one per channel (ringChannelFlows).
    const std::vector<int>& ringOrder(const std::vector<int>& group);
    std::vector<Flow> ringChannels(const std::vector<int>& members);

    int nicsPerNode(int node) const;
    // Channels across nodes, as NCCL's graph search finds them where the NICs limit: one per NIC
    // (the fewest NICs, or ranks, of any node); 1 inside one node.
    int crossNodeChannels(const std::map<int, std::vector<int>>& nodes) const;
    // The NCCL generation of a group (ncclGeneration()): its oldest GPU's, as NCCL takes the
    // lowest compute capability of the communicator; kUnknownGeneration when any GPU is unknown.
    int groupGeneration(const std::vector<int>& group) const;
};

} // namespace shardlab::detail
