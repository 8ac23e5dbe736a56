// The topology section's text in the report's language. English is formatTopoMatrix() itself, so
// that the English report reads exactly like `shardlab topo`; Chinese is the same table with its
// words from the catalogue. nvidia-smi's path classes (NV18, PIX, SYS...) stay as they are.
#include "shardlab/report/lab_report.h"

#include "shardlab/sim/routing.h"
#include "shardlab/text/error_wording.h"

#include <cstdio>
#include <sstream>

namespace shardlab {

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

std::string topoWord(const char* id, Language language)
{
    return render(Message(id), language);
}

// nvidia-smi's legend key of a class: "NV#", "PIX", "X", "-".
std::string legendKey(PathClass cls)
{
    const std::string description = pathClassDescription(cls);
    const size_t eq = description.find('=');
    std::string key = description.substr(0, eq == std::string::npos ? 0 : eq);
    while (!key.empty() && key.back() == ' ')
        key.pop_back();
    return key;
}

} // namespace

// A machine's name or source in `language`, part by part ("; " between them): the machine of a
// multi-process run (cluster_topology.cpp: "2 nodes, 8 processes", "combined from every process's
// report (NVML); assumed: ...; ...", readers.inc) and the presets' and the scaling's citations and notes
// (presets.cpp, topo.inc topo.source.*), product names and figures kept. A name or source of which
// any part has no entry (a user's own topology) stays as it is.
std::string machineText(const std::string& text, Language language)
{
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
                items.push_back(errorMessage(item.substr(item.find_first_not_of(' '))));
                ours = items.back().id != "verbatim";
            }
            parts.push_back(Message("error.line.topo_assumed").with("assumptions", listOf(std::move(items))));
        } else {
            parts.push_back(errorMessage(part));
            if (parts.back().id == "verbatim")
                parts.back() = machineSourceMessage(part);
            ours = parts.back().id != "verbatim";
        }
    }
    if (!ours || parts.empty())
        return text;
    std::string out;
    for (const Message& m : parts)
        out += (out.empty() ? "" : render(Message("error.line.topo_part_separator"), language)) + render(m, language);
    return out;
}

std::string topoMatrixText(const Topology& t, Language language)
{
    if (language == Language::English)
        return formatTopoMatrix(t);
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
        std::snprintf(buf, sizeof buf, "%-6d%s, %s, %.1f TFLOP/s", g.node, g.name.c_str(), formatBytes(g.memory).c_str(),
            g.tflops);
        out << buf << "\n";
    }
    out << "\n" << topoWord("report.topo.legend", language) << "\n\n";
    for (int c = 0; c <= static_cast<int>(PathClass::None); ++c)
        if (used[static_cast<size_t>(c)]) {
            std::snprintf(buf, sizeof buf, "  %-4s = ", legendKey(static_cast<PathClass>(c)).c_str());
            out << buf << render(pathClassMeaning(static_cast<PathClass>(c)), language) << "\n";
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
