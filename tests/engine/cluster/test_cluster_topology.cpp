// The combined topology of a multi-process run (cluster_topology.h) from synthetic per-rank
// reports, and the sysfs probe over a fake /proc and /sys tree.
#include "shardlab/cluster/cluster_topology.h"
#include "shardlab/report/lab_report.h"
#include "shardlab/sim/topo_matrix.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace shardlab;
namespace fs = std::filesystem;

namespace {

// An HGX-like GPU: 18 NVLinks to NVSwitch at 25 GB/s, PCIe Gen5 x16 (63 GB/s).
RankTopologyReport hgxGpu(int rank, const std::string& host, int local)
{
    RankTopologyReport r;
    r.rank = rank;
    r.host = host;
    r.device = local;
    r.physical = std::to_string(local);
    r.gpuName = "NVIDIA H200";
    r.gpuMemory = 141'000'000'000ULL;
    r.tflops = 67;
    r.memBandwidthGBps = 4800;
    r.busId = "0000:" + std::to_string(18 + local) + ":00.0";
    r.numaNode = local < 2 ? 0 : 1;
    r.pcieGBps = 63;
    r.pcieSwitch = "pci0000:" + std::to_string(local / 2);
    r.nvswitchLinks = 18;
    r.nvlinkGBps = 25;
    r.nics = {{"mlx5_0", "infiniband", 50, 0}, {"mlx5_1", "infiniband", 50, 1}};
    r.probe = "NVML";
    return r;
}

std::vector<RankTopologyReport> twoNodesOfFour()
{
    std::vector<RankTopologyReport> v;
    for (int r = 0; r < 8; ++r)
        v.push_back(hgxGpu(r, r < 4 ? "node-a" : "node-b", r % 4));
    return v;
}

const Link* linkBetween(const Topology& t, const std::string& a, const std::string& b)
{
    for (const Link& l : t.links)
        if ((l.a == a && l.b == b) || (l.a == b && l.b == a))
            return &l;
    return nullptr;
}

void write(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text << "\n";
}

} // namespace

TEST(ClusterTopology, TwoNodesOfFourOnNvSwitchAndInfiniBand)
{
    auto t = combineTopology(twoNodesOfFour());
    ASSERT_TRUE(t.ok()) << t.error().message;
    ASSERT_TRUE(validateTopology(*t).ok()) << validateTopology(*t).error().message;
    EXPECT_EQ(t->rankCount(), 8);
    EXPECT_EQ(t->nodeCount(), 2);
    EXPECT_EQ(t->gpus[5].node, 1);
    EXPECT_EQ(t->gpus[5].socket, 0);
    EXPECT_EQ(t->gpus[7].socket, 1);
    // NVSwitch per node: 18 links x 25 GB/s = 450 GB/s per direction.
    const Link* nv = linkBetween(*t, "gpu6", "n1-nvswitch");
    ASSERT_NE(nv, nullptr);
    EXPECT_EQ(nv->count, 18);
    EXPECT_DOUBLE_EQ(nv->bandwidthGBps, 450);
    // The classes nvidia-smi would print, plus NET between nodes.
    const auto m = classifyPairs(*t);
    EXPECT_EQ(pathClassLabel(m[0][3]), "NV18");
    EXPECT_EQ(pathClassLabel(m[4][7]), "NV18");
    EXPECT_EQ(pathClassLabel(m[1][6]), "NET");
    // Two NICs per node, each on its socket's CPU, all on one network switch.
    const Link* ib = linkBetween(*t, "n1-mlx5_1", "network");
    ASSERT_NE(ib, nullptr);
    EXPECT_EQ(ib->kind, LinkKind::Network);
    EXPECT_DOUBLE_EQ(ib->bandwidthGBps, 50);
    ASSERT_NE(linkBetween(*t, "n1-mlx5_1", "n1-cpu1"), nullptr);
    ASSERT_NE(linkBetween(*t, "n0-cpu0", "n0-cpu1"), nullptr);
    EXPECT_NE(t->source.find("NVML"), std::string::npos);
    EXPECT_NE(t->source.find("assumed: cross-socket"), std::string::npos) << t->source;
    EXPECT_EQ(t->name, "2 nodes, 8 processes");
    const std::string placement = formatPlacement(twoNodesOfFour());
    EXPECT_NE(placement.find("node-b"), std::string::npos);
    EXPECT_NE(placement.find("mlx5_1 (infiniband 50 GB/s)"), std::string::npos) << placement;
}

TEST(ClusterTopology, PlacementAndTheCombinedMachineAreWordedInChinese)
{
    const std::vector<RankTopologyReport> reports = twoNodesOfFour();
    // English: the table as it was
    EXPECT_EQ(formatPlacement(reports, Language::English), formatPlacement(reports));
    EXPECT_EQ(formatPlacement(reports).rfind("rank  host             ", 0), 0u) << formatPlacement(reports);
    // Chinese: the column titles worded, the values as the processes reported them
    const std::string zh = formatPlacement(reports, Language::Chinese);
    EXPECT_EQ(zh.rfind("Rank  主机", 0), 0u) << zh;
    EXPECT_NE(zh.find("总线 ID"), std::string::npos) << zh;
    EXPECT_NE(zh.find("mlx5_1 (infiniband 50 GB/s)"), std::string::npos) << zh;
    EXPECT_EQ(untranslatedWords(zh, {"node-a", "node-b", "NVIDIA H200", "mlx5_0", "mlx5_1", "infiniband"}),
              std::vector<std::string>{})
        << zh;
    // the machine's name and source, ShardLab's own words, worded too; a preset's citation stays
    auto t = combineTopology(reports);
    ASSERT_TRUE(t) << t.error().message;
    const std::string matrix = topoMatrixText(*t, Language::Chinese);
    EXPECT_NE(matrix.find("拓扑：2 个节点，8 个进程\n"), std::string::npos) << matrix;
    EXPECT_NE(matrix.find("来源：由每个进程的报告合并而成（NVML）；假设：跨插槽 62.4 GB/s（UPI）\n"), std::string::npos)
        << matrix;
    const std::string english = topoMatrixText(*t, Language::English);
    EXPECT_NE(
        english.find("Source:   combined from every process's report (NVML); assumed: cross-socket 62.4 GB/s (UPI)\n"),
        std::string::npos)
        << english;
    Topology cited = *t;
    cited.source = "NVIDIA DGX H100 user guide; a figure measured by hand";
    EXPECT_NE(
        topoMatrixText(cited, Language::Chinese).find("来源：NVIDIA DGX H100 user guide; a figure measured by hand\n"),
        std::string::npos);
}

TEST(ClusterTopology, NvLinkBundlesBetweenPairs)
{
    // Four GPUs of one host in a mesh without NVSwitch: NV4 between 0-1 and 2-3, NV2 elsewhere,
    // reported by both sides (one bundle per pair), no NVLink between 0 and 3.
    std::vector<RankTopologyReport> v;
    for (int r = 0; r < 4; ++r) {
        RankTopologyReport g = hgxGpu(r, "box", r);
        g.nvswitchLinks = 0;
        g.nvlinkGBps = 20;
        g.pcieSwitch.clear();
        g.numaNode = 0;
        v.push_back(g);
    }
    auto link = [&](int a, int b, int n) {
        v[static_cast<size_t>(a)].nvlinks.push_back({v[static_cast<size_t>(b)].busId, n});
        v[static_cast<size_t>(b)].nvlinks.push_back({v[static_cast<size_t>(a)].busId, n});
    };
    link(0, 1, 4);
    link(2, 3, 4);
    link(0, 2, 2);
    link(1, 3, 2);
    link(1, 2, 2);
    auto t = combineTopology(v);
    ASSERT_TRUE(t.ok());
    int nvlinks = 0;
    for (const Link& l : t->links)
        nvlinks += l.kind == LinkKind::NvLink ? 1 : 0;
    EXPECT_EQ(nvlinks, 5);
    EXPECT_DOUBLE_EQ(linkBetween(*t, "gpu0", "gpu1")->bandwidthGBps, 80);
    const auto m = classifyPairs(*t);
    EXPECT_EQ(pathClassLabel(m[0][1]), "NV4");
    EXPECT_EQ(pathClassLabel(m[1][2]), "NV2");
    EXPECT_EQ(t->nodeCount(), 1);
}

TEST(ClusterTopology, PcieSwitchesAndUnknownFigures)
{
    // Two GPUs behind one PCIe switch, a third on the CPU; nothing known about widths or NICs.
    std::vector<RankTopologyReport> v(3);
    for (int r = 0; r < 3; ++r) {
        v[static_cast<size_t>(r)].rank = r;
        v[static_cast<size_t>(r)].host = "ws";
        v[static_cast<size_t>(r)].gpuName = "RTX";
        v[static_cast<size_t>(r)].busId = "0000:0" + std::to_string(r + 1) + ":00.0";
        v[static_cast<size_t>(r)].probe = "/proc and sysfs";
    }
    v[0].pcieSwitch = v[1].pcieSwitch = "pci0000:00/0000:01:00.0";
    auto t = combineTopology(v);
    ASSERT_TRUE(t.ok());
    const auto m = classifyPairs(*t);
    EXPECT_EQ(pathClassLabel(m[0][1]), "PIX");
    EXPECT_EQ(pathClassLabel(m[0][2]), "PHB");
    EXPECT_NE(t->source.find("assumed: PCIe 31.5 GB/s (Gen4 x16)"), std::string::npos) << t->source;
    EXPECT_NE(t->source.find("GPU memory and compute rate unknown"), std::string::npos);
    EXPECT_FALSE(validateTopology(*t).ok()); // memory unknown: shown, but not a scenario topology
    EXPECT_FALSE(combineTopology({}).ok());
}

TEST(ClusterTopology, NodesWithoutReadableNicsAreNamed)
{
    auto v = twoNodesOfFour();
    for (size_t r = 4; r < 8; ++r)
        v[r].nics.clear();
    auto t = combineTopology(v);
    ASSERT_TRUE(t.ok());
    EXPECT_NE(t->source.find("no NIC of node-b could be read"), std::string::npos) << t->source;
    EXPECT_EQ(pathClassLabel(classifyPairs(*t)[0][5]), "NET");
}

TEST(ClusterTopology, ReportsSurviveTheWire)
{
    const RankTopologyReport r = twoNodesOfFour()[6];
    auto back = decodeTopologyReport(encodeTopologyReport(r), "test");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, r);
    EXPECT_FALSE(decodeTopologyReport(Bytes8{0xa0}, "test").ok());
}

TEST(ClusterTopology, PcieAndInfinibandRates)
{
    // GT/s x lanes x encoding / 8
    EXPECT_NEAR(pcieGBpsFromSysfs("8.0 GT/s PCIe", "16"), 15.754, 1e-3);
    EXPECT_NEAR(pcieGBpsFromSysfs("16.0 GT/s PCIe", "16"), 31.508, 1e-3);
    EXPECT_NEAR(pcieGBpsFromSysfs("32.0 GT/s PCIe", "16"), 63.015, 1e-3);
    EXPECT_DOUBLE_EQ(pcieGBpsFromSysfs("5 GT/s", "8"), 4.0); // 8b/10b
    EXPECT_DOUBLE_EQ(pcieGBpsFromSysfs("Unknown", "16"), 0);
    EXPECT_DOUBLE_EQ(ibRateGBps("400 Gb/sec (4X NDR)"), 50);
    EXPECT_DOUBLE_EQ(ibRateGBps("garbage"), 0);
}

TEST(ClusterTopology, SysfsProbeOverAFakeTree)
{
    const fs::path root = fs::temp_directory_path() / "shardlab-fake-sysfs";
    fs::remove_all(root);
    write(root / "proc/sys/kernel/hostname", "gpu-node-7");
    for (const char* bus : {"0000:1a:00.0", "0000:3b:00.0"}) {
        write(root / "proc/driver/nvidia/gpus" / bus / "information",
              std::string("Model: \t\t NVIDIA H200\nIRQ:   42\nGPU UUID: \t GPU-") + (bus[5] == '1' ? "aaaa" : "bbbb")
                  + "-1111\nBus Location: \t " + bus);
    }
    // The second GPU sits below a switch (root port 3a, switch 3b's parent chain), on NUMA node 1.
    const fs::path dev = root / "sys/devices/pci0000:30/0000:30:01.0/0000:31:00.0/0000:32:00.0/0000:3b:00.0";
    write(dev / "current_link_speed", "32.0 GT/s PCIe");
    write(dev / "current_link_width", "16");
    write(dev / "numa_node", "1");
    fs::create_directories(root / "sys/bus/pci/devices");
    fs::create_symlink(dev, root / "sys/bus/pci/devices/0000:3b:00.0");
    // An active NDR port, a RoCE port, a down port; Ethernet up and down, loopback, a bridge.
    write(root / "sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE");
    write(root / "sys/class/infiniband/mlx5_0/ports/1/rate", "400 Gb/sec (4X NDR)");
    write(root / "sys/class/infiniband/mlx5_0/ports/1/link_layer", "InfiniBand");
    write(root / "sys/class/infiniband/mlx5_0/device/numa_node", "1");
    write(root / "sys/class/infiniband/mlx5_1/ports/1/state", "1: DOWN");
    write(root / "sys/class/infiniband/mlx5_1/ports/1/rate", "400 Gb/sec (4X NDR)");
    write(root / "sys/class/net/eth0/operstate", "up");
    write(root / "sys/class/net/eth0/speed", "100000");
    write(root / "sys/class/net/eth0/type", "1");
    write(root / "sys/class/net/eth0/device/numa_node", "0");
    write(root / "sys/class/net/eth1/operstate", "down");
    write(root / "sys/class/net/eth1/speed", "100000");
    write(root / "sys/class/net/eth1/device/numa_node", "0");
    write(root / "sys/class/net/lo/operstate", "unknown");
    write(root / "sys/class/net/docker0/operstate", "up");

    // CUDA_VISIBLE_DEVICES=1: this process's device 0 is the second GPU in PCI order.
    RankTopologyReport r = probeTopologyFromSysfs(0, {{"CUDA_VISIBLE_DEVICES", "1"}}, root);
    EXPECT_EQ(r.host, "gpu-node-7");
    EXPECT_EQ(r.physical, "1");
    EXPECT_EQ(r.gpuName, "NVIDIA H200");
    EXPECT_EQ(r.busId, "0000:3b:00.0");
    EXPECT_EQ(r.uuid, "GPU-bbbb-1111");
    EXPECT_EQ(r.numaNode, 1);
    EXPECT_NEAR(r.pcieGBps, 63.015, 1e-3);
    EXPECT_EQ(r.pcieSwitch, "pci0000:30/0000:31:00.0");
    ASSERT_EQ(r.nics.size(), 2u);
    EXPECT_EQ(r.nics[0], (NicReport{"mlx5_0", "infiniband", 50, 1}));
    EXPECT_EQ(r.nics[1], (NicReport{"eth0", "ethernet", 12.5, 0}));
    EXPECT_NE(english(probeNotes(r.notes)).find("NVLink not readable without NVML"), std::string::npos);
    // By UUID prefix, and without the variable: device index in PCI order.
    EXPECT_EQ(probeTopologyFromSysfs(0, {{"CUDA_VISIBLE_DEVICES", "GPU-aaaa"}}, root).busId, "0000:1a:00.0");
    EXPECT_EQ(probeTopologyFromSysfs(1, {}, root).busId, "0000:3b:00.0");
    // A device that is not there is named, not invented.
    const RankTopologyReport missing = probeTopologyFromSysfs(5, {}, root);
    EXPECT_TRUE(missing.gpuName.empty());
    EXPECT_NE(english(probeNotes(missing.notes)).find("device 5 (5) is not among the 2 GPUs"), std::string::npos)
        << english(probeNotes(missing.notes));
    fs::remove_all(root);
    const RankTopologyReport none = probeTopologyFromSysfs(0, {}, root);
    EXPECT_NE(english(probeNotes(none.notes)).find("is the NVIDIA driver loaded?"), std::string::npos);
    // each note is a Message, worded in Chinese too
    EXPECT_EQ(render(probeNotes(none.notes), Language::Chinese),
              "/proc/driver/nvidia/gpus 中没有列出任何 NVIDIA GPU（NVIDIA 驱动加载了吗？）");
}
