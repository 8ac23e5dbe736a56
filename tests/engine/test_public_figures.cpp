// The uncalibrated presets against published nccl-tests figures (docs/cost-model.md, "Validation
// against public figures"): one test per figure. Each checks the prediction twice: against the
// value computed by hand from the formulas (docs/cost-model.md), and against the public figure
// within 15%.
#include "shardlab/model/presets.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/profiles.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace shardlab;

namespace {

constexpr Bytes kPublicFigureGiB8 = Bytes{8} << 30; // the largest size of the usual nccl-tests sweeps

std::vector<int> publicFigureRanks(int n)
{
    std::vector<int> g(static_cast<size_t>(n));
    std::iota(g.begin(), g.end(), 0);
    return g;
}

// nccl-tests' all-reduce bus bandwidth (doc/PERFORMANCE.md): S / T * 2(n-1)/n, in GB/s.
double publicFigureBusBw(CostModel& m, int n, Bytes bytes, Algorithm algorithm = Algorithm::Auto,
                      Algorithm* chosen = nullptr)
{
    const CollectiveCost c = m.collective(OpKind::AllReduce, bytes, publicFigureRanks(n), algorithm);
    if (chosen)
        *chosen = c.algorithm;
    const double algbw = static_cast<double>(bytes) / (c.timeUs * 1e-6) / 1e9;
    return algbw * 2.0 * (n - 1) / n;
}

Topology publicFigureWithNvls(Topology t)
{
    for (SwitchNode& s : t.switches)
        if (s.kind == SwitchKind::NvSwitch)
            s.nvls = true;
    return t;
}

// Within `tolerance` of the public figure, and reported in the failure message either way.
void expectNearPublished(double predicted, double published, double tolerance = 0.15)
{
    EXPECT_NEAR(predicted, published, tolerance * published) << "predicted " << predicted << ", published " << published;
}

} // namespace

// 8 H100 in one node, ring (NVLS off): "NCCL can get an effective NVLink bandwidth of 370GB/s"
// (github.com/NVIDIA/nccl-tests/issues/212). By hand: 450 GB/s x 0.80 = 360 GB/s.
TEST(PublicFigures, H100OneNodeRing370)
{
    CostModel m(preset("2x8-h100-ib")->firstGpus(8));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 8, kPublicFigureGiB8, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Ring);
    EXPECT_NEAR(busbw, 360.0, 1.0);
    expectNearPublished(busbw, 370.0);
}

// 8 H100 with NVLink SHARP: busbw ~480 GB/s, algbw ~275 (nccl-tests/issues/212). The profile's
// NVLS efficiency is fitted on this figure (275 / 450 = 0.61), so this test pins the fit:
// algbw = 450 x 0.61 = 274.5 GB/s, busbw = 274.5 x 2 x 7/8 = 480.4 GB/s.
TEST(PublicFigures, H100OneNodeNvls480)
{
    CostModel m(preset("2x8-h100-ib-nvls")->firstGpus(8));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 8, kPublicFigureGiB8, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Nvls);
    EXPECT_NEAR(busbw, 480.4, 1.5);
    expectNearPublished(busbw, 480.0);
}

// NVLS on 5, 6 and 7 H100 (ALGO=NVLS, 2-4 GB): busbw 420, 440, 460 GB/s
// (github.com/NVIDIA/nccl/issues/1455). Predictions, not fits: algbw 274.5 x 2(n-1)/n =
// 439.2, 457.5, 470.6 GB/s.
TEST(PublicFigures, H100NvlsFiveToSevenGpus)
{
    const double published[] = {420.0, 440.0, 460.0};
    const double byHand[] = {439.2, 457.5, 470.6};
    for (int n = 5; n <= 7; ++n) {
        CostModel m(preset("2x8-h100-ib-nvls")->firstGpus(n));
        const double busbw = publicFigureBusBw(m, n, Bytes{4} << 30, Algorithm::Nvls);
        EXPECT_NEAR(busbw, byHand[n - 5], 1.5) << n << " GPUs";
        expectNearPublished(busbw, published[n - 5]);
    }
}

// 8 H200 with NVLS: peak busbw 475 GB/s (github.com/NVIDIA/nccl-tests/issues/272). The same
// NVLink4 rate as H100, so the same 480.4 GB/s.
TEST(PublicFigures, H200OneNodeNvls475)
{
    CostModel m(publicFigureWithNvls(*preset("h200-nvswitch-8")));
    const double busbw = publicFigureBusBw(m, 8, Bytes{4} << 30);
    EXPECT_NEAR(busbw, 480.4, 1.5);
    expectNearPublished(busbw, 475.0);
}

// 2 x 8 H100, eight 400 Gb/s NICs each, forced ring: "For NDR @ 400Gbps you should see
// 46-48GB/s per NIC" (github.com/NVIDIA/nccl-tests/issues/290), so 368-384 GB/s for eight. By
// hand: one channel per NIC, each NIC 50 x 0.94 = 47 GB/s, eight: 376 GB/s (NVLink carries 7/8
// of it per GPU, 411 GB/s worth, so the NICs limit).
TEST(PublicFigures, H100TwoNodesRingPerNic)
{
    CostModel m(*preset("2x8-h100-ib"));
    const double busbw = publicFigureBusBw(m, 16, kPublicFigureGiB8, Algorithm::Ring);
    EXPECT_NEAR(busbw, 376.0, 2.0);
    expectNearPublished(busbw, 376.0);
}

// 2 x 8 H100 with NVLS, eight 400 Gb/s NICs (default algorithm): 470 GB/s
// (github.com/NVIDIA/nccl-tests/issues/309). NVLS-tree: algbw = min(B_nvls 274.5,
// B_net 376 / 1) = 274.5, busbw = 274.5 x 2 x 15/16 = 514.7 GB/s: 9.5% above.
TEST(PublicFigures, H100TwoNodesNvlsTree470)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 16, kPublicFigureGiB8, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::NvlsTree);
    EXPECT_NEAR(busbw, 514.7, 2.0);
    expectNearPublished(busbw, 470.0);
    // one GPU per node has nothing to reduce in the switch: no NVLS-tree there
    EXPECT_NE(m.collective(OpKind::AllReduce, kPublicFigureGiB8, {0, 8}).algorithm, Algorithm::NvlsTree);
}

// 4 x 8 H100 with NVLS, same cluster: 365.84 GB/s (nccl-tests/issues/309). On four nodes the
// tree sends 2S per node, so NVLS-tree gets min(274.5, 376 / 2) = 188 GB/s algbw (364 busbw) and
// the ring, limited by the NICs, 376 busbw: the ring wins, as NCCL's tuner picks rings for large
// sizes beyond two nodes.
TEST(PublicFigures, H100FourNodes366)
{
    CostModel m(scaleOut(*preset("2x8-h100-ib-nvls"), 32));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 32, kPublicFigureGiB8, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Ring);
    // 62 steps: 56 x (4.0 + 0.4) + 6 x (14 + 5.0) + 18 = 378 us of latency against
    // 2 x 31/32 x 8 GiB / 376 GB/s = 44,260 us: busbw 376 x 44,260 / 44,638 = 372.8 GB/s
    EXPECT_NEAR(busbw, 372.8, 0.5);
    expectNearPublished(busbw, 365.84);
}

// DGX A100, eight 200 Gb/s HDR NICs: "we measure 192GB/s AllReduce BusBW" (AddyLaddy, NVIDIA,
// github.com/NVIDIA/nccl/issues/812; the ring's figure, which the thread compares). Four nodes,
// ring: 8 x 25 x 0.94 = 188 GB/s.
TEST(PublicFigures, DgxA100EightHdr192)
{
    CostModel m(scaleOut(*preset("2x8-a100-8hdr"), 32));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 32, kPublicFigureGiB8, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Ring);
    EXPECT_NEAR(busbw, 188.0, 1.5);
    expectNearPublished(busbw, 192.0);
}

// 3 x 8 A100, four 200 Gb/s HDR NICs each: 96 GB/s peak at 128 MB, "96GB/s is the target"
// (sjeaugey, github.com/NVIDIA/nccl-tests/issues/119). At 128 MB (134,217,728 B) the ring and the
// tree are close. Tree by hand: algbw = min(B_chain / 2 = 300 x 0.8 / 2 = 120, B_net / 2 = 4 x 25
// x 0.94 / 2 = 47) = 47 GB/s, times NCCL's tree correction at 2^21 x 64 B (Simple: 0.9) = 42.3
// GB/s; T = 6 + 12 (Simple) + 2 x 7 x (4.0 + 0.4) NVLink steps + 2 x 2 x (14 + 5.0) network steps
// + S / 42.3 GB/s = 18 + 61.6 + 76 + 3173.0 = 3328.6 us; busbw = S / T x 2 x 23/24 = 77.3 GB/s.
// The ring: 2 x 23 - 4 NVLink steps and 4 network steps, T = 18 + 42 x (4.0 + 0.4) + 4 x (14 + 5.0)
// + 2 x 23/24 S / 94 GB/s (four channels, one per NIC) = 278.8 + 2736.7 = 3015.5 us, busbw 85.3 GB/s:
// the ring wins, 11% below the figure (before the tree's correction the tree won with 85.4).
TEST(PublicFigures, A100ThreeNodesFourHdr96)
{
    CostModel m(scaleOut(*preset("2x8-a100-4hdr"), 24));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 24, Bytes{128} << 20, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Ring);
    EXPECT_NEAR(busbw, 85.3, 0.05);
    expectNearPublished(busbw, 96.0);
    EXPECT_NEAR(publicFigureBusBw(m, 24, Bytes{128} << 20, Algorithm::Tree), 77.3, 0.1);
    // the ring alone, at the size where bandwidth dominates: four channels, one per NIC, 94 GB/s
    EXPECT_NEAR(publicFigureBusBw(m, 24, kPublicFigureGiB8, Algorithm::Ring), 94.0, 1.0);
}

// Small messages across nodes (docs/cost-model.md, "Small messages"): the latency of an 8 B
// all-reduce, nccl-tests' in-place time (the out-of-place 8 B row is the sweep's first call and
// carries warm-up; its 16 B row agrees with the in-place one). Within 25%, each.
namespace {

double publicFigureMicros(CostModel& m, int n, Algorithm algorithm, Algorithm* chosen, Protocol* protocol = nullptr)
{
    const CollectiveCost c = m.collective(OpKind::AllReduce, 8, publicFigureRanks(n), algorithm);
    *chosen = c.algorithm;
    if (protocol)
        *protocol = c.protocol;
    return c.timeUs;
}

} // namespace

// 2 x 8 H100, eight 400 Gb/s NDR NICs each, NVLS on, NCCL 2.26.2, default algorithm: 24.70 us
// (github.com/NVIDIA/nccl-tests/issues/309). By hand, NCCL's tree/LL latency (tuning.cc):
// 6.8 + 2 x (7 x 0.6 + 1 x 5.0) = 25.2 us, plus 8 B at the tree's LL bandwidth (nanoseconds).
TEST(PublicFigures, H100TwoNodesEightBytes)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    Protocol p{};
    const double us = publicFigureMicros(m, 16, Algorithm::Auto, &a, &p);
    EXPECT_EQ(a, Algorithm::Tree);
    EXPECT_EQ(p, Protocol::LL);
    EXPECT_NEAR(us, 25.2, 0.01);
    expectNearPublished(us, 24.70, 0.25);
}

// 4 x 8 H100, same cluster and run: 34.75 us (nccl-tests/issues/309). The tree's depth doubles:
// 6.8 + 2 x (7 x 0.6 + 2 x 5.0) = 35.2 us.
TEST(PublicFigures, H100FourNodesEightBytes)
{
    CostModel m(scaleOut(*preset("2x8-h100-ib-nvls"), 32));
    Algorithm a{};
    const double us = publicFigureMicros(m, 32, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Tree);
    EXPECT_NEAR(us, 35.2, 0.01);
    expectNearPublished(us, 34.75, 0.25);
}

// 2 x 8 H20 (NVLink4 NVSwitch with NVLS, eight 400 Gb/s NICs; the preset's H100 differ only in
// compute), NCCL_ALGO=NVLSTree: 47.6 us at 8 B (github.com/NVIDIA/nccl/issues/1244). NCCL's
// NVLS-tree latency: 23 + 2 x 1 x 14 = 51 us.
TEST(PublicFigures, NvlsTreeTwoNodesEightBytes)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    const double us = publicFigureMicros(m, 16, Algorithm::NvlsTree, &a);
    EXPECT_EQ(a, Algorithm::NvlsTree);
    EXPECT_NEAR(us, 51.0, 0.01);
    expectNearPublished(us, 47.6);
}

// Rings grow with the ranks: 2 x DGX A100 (eight 200 Gb/s HDR NICs each), NCCL 2.16.5, the ring
// forced: 92.93 us at 8 B (github.com/NVIDIA/nccl/issues/812). By hand, LL: launch 6 + base 6 +
// 28 NVLink steps x (1.6 + 0.4 route) + 2 network steps x (5.0 + 5.0 route: PCIe 2 x 0.5 and
// InfiniBand 1.5 each way) = 88 us. The tree the model picks on its own: 25.2 us.
TEST(PublicFigures, DgxA100TwoNodesRingEightBytes)
{
    CostModel m(*preset("2x8-a100-8hdr"));
    Algorithm a{};
    Protocol p{};
    const double us = publicFigureMicros(m, 16, Algorithm::Ring, &a, &p);
    EXPECT_EQ(a, Algorithm::Ring);
    EXPECT_EQ(p, Protocol::LL);
    EXPECT_NEAR(us, 88.0, 0.01);
    expectNearPublished(us, 92.93, 0.25);
    EXPECT_NEAR(publicFigureMicros(m, 16, Algorithm::Auto, &a), 25.2, 0.01);
    EXPECT_EQ(a, Algorithm::Tree);
}

// Beyond the public figures (none found for 8-64 nodes): the tree's latency grows by 2 x 5 us per
// doubling of the nodes, 6.8 + 2 x (7 x 0.6 + log2(N) x 5.0): 45.2, 55.2, 65.2, 75.2 us on 8, 16,
// 32, 64 nodes of eight H100, and the ring's with the ranks (376 us on 8 nodes).
TEST(PublicFigures, EightByteLatencyGrowsWithLog2OfTheNodes)
{
    double expected = 45.2;
    for (int nodes : {8, 16, 32, 64}) {
        CostModel m(scaleOut(*preset("2x8-h100-ib"), 8 * nodes));
        Algorithm a{};
        EXPECT_NEAR(publicFigureMicros(m, 8 * nodes, Algorithm::Auto, &a), expected, 0.01) << nodes << " nodes";
        EXPECT_EQ(a, Algorithm::Tree);
        expected += 10.0;
    }
    CostModel eight(scaleOut(*preset("2x8-h100-ib"), 64));
    Algorithm a{};
    EXPECT_NEAR(publicFigureMicros(eight, 64, Algorithm::Ring, &a), 376.0, 0.01);
}

// Medium sizes across nodes (docs/cost-model.md, "Medium sizes"): 2 x 8 H100, eight 400 Gb/s NDR
// NICs each, NVLS on, NCCL 2.26.2, default algorithm, nccl-tests' in-place times
// (github.com/NVIDIA/nccl-tests/issues/309). What bounds them: NCCL's LL cap across nodes (llMaxBws,
// Intel x86, two nodes: 39.0 GB/s of bus bandwidth, so the tree's LL algbw is at most 19.5 GB/s)
// and its tree correction by size (treeCorrectionFactor), which leave NVLS-tree the fastest from
// 256 KB on. NVLS-tree by hand: 23 + 2 x 14 = 51 us + S / min(B_nvls = 450 x 0.61 = 274.5,
// B_net = 8 x 50 x 0.94 = 376) GB/s.
namespace {

double publicFigureMediumMicros(CostModel& m, Bytes bytes, Algorithm* chosen)
{
    const CollectiveCost c = m.collective(OpKind::AllReduce, bytes, publicFigureRanks(16));
    *chosen = c.algorithm;
    return c.timeUs;
}

} // namespace

// 256 KB: 46.8 us. NVLS-tree: 51 + 262144 B / 274.5 GB/s = 51 + 0.955 = 51.95 us (+11%). The tree
// with LL, by hand: 25.2 + 262144 B / (19.5 GB/s x 0.4 (correction at 2^12 x 64 B)) = 25.2 + 33.6 =
// 58.8 us; before the cap and the correction it was 25.2 + 262144 / 54 GB/s = 30.1 us (-36%).
TEST(PublicFigures, H100TwoNodesMedium256K)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    const double us = publicFigureMediumMicros(m, Bytes{256} << 10, &a);
    EXPECT_EQ(a, Algorithm::NvlsTree);
    EXPECT_NEAR(us, 51.95, 0.01);
    expectNearPublished(us, 46.8, 0.25);
    const CollectiveCost tree = m.collective(OpKind::AllReduce, Bytes{256} << 10, publicFigureRanks(16), Algorithm::Tree);
    EXPECT_EQ(tree.protocol, Protocol::LL);
    EXPECT_NEAR(tree.timeUs, 58.81, 0.01);
}

// 1 MB: 71.5 us. NVLS-tree: 51 + 1048576 B / 274.5 GB/s = 51 + 3.82 = 54.82 us (-23%). The tree
// with LL: 25.2 + 1048576 / (19.5 x 0.5 (2^14)) = 25.2 + 107.5 = 132.7 us.
TEST(PublicFigures, H100TwoNodesMedium1M)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    const double us = publicFigureMediumMicros(m, Bytes{1} << 20, &a);
    EXPECT_EQ(a, Algorithm::NvlsTree);
    EXPECT_NEAR(us, 54.82, 0.01);
    expectNearPublished(us, 71.5, 0.25);
}

// 4 MB: 94.2 us, NOT matched: NVLS-tree 51 + 4194304 B / 274.5 GB/s = 51 + 15.28 = 66.28 us (-30%).
// Neither the LL cap nor the tree's correction touches NVLS-tree (NCCL applies neither to it), and
// its bandwidth is right at large sizes (row 6, +9.5%); what slows NCCL's NVLS-tree at 4 MB is not
// in the model (docs/cost-model.md). Pinned to the hand value only, so that a change shows.
TEST(PublicFigures, H100TwoNodesMedium4MNotMatched)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    const double us = publicFigureMediumMicros(m, Bytes{4} << 20, &a);
    EXPECT_EQ(a, Algorithm::NvlsTree);
    EXPECT_NEAR(us, 66.28, 0.01);
}

// The ring's LL across nodes is capped at 39.0 GB/s of bus bandwidth on two nodes (llMaxBws,
// Intel): forced on 2 x 8 H100 without NVLS it runs LL at 64 KB and 128 KB, and the extra 64 KB
// costs 2 x 15/16 x 65536 B / 39.0 GB/s = 3.151 us (uncapped, 0.30 x 376 = 112.8 GB/s: 1.09 us).
TEST(PublicFigures, RingLlCapAcrossTwoNodes)
{
    CostModel m(*preset("2x8-h100-ib"));
    const CollectiveCost a = m.collective(OpKind::AllReduce, Bytes{64} << 10, publicFigureRanks(16), Algorithm::Ring);
    const CollectiveCost b = m.collective(OpKind::AllReduce, Bytes{128} << 10, publicFigureRanks(16), Algorithm::Ring);
    EXPECT_EQ(a.protocol, Protocol::LL);
    EXPECT_EQ(b.protocol, Protocol::LL);
    EXPECT_NEAR(b.timeUs - a.timeUs, 3.151, 0.001);
}

// The cap is the profile's (CostProfile::llMaxBusGBps, "ll_max_bus_gbps"): with NCCL's AMD values
// (22.5 GB/s on two nodes) the tree's LL at 64 KB (correction 0.6 at 2^10 x 64 B) on 2 x 8 H100
// takes 25.2 + 65536 B / (22.5 / 2 x 0.6) GB/s = 25.2 + 9.709 = 34.91 us (Intel's 39.0: 30.80 us).
// A malformed value is refused, naming the field.
TEST(PublicFigures, LlCapComesFromTheProfile)
{
    auto amd = profileFromJson(R"({"shardlab_profile": 1, "name": "amd", "ll_max_bus_gbps": [22.5, 19.0]})", "amd");
    ASSERT_TRUE(amd.ok()) << amd.error().message;
    EXPECT_EQ(amd->llMaxBusGBps[0], 22.5);
    EXPECT_EQ(amd->llMaxBusGBps[1], 19.0);
    CostModel m(*preset("2x8-h100-ib-nvls"), *amd);
    const CollectiveCost tree = m.collective(OpKind::AllReduce, Bytes{64} << 10, publicFigureRanks(16), Algorithm::Tree);
    EXPECT_EQ(tree.protocol, Protocol::LL);
    EXPECT_NEAR(tree.timeUs, 34.91, 0.01);
    CostModel intel(*preset("2x8-h100-ib-nvls"));
    EXPECT_NEAR(intel.collective(OpKind::AllReduce, Bytes{64} << 10, publicFigureRanks(16), Algorithm::Tree).timeUs, 30.80, 0.01);
    auto bad = profileFromJson(R"({"shardlab_profile": 1, "name": "x", "ll_max_bus_gbps": [22.5]})", "bad");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("ll_max_bus_gbps"), std::string::npos) << bad.error().message;
}
