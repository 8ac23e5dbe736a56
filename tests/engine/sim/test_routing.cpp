// Routes, bottlenecks and shared links, against hand-drawn topologies.
#include "../test_helpers.h"

#include "shardlab/model/presets.h"
#include "shardlab/sim/routing.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace shardlab;

namespace {
// Two GPUs behind one PCIe switch whose uplink to the CPU is narrower than their own links.
Topology sharedUplink()
{
    Topology t;
    t.name = "shared-uplink";
    for (int i = 0; i < 4; ++i)
        t.gpus.push_back({"gpu" + std::to_string(i), "G", 16'000'000'000ULL, 10, 900, 0, 0});
    t.switches = {
        {"swA", SwitchKind::PcieSwitch, 0, 0}, {"swB", SwitchKind::PcieSwitch, 0, 0}, {"cpu", SwitchKind::Cpu, 0, 0}};
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

TEST(Routing, HostLinkIsThePcieUplink) { EXPECT_DOUBLE_EQ(hostLinkGBps(*preset("teaching-4x16gb-pcie"), 0), 15.75); }

TEST(Routing, OneSwitchOfAThousandGpusJoinsEveryPairThroughTheSwitch)
{
    // As in a box of eight: two hops (GPU > switch > GPU), the link's 100 GB/s, 2 x 0.25 us.
    const Topology t = test::nvswitchBox(1000);
    Router r(t);
    for (auto [a, b] : {std::pair{0, 1}, {0, 999}, {999, 0}, {500, 3}, {998, 999}}) {
        const Route& route = r.route(a, b);
        ASSERT_EQ(route.hops.size(), 2u) << a << " > " << b;
        const Link& in = t.links[static_cast<size_t>(route.hops[0].link)];
        const Link& out = t.links[static_cast<size_t>(route.hops[1].link)];
        EXPECT_EQ(in.a, "gpu" + std::to_string(a));
        EXPECT_EQ(in.b, "nvs");
        EXPECT_EQ(out.a, "gpu" + std::to_string(b));
        EXPECT_DOUBLE_EQ(route.bottleneckGBps, 100);
        EXPECT_DOUBLE_EQ(route.latencyUs, 0.5);
    }
    // every GPU is as good as any other: one class
    std::vector<int> all(1000);
    std::iota(all.begin(), all.end(), 0);
    const std::vector<int> classes = r.interchangeableClasses(all);
    EXPECT_TRUE(std::all_of(classes.begin(), classes.end(), [](int c) { return c == 0; }));
}

TEST(Routing, ReachWithinNodeIsWhatRouteFindsForEveryPair)
{
    // Presets with NVSwitch, a PCIe tree, GPU-to-GPU NVLink and two nodes; and a node whose two
    // halves meet only through the network (route() then goes out through the fabric).
    std::vector<Topology> machines;
    for (const char* id : {"teaching-8x16gb-2socket", "dgx1-p100", "2x8-h100-ib", "h200-nvswitch-8"})
        machines.push_back(*preset(id));
    Topology split = sharedUplink();
    std::erase_if(split.links, [](const Link& l) { return l.a == "swB"; }); // swB loses its uplink
    split.gpus.push_back({"gpu4", "G", 16'000'000'000ULL, 10, 900, 0, 0});  // and gpu4 has no link at all
    split.switches.push_back({"nicA", SwitchKind::Nic, 0, 0});
    split.switches.push_back({"nicB", SwitchKind::Nic, 0, 0});
    split.switches.push_back({"fabric", SwitchKind::NetworkSwitch, -1, 0});
    split.links.push_back({"nicA", "swA", LinkKind::Pcie, 1, 63, 0.5});
    split.links.push_back({"nicB", "swB", LinkKind::Pcie, 1, 63, 0.5});
    split.links.push_back({"nicA", "fabric", LinkKind::Network, 1, 50, 1.5});
    split.links.push_back({"nicB", "fabric", LinkKind::Network, 1, 50, 1.5});
    machines.push_back(split);
    for (const Topology& t : machines) {
        Router search(t), pairs(t);
        for (int a = 0; a < t.rankCount(); ++a) {
            std::vector<int> sameNode;
            for (int b = 0; b < t.rankCount(); ++b)
                if (t.gpus[static_cast<size_t>(b)].node == t.gpus[static_cast<size_t>(a)].node)
                    sameNode.push_back(b);
            const std::vector<Router::Reach> reach = search.reachWithinNode(a, sameNode);
            for (size_t i = 0; i < sameNode.size(); ++i) {
                const Route& r = pairs.route(a, sameNode[i]);
                EXPECT_EQ(reach[i].bottleneckGBps, r.bottleneckGBps) << t.name << " " << a << " > " << sameNode[i];
                EXPECT_EQ(reach[i].latencyUs, r.latencyUs) << t.name << " " << a << " > " << sameNode[i];
            }
        }
    }
    Router r(split);
    EXPECT_EQ(r.route(0, 2).hops.size(), 6u); // gpu0 > swA > nicA > fabric > nicB > swB > gpu2
    EXPECT_FALSE(r.route(0, 4).valid());
}

TEST(Routing, InterchangeableGpusAreThoseWithTheSameLinks)
{
    std::vector<int> eight(8);
    std::iota(eight.begin(), eight.end(), 0);
    // DGX H200: every GPU on the NVSwitch, two per PCIe switch: the pairs are interchangeable
    const Topology hgx = *preset("h200-nvswitch-8");
    EXPECT_EQ(Router(hgx).interchangeableClasses(eight), (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}));
    // DGX-1: GPUs joined to GPUs by NVLink are each their own class
    const Topology dgx1 = *preset("dgx1-p100");
    EXPECT_EQ(Router(dgx1).interchangeableClasses(eight), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    // a slower link to the same switch makes a GPU different
    Topology box = test::nvswitchBox(4);
    box.links[2].bandwidthGBps = 50;
    EXPECT_EQ(Router(box).interchangeableClasses({0, 1, 2, 3}), (std::vector<int>{0, 0, 1, 0}));
}

// Link ends resolved once for routing and connectedParts: GPUs are vertices 0..n-1, switches
// follow; an id that names nothing is -1, and the router leaves that link out.
TEST(Routing, LinkVerticesResolveIdsAndMarkUnknownOnes)
{
    Topology t = shardlab::test::nvswitchBox(2);
    t.links.push_back({"gpu1", "nowhere", LinkKind::Pcie, 1, 10, 0.5});
    const auto ends = linkVertices(t);
    ASSERT_EQ(ends.size(), 3u);
    EXPECT_EQ(ends[0], (std::pair<int, int>{0, 2})); // gpu0 - nvs (the first switch, vertex 2)
    EXPECT_EQ(ends[1], (std::pair<int, int>{1, 2}));
    EXPECT_EQ(ends[2], (std::pair<int, int>{1, -1}));
    Router router(t);
    EXPECT_EQ(router.linkEnds(2), (std::pair<int, int>{-1, -1}));
    EXPECT_EQ(router.route(0, 1).hops.size(), 2u);
    // the two GPUs and the switch are one part; the broken link joins nothing
    const std::vector<int> parts = connectedParts(t);
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[0], parts[2]);
    EXPECT_EQ(parts[1], parts[2]);
    t.links.pop_back();
    t.links.pop_back(); // gpu1 alone now
    const std::vector<int> apart = connectedParts(t);
    EXPECT_EQ(apart[0], apart[2]);
    EXPECT_NE(apart[1], apart[2]);
}
