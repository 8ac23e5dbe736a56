#include "shardlab/model/presets.h"

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>

namespace shardlab {
namespace {

// Figures shared by the presets. Bandwidths are per direction.
constexpr double kPcieGen3x16 = 15.75; // PCI-SIG: 8 GT/s x16, 128b/130b encoding
constexpr double kPcieGen5x16 = 63.0;  // PCI-SIG: 32 GT/s x16
constexpr double kNvLink1 = 20.0;      // P100 NVLink 1.0: 20 GB/s per link per direction (DGX-1 whitepaper)
constexpr double kNvLink4x18 = 450.0;  // H100/H200 datasheets: NVLink 900 GB/s bidirectional
constexpr double kQpi = 19.2;          // Intel Xeon E5-2698 v4: 2 QPI links at 9.6 GT/s
constexpr double kUpi = 62.4;          // Xeon Platinum 8480C: 4 UPI links at 16 GT/s ≈ 62 GB/s
constexpr double kNdr400 = 50.0;       // ConnectX-7 NDR InfiniBand, 400 Gb/s
constexpr double kHdr200 = 25.0;       // ConnectX-6 HDR InfiniBand, 200 Gb/s
constexpr double kPcieGen4x16 = 31.5;  // PCI-SIG: 16 GT/s x16, 128b/130b encoding
constexpr double kNvLink3x12 = 300.0;  // A100 datasheet: NVLink 600 GB/s bidirectional (12 links)

// Latencies of one traversal, in microseconds. Orders of magnitude from vendor material and
// commonly measured one-way latencies; the profile's per-step latencies carry NCCL's software
// overhead on top (docs/cost-model.md).
constexpr double kNvLinkLat = 0.2, kPcieLat = 0.5, kSocketLat = 0.8, kIbLat = 1.5;

struct Builder {
    Topology t;
    void gpu(const std::string& id, const std::string& name, double memGB, double tflops, double hbmGBps, int node = 0,
             int socket = 0)
    {
        t.gpus.push_back({id, name, static_cast<Bytes>(memGB * 1e9), tflops, hbmGBps, node, socket});
    }
    void sw(const std::string& id, SwitchKind kind, int node = 0, int socket = 0)
    {
        t.switches.push_back({id, kind, node, socket});
    }
    void link(const std::string& a, const std::string& b, LinkKind kind, double gbps, double lat, int count = 1)
    {
        t.links.push_back({a, b, kind, count, gbps, lat});
    }
};

// The PCIe Gen3 tree of a one-node server, built once for every preset that has one: `sockets`
// CPU sockets (joined by QPI when there are two), `switchesPerSocket` PCIe switches under each and
// `gpusPerSwitch` GPUs under each switch; GPU i sits on switch i / gpusPerSwitch.
void pcieGen3Server(Builder& b, int sockets, int switchesPerSocket, int gpusPerSwitch, const std::string& gpuName,
                    double memGB, double tflops, double hbmGBps)
{
    for (int c = 0; c < sockets; ++c)
        b.sw("cpu" + std::to_string(c), SwitchKind::Cpu, 0, c);
    if (sockets == 2)
        b.link("cpu0", "cpu1", LinkKind::CrossSocket, kQpi, kSocketLat);
    const int switches = sockets * switchesPerSocket;
    for (int s = 0; s < switches; ++s) {
        const std::string sw = "pcie" + std::to_string(s);
        b.sw(sw, SwitchKind::PcieSwitch, 0, s / switchesPerSocket);
        b.link(sw, "cpu" + std::to_string(s / switchesPerSocket), LinkKind::Pcie, kPcieGen3x16, kPcieLat);
    }
    for (int i = 0; i < switches * gpusPerSwitch; ++i) {
        const std::string id = "gpu" + std::to_string(i);
        b.gpu(id, gpuName, memGB, tflops, hbmGBps, 0, i / gpusPerSwitch / switchesPerSocket);
        b.link(id, "pcie" + std::to_string(i / gpusPerSwitch), LinkKind::Pcie, kPcieGen3x16, kPcieLat);
    }
}

// Four 16 GB cards on PCIe, two per switch: the course's classroom machine.
// GPUs: NVIDIA Tesla V100 PCIe 16 GB datasheet (2018): 14 TFLOP/s FP32, 900 GB/s HBM2, PCIe Gen3 x16.
// Two PCIe Gen3 switches (e.g. Broadcom PEX 8747) under one CPU, as in common 4-GPU workstations.
Topology teaching4()
{
    Builder b;
    b.t.name = "teaching-4x16gb-pcie";
    b.t.source = "NVIDIA Tesla V100 PCIe datasheet (14 TFLOP/s FP32, 16 GB, 900 GB/s); PCI-SIG Gen3 x16 = 15.75 GB/s "
                 "per direction";
    pcieGen3Server(b, 1, 2, 2, "V100 PCIe 16GB", 16, 14.0, 900);
    return b.t;
}

// Eight 16 GB PCIe cards in a two-socket server, two per switch, two switches per socket: the
// same cards as teaching-4x16gb-pcie; the fifth GPU sits behind the other socket.
Topology teaching8()
{
    Builder b;
    b.t.name = "teaching-8x16gb-2socket";
    b.t.source = "as teaching-4x16gb-pcie; sockets joined by Intel QPI (2 links x 9.6 GT/s = 19.2 GB/s per direction)";
    pcieGen3Server(b, 2, 2, 2, "V100 PCIe 16GB", 16, 14.0, 900);
    return b.t;
}

// What one HGX-style node is made of: its GPUs, their NVLink into the NVSwitch fabric, the PCIe
// generation of the tree below, and how many NICs sit on each PCIe switch (a switch per GPU pair).
struct HgxSpec {
    std::string gpuName;
    double memGB = 0, hbm = 0, tflops = 67.0;
    double nvlinkGBps = kNvLink4x18;
    int nvlinkCount = 18;
    double pcieGBps = kPcieGen5x16;
    int nicsPerSwitch = 0;
    bool nvls = false; // NVLink SHARP enabled on the NVSwitch fabric
};

// Adds `n` GPUs of one node on an NVSwitch fabric, with the HGX PCIe tree below: a PCIe switch per
// GPU pair (with `spec.nicsPerSwitch` NICs: 2 = a NIC per GPU, 1 = two GPUs share one), half the
// switches per socket.
void hgxNode(Builder& b, int node, int n, const HgxSpec& spec, int firstGpu)
{
    const std::string p = "n" + std::to_string(node) + "-";
    b.sw(p + "nvswitch", SwitchKind::NvSwitch, node);
    b.t.switches.back().nvls = spec.nvls;
    for (int c = 0; c < 2; ++c)
        b.sw(p + "cpu" + std::to_string(c), SwitchKind::Cpu, node, c);
    b.link(p + "cpu0", p + "cpu1", LinkKind::CrossSocket, kUpi, kSocketLat);
    const int switches = (n + 1) / 2;
    for (int s = 0; s < switches; ++s) {
        const int socket = s < (switches + 1) / 2 ? 0 : 1;
        const std::string sw = p + "pcie" + std::to_string(s);
        b.sw(sw, SwitchKind::PcieSwitch, node, socket);
        b.link(sw, p + "cpu" + std::to_string(socket), LinkKind::Pcie, spec.pcieGBps, kPcieLat);
        for (int k = 0; k < spec.nicsPerSwitch; ++k) {
            const std::string nic = p + "nic" + std::to_string(s * spec.nicsPerSwitch + k);
            b.sw(nic, SwitchKind::Nic, node, socket);
            b.link(nic, sw, LinkKind::Pcie, spec.pcieGBps, kPcieLat);
        }
    }
    for (int i = 0; i < n; ++i) {
        const std::string id = "gpu" + std::to_string(firstGpu + i);
        const int s = i / 2;
        b.gpu(id, spec.gpuName, spec.memGB, spec.tflops, spec.hbm, node, s < (switches + 1) / 2 ? 0 : 1);
        b.link(id, p + "nvswitch", LinkKind::NvLink, spec.nvlinkGBps, kNvLinkLat, spec.nvlinkCount);
        b.link(id, p + "pcie" + std::to_string(s), LinkKind::Pcie, spec.pcieGBps, kPcieLat);
    }
}

void hgxNode(Builder& b, int node, int n, const std::string& gpuName, double memGB, double hbm, int nicsPerSwitch,
             int firstGpu)
{
    HgxSpec spec;
    spec.gpuName = gpuName;
    spec.memGB = memGB;
    spec.hbm = hbm;
    spec.nicsPerSwitch = nicsPerSwitch;
    hgxNode(b, node, n, spec, firstGpu);
}

// `nodes` nodes of eight GPUs as `spec`, every NIC into one non-blocking network switch at
// `nicGBps` per direction. Rail-optimised (`rails`): NIC k of every node into leaf switch
// "rail-k", the leaves joined by a spine with as much bandwidth as the leaf's NICs (non-blocking),
// as in NVIDIA's DGX SuperPOD reference architecture: traffic between GPUs of the same local index
// stays on its rail, traffic between rails crosses the spine (two more hops).
Topology cluster(const std::string& name, const std::string& source, const HgxSpec& spec, int nodes, double nicGBps,
                 bool rails = false)
{
    Builder b;
    b.t.name = name;
    b.t.source = source;
    const int nics = 4 * spec.nicsPerSwitch;
    if (rails) {
        b.sw("ib-spine", SwitchKind::NetworkSwitch, -1, 0);
        for (int k = 0; k < nics; ++k) {
            b.sw("rail-" + std::to_string(k), SwitchKind::NetworkSwitch, -1, 0);
            b.link("rail-" + std::to_string(k), "ib-spine", LinkKind::Network, nicGBps * nodes, kIbLat);
        }
    } else {
        b.sw("ib-switch", SwitchKind::NetworkSwitch, -1, 0);
    }
    for (int node = 0; node < nodes; ++node) {
        hgxNode(b, node, 8, spec, node * 8);
        for (int k = 0; k < nics; ++k)
            b.link("n" + std::to_string(node) + "-nic" + std::to_string(k),
                   rails ? "rail-" + std::to_string(k) : "ib-switch", LinkKind::Network, nicGBps, kIbLat);
    }
    return b.t;
}

// Four H200 SXM (141 GB HBM3e, 4.8 TB/s, 67 TFLOP/s FP32; NVIDIA H200 datasheet) whose every pair
// `nvidia-smi topo -m` shows as NV18. Eighteen NVLink4 links per GPU only join every pair at full
// width through NVSwitch, so the fabric is modelled as one NVSwitch: each GPU's 450 GB/s per
// direction is shared by its simultaneous transfers. Measured on this project's 4xH200 machine
// with nccl-tests 2.28.9, NVLS off: all-reduce busbw 359 GB/s at 2 GB (../shared/docs/PEERS.md).
Topology h200nv18x4()
{
    Builder b;
    hgxNode(b, 0, 4, "H200", 141, 4800, 0, 0);
    b.t.name = "h200-nv18-4";
    b.t.source =
        "NVIDIA H200 datasheet (141 GB, 4.8 TB/s, NVLink 900 GB/s); every pair NV18 as nvidia-smi topo -m shows";
    return b.t;
}

// NVIDIA HGX/DGX H200: eight H200 SXM on four third-generation NVSwitch chips (modelled as one
// fabric), PCIe Gen5 switches pairing GPUs with ConnectX-7 400 Gb/s NICs (DGX H200 user guide).
Topology h200nvswitch8()
{
    Builder b;
    hgxNode(b, 0, 8, "H200", 141, 4800, 2, 0);
    b.t.name = "h200-nvswitch-8";
    b.t.source = "NVIDIA DGX H200 user guide and H200 datasheet: 8 GPUs, NVSwitch, 900 GB/s NVLink per GPU, 8x "
                 "ConnectX-7 400 Gb/s";
    return b.t;
}

// DGX-1 with Tesla P100 SXM2 (NVIDIA DGX-1 System Architecture whitepaper, 2017): 8 GPUs of 16 GB
// HBM2 (732 GB/s, 10.6 TFLOP/s FP32), four NVLink 1.0 links each at 20 GB/s per direction, in a
// hybrid cube-mesh: GPUs 0-3 and 4-7 each fully connected, and GPU i joined to GPU i+4. PCIe Gen3
// switches pair the GPUs; two Xeon E5-2698 v4 sockets joined by QPI.
Topology dgx1p100()
{
    Builder b;
    b.t.name = "dgx1-p100";
    b.t.source = "NVIDIA DGX-1 System Architecture whitepaper (P100, NVLink 1.0 hybrid cube-mesh)";
    pcieGen3Server(b, 2, 2, 2, "P100 SXM2 16GB", 16, 10.6, 732);
    auto nv = [&](int x, int y) {
        b.link("gpu" + std::to_string(x), "gpu" + std::to_string(y), LinkKind::NvLink, kNvLink1, kNvLinkLat, 1);
    };
    for (int q = 0; q < 8; q += 4)
        for (int x = q; x < q + 4; ++x)
            for (int y = x + 1; y < q + 4; ++y)
                nv(x, y);
    for (int x = 0; x < 4; ++x)
        nv(x, x + 4);
    return b.t;
}

// Two DGX H100 nodes (DGX H100 user guide): per node eight H100 SXM5 80 GB (3.35 TB/s, 67 TFLOP/s
// FP32) on NVSwitch at 900 GB/s bidirectional, and eight ConnectX-7 NDR 400 Gb/s InfiniBand NICs,
// one per GPU, into one non-blocking InfiniBand switch.
HgxSpec dgxH100(bool nvls)
{
    HgxSpec spec;
    spec.gpuName = "H100 SXM5 80GB";
    spec.memGB = 80;
    spec.hbm = 3350;
    spec.nicsPerSwitch = 2;
    spec.nvls = nvls;
    return spec;
}

Topology twoNodesH100()
{
    return cluster(
        "2x8-h100-ib",
        "NVIDIA DGX H100 user guide: 8x H100 80 GB per node, NVSwitch, 8x ConnectX-7 400 Gb/s NDR InfiniBand",
        dgxH100(false), 2, kNdr400);
}

// The same two DGX H100 with NVLink SHARP on (third-generation NVSwitch; NCCL 2.17+ uses it when
// the fabric manager enables multicast): NCCL's NVLS all-reduce in a node, NVLS-tree across nodes.
Topology twoNodesH100Nvls()
{
    return cluster(
        "2x8-h100-ib-nvls",
        "NVIDIA DGX H100 user guide (NVLink SHARP in the third-generation NVSwitch), 8x ConnectX-7 400 Gb/s NDR",
        dgxH100(true), 2, kNdr400);
}

// Four DGX H100 on a rail-optimised InfiniBand fabric (DGX SuperPOD reference architecture: one
// leaf switch per rail, a spine between the leaves).
Topology fourNodesH100Rails()
{
    return cluster(
        "4x8-h100-rails",
        "NVIDIA DGX H100 user guide; rail-optimised NDR fabric after the DGX SuperPOD reference architecture",
        dgxH100(false), 4, kNdr400, true);
}

// DGX A100 (NVIDIA DGX A100 user guide and A100 datasheet): eight A100 SXM4 80 GB (2,039 GB/s HBM2e,
// 19.5 TFLOP/s FP32), twelve NVLink3 links each (600 GB/s bidirectional, 300 per direction) into
// second-generation NVSwitch, PCIe Gen4 switches pairing GPUs with NICs, eight ConnectX-6 HDR
// 200 Gb/s InfiniBand NICs (one per GPU; `nicsPerSwitch` = 1 gives the four-NIC variant, where two
// GPUs share each NIC and its PCIe switch).
HgxSpec a100Node(int nicsPerSwitch)
{
    HgxSpec spec;
    spec.gpuName = "A100 SXM4 80GB";
    spec.memGB = 80;
    spec.hbm = 2039;
    spec.tflops = 19.5;
    spec.nvlinkGBps = kNvLink3x12;
    spec.nvlinkCount = 12;
    spec.pcieGBps = kPcieGen4x16;
    spec.nicsPerSwitch = nicsPerSwitch;
    return spec;
}

Topology twoNodesA100Hdr8()
{
    return cluster("2x8-a100-8hdr",
                   "NVIDIA DGX A100 user guide and A100 datasheet: 8x A100 80 GB, NVSwitch, NVLink3 600 GB/s, 8x "
                   "ConnectX-6 200 Gb/s HDR",
                   a100Node(2), 2, kHdr200);
}

Topology twoNodesA100Hdr4()
{
    return cluster(
        "2x8-a100-4hdr",
        "as 2x8-a100-8hdr with four ConnectX-6 200 Gb/s HDR NICs per node, one per PCIe switch (two GPUs share each)",
        a100Node(1), 2, kHdr200);
}

struct Entry {
    const char* id;
    const char* description;
    std::function<Topology()> make;
};

const std::vector<Entry>& entries()
{
    static const std::vector<Entry> list = {
        {"teaching-4x16gb-pcie", "four 16 GB GPUs on PCIe, two per switch (the classroom example)", teaching4},
        {"h200-nv18-4", "four H200 (141 GB), every pair joined by 18 NVLink4 links", h200nv18x4},
        {"h200-nvswitch-8", "eight H200 on NVSwitch (DGX/HGX H200)", h200nvswitch8},
        {"dgx1-p100", "eight 16 GB P100 in the DGX-1 hybrid cube-mesh of NVLink 1.0", dgx1p100},
        {"2x8-h100-ib", "two nodes of eight H100 on NVSwitch, eight 400 Gb/s InfiniBand NICs per node", twoNodesH100},
        {"teaching-8x16gb-2socket", "eight 16 GB PCIe GPUs over two CPU sockets (why a fifth GPU can hurt)", teaching8},
        {"2x8-h100-ib-nvls", "two nodes of eight H100, NVLink SHARP on, eight 400 Gb/s InfiniBand NICs per node",
         twoNodesH100Nvls},
        {"2x8-a100-8hdr", "two DGX A100 nodes, eight 200 Gb/s HDR InfiniBand NICs per node", twoNodesA100Hdr8},
        {"2x8-a100-4hdr", "two nodes of eight A100, four 200 Gb/s HDR NICs per node (two GPUs share a NIC)",
         twoNodesA100Hdr4},
        {"4x8-h100-rails", "four nodes of eight H100, eight 400 Gb/s NICs each on a rail-optimised fabric",
         fourNodesH100Rails},
    };
    return list;
}

} // namespace

std::vector<PresetInfo> presetList()
{
    std::vector<PresetInfo> out;
    for (const Entry& e : entries())
        out.push_back({e.id, e.description});
    return out;
}

Message presetDescription(const PresetInfo& preset) { return Message("preset." + preset.id); }

std::optional<Topology> preset(std::string_view id)
{
    for (const Entry& e : entries())
        if (id == e.id)
            return e.make();
    return std::nullopt;
}

Topology scaleOut(const Topology& node, int gpus)
{
    // the template: node 0 only
    Topology tpl = node;
    std::erase_if(tpl.gpus, [](const Gpu& g) { return g.node != 0; });
    std::erase_if(tpl.switches, [](const SwitchNode& s) { return s.node != 0; });
    {
        std::set<std::string> ids;
        for (const Gpu& g : tpl.gpus)
            ids.insert(g.id);
        for (const SwitchNode& sw : tpl.switches)
            ids.insert(sw.id);
        std::erase_if(tpl.links, [&](const Link& l) { return !ids.count(l.a) || !ids.count(l.b); });
    }
    const int perNode = std::max(1, tpl.rankCount());
    if (gpus <= perNode)
        return node.firstGpus(gpus);
    bool hasNic = false;
    for (const SwitchNode& sw : tpl.switches)
        hasNic = hasNic || sw.kind == SwitchKind::Nic;
    if (!hasNic) {
        std::vector<std::string> anchors;
        for (const SwitchNode& sw : tpl.switches)
            if (sw.kind == SwitchKind::PcieSwitch)
                anchors.push_back(sw.id);
        if (anchors.empty())
            for (const SwitchNode& sw : tpl.switches)
                if (sw.kind == SwitchKind::Cpu)
                    anchors.push_back(sw.id);
        for (size_t i = 0; i < anchors.size(); ++i) {
            const std::string nic = "nic" + std::to_string(i);
            tpl.switches.push_back({nic, SwitchKind::Nic, 0, 0});
            tpl.links.push_back({nic, anchors[i], LinkKind::Pcie, 1, kPcieGen5x16, kPcieLat});
        }
    }
    // the NICs keep the speed they have in `node` (400 Gb/s NDR when it has no network link)
    double nicGBps = 0;
    for (const Link& l : node.links)
        if (l.kind == LinkKind::Network)
            nicGBps = std::max(nicGBps, l.bandwidthGBps);
    const bool ownNics = nicGBps > 0;
    if (!ownNics)
        nicGBps = kNdr400;
    const int nodes = (gpus + perNode - 1) / perNode;
    Builder b;
    const size_t copies = static_cast<size_t>(nodes);
    b.t.switches.reserve(1 + copies * tpl.switches.size());
    b.t.links.reserve(copies * (tpl.links.size() + tpl.switches.size()));
    b.t.name = node.name + " x" + std::to_string(nodes) + " nodes";
    b.t.source = node.source
                 + (ownNics ? "; more of its nodes on the same non-blocking fabric"
                            : "; nodes joined by a non-blocking 400 Gb/s InfiniBand fabric (ConnectX-7 NDR)");
    b.sw("fabric", SwitchKind::NetworkSwitch, -1, 0);
    std::vector<Gpu> gpuList;
    gpuList.reserve(copies * tpl.gpus.size());
    std::unordered_map<std::string, int> tplGpu; // the template's GPU ids -> their index
    for (size_t i = 0; i < tpl.gpus.size(); ++i)
        tplGpu.emplace(tpl.gpus[i].id, static_cast<int>(i));
    for (int n = 0; n < nodes; ++n) {
        const std::string p = "n" + std::to_string(n) + "/";
        auto rename = [&](const std::string& id) {
            if (const auto g = tplGpu.find(id); g != tplGpu.end())
                return "gpu" + std::to_string(n * perNode + g->second);
            return p + id;
        };
        for (const Gpu& g : tpl.gpus) {
            Gpu c = g;
            c.id = rename(g.id);
            c.node = n;
            gpuList.push_back(c);
        }
        for (const SwitchNode& sw : tpl.switches) {
            b.sw(rename(sw.id), sw.kind, n, sw.socket);
            b.t.switches.back().nvls = sw.nvls;
            if (sw.kind == SwitchKind::Nic)
                b.link(rename(sw.id), "fabric", LinkKind::Network, nicGBps, kIbLat);
        }
        for (const Link& l : tpl.links)
            b.t.links.push_back({rename(l.a), rename(l.b), l.kind, l.count, l.bandwidthGBps, l.latencyUs});
    }
    b.t.gpus = gpuList;
    return b.t.firstGpus(gpus);
}

Link typicalLink(LinkKind kind, const std::string& a, const std::string& b)
{
    switch (kind) {
    case LinkKind::NvLink: return {a, b, kind, 18, kNvLink4x18, kNvLinkLat};
    case LinkKind::Pcie: return {a, b, kind, 1, kPcieGen5x16, kPcieLat};
    case LinkKind::CrossSocket: return {a, b, kind, 1, kUpi, kSocketLat};
    case LinkKind::Network: return {a, b, kind, 1, kNdr400, kIbLat};
    }
    return {a, b, kind, 1, kPcieGen5x16, kPcieLat};
}

Message unknownPresetSentence(std::string_view id)
{
    std::string known;
    for (const Entry& e : entries())
        known += std::string(known.empty() ? "" : ", ") + e.id;
    return Message("error.says.unknown_preset").with("preset", std::string(id)).with("known", known);
}

std::string unknownPresetMessage(std::string_view id) { return english(unknownPresetSentence(id)); }

} // namespace shardlab
