// Sweeps: simulated rows against hand-computed alpha-beta values, the alpha-beta fit and the
// latency/bandwidth crossover, and simulated-versus-measured overlays.
#include "../test_helpers.h"

#include "shardlab/analysis/sweep.h"
#include "shardlab/analysis/sweep_fit.h"

#include <gtest/gtest.h>

using namespace shardlab;
using namespace shardlab::test;

namespace {
// Rows of an exact alpha-beta collective: T = alpha + S / beta.
std::vector<SweepRow> alphaBetaRows(double alphaUs, double betaGBps, const std::vector<Bytes>& sizes)
{
    std::vector<SweepRow> rows;
    for (Bytes b : sizes) {
        SweepRow r;
        r.bytes = b;
        r.timeUs = alphaUs + static_cast<double>(b) / (betaGBps * 1e3);
        rows.push_back(r);
    }
    return rows;
}
} // namespace

TEST(Sweep, SimulatedRowsByHand)
{
    CostModel m(nvswitchBox(4), unitProfile());
    const auto rows = simulateSweep(m, OpKind::AllReduce, 4, {1 << 20, 1'000'000'000});
    ASSERT_EQ(rows.size(), 2u);
    // 1 MiB: LL128 wins: 5 + 2 + 6 x max(0, 2 + 0.5 - 2.913) (each step's 17.476 / 6 us of data
    // hides its latency) + 1.5 x 1048576 B / (0.9 x 100 GB/s) x (1 + 2 x 90 / 850 / 6) (the ring's
    // receive-only last step; docs/cost-model.md, section 3) = 7 + 17.476 x 1.035294 = 25.093 us
    EXPECT_EQ(rows[0].protocol, Protocol::LL128);
    EXPECT_NEAR(rows[0].timeUs, 7 + 1.5 * 1048576 / 90e3 * (1 + 2 * 90 / 850.0 / 6), 1e-9);
    EXPECT_NEAR(rows[0].timeUs, 25.0931, 0.0001);
    EXPECT_EQ(rows[0].count, 262144u);
    EXPECT_NEAR(rows[0].algbwGBps, 1048576 / rows[0].timeUs / 1e3, 1e-12);
    EXPECT_NEAR(rows[0].busbwGBps, rows[0].algbwGBps * 1.5, 1e-12);
    EXPECT_EQ(rows[0].wrong, -1);
    // 1 GB: Simple, 9 + 21 + 15000 x (1 + 2 x 100 / 850 / 6) = 15,618.235 us (test_cost_model.cpp)
    EXPECT_EQ(rows[1].protocol, Protocol::Simple);
    EXPECT_NEAR(rows[1].timeUs, 30 + 15000 * (1 + 2 * 100 / 850.0 / 6), 1e-9);
    EXPECT_NEAR(rows[1].busbwGBps, 1e9 / rows[1].timeUs / 1e3 * 1.5, 1e-9);
    EXPECT_NEAR(rows[1].busbwGBps, 96.04, 0.01);
    // all-gather sizes are rounded down to whole floats per rank, as nccl-tests does
    const auto ag = simulateSweep(m, OpKind::AllGather, 4, {1000, 1001, 8});
    EXPECT_EQ(ag[0].bytes, 992u);
    EXPECT_EQ(ag[1].bytes, 992u);
    EXPECT_EQ(ag[2].bytes, 16u); // never below one float per rank
}

TEST(Sweep, AlphaBetaFitRecoversTheLine)
{
    const auto rows = alphaBetaRows(20, 100, {8, 1 << 10, 1 << 16, 1 << 20, 1 << 24, 1 << 28, 1 << 30});
    const AlphaBeta ab = fitAlphaBeta(rows);
    ASSERT_TRUE(ab.valid);
    EXPECT_NEAR(ab.alphaUs, 20, 1e-6);
    EXPECT_NEAR(ab.betaGBps, 100, 1e-6);
    EXPECT_NEAR(ab.crossoverBytes(), 2e6, 1e-3); // 20 us x 100 GB/s
    EXPECT_FALSE(fitAlphaBeta({}).valid);
    EXPECT_FALSE(fitAlphaBeta(alphaBetaRows(20, 100, {64, 64})).valid); // one size only
    // time that does not grow with size has no bandwidth term
    auto flat = alphaBetaRows(20, 100, {8, 1024});
    flat[1].timeUs = 19;
    EXPECT_FALSE(fitAlphaBeta(flat).valid);
}

TEST(Sweep, CrossoverIsWhereTheBandwidthTermReachesTheLatency)
{
    std::vector<Bytes> sizes;
    for (Bytes b = 8; b <= (1ULL << 30); b *= 4)
        sizes.push_back(b);
    const auto rows = alphaBetaRows(20, 100, sizes);
    // S* = 2e6 B: the first size at or above it is 8 x 4^9 = 2,097,152 B, where T = 40.97 us
    const int i = latencyBandwidthCrossover(rows);
    ASSERT_GE(i, 0);
    EXPECT_EQ(rows[static_cast<size_t>(i)].bytes, 2'097'152u);
    EXPECT_GE(rows[static_cast<size_t>(i)].timeUs, 2 * 20.0);
    EXPECT_LT(rows[static_cast<size_t>(i) - 1].timeUs, 2 * 20.0);
    // A sweep that starts bandwidth-bound is bandwidth-bound from its first row (the old rule,
    // "twice the first row's time", would have pointed at the second one).
    EXPECT_EQ(latencyBandwidthCrossover(alphaBetaRows(20, 100, {1 << 26, 1 << 28, 1 << 30})), 0);
    // A sweep of small messages only never gets there.
    EXPECT_EQ(latencyBandwidthCrossover(alphaBetaRows(20, 100, {8, 64, 512, 4096})), -1);
    // and the table marks it
    const std::string table = formatSweepTable(OpKind::AllReduce, 4, rows, verbatim("t"));
    EXPECT_NE(table.find("2097152"), std::string::npos);
    const auto mark = table.find("<- bandwidth-bound from here");
    ASSERT_NE(mark, std::string::npos);
    EXPECT_NE(table.rfind("2097152", mark), std::string::npos);
    EXPECT_EQ(table.find("<- bandwidth-bound", mark + 1), std::string::npos);
}

TEST(Sweep, SimulatedCrossoverOfAnH200AllReduceIsInTheMegabytes)
{
    // latency ~ 20 us and ~ 360 GB/s of bus bandwidth: alpha x beta is a few megabytes
    CostModel m(nvswitchBox(4, 450), CostProfile::defaults());
    const auto sizes = parseSizeRange("8:1G:4");
    ASSERT_TRUE(sizes.ok());
    const auto rows = simulateSweep(m, OpKind::AllReduce, 4, *sizes);
    const int i = latencyBandwidthCrossover(rows);
    ASSERT_GE(i, 0);
    EXPECT_GE(rows[static_cast<size_t>(i)].bytes, 1u << 20);
    EXPECT_LE(rows[static_cast<size_t>(i)].bytes, 64u << 20);
}

TEST(Sweep, OverlayMatchesRowsBySizeAndGivesTheError)
{
    const auto sim = alphaBetaRows(20, 100, {1024, 1 << 20, 1 << 30});
    auto meas = alphaBetaRows(25, 80, {1 << 20, 1 << 30, 1ULL << 31});
    const auto rows = overlaySweeps(sim, meas);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_TRUE(rows[0].simulated && !rows[0].measured && !rows[0].errorPct);
    ASSERT_TRUE(rows[1].errorPct.has_value());
    const double s = 20 + 1048576 / 1e5, mm = 25 + 1048576 / 8e4;
    EXPECT_NEAR(*rows[1].errorPct, (s - mm) / mm * 100, 1e-9);
    EXPECT_TRUE(rows[3].measured && !rows[3].simulated);
}

TEST(Sweep, ErrorStats)
{
    const ErrorStats s = errorStats({1, -3, 5, -10});
    EXPECT_EQ(s.count, 4);
    EXPECT_DOUBLE_EQ(s.medianAbsPct, 4.0);
    EXPECT_DOUBLE_EQ(s.worstAbsPct, 10.0);
    EXPECT_DOUBLE_EQ(s.meanPct, -1.75);
    EXPECT_DOUBLE_EQ(errorStats({2, -7, 3}).medianAbsPct, 3.0);
    EXPECT_EQ(errorStats({}).count, 0);
}
