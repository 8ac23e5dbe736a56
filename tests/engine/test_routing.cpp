// Routes, bottlenecks and shared links, against hand-drawn topologies.
#include "shardlab/model/presets.h"
#include "shardlab/sim/routing.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {
// Two GPUs behind one PCIe switch whose uplink to the CPU is narrower than their own links.
Topology sharedUplink()
{
    Topology t;
    t.name = "shared-uplink";
    for (int i = 0; i < 4; ++i)
        t.gpus.push_back({"gpu" + std::to_string(i), "G", 16'000'000'000ULL, 10, 900, 0, 0});
    t.switches = {{"swA", SwitchKind::PcieSwitch, 0, 0}, {"swB", SwitchKind::PcieSwitch, 0, 0}, {"cpu", SwitchKind::Cpu, 0, 0}};
    t.links = {{"gpu0", "swA", LinkKind::Pcie, 1, 16, 0.5}, {"gpu1", "swA", LinkKind::Pcie, 1, 16, 0.5},
               {"gpu2", "swB", LinkKind::Pcie, 1, 16, 0.5}, {"gpu3", "swB", LinkKind::Pcie, 1, 16, 0.5},
               {"swA", "cpu", LinkKind::Pcie, 1, 16, 0.5},  {"swB", "cpu", LinkKind::Pcie, 1, 16, 0.5}};
    return t;
}
} // namespace

TEST(Routing, WidestPathAndLatency)
{
    const Topology t = sharedUplink();
    Router r(t);
    const Route& near = r.route(0, 1);
    EXPECT_EQ(near.hops.size(), 2u);
    EXPECT_DOUBLE_EQ(near.bottleneckGBps, 16);
    EXPECT_DOUBLE_EQ(near.latencyUs, 1.0);
    const Route& far = r.route(0, 2);
    EXPECT_EQ(far.hops.size(), 4u); // gpu0 > swA > cpu > swB > gpu2
    EXPECT_DOUBLE_EQ(far.latencyUs, 2.0);
}

TEST(Routing, TwoGpusBehindOneSwitchShareItsUplink)
{
    const Topology t = sharedUplink();
    Router r(t);
    // gpu0 -> gpu2 and gpu1 -> gpu3 both leave switch A through its one uplink: 8 GB/s each.
    FlowSetResult both = r.shareLinks({{0, 2, 1.0}, {1, 3, 1.0}});
    EXPECT_DOUBLE_EQ(both.minGBps, 8.0);
    EXPECT_DOUBLE_EQ(both.flowGBps[0], 8.0);
    EXPECT_EQ(t.links[static_cast<size_t>(both.bottleneckLink)].a, "swA");
    // Opposite directions do not compete: full rate each way.
    FlowSetResult opposite = r.shareLinks({{0, 2, 1.0}, {2, 0, 1.0}});
    EXPECT_DOUBLE_EQ(opposite.minGBps, 16.0);
}

TEST(Routing, GpusDoNotForwardTraffic)
{
    // gpu0 - gpu1 - gpu2 by NVLink only: gpu0 and gpu2 are not connected through gpu1.
    Topology t;
    for (int i = 0; i < 3; ++i)
        t.gpus.push_back({"gpu" + std::to_string(i), "G", 1'000'000'000ULL, 1, 1, 0, 0});
    t.links = {{"gpu0", "gpu1", LinkKind::NvLink, 4, 100, 0.2}, {"gpu1", "gpu2", LinkKind::NvLink, 4, 100, 0.2}};
    Router r(t);
    EXPECT_FALSE(r.route(0, 2).valid());
    EXPECT_TRUE(r.route(0, 1).valid());
}

TEST(Routing, HostLinkIsThePcieUplink)
{
    EXPECT_DOUBLE_EQ(hostLinkGBps(*preset("teaching-4x16gb-pcie"), 0), 15.75);
}
