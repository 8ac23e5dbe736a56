#include "shardlab/live/machine_topology.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace shardlab {
namespace {

constexpr double kAssumedInterBridgeGBps = 64.0;                     // not reported by NVML: a typical UPI/xGMI figure
constexpr double kNvLinkLat = 0.2, kPcieLat = 0.5, kSocketLat = 0.8; // as the presets

int rankOf(PathClass c)
{
    switch (c) {
    case PathClass::Self: return 0;
    case PathClass::NvLink:
    case PathClass::Pix: return 1;
    case PathClass::Pxb: return 2;
    case PathClass::Phb: return 3;
    case PathClass::Node: return 4;
    case PathClass::Sys:
    case PathClass::Net:
    case PathClass::None: return 5;
    }
    return 5;
}

// Connected components of GPUs joined by a class no wider than `level`.
std::vector<int> clusters(const MachineFacts& f, int level)
{
    const int n = static_cast<int>(f.gpus.size());
    std::vector<int> id(static_cast<size_t>(n));
    std::iota(id.begin(), id.end(), 0);
    auto find = [&](int x) {
        while (id[static_cast<size_t>(x)] != x)
            x = id[static_cast<size_t>(x)] = id[static_cast<size_t>(id[static_cast<size_t>(x)])];
        return x;
    };
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            if (rankOf(f.pcie[static_cast<size_t>(a)][static_cast<size_t>(b)]) <= level)
                id[static_cast<size_t>(find(a))] = find(b);
    // renumber 0..k-1 in order of first GPU
    std::map<int, int> dense;
    std::vector<int> out(static_cast<size_t>(n));
    for (int a = 0; a < n; ++a)
        out[static_cast<size_t>(a)] = dense.emplace(find(a), static_cast<int>(dense.size())).first->second;
    return out;
}

} // namespace

PathClass pathClassFromNvmlLevel(int level)
{
    if (level <= 10)
        return PathClass::Pix;
    if (level <= 20)
        return PathClass::Pxb;
    if (level <= 30)
        return PathClass::Phb;
    if (level <= 40)
        return PathClass::Node;
    return PathClass::Sys;
}

double pcieLaneGBps(int generation)
{
    switch (generation) {
    case 1: return 0.25;
    case 2: return 0.5;
    case 3: return 0.985;
    case 4: return 1.969;
    case 5: return 3.938;
    case 6: return 7.563;
    default: return 0;
    }
}

double nvlinkLinkGBps(int version)
{
    switch (version) {
    case 1: return 20;
    case 2:
    case 3:
    case 4: return 25;
    case 5: return 50;
    default: return 25;
    }
}

int fp32LanesPerSm(int major, int minor)
{
    if (major == 8 && minor == 0)
        return 64; // A100
    if (major <= 7)
        return 64; // Volta, Turing
    return 128;    // GA10x, Ada, Hopper, Blackwell
}

Topology topologyFromMachine(const MachineFacts& f)
{
    Topology t;
    t.name = f.name.empty() ? "this machine" : f.name;
    t.source = f.source;
    const int n = static_cast<int>(f.gpus.size());
    const std::vector<int> pix = clusters(f, 1), pxb = clusters(f, 2), phb = clusters(f, 3), node = clusters(f, 4);
    for (int i = 0; i < n; ++i) {
        const MachineGpu& g = f.gpus[static_cast<size_t>(i)];
        t.gpus.push_back({"gpu" + std::to_string(i), g.name, g.memory, g.tflops, g.memBandwidthGBps, 0,
                          node[static_cast<size_t>(i)]});
    }
    auto pcieOf = [&](int gpu) {
        const double bw = f.gpus[static_cast<size_t>(gpu)].pcieGBps;
        return bw > 0 ? bw : 16 * pcieLaneGBps(4);
    };
    // NVLink: a fabric vertex for links into NVSwitch, bundles for direct links.
    bool fabric = false;
    for (int i = 0; i < n && i < static_cast<int>(f.switchLinks.size()); ++i)
        fabric = fabric || f.switchLinks[static_cast<size_t>(i)] > 0;
    if (fabric) {
        t.switches.push_back({"nvswitch", SwitchKind::NvSwitch, 0, 0});
        for (int i = 0; i < n && i < static_cast<int>(f.switchLinks.size()); ++i) {
            const int c = f.switchLinks[static_cast<size_t>(i)];
            if (c > 0)
                t.links.push_back(
                    {"gpu" + std::to_string(i), "nvswitch", LinkKind::NvLink, c, c * f.nvlinkGBps, kNvLinkLat});
        }
    }
    for (int a = 0; a < n && a < static_cast<int>(f.nvlinks.size()); ++a)
        for (int b = a + 1; b < n && b < static_cast<int>(f.nvlinks[static_cast<size_t>(a)].size()); ++b) {
            const int c = f.nvlinks[static_cast<size_t>(a)][static_cast<size_t>(b)];
            if (c > 0)
                t.links.push_back({"gpu" + std::to_string(a), "gpu" + std::to_string(b), LinkKind::NvLink, c,
                                   c * f.nvlinkGBps, kNvLinkLat});
        }
    // PCIe tree, bottom up. Each PIX cluster gets a leaf switch.
    std::map<int, std::string> leaf, top, bridge;
    std::map<int, double> leafBw;
    for (int i = 0; i < n; ++i) {
        const int c = pix[static_cast<size_t>(i)];
        if (!leaf.count(c)) {
            leaf[c] = "pcie" + std::to_string(c);
            t.switches.push_back({leaf[c], SwitchKind::PcieSwitch, 0, node[static_cast<size_t>(i)]});
        }
        leafBw[c] = std::max(leafBw[c], pcieOf(i));
        t.links.push_back({"gpu" + std::to_string(i), leaf[c], LinkKind::Pcie, 1, pcieOf(i), kPcieLat});
    }
    // PXB clusters holding several leaves get a parent switch; a single leaf is its own top.
    std::map<int, std::vector<int>> leavesOf;
    std::map<int, int> firstGpuOfLeaf;
    for (int i = 0; i < n; ++i) {
        auto& v = leavesOf[pxb[static_cast<size_t>(i)]];
        const int c = pix[static_cast<size_t>(i)];
        if (std::find(v.begin(), v.end(), c) == v.end()) {
            v.push_back(c);
            firstGpuOfLeaf[c] = i;
        }
    }
    std::map<int, int> firstGpuOfTop;
    for (const auto& [cluster, leaves] : leavesOf) {
        const int gpu = firstGpuOfLeaf[leaves.front()];
        firstGpuOfTop[cluster] = gpu;
        if (leaves.size() == 1) {
            top[cluster] = leaf[leaves.front()];
            continue;
        }
        top[cluster] = "pcie-bridge" + std::to_string(cluster);
        t.switches.push_back({top[cluster], SwitchKind::PcieSwitch, 0, node[static_cast<size_t>(gpu)]});
        for (int l : leaves)
            t.links.push_back({leaf[l], top[cluster], LinkKind::Pcie, 1, leafBw[l], kPcieLat});
    }
    // Host bridges: one CPU vertex per PHB cluster, above the tops of its PXB clusters.
    std::map<int, std::vector<int>> topsOf;
    for (int i = 0; i < n; ++i) {
        auto& v = topsOf[phb[static_cast<size_t>(i)]];
        const int c = pxb[static_cast<size_t>(i)];
        if (std::find(v.begin(), v.end(), c) == v.end())
            v.push_back(c);
    }
    std::map<int, int> firstGpuOfBridge;
    for (const auto& [cluster, tops] : topsOf) {
        const int gpu = firstGpuOfTop[tops.front()];
        firstGpuOfBridge[cluster] = gpu;
        bridge[cluster] = "cpu" + std::to_string(cluster);
        t.switches.push_back({bridge[cluster], SwitchKind::Cpu, 0, node[static_cast<size_t>(gpu)]});
        for (int c : tops)
            t.links.push_back({top[c], bridge[cluster], LinkKind::Pcie, 1, pcieOf(firstGpuOfTop[c]), kPcieLat});
    }
    // Host bridges of one NUMA node join the node's first bridge (same socket: NODE); the first
    // bridge of every other node joins the first node's (different sockets: SYS).
    std::map<int, std::string> nodeBridge;
    for (const auto& [cluster, gpu] : firstGpuOfBridge) {
        const int nd = node[static_cast<size_t>(gpu)];
        auto [it, inserted] = nodeBridge.emplace(nd, bridge[cluster]);
        if (!inserted)
            t.links.push_back(
                {it->second, bridge[cluster], LinkKind::CrossSocket, 1, kAssumedInterBridgeGBps, kSocketLat});
    }
    for (const auto& [nd, b] : nodeBridge)
        if (nd != nodeBridge.begin()->first)
            t.links.push_back(
                {nodeBridge.begin()->second, b, LinkKind::CrossSocket, 1, kAssumedInterBridgeGBps, kSocketLat});
    return t;
}

} // namespace shardlab
