// The machine: GPUs, switches and the links between them.
//
// A topology is a graph. Its vertices are GPUs (which never forward traffic for others) and
// switch-like devices: NVSwitch fabrics, PCIe switches, CPU sockets (host bridges), NICs and
// network switches. Links carry a bandwidth per direction and a latency. GPU i is rank i.
#pragma once

#include "shardlab/base/units.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shardlab {

enum class SwitchKind { NvSwitch, PcieSwitch, Cpu, Nic, NetworkSwitch };

// The link classes a user sees. NVLink joins a GPU to a GPU or to an NVSwitch, with a link count.
// Pcie joins a GPU or NIC to a PCIe switch, or a PCIe switch to its CPU (the host bridge).
// CrossSocket joins two CPUs (QPI/UPI/xGMI, nvidia-smi's SYS). Network joins a NIC to a network
// switch or to another NIC.
enum class LinkKind { NvLink, Pcie, CrossSocket, Network };

struct Gpu {
    std::string id;   // unique, e.g. "gpu0"; links refer to it
    std::string name; // device name, e.g. "H200"
    Bytes memory = 0;
    double tflops = 0;           // sustained compute rate used for compute phases, TFLOP/s
    double memBandwidthGBps = 0; // HBM: local copies and the receive-only last step of a ring (cost-model.md)
    int node = 0;                // host machine index
    int socket = 0;              // CPU socket / NUMA domain within the node
    bool operator==(const Gpu&) const = default;
};

struct SwitchNode {
    std::string id;
    SwitchKind kind = SwitchKind::PcieSwitch;
    int node = 0; // -1 for network fabric shared by all nodes
    int socket = 0;
    // NVLink SHARP (NVSwitch gen 3 and later with multicast enabled): the switch reduces and
    // multicasts, so NCCL's NVLS and NVLS-tree all-reduce apply to the GPUs on it. Off unless said.
    bool nvls = false;
    bool operator==(const SwitchNode&) const = default;
};

struct Link {
    std::string a, b; // vertex ids
    LinkKind kind = LinkKind::Pcie;
    int count = 1;            // NVLink links bundled together (NV18 = 18)
    double bandwidthGBps = 0; // per direction, for the whole bundle
    double latencyUs = 0;     // one traversal
    bool operator==(const Link&) const = default;
};

struct Topology {
    std::string name;   // preset id or the user's name for it
    std::string source; // where the figures come from
    std::vector<Gpu> gpus;
    std::vector<SwitchNode> switches;
    std::vector<Link> links;

    bool operator==(const Topology&) const = default;

    int rankCount() const { return static_cast<int>(gpus.size()); }
    int vertexCount() const { return static_cast<int>(gpus.size() + switches.size()); }
    // Vertex numbering: GPUs first (vertex i = rank i), then switches.
    std::optional<int> vertexOf(const std::string& id) const;
    const std::string& vertexId(int vertex) const;
    bool isGpu(int vertex) const { return vertex >= 0 && vertex < rankCount(); }
    int nodeOf(int vertex) const;
    int nodeCount() const;

    // The first n GPUs and everything that still connects to them (presets' --gpus N).
    Topology firstGpus(int n) const;
};

const char* switchKindName(SwitchKind kind); // "nvswitch", "pcie-switch", "cpu", "nic", "net-switch"
const char* linkKindName(LinkKind kind);     // "nvlink", "pcie", "cross-socket", "network"
std::optional<SwitchKind> switchKindFromName(std::string_view name);
std::optional<LinkKind> linkKindFromName(std::string_view name);

// Which part of the machine each vertex is in (vertex numbering as Topology::vertexOf): vertices
// that links join, directly or through other vertices, have the same number. Linear in the links.
std::vector<int> connectedParts(const Topology& topology);

// Each link's two vertices (Link::a, Link::b), -1 for an id that names no GPU or switch: one hash
// of the ids (viewed, not copied), O(V + E). Shared by routing and connectedParts.
std::vector<std::pair<int, int>> linkVertices(const Topology& topology);

// The most GPUs a topology may have. Routing, ring search and the simulator are near-linear in the
// GPUs on regular machines (one switch, NVSwitch nodes, nodes on a network switch, PCIe trees), and
// a one-step all-reduce on 65,536 GPUs behind one switch is simulated in about a second on one core
// (bench/bench_routing.cpp); scaling curves (analysis/scaling.h) stop at the same count.
constexpr int kMaxTopologyGpus = 65536;

// Structural checks: at most kMaxTopologyGpus GPUs, unique ids, links between existing vertices,
// positive sizes and bandwidths.
Status validateTopology(const Topology& topology);

} // namespace shardlab
