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
    EXPECT_NEAR(predicted, published, tolerance * published)
        << "predicted " << predicted << ", published " << published;
}

} // namespace

// 8 H100 in one node, ring (NVLS off): "NCCL can get an effective NVLink bandwidth of 370GB/s"
// (github.com/NVIDIA/nccl-tests/issues/212). By hand: the ring's link 450 GB/s x 0.80 = 360 GB/s;
// 8 GiB moves 2 x 7/8 x 8 GiB = 15,032,385,536 B per rank: 41,756.626 us, stretched by the ring's
// receive-only last step (docs/cost-model.md, section 3): rho = 2 x 360 / (0.85 x 3350) = 0.252853,
// k = 14, x 1.018061 = 42,510.791 us; plus 6 + 12 + 14 x (4.0 + 0.4) = 79.6 us of latency:
// T = 42,590.391 us, busbw 15,032,385,536 B / T = 352.95 GB/s (360 before the last step).
TEST(PublicFigures, H100OneNodeRing370)
{
    CostModel m(preset("2x8-h100-ib")->firstGpus(8));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 8, kPublicFigureGiB8, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Ring);
    EXPECT_NEAR(busbw, 352.95, 0.01);
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
// of it per GPU, 411 GB/s worth, so the NICs limit). At 8 GiB: 2 x 15/16 x 8 GiB / 376 GB/s =
// 42,835.445 us, x (1 + 2 x 376 / (0.85 x 3350) / 30) = x 1.008803 (the last step) = 43,212.527 us,
// plus 6 + 12 + 28 x (4.0 + 0.4) + 2 x (14 + 5.0) = 179.2 us: T = 43,391.727 us, busbw 371.18 GB/s.
TEST(PublicFigures, H100TwoNodesRingPerNic)
{
    CostModel m(*preset("2x8-h100-ib"));
    const double busbw = publicFigureBusBw(m, 16, kPublicFigureGiB8, Algorithm::Ring);
    EXPECT_NEAR(busbw, 371.18, 0.01);
    expectNearPublished(busbw, 376.0);
}

// 2 x 8 H100 with NVLS, eight 400 Gb/s NICs (default algorithm): 470 GB/s
// (github.com/NVIDIA/nccl-tests/issues/309). NVLS-tree: algbw = min(B_nvls 274.5,
// B_net 376 / 1) = 274.5, plus the fill of its pipeline (docs/cost-model.md, 4b): 8 GiB is 512
// loops of 16 x 8 x 128 KB = 16 MiB, one loop's stages 61.119 (reduce) + 44.620 (network) + 61.119
// (multicast) us, fill = 166.859 - 61.119 = 105.739 us. T = 51 + 8 GiB / 274.5 GB/s + 105.739 =
// 51 + 31,292.93 + 105.74 = 31,449.67 us: busbw 8 GiB / T x 2 x 15/16 = 512.1 GB/s, 9.0% above.
TEST(PublicFigures, H100TwoNodesNvlsTree470)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 16, kPublicFigureGiB8, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::NvlsTree);
    EXPECT_NEAR(busbw, 512.1, 0.1);
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
    // 2 x 31/32 x 8 GiB / 376 GB/s = 44,263.29 us, x (1 + 2 x 376 / (0.85 x 3350) / 62) = x 1.004260
    // (the ring's last step) = 44,451.83 us: busbw 376 x 44,263.29 / 44,829.83 = 371.25 GB/s
    EXPECT_NEAR(busbw, 371.25, 0.05);
    expectNearPublished(busbw, 365.84);
}

// DGX A100, eight 200 Gb/s HDR NICs: "we measure 192GB/s AllReduce BusBW" (AddyLaddy, NVIDIA,
// github.com/NVIDIA/nccl/issues/812; the ring's figure, which the thread compares). Four nodes,
// ring: 8 x 25 x 0.94 = 188 GB/s; at 8 GiB 2 x 31/32 x 8 GiB / 188 GB/s = 88,526.59 us, x (1 + 2 x
// 188 / (0.85 x 2039) / 62) = x 1.003499 for the ring's receive-only last step = 88,836.36 us, plus
// 6 + 12 + 56 x (4.0 + 0.4) + 6 x (14 + 5.0) = 378.4 us: T = 89,214.76 us, busbw 186.55 GB/s.
TEST(PublicFigures, DgxA100EightHdr192)
{
    CostModel m(scaleOut(*preset("2x8-a100-8hdr"), 32));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 32, kPublicFigureGiB8, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Ring);
    EXPECT_NEAR(busbw, 186.55, 0.05);
    expectNearPublished(busbw, 192.0);
}

// 3 x 8 A100, four 200 Gb/s HDR NICs each: 96 GB/s peak at 128 MB, "96GB/s is the target"
// (sjeaugey, github.com/NVIDIA/nccl-tests/issues/119). At 128 MB (134,217,728 B) the ring wins.
// Tree by hand: algbw = min(B_chain / 2 = 300 x 0.8 / 2 = 120, B_net / 2 = 4 x 25 x 0.94 / 2 = 47,
// NCCL's per-channel cap 4 channels x 17.8 GB/s (perChMaxTreeBws, Ampere, three nodes or more) / 2
// = 35.6) = 35.6 GB/s, times NCCL's tree correction at 2^21 x 64 B (Simple: 0.9) = 32.04 GB/s;
// T = 6 + 12 (Simple) + 2 x 7 x (4.0 + 0.4) NVLink steps + 2 x 2 x (14 + 5.0) network steps
// + S / 32.04 GB/s = 155.6 + 4189.1 = 4344.7 us; busbw = S / T x 2 x 23/24 = 59.2 GB/s (77.3
// without the cap). The ring: 2 x 23 - 4 NVLink steps and 4 network steps, T = 18 + 42 x (4.0 +
// 0.4) + 4 x (14 + 5.0) + 2 x 23/24 S / 94 GB/s (four channels, one per NIC) = 278.8 + 2736.709
// us, the data stretched by the ring's last step, x (1 + 2 x 94 / (0.85 x 2039) / 46) = x 1.002358:
// 2743.162 us; T = 3021.962 us, busbw 85.13 GB/s, 11% below the figure.
TEST(PublicFigures, A100ThreeNodesFourHdr96)
{
    CostModel m(scaleOut(*preset("2x8-a100-4hdr"), 24));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 24, Bytes{128} << 20, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Ring);
    EXPECT_NEAR(busbw, 85.13, 0.01);
    expectNearPublished(busbw, 96.0);
    EXPECT_NEAR(publicFigureBusBw(m, 24, Bytes{128} << 20, Algorithm::Tree), 59.2, 0.1);
    // the ring alone, at the size where bandwidth dominates: four channels, one per NIC, 94 GB/s
    EXPECT_NEAR(publicFigureBusBw(m, 24, kPublicFigureGiB8, Algorithm::Ring), 94.0, 1.0);
}

// 2 x 8 A100, four 200 Gb/s HDR NICs each, default algorithm, 1-8 GB: 91 GB/s (user report,
// github.com/NVIDIA/nccl-tests/issues/100). NCCL's tuner caps its tree at 4 channels x 23.6 GB/s
// (perChMaxTreeBws, Ampere, two nodes; NVIDIA/nccl src/graph/tuning.cc) = 94.4 GB/s of bus
// bandwidth, algbw 47.2, below the ring's 4 x 24 x 16/30 = 51.2: NCCL runs the ring there, and so
// does the model. Ring by hand, 8 GiB: 6 + 12 + 28 x (4.0 + 0.4) + 2 x (14 + 5.0) = 179.2 us +
// 2 x 15/16 x 8 GiB / 94 GB/s = 171,341.780 us, x (1 + 2 x 94 / (0.85 x 2039) / 30) = x 1.003616
// (the ring's last step, A100 HBM 2039 GB/s) = 171,961.312 us: T = 172,140.512 us, busbw 93.56 GB/s
// (+2.8%); 1 GiB: 179.2 + 21,417.723 x 1.003616 = 21,674.364 us, busbw 92.89. The tree:
// min(B_chain / 2 = 120, B_net / 1 = 94, 47.2) = 47.2 GB/s,
// T = 6 + 12 + 2 x 7 x 4.4 + 2 x 19 = 117.6 us + 8 GiB / 47.2 GB/s = 182,107.7 us, busbw 88.44
// (176 before the cap).
TEST(PublicFigures, A100TwoNodesFourHdrRing91)
{
    CostModel m(*preset("2x8-a100-4hdr"));
    Algorithm a{};
    const double busbw = publicFigureBusBw(m, 16, kPublicFigureGiB8, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Ring);
    EXPECT_NEAR(busbw, 93.56, 0.01);
    expectNearPublished(busbw, 91.0);
    const double oneGiB = publicFigureBusBw(m, 16, Bytes{1} << 30, Algorithm::Auto, &a);
    EXPECT_EQ(a, Algorithm::Ring);
    EXPECT_NEAR(oneGiB, 92.89, 0.01);
    expectNearPublished(oneGiB, 91.0);
    EXPECT_NEAR(publicFigureBusBw(m, 16, kPublicFigureGiB8, Algorithm::Tree), 88.44, 0.01);
}

// The cap is NCCL's per GPU generation, read from the GPU's name: the same two nodes named H100
// (Hopper, two nodes: 41.4 GB/s per channel) cap the tree at 4 x 41.4 / 2 = 82.8 GB/s of algbw,
// below B_chain / 2 = 120 and B_net = 94 (Simple, 8 GiB: 117.6 us + 8 GiB / 82.8 GB/s =
// 103,860.8 us, busbw 155.07); a GPU the model does not know (no NCCL generation) is not capped:
// min(120, 94) = 94 GB/s, T = 117.6 + 91,382.3 = 91,499.9 us, busbw 176.02.
TEST(PublicFigures, TreeChannelCapFollowsTheGpuGeneration)
{
    Topology hopper = *preset("2x8-a100-4hdr");
    for (Gpu& g : hopper.gpus)
        g.name = "NVIDIA H100 80GB HBM3";
    CostModel h(hopper);
    EXPECT_NEAR(publicFigureBusBw(h, 16, kPublicFigureGiB8, Algorithm::Tree), 155.07, 0.01);
    Topology unknown = *preset("2x8-a100-4hdr");
    for (Gpu& g : unknown.gpus)
        g.name = "Some GPU";
    CostModel u(unknown);
    EXPECT_NEAR(publicFigureBusBw(u, 16, kPublicFigureGiB8, Algorithm::Tree), 176.02, 0.01);
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
// 256 KB on; and NVLS-tree's chunking (NCCL src/enqueue.cc, calcCollChunking): up to 4 MB the whole
// buffer is one loop of 16 channels x 8 heads x 32 KB, so its in-node reduce, network and in-node
// multicast run one after the other. NVLS-tree by hand: 23 + 2 x 14 = 51 us + S / 274.5 (reduce)
// + S / 376 (network, up and down) + S / 274.5 (multicast), B_nvls = 450 x 0.61 = 274.5 GB/s,
// B_net = 8 x 50 x 0.94 = 376 GB/s.
namespace {

double publicFigureMediumMicros(CostModel& m, Bytes bytes, Algorithm* chosen)
{
    const CollectiveCost c = m.collective(OpKind::AllReduce, bytes, publicFigureRanks(16));
    *chosen = c.algorithm;
    return c.timeUs;
}

} // namespace

// 256 KB: 46.8 us. NVLS-tree: 51 + 2 x 0.9550 + 0.6972 = 53.61 us (+14.5%; 51.95 before the
// chunking, +11%). The tree with LL, by hand: 25.2 + 262144 B / (19.5 GB/s x 0.4 (correction at
// 2^12 x 64 B)) = 25.2 + 33.6 = 58.8 us; before the cap and the correction it was 25.2 + 262144 /
// 54 GB/s = 30.1 us (-36%).
TEST(PublicFigures, H100TwoNodesMedium256K)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    const double us = publicFigureMediumMicros(m, Bytes{256} << 10, &a);
    EXPECT_EQ(a, Algorithm::NvlsTree);
    EXPECT_NEAR(us, 53.61, 0.01);
    expectNearPublished(us, 46.8, 0.25);
    const CollectiveCost tree =
        m.collective(OpKind::AllReduce, Bytes{256} << 10, publicFigureRanks(16), Algorithm::Tree);
    EXPECT_EQ(tree.protocol, Protocol::LL);
    EXPECT_NEAR(tree.timeUs, 58.81, 0.01);
}

// 1 MB: 71.5 us. NVLS-tree: 51 + 2 x 3.8200 + 2.7888 = 61.43 us (-14.1%; 54.82 before the
// chunking, -23%). The tree with LL: 25.2 + 1048576 / (19.5 x 0.5 (2^14)) = 25.2 + 107.5 = 132.7 us.
TEST(PublicFigures, H100TwoNodesMedium1M)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    const double us = publicFigureMediumMicros(m, Bytes{1} << 20, &a);
    EXPECT_EQ(a, Algorithm::NvlsTree);
    EXPECT_NEAR(us, 61.43, 0.01);
    expectNearPublished(us, 71.5, 0.25);
}

// 4 MB: 94.2 us. NVLS-tree, one loop (each channel's 256 KB share is 8 heads x 32 KB):
// 51 + 2 x 15.2798 + 11.1551 = 92.71 us (-1.6%; 66.28 before the chunking, -30%). Within 15%, as
// the large sizes.
TEST(PublicFigures, H100TwoNodesMedium4M)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    Algorithm a{};
    const double us = publicFigureMediumMicros(m, Bytes{4} << 20, &a);
    EXPECT_EQ(a, Algorithm::NvlsTree);
    EXPECT_NEAR(us, 92.71, 0.01);
    expectNearPublished(us, 94.2);
}

// NVLS-tree's loops (docs/cost-model.md, 4b): the fill vanishes as the loops grow. At 16 MB on the
// same cluster each channel's 1 MB share is 2 loops of 8 x 64 KB (1 MB < 4 x 8 x 128 KB): a loop is
// 8 MB, its stages 30.5596 (reduce), 22.3101 (network), 30.5596 (multicast) us, fill = 83.4293 -
// 30.5596 = 52.8697 us; T = 51 + 16 MB / 274.5 GB/s + 52.87 = 51 + 61.1192 + 52.8697 = 164.99 us.
// On four nodes the chunk starts at 64 KB (NVLSTREE_MAX_CHUNKSIZE), the tree sends 2S per node
// (k = 2, so B_net / k = 188 GB/s limits) and the network stage of a loop is D = 2 levels of
// k x loop / B_net = 22.3101 us: at 4 MB, one loop, 23 + 2 x 2 x 14 = 79 us + 4 MB / 188 GB/s
// (22.3101) + fill (2 x 15.2798 + 2 x 22.3101 - 22.3101 = 52.8697) = 154.18 us.
TEST(PublicFigures, NvlsTreeFillShrinksWithTheLoops)
{
    CostModel m(*preset("2x8-h100-ib-nvls"));
    EXPECT_NEAR(m.collective(OpKind::AllReduce, Bytes{16} << 20, publicFigureRanks(16), Algorithm::NvlsTree).timeUs,
                164.99, 0.01);
    CostModel four(scaleOut(*preset("2x8-h100-ib-nvls"), 32));
    EXPECT_NEAR(four.collective(OpKind::AllReduce, Bytes{4} << 20, publicFigureRanks(32), Algorithm::NvlsTree).timeUs,
                154.18, 0.01);
}

// The ring's LL across nodes is capped at 39.0 GB/s of bus bandwidth on two nodes (llMaxBws,
// Intel): forced on 2 x 8 H100 without NVLS it runs LL at 64 KB and 128 KB, and the extra 64 KB
// costs 2 x 15/16 x 65536 B / 39.0 GB/s = 3.1508 us (uncapped, 0.30 x 376 = 112.8 GB/s: 1.09 us),
// x (1 + 2 x 39.0 / (0.85 x 3350) / 30) = x 1.000913 for the ring's last step: 3.1536 us.
TEST(PublicFigures, RingLlCapAcrossTwoNodes)
{
    CostModel m(*preset("2x8-h100-ib"));
    const CollectiveCost a = m.collective(OpKind::AllReduce, Bytes{64} << 10, publicFigureRanks(16), Algorithm::Ring);
    const CollectiveCost b = m.collective(OpKind::AllReduce, Bytes{128} << 10, publicFigureRanks(16), Algorithm::Ring);
    EXPECT_EQ(a.protocol, Protocol::LL);
    EXPECT_EQ(b.protocol, Protocol::LL);
    EXPECT_NEAR(b.timeUs - a.timeUs, 3.1536, 0.0001);
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
    const CollectiveCost tree =
        m.collective(OpKind::AllReduce, Bytes{64} << 10, publicFigureRanks(16), Algorithm::Tree);
    EXPECT_EQ(tree.protocol, Protocol::LL);
    EXPECT_NEAR(tree.timeUs, 34.91, 0.01);
    CostModel intel(*preset("2x8-h100-ib-nvls"));
    EXPECT_NEAR(intel.collective(OpKind::AllReduce, Bytes{64} << 10, publicFigureRanks(16), Algorithm::Tree).timeUs,
                30.80, 0.01);
    auto bad = profileFromJson(R"({"shardlab_profile": 1, "name": "x", "ll_max_bus_gbps": [22.5]})", "bad");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("ll_max_bus_gbps"), std::string::npos) << bad.error().message;
}

// NCCL caps the ring's LL128 per channel too (perChMaxRingLL128Bws, Hopper: 36.7 GB/s): across two
// nodes of eight H100 with eight NDR NICs the ring's LL128 runs at min(376 x 0.85 = 319.6,
// 8 x 36.7 = 293.6) GB/s of bus bandwidth, so 1 MB more costs 2 x 15/16 x 1048576 B / 293.6 GB/s
// = 6.6965 us (uncapped 6.152), x (1 + 2 x 293.6 / (0.85 x 3350) / 30) = x 1.006874 for the ring's
// last step: 6.7425 us. At 16 and 17 MB, where a step's data (over 3.5 us) covers an LL128 step's
// 1.6 + 0.4 us inside the nodes (docs/cost-model.md, section 3), so the latency is the same at both
// sizes; at 2 and 3 MB it is not (0.45 and 0.67 us of data per step). On A100 with HDR NICs the
// cap, 20 GB/s per channel, is above the
// model's 25 x 0.94 x 0.85 = 19.98 and changes nothing.
TEST(PublicFigures, RingLl128CapAcrossTwoNodes)
{
    CostModel m(*preset("2x8-h100-ib"));
    const CollectiveCost a = m.collective(OpKind::AllReduce, Bytes{16} << 20, publicFigureRanks(16), Algorithm::Ring);
    const CollectiveCost b = m.collective(OpKind::AllReduce, Bytes{17} << 20, publicFigureRanks(16), Algorithm::Ring);
    EXPECT_EQ(a.protocol, Protocol::LL128);
    EXPECT_EQ(b.protocol, Protocol::LL128);
    EXPECT_NEAR(b.timeUs - a.timeUs, 6.7425, 0.0001);
}
