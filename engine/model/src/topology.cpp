#include "shardlab/model/topology.h"

#include "shardlab/base/physical_ranges.h"
#include "shardlab/base/short_list.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace shardlab {

std::optional<int> Topology::vertexOf(const std::string& id) const
{
    for (size_t i = 0; i < gpus.size(); ++i)
        if (gpus[i].id == id)
            return static_cast<int>(i);
    for (size_t i = 0; i < switches.size(); ++i)
        if (switches[i].id == id)
            return static_cast<int>(gpus.size() + i);
    return std::nullopt;
}

const std::string& Topology::vertexId(int vertex) const
{
    if (isGpu(vertex))
        return gpus[static_cast<size_t>(vertex)].id;
    return switches[static_cast<size_t>(vertex) - gpus.size()].id;
}

int Topology::nodeOf(int vertex) const
{
    if (isGpu(vertex))
        return gpus[static_cast<size_t>(vertex)].node;
    return switches[static_cast<size_t>(vertex) - gpus.size()].node;
}

int Topology::nodeCount() const
{
    std::set<int> nodes;
    for (const Gpu& g : gpus)
        nodes.insert(g.node);
    return static_cast<int>(nodes.size());
}

Topology Topology::firstGpus(int n) const
{
    Topology t = *this;
    if (n >= rankCount() || n < 0)
        return t;
    t.gpus.resize(static_cast<size_t>(n));
    // Keep the hardware of the nodes that still have GPUs; keep the network fabric only when the
    // remaining GPUs span several nodes.
    std::set<int> nodes;
    for (const Gpu& g : t.gpus)
        nodes.insert(g.node);
    std::erase_if(t.switches, [&](const SwitchNode& s) {
        if (s.node < 0)
            return nodes.size() < 2;
        return nodes.count(s.node) == 0;
    });
    std::unordered_set<std::string> kept;
    for (const Gpu& g : t.gpus)
        kept.insert(g.id);
    for (const SwitchNode& s : t.switches)
        kept.insert(s.id);
    std::erase_if(t.links, [&](const Link& l) { return !kept.count(l.a) || !kept.count(l.b); });
    t.name = name + " (first " + std::to_string(n) + ")";
    return t;
}

const char* switchKindName(SwitchKind kind)
{
    switch (kind) {
    case SwitchKind::NvSwitch: return "nvswitch";
    case SwitchKind::PcieSwitch: return "pcie-switch";
    case SwitchKind::Cpu: return "cpu";
    case SwitchKind::Nic: return "nic";
    case SwitchKind::NetworkSwitch: return "net-switch";
    }
    return "?";
}

const char* linkKindName(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink: return "nvlink";
    case LinkKind::Pcie: return "pcie";
    case LinkKind::CrossSocket: return "cross-socket";
    case LinkKind::Network: return "network";
    }
    return "?";
}

std::optional<SwitchKind> switchKindFromName(std::string_view name)
{
    for (SwitchKind k :
         {SwitchKind::NvSwitch, SwitchKind::PcieSwitch, SwitchKind::Cpu, SwitchKind::Nic, SwitchKind::NetworkSwitch})
        if (name == switchKindName(k))
            return k;
    return std::nullopt;
}

std::optional<LinkKind> linkKindFromName(std::string_view name)
{
    for (LinkKind k : {LinkKind::NvLink, LinkKind::Pcie, LinkKind::CrossSocket, LinkKind::Network})
        if (name == linkKindName(k))
            return k;
    return std::nullopt;
}

namespace {

// "PATH: what" of a topology checked in memory (error.at_path); a reader puts its file in front.
Error badTopologyAt(const std::string& path, Message what)
{
    return badInput(Message("error.at_path").with("path", path).with("what", std::move(what)));
}

// A rate as a message shows it: "%g" (1e-305, 250), never 300 digits.
std::string formatRate(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// Routing never crosses the hardware of a node other than the two it joins (routing.h), so a GPU
// joined to another node's switch, or a switch on a node without GPUs, leaves ranks that reach no
// one: both are refused here, by name, instead of being priced as instantaneous.
Status checkNodes(const Topology& t)
{
    std::set<int> gpuNodes;
    for (const Gpu& g : t.gpus)
        gpuNodes.insert(g.node);
    const auto at = [](const char* list, size_t i) {
        return "$.topology." + std::string(list) + "[" + std::to_string(i) + "]";
    };
    const std::vector<std::pair<int, int>> ends = linkVertices(t);
    for (size_t i = 0; i < t.links.size(); ++i) {
        auto [a, b] = ends[i];
        if (a < 0 || b < 0 || t.isGpu(a) == t.isGpu(b))
            continue;
        if (!t.isGpu(a))
            std::swap(a, b);
        const int gpuNode = t.nodeOf(a), switchNode = t.nodeOf(b);
        if (switchNode >= 0 && switchNode != gpuNode)
            return badTopologyAt(at("links", i), Message("error.says.gpu_to_other_node")
                                                     .with("gpu", t.vertexId(a))
                                                     .with("gpu_node", std::to_string(gpuNode))
                                                     .with("switch", t.vertexId(b))
                                                     .with("switch_node", std::to_string(switchNode)));
    }
    for (size_t i = 0; i < t.switches.size(); ++i) {
        const SwitchNode& s = t.switches[i];
        if (s.node < 0 || gpuNodes.count(s.node))
            continue;
        std::vector<std::string> nodes;
        for (int n : gpuNodes)
            nodes.push_back(std::to_string(n));
        return badTopologyAt(at("switches", i) + ".node", Message("error.says.switch_without_gpu")
                                                              .with("switch", s.id)
                                                              .with("node", std::to_string(s.node))
                                                              .with("nodes", shortList(nodes, 8)));
    }
    return {};
}

} // namespace

Status validateTopology(const Topology& t)
{
    if (t.gpus.empty())
        return badTopologyAt("$.topology.gpus", Message("error.says.no_gpu"));
    if (t.gpus.size() > static_cast<size_t>(kMaxTopologyGpus))
        return badTopologyAt("$.topology.gpus", Message("error.says.too_many_gpus")
                                                    .with("count", std::to_string(t.gpus.size()))
                                                    .with("max", std::to_string(kMaxTopologyGpus)));
    // Ids viewed, not copied, and each element's JSON path written only for an error: a topology of
    // 65,536 GPUs has some 300,000 links.
    std::unordered_set<std::string_view> ids;
    ids.reserve(t.gpus.size() + t.switches.size());
    const auto at = [](const char* list, size_t i) {
        return "$.topology." + std::string(list) + "[" + std::to_string(i) + "]";
    };
    for (size_t i = 0; i < t.gpus.size(); ++i) {
        const Gpu& g = t.gpus[i];
        if (g.id.empty())
            return badTopologyAt(at("gpus", i) + ".id",
                                 Message("error.json.empty")
                                     .with("expected", Message("error.expects.unique_name_such_as")
                                                           .with("example", "\"gpu" + std::to_string(i) + "\"")));
        if (!ids.insert(g.id).second)
            return badTopologyAt(at("gpus", i) + ".id", Message("error.says.used_twice")
                                                            .with("value", g.id)
                                                            .with("expected", Message("error.expects.unique_ids")));
        if (g.memory == 0)
            return badTopologyAt(at("gpus", i) + ".memory",
                                 Message("error.says.zero").with("expected", Message("error.expected.memory")));
        if (g.memory < kMinGpuMemory || g.memory > kMaxBytes)
            return badTopologyAt(at("gpus", i) + ".memory",
                                 Message("error.says.value_bytes")
                                     .with("value", std::to_string(g.memory))
                                     .with("expected", Message("error.expects.memory_range")));
        if (!(g.tflops >= kMinTflops) || g.tflops > kMaxTflops)
            return badTopologyAt(at("gpus", i) + ".tflops", Message("error.says.value_expected")
                                                                .with("value", formatRate(g.tflops))
                                                                .with("expected", Message("error.expects.tflops")));
        if (g.memBandwidthGBps < 0)
            return badTopologyAt(at("gpus", i) + ".mem_bandwidth", Message("error.says.negative"));
        if (g.memBandwidthGBps != 0
            && !(g.memBandwidthGBps >= kMinBandwidthGBps && g.memBandwidthGBps <= kMaxBandwidthGBps))
            return badTopologyAt(at("gpus", i) + ".mem_bandwidth", Message("error.says.bandwidth"));
    }
    for (size_t i = 0; i < t.switches.size(); ++i) {
        if (t.switches[i].id.empty())
            return badTopologyAt(at("switches", i) + ".id",
                                 Message("error.json.empty").with("expected", Message("error.expects.unique_name")));
        if (!ids.insert(t.switches[i].id).second)
            return badTopologyAt(at("switches", i) + ".id", Message("error.says.used_twice")
                                                                .with("value", t.switches[i].id)
                                                                .with("expected", Message("error.expects.unique_ids")));
    }
    for (size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        if (!ids.count(l.a))
            return badTopologyAt(at("links", i) + ".from", Message("error.says.not_in_topology").with("value", l.a));
        if (!ids.count(l.b))
            return badTopologyAt(at("links", i) + ".to", Message("error.says.not_in_topology").with("value", l.b));
        if (l.a == l.b)
            return badTopologyAt(at("links", i), Message("error.says.self_link").with("value", l.a));
        if (!(l.bandwidthGBps >= kMinBandwidthGBps) || l.bandwidthGBps > kMaxBandwidthGBps)
            return badTopologyAt(at("links", i) + ".bandwidth", Message("error.says.bandwidth"));
        if (!(l.latencyUs >= 0) || l.latencyUs > kMaxLatencyUs)
            return badTopologyAt(at("links", i) + ".latency_us", Message("error.says.latency"));
        if (l.count < 1 || l.count > 1024)
            return badTopologyAt(at("links", i) + ".count",
                                 Message("error.says.link_count").with("lo", "1").with("hi", "1024"));
    }
    return checkNodes(t);
}

std::vector<std::pair<int, int>> linkVertices(const Topology& t)
{
    std::unordered_map<std::string_view, int> vertex;
    vertex.reserve(static_cast<size_t>(t.vertexCount()));
    for (int v = 0; v < t.vertexCount(); ++v)
        vertex.emplace(t.vertexId(v), v);
    std::vector<std::pair<int, int>> ends;
    ends.reserve(t.links.size());
    for (const Link& l : t.links) {
        const auto a = vertex.find(l.a), b = vertex.find(l.b);
        ends.emplace_back(a == vertex.end() ? -1 : a->second, b == vertex.end() ? -1 : b->second);
    }
    return ends;
}

std::vector<int> connectedParts(const Topology& t)
{
    // union-find with path halving
    std::vector<int> parent(static_cast<size_t>(t.vertexCount()));
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int v) {
        while (parent[static_cast<size_t>(v)] != v) {
            parent[static_cast<size_t>(v)] = parent[static_cast<size_t>(parent[static_cast<size_t>(v)])];
            v = parent[static_cast<size_t>(v)];
        }
        return v;
    };
    for (const auto& [a, b] : linkVertices(t))
        if (a >= 0 && b >= 0)
            parent[static_cast<size_t>(find(a))] = find(b);
    std::vector<int> part(parent.size());
    for (size_t v = 0; v < part.size(); ++v)
        part[v] = find(static_cast<int>(v));
    return part;
}

} // namespace shardlab
