// What a pattern of simultaneous transfers costs on the model's links: the bandwidth each gets
// with links shared (Router::shareLinks), its longest route and the link classes it crosses.
#pragma once

#include "shardlab/model/topology.h"
#include "shardlab/sim/routing.h"

#include <map>
#include <vector>

namespace shardlab::detail {

struct PatternCost {
    double gbps = 0;      // per unit of data weight
    double latencyUs = 0; // longest route
    int bottleneckLink = -1;
    LinkKind slowestClass = LinkKind::NvLink;
    bool connected = true;
    // The same split by where the transfers run: between GPUs of one node (intra) and between
    // nodes (inter), as NCCL's tuning model prices a step by the hardware it crosses.
    LinkKind intraClass = LinkKind::NvLink, interClass = LinkKind::Network;
    double intraLatencyUs = 0, interLatencyUs = 0;
};

PatternCost pattern(Router& router, const Topology& topo, const std::vector<Flow>& flows);

// One transfer from each rank of `order` to the next, the last to the first.
std::vector<Flow> ringFlows(const std::vector<int>& order, double weight = 1.0);

// Groups `group` by node, in node order, keeping each node's ranks in ascending order.
std::map<int, std::vector<int>> byNode(const Topology& t, const std::vector<int>& group);

} // namespace shardlab::detail
