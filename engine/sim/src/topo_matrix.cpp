#include "shardlab/sim/topo_matrix.h"

#include "shardlab/sim/routing.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace shardlab {

const char* pathClassDescription(PathClass cls)
{
    switch (cls) {
    case PathClass::Self: return "X    = Self";
    case PathClass::NvLink: return "NV#  = Connection traversing a bonded set of # NVLinks";
    case PathClass::Pix: return "PIX  = Connection traversing at most a single PCIe bridge";
    case PathClass::Pxb: return "PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)";
    case PathClass::Phb: return "PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)";
    case PathClass::Node: return "NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node";
    case PathClass::Sys: return "SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)";
    case PathClass::Net: return "NET  = Connection traversing the network between nodes (ShardLab's addition)";
    case PathClass::None: return "-    = Not connected";
    }
    return "";
}

std::string pathClassLabel(const PairClass& pc)
{
    switch (pc.cls) {
    case PathClass::Self: return "X";
    case PathClass::NvLink: return "NV" + std::to_string(pc.nvlinks);
    case PathClass::Pix: return "PIX";
    case PathClass::Pxb: return "PXB";
    case PathClass::Phb: return "PHB";
    case PathClass::Node: return "NODE";
    case PathClass::Sys: return "SYS";
    case PathClass::Net: return "NET";
    case PathClass::None: return "-";
    }
    return "?";
}

namespace {
int socketOf(const Topology& t, const std::string& id)
{
    const auto v = t.vertexOf(id);
    if (!v)
        return -1;
    return t.isGpu(*v) ? t.gpus[static_cast<size_t>(*v)].socket : t.switches[static_cast<size_t>(*v - t.rankCount())].socket;
}
} // namespace

std::vector<std::vector<PairClass>> classifyPairs(const Topology& t)
{
    const int n = t.rankCount();
    std::vector<std::vector<PairClass>> m(static_cast<size_t>(n), std::vector<PairClass>(static_cast<size_t>(n)));
    // NVLink-only view: a pair is NV# when an all-NVLink route joins it (directly or via NVSwitch).
    Topology nv = t;
    std::erase_if(nv.links, [](const Link& l) { return l.kind != LinkKind::NvLink; });
    // PCIe view: what the pair would use without NVLink, classified like nvidia-smi.
    Topology pcie = t;
    std::erase_if(pcie.links, [](const Link& l) { return l.kind == LinkKind::NvLink || l.kind == LinkKind::Network; });
    Router nvRouter(nv), pcieRouter(pcie);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            PairClass& pc = m[static_cast<size_t>(a)][static_cast<size_t>(b)];
            if (a == b) {
                pc.cls = PathClass::Self;
                continue;
            }
            if (t.gpus[static_cast<size_t>(a)].node != t.gpus[static_cast<size_t>(b)].node) {
                pc.cls = PathClass::Net;
                continue;
            }
            const Route& r = nvRouter.route(a, b);
            if (r.valid() && !r.hops.empty()) {
                pc.cls = PathClass::NvLink;
                pc.nvlinks = 1 << 30;
                for (const Hop& h : r.hops)
                    pc.nvlinks = std::min(pc.nvlinks, nv.links[static_cast<size_t>(h.link)].count);
                continue;
            }
            const Route& p = pcieRouter.route(a, b);
            if (!p.valid() || p.hops.empty()) {
                pc.cls = PathClass::None;
                continue;
            }
            int switches = 0;
            bool cpu = false, socket = false, numa = false;
            for (size_t i = 0; i < p.hops.size(); ++i) {
                const Link& l = pcie.links[static_cast<size_t>(p.hops[i].link)];
                // between host bridges: of one socket (NUMA node) NODE, of two sockets SYS
                if (l.kind == LinkKind::CrossSocket)
                    (socketOf(pcie, l.a) == socketOf(pcie, l.b) ? numa : socket) = true;
                // the vertex this hop arrives at (not the destination GPU)
                if (i + 1 < p.hops.size()) {
                    const std::string& id = p.hops[i].forward ? l.b : l.a;
                    auto v = pcie.vertexOf(id);
                    if (v && !pcie.isGpu(*v)) {
                        const SwitchKind k = pcie.switches[static_cast<size_t>(*v - n)].kind;
                        if (k == SwitchKind::Cpu)
                            cpu = true;
                        else
                            ++switches;
                    }
                }
            }
            pc.cls = socket ? PathClass::Sys
                     : numa ? PathClass::Node
                     : cpu  ? PathClass::Phb
                     : switches > 1 ? PathClass::Pxb
                                    : PathClass::Pix;
        }
    return m;
}

bool sharesFastDomain(const Topology& t)
{
    const auto m = classifyPairs(t);
    for (size_t a = 0; a < m.size(); ++a)
        for (size_t b = 0; b < m.size(); ++b)
            if (a != b && m[a][b].cls != PathClass::NvLink)
                return false;
    return true;
}

std::string formatTopoMatrix(const Topology& t)
{
    const auto m = classifyPairs(t);
    const int n = t.rankCount();
    std::ostringstream out;
    out << "Topology: " << t.name << "\n";
    if (!t.source.empty())
        out << "Source:   " << t.source << "\n";
    out << "\n        ";
    char buf[160];
    for (int b = 0; b < n; ++b) {
        std::snprintf(buf, sizeof buf, "%-7s", ("GPU" + std::to_string(b)).c_str());
        out << buf;
    }
    out << "Node  Device\n";
    std::vector<bool> used(9, false);
    for (int a = 0; a < n; ++a) {
        std::snprintf(buf, sizeof buf, "%-8s", ("GPU" + std::to_string(a)).c_str());
        out << buf;
        for (int b = 0; b < n; ++b) {
            const PairClass& pc = m[static_cast<size_t>(a)][static_cast<size_t>(b)];
            used[static_cast<size_t>(pc.cls)] = true;
            std::snprintf(buf, sizeof buf, "%-7s", pathClassLabel(pc).c_str());
            out << buf;
        }
        const Gpu& g = t.gpus[static_cast<size_t>(a)];
        std::snprintf(buf, sizeof buf, "%-6d%s, %s, %.1f TFLOP/s", g.node, g.name.c_str(), formatBytes(g.memory).c_str(), g.tflops);
        out << buf << "\n";
    }
    out << "\nLegend:\n\n";
    for (int c = 0; c <= static_cast<int>(PathClass::None); ++c)
        if (used[static_cast<size_t>(c)])
            out << "  " << pathClassDescription(static_cast<PathClass>(c)) << "\n";
    out << "\nRoutes (bandwidth per direction of the narrowest link, latency summed over links):\n\n";
    Router router(t);
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            const Route& r = router.route(a, b);
            std::string via;
            for (size_t i = 0; i + 1 < r.hops.size(); ++i) {
                const Link& l = t.links[static_cast<size_t>(r.hops[i].link)];
                via += (via.empty() ? "" : " > ") + (r.hops[i].forward ? l.b : l.a);
            }
            if (!r.valid())
                std::snprintf(buf, sizeof buf, "  GPU%d <-> GPU%d  not connected\n", a, b);
            else
                std::snprintf(buf, sizeof buf, "  GPU%d <-> GPU%d  %8.1f GB/s  %5.2f us  %s\n", a, b, r.bottleneckGBps,
                              r.latencyUs, via.empty() ? "direct" : ("via " + via).c_str());
            out << buf;
        }
    out << "\nThe ranks " << (sharesFastDomain(t) ? "share" : "do not share")
        << " one fast interconnect domain (NVLink/NVSwitch between every pair).\n";
    return out.str();
}

} // namespace shardlab
