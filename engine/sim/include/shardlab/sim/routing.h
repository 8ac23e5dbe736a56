// Routes between ranks and the bandwidth a set of simultaneous transfers really gets.
//
// A route is the widest path (largest bottleneck bandwidth, then least latency, then fewest hops)
// that never passes through a third GPU and never through the hardware of a third node.
// When several transfers run at once (the n hops of a ring), each direction of each link is
// shared equally by the transfers that cross it, so two GPUs behind one PCIe switch that both
// send upstream get half of its uplink each.
//
// Cost of one route: a widest-path search over the switches of the two GPUs' nodes and the
// fabric between them, O((S + L) log S) for S such switches and L links among them. GPUs other
// than the destination are never expanded (they do not forward), so a switch with n GPUs behind it
// costs O(1) per route rather than O(n): one route through a 65,536-GPU switch is a few steps.
#pragma once

#include "shardlab/model/topology.h"

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace shardlab {

struct Hop {
    int link = 0;        // index into Topology::links
    bool forward = true; // true: a -> b
};

struct Route {
    int from = 0, to = 0; // vertices
    std::vector<Hop> hops;
    double bottleneckGBps = 0; // slowest link on the route, alone
    double latencyUs = 0;      // sum of link latencies
    bool valid() const { return !hops.empty() || from == to; }
};

struct Flow {
    int from = 0, to = 0; // ranks
    double weight = 1.0;  // share of the data this flow carries relative to the others
};

struct FlowSetResult {
    std::vector<double> flowGBps; // bandwidth each flow gets when all run together
    double minGBps = 0;           // the slowest flow
    int bottleneckLink = -1;      // link limiting the slowest flow
    double maxLatencyUs = 0;      // the longest route
    bool connected = true;
};

class Router {
public:
    // Keeps a reference: the topology must outlive the router.
    explicit Router(const Topology& topology);
    const Topology& topology() const { return m_topology; }
    // The vertices a link joins, (a, b) as Link::a and Link::b; (-1, -1) for a link to an unknown id.
    std::pair<int, int> linkEnds(int link) const { return m_linkEnds[static_cast<size_t>(link)]; }

    // Cached. An invalid route (empty, from != to) means the two are not connected.
    const Route& route(int fromVertex, int toVertex);

    // The NIC (vertex) a GPU sends to and receives from other nodes through, its home NIC; -1
    // where its node has none. Computed for a whole node the first time one of its GPUs is asked.
    int homeNic(int gpu);

    // Simultaneous transfers; see the file comment for the sharing rule.
    FlowSetResult shareLinks(const std::vector<Flow>& flows);

    // Bandwidth and latency of route(from, t) for each of `targets`, GPUs of from's node, from one
    // search instead of one per target, and without caching the routes: O((V + E) log V) for the
    // V vertices and E links of the node. Pairs of `targets` equal to `from` get {inf, 0}.
    struct Reach {
        double bottleneckGBps = 0; // 0 when not connected, as route()
        double latencyUs = 0;
    };
    std::vector<Reach> reachWithinNode(int from, const std::vector<int>& targets);

    // Classes of interchangeable GPUs among `ranks` (GPUs of one node): two GPUs are in one class
    // when neither has a link to a GPU and their links match one for one (same switch, class,
    // count, bandwidth and latency). Swapping two such GPUs maps the machine onto itself, so
    // route(x, a) and route(x, b) have the same bandwidth, latency and hop count for every third
    // vertex x, and so do route(a, x) and route(b, x). Returns each rank's class, numbered in order
    // of first appearance. O(sum of their links x log).
    std::vector<int> interchangeableClasses(const std::vector<int>& ranks) const;

private:
    // The search behind route() (to >= 0) and reachWithinNode() (to = -1: every vertex of from's
    // node, no early stop). Leaves its labels in m_labels until the next search.
    void search(int from, int to, bool throughFabric) const;
    Route compute(int from, int to, bool throughFabric) const;

    const Topology& m_topology;
    std::vector<std::vector<std::pair<int, int>>> m_adjacency; // vertex -> (link, neighbour), by link
    // vertex -> its links to switches (never to GPUs), sorted by the neighbour's node, then by link:
    // a search takes only the ranges of the nodes it may enter (the fabric has every node's NICs).
    struct Step {
        int node = 0;
        int link = 0;
        int to = 0;
    };
    std::vector<std::vector<Step>> m_toSwitches;
    std::vector<int> m_vertexNode;
    std::vector<std::pair<int, int>> m_linkEnds; // link -> (vertex a, vertex b)
    std::unordered_map<std::uint64_t, Route> m_cache;
    std::vector<int> m_homeNic; // GPU -> its NIC vertex, -1 none, -2 not computed
    std::unordered_map<int, std::pair<std::vector<int>, std::vector<int>>> m_nodeGpusNics; // node -> (GPUs, NICs)
    std::vector<std::array<double, 2>> m_load;                                             // scratch for shareLinks
    struct Label {
        double bw = -1;
        double lat = 0;
        int hops = 0;
        int prevLink = -1;
        int prev = -1;
        bool done = false;
    };
    mutable std::vector<Label> m_labels; // scratch for compute()
    mutable std::vector<int> m_labelTouched;
    std::vector<int> m_touched;
};

// Bandwidth between a GPU and its host memory: the widest route to a CPU of its node (what
// unified memory pages over). 0 when the GPU reaches no CPU.
double hostLinkGBps(const Topology& topology, int rank);
// The same for several ranks, with one router: O(V + E) once, then one route per rank and CPU.
std::vector<double> hostLinkGBps(const Topology& topology, const std::vector<int>& ranks);

} // namespace shardlab
