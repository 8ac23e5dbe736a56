// Rebuilding a machine's topology from NVML's facts (shardlab/machine_topology.h): the graph must
// give back exactly the classes nvidia-smi prints.
#include "shardlab/live/machine_topology.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {
MachineFacts facts(const std::vector<std::vector<PathClass>>& pcie)
{
    MachineFacts f;
    f.name = "test";
    const size_t n = pcie.size();
    for (size_t i = 0; i < n; ++i)
        f.gpus.push_back({"GPU", "0000:0" + std::to_string(i) + ":00.0", 80'000'000'000ULL, 60, 3000, 63, 0});
    f.pcie = pcie;
    f.nvlinks.assign(n, std::vector<int>(n, 0));
    f.switchLinks.assign(n, 0);
    f.nvlinkGBps = 25;
    return f;
}
constexpr PathClass X = PathClass::Self, PIX = PathClass::Pix, PXB = PathClass::Pxb, PHB = PathClass::Phb,
                    NODE = PathClass::Node, SYS = PathClass::Sys;
} // namespace

TEST(MachineTopology, NvmlLevelsMapToNvidiaSmiClasses)
{
    EXPECT_EQ(pathClassFromNvmlLevel(0), PIX);
    EXPECT_EQ(pathClassFromNvmlLevel(10), PIX);
    EXPECT_EQ(pathClassFromNvmlLevel(20), PXB);
    EXPECT_EQ(pathClassFromNvmlLevel(30), PHB);
    EXPECT_EQ(pathClassFromNvmlLevel(40), NODE);
    EXPECT_EQ(pathClassFromNvmlLevel(50), SYS);
    EXPECT_DOUBLE_EQ(pcieLaneGBps(5) * 16, 63.008);
    EXPECT_EQ(fp32LanesPerSm(9, 0), 128);
    EXPECT_EQ(fp32LanesPerSm(8, 0), 64);
}

TEST(MachineTopology, EveryPcieClassComesBack)
{
    // GPU0-1 share a switch, GPU2 sits under another switch of the same parent (PXB), GPU3 under
    // the same host bridge (PHB), GPU4 under another host bridge of the NUMA node (NODE), GPU5 on
    // the other socket (SYS).
    const std::vector<std::vector<PathClass>> m = {
        {X, PIX, PXB, PHB, NODE, SYS}, {PIX, X, PXB, PHB, NODE, SYS},    {PXB, PXB, X, PHB, NODE, SYS},
        {PHB, PHB, PHB, X, NODE, SYS}, {NODE, NODE, NODE, NODE, X, SYS}, {SYS, SYS, SYS, SYS, SYS, X},
    };
    const Topology t = topologyFromMachine(facts(m));
    ASSERT_TRUE(validateTopology(t).ok()) << validateTopology(t).error().message;
    const auto classes = classifyPairs(t);
    for (size_t a = 0; a < m.size(); ++a)
        for (size_t b = 0; b < m.size(); ++b)
            EXPECT_EQ(classes[a][b].cls, m[a][b]) << "GPU" << a << " - GPU" << b;
    EXPECT_EQ(t.gpus[5].socket, 1);
    EXPECT_EQ(t.gpus[0].socket, 0);
}

TEST(MachineTopology, NvlinkThroughSwitchAndDirect)
{
    // Four HGX GPUs with 18 links into NVSwitch: every pair NV18, PCIe pairs as on an HGX board.
    MachineFacts f = facts({{X, PIX, NODE, SYS}, {PIX, X, NODE, SYS}, {NODE, NODE, X, SYS}, {SYS, SYS, SYS, X}});
    f.switchLinks = {18, 18, 18, 18};
    Topology t = topologyFromMachine(f);
    auto c = classifyPairs(t);
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            if (a != b) {
                EXPECT_EQ(c[static_cast<size_t>(a)][static_cast<size_t>(b)].cls, PathClass::NvLink);
                EXPECT_EQ(c[static_cast<size_t>(a)][static_cast<size_t>(b)].nvlinks, 18);
            }
    EXPECT_TRUE(sharesFastDomain(t));
    // Two consumer cards joined by a 4-link bridge, on PCIe under one host bridge.
    MachineFacts pair = facts({{X, PHB}, {PHB, X}});
    pair.nvlinks = {{0, 4}, {0, 0}};
    t = topologyFromMachine(pair);
    c = classifyPairs(t);
    EXPECT_EQ(c[0][1].cls, PathClass::NvLink);
    EXPECT_EQ(c[0][1].nvlinks, 4);
    EXPECT_NE(topoMatrixText(t, Language::English).find("NV4"), std::string::npos);
    // Without the bridge: PHB, and not one fast domain.
    pair.nvlinks = {{0, 0}, {0, 0}};
    t = topologyFromMachine(pair);
    EXPECT_EQ(classifyPairs(t)[0][1].cls, PHB);
    EXPECT_FALSE(sharesFastDomain(t));
}

TEST(MachineTopology, OneGpu)
{
    const Topology t = topologyFromMachine(facts({{X}}));
    EXPECT_EQ(t.rankCount(), 1);
    EXPECT_TRUE(validateTopology(t).ok());
    EXPECT_EQ(classifyPairs(t)[0][0].cls, X);
}
