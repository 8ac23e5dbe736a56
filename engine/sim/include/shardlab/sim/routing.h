// Routes between ranks and the bandwidth a set of simultaneous transfers really gets.
//
// A route is the widest path (largest bottleneck bandwidth, then least latency, then fewest hops)
// that never passes through a third GPU and never through the hardware of a third node.
// When several transfers run at once (the n hops of a ring), each direction of each link is
// shared equally by the transfers that cross it, so two GPUs behind one PCIe switch that both
// send upstream get half of its uplink each.
#pragma once

#include "shardlab/model/topology.h"

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace shardlab {

struct Hop {
    int link = 0;          // index into Topology::links
    bool forward = true;   // true: a -> b
};

struct Route {
    int from = 0, to = 0;  // vertices
    std::vector<Hop> hops;
    double bottleneckGBps = 0;  // slowest link on the route, alone
    double latencyUs = 0;       // sum of link latencies
    bool valid() const { return !hops.empty() || from == to; }
};

struct Flow {
    int from = 0, to = 0; // ranks
    double weight = 1.0;  // share of the data this flow carries relative to the others
};

struct FlowSetResult {
    std::vector<double> flowGBps;  // bandwidth each flow gets when all run together
    double minGBps = 0;            // the slowest flow
    int bottleneckLink = -1;       // link limiting the slowest flow
    double maxLatencyUs = 0;       // the longest route
    bool connected = true;
};

class Router {
public:
    // Keeps a reference: the topology must outlive the router.
    explicit Router(const Topology& topology);
    const Topology& topology() const { return m_topology; }

    // Cached. An invalid route (empty, from != to) means the two are not connected.
    const Route& route(int fromVertex, int toVertex);

    // Simultaneous transfers; see the file comment for the sharing rule.
    FlowSetResult shareLinks(const std::vector<Flow>& flows);

private:
    Route compute(int from, int to, bool throughFabric) const;

    const Topology& m_topology;
    std::vector<std::vector<std::pair<int, int>>> m_adjacency; // vertex -> (link, neighbour)
    std::vector<int> m_vertexNode;
    std::vector<std::pair<int, int>> m_linkEnds; // link -> (vertex a, vertex b)
    std::unordered_map<std::uint64_t, Route> m_cache;
    std::vector<std::array<double, 2>> m_load; // scratch for shareLinks
    struct Label {
        double bw = -1;
        double lat = 0;
        int hops = 0;
        int prevLink = -1;
        int prev = -1;
        bool done = false;
    };
    mutable std::vector<Label> m_labels;       // scratch for compute()
    mutable std::vector<int> m_labelTouched;
    std::vector<int> m_touched;
};

// Bandwidth between a GPU and its host memory: the widest route to a CPU of its node (what
// unified memory pages over). 0 when the GPU reaches no CPU.
double hostLinkGBps(const Topology& topology, int rank);

} // namespace shardlab
