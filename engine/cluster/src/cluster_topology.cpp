#include "shardlab/cluster/cluster_topology.h"

#include "shardlab/base/display_width.h"
#include "shardlab/base/message_json.h"
#include "shardlab/text/foreign_text.h"
#include "shardlab/text/message.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace shardlab {

namespace {

using nlohmann::json;

// Assumptions for figures a report leaves unknown; each one used is named in Topology::source.
constexpr double kAssumedPcieGBps = 31.5;        // PCIe Gen4 x16 (16 GT/s x 16 x 128/130 / 8)
constexpr double kAssumedCrossSocketGBps = 62.4; // Intel UPI, 4 links at 16 GT/s (as preset 2x8-h100-ib)
constexpr double kAssumedNvLinkGBps = 25.0;      // NVLink 3/4: 25 GB/s per link per direction
// Latencies of one traversal, as presets.cpp uses them; Ethernet's from common RoCE/TCP figures.
constexpr double kNvLinkLat = 0.2, kPcieLat = 0.5, kSocketLat = 0.8, kIbLat = 1.5, kEthLat = 5.0;

std::string fmtGBps(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g GB/s", v);
    return buf;
}

} // namespace

Message probeNotes(const std::vector<Message>& notes)
{
    if (notes.empty())
        return {};
    Message out = notes.back();
    for (size_t i = notes.size() - 1; i-- > 0;)
        out = Message("error.piece.notes").with("piece_first", notes[i]).with("piece_rest", std::move(out));
    return out;
}

namespace {
json notesJson(const std::vector<Message>& notes)
{
    json out = json::array();
    for (const Message& m : notes)
        out.push_back(messageToJson(m));
    return out;
}
} // namespace

Bytes8 encodeTopologyReport(const RankTopologyReport& r)
{
    json nv = json::array();
    for (const PeerLinkReport& p : r.nvlinks)
        nv.push_back({p.busId, p.nvlinks});
    json nics = json::array();
    for (const NicReport& n : r.nics)
        nics.push_back({n.name, n.kind, n.gbps, n.numaNode});
    const json doc = {{"rank", r.rank},
                      {"host", r.host},
                      {"device", r.device},
                      {"physical", r.physical},
                      {"gpu", r.gpuName},
                      {"memory", r.gpuMemory},
                      {"tflops", r.tflops},
                      {"hbm", r.memBandwidthGBps},
                      {"bus", r.busId},
                      {"uuid", r.uuid},
                      {"numa", r.numaNode},
                      {"pcie", r.pcieGBps},
                      {"pcie_switch", r.pcieSwitch},
                      {"nvlinks", nv},
                      {"nvswitch_links", r.nvswitchLinks},
                      {"nvlink_gbps", r.nvlinkGBps},
                      {"nics", nics},
                      {"probe", r.probe},
                      {"notes", notesJson(r.notes)}};
    return json::to_cbor(doc);
}

Result<RankTopologyReport> decodeTopologyReport(const Bytes8& bytes, const std::string& origin)
{
    return decodeTopologyReport(bytes, verbatim(origin));
}

Result<RankTopologyReport> decodeTopologyReport(const Bytes8& bytes, const Message& origin)
{
    try {
        const json d = json::from_cbor(bytes);
        RankTopologyReport r;
        r.rank = d.at("rank").get<int>();
        r.host = d.at("host").get<std::string>();
        r.device = d.at("device").get<int>();
        r.physical = d.at("physical").get<std::string>();
        r.gpuName = d.at("gpu").get<std::string>();
        r.gpuMemory = d.at("memory").get<Bytes>();
        r.tflops = d.at("tflops").get<double>();
        r.memBandwidthGBps = d.at("hbm").get<double>();
        r.busId = d.at("bus").get<std::string>();
        r.uuid = d.at("uuid").get<std::string>();
        r.numaNode = d.at("numa").get<int>();
        r.pcieGBps = d.at("pcie").get<double>();
        r.pcieSwitch = d.at("pcie_switch").get<std::string>();
        for (const json& p : d.at("nvlinks"))
            r.nvlinks.push_back({p.at(0).get<std::string>(), p.at(1).get<int>()});
        r.nvswitchLinks = d.at("nvswitch_links").get<int>();
        r.nvlinkGBps = d.at("nvlink_gbps").get<double>();
        for (const json& n : d.at("nics"))
            r.nics.push_back(
                {n.at(0).get<std::string>(), n.at(1).get<std::string>(), n.at(2).get<double>(), n.at(3).get<int>()});
        r.probe = d.at("probe").get<std::string>();
        for (const json& n : d.at("notes"))
            if (Message m = messageFromJson(n); !m.empty())
                r.notes.push_back(std::move(m));
        return r;
    } catch (const json::exception& e) {
        return runFailed(
            Message("error.cluster.not_topology_report").with("origin", origin).with("why", parserMessage(e.what())));
    }
}

Result<Topology> combineTopology(const std::vector<RankTopologyReport>& reports)
{
    if (reports.empty())
        return runFailed(Message("error.cluster.no_gpu_reported"));
    Topology t;
    std::set<std::string> assumed;
    std::vector<std::string> notes;
    std::vector<std::string> hosts;
    std::map<std::string, std::string> nicKind; // NIC switch id -> kind
    std::vector<int> nodeOf;
    for (const RankTopologyReport& r : reports) {
        auto it = std::find(hosts.begin(), hosts.end(), r.host);
        nodeOf.push_back(static_cast<int>(it - hosts.begin()));
        if (it == hosts.end())
            hosts.push_back(r.host);
    }
    const int nodes = static_cast<int>(hosts.size());
    auto socketOf = [](int numa) { return std::max(numa, 0); };
    auto cpuId = [](int node, int socket) { return "n" + std::to_string(node) + "-cpu" + std::to_string(socket); };
    bool unknownGpu = false;
    for (int node = 0; node < nodes; ++node) {
        // CPUs: one per NUMA node that a GPU or NIC of this node sits on.
        std::set<int> sockets;
        std::map<std::string, NicReport> nics; // by name, first report wins
        for (size_t r = 0; r < reports.size(); ++r) {
            if (nodeOf[r] != node)
                continue;
            sockets.insert(socketOf(reports[r].numaNode));
            for (const NicReport& nic : reports[r].nics)
                if (nics.emplace(nic.name, nic).second)
                    sockets.insert(socketOf(nic.numaNode));
        }
        for (int s : sockets)
            t.switches.push_back({cpuId(node, s), SwitchKind::Cpu, node, s});
        for (auto it = sockets.begin(); it != sockets.end() && std::next(it) != sockets.end(); ++it) {
            t.links.push_back({cpuId(node, *it), cpuId(node, *std::next(it)), LinkKind::CrossSocket, 1,
                               kAssumedCrossSocketGBps, kSocketLat});
            assumed.insert("cross-socket " + fmtGBps(kAssumedCrossSocketGBps) + " (UPI)");
        }
        // NICs on their CPU; the network switch joins them below.
        if (nics.empty() && nodes > 1)
            notes.push_back("no NIC of " + hosts[static_cast<size_t>(node)]
                            + " could be read, so it is not connected to the others");
        for (const auto& [name, nic] : nics) {
            const std::string id = "n" + std::to_string(node) + "-" + name;
            t.switches.push_back({id, SwitchKind::Nic, node, socketOf(nic.numaNode)});
            nicKind[id] = nic.kind;
            // the NIC's PCIe link is taken as wide as its port (true of any sensible server)
            t.links.push_back({id, cpuId(node, socketOf(nic.numaNode)), LinkKind::Pcie, 1, nic.gbps, kPcieLat});
        }
    }
    // GPUs, PCIe switches, NVLink.
    std::map<std::pair<int, std::string>, std::string> pcieSwitches;
    std::set<int> nvswitchNodes;
    for (size_t r = 0; r < reports.size(); ++r) {
        const RankTopologyReport& rep = reports[r];
        const int node = nodeOf[r];
        const int socket = socketOf(rep.numaNode);
        const std::string id = "gpu" + std::to_string(r);
        unknownGpu = unknownGpu || rep.gpuMemory == 0 || rep.tflops <= 0;
        t.gpus.push_back({id, rep.gpuName.empty() ? "unknown GPU" : rep.gpuName, rep.gpuMemory, rep.tflops,
                          rep.memBandwidthGBps, node, socket});
        const double pcie = rep.pcieGBps > 0 ? rep.pcieGBps : kAssumedPcieGBps;
        if (rep.pcieGBps <= 0)
            assumed.insert("PCIe " + fmtGBps(kAssumedPcieGBps) + " (Gen4 x16)");
        std::string up = cpuId(node, socket);
        if (!rep.pcieSwitch.empty()) {
            auto [it, fresh] = pcieSwitches.try_emplace(
                {node, rep.pcieSwitch}, "n" + std::to_string(node) + "-pcie" + std::to_string(pcieSwitches.size()));
            if (fresh) {
                t.switches.push_back({it->second, SwitchKind::PcieSwitch, node, socket});
                t.links.push_back({it->second, up, LinkKind::Pcie, 1, pcie, kPcieLat});
            }
            up = it->second;
        }
        t.links.push_back({id, up, LinkKind::Pcie, 1, pcie, kPcieLat});
        const double perLink = rep.nvlinkGBps > 0 ? rep.nvlinkGBps : kAssumedNvLinkGBps;
        if ((rep.nvswitchLinks > 0 || !rep.nvlinks.empty()) && rep.nvlinkGBps <= 0)
            assumed.insert("NVLink " + fmtGBps(kAssumedNvLinkGBps) + " per link");
        if (rep.nvswitchLinks > 0) {
            const std::string sw = "n" + std::to_string(node) + "-nvswitch";
            if (nvswitchNodes.insert(node).second)
                t.switches.push_back({sw, SwitchKind::NvSwitch, node, 0});
            t.links.push_back({id, sw, LinkKind::NvLink, rep.nvswitchLinks, rep.nvswitchLinks * perLink, kNvLinkLat});
        }
        for (const PeerLinkReport& p : rep.nvlinks) {
            if (p.nvlinks <= 0)
                continue;
            for (size_t q = 0; q < reports.size(); ++q) {
                if (q == r || nodeOf[q] != node || reports[q].busId.empty() || reports[q].busId != p.busId)
                    continue;
                // one bundle per pair: the lower rank adds it, or the higher when only it reports
                const bool otherReports =
                    std::any_of(reports[q].nvlinks.begin(), reports[q].nvlinks.end(),
                                [&](const PeerLinkReport& o) { return o.busId == rep.busId && o.nvlinks > 0; });
                if (q < r && otherReports)
                    continue;
                t.links.push_back(
                    {id, "gpu" + std::to_string(q), LinkKind::NvLink, p.nvlinks, p.nvlinks * perLink, kNvLinkLat});
            }
        }
    }
    if (nodes > 1) {
        t.switches.push_back({"network", SwitchKind::NetworkSwitch, -1, 0});
        for (const SwitchNode& sw : std::vector<SwitchNode>(t.switches))
            if (sw.kind == SwitchKind::Nic) {
                const Link& toCpu =
                    *std::find_if(t.links.begin(), t.links.end(), [&](const Link& l) { return l.a == sw.id; });
                t.links.push_back({sw.id, "network", LinkKind::Network, 1, toCpu.bandwidthGBps,
                                   nicKind[sw.id] == "ethernet" ? kEthLat : kIbLat});
            }
    }
    t.name = nodes == 1 ? hosts.front() + " (" + std::to_string(reports.size()) + " processes)"
                        : std::to_string(nodes) + " nodes, " + std::to_string(reports.size()) + " processes";
    std::set<std::string> probes;
    for (const RankTopologyReport& r : reports)
        probes.insert(r.probe.empty() ? "unknown" : r.probe);
    std::string probeText;
    for (const std::string& p : probes)
        probeText += (probeText.empty() ? "" : ", ") + p;
    t.source = "combined from every process's report (" + probeText + ")";
    if (unknownGpu)
        notes.push_back("GPU memory and compute rate unknown (no NVML in this build)");
    if (!assumed.empty()) {
        std::string a;
        for (const std::string& s : assumed)
            a += (a.empty() ? "" : ", ") + s;
        t.source += "; assumed: " + a;
    }
    for (const std::string& n : notes)
        t.source += "; " + n;
    return t;
}

std::string formatPlacement(const std::vector<RankTopologyReport>& reports, Language language)
{
    // column titles from the catalogue (topo.inc), aligned by what a terminal shows
    const auto title = [&](const char* id) { return render(Message(id), language); };
    std::string out = rightAligned(title("placement.rank"), 4) + "  " + leftAligned(title("placement.host"), 16) + " "
                      + rightAligned(title("placement.device"), 4) + " " + leftAligned(title("placement.gpu"), 8) + " "
                      + leftAligned(title("placement.name"), 22) + " " + leftAligned(title("placement.bus"), 13) + " "
                      + rightAligned(title("placement.numa"), 4) + "  " + title("placement.nics") + "\n";
    char buf[512];
    for (const RankTopologyReport& r : reports) {
        std::string nics;
        for (const NicReport& n : r.nics)
            nics += (nics.empty() ? "" : ", ") + n.name + " (" + n.kind + " " + fmtGBps(n.gbps) + ")";
        std::snprintf(buf, sizeof buf, "%4d  %s %4d %-8.8s %s %-13.13s %4s  %s\n", r.rank,
                      fitToWidth(r.host, 16).c_str(), r.device, r.physical.c_str(),
                      fitToWidth(r.gpuName.empty() ? "?" : r.gpuName, 22).c_str(),
                      r.busId.empty() ? "?" : r.busId.c_str(),
                      r.numaNode < 0 ? "?" : std::to_string(r.numaNode).c_str(), nics.empty() ? "-" : nics.c_str());
        out += buf;
    }
    return out;
}

} // namespace shardlab
