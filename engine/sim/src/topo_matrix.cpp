#include "shardlab/sim/topo_matrix.h"

#include "shardlab/sim/routing.h"
#include "shardlab/text/foreign_text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace shardlab {

const char* pathClassKey(PathClass cls)
{
    switch (cls) {
    case PathClass::Self: return "X";
    case PathClass::NvLink: return "NV#";
    case PathClass::Pix: return "PIX";
    case PathClass::Pxb: return "PXB";
    case PathClass::Phb: return "PHB";
    case PathClass::Node: return "NODE";
    case PathClass::Sys: return "SYS";
    case PathClass::Net: return "NET";
    case PathClass::None: return "-";
    }
    return "";
}

std::string pathClassLabel(const PairClass& pc)
{
    // the legend's key, with NVLink's link count in place of its '#'
    if (pc.cls == PathClass::NvLink)
        return "NV" + std::to_string(pc.nvlinks);
    return pathClassKey(pc.cls);
}

Message pathClassMeaning(PathClass cls)
{
    switch (cls) {
    case PathClass::Self: return Message("report.path.self");
    case PathClass::NvLink: return Message("report.path.nvlink");
    case PathClass::Pix: return Message("report.path.pix");
    case PathClass::Pxb: return Message("report.path.pxb");
    case PathClass::Phb: return Message("report.path.phb");
    case PathClass::Node: return Message("report.path.node");
    case PathClass::Sys: return Message("report.path.sys");
    case PathClass::Net: return Message("report.path.net");
    case PathClass::None: return Message("report.path.none");
    }
    return Message("report.path.none");
}

namespace {
int socketOf(const Topology& t, const std::string& id)
{
    const auto v = t.vertexOf(id);
    if (!v)
        return -1;
    return t.isGpu(*v) ? t.gpus[static_cast<size_t>(*v)].socket
                       : t.switches[static_cast<size_t>(*v - t.rankCount())].socket;
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
            pc.cls = socket         ? PathClass::Sys
                     : numa         ? PathClass::Node
                     : cpu          ? PathClass::Phb
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

namespace {

std::string topoWord(const char* id, Language language) { return render(Message(id), language); }

// A line of the legend begins with a capital, as nvidia-smi's does ("NV#  = Connection
// traversing..."); the meaning is worded to sit inside a sentence ("connection traversing...").
std::string legendMeaning(PathClass cls, Language language)
{
    std::string meaning = render(pathClassMeaning(cls), language);
    if (!meaning.empty() && meaning[0] >= 'a' && meaning[0] <= 'z')
        meaning[0] = static_cast<char>(meaning[0] - 'a' + 'A');
    return meaning;
}

} // namespace

// A machine's name or source in `language`, part by part ("; " between them): the machine of a
// multi-process run (cluster_topology.cpp: "2 nodes, 8 processes", "combined from every process's
// report (NVML); assumed: ...; ...", readers.inc) and the presets' and the scaling's citations and notes
// (presets.cpp, topo.inc topo.source.*), product names and figures kept. A name or source of which
// any part has no entry (a user's own topology) stays as it is.
std::string machineText(const std::string& text, Language language)
{
    if (language == Language::English)
        return text;
    std::vector<Message> parts;
    bool ours = true;
    size_t from = 0;
    while (ours && from <= text.size()) {
        const size_t cut = std::min(text.find("; ", from), text.size());
        const std::string part = text.substr(from, cut - from);
        from = cut + 2;
        if (part.rfind("assumed: ", 0) == 0) {
            std::vector<Message> items;
            std::stringstream list(part.substr(9));
            for (std::string item; ours && std::getline(list, item, ',');) {
                items.push_back(machineSourceMessage(item.substr(item.find_first_not_of(' '))));
                ours = items.back().id != "verbatim";
            }
            parts.push_back(Message("topo.part.assumed").with("assumptions", listOf(std::move(items))));
        } else {
            parts.push_back(machineSourceMessage(part));
            ours = parts.back().id != "verbatim";
        }
    }
    if (!ours || parts.empty())
        return text;
    std::string out;
    for (const Message& m : parts)
        out += (out.empty() ? "" : render(Message("topo.part.separator"), language)) + render(m, language);
    return out;
}

std::string topoMatrixText(const Topology& t, Language language)
{
    const auto m = classifyPairs(t);
    const int n = t.rankCount();
    std::ostringstream out;
    out << render(Message("report.topo.name").with("topology", machineText(t.name, language)), language) << "\n";
    if (!t.source.empty())
        out << render(Message("report.topo.source").with("source", machineText(t.source, language)), language) << "\n";
    out << "\n        ";
    char buf[160];
    for (int b = 0; b < n; ++b) {
        std::snprintf(buf, sizeof buf, "%-7s", ("GPU" + std::to_string(b)).c_str());
        out << buf;
    }
    out << topoWord("report.topo.header", language) << "\n";
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
        std::snprintf(buf, sizeof buf, "%-6d%s, %s, %.1f TFLOP/s", g.node, g.name.c_str(),
                      formatBytes(g.memory).c_str(), g.tflops);
        out << buf << "\n";
    }
    out << "\n" << topoWord("report.topo.legend", language) << "\n\n";
    for (int c = 0; c <= static_cast<int>(PathClass::None); ++c)
        if (used[static_cast<size_t>(c)]) {
            std::snprintf(buf, sizeof buf, "  %-4s = ", pathClassKey(static_cast<PathClass>(c)));
            out << buf << legendMeaning(static_cast<PathClass>(c), language) << "\n";
        }
    out << "\n" << topoWord("report.topo.routes", language) << "\n\n";
    Router router(t);
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            const Route& r = router.route(a, b);
            std::string via;
            for (size_t i = 0; i + 1 < r.hops.size(); ++i) {
                const Link& l = t.links[static_cast<size_t>(r.hops[i].link)];
                via += (via.empty() ? "" : " > ") + (r.hops[i].forward ? l.b : l.a);
            }
            std::snprintf(buf, sizeof buf, "  GPU%d <-> GPU%d  ", a, b);
            out << buf;
            if (!r.valid()) {
                out << topoWord("report.topo.not_connected", language) << "\n";
                continue;
            }
            std::snprintf(buf, sizeof buf, "%8.1f GB/s  %5.2f us  ", r.bottleneckGBps, r.latencyUs);
            out << buf
                << (via.empty() ? topoWord("report.topo.direct", language)
                                : render(Message("report.topo.via").with("path", via), language))
                << "\n";
        }
    out << "\n" << topoWord(sharesFastDomain(t) ? "report.topo.shared" : "report.topo.not_shared", language) << "\n";
    return out.str();
}

} // namespace shardlab
